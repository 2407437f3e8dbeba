// SPDX-License-Identifier: GPL-2.0-only
/*
 * One `slubtiny migrate` run over many files: resolve the target, pick the
 * arch of each file, keep one Kconfig helper per arch, migrate, verify
 * (optionally fixing dependencies) and compute the collateral changes.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/str.h"
#include "common/vec.h"
#include "defconfig/defconfig.h"
#include "kconfig/kconfig.h"
#include "layout/discover.h"
#include "layout/layout.h"
#include "linux/slab_history.h"
#include "migrate/migrate.h"
#include "migrate/origin.h"

#define MAX_ARCHES	32

struct helper {
	char *arch;		/* "" for the host's */
	char target[16];	/* the model's kernel ("" with a tree) */
	struct st_kconfig *kc;
};

struct st_mig_session {
	struct st_mig_opts opts;
	char warning[256];	/* for the CLI, "" when none */
	struct st_kver target;
	char target_str[16];
	char *srctree_real;	/* realpath of --srctree, or NULL */
	struct helper helpers[MAX_ARCHES];
	size_t nr_helpers;
};

int st_kver_of_tree(const char *srctree, struct st_kver *v, struct st_error *err)
{
	char path[PATH_MAX], line[256];
	int major = -1, minor = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/Makefile", srctree);
	f = fopen(path, "r");
	if (!f)
		return st_err(err, errno, path, "cannot read the kernel Makefile: %s",
			      strerror(errno));
	/* VERSION and PATCHLEVEL are the first assignments of the Makefile. */
	while (fgets(line, sizeof(line), f) && (major < 0 || minor < 0)) {
		if (sscanf(line, "VERSION = %d", &major) == 1)
			continue;
		sscanf(line, "PATCHLEVEL = %d", &minor);
	}
	fclose(f);
	if (major < 0 || minor < 0)
		return st_err(err, EINVAL, path, "no VERSION/PATCHLEVEL: not a kernel tree");
	v->major = major;
	v->minor = minor;
	return 0;
}

int st_mig_session_new(struct st_mig_session **out, const struct st_mig_opts *opts,
		       struct st_error *err)
{
	struct st_mig_session *s;
	char real[PATH_MAX];
	unsigned int i;
	int ret = 0;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return st_err(err, ENOMEM, NULL, "out of memory");
	s->opts = *opts;
	s->target = st_kver_newest;
	if (opts->srctree) {
		if (!realpath(opts->srctree, real)) {
			ret = st_err(err, errno, opts->srctree, "%s", strerror(errno));
			goto fail;
		}
		s->srctree_real = strdup(real);
		if (!s->srctree_real) {
			ret = st_err(err, ENOMEM, NULL, "out of memory");
			goto fail;
		}
		if (!opts->target) {
			ret = st_kver_of_tree(opts->srctree, &s->target, err);
			if (ret)
				goto fail;
		}
	}
	if (opts->target && st_kver_parse(opts->target, &s->target)) {
		ret = st_err(err, EINVAL, NULL, "invalid target kernel '%s' (want e.g. 6.12)",
			     opts->target);
		goto fail;
	}
	if (!opts->srctree && st_kver_cmp(s->target, st_kver_newest) > 0) {
		ret = st_err(err, EINVAL, NULL, "target kernel %d.%d is newer than the newest "
			     "kernel slubtiny knows (%d.%d): only that kernel's tree can judge it",
			     s->target.major, s->target.minor, st_kver_newest.major,
			     st_kver_newest.minor);
		goto fail;
	}
	for (i = 0; i < ST_ARCH_FROM_NR && !opts->arch.s[i].arch; i++)
		;
	/* the ARCH the command was told that wins over the others it was told */
	if (i < ST_ARCH_FROM_NR && !st_arch_known(opts->arch.s[i].arch)) {
		ret = st_err(err, EINVAL, NULL, "unknown ARCH '%s' (from %s; an ARCH as for "
			     "make: arm, sh, x86_64, ...)", opts->arch.s[i].arch,
			     st_arch_from_name(i));
		goto fail;
	}
	if (opts->srctree && opts->target) {
		struct st_kver tv;

		if (!st_kver_of_tree(opts->srctree, &tv, err) &&
		    st_kver_cmp(tv, s->target))
			snprintf(s->warning, sizeof(s->warning),
				 "target kernel %d.%d but %s is linux %d.%d: the rules "
				 "rewrite for %d.%d, the tree judges as %d.%d",
				 s->target.major, s->target.minor, opts->srctree,
				 tv.major, tv.minor, s->target.major, s->target.minor,
				 tv.major, tv.minor);
		st_error_clear(err);
	}
	snprintf(s->target_str, sizeof(s->target_str), "%d.%d", s->target.major,
		 s->target.minor);
	*out = s;
	return 0;
fail:
	st_mig_session_free(s);
	return ret;
}

void st_mig_session_free(struct st_mig_session *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_helpers; i++) {
		st_kconfig_close(s->helpers[i].kc);
		free(s->helpers[i].arch);
	}
	free(s->srctree_real);
	free(s);
}

