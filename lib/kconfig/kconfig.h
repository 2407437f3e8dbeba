/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_KCONFIG_H
#define ST_KCONFIG_H

/*
 * The Kconfig client: resolves defconfigs the way the kernel's `conf` does,
 * and says why an option did not take effect.
 *
 * The work is done by kconfig/st_kconfig.py (Kconfiglib), one long-lived
 * process per (tree, arch) speaking JSON lines over pipes: open once, then
 * verify as many files of that tree and arch as needed; the tree is parsed
 * once. Nothing here prints; errors fill the caller's struct st_error.
 *
 * Ownership: every string in a result belongs to the result and is freed by
 * st_kc_result_free(). Input arrays and strings stay the caller's; they are
 * not referenced after the call returns.
 */

#include <stdbool.h>
#include <stddef.h>

struct st_error;
struct st_kconfig;

struct st_kc_opts {
	/*
	 * A kernel tree (with its top-level Kconfig), or NULL to use the
	 * slab-related model bundled in kconfig/models/ for @target.
	 */
	const char *srctree;
	/*
	 * Without @srctree: kernel version of the bundled model ("6.1",
	 * "6.12", "6.2.5" picks the newest model <= it); NULL for the newest.
	 * Ignored with a tree (its Makefile gives the version).
	 */
	const char *target;
	/* ARCH as for make (x86_64, i386, sh, arm64, ...); NULL: the host's. */
	const char *arch;
	/* CROSS_COMPILE prefix ("sh4-linux-gnu-"), or NULL like make. */
	const char *cross_compile;
	/*
	 * Overrides, normally NULL. @python: the interpreter (default:
	 * $SLUBTINY_PYTHON, else /usr/bin/python3, else the configured one).
	 * @helper: st_kconfig.py (default: $SLUBTINY_KCONFIG_HELPER, else the
	 * source tree's kconfig/st_kconfig.py).
	 */
	const char *python;
	const char *helper;
};

/* One assignment of the file being verified, in file order. */
struct st_kc_assign {
	const char *sym;	/* without CONFIG_ */
	const char *val;	/* as written after '=' (strings keep their
				 * quotes); NULL for "# CONFIG_sym is not set" */
	int line;		/* 1-based line in the file, for findings */
	/*
	 * st_kconfig_fix_deps(): make this one take effect. When no
	 * assignment is marked, every one is a target.
	 */
	bool fix_target;
};

enum st_kc_mode {
	ST_KC_DEFCONFIG,	/* make <name>_defconfig / olddefconfig */
	ST_KC_TINYCONFIG,	/* make tinyconfig: allnoconfig, then the file
				 * as a fragment (kernel/configs/tiny.config) */
};

enum st_kc_kind {
	ST_KC_INEFFECTIVE,	/* the symbol exists; its value differs */
	ST_KC_UNKNOWN,		/* no such symbol in this tree */
};

enum st_kc_cause {
	ST_KC_CAUSE_DEPENDS,	/* unmet "depends on" (or prompt condition) */
	ST_KC_CAUSE_SELECT,	/* forced by a select */
	ST_KC_CAUSE_IMPLY,	/* raised by an imply */
	ST_KC_CAUSE_CHOICE,	/* another member of its choice won */
	ST_KC_CAUSE_RANGE,	/* int/hex value outside its range */
	ST_KC_CAUSE_NO_PROMPT,	/* no prompt: a defconfig cannot set it */
	ST_KC_CAUSE_UNKNOWN,	/* no such symbol */
	ST_KC_CAUSE_INVALID,	/* value not valid for the symbol's type */
	ST_KC_CAUSE_MODULES,	/* m requested, MODULES is n */
	ST_KC_CAUSE_OTHER,	/* none of the above could be proved */
};

struct st_kc_finding {
	int line;		/* the assignment's line */
	char *sym;		/* without CONFIG_ */
	enum st_kc_kind kind;
	enum st_kc_cause cause;
	char *requested;	/* as written; "n" for "is not set" */
	char *actual;		/* resolved value ("n" when not written);
				 * NULL for an unknown symbol */
	/*
	 * One line, no FILE:LINE prefix, e.g. "CONFIG_SLUB_TINY=y has no
	 * effect: depends on EXPERT, which is n".
	 */
	char *message;
	/*
	 * The chain of causes, one per line, down to what the file can
	 * change, e.g. "EXPERT is n: EXPERT is not set in this file" or
	 * "selected by SLUB_TINY=y (mm/Kconfig:260)". May be "".
	 */
	char *detail;
	/* A suggested fix as a defconfig line ("CONFIG_EXPERT=y"), or NULL. */
	char *fix;
};

/* One symbol of the resolved configuration, in .config order. */
struct st_kc_sym {
	char *name;		/* without CONFIG_ */
	/*
	 * "y", "m", "n" for bool/tristate; digits or 0x... for int/hex; the
	 * unquoted, unescaped text for strings.
	 */
	char *value;
	char type;		/* 'b'ool, 't'ristate, 'i'nt, 'h'ex, 's'tring */
};

