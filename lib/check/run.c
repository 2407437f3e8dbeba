// SPDX-License-Identifier: GPL-2.0-only
/*
 * One check run over many files: expand the arguments, fix, check, verify
 * against a tree, then the size budgets.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "common/spawn.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "layout/discover.h"
#include "layout/layout.h"
#include "linux/linux.h"
#include "migrate/migrate.h"
#include "migrate/origin.h"

/*
 * Work is a list of items, each a run of files handled in order by one
 * thread: a single file without a tree, all files of one arch with a tree
 * (they share one Kconfig helper, which takes seconds to parse the tree).
 * Up to two threads (the CI machines have two cores) take items; each fills
 * its own result, merged afterwards and sorted by the caller.
 */
#define MAX_WORKERS 2

struct item {
	size_t *idx;		/* indexes into files */
	size_t n;
};

struct work {
	const struct st_check_run_opts *o;
	/* the run's result so far: the files --fix could not do (read only) */
	const struct st_check_result *prior;
	char **files;
	const struct st_check_arch *archs;	/* of each file */
	struct item *items;
	size_t nitems;
	size_t *idx;		/* storage of every item's indexes */
	atomic_size_t next;
	atomic_size_t done;	/* files checked, for o->progress */
	size_t nfiles;
};

struct worker {
	pthread_t tid;
	struct work *w;
	struct st_check_result r;
	size_t err_item;	/* item that failed, or nitems */
	int ret;
	struct st_error err;
};

/* The rules, and the tree's verification with @t, over @dc into @r. */
/* Does @l's base end with CONFIG_EXPERT=y? */
static int base_expert(const struct st_layout *l, bool *expert, struct st_error *err)
{
	struct st_layout_base b;
	const char *val = NULL;
	int ret;

	*expert = false;
	if (l->nr_parts < 2)
		return 0;
	ret = st_layout_base_load(l, NULL, NULL, &b, err);
	if (ret)
		return ret;
	*expert = st_layout_base_value(&b, "EXPERT", &val) && val && !strcmp(val, "y");
	st_layout_base_release(&b);
	return 0;
}

static int check_model(const struct st_check_run_opts *o, struct st_check_tree *t,
		       const struct st_defconfig *dc, const char *path,
		       const struct st_layout *l, struct st_check_result *r,
		       struct st_error *err)
{
	struct st_check_opts rules = o->rules;
	size_t start = r->nr;
	int ret;

	/* the kernel the build system builds this file for, unless told */
	if (!o->srctree && !rules.judge_major && l->version)
		sscanf(l->version, "%d.%d", &rules.judge_major, &rules.judge_minor);
	ret = base_expert(l, &rules.base_expert, err);
	if (ret)
		return ret;
	ret = st_check_defconfig(r, dc, path, &rules);
	if (ret)
		return st_err(err, -ret, path, "%s", strerror(-ret));
	/* (the model is for the kernel judged: the build system's, if it says) */
	if (t)
		ret = st_check_tree_verify(t, r, start, dc, path, l, &rules, err);
	return ret;
}

/*
 * @path as it is in git revision @rev, or *base NULL when the file is new
 * since (no baseline). An unknown revision is an error, which in a shallow
 * clone says how to fetch it.
 */
static int load_baseline(const char *rev, const char *path, struct st_defconfig **base,
			 struct st_error *err)
{
	char *slash = strrchr(path, '/'), *dir, *spec, *out = NULL;
	const char *name = slash ? slash + 1 : path;
	char *verify[] = { "git", "rev-parse", "--quiet", "--verify", NULL, NULL };
	char *show[] = { "git", "show", NULL, NULL };
	size_t len = 0;
	int ret;

