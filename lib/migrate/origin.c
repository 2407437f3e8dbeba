// SPDX-License-Identifier: GPL-2.0-only
/*
 * Introduced or pre-existing: the one decision `migrate` and `check` share.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate/origin.h"

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_key(const void *pa, const void *pb)
{
	const struct st_origin_key *a = pa, *b = pb;
	int c = cmp_str(a->sym, b->sym);

	if (!c)
		c = cmp_str(a->kind, b->kind);
	if (!c)
		c = cmp_str(a->requested, b->requested);
	return c;
}

void st_origin_sort(struct st_origin_key *base, size_t nr_base)
{
	if (nr_base > 1)
		qsort(base, nr_base, sizeof(*base), cmp_key);
}

enum st_origin st_origin_of(const struct st_origin_key *base, size_t nr_base,
			    const struct st_origin_key *f, bool line_kept)
{
	if (!base || !line_kept || !nr_base)
		return ST_ORIGIN_INTRODUCED;
	/* a search, not a scan: a file can have tens of thousands of findings */
	if (bsearch(f, base, nr_base, sizeof(*base), cmp_key))
		return ST_ORIGIN_PRE_EXISTING;
	return ST_ORIGIN_INTRODUCED;
}

const char *st_origin_name(enum st_origin o)
{
	return o == ST_ORIGIN_PRE_EXISTING ? "pre-existing" : "introduced";
}
