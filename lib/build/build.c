// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building the allocator variants: the job graph and its stamps.
 *
 *   kconfig <variant>            -> config/<variant>.h, config/<variant>.config
 *   cc <arch> <variant> <src>.c  -> <arch>/<variant>/<src>.o   (after kconfig)
 *   ld <arch> <variant>          -> <arch>/<variant>.o         (after every cc)
 *
 * Every output has a <output>.stamp holding a hash of its inputs' bytes and
 * of the command that made it. Content, not mtimes: a touched file or a
 * header rewritten with the same text rebuilds nothing, a changed compiler
 * version or CFLAGS rebuilds everything it touches.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/build.h"
#include "build/pool.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/stamp.h"
#include "common/str.h"
#include "st_config.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* Sorted names in @dir ending in @suffix (regular files only). */
static int list_dir(const char *dir, const char *suffix, char ***out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL, **nv, p[PATH_MAX];
	size_t k = 0, cap = 0;
	struct stat st;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !ends_with(de->d_name, suffix))
			continue;
		st_bufprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (stat(p, &st) || !S_ISREG(st.st_mode))
			continue;
		if (k == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		v[k] = strdup(de->d_name);
		if (!v[k])
			goto nomem;
		k++;
	}
	closedir(d);
	if (k)
		qsort(v, k, sizeof(*v), cmp_str);
	*out = v;
	*n = k;
	return 0;
nomem:
	closedir(d);
	while (k)
		free(v[--k]);
	free(v);
	return -ENOMEM;
}

static void free_list(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

/* A variant name as a file name: anything unusual becomes '_'. */
static void file_name(char *dst, size_t len, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++) {
		char ch = name[i];

		dst[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.' ||
			 ch == '+' || ch == '=' ? ch : '_';
	}
	dst[i] = '\0';
}

void st_build_variants_free(struct st_variant *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free((char *)v[i].name);
		free((char *)v[i].defconfig);
	}
	free(v);
}

int st_build_variants(const char *datadir, struct st_variant **out, size_t *n,
		      struct st_error *e)
{
	char dir[PATH_MAX], **names;
	struct st_variant *v;
	size_t k, i, m = 0;
	int ret;

	st_bufprintf(dir, sizeof(dir), "%s/defconfigs", datadir);
	ret = list_dir(dir, "_defconfig", &names, &k);
	if (ret)
		return st_err(e, ret, dir, "%s", strerror(-ret));
	v = calloc(k + 1, sizeof(*v));
	if (!v) {
		free_list(names, k);
		return st_err(e, ENOMEM, NULL, "out of memory");
	}
	for (i = 0; i < k; i++) {
		size_t l = strlen(names[i]) - strlen("_defconfig");
		char *path;

		if (!l || ends_with(names[i], "_legacy_defconfig"))
			continue;
		v[m].name = strndup(names[i], l);
		if (asprintf(&path, "%s/%s", dir, names[i]) < 0)
			path = NULL;
		v[m].defconfig = path;
		if (!v[m].name || !v[m].defconfig) {
			st_build_variants_free(v, m + 1);
			free_list(names, k);
			return st_err(e, ENOMEM, NULL, "out of memory");
		}
		m++;
	}
	free_list(names, k);
	if (!m) {
		st_build_variants_free(v, m);
		return st_err(e, ENOENT, dir, "no *_defconfig variants");
	}
	*out = v;
	*n = m;
	return 0;
}

/* Everything one run shares. */
struct ctx {
	const struct st_build_opts *o;
	char datadir[PATH_MAX];
	char builddir[PATH_MAX];
	char tmpdir[PATH_MAX];	/* this run's private one in builddir; "" if none */
	char slabdir[PATH_MAX];
	const char *python;
	char **cflags;		/* words */
	char **srcs;		/* lib/slab/ *.c names */
	size_t nsrcs;
	struct st_hash *src_hash;
	struct st_hash hdrs_hash;	/* every lib/slab/ *.h */
	struct st_hash kconfig_hash;	/* every file of kconfig/ */
};