	*base = NULL;
	dir = slash ? strndup(path, slash - path + 1) : strdup(".");
	spec = malloc(strlen(rev) + strlen(name) + 16);
	if (!dir || !spec) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	sprintf(spec, "%s^{commit}", rev);
	verify[4] = spec;
	/* rev-parse prints the hash: captured, or it lands in our output */
	ret = st_run(verify, NULL, dir, &out, NULL, ST_SPAWN_QUIET);
	free(out);
	out = NULL;
	if (ret < 0) {
		ret = st_err(err, -ret, path, "cannot run git: %s", strerror(-ret));
		goto out;
	}
	if (ret) {
		ret = st_check_baseline_missing(err, dir, path, "baseline ", rev);
		goto out;
	}
	/* "REV:./NAME" is NAME in the directory git runs in */
	sprintf(spec, "%s:./%s", rev, name);
	show[2] = spec;
	ret = st_run(show, NULL, dir, &out, &len, ST_SPAWN_QUIET);
	if (ret < 0) {
		ret = st_err(err, -ret, path, "cannot run git: %s", strerror(-ret));
		goto out;
	}
	/* git show fails for a path the revision does not have: a new file */
	if (ret == 0 && out) {
		ret = st_defconfig_parse(base, out, len, path, NULL);
		if (ret)
			ret = st_err(err, -ret, path, "out of memory");
	} else {
		ret = 0;
	}
out:
	free(out);
	free(spec);
	free(dir);
	return ret;
}

