// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rule table of `slubtiny check`, the finding list, and the rules that
 * need no kernel tree: they read one defconfig model and know the handful
 * of slab symbols whose meaning changed between Linux 6.1 and 7.3.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/array.h"
#include "common/error.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "linux/linux.h"
#include "linux/slab_history.h"
#include "migrate/migrate.h"

const struct st_check_rule st_check_rules[ST_RULE_COUNT] = {
	[ST_RULE_SYNTAX] = {
		"syntax", ST_LEVEL_WARNING, false, false,
		"A line that Kconfig cannot read as an assignment, an 'is not set' comment, a comment or a blank line.",
		"Write it as CONFIG_NAME=value or '# CONFIG_NAME is not set'.",
		/* the parser's errors: the file is not a defconfig at all */
		"binary data or an over-long line",
	},
	[ST_RULE_REMOVED_ALLOCATOR] = {
		"removed-allocator", ST_LEVEL_WARNING, false, true,
		"CONFIG_SLOB (removed in 6.4), CONFIG_SLAB (removed in 6.8) or their *_DEPRECATED names are enabled; current kernels ignore the line and build SLUB.",
		"Run 'slubtiny check --fix' (or 'slubtiny migrate --fix-deps --in-place'): SLOB becomes CONFIG_SLUB_TINY=y, with CONFIG_EXPERT=y added where missing; a SLAB line is deleted (kernels 6.2 to 6.7 also get CONFIG_SLUB=y). The note of each finding says what its file gets.",
	},
	[ST_RULE_SLUB_TINY_DEPS] = {
		"slub-tiny-deps", ST_LEVEL_WARNING, false, true,
		"CONFIG_SLUB_TINY=y without what it depends on (EXPERT, SLUB, not COMPILE_TEST): Kconfig drops it silently and builds plain SLUB.",
		"Add CONFIG_EXPERT=y; 'slubtiny check --fix' (like 'slubtiny migrate --fix-deps') puts it where savedefconfig would.",
	},
	[ST_RULE_SLUB_TINY_DISABLES] = {
		"slub-tiny-disables", ST_LEVEL_WARNING, false, false,
		"An option that depends on !SLUB_TINY is set to y next to CONFIG_SLUB_TINY=y: one of the two lines does not take effect.",
		"Remove the option, or drop CONFIG_SLUB_TINY=y if the option matters more.",
	},
	[ST_RULE_DUPLICATE] = {
		"duplicate-assignment", ST_LEVEL_WARNING, false, false,
		"The same symbol is assigned twice with the same value.",
		"Delete the later line.",
	},
	[ST_RULE_CONFLICT] = {
		"conflicting-assignment", ST_LEVEL_WARNING, false, false,
		"The same symbol is assigned twice with different values; the last one wins.",
		"Keep the line with the value you mean and delete the other.",
	},
	[ST_RULE_UNKNOWN_SYMBOL] = {
		"unknown-symbol", ST_LEVEL_WARNING, true, false,
		"Kconfig has no such symbol: with --srctree any the tree lacks (two or "
		"more in a file are one finding, listing them); without a tree the "
		"slab-related ones the bundled model knows were removed (EMBEDDED).",
		"Delete the line, rename the symbol to its current name, or pass the "
		"build system's patched kernel tree as --srctree.",
	},
	[ST_RULE_INEFFECTIVE] = {
		"ineffective-option", ST_LEVEL_WARNING, true, false,
		"The option does not end up with the value the file sets once Kconfig resolves the file (every option with --srctree; without a tree the slab-related ones of the bundled model, as migrate verifies); the message gives the cause.",
		"Follow the cause: enable the missing dependency, drop the select that forces it, or drop the line.",
	},
	[ST_RULE_HARDENING_NOTICE] = {
		"hardening-notice", ST_LEVEL_NOTE, false, false,
		"CONFIG_SLUB_TINY turns off SLAB_FREELIST_RANDOM and SLAB_FREELIST_HARDENED and selects SLAB_MERGE_DEFAULT, which kernel hardening checkers (kernel-hardening-checker, KSPP) flag.",
		"Expected on a tiny system; turn the notice off with --ignore hardening-notice or in .slubtiny.json.",
	},
	[ST_RULE_BAD_SUPPRESSION] = {
		"bad-suppression", ST_LEVEL_WARNING, false, false,
		"A '# slubtiny: ignore[...]' comment that is malformed or names no known rule, so it suppresses nothing.",
		"Use '# slubtiny: ignore[RULE,...]' with ids from 'slubtiny check --help' / the README.",
	},
	[ST_RULE_SIZE_BUDGET] = {
		"size-budget", ST_LEVEL_WARNING, false, false,
		"A size budget from --budget is exceeded.",
		"Shrink the object or raise the budget in the budget file.",
	},
	[ST_RULE_REMOVED_OPTION] = {
		"removed-option", ST_LEVEL_WARNING, false, true,
		"A slab option that the kernel judged for removed (CONFIG_SLUB_CPU_PARTIAL, 7.0) or renamed (CONFIG_RANDOM_KMALLOC_CACHES, read as KMALLOC_PARTITION_CACHES since 7.2): the line does nothing, or what it does savedefconfig writes under the new name.",
		"Follow the note: delete the line, or give it the new name; 'slubtiny check --fix' (like 'slubtiny migrate') does it.",
	},
};

