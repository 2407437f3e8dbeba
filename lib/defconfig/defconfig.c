// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parse a defconfig into a lossless line model, and edit it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fs.h"
#include "defconfig/defconfig.h"

#define PREFIX_LEN	(sizeof(ST_DC_PREFIX) - 1)
#define NOT_SET_TAIL	" is not set"

/*
 * A parsed model lives in one allocation: this header, the line array, the
 * duplicate table, a copy of the file whose line ends are turned into NULs
 * (the lines' text), then sym/val strings. A defconfig has thousands of
 * lines and check loads hundreds of files: one malloc per line and field was
 * most of its run time. Lines replaced or inserted later own malloc'd
 * strings; in_block() tells which to free.
 */
struct dc_block {
	struct st_defconfig dc;		/* first: a model is freed as its block */
	const char *lo, *hi;		/* the arena after the header */
	bool owns;			/* some line may own malloc'd strings */
};

/* Bump allocator over a block's string area (NULL: use malloc). */
struct arena {
	char *cur, *end;
};

/* Duplicate detection: symbol hash and 1-based line index (0: empty). */
struct dup_slot {
	uint32_t hash;
	uint32_t idx;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* [A-Za-z0-9_]: a table, as symbol bytes are the parser's hottest loop */
static const bool symchar[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1,
	['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
	['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1,
	['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1,
	['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1,
	['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1,
	['x'] = 1, ['y'] = 1, ['z'] = 1,
};

static bool is_symchar(char c)
{
	return symchar[(unsigned char)c];
}

bool st_defconfig_valid_sym(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++)
		if (!is_symchar(s[i]))
			return false;
	return true;
}

/* dc is the first member of its block (parse and dup allocate both) */
static struct dc_block *to_block(struct st_defconfig *dc)
{
	return (struct dc_block *)dc;
}

static bool in_block(const struct st_defconfig *dc, const void *p)
{
	const struct dc_block *b = (const struct dc_block *)dc;

	return (uintptr_t)p >= (uintptr_t)b->lo && (uintptr_t)p < (uintptr_t)b->hi;
}

static char *memdup0(const char *s, size_t len)
{
	char *p = malloc(len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* A NUL-terminated copy of @s from @a, or malloc'd without an arena. */
static char *str_new(struct arena *a, const char *s, size_t len)
{
	char *p;

	if (!a)
		return memdup0(s, len);
	if ((size_t)(a->end - a->cur) < len + 1)
		return NULL;	/* cannot happen: the arena is sized for the worst case */
	p = a->cur;
	memcpy(p, s, len);
	p[len] = '\0';
	a->cur += len + 1;
	return p;
}

static struct st_dc_diag * __attribute__((format(printf, 6, 7)))
add_diag(struct st_defconfig *dc, int line, enum st_dc_severity sev,
	 enum st_dc_diag_kind kind, const char *sym, const char *fmt, ...)
{
	struct st_dc_diag *d;
	va_list ap;

	if (!dc)
		return NULL;
	if (dc->nr_diags == dc->alloc_diags) {
		size_t n = dc->alloc_diags ? 2 * dc->alloc_diags : 16;

		d = realloc(dc->diags, n * sizeof(*d));
		if (!d)
			return NULL;	/* diagnostics are best effort under OOM */
		dc->diags = d;
		dc->alloc_diags = n;
	}
	d = &dc->diags[dc->nr_diags++];
	memset(d, 0, sizeof(*d));
	d->line = line;
	d->sev = sev;
	d->kind = kind;
	/* a file can have a diagnostic a line: no fixed arrays, no malloc each */
	d->sym = st_strpool_dup(&dc->diag_strs, sym);
	va_start(ap, fmt);
	d->msg = st_strpool_vprintf(&dc->diag_strs, fmt, ap);
	va_end(ap);
	if (!d->sym)
		d->sym = "";
	if (!d->msg)
		d->msg = "";
	if (sev == ST_DC_ERROR)
		dc->nr_errors++;
	return d;
}

/* Classify a value (trailing blanks already removed). */
static enum st_dc_vtype value_type(const char *v, size_t len)
{
	size_t i;

	if (!len)
		return ST_DC_V_EMPTY;
	if (len == 1 && (v[0] == 'y' || v[0] == 'm' || v[0] == 'n'))
		return ST_DC_V_TRISTATE;
	if (v[0] == '"') {
		for (i = 1; i < len; i++) {
			if (v[i] == '\\' && i + 1 < len)
				i++;
			else if (v[i] == '"')
				return i == len - 1 ? ST_DC_V_STRING : ST_DC_V_OTHER;
		}
		return ST_DC_V_OTHER;
	}
	if (len > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		for (i = 2; i < len; i++)
			if (!strchr("0123456789abcdefABCDEF", v[i]))
				return ST_DC_V_OTHER;
		return ST_DC_V_HEX;
	}
	i = v[0] == '-' ? 1 : 0;
	if (i == len)
		return ST_DC_V_OTHER;
	for (; i < len; i++)
		if (v[i] < '0' || v[i] > '9')
			return ST_DC_V_OTHER;
	return ST_DC_V_INT;
}

static const char *vtype_problem(enum st_dc_vtype t)
{
	switch (t) {
	case ST_DC_V_EMPTY:
		return "'=' without value";
	case ST_DC_V_OTHER:
		return "value is not y, m, n, a quoted string or a number";
	default:
		return NULL;
	}
}

/* "# CONFIG_FOO is not set" (trailing blanks allowed): set sym, return true. */
static int parse_not_set(struct arena *a, struct st_dc_line *l)
{
	const char *t = l->text, *sym, *end;
	size_t n = l->len, tail = strlen(NOT_SET_TAIL);

	while (n && is_blank(t[n - 1]))
		n--;
	if (n < 2 + PREFIX_LEN + 1 + tail || memcmp(t, "# " ST_DC_PREFIX, 2 + PREFIX_LEN))
		return 0;
	if (memcmp(t + n - tail, NOT_SET_TAIL, tail))
		return 0;
	sym = t + 2 + PREFIX_LEN;
	end = t + n - tail;
	if (!st_defconfig_valid_sym(sym, end - sym))
		return 0;
	l->sym = str_new(a, sym, end - sym);
	l->val = str_new(a, "n", 1);
	if (!l->sym || !l->val)
		return -ENOMEM;
	l->kind = ST_DC_NOT_SET;
	return 1;
}

/*
 * The value of CONFIG_FOO=value: in a parsed model it is the tail of the
 * NUL-terminated text unless blanks follow it, so it needs no copy.
 */
static char *value_new(struct arena *a, const char *v, size_t vlen,
		       const struct st_dc_line *l)
{
	if (a && v + vlen == l->text + l->len)
		return (char *)v;
	return str_new(a, v, vlen);
}

/* CONFIG_FOO=value. Diagnoses into @dc (may be NULL) at @lineno. */
static int parse_assign(struct st_defconfig *dc, struct arena *a, int lineno,
			struct st_dc_line *l)
{
	const char *t = l->text, *end = t + l->len, *s, *v;
	size_t vlen;
	const char *why;

	/* the symbol runs to the first '=', which must follow a name */
	for (s = t + PREFIX_LEN; s < end && is_symchar(*s); s++)
		;
	if (s == end || *s != '=') {
		const char *eq = memchr(s, '=', end - s);

		if (!eq) {
			add_diag(dc, lineno, ST_DC_WARNING, ST_DC_D_NOEQ, NULL,
				 "'%s' line without '='", ST_DC_PREFIX);
			return 0;
		}
		s = eq;
		goto badsym;
	}
	if (s == t + PREFIX_LEN)
		goto badsym;
	v = s + 1;
	vlen = end - v;
	while (vlen && is_blank(v[vlen - 1]))
		vlen--;
	/*
	 * "CONFIG_FOO=y # why": conf reads a bool or tristate by its first
	 * character, so this is y and the rest a comment. The text is kept.
	 */
	if (vlen > 2 && strchr("ymn", v[0]) && is_blank(v[1])) {
		size_t i = 1;

		while (i < vlen && is_blank(v[i]))
			i++;
		if (i < vlen && v[i] == '#')
			vlen = 1;
	}
	l->sym = str_new(a, t + PREFIX_LEN, s - t - PREFIX_LEN);
	l->val = value_new(a, v, vlen, l);
	if (!l->sym || !l->val)
		return -ENOMEM;
	l->kind = ST_DC_ASSIGN;
	l->vtype = value_type(v, vlen);
	why = vtype_problem(l->vtype);
	if (why)
		add_diag(dc, lineno, ST_DC_WARNING,
			 l->vtype == ST_DC_V_EMPTY ? ST_DC_D_NOVALUE : ST_DC_D_BADVALUE,
			 l->sym, "%s%s: %s", ST_DC_PREFIX, l->sym, why);
	return 1;
badsym:
	add_diag(dc, lineno, ST_DC_WARNING, ST_DC_D_BADSYM, NULL,
		 "invalid symbol name '%.*s'", (int)(s - t > 100 ? 100 : s - t), t);
	return 0;
}

/*
 * True if no byte of @s is below 0x20 or 0x7f, eight bytes at a time: the
 * usual case, which spares the exact byte-by-byte diagnosis below.
 */
static bool plain_bytes(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, s + i, 8);
		y = x ^ (0x7f * ones);
		/* some byte < 0x20, or some byte == 0x7f */
		if (((x - 0x20 * ones) & ~x & high) | ((y - ones) & ~y & high))
			return false;
	}
	for (; i < n; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

/* Byte-level problems that make a line (and the file) unusable. */
static bool check_bytes(struct st_defconfig *dc, int lineno, const struct st_dc_line *l)
{
	size_t i;

	if (l->len > ST_DC_MAX_LINE) {
		add_diag(dc, lineno, ST_DC_ERROR, ST_DC_D_LONG, NULL,
			 "line longer than %d bytes (%zu)", ST_DC_MAX_LINE, l->len);
		return false;
	}
	if (plain_bytes(l->text, l->len))
		return true;
	if (memchr(l->text, '\0', l->len)) {
		add_diag(dc, lineno, ST_DC_ERROR, ST_DC_D_NUL, NULL,
			 "NUL byte: binary data, not a defconfig");
		return false;
	}
	for (i = 0; i < l->len; i++) {
		unsigned char c = l->text[i];

		if ((c < 0x20 && c != '\t' && c != '\f' && c != '\v') || c == 0x7f) {
			add_diag(dc, lineno, ST_DC_ERROR, ST_DC_D_BINARY, NULL,
				 "control character 0x%02x at column %zu: binary data, not a defconfig",
				 c, i + 1);
			return false;
		}
	}
	return true;
}

/*
 * Set kind/vtype/sym/val of @l from its text, the strings from @a (or
 * malloc'd without it). With @dc, diagnose problems at @lineno. Returns 0
 * or -ENOMEM.
 */
static int classify(struct st_defconfig *dc, struct arena *a, int lineno,
		    struct st_dc_line *l)
{
	size_t i;
	int ret;

	l->kind = ST_DC_OTHER;
	l->vtype = ST_DC_V_NONE;
	if (!check_bytes(dc, lineno, l))
		return 0;
	for (i = 0; i < l->len && is_blank(l->text[i]); i++)
		;
	if (i == l->len) {
		l->kind = ST_DC_BLANK;
		return 0;
	}
	if (l->text[0] == '#') {
		ret = parse_not_set(a, l);
		if (ret < 0)
			return ret;
		if (!ret)
			l->kind = ST_DC_COMMENT;
		return 0;
	}
	if (l->len >= PREFIX_LEN && !memcmp(l->text, ST_DC_PREFIX, PREFIX_LEN)) {
		ret = parse_assign(dc, a, lineno, l);
		return ret < 0 ? ret : 0;
	}
	add_diag(dc, lineno, ST_DC_WARNING, ST_DC_D_UNEXPECTED, NULL,
		 "unexpected line: not an assignment, '# %sFOO is not set' or comment",
		 ST_DC_PREFIX);
	return 0;
}

/* Free what @l owns: strings in the model's block are not its own. */
static void line_release(struct st_defconfig *dc, struct st_dc_line *l)
{
	if (!in_block(dc, l->text))
		free(l->text);
	if (!in_block(dc, l->sym))
		free(l->sym);
	if (!in_block(dc, l->val))
		free(l->val);
	l->text = l->sym = l->val = NULL;
}

void st_defconfig_free(struct st_defconfig *dc)
{
	size_t i;

	if (!dc)
		return;
	/* a model as parsed has nothing of its own in its lines */
	if (to_block(dc)->owns)
		for (i = 0; i < dc->nr_lines; i++)
			line_release(dc, &dc->lines[i]);
	if (!in_block(dc, dc->lines))
		free(dc->lines);
	free(dc->diags);
	st_strpool_release(&dc->diag_strs);
	if (!in_block(dc, dc->name))
		free(dc->name);
	free(dc);	/* the block */
}

/* Make room for one more line at @idx; returns it zeroed, or NULL. */
static struct st_dc_line *open_slot(struct st_defconfig *dc, size_t idx)
{
	struct st_dc_line *l;

	if (dc->nr_lines == dc->alloc_lines) {
		size_t n = dc->alloc_lines ? 2 * dc->alloc_lines : 64;

		/* the parsed line array sits in the block: move it out */
		if (in_block(dc, dc->lines)) {
			l = malloc(n * sizeof(*l));
			if (l && dc->nr_lines)
				memcpy(l, dc->lines, dc->nr_lines * sizeof(*l));
		} else {
			l = realloc(dc->lines, n * sizeof(*l));
		}
		if (!l)
			return NULL;
		dc->lines = l;
		dc->alloc_lines = n;
	}
	memmove(&dc->lines[idx + 1], &dc->lines[idx],
		(dc->nr_lines - idx) * sizeof(*l));
	dc->nr_lines++;
	l = &dc->lines[idx];
	memset(l, 0, sizeof(*l));
	return l;
}

/*
 * Hash of a symbol from its length and its first and last 8 bytes (they
 * overlap or are zero-padded below 16): a per-byte hash cost as much as
 * the rest of the duplicate check. Names alike in the middle only collide.
 */
static uint32_t sym_hash(const char *s)
{
	size_t n = strlen(s);
	uint64_t head = 0, tail = 0, h;

	memcpy(&head, s, n < 8 ? n : 8);
	if (n > 8)
		memcpy(&tail, s + n - 8, 8);
	h = (head * 0x9e3779b97f4a7c15ULL) ^ (tail * 0xc2b2ae3d27d4eb4fULL) ^ n;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t)(h ^ (h >> 32));
}

/*
 * A later assignment of a symbol: duplicate (same value) or conflict with
 * the previous one. Lines come in order and each line has at most one
 * diagnostic of its own, of a lower kind, so the diagnostics stay sorted by
 * line, then kind.
 */
static void note_duplicate(struct st_defconfig *dc, struct dup_slot *tab,
			   size_t mask, size_t i)
{
	const struct st_dc_line *cur = &dc->lines[i], *prev;
	uint32_t h = sym_hash(cur->sym);
	struct st_dc_diag *d;
	size_t k;
	bool same;

	for (k = h & mask; tab[k].idx; k = (k + 1) & mask) {
		prev = &dc->lines[tab[k].idx - 1];
		if (tab[k].hash == h && !strcmp(prev->sym, cur->sym))
			break;
	}
	if (!tab[k].idx) {
		tab[k].hash = h;
		tab[k].idx = i + 1;
		return;
	}
	tab[k].idx = i + 1;
	same = !strcmp(prev->val, cur->val);
	d = add_diag(dc, cur->lineno, ST_DC_WARNING,
		     same ? ST_DC_D_DUPLICATE : ST_DC_D_CONFLICT, cur->sym,
		     same ? "%s%s assigned again (same value as line %d)"
			  : "%s%s assigned again with another value (line %d has %s)",
		     ST_DC_PREFIX, cur->sym, prev->lineno,
		     prev->kind == ST_DC_NOT_SET ? "'is not set'" : prev->val);
	if (d)
		d->other_line = prev->lineno;
}

static const char *line_eol(const char *p, const char *end, const char **next,
			    size_t *textlen)
{
	const char *nl = memchr(p, '\n', end - p);

	if (!nl) {
		*next = end;
		/* A lone CR at the very end is a CRLF file cut before its LF. */
		if (end > p && end[-1] == '\r') {
			*textlen = end - p - 1;
			return "\r";
		}
		*textlen = end - p;
		return "";
	}
	*next = nl + 1;
	if (nl > p && nl[-1] == '\r') {
		*textlen = nl - p - 1;
		return "\r\n";
	}
	*textlen = nl - p;
	return "\n";
}

static size_t count_lines(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	size_t n = 0;

	while (p < end && (nl = memchr(p, '\n', end - p))) {
		n++;
		p = nl + 1;
	}
	return n + (p < end);
}

/*
 * One block for the whole model of @len bytes in @nlines lines. Worst case
 * of the strings: a line of n bytes has sym and val of at most n + 2 bytes
 * with their NULs (and "n" for a not-set line).
 */
static struct dc_block *block_new(size_t len, size_t nlines, size_t namelen,
				  size_t *tabsize, struct arena *a)
{
	size_t tab = 16, lines_sz, tab_sz, str_sz, total;
	struct dc_block *b;
	char *p;

	while (tab < 2 * nlines)
		tab *= 2;
	if (len > SIZE_MAX / 8 || nlines > UINT32_MAX / 2)
		return NULL;
	lines_sz = nlines * sizeof(struct st_dc_line);
	tab_sz = tab * sizeof(struct dup_slot);
	str_sz = (len + 1) + (len + 2 * nlines + 2) + namelen + 1;
	total = sizeof(*b) + lines_sz + tab_sz + str_sz;
	b = malloc(total);
	if (!b)
		return NULL;
	memset(b, 0, sizeof(*b));
	p = (char *)(b + 1);
	b->lo = p;
	b->hi = (char *)b + total;
	b->dc.lines = (struct st_dc_line *)p;
	b->dc.alloc_lines = nlines;
	memset(p + lines_sz, 0, tab_sz);
	a->cur = p + lines_sz + tab_sz;
	a->end = (char *)b->hi;
	*tabsize = tab;
	return b;
}

int st_defconfig_parse(struct st_defconfig **out, const char *buf, size_t len,
		       const char *name, struct st_error *err)
{
	const char *p = buf, *end = buf + len, *next;
	const char *dcname = name ? name : "-";
	size_t nlines, tabsize, off;
	struct st_defconfig *dc;
	struct dup_slot *tab;
	struct dc_block *b;
	struct arena a;
	char *text;
	int lineno = 0;

	*out = NULL;
	nlines = count_lines(buf, len);
	b = block_new(len, nlines, strlen(dcname), &tabsize, &a);
	if (!b)
		goto oom;
	dc = &b->dc;
	tab = (struct dup_slot *)(dc->lines + nlines);
	dc->name = str_new(&a, dcname, strlen(dcname));
	/* the lines' text: the file with each end of line cut by a NUL */
	text = a.cur;
	if (len)
		memcpy(text, buf, len);
	text[len] = '\0';
	a.cur += len + 1;
	while (p < end) {
		struct st_dc_line *l = &dc->lines[dc->nr_lines++];
		size_t tl;

		memset(l, 0, sizeof(*l));
		off = p - buf;
		l->eol = line_eol(p, end, &next, &tl);
		l->text = text + off;
		l->text[tl] = '\0';
		l->len = tl;
		l->lineno = ++lineno;
		if (classify(dc, &a, lineno, l))
			goto oom_dc;
		if (l->sym)
			note_duplicate(dc, tab, tabsize - 1, dc->nr_lines - 1);
		p = next;
	}
	*out = dc;
	return 0;
oom_dc:
	st_defconfig_free(dc);
oom:
	return st_err(err, ENOMEM, name, "out of memory");
}

/* The one wording of the size limit, for a file and for standard input. */
static int too_large(struct st_error *err, const char *name)
{
	return st_err(err, EFBIG, name, "larger than %d MiB: not a kernel config "
		      "(the limit of every input; real ones are under 1 MiB)",
		      ST_DC_MAX_FILE >> 20);
}

/*
 * "-": standard input, whatever it is (a pipe, a terminal, a file), to its
 * end, or to one byte over the limit: more is not read at all.
 */
/*
 * Standard input can be read once, but a command may need its content
 * twice (check decides a file's ARCH from its symbols before it judges
 * it): the first load keeps the bytes, or the error, for the later ones.
 */
static struct {
	pthread_mutex_t lock;
	bool done;
	char *buf;
	size_t len;
	int ret;
	struct st_error err;
} stdin_cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int read_stdin(char **out, size_t *outlen, struct st_error *err)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *nb;
	ssize_t n;
	int ret;

	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > (size_t)ST_DC_MAX_FILE + 1)
				cap = (size_t)ST_DC_MAX_FILE + 1;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return st_err(err, ENOMEM, "-", "out of memory");
			}
			buf = nb;
		}
		n = read(STDIN_FILENO, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = errno;
			free(buf);
			return st_err(err, ret, "-", "read error: %s", strerror(ret));
		}
		if (!n)
			break;
		len += n;
		if (len > ST_DC_MAX_FILE) {
			free(buf);
			return too_large(err, "-");
		}
	}
	*out = buf;
	*outlen = len;
	return 0;
}

int st_defconfig_stdin(const char **buf, size_t *len, struct st_error *err)
{
	pthread_mutex_lock(&stdin_cache.lock);
	if (!stdin_cache.done) {
		stdin_cache.ret = read_stdin(&stdin_cache.buf, &stdin_cache.len,
					     &stdin_cache.err);
		stdin_cache.done = true;
	}
	pthread_mutex_unlock(&stdin_cache.lock);
	if (stdin_cache.ret) {
		if (err)
			*err = stdin_cache.err;
		return stdin_cache.ret;
	}
	*buf = stdin_cache.buf ? stdin_cache.buf : "";
	*len = stdin_cache.len;
	return 0;
}

static int load_stdin(struct st_defconfig **out, struct st_error *err)
{
	const char *buf;
	size_t len;
	int ret = st_defconfig_stdin(&buf, &len, err);

	return ret ? ret : st_defconfig_parse(out, buf, len, "-", err);
}

int st_defconfig_load(struct st_defconfig **out, const char *path,
		      struct st_error *err)
{
	struct stat st;
	char *buf;
	size_t len;
	int ret;