struct st_kc_fix {
	char *sym;		/* without CONFIG_ */
	char *val;		/* "y", "m", a number, "\"quoted\"", or "n" for
				 * "# CONFIG_sym is not set" */
	char *line_text;	/* the whole defconfig line to write */
	/*
	 * Where the line goes. @replace_line != 0: the file already assigns
	 * @sym on that line (e.g. "# CONFIG_EXPERT is not set"); replace it.
	 * Otherwise insert after line @after_line (0: before the first
	 * assignment), which is the line of the assignment that precedes @sym
	 * in Kconfig menu order, as savedefconfig would order them.
	 */
	int replace_line;
	int after_line;
	/*
	 * ST_KC_FIX_SET writes @line_text; ST_KC_FIX_DROP deletes line
	 * @replace_line (a line that never took effect, whose value the
	 * board keeps without it); ST_KC_FIX_KEEP changes nothing and only
	 * says why line @replace_line now takes effect.
	 */
	enum st_kc_fix_op { ST_KC_FIX_SET, ST_KC_FIX_DROP, ST_KC_FIX_KEEP } op;
	long order;		/* position of @sym in Kconfig menu order */
	char *reason;		/* "enables CONFIG_SLUB_TINY=y (line 12)" */
};

struct st_kc_result {
	struct st_kc_finding *findings;	/* in line order */
	size_t nr_findings;
	struct st_kc_sym *config;	/* what .config would hold (also "is
					 * not set" entries as "n") */
	size_t nr_config;
	/*
	 * fix_deps only: the lines to add so that the requested options take
	 * effect, in Kconfig menu order (where savedefconfig puts them).
	 */
	struct st_kc_fix *fixes;
	size_t nr_fixes;
	int iterations;			/* fix_deps: resolve rounds used */
	/*
	 * fix_deps: the fixes not written, one line each with the reason
	 * (a test-only or platform symbol, a line that would stop taking
	 * effect).
	 */
	char **refused;
	size_t nr_refused;
	struct st_kc_sym **by_name;	/* internal: config sorted by name */
};


/*
 * Start a helper for @opts and load the tree (parsing the kernel's Kconfig
 * takes ~1.5 s; every later call reuses it). On success *kc is a handle to
 * pass to st_kconfig_close(). Errors: -ENOENT (no interpreter, no
 * Kconfiglib, no Kconfig in the tree, no bundled model for @target), -EIO
 * (helper died or spoke garbage), -EINVAL (unknown arch), ... with @err
 * filled.
 */
int st_kconfig_open(const struct st_kc_opts *opts, struct st_kconfig **kc,
		    struct st_error *err);

/* What was loaded, for messages: "linux 6.12.0 tree /usr/src/x (ARCH=sh)"
 * or "bundled slab model for linux 6.12 (kconfig/models/6.12)". Owned by kc. */
const char *st_kconfig_describe(const struct st_kconfig *kc);

/* The kernel version of the tree or model ("6.12.57"). Owned by kc. */
const char *st_kconfig_version(const struct st_kconfig *kc);

/*
 * Resolve @assigns (@n of them, in file order) like @mode and find every
 * assignment that did not take effect. The last assignment of a symbol is
 * the one that counts (as in conf); earlier ones are not reported here.
 * With @want_config, also fill res->config. *res is allocated; free it with
 * st_kc_result_free(). Findings are not errors: returns 0 when resolved.
 */
int st_kconfig_verify(struct st_kconfig *kc, const struct st_kc_assign *assigns,
		      size_t n, enum st_kc_mode mode, bool want_config,
		      struct st_kc_result **res, struct st_error *err);

/*
 * Like st_kconfig_verify(), then compute the assignments to add (or the
 * lines to change) so that the requested options (those marked fix_target,
 * or all) take effect, re-resolving until nothing more can be fixed. Only
 * needed lines are kept; COMPILE_TEST and platform symbols (ARCH_*, SoC and
 * SMP choices) are never set; when the fixes would make a line that took
 * effect stop taking effect, none is given. res->fixes lists them,
 * res->refused says what was not fixed and why; res->findings are what
 * remains ineffective with the fixes applied.
 */
int st_kconfig_fix_deps(struct st_kconfig *kc, const struct st_kc_assign *assigns,
			size_t n, enum st_kc_mode mode, bool want_config,
			struct st_kc_result **res, struct st_error *err);

/*
 * The lines that keep every option whose resolved value differs between
 * @base (the file before a migration) and @assigns (after it) at its value
 * in @base, where one line can: a visible option with a prompt that no
 * select forces, and not named by @assigns (the file's own lines). In menu
 * order, only lines that take effect and that savedefconfig would keep (a
 * pinned menu hides its children: they get none). res->fixes are the pins
 * (placed like st_kconfig_fix_deps()'s), res->refused says why none were
 * given when they would switch off a line of the file.
 */
int st_kconfig_pin(struct st_kconfig *kc, const struct st_kc_assign *assigns, size_t n,
		   const struct st_kc_assign *base, size_t nr_base, enum st_kc_mode mode,
		   struct st_kc_result **res, struct st_error *err);

/* The value of @sym (without CONFIG_) in res->config, or NULL. */
const char *st_kc_result_value(const struct st_kc_result *res, const char *sym);

void st_kc_result_free(struct st_kc_result *res);

/* Stop the helper and free @kc (NULL is fine). */
void st_kconfig_close(struct st_kconfig *kc);

/* "ineffective", "unknown"; "depends", "select", ... (static strings). */
const char *st_kc_kind_name(enum st_kc_kind kind);
const char *st_kc_cause_name(enum st_kc_cause cause);

#endif