int st_check_rule_find(const char *id, size_t len)
{
	int i;

	for (i = 0; i < ST_RULE_COUNT; i++)
		if (strlen(st_check_rules[i].id) == len &&
		    !memcmp(st_check_rules[i].id, id, len))
			return i;
	return -1;
}

int st_check_rule_list(bool set[ST_RULE_COUNT], const char *list,
		       struct st_error *err)
{
	const char *p = list, *end;
	int rule;

	while (*p) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (end == p) {
			p = *end ? end + 1 : end;
			continue;
		}
		rule = st_check_rule_find(p, end - p);
		if (rule < 0)
			return st_err(err, EINVAL, NULL, "unknown rule '%.*s'",
				      (int)(end - p), p);
		set[rule] = true;
		p = *end ? end + 1 : end;
	}
	return 0;
}

void st_check_opts_init(struct st_check_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < ST_RULE_COUNT; i++)
		o->enabled[i] = true;
}

void st_check_result_init(struct st_check_result *r)
{
	memset(r, 0, sizeof(*r));
}

void st_check_finding_free(struct st_check_finding *f)
{
	free(f->file);
	free(f->sym);
	free(f->msg);
	free(f->hint);
	free(f->chain);
	free(f->text);
}

void st_check_result_free(struct st_check_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++)
		st_check_finding_free(&r->f[i]);
	free(r->f);
	free(r->model_skipped);
	st_strv_free(r->skipped, r->skipped ? r->nr_skipped : 0);
	st_strv_free(r->skipped_why, r->skipped_why ? r->nr_skipped : 0);
	st_strv_free(r->fixed, r->nr_fixed_msgs);
	cJSON_Delete(r->fixes);
	for (i = 0; i < r->nr_errors; i++) {
		free(r->errors[i].file);
		free(r->errors[i].msg);
	}
	free(r->errors);
	for (i = 0; i < r->nr_archs; i++)
		free(r->archs[i].file);
	free(r->archs);
	for (i = 0; i < r->nr_stacks; i++) {
		free(r->stacks[i].file);
		st_layout_release(&r->stacks[i].l);
	}
	free(r->stacks);
	memset(r, 0, sizeof(*r));
}