	*out = NULL;
	if (!strcmp(path, "-"))
		return load_stdin(out, err);
	ret = st_read_file(path, &buf, &len, ST_DC_MAX_FILE, &st, err);
	if (ret == -EFBIG) {
		st_error_clear(err);
		return too_large(err, path);
	}
	if (ret)
		return ret;
	ret = st_defconfig_parse(out, buf, len, path, err);
	if (!ret) {
		(*out)->st = st;
		(*out)->sum = st_defconfig_sum(buf, len);
		(*out)->have_stat = true;
	}
	free(buf);
	return ret;
}

static int line_copy(struct st_defconfig *dc, struct st_dc_line *dst,
		     const struct st_dc_line *src)
{
	*dst = *src;
	dst->text = memdup0(src->text, src->len);
	dst->sym = src->sym ? strdup(src->sym) : NULL;
	dst->val = src->val ? strdup(src->val) : NULL;
	if (!dst->text || (src->sym && !dst->sym) || (src->val && !dst->val)) {
		line_release(dc, dst);
		return -ENOMEM;
	}
	return 0;
}

int st_defconfig_dup_empty(struct st_defconfig **out, const struct st_defconfig *dc)
{
	struct st_defconfig *n;
	size_t i;

	*out = NULL;
	/* a block without arena: every string is the copy's own */
	n = calloc(1, sizeof(struct dc_block));
	if (!n)
		return -ENOMEM;
	to_block(n)->owns = true;
	n->name = strdup(dc->name);
	n->diags = calloc(dc->nr_diags + 1, sizeof(*n->diags));
	if (!n->name || !n->diags)
		goto oom;
	for (i = 0; i < dc->nr_diags; i++) {
		n->diags[i] = dc->diags[i];
		n->diags[i].sym = st_strpool_dup(&n->diag_strs, dc->diags[i].sym);
		n->diags[i].msg = st_strpool_dup(&n->diag_strs, dc->diags[i].msg);
		if (!n->diags[i].sym || !n->diags[i].msg)
			goto oom;
	}
	n->nr_diags = dc->nr_diags;
	n->alloc_diags = dc->nr_diags + 1;
	n->nr_errors = dc->nr_errors;
	n->have_stat = dc->have_stat;
	n->st = dc->st;
	n->sum = dc->sum;
	*out = n;
	return 0;
oom:
	st_defconfig_free(n);
	return -ENOMEM;
}

int st_defconfig_append(struct st_defconfig *dc, const struct st_dc_line *l)
{
	struct st_dc_line *dst = open_slot(dc, dc->nr_lines);

	if (!dst)
		return -ENOMEM;
	to_block(dc)->owns = true;
	if (line_copy(dc, dst, l)) {
		dc->nr_lines--;
		return -ENOMEM;
	}
	return 0;
}

int st_defconfig_dup(struct st_defconfig **out, const struct st_defconfig *dc)
{
	struct st_defconfig *n;
	size_t i;
	int ret;

	ret = st_defconfig_dup_empty(&n, dc);
	if (ret)
		return ret;
	n->lines = calloc(dc->nr_lines + 1, sizeof(*n->lines));
	if (!n->lines)
		goto oom;
	n->alloc_lines = dc->nr_lines + 1;
	for (i = 0; i < dc->nr_lines; i++)
		if (st_defconfig_append(n, &dc->lines[i]))
			goto oom;
	*out = n;
	return 0;
oom:
	st_defconfig_free(n);
	return -ENOMEM;
}

int st_defconfig_render(const struct st_defconfig *dc, char **buf, size_t *len)
{
	size_t i, n = 0;
	char *p;

	for (i = 0; i < dc->nr_lines; i++)
		n += dc->lines[i].len + strlen(dc->lines[i].eol);
	p = malloc(n + 1);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*len = n;
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];
		size_t el = strlen(l->eol);

