// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rule table that moves defconfigs off SLOB and SLAB.
 *
 * History the rules encode (mm/Kconfig):
 *   6.2  SLOB renamed SLOB_DEPRECATED (SLOB stays as a prompt-less internal
 *        symbol), SLUB_TINY added (depends on SLUB && EXPERT). Upstream moved
 *        every CONFIG_SLOB=y to CONFIG_SLUB=y + CONFIG_SLUB_TINY=y at the same
 *        place, and in tiny.config rewrote "# CONFIG_SLUB is not set" to
 *        "# CONFIG_SLOB_DEPRECATED is not set".
 *   6.4  SLOB and SLOB_DEPRECATED removed.
 *   6.5  SLAB renamed SLAB_DEPRECATED (SLAB stays, internal).
 *   6.8  SLAB, SLAB_DEPRECATED and DEBUG_SLAB removed; SLUB is def_bool y,
 *        so from here on the rules write no CONFIG_SLUB=y (savedefconfig form).
 *   7.0  Per-CPU sheaves for every cache replace CPU partial slabs:
 *        SLUB_CPU_PARTIAL removed, with no transitional name (7b7d4ac53ee5).
 *   7.2  RANDOM_KMALLOC_CACHES became KMALLOC_PARTITION_CACHES (a mode
 *        choice, RANDOM or TYPED); the old name is a `transitional` symbol
 *        that sets the new one's default and is never written back.
 *
 * A rule applies from the first target kernel on which its line would be
 * silently ignored, so `--target 6.2` leaves CONFIG_SLAB=y alone (it still
 * works there) and reproduces the upstream 6.2 patch exactly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/vec.h"
#include "defconfig/defconfig.h"
#include "migrate/migrate.h"

#define FAM_SLOB	0x1
#define FAM_SLAB	0x2

/* The symbols whose last line a rewrite asks for (ctx->last[], by index). */
static const char *const last_syms[] = {
	"SLOB_DEPRECATED", "SLAB_DEPRECATED", "EXPERT", "KMALLOC_PARTITION_CACHES",
};

struct st_mig_ctx {
	const struct st_defconfig *in;
	struct st_defconfig *out;
	struct st_kver target;
	unsigned int families;	/* allocators this file is moved off */
	bool have_slub, have_tiny; /* the output already has them =y */
	long winner;		/* the allocator choice's last =y line, or -1 */
	char note[200];		/* what the current rewrite did */
	/*
	 * The input's last line of each symbol a rewrite asks about, found in
	 * one pass: a search of the file per rewritten line is quadratic.
	 */
	long last[ARRAY_SIZE(last_syms)];
	/*
	 * Ends of line of the whole file as the rewrite stands (the output so
	 * far and the input's lines still to come): an inserted line takes
	 * the usual one, as st_defconfig_insert() does, without a scan each.
	 */
	size_t lf, crlf;
	const char *eol;	/* the usual one, for the current rewrite */
};

static const struct st_dc_line *in_line(const struct st_mig_ctx *ctx, size_t idx)
{
	return &ctx->in->lines[idx];
}

static bool is_assign(const struct st_dc_line *l, const char *sym, const char *val)
{
	return l->kind == ST_DC_ASSIGN && !strcmp(l->sym, sym) && !strcmp(l->val, val);
}

/* "# CONFIG_X is not set" or "CONFIG_X=n". */
static bool is_off(const struct st_dc_line *l, const char *sym)
{
	return (l->kind == ST_DC_NOT_SET && !strcmp(l->sym, sym)) ||
	       is_assign(l, sym, "n");
}

/* st_defconfig_find() on the input, from the table for the usual symbols. */
static long in_find(const struct st_mig_ctx *ctx, const char *sym)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(last_syms); i++)
		if (!strcmp(sym, last_syms[i]))
			return ctx->last[i];
	return st_defconfig_find(ctx->in, sym);
}

static bool in_has(const struct st_mig_ctx *ctx, const char *sym)
{
	return in_find(ctx, sym) >= 0;
}

/* The members of the allocator choice over the versions the rules know. */
static bool choice_member(const struct st_dc_line *l)
{
	static const char *const members[] = {
		"SLAB", "SLUB", "SLOB", "SLOB_DEPRECATED", "SLAB_DEPRECATED", NULL,
	};
	const char *const *m;

	if (l->kind != ST_DC_ASSIGN || strcmp(l->val, "y"))
		return false;
	for (m = members; *m; m++)
		if (!strcmp(l->sym, *m))
			return true;
	return false;
}

/*
 * A member of the allocator choice set to y before another one: conf takes
 * the last assignment, so this line never took effect.
 */
static bool match_overridden(const struct st_mig_ctx *ctx, size_t idx)
{
	return ctx->winner >= 0 && (long)idx != ctx->winner &&
	       choice_member(in_line(ctx, idx)) &&
	       strcmp(in_line(ctx, idx)->sym, "SLUB");
}

static bool match_slob(const struct st_mig_ctx *ctx, size_t idx)
{
	return is_assign(in_line(ctx, idx), "SLOB", "y");
}

