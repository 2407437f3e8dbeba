/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_SLAB_H
#define ST_SLAB_H

/*
 * slubtiny's bundled slab allocator: SLOB, SLUB or SLUB_TINY, chosen at
 * compile time by the CONFIG_ header that kconfig/st_kconfig.py generates
 * from a defconfig (defconfigs/<variant>_defconfig -> config-<variant>.h).
 *
 * Compile (and include this header) with either
 *	-DST_SLAB_CONFIG='"config-slub.h"'	(meson: the slab_deps entry)
 * or	-include config-slub.h
 * Every variant is a separate library with the same symbol names, so one
 * program links exactly one variant.
 *
 * The API is the kernel's (kmem_cache_*, kmalloc and friends) plus a few
 * st_ functions for what the kernel exposes through /proc and /sys:
 * page accounting, introspection, reports of detected corruption.
 * Deviations from the kernel's signatures: kmem_cache_shrink() returns 0,
 * kfree()/ksize() take const pointers as in the kernel, there is no node or
 * lru argument. Initialisation is lazy (first call) or st_slab_init().
 * Thread safety: any thread may call anything when CONFIG_SMP is set;
 * without CONFIG_SMP the allocator must be used from one thread.
 */
#include <stddef.h>

#ifdef ST_SLAB_CONFIG
#include ST_SLAB_CONFIG
#endif

#if !defined(CONFIG_SLUB) && !defined(CONFIG_SLOB)
#error "lib/slab: no allocator configured (define ST_SLAB_CONFIG or -include config-<variant>.h)"
#endif

#ifndef CONFIG_PAGE_SHIFT
#define CONFIG_PAGE_SHIFT 12
#endif
#define ST_PAGE_SHIFT	CONFIG_PAGE_SHIFT
#define ST_PAGE_SIZE	(1UL << ST_PAGE_SHIFT)
/* Highest buddy order: blocks up to 2^ST_MAX_ORDER pages. */
#define ST_MAX_ORDER	10

typedef unsigned int gfp_t;
typedef unsigned int slab_flags_t;

/* Allocation flags (only those the allocator looks at). */
#define __GFP_RECLAIMABLE	0x10u	/* kmalloc-rcl-* caches (SLUB) */
#define __GFP_NOWARN		0x200u
#define __GFP_ZERO		0x100u
#define GFP_KERNEL		0xcc0u
#define GFP_ATOMIC		0x820u
#define GFP_NOWAIT		0x800u

/* kmem_cache_create() flags; the values are the kernel's. */
#define SLAB_CONSISTENCY_CHECKS	0x00000100u	/* debug: check on alloc/free */
#define SLAB_RED_ZONE		0x00000400u	/* debug: red zones around objects */
#define SLAB_POISON		0x00000800u	/* debug: poison free objects */
#define SLAB_HWCACHE_ALIGN	0x00002000u	/* align objects to cache lines */
#define SLAB_STORE_USER		0x00010000u	/* debug: record alloc/free owner */
#ifndef CONFIG_SLUB_TINY
#define SLAB_RECLAIM_ACCOUNT	0x00020000u	/* objects are reclaimable */
#else
#define SLAB_RECLAIM_ACCOUNT	0u		/* SLUB_TINY ignores it */
#endif
#define SLAB_PANIC		0x00040000u	/* abort() if creation fails */
#define SLAB_TYPESAFE_BY_RCU	0x00080000u	/* keeps free pointer outside */
#define SLAB_NO_MERGE		0x01000000u	/* never merge with another cache */
#define SLAB_ACCOUNT		0x04000000u
#define SLAB_TEMPORARY		SLAB_RECLAIM_ACCOUNT

#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* Largest kmalloc() served by a slab cache; bigger ones get pages. */
#define KMALLOC_SHIFT_HIGH	(ST_PAGE_SHIFT + 1)
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)
#define KMALLOC_MAX_SIZE	(ST_PAGE_SIZE << ST_MAX_ORDER)

struct kmem_cache;