struct vstate {
	struct ctx *c;
	const struct st_variant *v;
	char *header, *config;
	struct st_hash header_hash;	/* valid once the kconfig job is done */
	struct st_job *job;
};

struct cstate {
	struct ctx *c;
	struct vstate *vs;
	struct st_toolchain *t;
	struct st_hash tc_hash;
	size_t src;
	char *obj;
	char key[ST_HASH_HEX];
	struct st_job *job;
	char **arch_cflags;	/* shared with the unit's other sources */
};

struct lstate {
	struct ctx *c;
	struct vstate *vs;
	struct st_toolchain *t;
	struct st_hash tc_hash;
	char **arch_cflags;
	struct cstate **cs;
	size_t ncs;
	char *out;
	char key[ST_HASH_HEX];
	struct st_job *job;
};

static int stamp_path(char *buf, size_t len, const char *out)
{
	return st_bufprintf(buf, len, "%s.stamp", out);
}

/* Is @out present with a stamp equal to @key? */
static bool stamp_ok(const char *out, const char *key)
{
	char sp[PATH_MAX], want[ST_HASH_HEX + 1], *buf;
	size_t len;
	bool ok;

	if (stamp_path(sp, sizeof(sp), out) || access(out, R_OK))
		return false;
	buf = st_read_text(sp, &len);
	if (!buf)
		return false;
	st_bufprintf(want, sizeof(want), "%s\n", key);
	ok = !strcmp(buf, want);
	free(buf);
	return ok;
}

/*
 * Where a job writes before commit() moves it in place: the run's own
 * mkdtemp directory inside the build dir, so that no one else can plant a
 * name (a symlink) the compiler or the Kconfig helper would write through,
 * and two runs never share a temporary file. @out's path below the build
 * dir, '/' as '%', is its name there.
 */
static void tmp_path(const struct ctx *c, char *buf, size_t len, const char *out)
{
	size_t n = strlen(c->builddir), i;
	const char *rel = out;

	if (!strncmp(out, c->builddir, n) && out[n] == '/')
		rel = out + n + 1;
	if (st_bufprintf(buf, len, "%s/%s", c->tmpdir, rel))
		return;
	for (i = strlen(c->tmpdir) + 1; buf[i]; i++)
		if (buf[i] == '/')
			buf[i] = '%';
}

/* A failed job leaves no temporary behind. */
static void drop_tmp(const struct ctx *c, const char *out)
{
	char tmp[PATH_MAX];

	tmp_path(c, tmp, sizeof(tmp), out);
	unlink(tmp);
}

/* Move the temporary of @out over @out and record @key in @out.stamp. */
static int commit(const struct ctx *c, const char *out, const char *key)
{
	char tmp[PATH_MAX], sp[PATH_MAX], stamp[ST_HASH_HEX + 1];
	int ret;

	tmp_path(c, tmp, sizeof(tmp), out);
	ret = stamp_path(sp, sizeof(sp), out);
	if (ret)
		return ret;
	if (rename(tmp, out))
		return -errno;
	ret = st_bufprintf(stamp, sizeof(stamp), "%s\n", key);
	return ret ? ret : st_write_file(sp, stamp, strlen(stamp), 0666);
}

/* Drop a stale stamp before rebuilding, so a failed run never looks done. */
static void unstamp(const char *out)
{
	char sp[PATH_MAX];

	if (!stamp_path(sp, sizeof(sp), out))
		unlink(sp);
}

/* A NULL-terminated argv being assembled. */
struct argv {
	char **v;
	size_t n, cap;
	bool oom;
};

static void arg(struct argv *a, const char *s)
{
	char **nv;

	if (a->oom)
		return;
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;

		nv = realloc(a->v, cap * sizeof(*nv));
		if (!nv) {
			a->oom = true;
			return;
		}
		a->v = nv;
		a->cap = cap;
	}
	a->v[a->n] = strdup(s);
	if (!a->v[a->n]) {
		a->oom = true;
		return;
	}
	a->v[++a->n] = NULL;
}