static bool match_slob_deprecated(const struct st_mig_ctx *ctx, size_t idx)
{
	return is_assign(in_line(ctx, idx), "SLOB_DEPRECATED", "y");
}

static bool match_slab(const struct st_mig_ctx *ctx, size_t idx)
{
	return is_assign(in_line(ctx, idx), "SLAB", "y");
}

static bool match_slab_deprecated(const struct st_mig_ctx *ctx, size_t idx)
{
	return is_assign(in_line(ctx, idx), "SLAB_DEPRECATED", "y");
}

static bool match_slub_off(const struct st_mig_ctx *ctx, size_t idx)
{
	return ctx->families && is_off(in_line(ctx, idx), "SLUB");
}

static bool match_tiny_off(const struct st_mig_ctx *ctx, size_t idx)
{
	return (ctx->families & FAM_SLOB) && is_off(in_line(ctx, idx), "SLUB_TINY");
}

/*
 * "CONFIG_SLOB=y  # 8 MB board": the blanks and comment after a bool value
 * (conf ignores them), or NULL. A rewrite keeps them: they are the user's.
 */
static const char *tail_comment(const struct st_dc_line *l)
{
	const char *eq, *t;
	size_t vlen;

	if (l->kind != ST_DC_ASSIGN || !(eq = strchr(l->text, '=')))
		return NULL;
	vlen = strlen(l->val);
	if (strncmp(eq + 1, l->val, vlen))
		return NULL;
	for (t = eq + 1 + vlen; *t == ' ' || *t == '\t'; t++)
		;
	return *t == '#' && t > eq + 1 + vlen ? eq + 1 + vlen : NULL;
}

/*
 * Replace line @at of the output (line @idx of the input) by @n lines (none:
 * delete it), skipping NULL entries; the input line's trailing comment goes
 * on the first of them, or stays as a comment line. Returns how many lines
 * it became.
 */
static int put_lines(struct st_mig_ctx *ctx, size_t idx, size_t at, const char *const *text,
		     int n)
{
	const char *tail = tail_comment(in_line(ctx, idx)), *t;
	char *buf = NULL;
	int i, done = 0, ret = 0;

	for (i = 0; i < n; i++) {
		if (!text[i])
			continue;
		t = text[i];
		if (!done && tail) {
			buf = malloc(strlen(t) + strlen(tail) + 1);
			if (!buf)
				return -ENOMEM;
			t = strcat(strcpy(buf, t), tail);
		}
		if (!done)
			ret = st_defconfig_replace(ctx->out, at, t);
		else
			ret = st_defconfig_insert_eol(ctx->out, at + done, t, ctx->eol);
		if (ret)
			goto out;
		done++;
	}
	if (!done && tail) {
		ret = st_defconfig_replace(ctx->out, at, tail + strspn(tail, " \t"));
		done = ret ? 0 : 1;
	} else if (!done) {
		ret = st_defconfig_delete(ctx->out, at);
	}
out:
	free(buf);
	return ret ? ret : done;
}

static void note_lines(struct st_mig_ctx *ctx, const char *const *text, int n)
{
	size_t len = strlen(ctx->note);
	int i, first = 1;

	for (i = 0; i < n; i++) {
		if (!text[i])
			continue;
		len += snprintf(ctx->note + len, sizeof(ctx->note) - len, "%s%s",
				first ? " -> " : " + ", text[i]);
		if (len >= sizeof(ctx->note))
			return;
		first = 0;
	}
	if (first)
		snprintf(ctx->note + len, sizeof(ctx->note) - len, " removed");
}

/* The old allocator line becomes SLUB (+ SLUB_TINY), skipping what exists. */
static int to_slub(struct st_mig_ctx *ctx, size_t idx, size_t at, bool tiny)
{
	const char *text[2] = { NULL, NULL };

	/*
	 * From 6.8 SLUB is def_bool y without a prompt: savedefconfig drops
	 * CONFIG_SLUB=y, and upstream simply deleted CONFIG_SLAB=y.
	 */
	if (!ctx->have_slub && !st_slab_since(ctx->target, ST_SLAB_SLUB, ST_SLAB_FORCED))
		text[0] = ST_DC_PREFIX "SLUB=y";
	if (tiny && !ctx->have_tiny)
		text[1] = ST_DC_PREFIX "SLUB_TINY=y";
	ctx->have_slub = true;
	ctx->have_tiny |= tiny;
	snprintf(ctx->note, sizeof(ctx->note), "%s%s=y", ST_DC_PREFIX, in_line(ctx, idx)->sym);
	note_lines(ctx, text, 2);
	return put_lines(ctx, idx, at, text, 2);
}

static int rewrite_slob(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	return to_slub(ctx, idx, at, true);
}

static int rewrite_slab(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	return to_slub(ctx, idx, at, false);
}

/*
 * The allocator choice member that the file moved off, if @target still has
 * it in the choice: upstream lists it as "is not set" where the file used to
 * say "# CONFIG_SLUB is not set" (tiny.config in 6.2).
 */