/* The text of line @line of @dc, "" when there is none. */
static const char *line_text(const struct st_defconfig *dc, int line)
{
	return line > 0 && (size_t)line <= dc->nr_lines ? dc->lines[line - 1].text : "";
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* @dc's line texts sorted, for has_line(): a scan per finding is quadratic. */
static const char **sorted_texts(const struct st_defconfig *dc)
{
	const char **t = malloc((dc->nr_lines + 1) * sizeof(*t));
	size_t i;

	if (!t)
		return NULL;
	for (i = 0; i < dc->nr_lines; i++)
		t[i] = dc->lines[i].text;
	qsort(t, dc->nr_lines, sizeof(*t), cmp_text);
	return t;
}

static bool has_line(const char **texts, size_t n, const char *text)
{
	return bsearch(&text, texts, n, sizeof(*texts), cmp_text) != NULL;
}

/*
 * Drop this file's findings (from @start on) that @base already had, by
 * lib/migrate/origin.c's rule: same symbol, rule and line, and the line kept.
 */
static int drop_pre_existing(struct st_check_result *r, size_t start,
			     const struct st_defconfig *dc,
			     const struct st_check_result *b,
			     const struct st_defconfig *base)
{
	struct st_origin_key *keys = malloc((b->nr + 1) * sizeof(*keys)), k;
	const char **texts = sorted_texts(base);
	size_t i, kept = start;

	if (!keys || !texts) {
		free(keys);
		free(texts);
		return -ENOMEM;
	}
	for (i = 0; i < b->nr; i++) {
		keys[i].sym = b->f[i].sym;
		keys[i].kind = st_check_rules[b->f[i].rule].id;
		keys[i].requested = line_text(base, b->f[i].line);
	}
	st_origin_sort(keys, b->nr);
	for (i = start; i < r->nr; i++) {
		struct st_check_finding *f = &r->f[i];
		const char *text = line_text(dc, f->line);

		k.sym = f->sym;
		k.kind = st_check_rules[f->rule].id;
		k.requested = text;
		if (st_origin_of(keys, b->nr, &k, has_line(texts, base->nr_lines, text)) ==
		    ST_ORIGIN_PRE_EXISTING) {
			st_check_finding_free(f);
			r->nr_baseline++;
			continue;
		}
		r->f[kept++] = *f;
	}
	r->nr = kept;
	free(keys);
	free(texts);
	return 0;
}

/*
 * A file with NUL bytes is not a defconfig at all (an ELF, an image): one
 * error for it, not a syntax finding per line. (A stray control character
 * in a text file stays a syntax finding on its line.)
 */
static int not_text(const struct st_defconfig *dc, const char *path,
			     struct st_error *err)
{
	size_t i;

	for (i = 0; i < dc->nr_diags; i++)
		if (dc->diags[i].kind == ST_DC_D_NUL)
			return st_err(err, EINVAL, path, "not a defconfig (binary data on line %d)",
				      dc->diags[i].line);
	return 0;
}

/*
 * Keep @l (moved: @l is left empty) as a stack of @r, for the report; @a
 * is the ARCH the run decided for the file (the run's list, not @r's: @r
 * is a worker's).
 */
static int keep_stack(const struct st_check_run_opts *o, struct st_check_result *r,
		      const char *path, const struct st_check_arch *a, struct st_layout *l,
		      size_t in_base, struct st_error *err)
{
	struct st_check_stack *s = realloc(r->stacks, (r->nr_stacks + 1) * sizeof(*s));

	if (!s)
		return st_err(err, ENOMEM, path, "out of memory");
	r->stacks = s;
	s = &s[r->nr_stacks];
	memset(s, 0, sizeof(*s));
	s->file = strdup(path);
	if (!s->file)
		return st_err(err, ENOMEM, path, "out of memory");
	s->l = *l;
	memset(l, 0, sizeof(*l));
	/* as the run decided it */
	s->arch_used = a && a->from == ST_ARCH_FROM_LAYOUT && o->srctree;
	s->version_used = s->l.version && !o->srctree && !o->rules.judge_major;
	/* the tree's files are read for a decided ARCH, not the host's guess */
	s->unread = st_layout_unread(o->srctree, a && a->from != ST_ARCH_FROM_HOST);
	s->nr_in_base = in_base;
	r->nr_stacks++;
	return 0;
}

/*
 * Each of @path's findings from @start on keeps the text of its line, which
 * identifies it across commits where the line number does not (SARIF).
 */
static int keep_line_texts(struct st_check_result *r, size_t start, const char *path,
			   const struct st_defconfig *dc)
{
	size_t i;

	for (i = start; i < r->nr; i++) {
		struct st_check_finding *f = &r->f[i];

		if (f->text || f->line <= 0 || (size_t)f->line > dc->nr_lines ||
		    strcmp(f->file, path))
			continue;
		f->text = strdup(dc->lines[f->line - 1].text);
		if (!f->text)
			return -ENOMEM;
	}
	return 0;
}

/* The rules alone, or the rules and the tree's verification (@t). */
static int check_file(const struct st_check_run_opts *o, struct st_check_tree *t,
		      const char *path, const struct st_check_arch *a,
		      struct st_check_result *r, bool *fatal, struct st_error *err)
{
	struct st_defconfig *dc, *base = NULL;
	struct st_check_result b;
	struct st_layout l;
	size_t start = r->nr, in_base;
	int ret;

	ret = st_layout_of(path, &l, err);
	if (ret)
		return ret;
	ret = st_defconfig_load(&dc, path, err);
	if (ret) {
		st_layout_release(&l);
		return ret;
	}
	ret = not_text(dc, path, err);
	in_base = r->nr_in_base;
	if (!ret)
		ret = check_model(o, t, dc, path, &l, r, err);
	in_base = r->nr_in_base - in_base;
	if (!ret && o->baseline) {
		/* a revision git lacks is the run's problem, not this file's */
		ret = load_baseline(o->baseline, path, &base, err);
		*fatal = ret != 0;
	}
	if (!ret && base) {
		st_check_result_init(&b);
		ret = check_model(o, t, base, path, &l, &b, err);
		if (!ret && drop_pre_existing(r, start, dc, &b, base))
			ret = st_err(err, ENOMEM, path, "out of memory");
		st_check_result_free(&b);
	}
	/* after the baseline: a new unknown symbol is not hidden in an old summary */
	if (!ret && o->srctree && st_check_tree_summarize(r, start))
		ret = st_err(err, ENOMEM, path, "out of memory");
	if (!ret && keep_line_texts(r, start, path, dc))
		ret = st_err(err, ENOMEM, path, "out of memory");
	/* a file of a build system's tree in none of its stacks: for -v */
	if (!ret && (l.kind != ST_LAYOUT_PLAIN || l.unplaced))
		ret = keep_stack(o, r, path, a, &l, in_base, err);
	st_defconfig_free(base);
	st_defconfig_free(dc);
	st_layout_release(&l);
	return ret;
}

/* Findings of @r from @start on, dropped: a file that could not be judged. */
static void drop_from(struct st_check_result *r, size_t start)
{
	while (r->nr > start) {
		struct st_check_finding *f = &r->f[--r->nr];

		st_check_finding_free(f);
	}
}

/* Did --fix already fail on @path (one error a file)? */
static bool failed_before(const struct st_check_result *prior, const char *path)
{
	for (size_t i = 0; prior && i < prior->nr_errors; i++)
		if (!strcmp(prior->errors[i].file, path))
			return true;
	return false;
}

/*
 * @path could not be judged: one error for it ("FILE: problem"; a part of
 * its stack named in the problem), its findings dropped, the run goes on.
 */
static int file_error(struct st_check_result *r, size_t start, const char *path,
		      struct st_error *err)
{
	char msg[sizeof(err->msg) + PATH_MAX];

	drop_from(r, start);
	if (err->file[0] && strcmp(err->file, path))
		snprintf(msg, sizeof(msg), "%s: %s", err->file, err->msg);
	else
		snprintf(msg, sizeof(msg), "%s", err->msg);
	st_error_clear(err);
	return st_check_add_error(r, path, msg) ? st_err(err, ENOMEM, path, "out of memory") : 0;
}

static int do_item(struct work *w, const struct item *it, struct st_check_result *r,
		   struct st_error *err)
{
	const struct st_check_run_opts *o = w->o;
	struct st_check_tree *t = NULL;
	size_t i;
	int ret = 0;

	/*
	 * A tree per item: its helper ends with the item, freeing its memory.
	 * The item's files share the ARCH decided for them (the host's: NULL).
	 */
	if (o->srctree || o->model) {
		const struct st_check_arch *a = &w->archs[it->idx[0]];

		ret = st_check_tree_new(&t, o->srctree, a->from == ST_ARCH_FROM_HOST ? NULL : a->arch,
					o->cross_compile, err);
	}
	for (i = 0; !ret && i < it->n; i++) {
		const char *path = w->files[it->idx[i]];
		size_t start = r->nr;
		bool fatal = false;

		if (!failed_before(w->prior, path)) {
			ret = check_file(o, t, path, &w->archs[it->idx[i]], r, &fatal, err);
			if (ret && !fatal && err->code != ENOMEM)
				ret = file_error(r, start, path, err);
		}
		if (o->progress)
			o->progress(o->progress_ctx, atomic_fetch_add(&w->done, 1) + 1, w->nfiles,
				    w->files[it->idx[i]]);
	}
	if (!r->model_skipped && st_check_tree_skipped(t))
		r->model_skipped = strdup(st_check_tree_skipped(t));
	st_check_tree_free(t);
	return ret;
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct work *w = wk->w;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->nitems) {
		wk->ret = do_item(w, &w->items[i], &wk->r, &wk->err);
		if (wk->ret) {
			wk->err_item = i;
			/* make the other thread stop after its current item */
			atomic_store(&w->next, w->nitems);
			break;
		}
	}
	return NULL;
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
	for (size_t i = 0; i < from->nr_errors; i++)
		if (st_check_add_error(to, from->errors[i].file, from->errors[i].msg))
			return -ENOMEM;
	to->nr_files += from->nr_files;
	to->nr_suppressed += from->nr_suppressed;
	to->nr_baseline += from->nr_baseline;
	to->nr_in_base += from->nr_in_base;
	if (!to->model_skipped) {
		to->model_skipped = from->model_skipped;
		from->model_skipped = NULL;
	}
	from->nr = 0;
	if (from->nr_stacks) {
		struct st_check_stack *s = realloc(to->stacks, (to->nr_stacks +
						   from->nr_stacks) * sizeof(*s));

		if (!s)
			return -ENOMEM;
		memcpy(s + to->nr_stacks, from->stacks, from->nr_stacks * sizeof(*s));
		to->stacks = s;
		to->nr_stacks += from->nr_stacks;
		from->nr_stacks = 0;
	}
	return 0;
}

