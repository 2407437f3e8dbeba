// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user's kernel tree as a build target: allocator variants from its
 * Kconfig, configurations resolved by its own make, out-of-tree builds of
 * the slab objects through the job pool, cached by a stamp per work item.
 * This file sets up the tree, plans the work items and runs them; the
 * steps are in variants.c, cache.c, config.c and make.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build/pool.h"
#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/stamp.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "kernel/kernel.h"
#include "linux/arch.h"
#include "linux/linux.h"
#include "migrate/migrate.h"
#include "report/report.h"
#include "kernel_priv.h"

static int push(char ***v, size_t *n, const char *s)
{
	char **nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(s);
	return nv[(*n)++] ? 0 : -ENOMEM;
}

void st_kernel_result_free(struct st_kernel_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nitems; i++) {
		struct st_kernel_item *it = &r->items[i];

		free(it->arch);
		free(it->variant);
		free(it->name);
		free(it->dir);
		free(it->object);
		free(it->resolved);
		free(it->error);
		free(it->cc);
		free(it->cc_wrapper);
	}
	free(r->items);
	st_strv_free(r->variants, r->nvariants);
	st_strv_free(r->arches, r->narches);
	free(r->defconfig);
	free(r->measured);
	free(r->tree);
	free(r->baseline);
	free(r);
}

static bool inside_tree(const char *dir, const char *src);

/*
 * @real (resolved, existing) with @rest appended as mkdir -p would make it:
 * the new components have no symlinks, so "." and ".." over them are
 * plain; a ".." back into what exists is resolved again (inside_tree()).
 */
static bool made_inside(char *real, size_t len, const char *rest, const char *src)
{
	const char *p = rest, *end;
	size_t n, made = 0;

	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		if (!n || (n == 1 && *p == '.'))
			continue;
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (!made)
				return false;	/* cannot be: the check after the mkdir */
			*strrchr(real, '/') = 0;
			if (--made)
				continue;
			/* back where things exist: a symlink there counts */
			if (strlen(real) + strlen(end) + 2 > len)
				return false;
			strcat(real, end);
			return inside_tree(*real ? real : "/", src);
		}
		if (strlen(real) + n + 2 > len)
			return false;
		strcat(real, "/");
		strncat(real, p, n);
		made++;
	}
	return !strncmp(real, src, strlen(src)) &&
	       (real[strlen(src)] == '/' || !real[strlen(src)]);
}

/*
 * Is @dir (which may not exist yet) @src or below it? The deepest part of
 * @dir that exists, resolved, and the rest as mkdir -p would make it: a
 * refusal before anything is made.
 */
static bool inside_tree(const char *dir, const char *src)
{
	char part[PATH_MAX], real[PATH_MAX], *slash;
	size_t cut;

	if (st_pathf(part, "%s", dir))
		return false;
	cut = strlen(part);	/* what mkdir -p makes: dir + cut */
	while (!realpath(part, real)) {
		if (errno != ENOENT)
			return false;	/* the check after the mkdir decides */
		slash = strrchr(part, '/');
		if (!slash) {	/* relative, nothing of it exists */
			if (!getcwd(real, sizeof(real)))
				return false;
			cut = 0;
			break;
		}
		if (slash == part) {
			real[0] = 0;	/* "/": its components are appended */
			cut = 1;
			break;
		}
		*slash = 0;
		cut = (size_t)(slash - part) + 1;
	}
	if (!strcmp(real, "/"))
		real[0] = 0;
	return made_inside(real, sizeof(real), dir + cut, src);
}