const char *st_mig_session_warning(const struct st_mig_session *s)
{
	return s->warning[0] ? s->warning : NULL;
}

struct st_kver st_mig_session_target(const struct st_mig_session *s)
{
	return s->target;
}

static int helper_for(struct st_mig_session *s, const char *arch, struct st_kver target,
		      struct st_kconfig **kc, struct st_error *err)
{
	struct st_kc_opts o = {
		.srctree = s->opts.srctree,
		.arch = arch,
		.cross_compile = s->opts.cross_compile,
	};
	char tv[16] = "";
	struct helper *h;
	size_t i;
	int ret;

	/* a tree is one kernel; the bundled models are one a version */
	if (!s->opts.srctree)
		snprintf(tv, sizeof(tv), "%d.%d", target.major, target.minor);
	o.target = tv[0] ? tv : s->target_str;
	for (i = 0; i < s->nr_helpers; i++) {
		if (!strcmp(s->helpers[i].arch, arch ? arch : "") &&
		    !strcmp(s->helpers[i].target, tv)) {
			*kc = s->helpers[i].kc;
			return 0;
		}
	}
	if (s->nr_helpers == MAX_ARCHES) {
		st_kconfig_close(s->helpers[0].kc);
		free(s->helpers[0].arch);
		memmove(s->helpers, s->helpers + 1, --s->nr_helpers * sizeof(*h));
	}
	h = &s->helpers[s->nr_helpers];
	ret = st_kconfig_open(&o, &h->kc, err);
	if (ret)
		return ret;
	snprintf(h->target, sizeof(h->target), "%s", tv);
	h->arch = strdup(arch ? arch : "");
	if (!h->arch) {
		st_kconfig_close(h->kc);
		return st_err(err, ENOMEM, NULL, "out of memory");
	}
	s->nr_helpers++;
	*kc = h->kc;
	return 0;
}

/*
 * The assignments of @dc for the Kconfig client (pointers into @dc). The
 * lines the migration wrote are the targets of fix_deps: a fix exists to
 * make the migration take effect, not to repair the rest of the board. A
 * CONFIG_SLUB_TINY=y the file already had is one too: it is the allocator
 * choice itself, and without EXPERT it silently builds plain SLUB (the
 * hint of check's slub-tiny-deps promises --fix adds what it lacks).
 */
static struct st_kc_assign *assigns_of(const struct st_defconfig *dc, size_t *n)
{
	struct st_kc_assign *a = malloc((dc->nr_lines + 1) * sizeof(*a));
	size_t i;

	*n = 0;
	if (!a)
		return NULL;
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (!l->sym)
			continue;
		a[*n].sym = l->sym;
		a[*n].val = l->kind == ST_DC_NOT_SET ? NULL : l->val;
		a[*n].line = (int)i + 1;
		a[*n].fix_target = !l->lineno || l->modified ||
				   (!strcmp(l->sym, "SLUB_TINY") && a[*n].val &&
				    !strcmp(a[*n].val, "y"));
		(*n)++;
	}
	return a;
}

/* @own (taken) over @b's assignments, as conf merges them; NULL on ENOMEM */
static struct st_kc_assign *with_base(const struct st_layout_base *b,
				      struct st_kc_assign *own, size_t *n)
{
	struct st_kc_assign *a;

	if (!own || !b->n)
		return own;
	a = st_layout_assigns(b, own, *n, n);
	free(own);
	return a;
}

/* @dc's assignments over @b's (a build system's base), as conf merges them */
static int resolve(struct st_kconfig *kc, const struct st_layout_base *b,
		   const struct st_defconfig *dc, enum st_kc_mode mode, bool fix,
		   bool want_config, struct st_kc_result **res, struct st_error *err)
{
	struct st_kc_assign *a;
	size_t n, i;
	int ret;

	a = with_base(b, assigns_of(dc, &n), &n);
	if (!a)
		return st_err(err, ENOMEM, NULL, "out of memory");
	for (i = 0; fix && i < n && !a[i].fix_target; i++)
		;
	if (fix && i == n)	/* the migration wrote nothing to make effective */
		fix = false;
	if (fix)
		ret = st_kconfig_fix_deps(kc, a, n, mode, want_config, res, err);
	else
		ret = st_kconfig_verify(kc, a, n, mode, want_config, res, err);
	free(a);
	return ret;
}

static int cmp_fix_desc(const void *a, const void *b)
{
	const struct st_kc_fix *x = *(const struct st_kc_fix *const *)a;
	const struct st_kc_fix *y = *(const struct st_kc_fix *const *)b;
	int ax = x->replace_line ? x->replace_line : x->after_line;
	int ay = y->replace_line ? y->replace_line : y->after_line;

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return x->order > y->order ? -1 : x->order < y->order;
}

