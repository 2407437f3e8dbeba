// SPDX-License-Identifier: GPL-2.0-only
/*
 * bloat-o-meter (Linux 6.12) semantics over lib/elf symbol arrays.
 *
 * The script reads `nm --size-sort` of each file, keeps the lines whose
 * letter is in the table's set, skips lines containing ':' (archive member
 * headers, but also any name with a colon), skips a few generated names,
 * removes every ".NUMBER" from the name and sums sizes by the resulting
 * name. Then it counts added/removed/grown/shrunk names and sorts the
 * (delta, name) pairs in reverse. Here the same is done with one hash table
 * per file: names stay pointers into the mapped files unless folding
 * changed them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "elf/elf.h"
#include "sizes/size_diff.h"

static char *int_str_slow(char *buf, st_sd_int v, char *tmp);

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

/* One table being built: the rows double as hash table entries. */
struct build {
	struct st_sd_table *t;
	struct st_sd_row *rows;
	size_t n, cap;
	/*
	 * hash << 32 | (row index + 1), 0 empty: a probe compares hashes
	 * without touching the row, which is a cache miss in a large table.
	 */
	uint64_t *slots;
	size_t mask;
};

struct sel {
	int8_t table[256];	/* nm letter -> table index, -1 not counted */
	uint16_t bit[256];
};

struct priv {
	struct chunk *chunks;
	struct build b[3];	/* between begin and end */
	struct sel sel;
	bool copy;		/* names must be copied: the objects go away */
};

static char *arena_alloc(struct priv *p, size_t n)
{
	struct chunk *c = p->chunks;

	if (!c || c->size - c->used < n) {
		size_t sz = n > 65536 ? n : 65536;

		c = malloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->next = p->chunks;
		c->used = 0;
		c->size = sz;
		p->chunks = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

#define ONES	0x0101010101010101ull
#define HIGHS	0x8080808080808080ull

/* Non-zero when a byte of @w is zero (the lowest flagged byte is exact). */
static inline uint64_t zero_byte(uint64_t w)
{
	return (w - ONES) & ~w & HIGHS;
}

/* Mix one 8-byte word (the tail zero-padded) into a hash state. */
static inline uint64_t hash_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

static inline uint32_t hash_tail(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

/* A word at a time: names are long (C++) and there are many. */
static uint32_t hash_mem(const char *s, size_t len)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ull, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = hash_word(h, w);
	}
	w = 0;
	memcpy(&w, s, len);
	return hash_tail(h, w);
}

/*
 * hash_mem() of @s, in the same pass noting whether it holds a ':' (the
 * script drops the line) or a '.' (it may need folding): one read of the
 * name instead of three. Returns the hash; *@colon and *@dot say what was
 * seen.
 */
static uint32_t scan_name(const char *s, size_t len, bool *colon, bool *dot)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ull, w, seen = 0;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		seen |= zero_byte(w ^ (ONES * ':')) | (zero_byte(w ^ (ONES * '.')) >> 7);
		h = hash_word(h, w);
	}
	w = 0;
	memcpy(&w, s, len);
	if (len) {
		/* the padding bytes are zero: only the name's bytes may match */
		uint64_t valid = len == 8 ? ~0ull : (1ull << (8 * len)) - 1;

		seen |= (zero_byte(w ^ (ONES * ':')) | (zero_byte(w ^ (ONES * '.')) >> 7)) &
			valid;
	}
	/*
	 * zero_byte() may flag a byte above a real match (a borrow), never
	 * one when there is none: a flag means a match somewhere in the word.
	 */
	*colon = seen & HIGHS;
	*dot = seen & (HIGHS >> 7);
	return hash_tail(h, w);
}

/* bloat-o-meter's re.sub(r'\.[0-9]+', '', name); NULL if nothing to fold */
static bool needs_fold(const char *s, size_t len)
{
	const char *end = s + len, *d;

	for (d = memchr(s, '.', len); d; d = memchr(d + 1, '.', end - d - 1))
		if (d + 1 < end && d[1] >= '0' && d[1] <= '9')
			return true;
	return false;
}