static const char *old_choice_member(const struct st_mig_ctx *ctx)
{
	const struct st_slab_sym *slob = &st_slab_syms[ST_SLAB_SLOB_DEPRECATED];
	const struct st_slab_sym *slab = &st_slab_syms[ST_SLAB_SLAB_DEPRECATED];

	if ((ctx->families & FAM_SLOB) && st_slab_sym_exists(slob, ctx->target))
		return slob->name;
	if ((ctx->families & FAM_SLAB) && st_slab_sym_exists(slab, ctx->target))
		return slab->name;
	return NULL;
}

static int rewrite_slub_off(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	const char *member = old_choice_member(ctx);
	char buf[128];
	const char *text[1] = { NULL };

	if (member && !in_has(ctx, member)) {
		snprintf(buf, sizeof(buf), "# %s%s is not set", ST_DC_PREFIX, member);
		text[0] = buf;
	}
	snprintf(ctx->note, sizeof(ctx->note), "%.120s", in_line(ctx, idx)->text);
	note_lines(ctx, text, 1);
	return put_lines(ctx, idx, at, text, 1);
}

static int rewrite_overridden(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	const char *text[1] = { NULL };

	snprintf(ctx->note, sizeof(ctx->note), "%.120s", in_line(ctx, idx)->text);
	note_lines(ctx, text, 1);
	snprintf(ctx->note + strlen(ctx->note), sizeof(ctx->note) - strlen(ctx->note),
		 ": overridden by %s%s=y on line %d (the last choice assignment wins)",
		 ST_DC_PREFIX, in_line(ctx, ctx->winner)->sym,
		 in_line(ctx, ctx->winner)->lineno);
	return put_lines(ctx, idx, at, text, 1);
}

static int rewrite_tiny_off(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	const char *text[1] = { NULL };

	snprintf(ctx->note, sizeof(ctx->note), "%.120s", in_line(ctx, idx)->text);
	note_lines(ctx, text, 1);
	return put_lines(ctx, idx, at, text, 1);
}

/*
 * "# CONFIG_SLAB_MERGE_DEFAULT is not set" in a file moved to SLUB_TINY:
 * SLUB_TINY selects SLAB_MERGE_DEFAULT, so the line would stop taking
 * effect (and kept, it makes --fix-deps refuse CONFIG_EXPERT=y).
 */
static bool match_merge_off(const struct st_mig_ctx *ctx, size_t idx)
{
	return (ctx->families & FAM_SLOB) && is_off(in_line(ctx, idx), "SLAB_MERGE_DEFAULT");
}

static int rewrite_merge_off(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	const char *text[1] = { NULL };

	snprintf(ctx->note, sizeof(ctx->note), "%.120s", in_line(ctx, idx)->text);
	note_lines(ctx, text, 1);
	snprintf(ctx->note + strlen(ctx->note), sizeof(ctx->note) - strlen(ctx->note),
		 ": SLUB_TINY selects SLAB_MERGE_DEFAULT");
	return put_lines(ctx, idx, at, text, 1);
}

/*
 * CONFIG_EMBEDDED=y selected EXPERT; the symbol is gone (6.6). In a file
 * moved off SLOB: SLUB_TINY needs EXPERT, and the board had it.
 */
static bool match_embedded(const struct st_mig_ctx *ctx, size_t idx)
{
	return (ctx->families & FAM_SLOB) && is_assign(in_line(ctx, idx), "EMBEDDED", "y");
}

static int rewrite_embedded(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	long e = in_find(ctx, "EXPERT");
	const char *text[1] = { ST_DC_PREFIX "EXPERT=y" };

	/* a later line of the file decides EXPERT itself */
	if (e >= 0 && (size_t)e > idx)
		text[0] = NULL;
	snprintf(ctx->note, sizeof(ctx->note), "%.120s", in_line(ctx, idx)->text);
	note_lines(ctx, text, 1);
	return put_lines(ctx, idx, at, text, 1);
}

/*
 * "# CONFIG_SLUB_CPU_PARTIAL is not set" as much as "=y": from 7.0 Kconfig
 * has no such symbol, so neither line does anything.
 */
static bool match_cpu_partial(const struct st_mig_ctx *ctx, size_t idx)
{
	const struct st_dc_line *l = in_line(ctx, idx);

	return (l->kind == ST_DC_ASSIGN || l->kind == ST_DC_NOT_SET) &&
	       !strcmp(l->sym, "SLUB_CPU_PARTIAL");
}

static int rewrite_cpu_partial(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	struct st_kver gone = st_slab_syms[ST_SLAB_SLUB_CPU_PARTIAL].removed;
	const char *text[1] = { NULL };

	snprintf(ctx->note, sizeof(ctx->note), "%.120s", in_line(ctx, idx)->text);
	note_lines(ctx, text, 1);
	snprintf(ctx->note + strlen(ctx->note), sizeof(ctx->note) - strlen(ctx->note),
		 ": Linux %d.%d removed SLUB_CPU_PARTIAL (per-CPU sheaves replaced CPU partial slabs)",
		 gone.major, gone.minor);
	return put_lines(ctx, idx, at, text, 1);
}