int st_slab_init(void);
/* Destroy the kmalloc caches and introspection; pages go back to zero. */
void st_slab_exit(void);
/* Variant name: "slob", "slub", "slub_tiny", ... (the defconfig's). */
const char *st_slab_variant(void);

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
int kmem_cache_shrink(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags);
void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t flags);
void kmem_cache_free(struct kmem_cache *s, void *obj);

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kmalloc_array(size_t n, size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void *krealloc(const void *p, size_t new_size, gfp_t flags);
void kfree(const void *obj);
size_t ksize(const void *obj);
char *kstrdup(const char *s, gfp_t flags);

/*
 * Page allocator accounting: everything the allocator holds comes from one
 * buddy allocator over a fixed arena, so these numbers are the footprint.
 * nr_slab_pages is what the kernel reports as Slab: in /proc/meminfo
 * (slab pages plus large kmalloc pages, SReclaimable + SUnreclaim).
 */
struct st_page_stats {
	unsigned long page_size;
	unsigned long total_pages;	/* arena size */
	unsigned long nr_pages;		/* pages allocated now */
	unsigned long peak_pages;	/* maximum of nr_pages since reset */
	unsigned long nr_slab_pages;	/* pages backing slabs + large kmalloc */
	unsigned long nr_reclaimable;	/* of which SLAB_RECLAIM_ACCOUNT slabs */
	unsigned long nr_large_pages;	/* pages of large kmalloc() */
	unsigned long nr_allocs;	/* page allocations so far */
	unsigned long nr_frees;
	unsigned long nr_failed;
	unsigned long blocks[ST_MAX_ORDER + 1];	/* allocated blocks per order now */
	unsigned long allocs[ST_MAX_ORDER + 1];	/* allocations per order so far */
};
void st_page_stats(struct st_page_stats *st);
void st_page_stats_reset_peak(void);

/*
 * Reports of detected corruption (the kernel's "BUG cache: ..." dmesg
 * text). The library never prints: the last report is kept and the
 * optional handler is called with each one. The handler runs with
 * allocator locks held: it must not call back into the allocator.
 */
typedef void (*st_slab_report_fn)(const char *text, void *arg);
void st_slab_set_report_handler(st_slab_report_fn fn, void *arg);
unsigned long st_slab_nr_reports(void);
const char *st_slab_last_report(void);

/* What /proc/slabinfo and /sys/kernel/slab say about one cache. */
struct st_cache_info {
	const char *name;
	unsigned int object_size;	/* requested size */
	unsigned int size;		/* bytes per object incl. metadata */
	unsigned int align;
	unsigned int order;		/* slab order (SLUB) */
	unsigned int objs_per_slab;
	unsigned int min_partial;
	unsigned int cpu_partial_slabs;	/* SLUB_CPU_PARTIAL limit */
	unsigned int refcount;		/* 1 + caches merged into it */
	slab_flags_t flags;
	unsigned long nr_slabs;
	unsigned long nr_partial;	/* node partial list */
	unsigned long nr_cpu_slabs;	/* active per-CPU slabs */
	unsigned long nr_cpu_partial;	/* slabs on per-CPU partial lists */
	unsigned long nr_objects;	/* total objects in all slabs */
	unsigned long nr_free;		/* free objects in all slabs */
	/* SLUB_SHEAVES: objects cached in sheaves count as free above */
	unsigned int sheaf_capacity;	/* objects per sheaf, 0: none */
	unsigned long nr_sheaves;	/* CPUs' main and spare, the barn's */
	unsigned long nr_sheaf_objects;	/* objects in those sheaves */
};
int st_kmem_cache_info(struct kmem_cache *s, struct st_cache_info *info);
/* The cache an object belongs to; NULL for large kmalloc and under SLOB. */
struct kmem_cache *st_virt_to_cache(const void *obj);
/* Check every object of @s (SLUB_DEBUG: the sysfs "validate"); errors. */
int st_kmem_cache_validate(struct kmem_cache *s);
/* SLUB_STATS counter @name ("alloc_fastpath", ...) summed over CPUs. */
int st_kmem_cache_stat(struct kmem_cache *s, const char *name,
		       unsigned long *val);

/*
 * /sys/kernel/slab: @path is "<cache>/<attribute>" or "<cache>" (lists the
 * attributes) or "" (lists the caches). Text as the kernel's show(), into
 * @buf. Returns the length or -ENOENT, or -ENOSYS when the variant has no
 * introspection (SLOB, SLUB_TINY, !SYSFS).
 */
int st_slab_sysfs_read(const char *path, char *buf, size_t size);
/* "shrink" and "validate" accept "1". */
int st_slab_sysfs_write(const char *path, const char *val);

/*
 * Bind the calling thread to emulated CPU @cpu (default: round robin).
 * With the rseq fast path the per-CPU data is the real CPU's: the thread
 * is pinned to CPU @cpu instead.
 */
void st_slab_set_cpu(unsigned int cpu);
unsigned int st_slab_nr_cpus(void);
/*
 * SLUB's per-CPU fast path in this process: "rseq" (restartable
 * sequences, no atomic instruction: x86_64 Linux with glibc 2.35+, when
 * the CPUs the kernel may report fit CONFIG_NR_CPUS and ST_SLAB_RSEQ is
 * not "0" in the environment), "cmpxchg" (double-word cmpxchg), "locked"
 * (no double-word cmpxchg on the target), "plain" (no SMP), or "none"
 * (SLUB_TINY and SLOB have no per-CPU layer), "sheaves" (SLUB_SHEAVES:
 * per-CPU arrays under a per-CPU lock). Valid after st_slab_init().
 */
const char *st_slab_fastpath(void);

/*
 * Boot parameters, before the first allocation: slub_max_order=,
 * slub_min_objects=, slab_nomerge, slub_debug. 0, -EINVAL or -EBUSY.
 */
int st_slab_boot_param(const char *param);

#endif
