/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_REPLAY_BACKEND_H
#define ST_REPLAY_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "footprint/trace.h"

/*
 * What the replay core needs from an allocator. backend_slab.c maps it onto
 * one lib/slab variant (one executable per variant, as they share symbol
 * names), backend_glibc.c onto malloc, the outside reference.
 */
struct rb_cache;

struct rb_pages {
	unsigned long nr_pages;		/* held now */
	unsigned long peak_pages;	/* since rb_reset_peak() */
	unsigned long slab_pages;	/* the kernel's "Slab:" */
	unsigned long large_pages;	/* large kmalloc */
	unsigned long blocks[16];	/* blocks per order now, -1 terminated */
	int nr_orders;
};

struct rb_cache_info {
	const char *name;		/* the (possibly merged) cache's name */
	unsigned long slabs, objects, order;
	unsigned int size;		/* bytes per object incl. metadata */
	unsigned int refcount;		/* > 1: merged with another cache */
};

extern const char *const rb_backend;	/* "slab" or "glibc" */
extern const bool rb_smp;		/* may several threads call in? */
extern const bool rb_has_pages;		/* page counters (else RSS) */

/* A kernel boot parameter (slub_max_order=1, ...), before rb_init(). */
int rb_boot_param(const char *param);
int rb_init(void);
void rb_exit(void);
const char *rb_variant(void);
void rb_thread_start(unsigned int cpu);

struct rb_cache *rb_cache_create(const struct st_trace_cache *c);
void rb_cache_destroy(struct rb_cache *c);
void rb_cache_shrink(struct rb_cache *c);
void *rb_cache_alloc(struct rb_cache *c);
/* Usable size of a cache object, 0 if the allocator cannot tell. */
size_t rb_cache_ksize(struct rb_cache *c, const void *p);
void rb_cache_free(struct rb_cache *c, void *p);
/* Slabs of @c, or (with @c NULL) of the cache @obj lives in; -ENOENT. */
int rb_cache_info(struct rb_cache *c, const void *obj, struct rb_cache_info *info);

void *rb_kmalloc(size_t size);
void *rb_kzalloc(size_t size);
void *rb_krealloc(void *p, size_t size);
void rb_kfree(void *p);
size_t rb_ksize(const void *p);

void rb_pages(struct rb_pages *p);
/* Corruption/misuse reports of the allocator so far (SLUB_DEBUG, SLOB). */
unsigned long rb_nr_reports(void);
/* What bounds an allocation, for the message of one that failed. */
const char *rb_limits(void);
void rb_reset_peak(void);

#endif