static bool match_random_kmalloc(const struct st_mig_ctx *ctx, size_t idx)
{
	const struct st_dc_line *l = in_line(ctx, idx);

	return (l->kind == ST_DC_ASSIGN || l->kind == ST_DC_NOT_SET) &&
	       !strcmp(l->sym, "RANDOM_KMALLOC_CACHES");
}

/*
 * The transitional name becomes the new one, same value; it goes where
 * the new one cannot take it: the file sets KMALLOC_PARTITION_CACHES
 * itself, or SLUB_TINY, which the new symbol depends on the absence of.
 */
static int rewrite_random_kmalloc(struct st_mig_ctx *ctx, size_t idx, size_t at)
{
	const struct st_dc_line *l = in_line(ctx, idx);
	bool on = l->kind == ST_DC_ASSIGN && strcmp(l->val, "n");
	bool tiny = on && (ctx->have_tiny || (ctx->families & FAM_SLOB));
	long other = in_find(ctx, "KMALLOC_PARTITION_CACHES");
	struct st_kver v = st_slab_syms[ST_SLAB_RANDOM_KMALLOC_CACHES].renamed;
	const char *text[1] = { NULL };
	char buf[128];
	size_t len;

	if (other < 0 && !tiny) {
		if (on)
			snprintf(buf, sizeof(buf), "%sKMALLOC_PARTITION_CACHES=%s",
				 ST_DC_PREFIX, l->val);
		else
			snprintf(buf, sizeof(buf), "# %sKMALLOC_PARTITION_CACHES is not set",
				 ST_DC_PREFIX);
		text[0] = buf;
	}
	snprintf(ctx->note, sizeof(ctx->note), "%.120s", l->text);
	note_lines(ctx, text, 1);
	len = strlen(ctx->note);
	if (other >= 0)
		snprintf(ctx->note + len, sizeof(ctx->note) - len,
			 ": line %d sets KMALLOC_PARTITION_CACHES, which Linux %d.%d reads it as",
			 in_line(ctx, other)->lineno, v.major, v.minor);
	else if (tiny)
		snprintf(ctx->note + len, sizeof(ctx->note) - len,
			 ": Linux %d.%d reads it as KMALLOC_PARTITION_CACHES, which depends on !SLUB_TINY",
			 v.major, v.minor);
	return put_lines(ctx, idx, at, text, 1);
}

const struct st_mig_rule st_mig_rules[] = {
	{ "slab-choice-overridden", { ST_SLAB_SLUB_TINY, ST_SLAB_ADDED },
	  "the allocator is a choice and conf takes the last member set to y: an "
	  "earlier CONFIG_SLOB=y or CONFIG_SLAB=y never took effect, and migrating it "
	  "would change the allocator the file builds",
	  match_overridden, rewrite_overridden },
	{ "slob-to-slub-tiny", { ST_SLAB_SLOB_DEPRECATED, ST_SLAB_ADDED },
	  "SLOB was renamed SLOB_DEPRECATED in 6.2 and removed in 6.4, so CONFIG_SLOB=y "
	  "silently gives plain SLUB; SLUB with SLUB_TINY is its replacement for small "
	  "systems (upstream 6.2 did this to every defconfig)",
	  match_slob, rewrite_slob },
	{ "slob-deprecated-to-slub-tiny", { ST_SLAB_SLOB_DEPRECATED, ST_SLAB_REMOVED },
	  "SLOB_DEPRECATED was removed in 6.4; SLUB with SLUB_TINY replaces it",
	  match_slob_deprecated, rewrite_slob },
	{ "slab-to-slub", { ST_SLAB_SLAB_DEPRECATED, ST_SLAB_ADDED },
	  "SLAB was renamed SLAB_DEPRECATED in 6.5 and removed in 6.8, so CONFIG_SLAB=y "
	  "silently gives SLUB; say so",
	  match_slab, rewrite_slab },
	{ "slab-deprecated-to-slub", { ST_SLAB_SLAB_DEPRECATED, ST_SLAB_REMOVED },
	  "SLAB_DEPRECATED was removed in 6.8; SLUB is the only allocator",
	  match_slab_deprecated, rewrite_slab },
	{ "slub-not-set", { ST_SLAB_SLUB_TINY, ST_SLAB_ADDED },
	  "'# CONFIG_SLUB is not set' contradicts the migrated allocator; it becomes "
	  "'is not set' of the old allocator where the target still offers it in the "
	  "choice (upstream tiny.config, 6.2), and is removed otherwise",
	  match_slub_off, rewrite_slub_off },
	{ "slub-tiny-not-set", { ST_SLAB_SLUB_TINY, ST_SLAB_ADDED },
	  "'# CONFIG_SLUB_TINY is not set' contradicts the SLUB_TINY=y the SLOB "
	  "migration adds",
	  match_tiny_off, rewrite_tiny_off },
	{ "slab-merge-default-not-set", { ST_SLAB_SLUB_TINY, ST_SLAB_ADDED },
	  "SLUB_TINY selects SLAB_MERGE_DEFAULT: '# CONFIG_SLAB_MERGE_DEFAULT is not set' "
	  "in a file moved off SLOB stops taking effect, so it goes",
	  match_merge_off, rewrite_merge_off },
	{ "embedded-to-expert", { ST_SLAB_EMBEDDED, ST_SLAB_REMOVED },
	  "EMBEDDED selected EXPERT until it was removed in 6.6; without EXPERT every "
	  "'is not set' line of an EXPERT-only option stops taking effect",
	  match_embedded, rewrite_embedded },
	{ "slub-cpu-partial-removed", { ST_SLAB_SLUB_CPU_PARTIAL, ST_SLAB_REMOVED },
	  "SLUB_CPU_PARTIAL was removed in 7.0, when per-CPU sheaves replaced CPU "
	  "partial slabs, with no transitional name: Kconfig ignores the line, so it goes",
	  match_cpu_partial, rewrite_cpu_partial },
	{ "random-kmalloc-to-partition", { ST_SLAB_RANDOM_KMALLOC_CACHES, ST_SLAB_RENAMED },
	  "RANDOM_KMALLOC_CACHES became KMALLOC_PARTITION_CACHES in 7.2; the old name "
	  "is only read (transitional) and savedefconfig never writes it, so the line "
	  "takes the new name, or goes where the new symbol cannot be set",
	  match_random_kmalloc, rewrite_random_kmalloc },
	{ NULL },
};