static void args(struct argv *a, char *const *words)
{
	for (; words && *words; words++)
		arg(a, *words);
}

static int argv_done(struct st_job *j, struct argv *a)
{
	if (a->oom) {
		while (a->n)
			free(a->v[--a->n]);
		free(a->v);
		return -ENOMEM;
	}
	j->argv = a->v;
	return ST_JOB_RUN;
}

static void tc_hash(struct st_hash *h, const struct st_toolchain *t)
{
	char **w;

	st_hash_init(h);
	for (w = t->cc; *w; w++)
		st_hash_str(h, *w);
	st_hash_str(h, t->cflags ? t->cflags : "");
	st_hash_str(h, t->version ? t->version : "");
}

/* kconfig <variant>: resolve the defconfig with the Kconfiglib helper. */
static int kconfig_key(struct vstate *vs, char key[ST_HASH_HEX])
{
	struct st_hash h, f;
	int ret;

	st_hash_init(&h);
	st_hash_mix(&h, &vs->c->kconfig_hash);
	st_hash_str(&h, vs->c->python);
	st_hash_init(&f);
	ret = st_hash_file(&f, vs->v->defconfig);
	st_hash_mix(&h, &f);
	st_hash_hex(&h, key);
	return ret;
}

/* The hash of the bytes of @path alone. */
static int hash_file(struct st_hash *h, const char *path)
{
	st_hash_init(h);
	return st_hash_file(h, path);
}

static int kconfig_prepare(struct st_job *j)
{
	struct vstate *vs = j->data;
	struct ctx *c = vs->c;
	struct argv a = { 0 };
	char kc[PATH_MAX], tmp[PATH_MAX];
	char key[ST_HASH_HEX];
	int err;

	err = kconfig_key(vs, key);
	if (err) {
		st_job_fail(j, "%s: %s", vs->v->defconfig, strerror(-err));
		return err;
	}
	if (stamp_ok(vs->header, key) && !access(vs->config, R_OK)) {
		if (!hash_file(&vs->header_hash, vs->header))
			return ST_JOB_UPTODATE;
	}
	unstamp(vs->header);
	st_bufprintf(kc, sizeof(kc), "%s/kconfig/Kconfig", c->datadir);
	arg(&a, c->python);
	st_bufprintf(tmp, sizeof(tmp), "%s/kconfig/st_kconfig.py", c->datadir);
	arg(&a, tmp);
	arg(&a, "autoconf");
	arg(&a, "--kconfig");
	arg(&a, kc);
	arg(&a, "--defconfig");
	arg(&a, vs->v->defconfig);
	arg(&a, "--header");
	tmp_path(c, tmp, sizeof(tmp), vs->header);
	arg(&a, tmp);
	arg(&a, "--config");
	tmp_path(c, tmp, sizeof(tmp), vs->config);
	arg(&a, tmp);
	return argv_done(j, &a);
}

static int kconfig_finish(struct st_job *j, int status)
{
	struct vstate *vs = j->data;
	char key[ST_HASH_HEX], tmp[PATH_MAX];
	int err;

	if (status) {
		drop_tmp(vs->c, vs->header);
		drop_tmp(vs->c, vs->config);
		st_job_fail(j, "%s: Kconfig helper failed (exit %d)", vs->v->defconfig, status);
		return -EIO;
	}
	err = kconfig_key(vs, key);
	if (err)
		return err;
	tmp_path(vs->c, tmp, sizeof(tmp), vs->config);
	if (rename(tmp, vs->config))
		return -errno;
	err = commit(vs->c, vs->header, key);
	if (err)
		return err;
	return hash_file(&vs->header_hash, vs->header);
}