static int add_fix_change(struct st_migration *m, const struct st_kc_fix *fx, int line,
			  const char *rule)
{
	struct st_mig_change *c = st_migration_new_change(m);

	if (!c)
		return -ENOMEM;
	c->rule = rule;
	c->line = line;
	c->text = st_strpool_dup(&m->strs, fx->line_text);
	c->msg = st_strpool_printf(&m->strs, "%s %s: %s", fx->replace_line ? "set" : "added",
				fx->line_text, fx->reason ? fx->reason : "");
	return c->text && c->msg ? 0 : -ENOMEM;
}

char *st_mig_map_lines(char *dst, size_t size, const char *src,
		       int (*map)(void *ctx, int line), void *ctx)
{
	size_t n = 0;
	const char *p = src;
	char *end;
	long v;
	int w;

	if (!size)
		return dst;
	while (*p && n + 1 < size) {
		/* "line N", "line" a word of its own */
		if (!strncmp(p, "line ", 5) && p[5] >= '0' && p[5] <= '9' &&
		    (p == src || !isalnum((unsigned char)p[-1]))) {
			v = strtol(p + 5, &end, 10);
			if (v > 0 && v < INT_MAX) {
				w = snprintf(dst + n, size - n, "line %d", map(ctx, (int)v));
				n += w > 0 ? (size_t)w : 0;
				if (n >= size)
					n = size - 1;
				p = end;
				continue;
			}
		}
		dst[n++] = *p++;
	}
	dst[n] = '\0';
	return dst;
}

/* Lines from @after + 1 on moved by @delta: an insertion below @after. */
struct shift {
	int after, delta;
};

static int shifted(void *ctx, int line)
{
	const struct shift *sh = ctx;

	return line > sh->after ? line + sh->delta : line;
}

/*
 * A line inserted after line @after (@delta 1) or line @after
 * deleted (@delta -1): the notes that name lines of the
 * model (the fixes' and the refusals', in its numbering) follow it, so
 * that they name the lines of the file as written.
 */
static int shift_notes(struct st_mig_file *f, int after, int delta)
{
	struct shift sh = { .after = after, .delta = delta };
	char buf[1024], *t;
	size_t i;

	for (i = 0; i < f->m.nr_changes; i++) {
		struct st_mig_change *c = &f->m.changes[i];

		/* the rules' own notes name the input's lines */
		if (!c->text[0])
			continue;
		st_mig_map_lines(buf, sizeof(buf), c->msg, shifted, &sh);
		c->msg = st_strpool_dup(&f->m.strs, buf);
		if (!c->msg)
			return -ENOMEM;
	}
	for (i = 0; i < f->nr_refused; i++) {
		if (!strstr(f->refused[i], "line "))
			continue;
		st_mig_map_lines(buf, sizeof(buf), f->refused[i], shifted, &sh);
		t = strdup(buf);
		if (!t)
			return -ENOMEM;
		free(f->refused[i]);
		f->refused[i] = t;
	}
	return 0;
}

/*
 * A fix about a line of the file itself: drop it, or only say why it now
 * takes effect. Its note names the input's line, as a rule's does.
 */
static int line_fix(struct st_mig_file *f, const struct st_kc_fix *fx)
{
	struct st_migration *m = &f->m;
	size_t idx = (size_t)fx->replace_line - 1;
	struct st_mig_change *c;
	int ret;

	if (fx->replace_line <= 0 || idx >= m->after->nr_lines)
		return -EPROTO;
	c = st_migration_new_change(m);
	if (!c)
		return -ENOMEM;
	c->line = m->after->lines[idx].lineno;
	c->text = "";
	if (fx->op == ST_KC_FIX_KEEP) {
		c->rule = "restored";
		c->msg = st_strpool_printf(&m->strs, "%s %s before %d.%d: the "
					   "board's own value", fx->line_text, fx->reason,
					   st_slab_syms[ST_SLAB_EMBEDDED].removed.major,
					   st_slab_syms[ST_SLAB_EMBEDDED].removed.minor);
		return c->msg ? 0 : -ENOMEM;
	}
	c->rule = "dead-line";
	c->msg = st_strpool_printf(&m->strs, "dropped %s: %s", fx->line_text, fx->reason);
	if (!c->msg)
		return -ENOMEM;
	ret = st_defconfig_delete(m->after, idx);
	return ret ? ret : shift_notes(f, fx->replace_line, -1);
}

/*
 * Put the helper's fixes into the migrated model, bottom up so that the line
 * numbers it gave (numbers of the model it saw) stay valid; the notes that
 * name lines below an inserted one are moved with them.
 */