/* Allocator rules (the first four) decide the families of the file. */
static unsigned int rule_family(const struct st_mig_rule *r)
{
	if (r->rewrite == rewrite_slob)
		return FAM_SLOB;
	if (r->rewrite == rewrite_slab)
		return FAM_SLAB;
	return 0;
}

static bool applies(const struct st_mig_rule *r, struct st_kver target)
{
	return st_slab_since(target, r->from.sym, r->from.ev);
}

/* Count @l's end of line into ctx's totals (@sign +1) or out of them (-1). */
static void count_eol(struct st_mig_ctx *ctx, const struct st_dc_line *l, int sign)
{
	if (!strcmp(l->eol, "\n"))
		ctx->lf += sign;
	else if (!strcmp(l->eol, "\r\n"))
		ctx->crlf += sign;
}

static void scan_input(struct st_mig_ctx *ctx)
{
	const struct st_mig_rule *r;
	size_t i, k;

	ctx->winner = -1;
	for (k = 0; k < ARRAY_SIZE(last_syms); k++)
		ctx->last[k] = -1;
	for (i = 0; i < ctx->in->nr_lines; i++) {
		const struct st_dc_line *l = in_line(ctx, i);

		if (choice_member(l))
			ctx->winner = i;
		count_eol(ctx, l, 1);
		for (k = 0; l->sym && k < ARRAY_SIZE(last_syms); k++)
			if (!strcmp(l->sym, last_syms[k]))
				ctx->last[k] = i;
	}
	for (i = 0; i < ctx->in->nr_lines; i++) {
		const struct st_dc_line *l = in_line(ctx, i);

		ctx->have_tiny |= is_assign(l, "SLUB_TINY", "y");
		ctx->have_slub |= is_assign(l, "SLUB", "y");
		/* only the allocator conf picks decides the migration */
		if (ctx->winner >= 0 && (long)i != ctx->winner && choice_member(l))
			continue;
		for (r = st_mig_rules; r->id; r++)
			if (rule_family(r) && applies(r, ctx->target) && r->match(ctx, i))
				ctx->families |= rule_family(r);
	}
}

struct st_mig_change *st_migration_new_change(struct st_migration *m)
{
	struct st_mig_change *c;

	/* a file can have tens of thousands of changes */
	if (st_vec_grow(&m->changes, &m->changes_cap, m->nr_changes + 1, sizeof(*c)))
		return NULL;
	c = &m->changes[m->nr_changes++];
	memset(c, 0, sizeof(*c));
	c->msg = c->text = "";
	return c;
}

/*
 * @s in @m's pool, or @prev (the same field of the previous finding or
 * change) when it is the same text: a file with a finding a line repeats
 * most of them (symbol, kind, cause, often the message).
 */
static const char *keep_str(struct st_migration *m, const char *prev, const char *s)
{
	if (!s || !*s)
		return "";
	if (prev && !strcmp(prev, s))
		return prev;
	return st_strpool_dup(&m->strs, s);
}

static int add_change(struct st_migration *m, const struct st_mig_rule *r, int line,
		      const char *note)
{
	struct st_mig_change *c;

	c = st_migration_new_change(m);
	if (!c)
		return -ENOMEM;
	c->rule = r->id;
	c->line = line;
	c->msg = keep_str(m, m->nr_changes > 1 ? m->changes[m->nr_changes - 2].msg : NULL,
			  note);
	return c->msg ? 0 : -ENOMEM;
}

