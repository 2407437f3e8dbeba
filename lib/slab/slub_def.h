/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_SLUB_DEF_H
#define ST_SLUB_DEF_H

/* SLUB's cache structures, shared by slub.c and slub_sysfs.c. */
#include "slab_priv.h"

enum stat_item {
	ALLOC_FASTPATH,		/* allocation from the cpu freelist */
	ALLOC_SLOWPATH,		/* allocation by getting a new cpu slab */
	FREE_FASTPATH,		/* free to the cpu freelist */
	FREE_SLOWPATH,		/* freeing not to the cpu slab */
	FREE_FROZEN,		/* freeing to a frozen slab */
	FREE_ADD_PARTIAL,	/* freeing moves slab to partial list */
	FREE_REMOVE_PARTIAL,	/* freeing removes last object */
	ALLOC_FROM_PARTIAL,	/* cpu slab acquired from node partial list */
	ALLOC_SLAB,		/* cpu slab acquired from page allocator */
	ALLOC_REFILL,		/* refill cpu slab from slab freelist */
	ALLOC_NODE_MISMATCH,	/* switching cpu slab */
	FREE_SLAB,		/* slab freed to the page allocator */
	CPUSLAB_FLUSH,		/* abandoning of the cpu slab */
	DEACTIVATE_FULL,	/* cpu slab was full when deactivated */
	DEACTIVATE_EMPTY,	/* cpu slab was empty when deactivated */
	DEACTIVATE_TO_HEAD,	/* cpu slab was moved to the head of partials */
	DEACTIVATE_TO_TAIL,	/* cpu slab was moved to the tail of partials */
	DEACTIVATE_REMOTE_FREES,/* slab contained remotely freed objects */
	DEACTIVATE_BYPASS,	/* implicit deactivation */
	ORDER_FALLBACK,		/* number of times fallback was necessary */
	CMPXCHG_DOUBLE_CPU_FAIL,/* failures of this_cpu_cmpxchg_double */
	CMPXCHG_DOUBLE_FAIL,	/* failures of slab freelist update */
	CPU_PARTIAL_ALLOC,	/* used cpu partial on alloc */
	CPU_PARTIAL_FREE,	/* refill cpu partial on free */
	CPU_PARTIAL_NODE,	/* refill cpu partial from node partial */
	CPU_PARTIAL_DRAIN,	/* drain cpu partial to node partial */
#ifdef ST_SLUB_SHEAVES
	ALLOC_PCS,		/* allocation from a per-CPU sheaf */
	FREE_PCS,		/* free to a per-CPU sheaf */
	SHEAF_FLUSH,		/* objects flushed from a sheaf to slabs */
	SHEAF_REFILL,		/* objects refilled to a sheaf from slabs */
	SHEAF_ALLOC,		/* allocation of an empty sheaf */
	SHEAF_FREE,		/* freeing of an empty sheaf */
	BARN_GET,		/* got a sheaf from the barn */
	BARN_GET_FAIL,		/* the barn had no sheaf of the kind wanted */
	BARN_PUT,		/* put a sheaf into the barn */
	BARN_PUT_FAIL,		/* the barn was full */
#endif
	NR_SLUB_STAT_ITEMS
};

#ifdef ST_SLUB_SHEAVES
/*
 * Linux 7.0's per-CPU layer: arrays of object pointers. The header is laid
 * out as the kernel's (a list head, the cache, the size and the node: 32
 * bytes on 64-bit, 20 on 32-bit), since the capacity is rounded so that a
 * whole sheaf fills a kmalloc size class.
 */
struct slab_sheaf {
	struct list_head barn_list;
	struct kmem_cache *cache;
	unsigned int size;		/* objects in it */
	int node;
	void *objects[];
};

/*
 * main is where allocations pop and frees push; spare is an empty or full
 * sheaf to swap with; either may be NULL. lock is the kernel's
 * local_trylock: here threads may share an emulated CPU.
 */
struct slub_percpu_sheaves {
	st_spinlock_t lock;
	struct slab_sheaf *main;
	struct slab_sheaf *spare;
#ifdef CONFIG_SLUB_STATS
	unsigned long stat[NR_SLUB_STAT_ITEMS];
#endif
} __attribute__((aligned(ST_CACHE_LINE)));

#define MAX_FULL_SHEAVES	10
#define MAX_EMPTY_SHEAVES	10

