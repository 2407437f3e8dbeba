/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_CHECK_H
#define ST_CHECK_H

/*
 * `slubtiny check`: a lint over defconfigs and size budgets.
 *
 * Rules are one table (st_check_rules[], indexed by enum st_rule) with
 * stable ids that users select, ignore and suppress by. The checks fill a
 * struct st_check_result with findings; renderers print it in one of the
 * output formats. Nothing here prints a diagnostic: errors go to struct
 * st_error.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/render.h"
#include "kconfig/kconfig.h"
#include "layout/layout.h"
#include "linux/arch.h"

struct cJSON;

struct st_error;
struct st_defconfig;

enum st_check_level {
	ST_LEVEL_NOTE,		/* informational; does not make the exit status 1 */
	ST_LEVEL_WARNING,
	ST_LEVEL_ERROR,
};

enum st_rule {
	ST_RULE_SYNTAX,			/* a line Kconfig cannot read */
	ST_RULE_REMOVED_ALLOCATOR,	/* SLOB, SLAB, *_DEPRECATED set */
	ST_RULE_SLUB_TINY_DEPS,		/* SLUB_TINY without EXPERT / SLUB */
	ST_RULE_SLUB_TINY_DISABLES,	/* an option SLUB_TINY turns off, set to y */
	ST_RULE_DUPLICATE,		/* same symbol, same value, again */
	ST_RULE_CONFLICT,		/* same symbol, another value */
	ST_RULE_UNKNOWN_SYMBOL,		/* not in the tree's Kconfig (--srctree) */
	ST_RULE_INEFFECTIVE,		/* does not take effect (--srctree) */
	ST_RULE_HARDENING_NOTICE,	/* SLUB_TINY weakens slab hardening */
	ST_RULE_BAD_SUPPRESSION,	/* suppression comment naming no rule */
	ST_RULE_SIZE_BUDGET,		/* a blown size budget */
	ST_RULE_REMOVED_OPTION,		/* a slab option the kernel removed or renamed */
	ST_RULE_COUNT,
};

struct st_check_rule {
	const char *id;			/* stable, kebab-case */
	enum st_check_level level;	/* of its findings (but see @error_when) */
	bool needs_tree;		/* in full only with --srctree */
	bool fixable;			/* --fix can repair it */
	const char *summary;		/* one sentence */
	const char *help;		/* what to do about it */
	const char *error_when;		/* NULL, or which of its findings are
					 * errors instead ("binary data") */
};

extern const struct st_check_rule st_check_rules[ST_RULE_COUNT];

/* The rule with id @id (length @len), or -1. */
int st_check_rule_find(const char *id, size_t len);

/*
 * Parse a comma-separated list of rule ids into @set (entries for listed
 * rules become true; others are left alone). Unknown ids fill @err.
 */
int st_check_rule_list(bool set[ST_RULE_COUNT], const char *list,
		       struct st_error *err);

struct st_check_finding {
	enum st_rule rule;
	enum st_check_level level;
	char *file;		/* as given by the caller */
	int line;		/* 1-based; 0: about the whole file */
	int col;		/* 1-based; 0 with line 0 */
	char *sym;		/* without CONFIG_, NULL when not about a symbol */
	char *msg;		/* lowercase start is not required: names come first */
	char *hint;		/* how to fix it, NULL if none */
	char *chain;		/* the whole cause chain, one cause a line, or NULL;
				 * @msg names only its root */
	char *text;		/* the text of @line in @file, or NULL (line 0, or
				 * not read): SARIF's partialFingerprints hash it */
};

/* A file of a build system's stack (lib/layout), as it was judged. */
struct st_check_stack {
	char *file;		/* as given */
	struct st_layout l;	/* owned: its parts, arch and version */
	bool arch_used;		/* l.arch decided the ARCH (no --arch, $ARCH, path) */
	bool version_used;	/* l.version decided the kernel (no --target, --srctree) */
	const char *unread;	/* why the kernel tree's parts were not read, or NULL */
	size_t nr_in_base;	/* tree findings on base lines, not shown */
};

