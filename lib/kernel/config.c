// SPDX-License-Identifier: GPL-2.0-only
/*
 * The configuration of a work item: the user's defconfig (migrated to the
 * tree) or the make target's .config, the fragments merged, the allocator
 * lines set, resolved by `make olddefconfig` and checked, with Kconfig's
 * word when a line did not take effect.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "kconfig/kconfig.h"
#include "migrate/migrate.h"
#include "kernel_priv.h"

/* The allocator symbols a variant may have to clear. */
static const char *const alloc_syms[] = {
	"SLAB", "SLAB_DEPRECATED", "SLOB", "SLOB_DEPRECATED", "SLUB", "SLUB_TINY", NULL,
};

int st_kernel_cfg_prepare(struct st_job *j)
{
	struct item *it = j->data;
	char path[PATH_MAX];
	const char *targets[] = { it->run->o->defconfig, NULL };
	int ret;

	if (st_kernel_item_cached(it)) {
		it->out->cached = true;
		it->run->res->ncached++;
		st_kernel_progress(it, "cached");
		return ST_JOB_UPTODATE;
	}
	/* From here on the item is not built until a new stamp says so. */
	st_pathf(path, "%s/" STAMP_NAME, it->out->dir);
	if (unlink(path) && errno != ENOENT)
		return -errno;
	ret = st_mkdir_p(it->out->dir);
	if (ret)
		return ret;
	st_pathf(path, "%s/" LOG_NAME, it->out->dir);
	if (truncate(path, 0) && errno != ENOENT)
		return -errno;
	if (it->run->is_file)
		return ST_JOB_UPTODATE;
	st_kernel_progress(it, it->run->o->defconfig);
	j->argv = st_kernel_make_argv(it, targets, false);
	return j->argv ? ST_JOB_RUN : -ENOMEM;
}

int st_kernel_cfg_finish(struct st_job *j, int status)
{
	struct item *it = j->data;

	if (status)
		st_kernel_item_fail(it, j, "make %s failed (exit status %d)", it->run->o->defconfig,
				    status);
	return status ? -EIO : 0;
}

/* Drop every line of @sym; 0 or -ENOMEM. */
static int drop_sym(struct st_defconfig *dc, const char *sym)
{
	long i;
	int ret;

	while ((i = st_defconfig_find(dc, sym)) >= 0) {
		ret = st_defconfig_delete(dc, i);
		if (ret)
			return ret;
	}
	return 0;
}

static int append(struct st_defconfig *dc, const char *text)
{
	return st_defconfig_insert(dc, dc->nr_lines, text);
}

int st_kernel_merge_fragment(struct st_defconfig *dc, const struct st_defconfig *frag)
{
	const struct st_dc_line *l;
	size_t i;
	int ret = 0;

	/* first every symbol the fragment sets goes, then the fragment follows */
	for (i = 0; !ret && i < frag->nr_lines; i++) {
		l = &frag->lines[i];
		if (l->kind == ST_DC_ASSIGN || l->kind == ST_DC_NOT_SET)
			ret = drop_sym(dc, l->sym);
	}
	/* an empty line before each fragment, as merge_config.sh writes */
	if (!ret)
		ret = append(dc, "");
	for (i = 0; !ret && i < frag->nr_lines; i++)
		ret = append(dc, frag->lines[i].text);
	return ret;
}

/*
 * The configuration of @it: the user's file migrated to the tree's version
 * (or the .config the make target wrote), with the allocator lines set.
 */