static char *fold_name(struct priv *p, const char *s, size_t len, size_t *outlen)
{
	char *out = arena_alloc(p, len + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		if (s[0] == '.' && s[1] >= '0' && s[1] <= '9') {
			s++;
			while (*s >= '0' && *s <= '9')
				s++;
			continue;
		}
		*o++ = *s++;
	}
	*o = '\0';
	*outlen = o - out;
	return out;
}

/*
 * The length of the character at @p (@n bytes there) when Python's
 * str.isspace() holds for it, else 0: ASCII \t..\r, \x1c..\x1f and ' ',
 * and the UTF-8 of U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
 * U+202F, U+205F and U+3000 (the script reads nm's output as UTF-8).
 */
static size_t py_space(const unsigned char *p, size_t n)
{
	if (p[0] < 0x80)
		return (p[0] >= '\t' && p[0] <= '\r') || (p[0] >= 0x1c && p[0] <= ' ');
	if (n >= 2 && p[0] == 0xc2)
		return p[1] == 0x85 || p[1] == 0xa0 ? 2 : 0;
	if (n < 3)
		return 0;
	switch (p[0]) {
	case 0xe1:
		return p[1] == 0x9a && p[2] == 0x80 ? 3 : 0;
	case 0xe2:
		if (p[1] == 0x81)
			return p[2] == 0x9f ? 3 : 0;
		if (p[1] != 0x80)
			return 0;
		return p[2] <= 0x8a || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf ? 3 : 0;
	case 0xe3:
		return p[1] == 0x80 && p[2] == 0x80 ? 3 : 0;
	}
	return 0;
}

/* Length of the whitespace character that ends @s (@len bytes), 0 if none. */
static size_t py_space_end(const unsigned char *s, size_t len)
{
	size_t k;

	/* UTF-8 resynchronises: at most one of the candidates is a character */
	for (k = 1; k <= 3 && k <= len; k++)
		if (py_space(s + len - k, k) == k)
			return k;
	return 0;
}

/*
 * The name bloat-o-meter sees: it splits nm's "SIZE TYPE NAME" line at
 * whitespace, so blanks before and after a name are no part of it ("f "
 * and "f" are summed as "f"). Whitespace inside a name makes more than
 * three fields and stops the script; such a name is kept as it is. Sets
 * *@s and *@len; a trimmed name is copied (NUL-terminated) into @p's
 * arena. Returns false when out of memory.
 */
static bool trim_name(struct priv *p, const char **s, size_t *len)
{
	const unsigned char *b = (const unsigned char *)*s;
	size_t n = *len, k;
	char *c;

	while (n && (k = py_space(b, n)))
		b += k, n -= k;
	while (n && (k = py_space_end(b, n)))
		n -= k;
	if (n == *len)
		return true;
	c = arena_alloc(p, n + 1);
	if (!c)
		return false;
	memcpy(c, b, n);
	c[n] = '\0';
	*s = c;
	*len = n;
	return true;
}

/* Names the script drops before folding: generated by kernel macros. */
static bool skipped(const char *n)
{
	if (n[0] == '_' && n[1] == '_') {
		switch (n[2]) {
		case 'm':
			return !strncmp(n, "__mod_", 6);
		case 's':
			return !strncmp(n, "__se_sys", 8) || !strncmp(n, "__se_compat_sys", 15);
		case 'a':
			return !strncmp(n, "__addressable_", 14);
		}
		return false;
	}
	return (n[0] == 'l' && !strcmp(n, "linux_banner")) || (n[0] == 'v' && !strcmp(n, "vermagic"));
}

static inline uint64_t slot_val(uint32_t hash, size_t row)
{
	return (uint64_t)hash << 32 | (uint32_t)(row + 1);
}

/*
 * A zeroed slot array, each page written once now: a fresh page first read
 * maps the shared zero page, and the first write then copies it and
 * flushes the TLB of every thread (an interrupt to the other reader). (A
 * plain memset() after malloc() would be folded into calloc().)
 */
