// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit nr_test of the trace format (TAP): parsing, errors with FILE:LINE,
 * text <-> binary round trips, generators.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "footprint/trace.h"

#include "../../tap.h"

static struct st_trace *parse(const char *text, struct st_error *e)
{
	struct st_trace *t = NULL;

	st_error_clear(e);
	if (st_trace_parse(text, strlen(text), "in.trace", &t, e))
		return NULL;
	return t;
}

static char *to_text(const struct st_trace *t, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	st_trace_write_text(t, f);
	fclose(f);
	return buf;
}

static char *to_bin(const struct st_trace *t, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	st_trace_write_bin(t, f);
	fclose(f);
	return buf;
}

static void test_parse(void)
{
	static const char text[] =
		"# a comment\n"
		"slubtrace 1\n"
		"cache dentry 192 8 RECLAIM_ACCOUNT|HWCACHE_ALIGN\n"
		"alloc 100 dentry   # trailing comment\n"
		"@1 +500 kmalloc 7 300\n"
		"kzalloc 9 16\n"
		"krealloc 7 5000\n"
		"@1 free 100\n"
		"shrink dentry\n"
		"free 7\n"
		"destroy dentry\n";
	struct st_error e;
	struct st_trace *t = parse(text, &e);

	ok(t != NULL, "a valid text trace parses");
	if (!t) {
		printf("# %s: %s\n", e.file, e.msg);
		return;
	}
	ok(t->nr_ops == 9 && t->nr_caches == 1 && t->nr_ids == 3, "op, cache and object counts");
	ok(t->caches[0].size == 192 && t->caches[0].align == 8 &&
	   t->caches[0].flags == (ST_TF_RECLAIM_ACCOUNT | ST_TF_HWCACHE_ALIGN), "cache fields");
	ok(t->ops[1].type == ST_OP_ALLOC && t->ops[1].id == 0 && t->ops[1].size == 192,
	   "ids are dense, cache allocs carry the object size");
	ok(t->ops[2].thread == 1 && t->ops[2].ts == 500 && t->ops[3].thread == 0 &&
	   t->ops[3].ts == 500, "thread is per line, time is sticky");
	ok(t->ops[4].type == ST_OP_KREALLOC && t->ops[4].id == 1 && t->ops[4].size == 5000,
	   "krealloc keeps the object");
	ok(t->nr_threads == 2 && t->has_ts, "thread count and time flag");
	st_trace_delete(t);
}

static const struct {
	const char *text, *where, *msg;
	size_t len;		/* 0: strlen (binary inputs have NULs) */
} bad[] = {
	{ "", "in.trace", "empty trace" },
	{ "slubtrace 2\n", "in.trace:1", "unsupported trace version" },
	{ "hello\n", "in.trace:1", "not a trace" },
	{ "slubtrace 1\nkmalloc 1 0\n", "in.trace:2", "bad size" },
	{ "slubtrace 1\nkmalloc 1 67108865\n", "in.trace:2", "bad size" },
	{ "slubtrace 1\nkmalloc 1 8\nkmalloc 1 8\n", "in.trace:3", "used twice" },
	{ "slubtrace 1\nfree 3\n", "in.trace:2", "never allocated" },
	{ "slubtrace 1\nkmalloc 1 8\nfree 1\nfree 1\n", "in.trace:4", "already freed" },
	{ "slubtrace 1\nalloc 1 nosuch\n", "in.trace:2", "no cache 'nosuch'" },
	{ "slubtrace 1\ncache c 8 3 0\n", "in.trace:2", "power of two" },
	{ "slubtrace 1\ncache c 8 0 BOGUS\n", "in.trace:2", "bad flags" },
	{ "slubtrace 1\ncache c 8 0 0\ncache c 8 0 0\n", "in.trace:3", "exists already" },
	{ "slubtrace 1\ncache c 8 0 0\nalloc 1 c\ndestroy c\n", "in.trace:4", "1 live objects" },
	{ "slubtrace 1\ncache c 8 0 0\ndestroy c\nalloc 1 c\n", "in.trace:4", "no cache 'c'" },
	{ "slubtrace 1\ncache c 8 0 0\nalloc 1 c\nkrealloc 1 9\n", "in.trace:4", "from a cache" },
	{ "slubtrace 1\n@64 kmalloc 1 8\n", "in.trace:2", "bad thread" },
	{ "slubtrace 1\n+5 kmalloc 1 8\n+4 kmalloc 2 8\n", "in.trace:3", "bad timestamp" },
	{ "slubtrace 1\nfrob 1\n", "in.trace:2", "unknown op" },
	{ "slubtrace 1\nkmalloc 1\n", "in.trace:2", "wrong number of arguments" },
	{ "slubtrace 1\n\n\nkmalloc x 8\n", "in.trace:4", "bad object id" },
	{ "SLTB\2", "in.trace:+4", "unsupported binary trace version", 5 },
	{ "SLTB\1\5", "in.trace:+5", "truncated record", 6 },
	{ "SLTB\1\5\10", "in.trace:+7", "missing end record", 7 },
	{ "SLTB\1\10\0\0", "in.trace:+5", "never allocated", 8 },
	{ "SLTB\1\77\0", "in.trace:+5", "unknown record tag", 7 },
	{ "SLTB\1\0\0", "in.trace:+5", "data after the end", 7 },
	{ "SLTB\1\5\200\200\200\200\200\200\200\200\200\2\0", "in.trace:+5",
	  "varint overflow", 17 },
};