/* The per-node pool of whole sheaves, between the CPUs and the slabs. */
struct node_barn {
	st_spinlock_t lock;
	struct list_head sheaves_full;
	struct list_head sheaves_empty;
	unsigned int nr_full;
	unsigned int nr_empty;
};
#elif !defined(CONFIG_SLUB_TINY)
/*
 * The per-CPU state. ft is the freelist with its transaction id, changed
 * only by a double-word cmpxchg, or with rseq by a critical section on
 * that CPU. An odd tid means a slow path owns this CPU (the kernel's
 * irq-disabled section): fast paths then back off.
 */
struct kmem_cache_cpu {
	struct st_pair ft;
	struct slab *slab;		/* the slab ft's freelist belongs to */
#ifdef CONFIG_SLUB_CPU_PARTIAL
	struct slab *partial;		/* partially allocated slabs */
#endif
	st_spinlock_t lock;		/* serialises this CPU's slow paths */
	st_spinlock_t pair_lock;	/* emulated cmpxchg of ft */
	unsigned int cpu;		/* its index in cpu_slab[] */
#ifdef CONFIG_SLUB_STATS
	unsigned long stat[NR_SLUB_STAT_ITEMS];
#endif
} __attribute__((aligned(ST_CACHE_LINE)));
#endif

struct kmem_cache_node {
	st_spinlock_t list_lock;
	unsigned long nr_partial;
	struct list_head partial;
	long nr_slabs;
	long total_objects;
#ifdef CONFIG_SLUB_DEBUG
	struct list_head full;		/* full slabs of debug caches */
#endif
#ifdef ST_SLUB_SHEAVES
	struct node_barn barn;
#endif
};

struct st_kobj;

struct kmem_cache {
#ifdef ST_SLUB_SHEAVES
	struct slub_percpu_sheaves cpu_sheaves[CONFIG_NR_CPUS];
	unsigned int sheaf_capacity;	/* 0: no sheaves, the slab paths */
#elif !defined(CONFIG_SLUB_TINY)
	struct kmem_cache_cpu cpu_slab[CONFIG_NR_CPUS];
#endif
	/* what the fast paths read, in one cache line */
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	unsigned long random;
	unsigned long block_mask;	/* ~(bytes in a slab of s->order - 1) */
#endif
	slab_flags_t flags;
	unsigned long min_partial;
	unsigned int size;		/* object size including metadata */
	unsigned int object_size;	/* object size without metadata */
	unsigned int offset;		/* free pointer offset */
	unsigned int inuse;		/* offset to metadata */
	unsigned int align;
	unsigned int red_left_pad;
	unsigned int order;
	unsigned int objects;		/* objects per slab */
	unsigned int min_objects;	/* in a minimal (fallback) slab */
#ifdef CONFIG_SLUB_CPU_PARTIAL
	unsigned int cpu_partial_slabs;
#endif
	int refcount;
	void (*ctor)(void *);
	const char *name;
	struct list_head list;
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	unsigned int *random_seq;
#endif
#ifdef SLAB_SUPPORTS_SYSFS
	struct st_kobj *kobj;
#endif
	struct kmem_cache_node node;
};

/* The per-CPU statistics of @s on @cpu. */
#ifdef ST_SLUB_SHEAVES
#define slub_cpu_stats(s, cpu)	((s)->cpu_sheaves[cpu].stat)
#else
#define slub_cpu_stats(s, cpu)	((s)->cpu_slab[cpu].stat)
#endif

/* Internal flags above the public ones. */
#define __OBJECT_POISON		0x80000000u	/* poison the object */
#define SLAB_KMALLOC		0x00001000u
#define SLAB_DEBUG_FLAGS	(SLAB_RED_ZONE | SLAB_POISON | SLAB_STORE_USER | \
				 SLAB_CONSISTENCY_CHECKS)

extern st_spinlock_t st_slab_mutex;
extern struct list_head st_slab_caches;

/* Counters for introspection (slub.c). */
struct slub_counts {
	unsigned long slabs, partial, cpu_slabs, cpu_partial;
	unsigned long objects, free, partial_free;
	unsigned long sheaves, sheaf_objects;	/* in CPUs' and barn sheaves */
};
void st_slub_count(struct kmem_cache *s, struct slub_counts *c);
unsigned long st_slub_stat_sum(struct kmem_cache *s, int item);
extern const char *const st_slub_stat_names[NR_SLUB_STAT_ITEMS];
int st_slub_shrink(struct kmem_cache *s);

#endif