/* cc <arch> <variant> <src>: one source against the variant's header. */
static int cc_prepare(struct st_job *j)
{
	struct cstate *cs = j->data;
	struct ctx *c = cs->c;
	struct argv a = { 0 };
	char p[PATH_MAX];
	struct st_hash h;

	st_hash_init(&h);
	st_hash_mix(&h, &cs->tc_hash);
	for (char **w = c->cflags; *w; w++)
		st_hash_str(&h, *w);
	st_hash_str(&h, c->srcs[cs->src]);
	st_hash_mix(&h, &c->src_hash[cs->src]);
	st_hash_mix(&h, &c->hdrs_hash);
	st_hash_mix(&h, &cs->vs->header_hash);
	st_hash_hex(&h, cs->key);
	if (stamp_ok(cs->obj, cs->key))
		return ST_JOB_UPTODATE;
	unstamp(cs->obj);
	args(&a, cs->t->cc);
	args(&a, cs->arch_cflags);
	args(&a, c->cflags);
	arg(&a, "-std=gnu11");
	arg(&a, "-D_GNU_SOURCE");
	arg(&a, "-I");
	arg(&a, c->slabdir);
	arg(&a, "-include");
	arg(&a, cs->vs->header);
	arg(&a, "-c");
	st_bufprintf(p, sizeof(p), "%s/%s", c->slabdir, c->srcs[cs->src]);
	arg(&a, p);
	arg(&a, "-o");
	tmp_path(c, p, sizeof(p), cs->obj);
	arg(&a, p);
	return argv_done(j, &a);
}

static int cc_finish(struct st_job *j, int status)
{
	struct cstate *cs = j->data;

	if (status) {
		drop_tmp(cs->c, cs->obj);
		st_job_fail(j, "%s: %s: %s exited with status %d", cs->t->arch,
			    cs->c->srcs[cs->src], cs->t->cc[0], status);
		return -EIO;
	}
	return commit(cs->c, cs->obj, cs->key);
}

/* ld <arch> <variant>: the objects into one relocatable object. */
static int ld_prepare(struct st_job *j)
{
	struct lstate *ls = j->data;
	struct argv a = { 0 };
	char p[PATH_MAX];
	struct st_hash h;
	size_t i;

	st_hash_init(&h);
	st_hash_mix(&h, &ls->tc_hash);
	for (i = 0; i < ls->ncs; i++) {
		st_hash_str(&h, ls->cs[i]->obj);
		st_hash_str(&h, ls->cs[i]->key);
	}
	st_hash_hex(&h, ls->key);
	if (stamp_ok(ls->out, ls->key))
		return ST_JOB_UPTODATE;
	unstamp(ls->out);
	args(&a, ls->t->cc);
	arg(&a, "-r");
	arg(&a, "-nostdlib");
	arg(&a, "-no-pie");
	arg(&a, "-o");
	tmp_path(ls->c, p, sizeof(p), ls->out);
	arg(&a, p);
	for (i = 0; i < ls->ncs; i++)
		arg(&a, ls->cs[i]->obj);
	return argv_done(j, &a);
}

static int ld_finish(struct st_job *j, int status)
{
	struct lstate *ls = j->data;

	if (status) {
		drop_tmp(ls->c, ls->out);
		st_job_fail(j, "%s: %s: linking failed (exit %d)", ls->t->arch,
			    ls->vs->v->name, status);
		return -EIO;
	}
	return commit(ls->c, ls->out, ls->key);
}

static int hash_kconfig_dir(struct ctx *c, struct st_error *e)
{
	char dir[PATH_MAX], p[PATH_MAX], **names;
	struct st_hash f;
	size_t n, i;
	int ret;

	st_bufprintf(dir, sizeof(dir), "%s/kconfig", c->datadir);
	ret = list_dir(dir, "", &names, &n);
	if (ret)
		return st_err(e, ret, dir, "%s", strerror(-ret));
	st_hash_init(&c->kconfig_hash);
	for (i = 0; i < n && !ret; i++) {
		if (ends_with(names[i], ".pyc") || !strcmp(names[i], "meson.build"))
			continue;
		st_bufprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		st_hash_str(&c->kconfig_hash, names[i]);
		ret = hash_file(&f, p);
		st_hash_mix(&c->kconfig_hash, &f);
		if (ret)
			st_err(e, ret, p, "%s", strerror(-ret));
	}
	free_list(names, n);
	return ret;
}

