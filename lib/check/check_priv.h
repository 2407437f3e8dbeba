/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_CHECK_PRIV_H
#define ST_CHECK_PRIV_H

/* Helpers shared by the files of lib/check; not part of its interface. */

#include <stdbool.h>
#include <stddef.h>

struct st_error;

/* @rel against the directory of @base_file (absolute @rel as is); malloc'd. */
char *st_check_resolve(const char *base_file, const char *rel);

struct st_check_result;
struct st_check_run_opts;
struct st_check_opts;
struct st_defconfig;
struct st_check_tree;

/*
 * Kconfig verification against a kernel tree (tree.c): one helper per arch.
 * With @srctree NULL, against the slab model bundled for the kernel each
 * file is judged for, the one migrate verifies with when it has no tree: it
 * only adds the ineffective-option and unknown-symbol findings the rules
 * cannot see, and a helper that cannot start leaves them out
 * (st_check_tree_skipped()).
 */
int st_check_tree_new(struct st_check_tree **t, const char *srctree, const char *arch,
		      const char *cross_compile, struct st_error *err);
/* Model mode: why the model was not used, or NULL. Owned by @t. */
const char *st_check_tree_skipped(const struct st_check_tree *t);
void st_check_tree_free(struct st_check_tree *t);
/*
 * Verify @dc and merge the result into the findings of this file that
 * st_check_defconfig() added from index @start on.
 */
struct st_layout;

int st_check_tree_verify(struct st_check_tree *t, struct st_check_result *r,
			 size_t start, const struct st_defconfig *dc,
			 const char *path, const struct st_layout *l,
			 const struct st_check_opts *o, struct st_error *err);

/*
 * Fold this file's unknown-symbol findings (from @start on) into one when
 * there are two or more: a tree without the build system's own patches
 * lacks its symbols by the dozen. The chain lists each line.
 */
int st_check_tree_summarize(struct st_check_result *r, size_t start);

/*
 * Whether the rules judge @sym themselves for the kernel @o judges (the
 * allocators once removed, SLUB_TINY and what it turns off): the bundled model's word on it adds nothing, and a
 * rule turned off must not come back under another id.
 */
bool st_check_rules_own(const char *sym, const struct st_check_opts *o);

/* git, quietly (baseline.c): see there. */
int st_check_git(const char *dir, char *line, size_t len, char *const argv[]);
bool st_check_git_shallow(const char *dir);
/*
 * "@what@rev: not a git revision here" for @file into @err, or in a
 * shallow clone that it is not there and how to fetch it; returns -ENOENT.
 */
int st_check_baseline_missing(struct st_error *err, const char *dir, const char *file,
			      const char *what, const char *rev);

/*
 * --fix (fix.c): migrate's rewrite, verified, written atomically; a file a
 * walk of @d found is written only inside the directory walked.
 */
struct st_discovery;
int st_check_fix(const struct st_check_run_opts *o, const struct st_discovery *d,
		 char **files, size_t n, struct st_check_result *r, struct st_error *err);

/* --budget (budget.c). */
/* @text: the budget file's content (inline budgets), else read @budget_path. */
int st_check_budgets(struct st_check_result *r, const char *budget_path,
		     const char *text, const char *builddir, struct st_error *err);

/* Free what finding @f owns (not @f itself): one place knows its strings. */
void st_check_finding_free(struct st_check_finding *f);

#endif