static void test_errors(void)
{
	struct st_error e;
	struct st_trace *t;
	char what[200];
	size_t i, len;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		st_error_clear(&e);
		t = NULL;
		len = bad[i].len ? bad[i].len : strlen(bad[i].text);
		snprintf(what, sizeof(what), "error %zu: %s: ...%s...", i, bad[i].where, bad[i].msg);
		ok(st_trace_parse(bad[i].text, len, "in.trace", &t, &e) < 0 && !t &&
		   !strcmp(e.file, bad[i].where) && strstr(e.msg, bad[i].msg), "%s", what);
		if (t || strcmp(e.file, bad[i].where) || !strstr(e.msg, bad[i].msg))
			printf("# got %s: %s\n", e.file, e.msg);
		st_trace_delete(t);
	}
}

/* text -> model -> binary -> model -> text gives the same text */
static void test_round_trip(const char *shape, unsigned int scale)
{
	struct st_error e = { 0 };
	struct st_trace *t = NULL, *t2 = NULL, *t3 = NULL;
	char *text = NULL, *bin = NULL, *text2 = NULL, what[100];
	size_t tlen = 0, blen = 0, t2len = 0;

	snprintf(what, sizeof(what), "%s: text -> binary -> text is exact", shape);
	if (st_trace_generate(shape, 42, scale, &t, &e)) {
		ok(0, "%s", what);
		return;
	}
	text = to_text(t, &tlen);
	if (!st_trace_parse(text, tlen, "t", &t2, &e)) {
		bin = to_bin(t2, &blen);
		if (!st_trace_parse(bin, blen, "b", &t3, &e))
			text2 = to_text(t3, &t2len);
	}
	ok(text2 && tlen == t2len && !memcmp(text, text2, tlen), "%s", what);
	snprintf(what, sizeof(what), "%s: binary is at most a quarter of the text", shape);
	ok(bin && blen * 4 <= tlen, "%s", what);
	if (e.code)
		printf("# %s: %s\n", e.file, e.msg);
	free(text);
	free(bin);
	free(text2);
	st_trace_delete(t);
	st_trace_delete(t2);
	st_trace_delete(t3);
}

static void test_generators(void)
{
	struct st_error e = { 0 };
	struct st_trace *a = NULL, *b = NULL, *c = NULL;
	size_t i;
	bool live_left = false;

	ok(!st_trace_generate("boot", 1, 1, &a, &e) && !st_trace_generate("boot", 1, 1, &b, &e) &&
	   !st_trace_generate("boot", 2, 1, &c, &e), "boot generates");
	ok(a && b && a->nr_ops == b->nr_ops &&
	   !memcmp(a->ops, b->ops, a->nr_ops * sizeof(*a->ops)), "same seed, same trace");
	ok(a && c && (a->nr_ops != c->nr_ops ||
		      memcmp(a->ops, c->ops, a->nr_ops * sizeof(*a->ops))), "other seed, other trace");
	ok(a && a->nr_threads == 1 && a->nr_caches >= 20, "boot: one CPU, many caches");
	st_trace_delete(a);
	st_trace_delete(b);
	st_trace_delete(c);
	a = NULL;
	ok(!st_trace_generate("net", 1, 1, &a, &e) && a->nr_threads == 2, "net: two threads");
	st_trace_delete(a);
	a = NULL;
	ok(!st_trace_generate("fs", 1, 1, &a, &e), "fs generates");
	for (i = 0; a && i < a->nr_ops; i++)
		if (a->ops[i].type == ST_OP_SHRINK)
			live_left = true;
	ok(live_left && a->ops[a->nr_ops - 1].type == ST_OP_DESTROY, "fs: shrinks, ends with destroy");
	st_trace_delete(a);
	a = NULL;
	ok(st_trace_generate("nope", 1, 1, &a, &e) == -22 && !a && strstr(e.msg, "unknown"),
	   "unknown shape is an error");
}

int main(void)
{
	test_parse();
	test_errors();
	test_round_trip("boot", 1);
	test_round_trip("net", 1);
	test_round_trip("fs", 1);
	test_generators();
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
