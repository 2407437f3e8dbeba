// SPDX-License-Identifier: GPL-2.0-only
/*
 * One check run over many files: expand the arguments, fix, check, verify
 * against a tree, then the size budgets.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "defconfig/defconfig.h"
#include "migrate/migrate.h"

/* TEMPORARY until lib/migrate and lib/kconfig implement their headers. */
#include <dirent.h>
#include <sys/stat.h>
static int tmp_expand(char *const *paths, size_t n, char ***out, size_t *nr,
		      struct st_error *err)
{
	char **v = calloc(n + 1, sizeof(*v));
	size_t i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = strdup(paths[i]);
	*out = v;
	*nr = n;
	return 0;
}
static void tmp_free(char **p, size_t n)
{
	while (n--)
		free(p[n]);
	free(p);
}
#define st_mig_expand_paths tmp_expand
#define st_mig_paths_free tmp_free
#define st_check_fix(o, f, n, r, e) st_err(e, ENOSYS, NULL, "--fix: not wired yet")
#define st_check_tree_new(t, s, a, e) st_err(e, ENOSYS, NULL, "--srctree: not wired yet")
#define st_check_tree_verify(...) 0
#define st_check_tree_free(t) (void)t
#define st_check_budgets(r, b, d, e) st_err(e, ENOSYS, NULL, "--budget: not wired yet")

/*
 * Without a tree every file is independent: the rules run on up to two
 * threads (the CI machines have two cores), each into its own result,
 * merged in file order afterwards.
 */
#define MAX_WORKERS 2

struct work {
	const struct st_check_run_opts *o;
	char **files;
	size_t n;
	atomic_size_t next;
};

struct worker {
	pthread_t tid;
	struct work *w;
	struct st_check_result r;
	size_t err_file;		/* index of the file that failed, or n */
	int ret;
	struct st_error err;
};

static int check_rules(const struct st_check_run_opts *o, const char *path,
		       struct st_check_result *r, struct st_error *err)
{
	struct st_defconfig *dc;
	int ret;

	ret = st_defconfig_load(&dc, path, err);
	if (ret)
		return ret;
	ret = st_check_defconfig(r, dc, path, &o->rules);
	st_defconfig_free(dc);
	return ret ? st_err(err, -ret, path, "%s", strerror(-ret)) : 0;
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct work *w = wk->w;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n) {
		wk->ret = check_rules(w->o, w->files[i], &wk->r, &wk->err);
		if (wk->ret) {
			wk->err_file = i;
			break;
		}
	}
	return NULL;
}

static unsigned int nr_workers(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int k = cpus > MAX_WORKERS ? MAX_WORKERS : cpus < 1 ? 1 : cpus;

	return n < 16 ? 1 : k;
}

/* Move every finding of @from to the end of @to. */
static int absorb(struct st_check_result *to, struct st_check_result *from)
{
	struct st_check_finding *f;

	if (to->nr + from->nr > to->alloc) {
		f = realloc(to->f, (to->nr + from->nr) * sizeof(*f));
		if (!f)
			return -ENOMEM;
		to->f = f;
		to->alloc = to->nr + from->nr;
	}
	if (from->nr)
		memcpy(to->f + to->nr, from->f, from->nr * sizeof(*f));
	to->nr += from->nr;
	to->nr_files += from->nr_files;
	to->nr_suppressed += from->nr_suppressed;
	from->nr = 0;
	return 0;
}

static int run_rules(const struct st_check_run_opts *o, char **files, size_t n,
		     struct st_check_result *r, struct st_error *err)
{
	struct worker wk[MAX_WORKERS];
	struct work w = { .o = o, .files = files, .n = n };
	unsigned int i, k = nr_workers(n);
	struct worker *bad = NULL;
	int ret = 0;

	memset(wk, 0, sizeof(wk));
	atomic_init(&w.next, 0);
	for (i = 0; i < k; i++) {
		wk[i].w = &w;
		wk[i].err_file = n;
		st_check_result_init(&wk[i].r);
		if (i && pthread_create(&wk[i].tid, NULL, worker_main, &wk[i])) {
			k = i;	/* fewer threads; the others take the work */
			break;
		}
	}
	worker_main(&wk[0]);
	for (i = 1; i < k; i++)
		pthread_join(wk[i].tid, NULL);
	for (i = 0; i < k; i++) {
		if (wk[i].ret && (!bad || wk[i].err_file < bad->err_file))
			bad = &wk[i];
		if (!ret)
			ret = absorb(r, &wk[i].r);
	}
	if (bad) {
		*err = bad->err;
		ret = bad->ret;
	} else if (ret) {
		ret = st_err(err, ENOMEM, NULL, "out of memory");
	}
	for (i = 0; i < k; i++)
		st_check_result_free(&wk[i].r);
	return ret;
}

/* With a tree: one Kconfig helper per arch, files one after the other. */
static int run_tree(const struct st_check_run_opts *o, char **files, size_t n,
		    struct st_check_result *r, struct st_error *err)
{
	struct st_check_tree *t = NULL;
	struct st_defconfig *dc;
	size_t i, start;
	int ret;

	ret = st_check_tree_new(&t, o->srctree, o->arch, err);
	for (i = 0; !ret && i < n; i++) {
		ret = st_defconfig_load(&dc, files[i], err);
		if (ret)
			break;
		start = r->nr;
		(void)start;
		ret = st_check_defconfig(r, dc, files[i], &o->rules);
		if (ret)
			ret = st_err(err, -ret, files[i], "%s", strerror(-ret));
		else
			ret = st_check_tree_verify(t, r, start, dc, files[i], &o->rules, err);
		st_defconfig_free(dc);
	}
	st_check_tree_free(t);
	return ret;
}

int st_check_run(const struct st_check_run_opts *o, char *const *paths, size_t n,
		 struct st_check_result *r, struct st_error *err)
{
	char **files = NULL;
	size_t nr_files = 0;
	int ret;

	ret = st_mig_expand_paths(paths, n, &files, &nr_files, err);
	if (ret)
		return ret;
	if (o->fix)
		ret = st_check_fix(o, files, nr_files, r, err);
	if (!ret && o->srctree)
		ret = run_tree(o, files, nr_files, r, err);
	else if (!ret)
		ret = run_rules(o, files, nr_files, r, err);
	if (!ret && o->budget)
		ret = st_check_budgets(r, o->budget, o->builddir, err);
	st_mig_paths_free(files, nr_files);
	return ret;
}