/* Tree name, version and build directory of the run. */
static int setup_tree(struct run *r, struct st_error *e)
{
	const struct st_kernel_opts *o = r->o;
	char mk[PATH_MAX], line[256];
	int sub = 0, ret;
	const char *base;
	struct st_hash h;
	char hex[ST_HASH_HEX];
	FILE *f;

	if (!o->srctree || !realpath(o->srctree, r->src))
		return st_err(e, errno ? errno : EINVAL, o->srctree ? o->srctree : "",
			      "cannot use as kernel tree: %s", strerror(errno ? errno : EINVAL));
	ret = st_kver_of_tree(r->src, &r->kver, e);
	if (ret)
		return ret;
	st_pathf(mk, "%s/Makefile", r->src);
	f = fopen(mk, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SUBLEVEL = %d", &sub) == 1)
			break;
	if (f)
		fclose(f);
	r->res->tree = st_asprintf("linux-%d.%d.%d", r->kver.major, r->kver.minor, sub);
	if (!r->res->tree)
		return st_err(e, ENOMEM, NULL, "out of memory");
	base = strrchr(r->src, '/');
	base = base && base[1] ? base + 1 : "linux";
	st_hash_init(&h);
	st_hash_str(&h, r->src);
	st_hash_hex(&h, hex);
	snprintf(r->treedir, sizeof(r->treedir), "%.40s-%.8s", base, hex);
	if (o->builddir)
		snprintf(r->builddir, sizeof(r->builddir), "%s", o->builddir);
	else if ((ret = st_kernel_default_dir(r->builddir, sizeof(r->builddir))))
		return st_kernel_default_dir_err(r->builddir, ret, e);
	/* O= inside the source tree would write into it: refused before any mkdir. */
	if (inside_tree(r->builddir, r->src))
		return st_err(e, EINVAL, r->builddir, "build directory is inside the kernel tree %s",
			      r->src);
	ret = st_mkdir_p(r->builddir);
	if (ret)
		return st_err(e, -ret, r->builddir, "cannot create: %s", strerror(-ret));
	if (!realpath(r->builddir, mk))
		return st_err(e, errno, r->builddir, "%s", strerror(errno));
	snprintf(r->builddir, sizeof(r->builddir), "%s", mk);
	/* again, resolved: a symlink made meanwhile */
	if (inside_tree(r->builddir, r->src))
		return st_err(e, EINVAL, r->builddir, "build directory is inside the kernel tree %s",
			      r->src);
	ret = st_kernel_lock_builddir(r, e);
	if (ret)
		return ret;
	/* No make target starts with '.': ".config" is a file, even a missing one. */
	r->is_file = strchr(o->defconfig, '/') || o->defconfig[0] == '.' ||
		     !access(o->defconfig, F_OK);
	if (r->is_file) {
		r->defconfig_text = st_read_text(o->defconfig, NULL);
		if (!r->defconfig_text)
			return st_err(e, errno ? errno : EIO, o->defconfig, "cannot read: %s",
				      strerror(errno ? errno : EIO));
	} else if (!*o->defconfig || o->defconfig[0] == '-' || strchr(o->defconfig, '=')) {
		return st_err(e, EINVAL, NULL, "'%s' is neither a file nor a make config target",
			      o->defconfig);
	}
	if (o->nfragments) {
		r->frags = calloc(o->nfragments, sizeof(*r->frags));
		r->frag_texts = calloc(o->nfragments, sizeof(*r->frag_texts));
		if (!r->frags || !r->frag_texts)
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < o->nfragments; i++) {
		const char *frag = o->fragments[i];
		struct st_defconfig *dc;

		errno = 0;
		r->frag_texts[i] = st_read_text(frag, NULL);
		if (!r->frag_texts[i])
			return st_err(e, errno ? errno : EIO, frag, "cannot read: %s",
				      strerror(errno ? errno : EIO));
		ret = st_defconfig_parse(&dc, r->frag_texts[i], strlen(r->frag_texts[i]), frag, e);
		if (ret)
			return ret;
		r->frags[i] = dc;
		if (dc->nr_errors)
			return st_err(e, EINVAL, frag, "%s", dc->nr_diags ? dc->diags[0].msg :
				      "not a config fragment");
	}
	return 0;
}

/* One item: fill names and objects and add its three jobs. */
static int add_item(struct run *r, const char *arch, const char *cross, size_t v,
		    const char *choice, bool has_tiny, bool in_shard, struct st_error *e)
{
	struct st_kernel_result *res = r->res;
	struct st_kernel_item *ki = &res->items[res->nitems];
	struct item *it = &r->items[r->nitems];
	char path[PATH_MAX];
	int ret;

	memset(ki, 0, sizeof(*ki));
	it->run = r;
	it->out = ki;
	it->kv = &st_kernel_kvariants[v];
	it->choice = choice;
	it->has_tiny = has_tiny;
	it->cross = cross;
	ki->in_shard = in_shard;
	ki->arch = strdup(arch);
	ki->variant = strdup(st_kernel_kvariants[v].name);
	ki->name = st_asprintf("%s/%s/%s", res->tree, arch, st_kernel_kvariants[v].name);
	/*
	 * vmlinux and flavoured (boot image) builds keep their own trees:
	 * switching never drops the other's stamp.
	 */
	ki->dir = st_asprintf("%s/%s/%s/%s%s%s", r->builddir, r->treedir, arch,
			      st_kernel_kvariants[v].name,
			      r->o->flavour ? "-" : r->o->vmlinux ? ".vmlinux" : "",
			      r->o->flavour ? r->o->flavour : "");
	res->nitems++;
	r->nitems++;
	it->index = r->nitems;
	if (!ki->arch || !ki->variant || !ki->name || !ki->dir)
		return st_err(e, ENOMEM, NULL, "out of memory");
	ret = st_kernel_cc(r->o, cross, &it->cc);
	if (ret == -EINVAL)
		return st_err(e, EINVAL, NULL, "CC='%s' already runs through a compiler wrapper "
			      "other than %s", r->o->cc ? r->o->cc : "",
			      r->o->cc_wrapper);
	if (ret)
		return st_err(e, -ret, NULL, "%s", strerror(-ret));
	if (r->o->image_target) {
		snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]), "%s",
			 r->o->image_file);
	} else if (r->o->vmlinux) {
		snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]), "vmlinux");
	} else {
		snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]), "mm/%s.o",
			 st_kernel_kvariants[v].object);
		st_pathf(path, "%s/mm/slab_common.c", r->src);
		if (!access(path, F_OK))
			snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]),
				 "mm/slab_common.o");
	}
	st_kernel_item_key(it);
	it->jcfg = st_pool_job(&r->pool, ki->name);
	it->jold = st_pool_job(&r->pool, ki->name);
	it->jbuild = st_pool_job(&r->pool, ki->name);
	if (!it->jcfg || !it->jold || !it->jbuild ||
	    st_pool_depend(it->jold, it->jcfg) || st_pool_depend(it->jbuild, it->jold))
		return st_err(e, ENOMEM, NULL, "out of memory");
	it->jcfg->data = it->jold->data = it->jbuild->data = it;
	/* make dies with us; the lock covers what it started (st_kernel_lock_builddir()). */
	it->jcfg->flags = it->jold->flags = it->jbuild->flags = ST_SPAWN_DEATHSIG;
	it->jcfg->prepare = st_kernel_cfg_prepare;
	it->jcfg->finish = st_kernel_cfg_finish;
	it->jold->prepare = st_kernel_old_prepare;
	it->jold->finish = st_kernel_old_finish;
	it->jbuild->prepare = st_kernel_build_prepare;
	it->jbuild->finish = st_kernel_build_finish;
	return 0;
}