static int apply_fixes(struct st_mig_file *f, const struct st_kc_result *res,
		       const char *rule)
{
	struct st_migration *m = &f->m;
	const struct st_kc_fix **fx;
	struct st_kc_fix *own;
	size_t i, first = m->nr_changes;
	int ret = 0, line;

	if (!res->nr_fixes)
		return 0;
	fx = malloc(res->nr_fixes * sizeof(*fx));
	own = malloc(res->nr_fixes * sizeof(*own));
	if (!fx || !own) {
		free(fx);
		free(own);
		return -ENOMEM;
	}
	for (i = 0; i < res->nr_fixes; i++) {
		/*
		 * A line of a build system's base is not ours to change: the
		 * owned file, merged last, overrides it from its end.
		 */
		own[i] = res->fixes[i];
		if (st_layout_line_part(own[i].replace_line, &line) >= 0 ||
		    st_layout_line_part(own[i].after_line, &line) >= 0) {
			own[i].replace_line = 0;
			own[i].after_line = (int)m->after->nr_lines;
		}
		fx[i] = &own[i];
	}
	qsort(fx, res->nr_fixes, sizeof(*fx), cmp_fix_desc);
	for (i = 0; !ret && i < res->nr_fixes; i++) {
		if (fx[i]->op != ST_KC_FIX_SET) {
			ret = line_fix(f, fx[i]);
			continue;
		}
		if (fx[i]->replace_line > 0)
			ret = st_defconfig_replace(m->after, fx[i]->replace_line - 1,
						   fx[i]->line_text);
		else
			ret = st_defconfig_insert(m->after, fx[i]->after_line,
						  fx[i]->line_text);
		if (!ret)
			ret = add_fix_change(m, fx[i], fx[i]->replace_line ?
					     fx[i]->replace_line : fx[i]->after_line + 1, rule);
		if (!ret && fx[i]->replace_line <= 0)
			ret = shift_notes(f, fx[i]->after_line, 1);
	}
	free(fx);
	free(own);
	/* the notes in file order: they were added bottom up */
	for (i = 0; !ret && i < res->nr_fixes / 2; i++) {
		struct st_mig_change t = m->changes[first + i];

		m->changes[first + i] = m->changes[m->nr_changes - 1 - i];
		m->changes[m->nr_changes - 1 - i] = t;
	}
	if (!ret)
		m->changed = true;
	return ret;
}

/* @s with @b's lines named by their file; "" for NULL; NULL on ENOMEM. */
static char *base_text(const struct st_layout_base *b, const char *s)
{
	return b->n && s ? st_layout_base_text(b, s) : strdup(s ? s : "");
}

static int cmp_kc_line_sym(const void *a, const void *b)
{
	const struct st_kc_finding *x = *(const struct st_kc_finding *const *)a;
	const struct st_kc_finding *y = *(const struct st_kc_finding *const *)b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->sym, y->sym);
}

/*
 * Drop the rule table's unknown and ineffective findings of @m on a line
 * and symbol @res also has: a search in @res sorted, not a scan per finding.
 */
static int drop_guesses(struct st_migration *m, const struct st_kc_result *res)
{
	const struct st_kc_finding **by, *kp;
	struct st_kc_finding key;
	size_t i, k;

	if (!res->nr_findings)
		return 0;
	by = malloc(res->nr_findings * sizeof(*by));
	if (!by)
		return -ENOMEM;
	for (i = 0; i < res->nr_findings; i++)
		by[i] = &res->findings[i];
	qsort(by, res->nr_findings, sizeof(*by), cmp_kc_line_sym);
	for (i = 0, k = 0; i < m->nr_findings; i++) {
		const struct st_mig_finding *x = &m->findings[i];

		/* Parser findings (duplicate, conflict, syntax) always stay. */
		if (!strcmp(x->kind, "unknown") || !strcmp(x->kind, "ineffective")) {
			memset(&key, 0, sizeof(key));
			key.line = x->line;
			key.sym = (char *)x->symbol;
			kp = &key;
			if (bsearch(&kp, by, res->nr_findings, sizeof(*by), cmp_kc_line_sym))
				continue;
		}
		m->findings[k++] = *x;
	}
	m->nr_findings = k;
	free(by);
	return 0;
}

/*
 * Kconfig findings replace the rule table's own slab guesses for a line.
 * Those on lines of @b (a build system's base) are the base's: counted in
 * *@in_base, never the migrated file's.
 */
static int merge_findings(struct st_migration *m, const struct st_layout_base *b,
			  const struct st_kc_result *res, size_t *in_base)
{
	struct st_mig_finding f;
	size_t j;
	char *msg, *detail, *full;
	int ret, line;

	ret = drop_guesses(m, res);
	if (ret)
		return ret;
	for (j = 0; j < res->nr_findings; j++) {
		const struct st_kc_finding *kf = &res->findings[j];

		if (st_layout_line_part(kf->line, &line) >= 0) {
			if (in_base)
				(*in_base)++;
			continue;
		}
		msg = base_text(b, kf->message);
		detail = base_text(b, kf->detail);
		/* "fix: CONFIG_EXPERT=y" reads better than a bare line. */
		full = msg && detail ? st_asprintf("%s%s%s%s", detail,
						   kf->fix && *detail ? "\n" : "",
						   kf->fix ? "fix: " : "",
						   kf->fix ? kf->fix : "") : NULL;
		memset(&f, 0, sizeof(f));
		f.line = kf->line;
		f.symbol = kf->sym;
		f.kind = st_kc_kind_name(kf->kind);
		f.requested = kf->requested;
		f.actual = kf->actual;
		f.cause = st_kc_cause_name(kf->cause);
		f.message = msg;
		f.detail = full;
		ret = full ? st_migration_add_finding(m, &f) : -ENOMEM;
		free(msg);
		free(detail);
		free(full);
		if (ret)
			return ret;
	}
	return 0;
}