static int scan_slab(struct ctx *c, struct st_error *e)
{
	char p[PATH_MAX], **hdrs;
	struct st_hash f;
	size_t nh, i;
	int ret;

	st_bufprintf(c->slabdir, sizeof(c->slabdir), "%s/lib/slab", c->datadir);
	ret = list_dir(c->slabdir, ".c", &c->srcs, &c->nsrcs);
	if (ret)
		return st_err(e, ret, c->slabdir, "%s", strerror(-ret));
	if (!c->nsrcs)
		return st_err(e, ENOENT, c->slabdir, "no allocator sources");
	c->src_hash = calloc(c->nsrcs, sizeof(*c->src_hash));
	if (!c->src_hash)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; i < c->nsrcs; i++) {
		st_bufprintf(p, sizeof(p), "%s/%s", c->slabdir, c->srcs[i]);
		ret = hash_file(&c->src_hash[i], p);
		if (ret)
			return st_err(e, ret, p, "%s", strerror(-ret));
	}
	/* Headers are not tracked per source: any header change rebuilds all. */
	ret = list_dir(c->slabdir, ".h", &hdrs, &nh);
	if (ret)
		return st_err(e, ret, c->slabdir, "%s", strerror(-ret));
	st_hash_init(&c->hdrs_hash);
	for (i = 0; i < nh && !ret; i++) {
		st_bufprintf(p, sizeof(p), "%s/%s", c->slabdir, hdrs[i]);
		st_hash_str(&c->hdrs_hash, hdrs[i]);
		ret = hash_file(&f, p);
		st_hash_mix(&c->hdrs_hash, &f);
		if (ret)
			st_err(e, ret, p, "%s", strerror(-ret));
	}
	free_list(hdrs, nh);
	return ret;
}

int st_build_resolve(const char *datadir, const char *python, const char *defconfig,
		     const char *header, const char *config, struct st_error *e)
{
	char kc[PATH_MAX], helper[PATH_MAX];
	char *argv[] = { (char *)(python ? python : ST_PYTHON), helper, "autoconf",
			 "--kconfig", kc, "--defconfig", (char *)defconfig,
			 "--header", (char *)header, "--config", (char *)config, NULL };
	int ret;

	st_bufprintf(kc, sizeof(kc), "%s/kconfig/Kconfig", datadir);
	st_bufprintf(helper, sizeof(helper), "%s/kconfig/st_kconfig.py", datadir);
	ret = st_run(argv, NULL, NULL, NULL, NULL, 0);
	if (ret < 0)
		return st_err(e, ret, argv[0], "%s", strerror(-ret));
	if (ret)
		return st_err(e, EINVAL, defconfig, "Kconfig helper failed (exit %d)", ret);
	return 0;
}

/* Where the run state lives until the result is handed out. */
struct run {
	struct ctx c;
	struct st_pool pool;
	struct st_variant *own_variants;
	const struct st_variant *variants;
	size_t nvariants;
	struct st_toolchain *tcs;
	size_t ntcs;
	struct vstate *vs;
	struct lstate *ls;	/* nvariants x ntcs, variant-major; t == NULL if skipped */
	struct cstate *cs;	/* nvariants x ntcs x nsrcs */
};