int st_migration_add_finding(struct st_migration *m, const struct st_mig_finding *f)
{
	const struct st_mig_finding *prev;
	struct st_mig_finding *x;
	size_t n = m->nr_findings;

	if (st_vec_grow(&m->findings, &m->findings_cap, m->nr_findings + 1, sizeof(*f)))
		return -ENOMEM;
	prev = n ? &m->findings[n - 1] : NULL;	/* the array may have moved */
	x = &m->findings[n];
	*x = *f;
	x->symbol = keep_str(m, prev ? prev->symbol : NULL, f->symbol);
	x->kind = keep_str(m, prev ? prev->kind : NULL, f->kind);
	x->requested = keep_str(m, prev ? prev->requested : NULL, f->requested);
	x->actual = keep_str(m, prev ? prev->actual : NULL, f->actual);
	x->cause = keep_str(m, prev ? prev->cause : NULL, f->cause);
	/* a baseline is compared by its keys, never shown */
	x->message = m->keys_only ? "" : keep_str(m, prev ? prev->message : NULL, f->message);
	x->detail = m->keys_only ? "" : keep_str(m, prev ? prev->detail : NULL, f->detail);
	if (!x->symbol || !x->kind || !x->requested || !x->actual || !x->cause ||
	    !x->message || !x->detail)
		return -ENOMEM;
	m->nr_findings++;
	return 0;
}

/*
 * The rewrite of input line @i, which is the output's last line (@at):
 * the ends of line it changes (its own and its neighbour's, see
 * st_defconfig_delete()) are taken out of ctx's count, and put back after.
 */
static int rewrite_one(struct st_mig_ctx *ctx, const struct st_mig_rule *r, size_t i,
		       size_t at)
{
	struct st_defconfig *out = ctx->out;
	size_t j, from = at ? at - 1 : 0;
	int n;

	ctx->eol = ctx->crlf > ctx->lf ? "\r\n" : "\n";
	for (j = from; j < out->nr_lines; j++)
		count_eol(ctx, &out->lines[j], -1);
	n = r->rewrite(ctx, i, at);
	for (j = from; n >= 0 && j < out->nr_lines; j++)
		count_eol(ctx, &out->lines[j], 1);
	return n;
}

/*
 * Apply the first applicable rule to each input line, in order. The output
 * is built from the front: each input line is appended, and a rule rewrites
 * it where it stands, at the end, so no edit moves the lines after it.
 */
static int rewrite_all(struct st_mig_ctx *ctx, struct st_migration *m)
{
	const struct st_mig_rule *r;
	size_t i;
	int n, ret;

	for (i = 0; i < ctx->in->nr_lines; i++) {
		ret = st_defconfig_append(ctx->out, in_line(ctx, i));
		if (ret)
			return ret;
		for (r = st_mig_rules; r->id; r++)
			if (applies(r, ctx->target) && r->match(ctx, i))
				break;
		if (!r->id)
			continue;
		ctx->note[0] = '\0';
		n = rewrite_one(ctx, r, i, ctx->out->nr_lines - 1);
		if (n < 0)
			return n;
		ret = add_change(m, r, in_line(ctx, i)->lineno, ctx->note);
		if (ret)
			return ret;
	}
	return 0;
}

static void finding_for(struct st_mig_finding *f, const struct st_dc_line *l, int line)
{
	memset(f, 0, sizeof(*f));
	f->line = line;
	f->symbol = l->sym;
	f->requested = l->val;
}

/* Slab symbols of the migrated file that @target does not know or ignores. */
static int slab_findings(const struct st_defconfig *dc, struct st_kver target,
			 struct st_migration *m)
{
	const struct st_slab_sym *s;
	struct st_mig_finding f;
	char msg[512], detail[64];
	size_t i;
	int ret;

	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (!l->sym)
			continue;
		s = st_slab_sym(l->sym);
		if (!s || !s->why)
			continue;
		finding_for(&f, l, (int)i + 1);
		if (!st_slab_sym_exists(s, target)) {
			f.kind = "unknown";
			f.cause = "unknown";
			snprintf(msg, sizeof(msg),
				 "%s%s: no such symbol in Linux %d.%d (%s); the line has no effect",
				 ST_DC_PREFIX, l->sym, target.major, target.minor, s->why);
		} else if (s->forced_val && st_kver_cmp(target, s->forced) >= 0 &&
			   strcmp(l->val, s->forced_val)) {
			f.kind = "ineffective";
			f.actual = s->forced_val;
			f.cause = "no_prompt";
			snprintf(msg, sizeof(msg),
				 "%s%s=%s has no effect: %s in Linux %d.%d, it is always %s",
				 ST_DC_PREFIX, l->sym, l->val, l->sym, target.major,
				 target.minor, s->forced_val);
		} else {
			continue;
		}
		snprintf(detail, sizeof(detail), "delete line %d", f.line);
		f.message = msg;
		f.detail = detail;
		ret = st_migration_add_finding(m, &f);
		if (ret)
			return ret;
	}
	return 0;
}