/* Append @sym to the NULL-terminated *skip (room: *cap). */
static int add_skip(const char ***skip, size_t *n, size_t *cap, const char *sym)
{
	if (st_vec_grow(skip, cap, *n + 2, sizeof(**skip)))
		return -ENOMEM;
	(*skip)[(*n)++] = sym;
	(*skip)[*n] = NULL;
	return 0;
}

/* Symbols the migration set on purpose: not collateral. */
static const char **direct_symbols(const struct st_mig_file *f)
{
	const struct st_defconfig *a = f->m.after, *b = f->before;
	const char **skip = NULL;
	size_t i, j, n = 0, cap = 0;

	if (add_skip(&skip, &n, &cap, "SLUB"))
		return NULL;
	for (i = 0; i < a->nr_lines; i++)
		if (a->lines[i].sym && (!a->lines[i].lineno || a->lines[i].modified) &&
		    add_skip(&skip, &n, &cap, a->lines[i].sym))
			goto oom;
	/*
	 * the input lines a rule rewrote; not those a fix-deps line was added
	 * next to (it is in @a already, and its neighbour is not set by it)
	 */
	for (i = 0; i < f->m.nr_changes; i++) {
		int line = f->m.changes[i].line;

		/* a restored line is as it was: what it changes is listed */
		if (f->m.changes[i].text[0] || !strcmp(f->m.changes[i].rule, "restored"))
			continue;
		/* the input's line N is its N-th line: no scan for each change */
		j = line > 0 && (size_t)line <= b->nr_lines &&
		    b->lines[line - 1].lineno == line ? (size_t)line - 1 : 0;
		for (; j < b->nr_lines; j++)
			if (b->lines[j].lineno == line)
				break;
		if (j < b->nr_lines && b->lines[j].sym &&
		    add_skip(&skip, &n, &cap, b->lines[j].sym))
			goto oom;
	}
	return skip;
oom:
	free(skip);
	return NULL;
}

/* A string's value as .config holds it: quoted, '"' and '\\' escaped. */
static char *conf_string(const char *v)
{
	char *out = malloc(2 * strlen(v) + 3), *p = out;

	if (!out)
		return NULL;
	*p++ = '"';
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			*p++ = '\\';
		*p++ = *v;
	}
	*p++ = '"';
	*p = '\0';
	return out;
}

static void symvals_free(struct st_symval *v, const struct st_kc_result *r)
{
	size_t i;

	for (i = 0; v && i < r->nr_config; i++)
		if (r->config[i].type == 's')
			free((char *)v[i].val);
	free(v);
}

/* @r's values as .config writes them (st_symval: strings quoted). */
static struct st_symval *symvals(const struct st_kc_result *r)
{
	struct st_symval *v = calloc(r->nr_config + 1, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < r->nr_config; i++) {
		v[i].sym = r->config[i].name;
		v[i].val = r->config[i].value;
		if (r->config[i].type == 's' && r->config[i].value &&
		    !(v[i].val = conf_string(r->config[i].value))) {
			symvals_free(v, r);
			return NULL;
		}
	}
	return v;
}

static int collateral(struct st_mig_file *f, const struct st_kc_result *before,
		      const struct st_kc_result *after)
{
	struct st_symval *b = symvals(before), *a = symvals(after);
	const char **skip = direct_symbols(f);
	struct st_collateral *loose = NULL;
	size_t nr_loose = 0;
	int ret = -ENOMEM;

	if (a && b && skip)
		ret = st_migrate_collateral(b, before->nr_config, a, after->nr_config,
					    skip, &f->collateral, &f->nr_collateral);
	/* what scripts/diffconfig would show, for --all, and what is left out */
	if (!ret)
		ret = st_migrate_config_diff(b, before->nr_config, a, after->nr_config,
					     &f->changed_all, &f->nr_changed_all);
	if (!ret)
		ret = st_migrate_collateral(b, before->nr_config, a, after->nr_config,
					    NULL, &loose, &nr_loose);
	if (!ret) {
		f->nr_set_by_lines = nr_loose - f->nr_collateral;
		f->nr_only_n = f->nr_changed_all - nr_loose;
	}
	st_collateral_free(loose, nr_loose);
	symvals_free(a, after);
	symvals_free(b, before);
	free(skip);
	return ret;
}