struct st_check_result {
	struct st_check_finding *f;
	size_t nr, alloc;
	size_t nr_files;
	size_t nr_suppressed;	/* findings dropped by suppression comments */
	size_t nr_fixed;	/* files rewritten by --fix */
	size_t nr_fixed_lines;	/* lines --fix wrote */
	size_t nr_baseline;	/* findings not shown: the --baseline had them */
	/* --fix: one "FILE:LINE:COL: note: fixed: MSG [RULE]" line per line written */
	char **fixed;
	size_t nr_fixed_msgs;
	/*
	 * --fix, for JSON: one object a written file, {file, changes,
	 * side_effects, side_effects_scope, verified_with}, as migrate's
	 * (owned; NULL when nothing was written).
	 */
	struct cJSON *fixes;
	size_t nr_fix_refused;	/* --fix: rewrites not written (verification failed) */
	/*
	 * Without a tree: why the bundled model could not be used (then the
	 * rules judged alone), or NULL. Owned.
	 */
	char *model_skipped;
	/*
	 * Files that could not be checked (an arch the tree lacks): one
	 * message each, "FILE" and "problem"; their findings are dropped, the
	 * other files' kept. Any makes the exit status 2.
	 */
	struct st_check_file_error *errors;
	size_t nr_errors;
	bool verbose;		/* text: print each finding's whole cause chain */
	bool quiet;		/* text: warnings and errors only, no notes */
	/*
	 * The ARCH each file was judged for, in the order checked (owned);
	 * JSON's top-level "arch" is theirs when they all agree.
	 */
	struct st_check_arch *archs;
	size_t nr_archs;
	/* Discovery: files a walk looked at, and of them not kernel configs. */
	size_t nr_looked, nr_skipped;
	char **skipped, **skipped_why;	/* the skipped files and why (-v) */
	/* Named files that are another program's config: error findings, exit 2. */
	size_t nr_not_kernel;
	/* files merged over a base (JSON "stacks"), in no order */
	struct st_check_stack *stacks;
	size_t nr_stacks;
	size_t nr_in_base;	/* total of the stacks' nr_in_base */
	/*
	 * SARIF's %SRCROOT%: the absolute directory relative paths start from
	 * (the caller's working directory), or NULL. Set by the caller; not
	 * owned.
	 */
	const char *srcroot;
};

/* One file's ARCH and how it was decided (st_arch_of_file()). */
struct st_check_arch {
	char *file;
	char arch[32];
	enum st_arch_from from;
	char why[96];		/* "CONFIG_ARCH_AT91", "arch/arm/configs/", "" */
	struct st_arch_choice choice;	/* the whole decision, its conflicts */
};

struct st_check_file_error {
	char *file;
	char *msg;
};

void st_check_result_init(struct st_check_result *r);

/* Record that @file could not be checked, for @msg (copied). */
int st_check_add_error(struct st_check_result *r, const char *file, const char *msg);
void st_check_result_free(struct st_check_result *r);