int st_check_add_error(struct st_check_result *r, const char *file, const char *msg)
{
	struct st_check_file_error *e;

	e = realloc(r->errors, (r->nr_errors + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	r->errors = e;
	e += r->nr_errors;
	e->file = strdup(file);
	e->msg = strdup(msg);
	if (!e->file || !e->msg) {
		free(e->file);
		free(e->msg);
		return -ENOMEM;
	}
	r->nr_errors++;
	return 0;
}

int st_check_add(struct st_check_result *r, enum st_rule rule, const char *file,
		 int line, int col, const char *sym, const char *hint,
		 const char *fmt, ...)
{
	struct st_check_finding *f;
	va_list ap;
	int n;

	if (r->nr == r->alloc) {
		size_t a = r->alloc ? 2 * r->alloc : 32;

		f = realloc(r->f, a * sizeof(*f));
		if (!f)
			return -ENOMEM;
		r->f = f;
		r->alloc = a;
	}
	f = &r->f[r->nr];
	memset(f, 0, sizeof(*f));
	f->rule = rule;
	f->level = st_check_rules[rule].level;
	f->line = line;
	f->col = line ? (col ? col : 1) : 0;
	f->file = strdup(file ? file : "");
	f->sym = sym ? strdup(sym) : NULL;
	f->hint = hint ? strdup(hint) : NULL;
	va_start(ap, fmt);
	n = vasprintf(&f->msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		f->msg = NULL;
	if (!f->file || !f->msg || (sym && !f->sym) || (hint && !f->hint)) {
		st_check_finding_free(f);
		return -ENOMEM;
	}
	r->nr++;
	return 0;
}

static int cmp_finding(const void *a, const void *b)
{
	const struct st_check_finding *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return (int)x->rule - (int)y->rule;
}

static int cmp_error(const void *a, const void *b)
{
	return strcmp(((const struct st_check_file_error *)a)->file,
		      ((const struct st_check_file_error *)b)->file);
}

void st_check_sort(struct st_check_result *r)
{
	/* Stable enough: equal keys only come from one rule on one line. */
	if (r->nr > 1)
		qsort(r->f, r->nr, sizeof(*r->f), cmp_finding);
	if (r->nr_errors > 1)
		qsort(r->errors, r->nr_errors, sizeof(*r->errors), cmp_error);
}

size_t st_check_nr_failing(const struct st_check_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr; i++)
		if (r->f[i].level >= ST_LEVEL_WARNING)
			n++;
	return n;
}

/*
 * The slab symbols the tree-less rules look at. Only the last assignment
 * of a symbol counts, as in Kconfig.
 */
enum key_sym {
	K_SLOB, K_SLOB_DEPRECATED, K_SLAB, K_SLAB_DEPRECATED,
	K_SLUB, K_SLUB_TINY, K_EXPERT, K_EMBEDDED, K_COMPILE_TEST,
	/* everything from here on depends on !SLUB_TINY (Linux 6.12) */
	K_DISABLED_FIRST,
	K_SLUB_DEBUG = K_DISABLED_FIRST, K_SLUB_DEBUG_ON, K_SLUB_STATS,
	K_SLUB_CPU_PARTIAL, K_SLAB_FREELIST_RANDOM, K_SLAB_FREELIST_HARDENED,
	K_SLAB_BUCKETS, K_RANDOM_KMALLOC_CACHES, K_KMALLOC_PARTITION_CACHES, K_KASAN,
	K_COUNT,
};

static const char *const key_names[K_COUNT] = {
	[K_SLOB] = "SLOB", [K_SLOB_DEPRECATED] = "SLOB_DEPRECATED",
	[K_SLAB] = "SLAB", [K_SLAB_DEPRECATED] = "SLAB_DEPRECATED",
	[K_SLUB] = "SLUB", [K_SLUB_TINY] = "SLUB_TINY", [K_EXPERT] = "EXPERT",
	[K_EMBEDDED] = "EMBEDDED", [K_COMPILE_TEST] = "COMPILE_TEST",
	[K_SLUB_DEBUG] = "SLUB_DEBUG", [K_SLUB_DEBUG_ON] = "SLUB_DEBUG_ON",
	[K_SLUB_STATS] = "SLUB_STATS", [K_SLUB_CPU_PARTIAL] = "SLUB_CPU_PARTIAL",
	[K_SLAB_FREELIST_RANDOM] = "SLAB_FREELIST_RANDOM",
	[K_SLAB_FREELIST_HARDENED] = "SLAB_FREELIST_HARDENED",
	[K_SLAB_BUCKETS] = "SLAB_BUCKETS",
	[K_RANDOM_KMALLOC_CACHES] = "RANDOM_KMALLOC_CACHES",
	[K_KMALLOC_PARTITION_CACHES] = "KMALLOC_PARTITION_CACHES", [K_KASAN] = "KASAN",
};

/* Why each of the !SLUB_TINY options matters, for the message. */
static const char *const disabled_why[K_COUNT] = {
	[K_SLUB_DEBUG] = "SLUB debugging support",
	[K_SLUB_DEBUG_ON] = "SLUB debugging on by default (needs SLUB_DEBUG)",
	[K_SLUB_STATS] = "SLUB statistics",
	[K_SLUB_CPU_PARTIAL] = "per-cpu partial slabs",
	[K_SLAB_FREELIST_RANDOM] = "freelist randomization (hardening)",
	[K_SLAB_FREELIST_HARDENED] = "freelist metadata hardening",
	[K_SLAB_BUCKETS] = "separate kmalloc buckets (hardening, 6.11+)",
	[K_RANDOM_KMALLOC_CACHES] = "randomized kmalloc caches (hardening, 6.6+)",
	[K_KMALLOC_PARTITION_CACHES] = "partitioned kmalloc caches (hardening, 7.2+)",
	[K_KASAN] = "KASAN",
};

/*
 * Kernel @v has key symbol @key of its own (lib/linux's slab history; a
 * symbol it lacks is always there). Outside that the symbol is unknown
 * (or, for the removed and renamed ones, the removed-option rule's).
 */
static bool key_exists(int key, struct st_kver v)
{
	const struct st_slab_sym *s = st_slab_sym(key_names[key]);

	return !s || st_slab_sym_settable(s, v);
}

/* The last line of each key symbol, or NULL. */
struct keys {
	const struct st_dc_line *l[K_COUNT];
};

/* Every key symbol starts with one of these; a cheap first filter. */
static int key_lookup(const char *sym)
{
	int i;

	switch (sym[0]) {
	case 'S': case 'E': case 'C': case 'R': case 'K':
		break;
	default:
		return -1;
	}
	/* two bytes first: most symbols differ there, strcmp() is the cost */
	for (i = 0; i < K_COUNT; i++)
		if (sym[1] == key_names[i][1] && sym[0] == key_names[i][0] &&
		    !strcmp(sym, key_names[i]))
			return i;
	return -1;
}

/* y or m: the line enables the symbol. */
static bool line_enables(const struct st_dc_line *l)
{
	return l && l->kind == ST_DC_ASSIGN && l->val &&
	       (!strcmp(l->val, "y") || !strcmp(l->val, "m"));
}

static bool line_disables(const struct st_dc_line *l)
{
	return l && (l->kind == ST_DC_NOT_SET ||
		     (l->kind == ST_DC_ASSIGN && l->val && !strcmp(l->val, "n")));
}

struct ctx {
	struct st_check_result *r;
	const struct st_defconfig *dc;
	const char *file;
	const struct st_check_opts *o;
	uint32_t *mask;		/* per 1-based line: suppressed rules, or NULL */
	uint32_t file_mask;	/* rules suppressed for the whole file */
	int err;
};

/*
 * The kernel the rules judge the file for: --target or the build system's,
 * else the tree's (--srctree), else the newest slubtiny knows.
 */
static struct st_kver judged(const struct ctx *c)
{
	struct st_kver v = { c->o->judge_major, c->o->judge_minor };

	if (!v.major)
		v = (struct st_kver){ c->o->fix_major, c->o->fix_minor };
	return v.major ? v : st_kver_newest;
}

bool st_check_rules_own(const char *sym, const struct st_check_opts *o)
{
	struct ctx c = { .o = o };
	const struct st_slab_sym *ss;
	int k = key_lookup(sym);

	if (k < 0 || k == K_EXPERT || k == K_EMBEDDED || k == K_COMPILE_TEST)
		return false;
	/*
	 * The old allocators are removed-allocator's once they are gone;
	 * before, a 6.1 CONFIG_SLOB=y without EXPERT is the model's to see.
	 */
	if (k == K_SLOB || k == K_SLOB_DEPRECATED || k == K_SLAB || k == K_SLAB_DEPRECATED) {
		ss = st_slab_sym(sym);
		return ss && ss->removed.major && st_kver_cmp(judged(&c), ss->removed) >= 0;
	}
	return true;
}

static bool suppressed(const struct ctx *c, enum st_rule rule, int line)
{
	uint32_t bit = 1u << rule;

	if (c->file_mask & bit)
		return true;
	return c->mask && line > 0 && (size_t)line <= c->dc->nr_lines &&
	       (c->mask[line] & bit);
}

static void __attribute__((format(printf, 6, 7)))
report(struct ctx *c, enum st_rule rule, const struct st_dc_line *l,
       const char *sym, const char *hint, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	int line = l ? l->lineno : 0;
	int ret;

	if (!c->o->enabled[rule])
		return;
	if (suppressed(c, rule, line)) {
		c->r->nr_suppressed++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ret = st_check_add(c->r, rule, c->file, line, 1, sym, hint, "%s", msg);
	if (ret && !c->err)
		c->err = ret;
}

static uint32_t supp_mask(const struct st_supp *s)
{
	uint32_t m = 0;
	int i;

	for (i = 0; i < ST_RULE_COUNT; i++)
		if (s->rules[i])
			m |= 1u << i;
	return m;
}

struct bad_supp {
	int line;
	char why[96];
};

/*
 * Read the suppression comments: a line comment covers the next line that
 * is neither a comment nor blank, so several comments can stack above one
 * assignment. Malformed ones are collected in *bad for bad-suppression.
 */
static int scan_suppressions(struct ctx *c, struct bad_supp **bad, size_t *nbad)
{
	const struct st_defconfig *dc = c->dc;
	uint32_t pending = 0;
	struct bad_supp *nb;
	struct st_supp s;
	size_t i;

	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (l->kind == ST_DC_BLANK)
			continue;
		if (l->kind != ST_DC_COMMENT) {
			if (pending)
				c->mask[l->lineno] |= pending;
			pending = 0;
			continue;
		}
		if (!memmem(l->text, l->len, "slubtiny", 8))
			continue;
		st_check_parse_suppression(&s, l->text, l->len);
		switch (s.kind) {
		case ST_SUPP_NONE:
			break;
		case ST_SUPP_FILE:
			c->file_mask |= supp_mask(&s);
			break;
		case ST_SUPP_LINE:
			if (!c->mask) {
				c->mask = calloc(dc->nr_lines + 2, sizeof(*c->mask));
				if (!c->mask)
					return -ENOMEM;
			}
			pending |= supp_mask(&s);
			break;
		case ST_SUPP_BAD:
			nb = realloc(*bad, (*nbad + 1) * sizeof(*nb));
			if (!nb)
				return -ENOMEM;
			*bad = nb;
			nb[*nbad].line = l->lineno;
			snprintf(nb[*nbad].why, sizeof(nb[*nbad].why), "%s", s.bad);
			(*nbad)++;
			break;
		}
	}
	return 0;
}

static void report_bad_suppressions(struct ctx *c, const struct bad_supp *bad,
				    size_t nbad)
{
	struct st_dc_line fake = { 0 };
	size_t i;

	for (i = 0; i < nbad; i++) {
		fake.lineno = bad[i].line;
		report(c, ST_RULE_BAD_SUPPRESSION, &fake, NULL,
		       "write '# slubtiny: ignore[RULE,...]' with known rule ids",
		       "suppression comment ignored: %s", bad[i].why);
	}
}

static void check_syntax(struct ctx *c)
{
	const struct st_defconfig *dc = c->dc;
	struct st_dc_line fake = { 0 };
	size_t i, nr;

	for (i = 0; i < dc->nr_diags; i++) {
		const struct st_dc_diag *d = &dc->diags[i];
		enum st_rule rule;
		const char *hint = NULL;

		switch (d->kind) {
		case ST_DC_D_DUPLICATE:
			rule = ST_RULE_DUPLICATE;
			hint = "delete this line";
			break;
		case ST_DC_D_CONFLICT:
			rule = ST_RULE_CONFLICT;
			hint = "keep one of the two lines; Kconfig uses the last";
			break;
		default:
			rule = ST_RULE_SYNTAX;
			hint = "write CONFIG_NAME=value or '# CONFIG_NAME is not set'";
			break;
		}
		fake.lineno = d->line;
		nr = c->r->nr;
		report(c, rule, &fake, d->sym[0] ? d->sym : NULL, hint, "%s", d->msg);
		/* the parser knows which lines make the file unusable */
		if (rule == ST_RULE_SYNTAX && c->r->nr > nr && d->sev == ST_DC_ERROR)
			c->r->f[nr].level = ST_LEVEL_ERROR;
	}
}

/* Append to @buf (of @size, holding @len bytes); returns the new length. */
static size_t __attribute__((format(printf, 4, 5)))
append(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (len >= size)
		return len;
	va_start(ap, fmt);
	len += vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	return len;
}

/*
 * The fix hint of removed-allocator line @l: exactly what --fix writes.
 * That is migrate's rewrite for the tree's kernel or the newest migrate
 * knows (@m), whose notes read "OLD -> NEW + NEW2" or "OLD removed[: why]", and
 * CONFIG_EXPERT=y where SLUB_TINY needs it and the file lacks it.
 */
static void removed_hint(const struct ctx *c, const struct keys *k,
			 const struct st_migration *m, const struct st_dc_line *l,
			 struct st_kver gone, char *hint, size_t size)
{
	struct st_kver tree = { c->o->fix_major, c->o->fix_minor };
	const struct st_mig_change *own = NULL;
	const char *to = NULL, *p;
	bool expert;
	size_t j, len = 0;

	for (j = 0; j < m->nr_changes && !own; j++)
		if (m->changes[j].line == l->lineno)
			own = &m->changes[j];
	if (!own && tree.major && st_kver_cmp(tree, gone) < 0) {
		/* a tree whose kernel still has the allocator: --fix keeps it */
		snprintf(hint, size, "Linux %d.%d (the tree's) still has it, so 'slubtiny check --fix' keeps the line; newer kernels need it migrated",
			 c->o->fix_major, c->o->fix_minor);
		return;
	}
	if (!own) {
		/* no rule rewrites it (=m of a bool): no kernel takes the line */
		snprintf(hint, size, "no kernel takes this value, and 'slubtiny check --fix' leaves the line as it is: delete it");
		return;
	}
	to = strstr(own->msg, " -> ");
	if (to) {
		/* "A + B" reads "A and B" */
		p = strstr(to + 4, " + ");
		len = append(hint, size, len, "replace with %.*s",
			     (int)(p ? (size_t)(p - to - 4) : strlen(to + 4)), to + 4);
		if (p)
			len = append(hint, size, len, " and %s", p + 3);
	} else {
		len = append(hint, size, len, "delete the line");
		if ((p = strstr(own->msg, " removed: ")))
			len = append(hint, size, len, " (%s)", p + strlen(" removed: "));
		else if (!strncmp(l->sym, "SLAB", 4))
			len = append(hint, size, len, " (SLUB needs no line since Linux %d.%d)",
				     st_slab_syms[ST_SLAB_SLUB].forced.major,
				     st_slab_syms[ST_SLAB_SLUB].forced.minor);
		else
			len = append(hint, size, len, " (the file sets CONFIG_SLUB_TINY=y already)");
	}
	/* the lines that go with it: '# CONFIG_SLUB is not set' and the like */
	for (j = 0; j < m->nr_changes; j++) {
		const struct st_mig_change *ch = &m->changes[j];

		if (strcmp(ch->rule, "slub-not-set") && strcmp(ch->rule, "slub-tiny-not-set"))
			continue;
		p = strstr(ch->msg, " removed");
		if (p)
			len = append(hint, size, len, "%s line %d ('%.*s')",
				     to ? ", delete" : " and", ch->line, (int)(p - ch->msg), ch->msg);
		else
			len = append(hint, size, len, ", line %d: %s", ch->line, ch->msg);
	}
	expert = !line_enables(k->l[K_EXPERT]) && !c->o->base_expert &&
		 (line_enables(k->l[K_SLUB_TINY]) || (to && strstr(to, "SLUB_TINY=y")));
	if (expert)
		len = append(hint, size, len, " and add CONFIG_EXPERT=y (SLUB_TINY depends on it)");
	append(hint, size, len, "; 'slubtiny check --fix' does it%s",
	       expert && !c->o->enabled[ST_RULE_SLUB_TINY_DEPS] ?
	       " only with the slub-tiny-deps rule on" : "");
}

static void check_removed(struct ctx *c, const struct keys *k)
{
	/* each line's allocator, gone with the line's symbol */
	static const struct {
		int key;
		const char *alloc;
	} removed[] = {
		{ K_SLOB, "SLOB" },
		{ K_SLOB_DEPRECATED, "SLOB" },
		{ K_SLAB, "SLAB" },
		{ K_SLAB_DEPRECATED, "SLAB" },
	};
	struct st_kver judge = { c->o->judge_major, c->o->judge_minor };
	struct st_kver target = { c->o->fix_major, c->o->fix_minor };
	struct st_migration m = { 0 };
	bool migrated = false;
	char hint[768];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(removed); i++) {
		const struct st_dc_line *l = k->l[removed[i].key];
		struct st_kver gone = st_slab_sym(key_names[removed[i].key])->removed;

		if (!line_enables(l) || !c->o->enabled[ST_RULE_REMOVED_ALLOCATOR])
			continue;
		if (judge.major && st_kver_cmp(judge, gone) < 0)
			continue;	/* that kernel still has it */
		if (!migrated) {
			if (!target.major)
				target = st_kver_newest;
			ret = st_migrate(c->dc, target, &m);
			if (ret) {
				if (!c->err)
					c->err = ret;
				return;
			}
			migrated = true;
		}
		removed_hint(c, k, &m, l, gone, hint, sizeof(hint));
		report(c, ST_RULE_REMOVED_ALLOCATOR, l, key_names[removed[i].key], hint,
		       "CONFIG_%s=%s: %s was removed in Linux %d.%d; newer kernels ignore this line and build SLUB",
		       key_names[removed[i].key], l->val, removed[i].alloc, gone.major,
		       gone.minor);
	}
	if (migrated)
		st_migration_release(&m);
}

/* Is @path a config fragment (*.config), merged on top of other files? */
static bool is_fragment(const char *path)
{
	size_t n = strlen(path);

	return n > 7 && !strcmp(path + n - 7, ".config") && path[n - 8] != '/';
}

static void check_tiny_deps(struct ctx *c, const struct keys *k)
{
	const struct st_dc_line *tiny = k->l[K_SLUB_TINY];
	const struct st_dc_line *l;
	const char *frag;

	frag = is_fragment(c->file) ?
	       " (a fragment: fine only if every file it is merged with sets it)" : "";
	l = k->l[K_EXPERT];
	if (!line_enables(l) && !(c->o->base_expert && !line_disables(l))) {
		char why[160];

		if (line_disables(l))
			snprintf(why, sizeof(why), "line %d disables EXPERT", l->lineno);
		else if (line_enables(k->l[K_EMBEDDED]))
			snprintf(why, sizeof(why),
				 "the file sets only CONFIG_EMBEDDED=y (line %d), which does not select EXPERT in current kernels (6.12)",
				 k->l[K_EMBEDDED]->lineno);
		else
			snprintf(why, sizeof(why), "the file does not set CONFIG_EXPERT=y");
		report(c, ST_RULE_SLUB_TINY_DEPS, tiny, "SLUB_TINY",
		       "add CONFIG_EXPERT=y ('slubtiny check --fix' adds it)",
		       "CONFIG_SLUB_TINY=y has no effect: it depends on EXPERT and %s%s; the kernel builds plain SLUB",
		       why, frag);
	}
	/* 6.13 and 6.14 lack it (lib/linux/slab_history.c says why) */
	l = k->l[K_COMPILE_TEST];
	if (line_enables(l) &&
	    st_slab_dep_holds(&st_slab_syms[ST_SLAB_SLUB_TINY], judged(c)))
		report(c, ST_RULE_SLUB_TINY_DEPS, tiny, "SLUB_TINY",
		       "drop CONFIG_COMPILE_TEST=y from a config meant to run",
		       "CONFIG_SLUB_TINY=y has no effect: it depends on !COMPILE_TEST and line %d sets CONFIG_COMPILE_TEST=y",
		       l->lineno);
	l = k->l[K_SLUB];
	if (line_disables(l))
		report(c, ST_RULE_SLUB_TINY_DEPS, tiny, "SLUB_TINY",
		       "replace the line with CONFIG_SLUB=y",
		       "CONFIG_SLUB_TINY=y needs SLUB, but line %d disables CONFIG_SLUB (before Linux %d.%d this drops SLUB_TINY)",
		       l->lineno, st_slab_syms[ST_SLAB_SLUB].forced.major,
		       st_slab_syms[ST_SLAB_SLUB].forced.minor);
}

static void check_tiny_disables(struct ctx *c, const struct keys *k)
{
	const struct st_dc_line *tiny = k->l[K_SLUB_TINY];
	const struct st_slab_sym *stats = &st_slab_syms[ST_SLAB_SLUB_STATS];
	struct st_kver v = judged(c);
	char hint[160], why[192];
	int i;

	for (i = K_DISABLED_FIRST; i < K_COUNT; i++) {
		const struct st_dc_line *l = k->l[i];

		/* a symbol the kernel lacks is not a SLUB_TINY matter */
		if (!line_enables(l) || !key_exists(i, v))
			continue;
		snprintf(hint, sizeof(hint),
			 "delete this line, or CONFIG_SLUB_TINY=y at line %d", tiny->lineno);
		if (i == K_SLUB_STATS && st_slab_since(v, ST_SLAB_SLUB_STATS, ST_SLAB_CHANGED))
			snprintf(why, sizeof(why), "%s (from %d.%d %s)", disabled_why[i],
				 stats->changed.major, stats->changed.minor, stats->change);
		else
			snprintf(why, sizeof(why), "%s", disabled_why[i]);
		report(c, ST_RULE_SLUB_TINY_DISABLES, l, key_names[i], hint,
		       "CONFIG_%s=%s has no effect next to CONFIG_SLUB_TINY=y (line %d): %s depends on !SLUB_TINY",
		       key_names[i], l->val, tiny->lineno, why);
	}
}

/* The line as the file has it: "CONFIG_X=y" or "# CONFIG_X is not set". */
static const char *shown(const struct st_dc_line *l, char *buf, size_t size)
{
	if (l->kind == ST_DC_NOT_SET || !l->val)
		snprintf(buf, size, "# CONFIG_%s is not set", l->sym);
	else
		snprintf(buf, size, "CONFIG_%s=%s", l->sym, l->val);
	return buf;
}

static void check_cpu_partial(struct ctx *c, const struct st_dc_line *l)
{
	struct st_kver gone = st_slab_syms[ST_SLAB_SLUB_CPU_PARTIAL].removed;
	char text[160];

	report(c, ST_RULE_REMOVED_OPTION, l, "SLUB_CPU_PARTIAL", "delete this line",
	       "%s: SLUB_CPU_PARTIAL was removed in Linux %d.%d, when per-CPU sheaves replaced CPU partial slabs; Kconfig ignores this line",
	       shown(l, text, sizeof(text)), gone.major, gone.minor);
}

/*
 * RANDOM_KMALLOC_CACHES from 7.2: a transitional name, which conf reads as
 * the default of KMALLOC_PARTITION_CACHES (so it loses to a line setting
 * that) and never writes back.
 */
static void check_random_kmalloc(struct ctx *c, const struct keys *k,
				 const struct st_dc_line *l)
{
	const struct st_dc_line *part = k->l[K_KMALLOC_PARTITION_CACHES];
	const struct st_dc_line *tiny = k->l[K_SLUB_TINY];
	struct st_kver v = st_slab_syms[ST_SLAB_RANDOM_KMALLOC_CACHES].renamed;
	char text[160], hint[160];

	shown(l, text, sizeof(text));
	if (part) {
		snprintf(hint, sizeof(hint),
			 "delete this line (line %d sets CONFIG_KMALLOC_PARTITION_CACHES)",
			 part->lineno);
		report(c, ST_RULE_REMOVED_OPTION, l, "RANDOM_KMALLOC_CACHES", hint,
		       "%s: Linux %d.%d reads RANDOM_KMALLOC_CACHES only as the default of KMALLOC_PARTITION_CACHES, which line %d sets; this line does nothing",
		       text, v.major, v.minor, part->lineno);
	} else if (line_enables(l) && line_enables(tiny)) {
		snprintf(hint, sizeof(hint),
			 "delete this line, or CONFIG_SLUB_TINY=y at line %d", tiny->lineno);
		report(c, ST_RULE_REMOVED_OPTION, l, "RANDOM_KMALLOC_CACHES", hint,
		       "%s: Linux %d.%d reads it as KMALLOC_PARTITION_CACHES, which depends on !SLUB_TINY: no effect next to CONFIG_SLUB_TINY=y (line %d)",
		       text, v.major, v.minor, tiny->lineno);
	} else {
		if (line_enables(l))
			snprintf(hint, sizeof(hint),
				 "replace with CONFIG_KMALLOC_PARTITION_CACHES=%s", l->val);
		else
			snprintf(hint, sizeof(hint),
				 "replace with '# CONFIG_KMALLOC_PARTITION_CACHES is not set'");
		report(c, ST_RULE_REMOVED_OPTION, l, "RANDOM_KMALLOC_CACHES", hint,
		       "%s: Linux %d.%d renamed RANDOM_KMALLOC_CACHES to KMALLOC_PARTITION_CACHES; it reads the old name (transitional) but savedefconfig writes only the new one",
		       text, v.major, v.minor);
	}
}

static void check_removed_options(struct ctx *c, const struct keys *k)
{
	struct st_kver v = judged(c);

	if (k->l[K_SLUB_CPU_PARTIAL] && !key_exists(K_SLUB_CPU_PARTIAL, v))
		check_cpu_partial(c, k->l[K_SLUB_CPU_PARTIAL]);
	if (k->l[K_RANDOM_KMALLOC_CACHES] &&
	    st_slab_since(v, ST_SLAB_RANDOM_KMALLOC_CACHES, ST_SLAB_RENAMED))
		check_random_kmalloc(c, k, k->l[K_RANDOM_KMALLOC_CACHES]);
}

static void check_hardening(struct ctx *c, const struct keys *k)
{
	report(c, ST_RULE_HARDENING_NOTICE, k->l[K_SLUB_TINY], "SLUB_TINY",
	       "expected for a tiny system; --ignore hardening-notice turns this off",
	       "CONFIG_SLUB_TINY=y turns off SLAB_FREELIST_RANDOM and SLAB_FREELIST_HARDENED and selects SLAB_MERGE_DEFAULT; kernel hardening checkers (kernel-hardening-checker, KSPP) will flag this config");
}

int st_check_defconfig(struct st_check_result *r, const struct st_defconfig *dc,
		       const char *file, const struct st_check_opts *o)
{
	struct ctx c = { .r = r, .dc = dc, .file = file, .o = o };
	struct bad_supp *bad = NULL;
	struct keys k = { { 0 } };
	size_t i, nbad = 0;
	int key, ret;

	ret = scan_suppressions(&c, &bad, &nbad);
	if (ret)
		goto out;
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (!l->sym)
			continue;
		key = key_lookup(l->sym);
		if (key >= 0)
			k.l[key] = l;
	}
	report_bad_suppressions(&c, bad, nbad);
	check_syntax(&c);
	check_removed(&c, &k);
	check_removed_options(&c, &k);
	if (line_enables(k.l[K_SLUB_TINY])) {
		check_tiny_deps(&c, &k);
		check_tiny_disables(&c, &k);
		check_hardening(&c, &k);
	}
	ret = c.err;
out:
	free(bad);
	free(c.mask);
	r->nr_files++;
	return ret;
}