static int keep_refusals(struct st_mig_file *f, const struct st_kc_result *res)
{
	char **r;
	size_t i;

	if (!res->nr_refused)
		return 0;
	r = realloc(f->refused, (f->nr_refused + res->nr_refused) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	f->refused = r;
	for (i = 0; i < res->nr_refused; i++) {
		f->refused[f->nr_refused] = strdup(res->refused[i]);
		if (!f->refused[f->nr_refused])
			return -ENOMEM;
		f->nr_refused++;
	}
	return 0;
}

/*
 * Zero collateral: the lines that keep every option the migration (and its
 * fixes) would change as a side effect at its old value, where a line can.
 */
static int pin_collateral(struct st_kconfig *kc, const struct st_layout_base *lb,
			  struct st_mig_file *f, enum st_kc_mode mode, struct st_error *err)
{
	struct st_kc_assign *a, *b;
	struct st_kc_result *res = NULL;
	size_t na, nb;
	int ret;

	a = with_base(lb, assigns_of(f->m.after, &na), &na);
	b = with_base(lb, assigns_of(f->before, &nb), &nb);
	if (!a || !b) {
		ret = st_err(err, ENOMEM, NULL, "out of memory");
		goto out;
	}
	ret = st_kconfig_pin(kc, a, na, b, nb, mode, &res, err);
	if (ret)
		goto out;
	/* kept first: apply_fixes() moves the lines they name too */
	ret = keep_refusals(f, res);
	if (!ret)
		ret = apply_fixes(f, res, "pin");
	if (ret)
		ret = st_err(err, -ret, f->path, "%s", strerror(-ret));
out:
	st_kc_result_free(res);
	free(a);
	free(b);
	return ret;
}

/*
 * Without --fix-deps, whether it would help: some finding names a fix and
 * the helper would write the fixes, refusing none (f->fix_deps_would), so
 * that the notes can say so. Not an error when it cannot tell.
 */
static int would_fix(struct st_kconfig *kc, const struct st_layout_base *lb,
		     struct st_mig_file *f, enum st_kc_mode mode, struct st_error *err)
{
	struct st_kc_result *rf = NULL;
	size_t i;
	int ret;

	for (i = 0; i < f->m.nr_findings; i++)
		if (strstr(f->m.findings[i].detail, "\nfix: "))
			break;
	if (i == f->m.nr_findings)
		return 0;
	ret = resolve(kc, lb, f->m.after, mode, true, false, &rf, err);
	if (ret)
		return ret;
	f->fix_deps_would = rf->nr_fixes && !rf->nr_refused;
	st_kc_result_free(rf);
	return 0;
}

static int verify(struct st_mig_session *s, const char *real, struct st_mig_file *f,
		  const struct st_layout *l, struct st_migration *baseline,
		  struct st_error *err)
{
	struct st_kc_result *rb = NULL, *ra = NULL, *rf = NULL;
	struct st_layout_base lb = { 0 };
	const char *base = strrchr(real, '/');
	enum st_kc_mode mode = ST_KC_DEFCONFIG;
	struct st_kconfig *kc = NULL;
	/* the host's is the helper's default */
	const char *arch = f->arch_from == ST_ARCH_FROM_HOST ? NULL : f->arch;
	int ret;

	base = strrchr(f->before->name, '/');
	if (!strcmp(base ? base + 1 : f->before->name, "tiny.config"))
		mode = ST_KC_TINYCONFIG;
	ret = helper_for(s, arch, f->target, &kc, err);
	/* an arch the tree lacks: about this file, not the tree */
	if (ret == -EINVAL) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		st_error_clear(err);
		return st_err(err, EINVAL, f->path, "%s", msg);
	}
	if (!ret)
		ret = st_layout_base_load(l, s->opts.srctree, arch, &lb, err);
	if (ret)
		return ret;
	f->verified_with = st_kconfig_describe(kc);
	if (s->opts.fix_deps) {
		ret = resolve(kc, &lb, f->m.after, mode, true, false, &rf, err);
		if (ret)
			goto out;
		ret = keep_refusals(f, rf);
		if (!ret)
			ret = apply_fixes(f, rf, "fix-deps");
		/* the rule table's findings, at the lines the fixes moved */
		if (!ret && rf->nr_fixes)
			ret = st_migration_refind(&f->m, f->target);
		if (ret) {
			ret = st_err(err, -ret, f->path, "%s", strerror(-ret));
			goto out;
		}
	}
	if (s->opts.fix_deps && !s->opts.no_pin && f->m.changed) {
		size_t nr = f->m.nr_changes;

		ret = pin_collateral(kc, &lb, f, mode, err);
		if (ret)
			goto out;
		if (f->m.nr_changes > nr)
			ret = st_migration_refind(&f->m, f->target);
		if (ret) {
			ret = st_err(err, -ret, f->path, "%s", strerror(-ret));
			goto out;
		}
	}
	ret = resolve(kc, &lb, f->m.after, mode, false, f->m.changed, &ra, err);
	if (!ret && f->m.changed)
		ret = resolve(kc, &lb, f->before, mode, false, true, &rb, err);
	if (ret)
		goto out;
	ret = merge_findings(&f->m, &lb, ra, &f->nr_in_base);
	if (!ret && !s->opts.fix_deps)
		ret = would_fix(kc, &lb, f, mode, err);
	if (ret)
		goto out;
	if (!ret && f->m.changed)
		ret = st_migration_findings_of(f->before, f->target, baseline);
	if (!ret && f->m.changed)
		ret = merge_findings(baseline, &lb, rb, NULL);
	if (!ret && f->m.changed)
		ret = collateral(f, rb, ra);
	if (ret)
		ret = st_err(err, -ret, f->path, "%s", strerror(-ret));
	f->verified = !ret;
out:
	st_kc_result_free(rf);
	st_kc_result_free(ra);
	st_kc_result_free(rb);
	st_layout_base_release(&lb);
	return ret;
}