static int make_config(struct item *it, struct st_defconfig **out, struct st_error *e)
{
	struct st_defconfig *base = NULL, *dc = NULL;
	struct st_migration m;
	char path[PATH_MAX], line[128];
	size_t i;
	int ret;

	memset(&m, 0, sizeof(m));
	if (it->run->is_file) {
		ret = st_defconfig_parse(&base, it->run->defconfig_text,
					 strlen(it->run->defconfig_text), it->run->o->defconfig, e);
		if (ret)
			return ret;
		if (base->nr_errors) {
			st_defconfig_free(base);
			return st_err(e, EINVAL, it->run->o->defconfig, "%s",
				      base->nr_diags ? base->diags[0].msg : "not a defconfig");
		}
		ret = st_migrate(base, it->run->kver, &m);
		st_defconfig_free(base);
		if (ret)
			return st_err(e, -ret, NULL, "out of memory");
		dc = m.after;
		m.after = NULL;
		st_migration_release(&m);
	} else {
		st_pathf(path, "%s/.config", it->out->dir);
		ret = st_defconfig_load(&dc, path, e);
		if (ret)
			return ret;
	}
	ret = 0;
	for (i = 0; !ret && i < it->run->o->nfragments; i++)
		ret = st_kernel_merge_fragment(dc, it->run->frags[i]);
	for (i = 0; !ret && alloc_syms[i]; i++)
		ret = drop_sym(dc, alloc_syms[i]);
	if (!ret && it->kv->expert) {
		ret = drop_sym(dc, "EXPERT");
		if (!ret)
			ret = append(dc, "CONFIG_EXPERT=y");
	}
	snprintf(line, sizeof(line), "CONFIG_%s=y", it->choice);
	if (!ret)
		ret = append(dc, line);
	if (!ret && it->kv->tiny)
		ret = append(dc, "CONFIG_SLUB_TINY=y");
	else if (!ret && it->has_tiny && !strcmp(it->choice, "SLUB"))
		ret = append(dc, "# CONFIG_SLUB_TINY is not set");
	for (i = 0; !ret && it->run->o->extra && it->run->o->extra[i]; i++) {
		const char *x = it->run->o->extra[i], *eq = strchr(x, '=');
		char sym[128];

		if (strncmp(x, "CONFIG_", 7) || !eq || eq - x - 7 >= (long)sizeof(sym)) {
			st_defconfig_free(dc);
			return st_err(e, EINVAL, NULL, "bad configuration line '%s'", x);
		}
		snprintf(sym, sizeof(sym), "%.*s", (int)(eq - x - 7), x + 7);
		ret = drop_sym(dc, sym);
		if (!ret)
			ret = append(dc, x);
	}
	if (ret) {
		st_defconfig_free(dc);
		return st_err(e, -ret, NULL, "out of memory");
	}
	*out = dc;
	return 0;
}

int st_kernel_old_prepare(struct st_job *j)
{
	struct item *it = j->data;
	const char *targets[] = { "olddefconfig", NULL };
	struct st_defconfig *dc = NULL;
	struct st_error e = { 0 };
	char path[PATH_MAX];
	size_t len;
	int ret;

	if (it->out->cached)
		return ST_JOB_UPTODATE;
	ret = make_config(it, &dc, &e);
	if (!ret) {
		ret = st_defconfig_render(dc, &it->config_text, &len);
		st_pathf(path, "%s/.config", it->out->dir);
		if (!ret)
			ret = st_kernel_write_text(path, it->config_text, len, &e);
		st_defconfig_free(dc);
	}
	if (ret) {
		/* e.g. the config target's make wrote no .config: name the file. */
		st_job_fail(j, "%s: %s%s%s", it->out->name, e.code ? e.file : "",
			    e.code && e.file[0] ? ": " : "", e.code ? e.msg : strerror(-ret));
		return ret;
	}
	st_kernel_progress(it, "olddefconfig");
	j->argv = st_kernel_make_argv(it, targets, false);
	return j->argv ? ST_JOB_RUN : -ENOMEM;
}

/* Kconfig's word on why @sym=y did not take effect in @it's configuration. */
static char *explain(struct item *it, const char *sym)
{
	struct st_kc_opts ko = {
		.srctree = it->run->src,
		.arch = it->out->arch,
		.cross_compile = it->cross,
		.python = it->run->o->python,
	};
	struct st_kc_assign *as = NULL;
	struct st_defconfig *dc = NULL;
	struct st_kc_result *res = NULL;
	struct st_kconfig *kc = NULL;
	struct st_error e = { 0 };
	char *msg = NULL;
	size_t i, n = 0;

	if (st_defconfig_parse(&dc, it->config_text, strlen(it->config_text), "config", &e))
		goto out;
	as = calloc(dc->nr_lines + 1, sizeof(*as));
	if (!as)
		goto out;
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (l->kind != ST_DC_ASSIGN && l->kind != ST_DC_NOT_SET)
			continue;
		as[n].sym = l->sym;
		as[n].val = l->kind == ST_DC_ASSIGN ? l->val : NULL;
		as[n].line = i + 1;
		n++;
	}
	if (st_kconfig_open(&ko, &kc, &e) ||
	    st_kconfig_verify(kc, as, n, ST_KC_DEFCONFIG, false, &res, &e))
		goto out;
	for (i = 0; i < res->nr_findings; i++) {
		if (!strcmp(res->findings[i].sym, sym)) {
			msg = st_asprintf("%s%s%s", res->findings[i].message,
					  *res->findings[i].detail ? "; " : "",
					  res->findings[i].detail);
			break;
		}
	}