void st_check_apply_suppressions(struct st_check_result *r, size_t from,
				 const struct st_defconfig *dc)
{
	struct st_check_opts o;
	struct ctx c = { .r = r, .dc = dc, .o = &o };
	struct bad_supp *bad = NULL;
	size_t i, j, nbad = 0;

	st_check_opts_init(&o);
	if (scan_suppressions(&c, &bad, &nbad) == 0) {
		for (i = j = from; i < r->nr; i++) {
			if (suppressed(&c, r->f[i].rule, r->f[i].line)) {
				st_check_finding_free(&r->f[i]);
				r->nr_suppressed++;
				continue;
			}
			r->f[j++] = r->f[i];
		}
		r->nr = j;
	}
	free(bad);
	free(c.mask);
}

/* @file relative to @dir when it is below it (both resolved), else as given. */
static const char *below(const char *dir, const char *file, char *buf, size_t size)
{
	char d[PATH_MAX], f[PATH_MAX];
	size_t l;

	while (file[0] == '.' && file[1] == '/')
		file += 2;
	if (!realpath(dir, d) || !realpath(file, f))
		return file;
	l = strlen(d);
	if (strncmp(f, d, l) || f[l] != '/')
		return file;
	snprintf(buf, size, "%s", f + l + 1);
	return buf;
}