/* Parser diagnostics of the migrated file (warnings only: errors stop us). */
static int syntax_findings(const struct st_defconfig *dc, struct st_migration *m)
{
	struct st_mig_finding f;
	char detail[160];
	size_t i;
	int ret;

	for (i = 0; i < dc->nr_diags; i++) {
		const struct st_dc_diag *d = &dc->diags[i];
		const char *kind = "syntax";

		if (d->kind == ST_DC_D_DUPLICATE)
			kind = "duplicate";
		else if (d->kind == ST_DC_D_CONFLICT)
			kind = "conflict";
		memset(&f, 0, sizeof(f));
		f.line = d->line;
		f.symbol = d->sym;
		f.kind = kind;
		f.message = d->msg;
		if (d->other_line) {
			/* a cause is a name, like the Kconfig causes (no_prompt) */
			f.cause = "assigned_again";
			snprintf(detail, sizeof(detail),
				 "also assigned on line %d; the later line wins in Kconfig; "
				 "keep one of lines %d and %d",
				 d->other_line, d->other_line, d->line);
			f.detail = detail;
		}
		ret = st_migration_add_finding(m, &f);
		if (ret)
			return ret;
	}
	return 0;
}

static int cmp_finding(const void *a, const void *b)
{
	const struct st_mig_finding *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->symbol, y->symbol);
}

void st_migration_sort_findings(struct st_migration *m)
{
	if (m->nr_findings)
		qsort(m->findings, m->nr_findings, sizeof(*m->findings), cmp_finding);
}

/* Findings are about the migrated file: parse its bytes afresh. */
static int findings(struct st_migration *m, struct st_kver target)
{
	struct st_defconfig *re;
	char *buf;
	size_t len;
	int ret;

	ret = st_defconfig_render(m->after, &buf, &len);
	if (ret)
		return ret;
	ret = st_defconfig_parse(&re, buf, len, m->after->name, NULL);
	free(buf);
	if (ret)
		return ret;
	ret = syntax_findings(re, m);
	if (!ret)
		ret = slab_findings(re, target, m);
	st_defconfig_free(re);
	st_migration_sort_findings(m);
	return ret;
}

int st_migration_findings_of(const struct st_defconfig *dc, struct st_kver target,
			     struct st_migration *m)
{
	int ret;

	/*
	 * @dc as parsed: its diagnostics are those of its bytes, so no copy
	 * to render and parse again (three times the file's model).
	 */
	memset(m, 0, sizeof(*m));
	m->keys_only = true;
	ret = syntax_findings(dc, m);
	if (!ret)
		ret = slab_findings(dc, target, m);
	if (ret) {
		st_migration_release(m);
		return ret;
	}
	st_migration_sort_findings(m);
	return 0;
}

int st_migration_refind(struct st_migration *m, struct st_kver target)
{
	/* the changes' strings are in the pool too: it stays */
	free(m->findings);
	m->findings = NULL;
	m->nr_findings = m->findings_cap = 0;
	return findings(m, target);
}

size_t st_migration_nr_introduced(const struct st_migration *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nr_findings; i++)
		n += !m->findings[i].pre_existing;
	return n;
}

void st_migration_release(struct st_migration *m)
{
	st_defconfig_free(m->after);
	free(m->changes);
	free(m->findings);
	st_strpool_release(&m->strs);
	memset(m, 0, sizeof(*m));
}

int st_migrate(const struct st_defconfig *before, struct st_kver target,
	       struct st_migration *m)
{
	struct st_mig_ctx ctx = { .in = before, .target = target };
	int ret;

	memset(m, 0, sizeof(*m));
	ret = st_defconfig_dup_empty(&m->after, before);
	if (ret)
		return ret;
	ctx.out = m->after;
	scan_input(&ctx);
	ret = rewrite_all(&ctx, m);
	if (!ret)
		ret = findings(m, target);
	if (ret) {
		st_migration_release(m);
		return ret;
	}
	m->changed = m->nr_changes > 0;
	return 0;
}

/* Collateral changes: a merge of two resolved configurations. */

static int cmp_symval(const void *a, const void *b)
{
	return strcmp((*(const struct st_symval *const *)a)->sym,
		      (*(const struct st_symval *const *)b)->sym);
}

static const struct st_symval **sorted(const struct st_symval *v, size_t n)
{
	const struct st_symval **p = malloc((n + 1) * sizeof(*p));
	size_t i;

	if (!p)
		return NULL;
	for (i = 0; i < n; i++)
		p[i] = &v[i];
	qsort(p, n, sizeof(*p), cmp_symval);
	return p;
}

/* Undefined and n are the same value for a resolved configuration. */
static bool same_val(const char *a, const char *b)
{
	if (!a)
		a = "n";
	if (!b)
		b = "n";
	return !strcmp(a, b);
}