out:
	if (!msg && e.code)
		msg = st_asprintf("(Kconfig helper: %s)", e.msg);
	st_kc_result_free(res);
	st_kconfig_close(kc);
	free(as);
	st_defconfig_free(dc);
	return msg;
}

/*
 * The resolved allocator: the variant's choice is y (and SLUB_TINY as the
 * variant wants). Fills it->out->resolved with every CONFIG_SL[AOU]B* set.
 */
static int check_resolved(struct item *it, struct st_job *j)
{
	struct st_defconfig *dc;
	struct st_error e = { 0 };
	char path[PATH_MAX], *buf, *p;
	const char *bad = NULL, *want = "y";
	char xsym[128];
	size_t i, len = 1;
	long k;

	st_pathf(path, "%s/.config", it->out->dir);
	if (st_defconfig_load(&dc, path, &e)) {
		st_job_fail(j, "%s: %s: %s", it->out->name, path, e.msg);
		return -EIO;
	}
	k = st_defconfig_find(dc, it->choice);
	if (k < 0 || strcmp(dc->lines[k].val, "y"))
		bad = it->choice;
	k = st_defconfig_find(dc, "SLUB_TINY");
	if (!bad && it->kv->tiny && (k < 0 || strcmp(dc->lines[k].val, "y")))
		bad = "SLUB_TINY";
	if (!bad && !it->kv->tiny && k >= 0 && !strcmp(dc->lines[k].val, "y")) {
		bad = "SLUB_TINY";
		want = "n";
	}
	for (i = 0; !bad && it->run->o->extra && it->run->o->extra[i]; i++) {
		const char *x = it->run->o->extra[i] + 7, *eq = strchr(x, '=');

		snprintf(xsym, sizeof(xsym), "%.*s", (int)(eq - x), x);
		k = st_defconfig_find(dc, xsym);
		if (k < 0 || dc->lines[k].kind != ST_DC_ASSIGN || strcmp(dc->lines[k].val, eq + 1)) {
			bad = xsym;
			want = eq + 1;
		}
	}
	for (i = 0; i < dc->nr_lines; i++)
		if (dc->lines[i].kind == ST_DC_ASSIGN && !strncmp(dc->lines[i].sym, "SL", 2))
			len += strlen(dc->lines[i].text) + 1;
	buf = p = malloc(len);
	if (buf) {
		*p = 0;
		for (i = 0; i < dc->nr_lines; i++) {
			const struct st_dc_line *l = &dc->lines[i];
			const char *s = l->sym;

			if (l->kind != ST_DC_ASSIGN || strncmp(s, "SL", 2) ||
			    (s[2] != 'A' && s[2] != 'O' && s[2] != 'U') || s[3] != 'B')
				continue;
			p += sprintf(p, "%s%s=%s", p == buf ? "" : " ", s, l->val);
		}
	}
	free(it->out->resolved);
	it->out->resolved = buf;
	st_defconfig_free(dc);
	if (!buf)
		return -ENOMEM;
	if (bad) {
		char *why = explain(it, bad);

		st_job_fail(j, "%s: CONFIG_%s=%s did not take effect after make olddefconfig: %s",
			    it->out->name, bad, want,
			    why ? why : "Kconfig gives no reason");
		free(why);
		return -EINVAL;
	}
	return 0;
}

int st_kernel_old_finish(struct st_job *j, int status)
{
	struct item *it = j->data;

	if (status) {
		st_kernel_item_fail(it, j, "make olddefconfig failed (exit status %d)", status);
		return -EIO;
	}
	return check_resolved(it, j);
}