static int setup_ctx(struct run *r, const struct st_build_opts *o, struct st_error *e)
{
	struct ctx *c = &r->c;
	const char *fl;
	int ret;

	c->o = o;
	if (o->datadir)
		ret = st_bufprintf(c->datadir, sizeof(c->datadir), "%s", o->datadir);
	else
		ret = st_build_datadir(c->datadir, sizeof(c->datadir), e);
	if (ret)
		return st_err(e, ret, o->datadir, "%s", strerror(-ret));
	if (o->builddir)
		ret = st_bufprintf(c->builddir, sizeof(c->builddir), "%s", o->builddir);
	else
		ret = st_build_default_dir(c->builddir, sizeof(c->builddir), NULL, 0, e);
	if (ret)
		return st_err(e, ret, o->builddir, "%s", strerror(-ret));
	c->python = o->python ? o->python : ST_PYTHON;
	fl = o->cflags ? o->cflags : ST_BUILD_DEFAULT_CFLAGS;
	/* An empty CFLAGS is honoured: no flags beyond the mandatory ones. */
	c->cflags = st_split_words(fl);
	if (!c->cflags)
		return st_err(e, ENOMEM, NULL, "out of memory");
	ret = scan_slab(c, e);
	if (ret)
		return ret;
	return hash_kconfig_dir(c, e);
}

static int setup_variants(struct run *r, const struct st_build_opts *o, struct st_error *e)
{
	char name[256], p[PATH_MAX];
	size_t i;
	int ret;

	if (o->variants && o->nvariants) {
		r->variants = o->variants;
		r->nvariants = o->nvariants;
	} else {
		ret = st_build_variants(r->c.datadir, &r->own_variants, &r->nvariants, e);
		if (ret)
			return ret;
		r->variants = r->own_variants;
	}
	r->vs = calloc(r->nvariants, sizeof(*r->vs));
	if (!r->vs)
		return st_err(e, ENOMEM, NULL, "out of memory");
	st_bufprintf(p, sizeof(p), "%s/config", r->c.builddir);
	ret = st_mkdir_p(p);
	if (ret)
		return st_err(e, ret, p, "%s", strerror(-ret));
	for (i = 0; i < r->nvariants; i++) {
		struct vstate *vs = &r->vs[i];

		vs->c = &r->c;
		vs->v = &r->variants[i];
		file_name(name, sizeof(name), vs->v->name);
		if (asprintf(&vs->header, "%s/%s.h", p, name) < 0)
			vs->header = NULL;
		if (asprintf(&vs->config, "%s/%s.config", p, name) < 0)
			vs->config = NULL;
		if (!vs->header || !vs->config)
			return st_err(e, ENOMEM, NULL, "out of memory");
		if (access(vs->v->defconfig, R_OK))
			return st_err(e, errno, vs->v->defconfig, "%s", strerror(errno));
		vs->job = st_pool_job(&r->pool, "kconfig");
		if (!vs->job)
			return st_err(e, ENOMEM, NULL, "out of memory");
		free(vs->job->what);
		if (asprintf(&vs->job->what, "kconfig %s", vs->v->name) < 0)
			return st_err(e, ENOMEM, NULL, "out of memory");
		vs->job->prepare = kconfig_prepare;
		vs->job->finish = kconfig_finish;
		vs->job->data = vs;
	}
	return 0;
}