static unsigned int nr_workers(const struct work *w, size_t nfiles)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int k = cpus > MAX_WORKERS ? MAX_WORKERS : cpus < 1 ? 1 : cpus;

	/* threads do not pay off for a handful of small files */
	if (w->nitems < 2 || (!w->o->srctree && nfiles < 16))
		return 1;
	return k;
}

static int run_items(struct work *w, size_t nfiles, struct st_check_result *r,
		     struct st_error *err)
{
	struct worker wk[MAX_WORKERS];
	unsigned int i, k = nr_workers(w, nfiles);
	struct worker *bad = NULL;
	int ret = 0;

	memset(wk, 0, sizeof(wk));
	atomic_init(&w->next, 0);
	atomic_init(&w->done, 0);
	for (i = 0; i < k; i++) {
		wk[i].w = w;
		wk[i].err_item = w->nitems;
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
		if (wk[i].ret && (!bad || wk[i].err_item < bad->err_item))
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

/* The helper a file needs: its ARCH, "" for the host's (the default). */
static char *arch_key(const struct st_check_arch *a)
{
	return strdup(a->from == ST_ARCH_FROM_HOST ? "" : a->arch);
}

/*
 * Items: one per file without a tree; with a tree, one per arch (in order
 * of first appearance, the largest first so that two threads finish
 * together).
 */
static int make_items(struct work *w, size_t n)
{
	char **keys = calloc(n + 1, sizeof(*keys));
	size_t *idx = malloc((n + 1) * sizeof(*idx));
	size_t i, j, pos = 0;
	int ret = -ENOMEM;

	w->items = calloc(n + 1, sizeof(*w->items));
	if (!keys || !idx || !w->items)
		goto out;
	if (!w->o->srctree && !w->o->model) {
		for (i = 0; i < n; i++) {
			idx[i] = i;
			w->items[i].idx = &idx[i];
			w->items[i].n = 1;
		}
		w->nitems = n;
		ret = 0;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (!(keys[i] = arch_key(&w->archs[i])))
			goto out;
	for (i = 0; i < n; i++) {
		struct item *it;

		if (!keys[i])
			continue;
		it = &w->items[w->nitems++];
		it->idx = &idx[pos];
		for (j = i; j < n; j++) {
			if (keys[j] && !strcmp(keys[i], keys[j])) {
				idx[pos++] = j;
				it->n++;
				if (j != i) {
					free(keys[j]);
					keys[j] = NULL;
				}
			}
		}
		free(keys[i]);
		keys[i] = NULL;
	}
	/* largest first; items point into idx, which stays in one piece */
	for (i = 1; i < w->nitems; i++)
		for (j = i; j > 0 && w->items[j].n > w->items[j - 1].n; j--) {
			struct item tmp = w->items[j];

			w->items[j] = w->items[j - 1];
			w->items[j - 1] = tmp;
		}
	ret = 0;
out:
	st_strv_free(keys, n);
	w->idx = idx;
	if (ret)
		w->nitems = 0;
	return ret;
}

static void free_items(struct work *w)
{
	free(w->idx);
	free(w->items);
}

/*
 * Take out of @files those that are clearly no kernel config (only a named
 * file can be: a walk leaves them out), each an error finding of its own.
 */
static int drop_not_kernel(char **files, size_t *n, struct st_check_result *r)
{
	struct st_cfg_verdict v;
	size_t i, j;
	int ret;

	for (i = j = 0; i < *n; i++) {
		if (!st_cfg_not_kernel(files[i], &v)) {
			files[j++] = files[i];
			continue;
		}
		ret = st_check_add(r, ST_RULE_SYNTAX, files[i], v.line ? v.line : 1, 1, NULL,
				   "name only kernel configs (or pass --skip-non-kernel)",
				   "%s", v.why);
		if (ret)
			return ret;
		r->f[r->nr - 1].level = ST_LEVEL_ERROR;
		r->nr_not_kernel++;
		free(files[i]);
	}
	*n = j;
	return 0;
}

/*
 * The ARCH of each of @files into r->archs, by the one rule: what the
 * command was told (.slubtiny.json's "arches" entry for the file before
 * its "arch"), then each file's own (build system, path, symbols, host).
 */
static int decide_archs(const struct st_check_run_opts *o, char *const *files, size_t n,
			struct st_check_result *r)
{
	size_t i;

	r->archs = calloc(n + 1, sizeof(*r->archs));
	if (!r->archs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct st_check_arch *a = &r->archs[i];
		struct st_arch_sources given = o->arch;
		char why[96];

		if (o->config)
			st_check_config_arch(o->config, files[i], &given, why, sizeof(why));
		st_arch_of_file(files[i], NULL, &given, &a->choice);
		a->file = strdup(files[i]);
		if (!a->file)
			return -ENOMEM;
		snprintf(a->arch, sizeof(a->arch), "%s", a->choice.arch);
		snprintf(a->why, sizeof(a->why), "%s", a->choice.why);
		a->from = a->choice.from;
		r->nr_archs++;
	}
	return 0;
}

int st_check_run(const struct st_check_run_opts *opts, char *const *paths, size_t n,
		 struct st_check_result *r, struct st_error *err)
{
	struct st_check_run_opts oc = *opts, *o = &oc;
	struct st_discover_opts dopt = {
		.allow_empty = opts->allow_empty,
		.skip_foreign = opts->skip_foreign,
	};
	struct st_discovery d;
	char **files = NULL;
	size_t nr_files = 0;
	int ret;

	/*
	 * --fix migrates for the tree's kernel: the notes say what it writes.
	 * (No version: the tree's own check reports what is wrong with it.)
	 */
	if (o->srctree) {
		struct st_error e = { 0 };
		struct st_kver v;

		if (!st_kver_of_tree(o->srctree, &v, &e)) {
			oc.rules.fix_major = v.major;
			oc.rules.fix_minor = v.minor;
		}
	}
	ret = st_discover(paths, n, &dopt, &d, err);
	if (ret)
		return ret;
	/* the paths are the run's now; @d keeps the directories walked */
	files = d.paths;
	nr_files = d.nr;
	d.paths = NULL;
	d.nr = 0;
	r->nr_looked = d.nr_looked;
	r->nr_skipped = d.nr_skipped;
	r->skipped = d.skipped;
	r->skipped_why = d.skipped_why;
	d.skipped = d.skipped_why = NULL;
	if (o->shard_n && st_mig_shard_paths(files, &nr_files, o->shard_k, o->shard_n)) {
		ret = st_err(err, ENOMEM, NULL, "out of memory");
		goto out;
	}
	if (drop_not_kernel(files, &nr_files, r) ||
	    decide_archs(o, files, nr_files, r)) {
		ret = st_err(err, ENOMEM, NULL, "out of memory");
		goto out;
	}
	if (o->fix)
		ret = st_check_fix(o, &d, files, nr_files, r, err);
	if (!ret) {
		struct work w = {
			.o = o, .prior = r, .files = files, .archs = r->archs, .nfiles = nr_files,
		};

		ret = make_items(&w, nr_files);
		if (ret)
			ret = st_err(err, -ret, NULL, "out of memory");
		else
			ret = run_items(&w, nr_files, r, err);
		free_items(&w);
	}
	if (o->shard_k > 1)
		;	/* the budgets are shard 1's */
	else if (!ret && o->budget)
		ret = st_check_budgets(r, o->budget, NULL, o->builddir, err);
	else if (!ret && o->budgets)
		ret = st_check_budgets(r, o->budgets_path, o->budgets, o->builddir, err);
out:
	st_discovery_release(&d);
	st_strv_free(files, nr_files);
	return ret;
}
