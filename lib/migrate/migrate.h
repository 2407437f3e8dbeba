/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_MIGRATE_H
#define ST_MIGRATE_H

/*
 * The migration rules: a table of named rewrites over the lossless defconfig
 * model (lib/defconfig), each applying to a range of target kernels. Pure: no
 * I/O, the input model is never modified, and applying the result again
 * changes nothing (idempotent).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/strpool.h"
#include "common/render.h"
#include "kconfig/kconfig.h"
#include "layout/layout.h"
#include "linux/arch.h"
#include "linux/linux.h"
#include "linux/slab_history.h"

struct cJSON;
struct st_defconfig;


struct st_mig_ctx;

struct st_mig_rule {
	const char *id;			/* stable, for output and docs */
	struct st_slab_when from;	/* the change it applies from, on */
	const char *explanation;	/* why the line must change */
	/* Does the rule apply to line @idx of the input? */
	bool (*match)(const struct st_mig_ctx *ctx, size_t idx);
	/*
	 * Rewrite it in the output, where it now sits at @at. Returns how many
	 * lines it became (0 deleted, 1, 2 ...) or -errno.
	 */
	int (*rewrite)(struct st_mig_ctx *ctx, size_t idx, size_t at);
};

/* The table, terminated by an entry with id NULL. */
extern const struct st_mig_rule st_mig_rules[];

/* One applied rewrite. */
struct st_mig_change {
	const char *rule;	/* st_mig_rules[].id */
	int line;		/* 1-based line of the input */
	int out_line;		/* where it is in the migrated file (for a
				 * deleted line: the line that took its place) */
	const char *msg;	/* "CONFIG_SLOB=y -> CONFIG_SLUB=y, CONFIG_SLUB_TINY=y: ..." */
	const char *text;	/* fix-deps: the line written; "" for a rule's */
};

/*
 * A finding about the migrated file. kind is one of "ineffective",
 * "unknown", "duplicate", "conflict", "redundant" (the JSON schema of
 * `slubtiny migrate`) or "syntax" (a line the parser diagnosed). Empty
 * strings where a field does not apply. The strings belong to the
 * migration's pool (st_migration_add_finding() copies them there): a file
 * can have a finding a line, and fixed arrays cost 1.8 kB each.
 */
struct st_mig_finding {
	int line;			/* 1-based, in the migrated file */
	int in_line;			/* the input's line it comes from (an
					 * added line: the one it follows) */
	bool pre_existing;		/* the input had it (lib/migrate/origin.h) */
	const char *symbol;		/* without CONFIG_ */
	const char *kind;
	const char *requested;		/* value the file asks for, "n" for is not set */
	const char *actual;		/* value it gets, "" if unknown */
	const char *cause;		/* short reason */
	const char *message;		/* one line, for FILE:LINE: warning: */
	const char *detail;		/* more, e.g. the fix */
};

struct st_migration {
	struct st_strpool strs;		/* the strings of changes and findings */
	struct st_defconfig *after;	/* the migrated model (owned) */
	struct st_mig_change *changes;
	size_t nr_changes, changes_cap;
	struct st_mig_finding *findings;
	size_t nr_findings, findings_cap;
	bool changed;			/* after differs from the input */
	/*
	 * A baseline (st_migration_findings_of()): its findings keep their
	 * keys (line, symbol, kind, requested, actual, cause); message and
	 * detail are "", as they are compared, never shown.
	 */
	bool keys_only;
};

/*
 * Apply every rule that applies to @target to @before (not modified) and
 * collect findings: duplicate and conflicting assignments, parser
 * diagnostics, and slab symbols that @target no longer knows or ignores.
 * Fills *m (release with st_migration_release()). 0 or -ENOMEM.
 */
int st_migrate(const struct st_defconfig *before, struct st_kver target,
	       struct st_migration *m);
void st_migration_release(struct st_migration *m);

/*
 * The rule table's findings about @dc as it is (parser diagnostics, slab
 * symbols @target does not know or ignores), as if migrating it changed
 * nothing: the baseline a migration is judged against. @dc must be as
 * st_defconfig_parse() or _load() made it (its diagnostics are its
 * bytes'). Fills *m's findings, keys only (m->keys_only); m->after
 * stays NULL.
 */
int st_migration_findings_of(const struct st_defconfig *dc, struct st_kver target,
			     struct st_migration *m);
/* Recompute m's rule table findings after m->after was edited further. */
int st_migration_refind(struct st_migration *m, struct st_kver target);

/*
 * Append a finding to @m (for callers adding verification results); its
 * strings are copied into @m's pool (NULL is taken as "").
 */
int st_migration_add_finding(struct st_migration *m, const struct st_mig_finding *f);
/*
 * Append a change to @m and return it, its strings "" (set them from
 * st_strpool_*(&m->strs)); NULL when out of memory.
 */
struct st_mig_change *st_migration_new_change(struct st_migration *m);
/*
 * The rule id of a finding of @kind ("ineffective" -> "ineffective-option"),
 * the one `slubtiny check` uses for it: one name in both doors.
 */