/* Append a finding (strings are copied; @sym and @hint may be NULL). */
int st_check_add(struct st_check_result *r, enum st_rule rule, const char *file,
		 int line, int col, const char *sym, const char *hint,
		 const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* Sort by file, line, column, rule: the order every format prints. */
void st_check_sort(struct st_check_result *r);

/* Number of findings of level warning or error (the exit status). */
size_t st_check_nr_failing(const struct st_check_result *r);

/*
 * Suppression comments. A comment line
 *	# slubtiny: ignore[rule-id,...]
 * silences those rules on the next line that is not a comment or blank;
 *	# slubtiny: ignore-file[rule-id,...]
 * silences them for the whole file. "ignore" without a list means every rule.
 */
enum st_supp_kind {
	ST_SUPP_NONE,		/* not a suppression comment */
	ST_SUPP_LINE,
	ST_SUPP_FILE,
	ST_SUPP_BAD,		/* looks like one but is malformed */
};

struct st_supp {
	enum st_supp_kind kind;
	bool rules[ST_RULE_COUNT];
	char bad[96];		/* ST_SUPP_BAD: what is wrong */
};

/* Classify one line (@len bytes, need not be NUL-terminated). */
void st_check_parse_suppression(struct st_supp *s, const char *text, size_t len);

/* Which rules run, and the knobs of the rules. */
struct st_check_opts {
	bool enabled[ST_RULE_COUNT];
	/*
	 * The kernel --fix migrates for (a tree's Makefile version), which
	 * the removed-allocator notes describe; 0.0: the newest migrate knows.
	 */
	int fix_major, fix_minor;
	/*
	 * The kernel the file is built for (--target, or what its build
	 * system gives): an allocator that kernel still has is no finding.
	 * 0.0: the newest.
	 */
	int judge_major, judge_minor;
	/*
	 * The build system's base the file is merged over ends with
	 * CONFIG_EXPERT=y (lib/layout): the file needs no line of its own.
	 */
	bool base_expert;
};

/* Every rule enabled, every knob at its default (0, false). */
void st_check_opts_init(struct st_check_opts *o);

/*
 * Run the rules that need no kernel tree over @dc, adding findings under
 * the name @file to @r, after suppression comments in @dc.
 */
int st_check_defconfig(struct st_check_result *r, const struct st_defconfig *dc,
		       const char *file, const struct st_check_opts *o);

/*
 * Drop findings of @file from index @from on that a suppression comment in
 * @dc silences (used for findings added by the tree verification).
 */
void st_check_apply_suppressions(struct st_check_result *r, size_t from,
				 const struct st_defconfig *dc);

/*
 * The per-repository configuration file, .slubtiny.json:
 *	{ "select": ["rule", ...], "ignore": ["rule", ...],
 *	  "srctree": "DIR", "arch": "ARCH", "budget": "FILE",
 *	  "budgets": [ ...entries of a budget file... ] }
 * Paths are relative to the directory of the file. Every key is optional;
 * unknown keys and rules are errors (a typo must not disable a gate).
 */
#define ST_CHECK_CONFIG_NAME	".slubtiny.json"

/*
 * "ignores": [{"files": GLOB, "rules": [RULE, ...], "reason": TEXT}, ...]:
 * findings of those rules (all rules without "rules") in files matching
 * GLOB are dropped. GLOB is an fnmatch() pattern ('*' also matches '/')
 * over the path relative to the directory of the configuration file. Kept
 * outside the defconfig, these survive `make savedefconfig`.
 */
struct st_check_ignore {
	char *glob;
	bool rules[ST_RULE_COUNT];
	char *reason;
};

/*
 * "arches": [{"files": GLOB, "arch": ARCH}, ...]: files matching GLOB (as
 * "ignores" match) are judged for ARCH, before "arch" and each file's own
 * (build system, path, $ARCH, symbols, host); --arch still wins. For trees that mix
 * arches where neither path nor symbols tell.
 */
struct st_check_arch_map {
	char *glob;
	char *arch;
};

struct st_check_config {
	char *path;		/* where it was read from, NULL if none */
	struct st_check_ignore *ignores;
	size_t nr_ignores;
	struct st_check_arch_map *arches;
	size_t nr_arches;
	bool has_select;
	bool select[ST_RULE_COUNT];
	bool ignore[ST_RULE_COUNT];
	char *srctree;		/* resolved against the file's directory */
	char *arch;
	char *budget;		/* resolved against the file's directory */
	char *budgets;		/* inline "budgets" as a budget file's text, or NULL */
};

int st_check_config_parse(struct st_check_config *c, const char *buf, size_t len,
			  const char *path, struct st_error *err);
int st_check_config_load(struct st_check_config *c, const char *path,
			 struct st_error *err);
/*
 * Look for ST_CHECK_CONFIG_NAME in @dir and its parents, stopping after a
 * directory that holds .git (the top of the repository), after $HOME, and
 * before crossing into another file system. *path is malloc'd, or NULL when
 * there is none. A file found in a directory that belongs to another user
 * or that everyone may write to is not taken: *path stays NULL and
 * @refused names it and says why.
 */
int st_check_config_find(const char *dir, char **path, struct st_error *refused);
void st_check_config_free(struct st_check_config *c);
/*
 * @file relative to the directory of @c's file when it is below it (in
 * @buf), else as given: what "ignores" and "arches" globs match.
 */
const char *st_check_config_rel(const struct st_check_config *c, const char *file,
				char *buf, size_t size);
/*
 * The "arches" entry of @c whose glob matches @file (as st_check_config_rel()
 * gives it) into @given's .slubtiny.json source, with "arches: GLOB" in @why;
 * false, and @given untouched, when none matches. Both doors call it, so a
 * file has the ARCH in migrate that check judged it for.
 */
bool st_check_config_arch(const struct st_check_config *c, const char *file,
			  struct st_arch_sources *given, char *why, size_t size);

/*
 * Drop the findings of @r that an "ignores" entry of @c covers (counted as
 * suppressed). Paths are compared after resolving both sides, so a file
 * named from another directory still matches.
 */
void st_check_apply_ignores(struct st_check_result *r, const struct st_check_config *c);

/*
 * Size budgets (--budget FILE):
 *	{ "budgets": [
 *	    { "object": "PATH", "max": {"text": N, "data": N, "bss": N, "total": N},
 *	      "baseline": "PATH", "growth": {"text": N | "P%", ...} },
 *	    { "variant": "slub_tiny", "arch": "arm", "max": {...},
 *	      "baseline": "slub", "growth": {...} } ] }
 * An "object" is an ELF object, executable or ar archive measured like
 * binutils `size` (sum over the members); a "variant" is one of the bundled
 * allocator's builds for an arch, measured in the build directory. A growth
 * limit is in bytes or, as a string "P%", in percent of the baseline.
 */
enum st_budget_field { ST_BF_TEXT, ST_BF_DATA, ST_BF_BSS, ST_BF_TOTAL, ST_BF_COUNT };

extern const char *const st_budget_field_names[ST_BF_COUNT];

struct st_budget_limit {
	bool set;
	bool percent;
	double value;		/* bytes, or percent when percent */
};

struct st_budget_entry {
	char *object;		/* resolved path, or NULL */
	char *variant;		/* or NULL */
	char *arch;		/* with variant; NULL means every arch built */
	char *baseline;		/* path (object) or variant name, or NULL */
	struct st_budget_limit max[ST_BF_COUNT];
	struct st_budget_limit growth[ST_BF_COUNT];
};

struct st_budget {
	char *path;
	struct st_budget_entry *e;
	size_t nr;
};

int st_budget_parse(struct st_budget *b, const char *buf, size_t len,
		    const char *path, struct st_error *err);
int st_budget_load(struct st_budget *b, const char *path, struct st_error *err);
void st_budget_free(struct st_budget *b);

/* Sizes of one measured thing, in binutils `size` (Berkeley) terms. */
struct st_budget_sizes {
	uint64_t v[ST_BF_COUNT];
};

/*
 * Compare @cur (and @base, NULL when there is no baseline) against @e and
 * add a finding for each limit exceeded; @what names the measured thing.
 */
int st_budget_judge(struct st_check_result *r, const struct st_budget *b,
		    const struct st_budget_entry *e, const char *what,
		    const struct st_budget_sizes *cur,
		    const struct st_budget_sizes *base);

/* Measure an ELF file or archive like `size` (totals over members). */
int st_budget_measure(struct st_budget_sizes *s, const char *path,
		      struct st_error *err);

/*
 * Check every entry of @b: objects are measured directly; variants are
 * looked up as built objects under @builddir (NULL: skip them with an
 * error). Findings go to @r.
 */
int st_budget_check(struct st_check_result *r, const struct st_budget *b,
		    const char *builddir, struct st_error *err);

/*
 * --baseline auto: the revision a change is measured against, decided in
 * the git work tree of @path (the first FILE or DIR; NULL or "-": the
 * current directory). @from and @to are pre-commit's ref range
 * ($PRE_COMMIT_FROM_REF, $PRE_COMMIT_TO_REF; NULL or "" when unset). In
 * this order: the from-ref (the merge base of the two, as pre-commit's
 * diff FROM...TO); HEAD when changes are staged (a commit in progress);
 * the merge base of HEAD and the default branch (origin/HEAD, origin/main,
 * origin/master, main, master); else none. A from-ref that names no
 * commit here, or a merge base a shallow clone cuts off, is an error
 * (-ENOENT, in @err, saying how to get it). @b needs no freeing.
 */
enum st_baseline_from {
	ST_BASELINE_FROM_REF,		/* pre-commit's from-ref (ref) */
	ST_BASELINE_FROM_MERGE_BASE,	/* the merge base of its from-ref (ref) and to-ref (ref2) */
	ST_BASELINE_STAGED,		/* HEAD: uncommitted changes, a commit in progress */
	ST_BASELINE_MERGE_BASE,		/* the merge base of HEAD and the default branch (ref) */
	/* none, every finding counts: */
	ST_BASELINE_ON_DEFAULT,		/* HEAD is on the default branch (ref) */
	ST_BASELINE_NO_DEFAULT,		/* no default branch here */
	ST_BASELINE_NO_HISTORY,		/* HEAD shares no history with the default branch (ref) */
	ST_BASELINE_NO_COMMIT,		/* no commit yet */
	ST_BASELINE_NO_GIT,		/* not in a git work tree */
};

struct st_baseline {
	enum st_baseline_from from;
	char rev[128];		/* the revision for st_check_run_opts.baseline, "" for none */
	char ref[256];
	char ref2[256];
};

int st_check_baseline_auto(struct st_baseline *b, const char *path, const char *from,
			   const char *to, struct st_error *err);

/*
 * One `slubtiny check` run: expand @paths (a directory means the kernel
 * configs below it, see st_discover()), optionally fix each file with
 * migrate's rewrite, run the rules (and, with @srctree, the Kconfig
 * verification), then the budgets. Findings go to @r. A file that cannot
 * be read, merged with its stack, fixed or resolved is an error of that
 * file alone (r->errors, one each) and the others are still judged;
 * errors about the run (a helper that does not start, a bad budget file,
 * a baseline git lacks, no memory) fill @err and return -errno.
 */
struct st_check_run_opts {
	struct st_check_opts rules;
	const char *srctree;	/* kernel tree for verification, or NULL */
	/*
	 * Without @srctree: also resolve each file with the slab model
	 * bundled for the kernel judged (as migrate verifies without a tree),
	 * for the ineffective-option and unknown-symbol findings only a
	 * resolution sees. It starts a Kconfiglib helper per ARCH.
	 */
	bool model;
	/*
	 * What the command was told (--arch, .slubtiny.json's "arch", $ARCH);
	 * each file's own sources come next (st_arch_of_file()).
	 */
	struct st_arch_sources arch;
	const char *cross_compile;	/* CROSS_COMPILE for Kconfig, or NULL */
	bool fix;		/* apply migrate's rewrite in place first */
	const char *budget;	/* budget file, or NULL */
	const char *budgets;	/* or the text of one (inline in .slubtiny.json) */
	const char *budgets_path;	/* where @budgets came from (paths resolve there) */
	const char *builddir;	/* where `slubtiny build` put variants, or NULL */
	/*
	 * A git revision: report only the findings the file did not have in
	 * it (a file new since then has no baseline: everything counts).
	 * NULL: no baseline, every finding.
	 */
	const char *baseline;
	/*
	 * Check only shard @shard_k of @shard_n of the expanded files (see
	 * st_mig_shard_paths()); the budgets only in shard 1. 0: all.
	 */
	unsigned int shard_k, shard_n;
	/*
	 * A directory without a kernel config below it is fine (else an
	 * error: a CI gate pointed at the wrong place must not pass).
	 */
	bool allow_empty;
	/*
	 * Files named that are not kernel configs (by content) are left out,
	 * as a directory walk leaves them: for pre-commit, which picks by name.
	 */
	bool skip_foreign;
	/* .slubtiny.json, for its "arches" (or NULL); not owned */
	const struct st_check_config *config;
	/*
	 * Called after each file with the number done, the total and the
	 * file, from the worker threads (so it must be thread-safe), or NULL.
	 */
	void (*progress)(void *ctx, size_t done, size_t total, const char *file);
	void *progress_ctx;
};

int st_check_run(const struct st_check_run_opts *o, char *const *paths, size_t n,
		 struct st_check_result *r, struct st_error *err);

/*
 * Print @r to @f in text (o->color: ANSI colour), JSON, GitHub workflow
 * commands or SARIF (o->pretty: indented), as common/render.h says. The
 * JSON tree is st_check_to_json()'s.
 */
int st_check_render(FILE *f, const struct st_check_result *r, const struct st_render_opts *o);
struct cJSON *st_check_to_json(const struct st_check_result *r);

/*
 * After a failed run (exit 2): what the machine formats put on stdout so
 * that it still holds one document: json {"error": {"file", "message"}},
 * sarif a log whose invocation failed with the message as a tool execution
 * notification, github an ::error command; text prints nothing (the CLI's
 * stderr line is the message). @file may be NULL.
 */
int st_check_render_error(FILE *f, enum st_format fmt, const char *file,
			  const char *msg, bool pretty);

#endif
