// SPDX-License-Identifier: GPL-2.0-only
/*
 * Introduced or pre-existing: the one decision `migrate` and `check` share.
 */
#include <string.h>

#include "check/origin.h"

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

enum st_origin st_origin_of(const struct st_origin_key *base, size_t nr_base,
			    const struct st_origin_key *f, bool line_kept)
{
	size_t i;

	if (!base || !line_kept)
		return ST_ORIGIN_INTRODUCED;
	for (i = 0; i < nr_base; i++)
		if (same(base[i].sym, f->sym) && same(base[i].kind, f->kind) &&
		    same(base[i].requested, f->requested))
			return ST_ORIGIN_PRE_EXISTING;
	return ST_ORIGIN_INTRODUCED;
}

const char *st_origin_name(enum st_origin o)
{
	return o == ST_ORIGIN_PRE_EXISTING ? "pre-existing" : "introduced";
}