const char *st_mig_kind_rule(const char *kind);
/*
 * The rule id of finding @x: by its kind, but an ineffective SLUB_TINY=y
 * is slub-tiny-deps and an option SLUB_TINY turns off slub-tiny-disables,
 * as check names them.
 */
struct st_mig_finding;
const char *st_mig_finding_rule(const struct st_mig_finding *x);

/* Order @m's findings by line, then symbol: the order every report uses. */
void st_migration_sort_findings(struct st_migration *m);

/* A symbol's value in a resolved configuration; val NULL = not defined. */
struct st_symval {
	const char *sym;	/* without CONFIG_ */
	const char *val;	/* "y", "m", "n", "\"str\"", "123", "0x10" */
};

/* A symbol whose resolved value differs; old/new NULL = not defined. */
struct st_collateral {
	char *sym, *old, *new;
};

/*
 * Options whose resolved value differs between @before and @after (two
 * resolved configurations, in any order), sorted by symbol. Symbols in
 * @skip (may be NULL, NULL-terminated: the ones the migration set on
 * purpose) are left out. Allocates *out; free with st_collateral_free().
 */
int st_migrate_collateral(const struct st_symval *before, size_t nr_before,
			  const struct st_symval *after, size_t nr_after,
			  const char *const *skip,
			  struct st_collateral **out, size_t *nr_out);
/*
 * Every symbol whose value differs, as scripts/diffconfig lists the two
 * .config files: one not defined on one side and n on the other too.
 */
int st_migrate_config_diff(const struct st_symval *before, size_t nr_before,
			   const struct st_symval *after, size_t nr_after,
			   struct st_collateral **out, size_t *nr_out);
void st_collateral_free(struct st_collateral *c, size_t nr);

/*
 * A migration session: the options of one `slubtiny migrate` run and the
 * Kconfig helpers it started (one per arch, shared by all files of that arch).
 */
struct st_error;
struct st_mig_session;

struct st_mig_opts {
	const char *srctree;		/* kernel tree, or NULL (bundled model) */
	/*
	 * What the command was told (--arch, $ARCH); each file's own sources
	 * come next (st_arch_of_file()).
	 */
	struct st_arch_sources arch;
	const char *cross_compile;	/* CROSS_COMPILE, or NULL */
	const char *target;		/* "6.2"; NULL: the tree's, or st_kver_newest */
	bool verify;			/* resolve with Kconfig and report */
	bool fix_deps;			/* add missing enabling options */
	bool no_pin;			/* with fix_deps: do not pin the options
					 * that change as a side effect */
};

/* Number of findings of @m that the migration introduced. */
size_t st_migration_nr_introduced(const struct st_migration *m);

/* Everything known about one file after st_mig_session_file(). */
struct st_mig_file {
	char *path;			/* as shown (relative to the tree when inside it) */
	struct st_defconfig *before;	/* as read */
	struct st_migration m;		/* after, changes, findings */
	char *diff;			/* unified diff, "" when unchanged */
	struct st_collateral *collateral;
	size_t nr_collateral;
	/*
	 * All that scripts/diffconfig shows: the collateral, the options the
	 * changed lines set (nr_set_by_lines of them), and those that only
	 * appear or vanish as n (nr_only_n)
	 */
	struct st_collateral *changed_all;
	size_t nr_changed_all, nr_set_by_lines, nr_only_n;
	bool verified;			/* Kconfig verification ran */
	bool fix_deps_would;		/* without --fix-deps: it would write every
					 * fix the findings name, refusing none */
	const char *verified_with;	/* st_kconfig_describe(), or NULL */
	char arch[32];			/* the ARCH it was verified for, "" if not */
	enum st_arch_from arch_from;	/* and where that came from */
	char arch_why[96];		/* what decided ("CONFIG_ARCH_AT91"), or "" */
	struct st_arch_choice arch_choice;	/* the whole decision, its conflicts */
	size_t nr_errors;		/* parser errors: the file is not touched */
	char **refused;			/* --fix-deps: fixes not written, and why */
	size_t nr_refused;
	/*
	 * The build system's stack the file belongs to (lib/layout): it is
	 * verified merged over the base parts, and changed alone.
	 */
	struct st_layout layout;
	size_t nr_in_base;		/* Kconfig findings on base lines, not the file's */
	/*
	 * The kernel it was migrated and verified for: the session's, or,
	 * without --target and --srctree, the one its build system gives
	 * (@layout.version, an OpenWrt config-6.6) where a bundled model
	 * covers it, as check judges it. @target_from_layout says which.
	 */
	struct st_kver target;
	bool target_from_layout;
};

int st_mig_session_new(struct st_mig_session **s, const struct st_mig_opts *opts,
		       struct st_error *err);
void st_mig_session_free(struct st_mig_session *s);

/*
 * A warning about the options for the user, or NULL: --target names
 * another kernel than the tree's Makefile.
 */
const char *st_mig_session_warning(const struct st_mig_session *s);

/* The target kernel in use (resolved from the options). */
struct st_kver st_mig_session_target(const struct st_mig_session *s);

