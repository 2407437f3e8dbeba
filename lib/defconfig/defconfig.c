// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parse a defconfig into a lossless line model, and edit it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "defconfig/defconfig.h"

#define PREFIX_LEN	(sizeof(ST_DC_PREFIX) - 1)
#define NOT_SET_TAIL	" is not set"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_symchar(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
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

static char *memdup0(const char *s, size_t len)
{
	char *p = malloc(len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static void __attribute__((format(printf, 6, 7)))
add_diag(struct st_defconfig *dc, int line, enum st_dc_severity sev,
	 enum st_dc_diag_kind kind, const char *sym, const char *fmt, ...)
{
	struct st_dc_diag *d;
	va_list ap;

	if (!dc)
		return;
	if (dc->nr_diags == dc->alloc_diags) {
		size_t n = dc->alloc_diags ? 2 * dc->alloc_diags : 16;

		d = realloc(dc->diags, n * sizeof(*d));
		if (!d)
			return;	/* diagnostics are best effort under OOM */
		dc->diags = d;
		dc->alloc_diags = n;
	}
	d = &dc->diags[dc->nr_diags++];
	memset(d, 0, sizeof(*d));
	d->line = line;
	d->sev = sev;
	d->kind = kind;
	snprintf(d->sym, sizeof(d->sym), "%s", sym ? sym : "");
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (sev == ST_DC_ERROR)
		dc->nr_errors++;
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
static int parse_not_set(struct st_dc_line *l)
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
	l->sym = memdup0(sym, end - sym);
	l->val = memdup0("n", 1);
	if (!l->sym || !l->val)
		return -ENOMEM;
	l->kind = ST_DC_NOT_SET;
	return 1;
}

/* CONFIG_FOO=value. Diagnoses into @dc (may be NULL) at @lineno. */
static int parse_assign(struct st_defconfig *dc, int lineno, struct st_dc_line *l)
{
	const char *t = l->text, *eq, *v;
	size_t symlen, vlen;
	const char *why;

	eq = memchr(t, '=', l->len);
	if (!eq) {
		add_diag(dc, lineno, ST_DC_WARNING, ST_DC_D_NOEQ, NULL,
			 "'%s' line without '='", ST_DC_PREFIX);
		return 0;
	}
	symlen = eq - t - PREFIX_LEN;
	if (!st_defconfig_valid_sym(t + PREFIX_LEN, symlen)) {
		add_diag(dc, lineno, ST_DC_WARNING, ST_DC_D_BADSYM, NULL,
			 "invalid symbol name '%.*s'", (int)(eq - t > 100 ? 100 : eq - t), t);
		return 0;
	}
	v = eq + 1;
	vlen = l->len - (v - t);
	while (vlen && is_blank(v[vlen - 1]))
		vlen--;
	l->sym = memdup0(t + PREFIX_LEN, symlen);
	l->val = memdup0(v, vlen);
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
 * Set kind/vtype/sym/val of @l from its text. With @dc, diagnose problems
 * at @lineno. Returns 0 or -ENOMEM.
 */
static int classify(struct st_defconfig *dc, int lineno, struct st_dc_line *l)
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
		ret = parse_not_set(l);
		if (ret < 0)
			return ret;
		if (!ret)
			l->kind = ST_DC_COMMENT;
		return 0;
	}
	if (l->len >= PREFIX_LEN && !memcmp(l->text, ST_DC_PREFIX, PREFIX_LEN)) {
		ret = parse_assign(dc, lineno, l);
		return ret < 0 ? ret : 0;
	}
	add_diag(dc, lineno, ST_DC_WARNING, ST_DC_D_UNEXPECTED, NULL,
		 "unexpected line: not an assignment, '# %sFOO is not set' or comment",
		 ST_DC_PREFIX);
	return 0;
}

static void line_release(struct st_dc_line *l)
{
	free(l->text);
	free(l->sym);
	free(l->val);
	l->text = l->sym = l->val = NULL;
}

void st_defconfig_free(struct st_defconfig *dc)
{
	size_t i;

	if (!dc)
		return;
	for (i = 0; i < dc->nr_lines; i++)
		line_release(&dc->lines[i]);
	free(dc->lines);
	free(dc->diags);
	free(dc->name);
	free(dc);
}

/* Make room for one more line at @idx; returns it zeroed, or NULL. */
static struct st_dc_line *open_slot(struct st_defconfig *dc, size_t idx)
{
	struct st_dc_line *l;

	if (dc->nr_lines == dc->alloc_lines) {
		size_t n = dc->alloc_lines ? 2 * dc->alloc_lines : 64;

		l = realloc(dc->lines, n * sizeof(*l));
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

static int cmp_assign(const void *a, const void *b, void *lines)
{
	const struct st_dc_line *la = &((struct st_dc_line *)lines)[*(const size_t *)a];
	const struct st_dc_line *lb = &((struct st_dc_line *)lines)[*(const size_t *)b];
	int c = strcmp(la->sym, lb->sym);

	if (c)
		return c;
	return la->lineno - lb->lineno;
}

/* Later assignments of a symbol: duplicate (same value) or conflict. */
static int find_duplicates(struct st_defconfig *dc)
{
	size_t *idx, n = 0, i;

	idx = malloc((dc->nr_lines + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < dc->nr_lines; i++)
		if (dc->lines[i].sym)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_assign, dc->lines);
	for (i = 1; i < n; i++) {
		const struct st_dc_line *prev = &dc->lines[idx[i - 1]];
		const struct st_dc_line *cur = &dc->lines[idx[i]];
		bool same = !strcmp(prev->val, cur->val);

		if (strcmp(prev->sym, cur->sym))
			continue;
		add_diag(dc, cur->lineno, ST_DC_WARNING,
			 same ? ST_DC_D_DUPLICATE : ST_DC_D_CONFLICT, cur->sym,
			 same ? "%s%s assigned again (same value as line %d)"
			      : "%s%s assigned again with another value (line %d has %s)",
			 ST_DC_PREFIX, cur->sym, prev->lineno,
			 prev->kind == ST_DC_NOT_SET ? "'is not set'" : prev->val);
		dc->diags[dc->nr_diags - 1].other_line = prev->lineno;
	}
	free(idx);
	return 0;
}

static int cmp_diag(const void *a, const void *b)
{
	const struct st_dc_diag *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (int)x->kind - (int)y->kind;
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

int st_defconfig_parse(struct st_defconfig **out, const char *buf, size_t len,
		       const char *name, struct st_error *err)
{
	struct st_defconfig *dc;
	const char *p = buf, *end = buf + len, *next;
	int lineno = 0;

	*out = NULL;
	dc = calloc(1, sizeof(*dc));
	if (!dc)
		goto oom;
	dc->name = strdup(name ? name : "-");
	if (!dc->name)
		goto oom;
	while (p < end) {
		struct st_dc_line *l = open_slot(dc, dc->nr_lines);
		size_t tl;

		if (!l)
			goto oom;
		l->eol = line_eol(p, end, &next, &tl);
		l->text = memdup0(p, tl);
		l->len = tl;
		l->lineno = ++lineno;
		if (!l->text || classify(dc, lineno, l))
			goto oom;
		p = next;
	}
	if (find_duplicates(dc))
		goto oom;
	if (dc->nr_diags)
		qsort(dc->diags, dc->nr_diags, sizeof(*dc->diags), cmp_diag);
	*out = dc;
	return 0;
oom:
	st_defconfig_free(dc);
	return st_err(err, ENOMEM, name, "out of memory");
}

int st_defconfig_load(struct st_defconfig **out, const char *path,
		      struct st_error *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return st_err(err, errno, path, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = st_err(err, errno, path, "cannot stat: %s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = st_err(err, EINVAL, path, "not a regular file");
		goto out;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	/* Read what is there; a file that grows meanwhile is read to st_size. */
	while (len < (size_t)st.st_size) {
		n = read(fd, buf + len, st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = st_err(err, errno, path, "read error: %s", strerror(errno));
			goto out;
		}
		if (!n)
			break;
		len += n;
	}
	ret = st_defconfig_parse(out, buf, len, path, err);
	if (!ret) {
		(*out)->st = st;
		(*out)->have_stat = true;
	}
out:
	free(buf);
	close(fd);
	return ret;
}

static int line_copy(struct st_dc_line *dst, const struct st_dc_line *src)
{
	*dst = *src;
	dst->text = memdup0(src->text, src->len);
	dst->sym = src->sym ? strdup(src->sym) : NULL;
	dst->val = src->val ? strdup(src->val) : NULL;
	if (!dst->text || (src->sym && !dst->sym) || (src->val && !dst->val)) {
		line_release(dst);
		return -ENOMEM;
	}
	return 0;
}

int st_defconfig_dup(struct st_defconfig **out, const struct st_defconfig *dc)
{
	struct st_defconfig *n;
	size_t i;

	*out = NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->name = strdup(dc->name);
	n->lines = calloc(dc->nr_lines + 1, sizeof(*n->lines));
	n->diags = calloc(dc->nr_diags + 1, sizeof(*n->diags));
	if (!n->name || !n->lines || !n->diags)
		goto oom;
	n->alloc_lines = dc->nr_lines + 1;
	for (i = 0; i < dc->nr_lines; i++, n->nr_lines++)
		if (line_copy(&n->lines[i], &dc->lines[i]))
			goto oom;
	if (dc->nr_diags)
		memcpy(n->diags, dc->diags, dc->nr_diags * sizeof(*n->diags));
	n->nr_diags = dc->nr_diags;
	n->alloc_diags = dc->nr_diags + 1;
	n->nr_errors = dc->nr_errors;
	n->have_stat = dc->have_stat;
	n->st = dc->st;
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
static int line_set(struct st_dc_line *l, const char *text)
{
	if (strchr(text, '\n'))
		return -EINVAL;
	line_release(l);
	l->len = strlen(text);
	l->text = memdup0(text, l->len);
	if (!l->text)
		return -ENOMEM;
	return classify(NULL, 0, l);
}

int st_defconfig_replace(struct st_defconfig *dc, size_t idx, const char *text)
{
	struct st_dc_line *l;
	int ret;

	if (idx >= dc->nr_lines)
		return -EINVAL;
	l = &dc->lines[idx];
	ret = line_set(l, text);
	if (!ret)
		l->modified = true;
	return ret;
}

int st_defconfig_insert(struct st_defconfig *dc, size_t idx, const char *text)
{
	const char *eol = st_defconfig_eol(dc);
	struct st_dc_line *l, *last;
	int ret;

	if (idx > dc->nr_lines || strchr(text, '\n'))
		return -EINVAL;
	l = open_slot(dc, idx);
	if (!l)
		return -ENOMEM;
	ret = line_set(l, text);
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
	line_release(&dc->lines[idx]);
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
