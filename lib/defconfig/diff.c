// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unified diff of a model against the model it was edited from. The edits
 * never reorder lines, so no LCS is needed: a line that kept its lineno and
 * was not modified is the old line with that number; everything between two
 * such anchors is a change. The output follows git's layout (3 lines of
 * context, hunks closer than 2 * 3 lines merged, the "function" heading of
 * git's default driver) so that it can be compared with `git diff`.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defconfig/defconfig.h"

#define CONTEXT		3
#define HEADING_MAX	80	/* git's func_line buffer */

enum op_type { OP_EQ, OP_DEL, OP_ADD };

struct op {
	enum op_type t;
	size_t o, n;	/* old index (EQ, DEL), new index (EQ, ADD) */
};

struct sbuf {
	char *p;
	size_t len, cap;
	int err;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	char *p;

	if (b->err)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->err = -ENOMEM;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static bool same_line(const struct st_dc_line *a, const struct st_dc_line *b)
{
	return a->len == b->len && !memcmp(a->text, b->text, a->len) &&
	       !strcmp(a->eol, b->eol);
}

/* The old line @nl stands for, or -1 when it is new or changed. */
static long anchor(const struct st_defconfig *old, const struct st_dc_line *nl)
{
	size_t o;

	if (!nl->lineno || nl->lineno > (int)old->nr_lines)
		return -1;
	o = nl->lineno - 1;
	if (nl->modified && !same_line(&old->lines[o], nl))
		return -1;
	return (long)o;
}

/* Edit script: between anchors, all deletions first, then all additions. */
static struct op *edit_script(const struct st_defconfig *old,
			      const struct st_defconfig *new, size_t *nr)
{
	struct op *ops = malloc((old->nr_lines + new->nr_lines + 1) * sizeof(*ops));
	size_t i = 0, j = 0, k = 0, jj;
	long a = 0;	/* set by the loop or after it; gcc cannot see that */

	if (!ops)
		return NULL;
	while (i < old->nr_lines || j < new->nr_lines) {
		/* Next anchor at or after j that is not behind i. */
		for (jj = j; jj < new->nr_lines; jj++) {
			a = anchor(old, &new->lines[jj]);
			if (a >= (long)i)
				break;
		}
		if (jj == new->nr_lines)
			a = old->nr_lines;
		for (; i < (size_t)a; i++)
			ops[k++] = (struct op){ OP_DEL, i, 0 };
		for (; j < jj; j++)
			ops[k++] = (struct op){ OP_ADD, 0, j };
		if (jj < new->nr_lines)
			ops[k++] = (struct op){ OP_EQ, i++, j++ };
	}
	*nr = k;
	return ops;
}

static void emit_line(struct sbuf *b, char mark, const struct st_dc_line *l)
{
	sb_add(b, &mark, 1);
	sb_add(b, l->text, l->len);
	if (!strcmp(l->eol, "\n") || !strcmp(l->eol, "\r\n")) {
		sb_str(b, l->eol);
		return;
	}
	sb_str(b, l->eol);	/* a lone "\r" stays part of the line */
	sb_str(b, "\n\\ No newline at end of file\n");
}

/* git's default funcname: the last line before @o starting [A-Za-z_$]. */
static void heading(struct sbuf *b, const struct st_defconfig *old, size_t o)
{
	const struct st_dc_line *l;
	size_t n;

	while (o-- > 0) {
		l = &old->lines[o];
		if (!l->len || !(isalpha((unsigned char)l->text[0]) ||
				 l->text[0] == '_' || l->text[0] == '$'))
			continue;
		n = l->len > HEADING_MAX ? HEADING_MAX : l->len;
		while (n && isspace((unsigned char)l->text[n - 1]))
			n--;
		sb_str(b, " ");
		sb_add(b, l->text, n);
		return;
	}
}

static void range(struct sbuf *b, char sign, size_t start, size_t count)
{
	char tmp[64];

	/* 1-based start; an empty range names the line before it. */
	if (count == 1)
		snprintf(tmp, sizeof(tmp), "%c%zu", sign, start + 1);
	else
		snprintf(tmp, sizeof(tmp), "%c%zu,%zu", sign, count ? start + 1 : start, count);
	sb_str(b, tmp);
}

/* Emit ops[from..to) as one hunk. */
static void hunk(struct sbuf *b, const struct st_defconfig *old,
		 const struct st_defconfig *new, const struct op *ops,
		 size_t from, size_t to, size_t ostart, size_t nstart)
{
	size_t i, oc = 0, nc = 0;

	for (i = from; i < to; i++) {
		oc += ops[i].t != OP_ADD;
		nc += ops[i].t != OP_DEL;
	}
	sb_str(b, "@@ ");
	range(b, '-', ostart, oc);
	sb_str(b, " ");
	range(b, '+', nstart, nc);
	sb_str(b, " @@");
	heading(b, old, ostart);
	sb_str(b, "\n");
	for (i = from; i < to; i++) {
		if (ops[i].t == OP_EQ)
			emit_line(b, ' ', &old->lines[ops[i].o]);
		else if (ops[i].t == OP_DEL)
			emit_line(b, '-', &old->lines[ops[i].o]);
		else
			emit_line(b, '+', &new->lines[ops[i].n]);
	}
}

/* Positions of ops[k] in the old and new file (before the op). */
static void position(const struct op *ops, size_t k, size_t *o, size_t *n)
{
	size_t i;

	*o = *n = 0;
	for (i = 0; i < k; i++) {
		*o += ops[i].t != OP_ADD;
		*n += ops[i].t != OP_DEL;
	}
}

static void hunks(struct sbuf *b, const struct st_defconfig *old,
		  const struct st_defconfig *new, const struct op *ops, size_t nr)
{
	size_t k = 0, first, last, end, start, o, n;

	while (k < nr) {
		while (k < nr && ops[k].t == OP_EQ)
			k++;
		if (k == nr)
			return;
		first = k;
		/* Extend while the next change is within 2 * CONTEXT lines. */
		for (last = k;;) {
			while (last + 1 < nr && ops[last + 1].t != OP_EQ)
				last++;
			for (end = last + 1; end < nr && ops[end].t == OP_EQ; end++)
				if (end - last > 2 * CONTEXT)
					break;
			if (end == nr || ops[end].t == OP_EQ)
				break;
			last = end;
		}
		start = first > CONTEXT ? first - CONTEXT : 0;
		end = last + 1 + CONTEXT < nr ? last + 1 + CONTEXT : nr;
		position(ops, start, &o, &n);
		hunk(b, old, new, ops, start, end, o, n);
		k = end;
	}
}

int st_defconfig_diff(const struct st_defconfig *old, const struct st_defconfig *new,
		      const char *path, char **out, size_t *out_len)
{
	struct sbuf b = { 0 };
	struct op *ops;
	size_t nr, i;
	bool changed = false;

	ops = edit_script(old, new, &nr);
	if (!ops)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		changed |= ops[i].t != OP_EQ;
	sb_str(&b, "");
	if (changed) {
		/* an absolute path keeps its '/' (a patch for -p0, not -p1) */
		bool abs = path[0] == '/';

		sb_str(&b, abs ? "diff --git " : "diff --git a/");
		sb_str(&b, path);
		sb_str(&b, abs ? " " : " b/");
		sb_str(&b, path);
		sb_str(&b, abs ? "\n--- " : "\n--- a/");
		sb_str(&b, path);
		sb_str(&b, abs ? "\n+++ " : "\n+++ b/");
		sb_str(&b, path);
		sb_str(&b, "\n");
		hunks(&b, old, new, ops, nr);
	}
	free(ops);
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*out = b.p;
	*out_len = b.len;
	return 0;
}