/*
 * @src into @dst (@size bytes, cut there) with each "line N" that names a
 * line of the file, N (1-based), replaced by @map(@ctx, N): notes that
 * name lines, kept true when lines move. Returns @dst.
 */
char *st_mig_map_lines(char *dst, size_t size, const char *src,
		       int (*map)(void *ctx, int line), void *ctx);
/*
 * The input's line that line @line (1-based) of @f's migrated file is, or
 * follows when the migration added it (the numbering of a file left as it
 * is).
 */
int st_mig_file_in_line(const struct st_mig_file *f, int line);

/*
 * Load, migrate and (if asked) verify @path. A file with parser errors is
 * returned with f->nr_errors set and nothing migrated. Returns 0 or -errno
 * with @err filled (unreadable file, Kconfig helper failure, ...). Release
 * @f with st_mig_file_release().
 */
int st_mig_session_file(struct st_mig_session *s, const char *path,
			struct st_mig_file *f, struct st_error *err);
/*
 * The same, for the ARCH @arch a caller already decided for @path (check
 * decides it once, with .slubtiny.json's "arches"); NULL: decide it here.
 */
struct st_arch_choice;
int st_mig_session_file_as(struct st_mig_session *s, const char *path,
			   const struct st_arch_choice *arch, struct st_mig_file *f,
			   struct st_error *err);
void st_mig_file_release(struct st_mig_file *f);

/*
 * The verification failed: an option of the migrated file is ineffective or
 * unknown because of the migration (an introduced finding; false when it
 * was not verified). --in-place refuses such a file; what the input already
 * had does not count.
 */
bool st_mig_file_failed(const struct st_mig_file *f);

/*
 * Write f->m.after to f->before's path with st_defconfig_write_within():
 * @within is the resolved directory a walk found the file in
 * (st_discovery_within()), NULL for a file named on the command line.
 */
int st_mig_file_write(const struct st_mig_file *f, const char *within, struct st_error *err);

/* "MAJOR.MINOR" of a kernel tree from its Makefile (VERSION, PATCHLEVEL). */
int st_kver_of_tree(const char *srctree, struct st_kver *v, struct st_error *err);

/*
 * Keep shard @k of @n (1 <= k <= n) of the expanded @paths, in place: the
 * paths are ranked by byte order (strcmp) and the one of rank i stays when
 * i % n == k - 1. The partition depends only on the set of paths, not on
 * their order, so N runs with k = 1..n together see each path exactly once.
 * The others are freed; their order is kept. n == 0 keeps everything.
 */
int st_mig_shard_paths(char **paths, size_t *nr, unsigned int k, unsigned int n);

/*
 * What became of one file, for its report (lib/migrate/render.c, the
 * contract of common/render.h): the file, and how the run treated it.
 */
struct st_mig_outcome {
	const struct st_mig_file *file;
	bool written;		/* written back (in place, or to stdout) */
	bool written_lines;	/* line numbers of the written file, not the input's */
	bool all;		/* pre-existing findings listed one by one */
	bool diffconfig;	/* every option that changes value (--all) */
	bool tree;		/* verified with a kernel tree, not a model */
};

/*
 * Text: gcc-form diagnostics (the changes, the findings, the options that
 * change as a side effect, the stack), for stderr; a file with parser
 * errors gets the parser's diagnostics. The diff (file->diff) is not
 * printed: it is the file's new content, the caller's to print. JSON: the
 * object of st_mig_outcome_to_json().
 */
int st_mig_outcome_render(FILE *f, const struct st_mig_outcome *r,
			  const struct st_render_opts *o);
struct cJSON *st_mig_outcome_to_json(const struct st_mig_outcome *r);

/*
 * Text: only the options that change as a side effect (scripts/diffconfig's
 * form, counted; r->diffconfig: all that diffconfig shows), and without a
 * tree (!r->tree) the note st_mig_model_side_effects. What `migrate`
 * prints for a file, and `check --fix` for a file it wrote; printed also
 * when quiet.
 */
int st_mig_side_effects_render(FILE *f, const struct st_mig_outcome *r,
			       const struct st_render_opts *o);
extern const char st_mig_model_side_effects[];

/* A file that could not be processed, as an entry of "files": {path, error}. */
struct cJSON *st_mig_error_to_json(const char *path, const char *msg);

/* The counts of a run's summary. */
struct st_mig_counts {
	size_t files;		/* files migrated */
	size_t looked_at;	/* files a DIR walk looked at */
	size_t not_kernel;	/* of those, not kernel configs */
};

/*
 * The run's JSON document: version, target, which lines are meant, the
 * "files" array (*@files, for the entries) and the summary. NULL: no memory.
 */
struct cJSON *st_mig_doc_new(struct st_kver target, bool written_lines,
			     const struct st_mig_counts *n, struct cJSON **files);

/*
 * What @f was verified against, into @buf ("" when it was not): a tree's
 * "(ARCH=arm)" (@tree) also says where the ARCH came from.
 */
void st_mig_file_basis(const struct st_mig_file *f, bool tree, char *buf, size_t len);

#endif
