// SPDX-License-Identifier: GPL-2.0-only
/*
 * The slab Kconfig history, 6.1 to st_kver_newest. The sources of each
 * change are cited in kconfig/models/README and doc/migrate.md; the
 * bundled models under kconfig/models/ hold the same facts as Kconfig.
 */
#include <string.h>

#include "linux/slab_history.h"

const struct st_slab_sym st_slab_syms[ST_SLAB_NR] = {
	[ST_SLAB_DEBUG_SLAB] = { .name = "DEBUG_SLAB", .removed = { 6, 8 },
		.why = "removed with SLAB in 6.8" },
	/* its select of EXPERT is the embedded-to-expert rule's */
	[ST_SLAB_EMBEDDED] = { .name = "EMBEDDED", .removed = { 6, 6 } },
	[ST_SLAB_KMALLOC_PARTITION_CACHES] = { .name = "KMALLOC_PARTITION_CACHES",
		.added = { 7, 2 },
		.why = "added in 7.2 for RANDOM_KMALLOC_CACHES" },
	[ST_SLAB_RANDOM_KMALLOC_CACHES] = { .name = "RANDOM_KMALLOC_CACHES", .added = { 6, 6 },
		.renamed = { 7, 2 }, .new_name = "KMALLOC_PARTITION_CACHES",
		.why = "added in 6.6" },
	[ST_SLAB_SLAB] = { .name = "SLAB", .removed = { 6, 8 },
		.why = "renamed SLAB_DEPRECATED in 6.5, removed in 6.8" },
	[ST_SLAB_SLAB_BUCKETS] = { .name = "SLAB_BUCKETS", .added = { 6, 11 },
		.why = "added in 6.11" },
	[ST_SLAB_SLAB_DEPRECATED] = { .name = "SLAB_DEPRECATED", .added = { 6, 5 },
		.removed = { 6, 8 }, .why = "removed in 6.8" },
	[ST_SLAB_SLOB] = { .name = "SLOB", .removed = { 6, 4 },
		.why = "renamed SLOB_DEPRECATED in 6.2, removed in 6.4" },
	[ST_SLAB_SLOB_DEPRECATED] = { .name = "SLOB_DEPRECATED", .added = { 6, 2 },
		.removed = { 6, 4 }, .why = "removed in 6.4" },
	[ST_SLAB_SLUB] = { .name = "SLUB", .forced = { 6, 8 }, .forced_val = "y",
		.why = "the only allocator since 6.8 (def_bool y, no prompt)" },
	[ST_SLAB_SLUB_CPU_PARTIAL] = { .name = "SLUB_CPU_PARTIAL", .removed = { 7, 0 },
		.why = "removed in 7.0 with CPU partial slabs" },
	[ST_SLAB_SLUB_STATS] = { .name = "SLUB_STATS", .changed = { 7, 0 },
		.change = "the per-CPU sheaf counters; the CPU slab and CPU partial ones are gone" },
	/*
	 * 6.13 and 6.14 lack 6f110a5e4f99 ("Disable SLUB_TINY for build
	 * testing", 6.15), which 6.12.y has as a stable backport.
	 */
	[ST_SLAB_SLUB_TINY] = { .name = "SLUB_TINY", .added = { 6, 2 },
		.gap_dep = "!COMPILE_TEST", .gap_from = { 6, 13 }, .gap_until = { 6, 15 },
		.why = "added in 6.2" },
};

const struct st_slab_sym *st_slab_sym(const char *name)
{
	size_t i;

	for (i = 0; i < ST_SLAB_NR; i++)
		if (!strcmp(st_slab_syms[i].name, name))
			return &st_slab_syms[i];
	return NULL;
}

struct st_kver st_slab_when(struct st_slab_when w)
{
	const struct st_slab_sym *s = &st_slab_syms[w.sym];

	switch (w.ev) {
	case ST_SLAB_ADDED:
		return s->added;
	case ST_SLAB_REMOVED:
		return s->removed;
	case ST_SLAB_RENAMED:
		return s->renamed;
	case ST_SLAB_FORCED:
		return s->forced;
	case ST_SLAB_CHANGED:
		return s->changed;
	}
	return (struct st_kver){ 0, 0 };
}

/* @v is @at or later; never for an @at of {0, 0} (no such moment). */
static bool since(struct st_kver v, struct st_kver at)
{
	return at.major && st_kver_cmp(v, at) >= 0;
}

bool st_slab_since(struct st_kver v, enum st_slab_id sym, enum st_slab_event ev)
{
	return since(v, st_slab_when((struct st_slab_when){ sym, ev }));
}

bool st_slab_sym_exists(const struct st_slab_sym *s, struct st_kver v)
{
	return (!s->added.major || since(v, s->added)) && !since(v, s->removed);
}

bool st_slab_sym_settable(const struct st_slab_sym *s, struct st_kver v)
{
	return st_slab_sym_exists(s, v) && !since(v, s->renamed);
}

bool st_slab_dep_holds(const struct st_slab_sym *s, struct st_kver v)
{
	return !s->gap_dep || !since(v, s->gap_from) || since(v, s->gap_until);
}
