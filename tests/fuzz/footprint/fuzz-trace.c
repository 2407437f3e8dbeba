// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target over the trace parser (text and binary). Whatever parses
 * must write out and parse back to the same trace in both formats.
 *
 * Built twice, one target per format: ST_FUZZ_TRACE_TEXT refuses inputs
 * with the binary magic, ST_FUZZ_TRACE_BIN puts the magic in front of
 * inputs that lack it, so that each fuzzer spends its time on one parser.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "footprint/trace.h"
#include "footprint/trace_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *emit(const struct st_trace *t, int binary, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		abort();
	if (binary)
		st_trace_write_bin(t, f);
	else
		st_trace_write_text(t, f);
	fclose(f);
	return buf;
}

static void same(const struct st_trace *a, const struct st_trace *b)
{
	size_t i;

	if (a->nr_ops != b->nr_ops || a->nr_caches != b->nr_caches || a->nr_ids != b->nr_ids ||
	    (a->nr_ops && memcmp(a->ops, b->ops, a->nr_ops * sizeof(*a->ops))))
		abort();
	for (i = 0; i < a->nr_caches; i++) {
		if (strcmp(a->caches[i].name, b->caches[i].name) ||
		    a->caches[i].size != b->caches[i].size ||
		    a->caches[i].align != b->caches[i].align ||
		    a->caches[i].flags != b->caches[i].flags)
			abort();
	}
}

static int has_magic(const uint8_t *data, size_t size)
{
	return size >= 4 && !memcmp(data, ST_TRACE_BIN_MAGIC, 4);
}

static void one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef ST_FUZZ_TRACE_BIN
	uint8_t *copy;

	if (!has_magic(data, size)) {
		/* exact size, so that ASan sees a read past the end */
		copy = malloc(size + 4);
		if (!copy)
			abort();
		memcpy(copy, ST_TRACE_BIN_MAGIC, 4);
		if (size)
			memcpy(copy + 4, data, size);
		one(copy, size + 4);
		free(copy);
		return 0;
	}
#else
	if (has_magic(data, size))
		return 0;
#endif
	one(data, size);
	return 0;
}

static void one(const uint8_t *data, size_t size)
{
	struct st_error e = { 0 };
	struct st_trace *t = NULL, *u = NULL;
	char *buf;
	size_t len;
	int binary;

	if (st_trace_parse(data, size, "fuzz", &t, &e)) {
		/* every error names where it is */
		if (!e.code || strncmp(e.file, "fuzz", 4))
			abort();
		return;
	}
	for (binary = 0; binary < 2; binary++) {
		buf = emit(t, binary, &len);
		if (st_trace_parse(buf, len, "again", &u, &e))
			abort();
		same(t, u);
		st_trace_delete(u);
		u = NULL;
		free(buf);
	}
	st_trace_delete(t);
}
