// SPDX-License-Identifier: GPL-2.0-only
/*
 * With --srctree: resolve each file with lib/kconfig (one Kconfiglib helper
 * per arch, shared by all files of that arch) and turn what did not take
 * effect into findings. The tree is the authority: the tree-less guesses
 * about SLUB_TINY's dependencies are kept only where the tree confirms
 * them, and then carry the tree's cause.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "defconfig/defconfig.h"
#include "kconfig/kconfig.h"
#include "layout/discover.h"
#include "layout/layout.h"
#include "migrate/migrate.h"

struct tree_arch {
	char *arch;			/* "" for the host's */
	char target[16];		/* the model's kernel, "" for a tree's or the newest */
	struct st_kconfig *kc;		/* NULL: the tree lacks the arch */
	char *bad;			/* then why, for each of its files */
};

struct st_check_tree {
	char *srctree;			/* NULL: the bundled model */
	char *skipped;			/* model mode: why it was not used */
	char *arch;			/* forced by --arch, or NULL */
	const char *cross_compile;	/* CROSS_COMPILE, or NULL; not owned */
	struct tree_arch *a;
	size_t nr;
};

int st_check_tree_new(struct st_check_tree **t, const char *srctree, const char *arch, const char *cross_compile, struct st_error *err)
{
	struct st_check_tree *n = calloc(1, sizeof(*n));

	if (!n)
		return st_err(err, ENOMEM, srctree, "out of memory");
	n->cross_compile = cross_compile;
	/* the helper runs elsewhere: hand it an absolute path */
	n->srctree = srctree ? realpath(srctree, NULL) : NULL;
	if (srctree && !n->srctree) {
		free(n);
		return st_err(err, errno, srctree, "%s", strerror(errno));
	}
	n->arch = arch ? strdup(arch) : NULL;
	if (arch && !n->arch) {
		st_check_tree_free(n);
		return st_err(err, ENOMEM, srctree, "out of memory");
	}
	*t = n;
	return 0;
}

void st_check_tree_free(struct st_check_tree *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++) {
		st_kconfig_close(t->a[i].kc);
		free(t->a[i].arch);
		free(t->a[i].bad);
	}
	free(t->a);
	free(t->srctree);
	free(t->skipped);
	free(t->arch);
	free(t);
}

const char *st_check_tree_skipped(const struct st_check_tree *t)
{
	return t ? t->skipped : NULL;
}

/*
 * The helper for @arch ("" = host), started on first use. An arch the tree
 * lacks is remembered: *kc NULL and *bad the message, for every file of it.
 */
static int tree_kc(struct st_check_tree *t, const char *arch, const char *target,
		   struct st_kconfig **kc, const char **bad, struct st_error *err)
{
	struct st_kc_opts ko = {
		.srctree = t->srctree, .target = target, .cross_compile = t->cross_compile,
	};
	struct tree_arch *na;
	size_t i;
	int ret;

	for (i = 0; i < t->nr; i++) {
		if (!strcmp(t->a[i].arch, arch) && !strcmp(t->a[i].target, target ? target : "")) {
			*kc = t->a[i].kc;
			*bad = t->a[i].bad;
			return 0;
		}
	}
	na = realloc(t->a, (t->nr + 1) * sizeof(*na));
	if (!na)
		return st_err(err, ENOMEM, NULL, "out of memory");
	t->a = na;
	na += t->nr;
	memset(na, 0, sizeof(*na));
	ko.arch = arch[0] ? arch : NULL;
	ret = st_kconfig_open(&ko, kc, err);
	/*
	 * The model only adds to what the rules find: without it (no
	 * Kconfiglib, say) the rules' verdicts stand, and the run says once
	 * what was left out.
	 */
	if (ret && ret != -ENOMEM && !t->srctree) {
		if (!t->skipped)
			t->skipped = strdup(err->msg);
		st_error_clear(err);
		*kc = NULL;
		ret = 0;
	} else if (ret == -EINVAL) {
		/* -EINVAL: the helper found no arch/ARCH/Kconfig in the tree */
		na->bad = strdup(err->msg);
		st_error_clear(err);
		*kc = NULL;
		ret = na->bad ? 0 : -ENOMEM;
	}
	if (ret)
		return ret;
	snprintf(na->target, sizeof(na->target), "%s", target ? target : "");
	na->arch = strdup(arch);
	if (!na->arch) {
		st_kconfig_close(*kc);
		free(na->bad);
		return st_err(err, ENOMEM, NULL, "out of memory");
	}
	na->kc = *kc;
	*bad = na->bad;
	t->nr++;
	return 0;
}