static uint64_t *new_slots(size_t n)
{
	uint64_t *s = calloc(n, sizeof(*s));
	size_t i;

	for (i = 0; s && i < n; i += 4096 / sizeof(*s))
		((volatile uint64_t *)s)[i] = 0;
	return s;
}

static int build_init(struct build *b, struct st_sd_table *t, size_t n)
{
	size_t ns = 16;

	while (ns < n + n / 2 + 1)
		ns <<= 1;
	b->t = t;
	b->slots = new_slots(ns);
	b->rows = malloc((n ? n : 1) * sizeof(*b->rows));
	b->mask = ns - 1;
	b->cap = n ? n : 1;
	b->n = 0;
	return (b->slots && b->rows) ? 0 : -ENOMEM;
}

/* Make room for one more row: double the rows, rehash past 2/3 load. */
static int build_grow(struct build *b)
{
	size_t i, ns;

	if (b->n == b->cap) {
		size_t cap = b->cap * 2;
		struct st_sd_row *r = realloc(b->rows, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		b->rows = r;
		b->cap = cap;
	}
	if ((b->n + 1) * 3 <= (b->mask + 1) * 2)
		return 0;
	if (b->n >= UINT32_MAX / 4)
		return -EOVERFLOW;
	ns = (b->mask + 1) * 2;
	free(b->slots);
	b->slots = new_slots(ns);
	if (!b->slots)
		return -ENOMEM;
	b->mask = ns - 1;
	for (i = 0; i < b->n; i++) {
		size_t j = b->rows[i].hash & b->mask;

		while (b->slots[j])
			j = (j + 1) & b->mask;
		b->slots[j] = slot_val(b->rows[i].hash, i);
	}
	return 0;
}

/*
 * Add @size under @name (@len bytes) to the old or new side. A new row
 * copies the name into @p's arena when the objects do not outlive the
 * result.
 */
static int add(struct priv *p, struct build *b, const char *name, size_t len, uint32_t h,
	       uint64_t size, uint16_t bit, bool new)
{
	size_t i = h & b->mask;
	struct st_sd_row *r;
	uint64_t s;

	for (;; i = (i + 1) & b->mask) {
		s = b->slots[i];
		if (!s)
			break;
		if ((uint32_t)(s >> 32) != h)
			continue;
		r = &b->rows[(uint32_t)s - 1];
		if (!strcmp(r->name, name))
			goto found;
	}
	if (b->n == b->cap || (b->n + 1) * 3 > (b->mask + 1) * 2) {
		int ret = build_grow(b);

		if (ret)
			return ret;
		for (i = h & b->mask; b->slots[i]; i = (i + 1) & b->mask)
			;
	}
	if (p->copy) {
		char *c = arena_alloc(p, len + 1);

		if (!c)
			return -ENOMEM;
		memcpy(c, name, len + 1);
		name = c;
	}
	r = &b->rows[b->n];
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->hash = h;
	b->slots[i] = slot_val(h, b->n++);
found:
	r->letters |= bit;
	if (new) {
		if (__builtin_add_overflow(r->new_size, size, &r->new_size))
			return -EOVERFLOW;
		r->in_new = true;
	} else {
		if (__builtin_add_overflow(r->old_size, size, &r->old_size))
			return -EOVERFLOW;
		r->in_old = true;
	}
	return 0;
}

/*
 * Symbols waiting for their hash slot and row to reach the cache: the
 * tables are far larger than the cache and every lookup is a miss
 * otherwise. Stage 1 prefetches the slot, stage 2 (half the ring later)
 * the row it points to, stage 3 (a quarter later) the row's name, stage 4
 * adds.
 */
#define RING 16

struct pending {
	const char *name;
	size_t len;
	uint64_t size;
	uint32_t hash;
	uint16_t bit;
	int8_t table;
};

static void prefetch_row(const struct build *b, const struct pending *q)
{
	const struct build *t = &b[q->table];
	uint64_t s = t->slots[q->hash & t->mask];

	if (s && (uint32_t)(s >> 32) == q->hash)
		__builtin_prefetch(&t->rows[(uint32_t)s - 1]);
}

/* Stage 3: the name the row points to, for the strcmp() of the lookup. */
static void prefetch_name(const struct build *b, const struct pending *q)
{
	const struct build *t = &b[q->table];
	uint64_t s = t->slots[q->hash & t->mask];

	if (s && (uint32_t)(s >> 32) == q->hash)
		__builtin_prefetch(t->rows[(uint32_t)s - 1].name);
}

static int flush_one(struct priv *p, struct pending *q, bool new, const char *path,
		     struct st_error *e)
{
	int ret = add(p, &p->b[q->table], q->name, q->len, q->hash, q->size, q->bit, new);

	if (ret == -EOVERFLOW)
		return st_err(e, EOVERFLOW, path, "sizes of symbol %s overflow 64 bits", q->name);
	if (ret)
		return st_err(e, -ret, NULL, "out of memory");
	return 0;
}

/* Count one object's symbols into the tables; @path names it in errors. */
static int collect_obj(struct priv *p, const struct st_elf_obj *o, bool new, const char *path,
		       struct st_error *e)
{
	struct pending ring[RING];
	size_t j, head = 0, tail = 0;
	int ret;

	for (j = 0; j < o->nsyms; j++) {
		const struct st_sym *s = &o->syms[j];
		const char *name = s->name;
		struct pending *q;
		size_t len;
		uint32_t h;
		bool colon, dot;
		int t = p->sel.table[(unsigned char)s->type];

		if (t < 0 || !(s->flags & ST_SYM_SIZED))
			continue;
		len = strlen(name);
		if (!trim_name(p, &name, &len))
			return st_err(e, ENOMEM, NULL, "out of memory");
		/* an empty name crashes the script; it cannot be matched anyway */
		if (!len || skipped(name))
			continue;
		h = scan_name(name, len, &colon, &dot);
		if (colon)
			continue;
		if (dot && needs_fold(name, len)) {
			name = fold_name(p, name, len, &len);
			if (!name)
				return st_err(e, ENOMEM, NULL, "out of memory");
			h = hash_mem(name, len);
		}
		if (head - tail == RING) {
			ret = flush_one(p, &ring[tail++ % RING], new, path, e);
			if (ret)
				return ret;
		}
		q = &ring[head++ % RING];
		q->name = name;
		q->len = len;
		q->size = s->size;
		q->hash = h;
		q->bit = p->sel.bit[(unsigned char)s->type];
		q->table = (int8_t)t;
		__builtin_prefetch(&p->b[t].slots[q->hash & p->b[t].mask]);
		if (head - tail > RING / 2)
			prefetch_row(p->b, &ring[(head - 1 - RING / 2) % RING]);
		if (head - tail > 3 * RING / 4)
			prefetch_name(p->b, &ring[(head - 1 - 3 * RING / 4) % RING]);
	}
	while (tail != head) {
		ret = flush_one(p, &ring[tail++ % RING], new, path, e);
		if (ret)
			return ret;
	}
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	const struct st_sd_row *x = a, *y = b;

	/* Python: sorted((delta, name), reverse=True) */
	if (x->delta != y->delta)
		return x->delta > y->delta ? -1 : 1;
	return -strcmp(x->name, y->name);
}

/*
 * The same order over compact keys: the delta, then the name's first 32
 * bytes as four big-endian words (byte order, as strcmp), and the name
 * itself only when those tie (C++ names share long prefixes). The rows and
 * their names are scattered over memory; the keys are read once and then
 * sorted where they are, with the comparison inlined: on the 70,000
 * changed rows of the LLVM 14/15 pair a third of qsort()'s time.
 */
#define PRE_WORDS	4

struct sort_key {
	int64_t delta;
	uint64_t pre[PRE_WORDS];
	const struct st_sd_row *row;
};

static void name_prefix(const char *s, uint64_t pre[PRE_WORDS])
{
	unsigned char b[8 * PRE_WORDS] = { 0 };
	size_t i, j;

	for (i = 0; i < sizeof(b) && s[i]; i++)
		b[i] = (unsigned char)s[i];
	for (j = 0; j < PRE_WORDS; j++) {
		pre[j] = 0;
		for (i = 0; i < 8; i++)
			pre[j] = pre[j] << 8 | b[8 * j + i];
	}
}

static inline int key_cmp(const struct sort_key *x, const struct sort_key *y)
{
	size_t i;

	if (x->delta != y->delta)
		return x->delta > y->delta ? -1 : 1;
	for (i = 0; i < PRE_WORDS; i++)
		if (x->pre[i] != y->pre[i])
			return x->pre[i] > y->pre[i] ? -1 : 1;
	return -strcmp(x->row->name, y->row->name);
}

/* Merge sort of @n keys at @k, @tmp half as large: the comparison inlined. */
static void key_sort(struct sort_key *k, struct sort_key *tmp, size_t n)
{
	size_t i, j, o, h;

	if (n <= 16) {
		for (i = 1; i < n; i++) {
			struct sort_key x = k[i];

			for (j = i; j > 0 && key_cmp(&x, &k[j - 1]) < 0; j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
		return;
	}
	h = n / 2;
	key_sort(k, tmp, h);
	key_sort(k + h, tmp, n - h);
	if (key_cmp(&k[h - 1], &k[h]) <= 0)
		return;	/* already in order */
	memcpy(tmp, k, h * sizeof(*k));
	for (i = 0, j = h, o = 0; i < h && j < n;)
		k[o++] = key_cmp(&k[j], &tmp[i]) < 0 ? k[j++] : tmp[i++];
	while (i < h)
		k[o++] = tmp[i++];
}

/*
 * Sort @n rows of @rows in bloat-o-meter's order into a new array; NULL
 * when out of memory or a delta needs more than 64 bits (then qsort() with
 * row_cmp() does it in place).
 */
static struct st_sd_row *sort_rows(const struct st_sd_row *rows, size_t n)
{
	struct sort_key *k = malloc(n * sizeof(*k)), *tmp = malloc((n / 2 + 1) * sizeof(*k));
	struct st_sd_row *out = malloc(n * sizeof(*out));
	size_t i;

	if (!k || !tmp || !out)
		goto fail;
	for (i = 0; i < n; i++) {
		if (rows[i].delta < INT64_MIN || rows[i].delta > INT64_MAX)
			goto fail;
		k[i].delta = (int64_t)rows[i].delta;
		k[i].row = &rows[i];
		name_prefix(rows[i].name, k[i].pre);
	}
	key_sort(k, tmp, n);
	for (i = 0; i < n; i++)
		out[i] = *k[i].row;
	free(tmp);
	free(k);
	return out;
fail:
	free(k);
	free(tmp);
	free(out);
	return NULL;
}

char *st_sd_row_types(const struct st_sd_row *r, char *buf)
{
	size_t i, n = 0;

	for (i = 0; ST_SD_LETTERS[i]; i++)
		if (r->letters & (1u << i))
			buf[n++] = ST_SD_LETTERS[i];
	buf[n] = '\0';
	return buf;
}

/* Count like the script, keep the changed rows, sort them. */
static int finish(struct build *b)
{
	struct st_sd_table *t = b->t;
	size_t i, n = 0;

	free(b->slots);
	b->slots = NULL;
	for (i = 0; i < b->n; i++) {
		struct st_sd_row *r = &b->rows[i];

		r->delta = (st_sd_int)r->new_size - (st_sd_int)r->old_size;
		t->old_total += r->old_size;
		t->new_total += r->new_size;
		if (!r->in_new) {
			t->remove++;
			t->down += r->old_size;
		} else if (!r->in_old) {
			t->add++;
			t->up += r->new_size;
		} else if (r->delta > 0) {
			t->grow++;
			t->up += r->delta;
		} else if (r->delta < 0) {
			t->shrink++;
			t->down -= r->delta;
		}
		if (r->delta)
			b->rows[n++] = *r;
	}
	t->rows = n ? sort_rows(b->rows, n) : NULL;
	if (t->rows) {
		free(b->rows);
	} else {
		qsort(b->rows, n, sizeof(*b->rows), row_cmp);
		t->rows = n ? realloc(b->rows, n * sizeof(*b->rows)) : NULL;
		if (!t->rows)
			free(b->rows);
		if (n && !t->rows)
			return -ENOMEM;
	}
	t->nrows = n;
	b->rows = NULL;
	return 0;
}

static void set_tables(struct st_size_diff *res, enum st_sd_mode mode)
{
	static const struct { const char *title, *letters; } fn = { "Function", "tTwW" },
		data = { "Data", "dDbBvV" }, ro = { "RO Data", "rR" },
		all = { "Function", "tTdDbBrRvVwW" }, alldata = { "Data", "dDbBrRvV" };

	switch (mode) {
	case ST_SD_CATEGORIES:
		res->tables[0].title = fn.title, res->tables[0].letters = fn.letters;
		res->tables[1].title = data.title, res->tables[1].letters = data.letters;
		res->tables[2].title = ro.title, res->tables[2].letters = ro.letters;
		res->ntables = 3;
		break;
	case ST_SD_DATA:
		res->tables[0].title = alldata.title, res->tables[0].letters = alldata.letters;
		res->ntables = 1;
		break;
	case ST_SD_TEXT:
		res->tables[0].title = fn.title, res->tables[0].letters = fn.letters;
		res->ntables = 1;
		break;
	default:
		res->tables[0].title = all.title, res->tables[0].letters = all.letters;
		res->ntables = 1;
		break;
	}
}

int st_size_diff_begin(struct st_size_diff *res, enum st_sd_mode mode, size_t hint,
			bool copy_names, struct st_error *e)
{
	struct priv *p;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->mode = mode;
	p = calloc(1, sizeof(*p));
	if (!p)
		return st_err(e, ENOMEM, NULL, "out of memory");
	res->priv = p;
	p->copy = copy_names;
	set_tables(res, mode);
	/* every letter belongs to at most one table of a mode: one pass */
	memset(p->sel.table, -1, sizeof(p->sel.table));
	for (i = 0; i < res->ntables; i++) {
		const char *l;

		for (l = res->tables[i].letters; *l; l++) {
			p->sel.table[(unsigned char)*l] = (int8_t)i;
			p->sel.bit[(unsigned char)*l] = 1u << (strchr(ST_SD_LETTERS, *l) - ST_SD_LETTERS);
		}
		if (build_init(&p->b[i], &res->tables[i], hint)) {
			st_size_diff_free(res);
			return st_err(e, ENOMEM, NULL, "out of memory");
		}
	}
	return 0;
}

int st_size_diff_feed(struct st_size_diff *res, const struct st_elf_obj *o, bool new,
		      const char *path, struct st_error *e)
{
	return collect_obj(res->priv, o, new, path, e);
}

int st_size_diff_absorb(struct st_size_diff *into, struct st_size_diff *from, struct st_error *e)
{
	struct priv *p = into->priv, *q = from->priv;
	struct chunk **tail;
	bool copy = p->copy;
	size_t t, i;
	int ret = 0;

	/* the names stay where they are: @from's arena moves over */
	for (tail = &p->chunks; *tail; tail = &(*tail)->next)
		;
	*tail = q->chunks;
	q->chunks = NULL;
	p->copy = false;
	for (t = 0; t < into->ntables && !ret; t++) {
		const struct build *b = &q->b[t];
		const struct build *d = &p->b[t];

		for (i = 0; i < b->n && !ret; i++) {
			const struct st_sd_row *r = &b->rows[i];

			/* the same staged prefetch as collect_obj(), rows being in order */
			if (i + RING < b->n)
				__builtin_prefetch(&d->slots[b->rows[i + RING].hash & d->mask]);
			if (i + RING / 2 < b->n) {
				uint32_t h = b->rows[i + RING / 2].hash;
				uint64_t sv = d->slots[h & d->mask];

				if (sv && (uint32_t)(sv >> 32) == h)
					__builtin_prefetch(&d->rows[(uint32_t)sv - 1]);
			}
			size_t len = 0;	/* only for copying, and nothing is copied here */

			if (r->in_old)
				ret = add(p, &p->b[t], r->name, len, r->hash, r->old_size, r->letters, false);
			if (!ret && r->in_new)
				ret = add(p, &p->b[t], r->name, len, r->hash, r->new_size, r->letters, true);
			if (ret == -EOVERFLOW)
				ret = st_err(e, EOVERFLOW, NULL, "sizes of symbol %s overflow 64 bits", r->name);
			else if (ret)
				ret = st_err(e, -ret, NULL, "out of memory");
		}
	}
	p->copy = copy;
	st_size_diff_free(from);
	return ret;
}

int st_size_diff_end(struct st_size_diff *res, struct st_error *e)
{
	struct priv *p = res->priv;
	size_t i;
	int ret = 0;

	for (i = 0; i < res->ntables && !ret; i++)
		if (finish(&p->b[i]))
			ret = st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; i < res->ntables; i++) {
		free(p->b[i].slots);
		free(p->b[i].rows);
		p->b[i].slots = NULL;
		p->b[i].rows = NULL;
	}
	if (ret)
		st_size_diff_free(res);
	return ret;
}

int st_size_diff(const struct st_elf_file *oldf, const struct st_elf_file *newf,
		 enum st_sd_mode mode, struct st_size_diff *res, struct st_error *e)
{
	size_t i, n = st_elf_count_sized(oldf) + st_elf_count_sized(newf);
	int ret;

	ret = st_size_diff_begin(res, mode, n, false, e);
	for (i = 0; !ret && i < oldf->nobjs; i++)
		ret = st_size_diff_feed(res, &oldf->objs[i], false, oldf->path, e);
	for (i = 0; !ret && i < newf->nobjs; i++)
		ret = st_size_diff_feed(res, &newf->objs[i], true, newf->path, e);
	if (!ret)
		return st_size_diff_end(res, e);
	st_size_diff_end(res, e);
	st_size_diff_free(res);
	return ret;
}

void st_size_diff_free(struct st_size_diff *res)
{
	struct priv *p;
	struct chunk *c, *n;
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->ntables; i++)
		free(res->tables[i].rows);
	p = res->priv;
	if (p) {
		for (i = 0; i < 3; i++) {
			free(p->b[i].slots);
			free(p->b[i].rows);
		}
		for (c = p->chunks; c; c = n) {
			n = c->next;
			free(c);
		}
		free(p);
	}
	memset(res, 0, sizeof(*res));
}

bool st_size_diff_changed(const struct st_size_diff *res)
{
	size_t i;

	for (i = 0; i < res->ntables; i++)
		if (res->tables[i].old_total != res->tables[i].new_total)
			return true;
	return false;
}

char *st_sd_int_str(char *buf, st_sd_int v)
{
	char tmp[48];

	if (v >= INT64_MIN && v <= INT64_MAX) {
		int64_t s = (int64_t)v;
		uint64_t u = s < 0 ? -(uint64_t)s : (uint64_t)s;
		size_t n = 0, i = 0;

		do {
			tmp[n++] = '0' + (int)(u % 10);
			u /= 10;
		} while (u);
		if (s < 0)
			buf[i++] = '-';
		while (n)
			buf[i++] = tmp[--n];
		buf[i] = '\0';
		return buf;
	}
	return int_str_slow(buf, v, tmp);
}

static char *int_str_slow(char *buf, st_sd_int v, char *tmp)
{
	unsigned __int128 u = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
	size_t n = 0, i = 0;

	do {
		tmp[n++] = '0' + (int)(u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[i++] = '-';
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return buf;
}