static bool skipped(const char *sym, const char *const *skip)
{
	for (; skip && *skip; skip++)
		if (!strcmp(*skip, sym))
			return true;
	return false;
}

void st_collateral_free(struct st_collateral *c, size_t nr)
{
	size_t i;

	for (i = 0; c && i < nr; i++) {
		free(c[i].sym);
		free(c[i].old);
		free(c[i].new);
	}
	free(c);
}

static int add_collateral(struct st_collateral **out, size_t *nr, const char *sym,
			  const char *old, const char *new)
{
	struct st_collateral *c = realloc(*out, (*nr + 1) * sizeof(*c));

	if (!c)
		return -ENOMEM;
	*out = c;
	c = &c[(*nr)++];
	c->sym = strdup(sym);
	c->old = old ? strdup(old) : NULL;
	c->new = new ? strdup(new) : NULL;
	if (!c->sym || (old && !c->old) || (new && !c->new))
		return -ENOMEM;
	return 0;
}

/*
 * The symbols whose value differs, but those in @skip; @exact: an option
 * not defined differs from one that is n (scripts/diffconfig's "+SYM n").
 */
static int config_diff(const struct st_symval *before, size_t nr_before,
		       const struct st_symval *after, size_t nr_after,
		       const char *const *skip, bool exact,
		       struct st_collateral **out, size_t *nr_out)
{
	const struct st_symval **a = sorted(before, nr_before);
	const struct st_symval **b = sorted(after, nr_after);
	size_t i = 0, j = 0;
	int ret = 0;

	*out = NULL;
	*nr_out = 0;
	if (!a || !b) {
		ret = -ENOMEM;
		goto out;
	}
	while (!ret && (i < nr_before || j < nr_after)) {
		int c = i == nr_before ? 1 : j == nr_after ? -1 : strcmp(a[i]->sym, b[j]->sym);
		const char *sym = c <= 0 ? a[i]->sym : b[j]->sym;
		const char *old = c <= 0 ? a[i]->val : NULL;
		const char *new = c >= 0 ? b[j]->val : NULL;

		i += c <= 0;
		j += c >= 0;
		if ((exact ? !old == !new && (!old || !strcmp(old, new)) : same_val(old, new)) ||
		    skipped(sym, skip))
			continue;
		ret = add_collateral(out, nr_out, sym, old, new);
	}
out:
	if (ret) {
		st_collateral_free(*out, *nr_out);
		*out = NULL;
		*nr_out = 0;
	}
	free(a);
	free(b);
	return ret;
}

int st_migrate_collateral(const struct st_symval *before, size_t nr_before,
			  const struct st_symval *after, size_t nr_after,
			  const char *const *skip,
			  struct st_collateral **out, size_t *nr_out)
{
	return config_diff(before, nr_before, after, nr_after, skip, false, out, nr_out);
}

int st_migrate_config_diff(const struct st_symval *before, size_t nr_before,
			   const struct st_symval *after, size_t nr_after,
			   struct st_collateral **out, size_t *nr_out)
{
	return config_diff(before, nr_before, after, nr_after, NULL, true, out, nr_out);
}

/*
 * The rule id a finding of @kind carries in both doors: check's rule table
 * names them (lib/check/rules.c), migrate's JSON keeps "kind" beside it.
 */
const char *st_mig_kind_rule(const char *kind)
{
	static const char *const map[][2] = {
		{ "ineffective", "ineffective-option" },
		{ "unknown", "unknown-symbol" },
		{ "duplicate", "duplicate-assignment" },
		{ "conflict", "conflicting-assignment" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(kind, map[i][0]))
			return map[i][1];
	return kind;	/* syntax, redundant: the same word */
}

/* Options that depend on !SLUB_TINY (check's slub-tiny-disables, any release). */
static const char *const tiny_disables[] = {
	"SLUB_DEBUG", "SLUB_DEBUG_ON", "SLUB_STATS", "SLUB_CPU_PARTIAL",
	"SLAB_FREELIST_RANDOM", "SLAB_FREELIST_HARDENED", "SLAB_BUCKETS",
	"RANDOM_KMALLOC_CACHES", "KMALLOC_PARTITION_CACHES", "KASAN",
};

/*
 * The finding check reports for the same line: a SLUB_TINY=y that does
 * not take effect is check's slub-tiny-deps, an option SLUB_TINY turns off
 * its slub-tiny-disables, the rest by kind.
 */
const char *st_mig_finding_rule(const struct st_mig_finding *x)
{
	size_t i;

	if (strcmp(x->kind, "ineffective"))
		return st_mig_kind_rule(x->kind);
	if (!strcmp(x->symbol, "SLUB_TINY"))
		return "slub-tiny-deps";
	for (i = 0; i < ARRAY_SIZE(tiny_disables); i++)
		if (!strcmp(x->symbol, tiny_disables[i]) &&
		    (strstr(x->message, "SLUB_TINY") || strstr(x->detail, "SLUB_TINY")))
			return "slub-tiny-disables";
	return st_mig_kind_rule(x->kind);
}