const char *st_check_config_rel(const struct st_check_config *c, const char *file,
				char *buf, size_t size)
{
	char dir[PATH_MAX];
	const char *slash = c->path ? strrchr(c->path, '/') : NULL;

	if (slash == c->path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - c->path) : 1,
			 slash ? c->path : ".");
	return below(dir, file, buf, size);
}

bool st_check_config_arch(const struct st_check_config *c, const char *file,
			  struct st_arch_sources *given, char *why, size_t size)
{
	char rel[PATH_MAX];
	const char *name;
	size_t k;

	if (!c->nr_arches)
		return false;
	name = st_check_config_rel(c, file, rel, sizeof(rel));
	for (k = 0; k < c->nr_arches; k++) {
		if (fnmatch(c->arches[k].glob, name, 0))
			continue;
		snprintf(why, size, "arches: %s", c->arches[k].glob);
		given->s[ST_ARCH_FROM_CONFIG] = (struct st_arch_source){ c->arches[k].arch, why };
		return true;
	}
	return false;
}

void st_check_apply_ignores(struct st_check_result *r, const struct st_check_config *c)
{
	char rel[PATH_MAX];
	const char *name;
	size_t i, j, k;

	if (!c->nr_ignores)
		return;
	for (i = j = 0; i < r->nr; i++) {
		name = st_check_config_rel(c, r->f[i].file, rel, sizeof(rel));
		for (k = 0; k < c->nr_ignores; k++)
			if (c->ignores[k].rules[r->f[i].rule] &&
			    !fnmatch(c->ignores[k].glob, name, 0))
				break;
		if (k < c->nr_ignores) {
			st_check_finding_free(&r->f[i]);
			r->nr_suppressed++;
			continue;
		}
		r->f[j++] = r->f[i];
	}
	r->nr = j;
}