/* The work items: arch x variant, in order; a shard keeps every N-th. */
static int plan(struct run *r, struct st_error *e)
{
	const struct st_kernel_opts *o = r->o;
	struct st_kernel_result *res = r->res;
	const char *host[] = { st_arch_host_machine() };
	const char *const *arches = o->narches ? o->arches : host;
	size_t narches = o->narches ? o->narches : 1, a, v, k, nall = 0;
	const char *choices[8][NKVARIANTS];
	bool has_tiny[8];
	long base = -1;
	int ret;

	if (narches > 8)
		return st_err(e, E2BIG, NULL, "at most 8 arches per run");
	for (a = 0; a < narches; a++) {
		ret = st_kernel_toolchain(o, arches[a], &r->tcs[a], e);
		if (ret)
			return ret;
		if (o->toolchain)
			o->toolchain(o->progress_ctx, arches[a], &r->tcs[a]);
	}
	for (a = 0; a < narches; a++) {
		ret = st_kernel_offered(r, arches[a], r->tcs[a].cross, choices[a],
					&has_tiny[a], e);
		if (ret)
			return ret;
		if (push(&res->arches, &res->narches, arches[a]))
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	for (k = 0; k < o->nvariants; k++) {
		for (v = 0; v < NKVARIANTS; v++)
			if (!strcmp(o->variants[k], st_kernel_kvariants[v].name))
				break;
		if (v == NKVARIANTS)
			return st_err(e, EINVAL, NULL,
				      "unknown variant '%s' (slub, slub_tiny, slab, slob)",
				      o->variants[k]);
		for (a = 0; a < narches; a++)
			if (!choices[a][v])
				return st_err(e, ENOENT, NULL,
					      "%s (ARCH=%s) does not offer variant '%s'",
					      o->srctree, arches[a], o->variants[k]);
	}
	/* Columns: the offered variants that were asked for, canonical order. */
	for (v = 0; v < NKVARIANTS; v++) {
		for (a = 0; a < narches; a++)
			if (choices[a][v] && st_kernel_wanted(o, st_kernel_kvariants[v].name))
				break;
		if (a == narches)
			continue;
		if (push(&res->variants, &res->nvariants, st_kernel_kvariants[v].name))
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	if (!res->nvariants)
		return st_err(e, ENOENT, NULL, "%s offers none of the variants asked for",
			      o->srctree);
	res->baseline = strdup(o->baseline ? o->baseline : res->variants[0]);
	if (!res->baseline)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (v = 0; v < NKVARIANTS; v++)
		if (!strcmp(st_kernel_kvariants[v].name, res->baseline))
			base = v;
	if (base < 0 || !st_kernel_wanted(o, res->baseline))
		return st_err(e, EINVAL, NULL, "baseline '%s' is not among the variants",
			      res->baseline);
	r->items = calloc(narches * NKVARIANTS, sizeof(*r->items));
	res->items = calloc(narches * NKVARIANTS, sizeof(*res->items));
	if (!r->items || !res->items)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (a = 0; a < narches; a++) {
		const char *cross = r->tcs[a].cross;
		bool need_base = false, have_base = false;

		for (v = 0; v < NKVARIANTS; v++) {
			bool mine;

			if (!choices[a][v] || !st_kernel_wanted(o, st_kernel_kvariants[v].name))
				continue;
			mine = !o->shard_n || nall % o->shard_n == o->shard_k - 1;
			nall++;
			if (!mine)
				continue;
			if ((long)v == base)
				have_base = true;
			else
				need_base = true;
			ret = add_item(r, arches[a], cross, v, choices[a][v], has_tiny[a], true,
				       e);
			if (ret)
				return ret;
		}
		/* A shard builds its arch's baseline too, for the diffs. */
		if (need_base && !have_base && choices[a][base]) {
			ret = add_item(r, arches[a], cross, base, choices[a][base], has_tiny[a],
				       false, e);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int st_kernel_run(const struct st_kernel_opts *o, struct st_kernel_result **out,
		  struct st_error *e)
{
	struct run r;
	size_t i;
	int ret;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.lock_fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &r.t0);
	r.res = calloc(1, sizeof(*r.res));
	if (!r.res)
		return st_err(e, ENOMEM, NULL, "out of memory");
	if (o->shard_n && (!o->shard_k || o->shard_k > o->shard_n)) {
		ret = st_err(e, EINVAL, NULL, "invalid shard %u/%u", o->shard_k, o->shard_n);
		goto out;
	}
	r.res->defconfig = strdup(o->defconfig ? o->defconfig : ST_KERNEL_DEFCONFIG);
	if (o->image_target || o->vmlinux)
		r.res->measured = strdup(o->image_target ? o->image_file : "vmlinux");
	if (!r.res->defconfig || ((o->image_target || o->vmlinux) && !r.res->measured)) {
		ret = st_err(e, ENOMEM, NULL, "out of memory");
		goto out;
	}
	ret = setup_tree(&r, e);
	if (!ret)
		ret = plan(&r, e);
	if (ret)
		goto out;
	/* One make at a time: make's own -j (or the caller's jobserver) is the parallelism. */
	r.pool.max_running = 1;
	ret = st_pool_run(&r.pool, e);
	if (ret)
		goto out;
	for (i = 0; i < r.nitems; i++) {
		struct item *it = &r.items[i];
		struct st_job *failed = it->jbuild->state == ST_JOB_DONE ? NULL :
					it->jcfg->state == ST_JOB_FAILED ? it->jcfg :
					it->jold->state == ST_JOB_FAILED ? it->jold : it->jbuild;

		if (!it->out->cc) {
			it->out->cc = strdup(it->cc.cc);
			it->out->cc_wrapper = it->cc.wrapper ? strdup(it->cc.wrapper) : NULL;
			if (!it->out->cc || (it->cc.wrapper && !it->out->cc_wrapper)) {
				ret = st_err(e, ENOMEM, NULL, "out of memory");
				goto out;
			}
		}
		if (failed) {
			it->out->error = strdup(failed->error ? failed->error : "failed");
			r.res->nfailed++;
			st_kernel_progress(it, "failed");
		} else if (o->image_target) {
			it->out->object = st_asprintf("%s/%s", it->out->dir, o->image_file);
		} else if (o->vmlinux) {
			it->out->object = st_asprintf("%s/vmlinux", it->out->dir);
		} else {
			it->out->object = st_asprintf("%s/" ARCHIVE_NAME, it->out->dir);
		}
		if (!it->out->object && !it->out->error) {
			ret = st_err(e, ENOMEM, NULL, "out of memory");
			goto out;
		}
	}
out:
	for (i = 0; i < r.nitems; i++) {
		free(r.items[i].config_text);
		st_kernel_cc_release(&r.items[i].cc);
		free(r.items[i].cc_version);
	}
	free(r.items);
	free(r.defconfig_text);
	for (size_t fi = 0; fi < o->nfragments; fi++) {
		if (r.frags)
			st_defconfig_free(r.frags[fi]);
		if (r.frag_texts)
			free(r.frag_texts[fi]);
	}
	free(r.frags);
	free(r.frag_texts);
	st_pool_free(&r.pool);
	if (r.lock_fd >= 0)
		close(r.lock_fd);
	for (i = 0; i < ARRAY_SIZE(r.tcs); i++)
		st_kernel_tc_release(&r.tcs[i]);
	free(r.cc_ver);
	free(r.cc_cross);
	if (ret) {
		st_kernel_result_free(r.res);
		return ret;
	}
	*out = r.res;
	return 0;
}

int st_kernel_report(struct st_report **out, const struct st_kernel_result *k,
		     struct st_error *e)
{
	struct st_report_input *in = calloc(k->nitems + 1, sizeof(*in));
	size_t i;
	int ret;

	if (!in)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; i < k->nitems; i++) {
		in[i].variant = k->items[i].variant;
		in[i].arch = k->items[i].arch;
		in[i].object = k->items[i].object;
		in[i].error = k->items[i].error;
		in[i].resolved = k->items[i].resolved;
		in[i].cc = k->items[i].cc;
		in[i].cc_wrapper = k->items[i].cc_wrapper;
		in[i].aux = !k->items[i].in_shard;
	}
	ret = st_report_from_cells(out, k->tree, (const char *const *)k->variants, k->nvariants,
				   (const char *const *)k->arches, k->narches, k->baseline,
				   in, k->nitems, e);
	free(in);
	if (ret)
		return ret;
	/* What was measured, for the report's first lines. */
	(*out)->defconfig = strdup(k->defconfig ? k->defconfig : ST_KERNEL_DEFCONFIG);
	(*out)->measured = k->measured ? strdup(k->measured) : NULL;
	if (!(*out)->defconfig || (k->measured && !(*out)->measured)) {
		st_report_free(*out);
		*out = NULL;
		return st_err(e, ENOMEM, NULL, "out of memory");
	}
	return 0;
}