		memcpy(p, l->text, l->len);
		memcpy(p + l->len, l->eol, el);
		p += l->len + el;
	}
	*p = '\0';
	return 0;
}

const char *st_defconfig_eol(const struct st_defconfig *dc)
{
	size_t i, crlf = 0, lf = 0;

	for (i = 0; i < dc->nr_lines; i++) {
		if (!strcmp(dc->lines[i].eol, "\r\n"))
			crlf++;
		else if (!strcmp(dc->lines[i].eol, "\n"))
			lf++;
	}
	return crlf > lf ? "\r\n" : "\n";
}

/* Fill @l from @text (one line), classified without diagnostics. */
static int line_set(struct st_defconfig *dc, struct st_dc_line *l, const char *text)
{
	if (strchr(text, '\n'))
		return -EINVAL;
	to_block(dc)->owns = true;
	line_release(dc, l);
	l->len = strlen(text);
	l->text = memdup0(text, l->len);
	if (!l->text)
		return -ENOMEM;
	return classify(NULL, NULL, 0, l);
}

int st_defconfig_replace(struct st_defconfig *dc, size_t idx, const char *text)
{
	struct st_dc_line *l;
	int ret;

	if (idx >= dc->nr_lines)
		return -EINVAL;
	l = &dc->lines[idx];
	ret = line_set(dc, l, text);
	if (!ret)
		l->modified = true;
	return ret;
}