static bool is_tiny_config(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strcmp(base ? base + 1 : path, "tiny.config");
}

static bool is_guess(const struct st_check_finding *f)
{
	return f->rule == ST_RULE_REMOVED_ALLOCATOR || f->rule == ST_RULE_REMOVED_OPTION ||
	       f->rule == ST_RULE_SLUB_TINY_DEPS || f->rule == ST_RULE_SLUB_TINY_DISABLES;
}

/*
 * Index of this file's finding of a tree-less rule on @line for @sym, or
 * -1. Those rules find a few lines a file (the last line of a few slab
 * symbols), listed in @guess: a scan of every finding per tree finding is
 * quadratic in a file with a finding a line.
 */
static long find_guess(const struct st_check_result *r, const size_t *guess, size_t n,
		       int line, const char *sym)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct st_check_finding *f = &r->f[guess[i]];

		if (f->line == line && f->sym && !strcmp(f->sym, sym))
			return guess[i];
	}
	return -1;
}

/*
 * "message (root cause)": the chain's last cause before its fix, without
 * what the message already says ("X, which is n: ") or the fix the hint
 * gives ("; add CONFIG_X=y"). The whole chain goes to the finding's chain.
 */
static char *tree_message(const struct st_kc_finding *k)
{
	const char *p, *nl, *s = NULL, *e = NULL, *c;
	char *msg, fix[160];
	size_t l;

	for (p = k->detail; p && *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		if (p == nl || !strncmp(p, "fix:", 4))
			continue;
		s = p;
		e = nl;
	}
	while (e && e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (!s || e == s)
		return strdup(k->message);
	/* "EXPERT, which is n: why": the message has said the first part. */
	c = memchr(s, ':', e - s);
	if (c && c + 2 < e && c[1] == ' ' && strstr(k->message, "which is") &&
	    memmem(k->message, strlen(k->message), s, c - s))
		s = c + 2;
	if (k->fix) {
		snprintf(fix, sizeof(fix), "; add %s", k->fix);
		l = strlen(fix);
		if ((size_t)(e - s) > l && !memcmp(e - l, fix, l))
			e -= l;
	}
	if (memmem(k->message, strlen(k->message), s, e - s))
		return strdup(k->message);
	if (asprintf(&msg, "%s (%.*s)", k->message, (int)(e - s), s) < 0)
		return NULL;
	return msg;
}

/* Keep @detail's non-blank lines as @f's chain. */
static int set_chain(struct st_check_finding *f, const char *detail)
{
	free(f->chain);
	f->chain = NULL;
	if (!detail || !detail[0])
		return 0;
	f->chain = strdup(detail);
	return f->chain ? 0 : -ENOMEM;
}

static bool tiny_ineffective(const struct st_kc_result *res)
{
	size_t i;

	for (i = 0; i < res->nr_findings; i++)
		if (!strcmp(res->findings[i].sym, "SLUB_TINY"))
			return true;
	return false;
}

static void drop(struct st_check_result *r, size_t i)
{
	struct st_check_finding *f = &r->f[i];

	st_check_finding_free(f);
	memmove(f, f + 1, (r->nr - i - 1) * sizeof(*f));
	r->nr--;
}

/*
 * Merge the tree's findings @res into this file's findings from @start on.
 * @confirmed marks which of them the tree confirmed.
 */
static int merge(const struct st_check_tree *t, struct st_check_result *r, size_t start,
		 const char *path, const struct st_kc_result *res,
		 const struct st_check_opts *o, bool *confirmed)
{
	size_t i, n = 0, *guess = malloc((r->nr - start + 1) * sizeof(*guess));
	int ret = 0;

	if (!guess)
		return -ENOMEM;
	/* findings added below are the tree's own: no guess among them */
	for (i = start; i < r->nr; i++)
		if (is_guess(&r->f[i]))
			guess[n++] = i;
	for (i = 0; i < res->nr_findings && !ret; i++) {
		const struct st_kc_finding *k = &res->findings[i];
		enum st_rule rule = k->kind == ST_KC_UNKNOWN ?
				    ST_RULE_UNKNOWN_SYMBOL : ST_RULE_INEFFECTIVE;
		long g = find_guess(r, guess, n, k->line, k->sym);
		char hint[256], *msg = tree_message(k);

		if (!msg) {
			ret = -ENOMEM;
			break;
		}
		if (!t->srctree && st_check_rules_own(k->sym, o)) {
			/* the model on a rule's own symbol: the rule's verdict stands */
			if (g >= 0)
				confirmed[g - start] = true;
		} else if (g >= 0 && !t->srctree) {
			/* the model's word on a rule's line: the rule's stands */
			confirmed[g - start] = true;
		} else if (g >= 0) {
			/* the specific rule stays; the tree adds the cause */
			confirmed[g - start] = true;
			if (r->f[g].rule != ST_RULE_REMOVED_ALLOCATOR &&
			    r->f[g].rule != ST_RULE_REMOVED_OPTION) {
				free(r->f[g].msg);
				r->f[g].msg = msg;
				msg = NULL;
				ret = set_chain(&r->f[g], k->detail);
			}
		} else if (o->enabled[rule]) {
			if (k->fix)
				snprintf(hint, sizeof(hint), "add %s", k->fix);
			else if (rule == ST_RULE_UNKNOWN_SYMBOL)
				snprintf(hint, sizeof(hint),
					 "delete the line or use the symbol's current name");
			else
				hint[0] = '\0';
			ret = st_check_add(r, rule, path, k->line, 1, k->sym,
					   hint[0] ? hint : NULL, "%s", msg);
			if (!ret)
				ret = set_chain(&r->f[r->nr - 1], k->detail);
		}
		free(msg);
	}
	free(guess);
	return ret;
}

/* Names in the one-line summary of unknown symbols; the chain has all. */
#define UNKNOWN_NAMES 5

/* The line text at the head of a helper's "TEXT: unknown symbol ..." */
static int unknown_text_len(const struct st_check_finding *f)
{
	const char *e = strstr(f->msg, ": unknown symbol");

	return e ? (int)(e - f->msg) : (int)strlen(f->msg);
}

int st_check_tree_summarize(struct st_check_result *r, size_t start)
{
	struct st_check_finding *f;
	char *names = NULL, *chain = NULL, *msg = NULL;
	size_t i, n = 0, k = 0, first = 0, nl, cl;
	FILE *mn, *mc;
	int ret = -ENOMEM;

	for (i = start; i < r->nr; i++)
		if (r->f[i].rule == ST_RULE_UNKNOWN_SYMBOL && !n++)
			first = i;
	if (n < 2)
		return 0;
	mn = open_memstream(&names, &nl);
	mc = open_memstream(&chain, &cl);
	if (!mn || !mc)
		goto out;
	for (i = start; i < r->nr; i++) {
		f = &r->f[i];
		if (f->rule != ST_RULE_UNKNOWN_SYMBOL)
			continue;
		if (k < UNKNOWN_NAMES)
			fprintf(mn, "%s%s", k ? ", " : "", f->sym ? f->sym : "?");
		fprintf(mc, "%snot in this tree, line %d: %.*s", k ? "\n" : "",
			f->line, unknown_text_len(f), f->msg);
		k++;
	}
	if (n > UNKNOWN_NAMES)
		fputs(", ...", mn);
out:
	if (mn && fclose(mn))
		names = NULL;
	if (mc && fclose(mc))
		chain = NULL;
	if (!names || !chain || asprintf(&msg, "%zu symbols unknown to this tree: %s "
					 "(a patched tree? see doc/check.md)", n, names) < 0)
		goto fail;
	f = &r->f[first];
	free(f->msg);
	free(f->sym);
	free(f->chain);
	free(f->hint);
	f->msg = msg;
	f->sym = NULL;
	f->chain = chain;
	chain = NULL;
	f->hint = strdup("pass the kernel tree with the build system's patches applied as "
			 "--srctree, or delete the lines (-v lists them)");
	/* one pass: a drop each would move the rest once per unknown symbol */
	for (i = k = first + 1; i < r->nr; i++) {
		if (r->f[i].rule == ST_RULE_UNKNOWN_SYMBOL) {
			free(r->f[i].file);
			free(r->f[i].sym);
			free(r->f[i].msg);
			free(r->f[i].hint);
			free(r->f[i].chain);
			continue;
		}
		r->f[k++] = r->f[i];
	}
	r->nr = k;
	ret = f->hint ? 0 : -ENOMEM;
fail:
	free(names);
	free(chain);
	return ret;
}

/*
 * Findings on the lines of @l's base are the base's: they stay with it
 * (counted as pre-existing), never the owned file's.
 */
static int base_text(const struct st_layout_base *b, char **s)
{
	char *t;

	if (!*s || !b->n)
		return 0;
	t = st_layout_base_text(b, *s);
	if (!t)
		return -ENOMEM;
	free(*s);
	*s = t;
	return 0;
}

static int drop_base_findings(struct st_kc_result *res, const struct st_layout_base *b,
			      struct st_check_result *r)
{
	size_t i, k;
	int line, ret = 0;

	for (i = 0, k = 0; i < res->nr_findings; i++) {
		struct st_kc_finding *f = &res->findings[i];

		if (st_layout_line_part(f->line, &line) < 0) {
			/* the base's lines by their own file and number */
			if (!ret)
				ret = base_text(b, &f->message);
			if (!ret)
				ret = base_text(b, &f->detail);
			res->findings[k++] = *f;
			continue;
		}
		r->nr_in_base++;
		free(f->sym);
		free(f->requested);
		free(f->actual);
		free(f->message);
		free(f->detail);
		free(f->fix);
	}
	res->nr_findings = k;
	return ret;
}

/*
 * The model for the kernel @o judges (--target, or the build system's for
 * this file), NULL for the newest; NULL with a tree, which is one kernel.
 */
static const char *model_target(const struct st_check_tree *t,
				const struct st_check_opts *o, char *buf, size_t len)
{
	if (t->srctree || !o->judge_major)
		return NULL;
	snprintf(buf, len, "%d.%d", o->judge_major, o->judge_minor);
	return buf;
}

int st_check_tree_verify(struct st_check_tree *t, struct st_check_result *r,
			 size_t start, const struct st_defconfig *dc,
			 const char *path, const struct st_layout *l,
			 const struct st_check_opts *o, struct st_error *err)
{
	struct st_layout_base base = { 0 };
	struct st_kc_assign *as, *all = NULL;
	struct st_kc_result *res = NULL;
	struct st_kconfig *kc;
	const char *bad = NULL;
	bool *confirmed = NULL;
	size_t i, n = 0, nr_before = r->nr, in_base;
	char tv[16];
	int ret;

	/* the tree is for the ARCH check's run decided for this file (NULL: the host's) */
	ret = tree_kc(t, t->arch ? t->arch : "", model_target(t, o, tv, sizeof(tv)),
		      &kc, &bad, err);
	/* no model: the rules' findings stand alone */
	if (!ret && !kc && !bad)
		return 0;
	if (!ret && l && !bad)
		ret = st_layout_base_load(l, t->srctree, t->arch, &base, err);
	if (ret)
		return ret;
	/* not checked at all: an error for this file alone, no findings */
	if (bad) {
		while (r->nr > start)
			drop(r, r->nr - 1);
		if (st_check_add_error(r, path, bad))
			return st_err(err, ENOMEM, path, "out of memory");
		return 0;
	}
	as = calloc(dc->nr_lines + 1, sizeof(*as));
	confirmed = calloc(nr_before - start + 1, sizeof(*confirmed));
	if (!as || !confirmed) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *dl = &dc->lines[i];

		if (dl->kind != ST_DC_ASSIGN && dl->kind != ST_DC_NOT_SET)
			continue;
		as[n].sym = dl->sym;
		as[n].val = dl->kind == ST_DC_ASSIGN ? dl->val : NULL;
		as[n++].line = dl->lineno;
	}
	if (base.n && !(all = st_layout_assigns(&base, as, n, &n))) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	ret = st_kconfig_verify(kc, all ? all : as, n, is_tiny_config(path) ?
				ST_KC_TINYCONFIG : ST_KC_DEFCONFIG, false, &res, err);
	if (ret)
		goto out;
	in_base = r->nr_in_base;
	if (drop_base_findings(res, &base, r)) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	ret = merge(t, r, start, path, res, o, confirmed);
	if (ret) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	/*
	 * The model adds what only it sees; the rules judged the rest, and
	 * the base's findings were counted by them.
	 */
	if (!t->srctree) {
		r->nr_in_base = in_base;
		goto suppress;
	}
	/*
	 * Guesses the tree did not confirm are wrong for this tree, and so is
	 * the hardening notice when SLUB_TINY did not take effect.
	 */
	for (i = nr_before; i-- > start; ) {
		enum st_rule rule = r->f[i].rule;

		if (confirmed[i - start])
			continue;
		if (rule == ST_RULE_SLUB_TINY_DEPS || rule == ST_RULE_SLUB_TINY_DISABLES ||
		    (rule == ST_RULE_HARDENING_NOTICE && tiny_ineffective(res)))
			drop(r, i);
	}
suppress:
	st_check_apply_suppressions(r, start, dc);
out:
	st_kc_result_free(res);
	st_layout_base_release(&base);
	free(confirmed);
	free(all);
	free(as);
	return ret;
}
