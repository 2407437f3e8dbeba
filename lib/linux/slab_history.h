/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The slab allocator's Kconfig from Linux 6.1 to st_kver_newest: one row
 * per symbol whose life changed, read by lib/migrate's rules and findings
 * and by lib/check's rules. A release that changes a symbol changes its
 * row here, and nowhere else in C.
 */
#ifndef ST_LINUX_SLAB_HISTORY_H
#define ST_LINUX_SLAB_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "linux/linux.h"

/* The rows of st_slab_syms[], in the order of their names. */
enum st_slab_id {
	ST_SLAB_DEBUG_SLAB,
	ST_SLAB_EMBEDDED,
	ST_SLAB_KMALLOC_PARTITION_CACHES,
	ST_SLAB_RANDOM_KMALLOC_CACHES,
	ST_SLAB_SLAB,
	ST_SLAB_SLAB_BUCKETS,
	ST_SLAB_SLAB_DEPRECATED,
	ST_SLAB_SLOB,
	ST_SLAB_SLOB_DEPRECATED,
	ST_SLAB_SLUB,
	ST_SLAB_SLUB_CPU_PARTIAL,
	ST_SLAB_SLUB_STATS,
	ST_SLAB_SLUB_TINY,
	ST_SLAB_NR,
};

/*
 * One symbol. A version {0, 0} means "not in the history": added before
 * 6.1, never removed, never renamed... Release versions are the first
 * release with the change.
 */
struct st_slab_sym {
	const char *name;
	struct st_kver added;		/* first release with it */
	struct st_kver removed;		/* first release without it */
	struct st_kver renamed;		/* from here conf only reads it (transitional) ... */
	const char *new_name;		/* ... as the default of this one */
	struct st_kver forced;		/* from here it has no prompt ... */
	const char *forced_val;		/* ... and always this value */
	struct st_kver changed;		/* its meaning changed here (@change says how) */
	const char *change;
	/* [gap_from, gap_until): @gap_dep is not among its dependencies */
	const char *gap_dep;
	struct st_kver gap_from, gap_until;
	/*
	 * Its history in a few words, for a line of it that a release does
	 * not take; NULL: a rule of its own says what such a line means.
	 */
	const char *why;
};

/* The moments of a row a consumer can name. */
enum st_slab_event {
	ST_SLAB_ADDED,
	ST_SLAB_REMOVED,
	ST_SLAB_RENAMED,
	ST_SLAB_FORCED,
	ST_SLAB_CHANGED,
};

/* A moment of the history, as a rule table names the release it starts at. */
struct st_slab_when {
	enum st_slab_id sym;
	enum st_slab_event ev;
};

extern const struct st_slab_sym st_slab_syms[ST_SLAB_NR];

/* The row of Kconfig symbol @name (no CONFIG_ prefix), or NULL. */
const struct st_slab_sym *st_slab_sym(const char *name);
/* The release of @w; {0, 0} where the row has no such moment. */
struct st_kver st_slab_when(struct st_slab_when w);
/* @v is @w's release or later (false where @w never happened). */
bool st_slab_since(struct st_kver v, enum st_slab_id sym, enum st_slab_event ev);
/* Kconfig of @v knows the name, be it only as a transitional one. */
bool st_slab_sym_exists(const struct st_slab_sym *s, struct st_kver v);
/* Kconfig of @v has it as a symbol of its own (not transitional). */
bool st_slab_sym_settable(const struct st_slab_sym *s, struct st_kver v);
/* In @v, @s depends on its @gap_dep (true where it has no gap). */
bool st_slab_dep_holds(const struct st_slab_sym *s, struct st_kver v);

#endif