int st_defconfig_insert(struct st_defconfig *dc, size_t idx, const char *text)
{
	return st_defconfig_insert_eol(dc, idx, text, st_defconfig_eol(dc));
}

int st_defconfig_insert_eol(struct st_defconfig *dc, size_t idx, const char *text,
			    const char *eol)
{
	struct st_dc_line *l, *last;
	int ret;

	if (idx > dc->nr_lines || strchr(text, '\n'))
		return -EINVAL;
	l = open_slot(dc, idx);
	if (!l)
		return -ENOMEM;
	ret = line_set(dc, l, text);
	if (ret) {
		st_defconfig_delete(dc, idx);
		return ret;
	}
	l->eol = eol;
	/* Appending after a last line without newline: keep the file's end. */
	if (idx && idx == dc->nr_lines - 1) {
		last = &dc->lines[idx - 1];
		if (strcmp(last->eol, "\n") && strcmp(last->eol, "\r\n")) {
			l->eol = last->eol;
			last->eol = eol;
			last->modified = true;
		}
	}
	return 0;
}

int st_defconfig_delete(struct st_defconfig *dc, size_t idx)
{
	const char *eol;

	if (idx >= dc->nr_lines)
		return -EINVAL;
	eol = dc->lines[idx].eol;
	line_release(dc, &dc->lines[idx]);
	memmove(&dc->lines[idx], &dc->lines[idx + 1],
		(dc->nr_lines - idx - 1) * sizeof(*dc->lines));
	dc->nr_lines--;
	/* Deleting a last line without newline: the new last one loses its. */
	if (idx && idx == dc->nr_lines && strcmp(eol, "\n") && strcmp(eol, "\r\n")) {
		dc->lines[idx - 1].eol = eol;
		dc->lines[idx - 1].modified = true;
	}
	return 0;
}

long st_defconfig_find(const struct st_defconfig *dc, const char *sym)
{
	size_t i;

	for (i = dc->nr_lines; i-- > 0;)
		if (dc->lines[i].sym && !strcmp(dc->lines[i].sym, sym))
			return (long)i;
	return -1;
}