/* Paths are shown exactly as given: editors and CI jump to them. */
static char *display_path(const char *path)
{
	return strdup(path);
}

/* The input's line that after line @idx (0-based) is or follows. */
static int in_line_of(const struct st_defconfig *after, size_t idx)
{
	size_t j;

	for (j = idx + 1; j-- > 0; )
		if (j < after->nr_lines && after->lines[j].lineno)
			return after->lines[j].lineno;
	return 1;
}

int st_mig_file_in_line(const struct st_mig_file *f, int line)
{
	return f->m.after ? in_line_of(f->m.after, line > 0 ? (size_t)line - 1 : 0) : line;
}

/*
 * Where each input line is, or what took its place, in @after: tab[L] is
 * the 1-based line of the first line of @after from input line L on (for
 * L up to *max). One pass, so that each change's look-up is no scan.
 */
static int *out_lines(const struct st_defconfig *after, int *max)
{
	int none = after->nr_lines ? (int)after->nr_lines : 1;
	int *tab, l, m = 0;
	size_t i;

	for (i = 0; i < after->nr_lines; i++)
		if (after->lines[i].lineno > m)
			m = after->lines[i].lineno;
	tab = malloc((m + 2) * sizeof(*tab));
	if (!tab)
		return NULL;
	for (l = 0; l <= m + 1; l++)
		tab[l] = none;
	for (i = after->nr_lines; i-- > 0; ) {
		l = after->lines[i].lineno;
		if (l > 0)
			tab[l] = (int)i + 1;
	}
	/* a line dropped from @after: the next one that is there */
	for (l = m; l >= 1; l--)
		if (tab[l + 1] < tab[l])
			tab[l] = tab[l + 1];
	tab[0] = 1;	/* every line is at or after line 0 */
	*max = m;
	return tab;
}

static int out_line_of(const int *tab, int max, int line)
{
	return tab[line < 0 ? 0 : line > max ? max + 1 : line];
}

/*
 * Both line numbers of every change and finding, and each finding's origin
 * against @base (the input's own findings under the same target).
 */
static int judge(struct st_mig_file *f, const struct st_migration *base)
{
	const struct st_defconfig *a = f->m.after;
	struct st_origin_key *keys, k;
	bool *claimed;
	int *out, max;
	size_t i, j;

	keys = malloc((base->nr_findings + 1) * sizeof(*keys));
	claimed = calloc(a->nr_lines + 1, sizeof(*claimed));
	out = out_lines(a, &max);
	if (!keys || !claimed || !out) {
		free(keys);
		free(claimed);
		free(out);
		return -ENOMEM;
	}
	for (i = 0; i < base->nr_findings; i++) {
		keys[i].sym = base->findings[i].symbol;
		keys[i].kind = base->findings[i].kind;
		keys[i].requested = base->findings[i].requested;
	}
	st_origin_sort(keys, base->nr_findings);
	for (i = 0; i < f->m.nr_findings; i++) {
		struct st_mig_finding *x = &f->m.findings[i];
		size_t idx = x->line > 0 ? (size_t)x->line - 1 : 0;
		bool kept = idx < a->nr_lines && a->lines[idx].lineno &&
			    !a->lines[idx].modified;

		k.sym = x->symbol;
		k.kind = x->kind;
		k.requested = x->requested;
		x->pre_existing = st_origin_of(keys, base->nr_findings, &k, kept) ==
				  ST_ORIGIN_PRE_EXISTING;
		x->in_line = in_line_of(a, idx);
	}
	for (i = 0; i < f->m.nr_changes; i++) {
		struct st_mig_change *c = &f->m.changes[i];

		if (!c->text[0]) {
			c->out_line = out_line_of(out, max, c->line);
			continue;
		}
		/* a line a fix wrote: find it by its text */
		for (j = 0; j < a->nr_lines; j++) {
			const struct st_dc_line *l = &a->lines[j];

			if (!claimed[j] && (!l->lineno || l->modified) &&
			    !strcmp(l->text, c->text))
				break;
		}
		if (j < a->nr_lines) {
			claimed[j] = true;
			c->out_line = (int)j + 1;
			c->line = in_line_of(a, j);
		} else {
			c->out_line = out_line_of(out, max, c->line);
		}
	}
	free(keys);
	free(claimed);
	free(out);
	return 0;
}

/*
 * The kernel @f is for: what the command was told (--target, the tree's),
 * else what its build system says where a bundled model covers it (check
 * judges such a file for that kernel too), else the newest.
 */
