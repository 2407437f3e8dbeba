/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_ORIGIN_H
#define ST_ORIGIN_H

/*
 * Where a finding comes from: the change being judged (a migration, a fix,
 * a commit) or the file as it was before it (the baseline). This is the one
 * place that decides it; `migrate` and `check` both ask here.
 */

#include <stdbool.h>
#include <stddef.h>

enum st_origin {
	ST_ORIGIN_INTRODUCED,		/* the change brought it */
	ST_ORIGIN_PRE_EXISTING,		/* the baseline already had it */
};

/*
 * A finding reduced to what identifies it across two versions of a file
 * (line numbers move, so they are not part of it). Empty strings where a
 * field does not apply; NULL is taken as "".
 */
struct st_origin_key {
	const char *sym;	/* without CONFIG_ */
	const char *kind;	/* "ineffective", "unknown", "duplicate", ... */
	const char *requested;	/* the value the line asks for */
};

/*
 * The origin of finding @f about a line of the changed file. @line_kept:
 * the change left that line as it was in the baseline (a line it added or
 * rewrote is never pre-existing). Pre-existing when the line was kept and
 * the baseline's findings (@base, @nr_base of them) hold the same key:
 * a line that took effect in the baseline and no longer does is introduced.
 * With @base NULL (no baseline at all) everything is introduced. @base
 * must have been sorted by st_origin_sort().
 */
enum st_origin st_origin_of(const struct st_origin_key *base, size_t nr_base,
			    const struct st_origin_key *f, bool line_kept);

/* Sort @base (in place) for st_origin_of(). */
void st_origin_sort(struct st_origin_key *base, size_t nr_base);

/* "introduced", "pre-existing" (the JSON and SARIF spelling). */
const char *st_origin_name(enum st_origin o);

#endif