/* The cc and ld jobs of one (variant, toolchain). */
static int setup_unit(struct run *r, size_t vi, size_t ti, struct st_error *e)
{
	struct ctx *c = &r->c;
	struct lstate *ls = &r->ls[vi * r->ntcs + ti];
	struct st_toolchain *t = &r->tcs[ti];
	struct vstate *vs = &r->vs[vi];
	char name[256], dir[PATH_MAX], what[512];
	size_t si;
	int ret;

	ls->c = c;
	ls->vs = vs;
	if (!t->found)
		return 0;
	ls->t = t;
	tc_hash(&ls->tc_hash, t);
	ls->arch_cflags = st_split_words(t->cflags ? t->cflags : "");
	if (!ls->arch_cflags)
		return st_err(e, ENOMEM, NULL, "out of memory");
	file_name(name, sizeof(name), vs->v->name);
	st_bufprintf(dir, sizeof(dir), "%s/%s/%s", c->builddir, t->arch, name);
	ret = st_mkdir_p(dir);
	if (ret)
		return st_err(e, ret, dir, "%s", strerror(-ret));
	if (asprintf(&ls->out, "%s/%s/%s.o", c->builddir, t->arch, name) < 0)
		return st_err(e, ENOMEM, NULL, "out of memory");
	st_bufprintf(what, sizeof(what), "ld %s %s", t->arch, vs->v->name);
	ls->job = st_pool_job(&r->pool, what);
	ls->cs = calloc(c->nsrcs, sizeof(*ls->cs));
	if (!ls->job || !ls->cs)
		return st_err(e, ENOMEM, NULL, "out of memory");
	ls->job->prepare = ld_prepare;
	ls->job->finish = ld_finish;
	ls->job->data = ls;
	for (si = 0; si < c->nsrcs; si++) {
		struct cstate *cs = &r->cs[(vi * r->ntcs + ti) * c->nsrcs + si];
		struct st_job *j;

		cs->c = c;
		cs->vs = vs;
		cs->t = t;
		cs->tc_hash = ls->tc_hash;
		cs->arch_cflags = ls->arch_cflags;
		cs->src = si;
		if (asprintf(&cs->obj, "%s/%.*s.o", dir, (int)(strlen(c->srcs[si]) - 2),
			     c->srcs[si]) < 0)
			return st_err(e, ENOMEM, NULL, "out of memory");
		st_bufprintf(what, sizeof(what), "cc %s %s %s", t->arch, vs->v->name, c->srcs[si]);
		j = st_pool_job(&r->pool, what);
		if (!j)
			return st_err(e, ENOMEM, NULL, "out of memory");
		j->prepare = cc_prepare;
		j->finish = cc_finish;
		j->data = cs;
		cs->job = j;
		if (c->o->quiet)
			j->flags = ST_SPAWN_QUIET;
		ls->cs[ls->ncs++] = cs;
		if (st_pool_depend(j, vs->job) || st_pool_depend(ls->job, j))
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	return 0;
}

/*
 * Jobs are created so that the ready queue starts every kconfig job first,
 * then walks arch by arch: the first arch's objects finish early, and a
 * failing compiler shows up before the others have run.
 */
static int setup_jobs(struct run *r, struct st_error *e)
{
	size_t vi, ti;
	int ret;

	r->ls = calloc(r->nvariants * r->ntcs + 1, sizeof(*r->ls));
	r->cs = calloc(r->nvariants * r->ntcs * r->c.nsrcs + 1, sizeof(*r->cs));
	if (!r->ls || !r->cs)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (ti = 0; ti < r->ntcs; ti++) {
		for (vi = 0; vi < r->nvariants; vi++) {
			ret = setup_unit(r, vi, ti, e);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static bool unit_ran(const struct lstate *ls)
{
	size_t i;

	if (ls->job->ran)
		return true;
	for (i = 0; i < ls->ncs; i++)
		if (ls->cs[i]->job->ran)
			return true;
	return false;
}

static void run_free(struct run *r)
{
	size_t i, n = r->nvariants * r->ntcs;

	st_pool_free(&r->pool);
	for (i = 0; r->cs && i < n * r->c.nsrcs; i++)
		free(r->cs[i].obj);
	for (i = 0; r->ls && i < n; i++) {
		free(r->ls[i].out);
		free(r->ls[i].cs);
		st_free_words(r->ls[i].arch_cflags);
	}
	free(r->cs);
	free(r->ls);
	for (i = 0; r->vs && i < r->nvariants; i++) {
		free(r->vs[i].header);
		free(r->vs[i].config);
	}
	free(r->vs);
	st_build_variants_free(r->own_variants, r->own_variants ? r->nvariants : 0);
	st_toolchains_free(r->tcs, r->ntcs);
	free_list(r->c.srcs, r->c.nsrcs);
	free(r->c.src_hash);
	st_free_words(r->c.cflags);
}

void st_build_result_free(struct st_build_result *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->nunits; i++) {
		struct st_build_unit *u = &res->units[i];

		free(u->variant);
		free(u->arch);
		free(u->object);
		free(u->header);
		free(u->config);
		free(u->error);
	}
	free(res->units);
	st_toolchains_free(res->tcs, res->ntcs);
	free(res->builddir);
	free(res->datadir);
	free(res);
}

static int fill_unit(struct st_build_unit *u, const struct lstate *ls)
{
	u->variant = strdup(ls->vs->v->name);
	u->arch = strdup(ls->t->arch);
	u->header = strdup(ls->vs->header);
	u->config = strdup(ls->vs->config);
	u->ok = ls->job->state == ST_JOB_DONE;
	if (u->ok)
		u->object = strdup(ls->out);
	else
		u->error = strdup(ls->job->error ? ls->job->error : "failed");
	u->rebuilt = unit_ran(ls);
	if (!u->variant || !u->arch || !u->header || !u->config ||
	    (u->ok ? !u->object : !u->error))
		return -ENOMEM;
	return 0;
}

/* Hand the units and the toolchains over to a result. */
static int collect(struct run *r, struct st_build_result **out, struct st_error *e)
{
	struct st_build_result *res = calloc(1, sizeof(*res));
	size_t vi, ti;

	if (!res)
		return st_err(e, ENOMEM, NULL, "out of memory");
	res->units = calloc(r->nvariants * r->ntcs + 1, sizeof(*res->units));
	res->builddir = strdup(r->c.builddir);
	res->datadir = strdup(r->c.datadir);
	if (!res->units || !res->builddir || !res->datadir) {
		st_build_result_free(res);
		return st_err(e, ENOMEM, NULL, "out of memory");
	}
	for (vi = 0; vi < r->nvariants; vi++) {
		for (ti = 0; ti < r->ntcs; ti++) {
			const struct lstate *ls = &r->ls[vi * r->ntcs + ti];

			if (!ls->t)
				continue;
			if (fill_unit(&res->units[res->nunits++], ls)) {
				st_build_result_free(res);
				return st_err(e, ENOMEM, NULL, "out of memory");
			}
		}
	}
	res->tcs = r->tcs;
	res->ntcs = r->ntcs;
	r->tcs = NULL;
	res->jobs_run = r->pool.nrun;
	res->jobs_uptodate = r->pool.nuptodate;
	res->jobs_failed = r->pool.nfailed;
	*out = res;
	return 0;
}

/* The run's private directory for temporary files (see tmp_path()). */
static int make_tmpdir(struct ctx *c, struct st_error *e)
{
	if (st_bufprintf(c->tmpdir, sizeof(c->tmpdir), "%s/.tmp.XXXXXX", c->builddir))
		return st_err(e, ENAMETOOLONG, c->builddir, "name too long");
	if (!mkdtemp(c->tmpdir)) {
		c->tmpdir[0] = 0;
		return st_err(e, errno, c->builddir, "cannot create a temporary directory: %s",
			      strerror(errno));
	}
	return 0;
}

int st_build_run(const struct st_build_opts *o, struct st_build_result **out,
		 struct st_error *e)
{
	struct run r;
	int ret;

	memset(&r, 0, sizeof(r));
	ret = setup_ctx(&r, o, e);
	if (!ret)
		ret = st_mkdir_p(r.c.builddir) ? st_err(e, errno, r.c.builddir, "%s", strerror(errno)) : 0;
	if (!ret)
		ret = make_tmpdir(&r.c, e);
	if (!ret) {
		struct st_build_opts to = *o;

		/* The toolchain cache lives in the build dir, default or not. */
		to.builddir = r.c.builddir;
		ret = st_build_toolchains(&to, &r.tcs, &r.ntcs, e);
	}
	if (!ret)
		ret = setup_variants(&r, o, e);
	if (!ret)
		ret = setup_jobs(&r, e);
	if (ret)
		goto out;
	r.pool.max_running = o->jobs ? o->jobs : st_build_cpus();
	r.pool.progress = o->progress;
	r.pool.progress_ctx = o->progress_ctx;
	ret = st_pool_run(&r.pool, e);
	if (!ret)
		ret = collect(&r, out, e);
out:
	if (r.c.tmpdir[0])
		rmdir(r.c.tmpdir);
	run_free(&r);
	return ret;
}