static void file_target(const struct st_mig_session *s, struct st_mig_file *f)
{
	struct st_kver v;

	f->target = s->target;
	f->target_from_layout = false;
	if (s->opts.srctree || s->opts.target || !f->layout.version ||
	    st_kver_parse(f->layout.version, &v))
		return;
	if (st_kver_cmp(v, st_kver_oldest_model) < 0 || st_kver_cmp(v, st_kver_newest) > 0)
		return;
	f->target = v;
	f->target_from_layout = true;
}

int st_mig_session_file(struct st_mig_session *s, const char *path,
			struct st_mig_file *f, struct st_error *err)
{
	return st_mig_session_file_as(s, path, NULL, f, err);
}

int st_mig_session_file_as(struct st_mig_session *s, const char *path,
			   const struct st_arch_choice *arch, struct st_mig_file *f,
			   struct st_error *err)
{
	struct st_migration base = { 0 };
	char real[PATH_MAX];
	size_t len;
	int ret;

	memset(f, 0, sizeof(*f));
	ret = st_layout_of(path, &f->layout, err);
	if (ret)
		return ret;
	ret = st_defconfig_load(&f->before, path, err);
	if (ret)
		return ret;
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	f->path = display_path(path);
	if (!f->path)
		return st_err(err, ENOMEM, path, "out of memory");
	/* a door that decided the file's ARCH already passes its decision */
	if (arch)
		f->arch_choice = *arch;
	else
		st_arch_of_file(f->before->name, real, &s->opts.arch, &f->arch_choice);
	f->arch_from = f->arch_choice.from;
	snprintf(f->arch, sizeof(f->arch), "%s", f->arch_choice.arch);
	snprintf(f->arch_why, sizeof(f->arch_why), "%s", f->arch_choice.why);
	file_target(s, f);
	f->nr_errors = f->before->nr_errors;
	if (f->nr_errors)
		return 0;
	ret = st_migrate(f->before, f->target, &f->m);
	if (ret)
		return st_err(err, -ret, path, "%s", strerror(-ret));
	if (s->opts.verify) {
		ret = verify(s, real, f, &f->layout, &base, err);
		if (ret)
			goto out;
	} else if (f->m.changed) {
		ret = st_migration_findings_of(f->before, f->target, &base);
		if (ret) {
			ret = st_err(err, -ret, path, "%s", strerror(-ret));
			goto out;
		}
	}
	st_migration_sort_findings(&f->m);
	/* unchanged: whatever is found, the input had it */
	ret = judge(f, f->m.changed ? &base : &f->m);
	if (!ret)
		ret = st_defconfig_diff(f->before, f->m.after, f->path, &f->diff, &len);
	if (ret) {
		ret = st_err(err, -ret, path, "%s", strerror(-ret));
		goto out;
	}
	f->m.changed = len > 0;
out:
	st_migration_release(&base);
	return ret;
}

void st_mig_file_release(struct st_mig_file *f)
{
	st_defconfig_free(f->before);
	st_layout_release(&f->layout);
	st_migration_release(&f->m);
	st_collateral_free(f->collateral, f->nr_collateral);
	st_collateral_free(f->changed_all, f->nr_changed_all);
	free(f->diff);
	free(f->path);
	st_strv_free(f->refused, f->nr_refused);
	memset(f, 0, sizeof(*f));
}

bool st_mig_file_failed(const struct st_mig_file *f)
{
	size_t i;

	if (!f->verified)
		return false;
	for (i = 0; i < f->m.nr_findings; i++)
		if (!f->m.findings[i].pre_existing &&
		    (!strcmp(f->m.findings[i].kind, "ineffective") ||
		     !strcmp(f->m.findings[i].kind, "unknown")))
			return true;
	return false;
}

int st_mig_file_write(const struct st_mig_file *f, const char *within, struct st_error *err)
{
	return st_defconfig_write_within(f->before->name, f->m.after, within, err);
}


static int cmp_str_ptr(const void *a, const void *b)
{
	const char *const *x = *(const char *const *const *)a;
	const char *const *y = *(const char *const *const *)b;
	int c = strcmp(*x, *y);

	/* equal strings: by position, so the ranking is total */
	return c ? c : (x > y) - (x < y);
}

int st_mig_shard_paths(char **paths, size_t *nr, unsigned int k, unsigned int n)
{
	char ***rank;
	bool *keep;
	size_t i, j;

	if (!n || *nr == 0)
		return 0;
	rank = malloc(*nr * sizeof(*rank));
	keep = calloc(*nr, sizeof(*keep));
	if (!rank || !keep) {
		free(rank);
		free(keep);
		return -ENOMEM;
	}
	for (i = 0; i < *nr; i++)
		rank[i] = &paths[i];
	qsort(rank, *nr, sizeof(*rank), cmp_str_ptr);
	for (i = 0; i < *nr; i++)
		if (i % n == k - 1)
			keep[rank[i] - paths] = true;
	for (i = j = 0; i < *nr; i++) {
		if (keep[i])
			paths[j++] = paths[i];
		else
			free(paths[i]);
	}
	*nr = j;
	free(rank);
	free(keep);
	return 0;
}
