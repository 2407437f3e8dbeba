/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_SLAB_PRIV_H
#define ST_SLAB_PRIV_H

/*
 * Shared between the files of lib/slab/ only. Names with external linkage
 * start with st_ (they live in the per-variant static library).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "slab.h"

#ifndef CONFIG_NR_CPUS
#define CONFIG_NR_CPUS 1
#endif
#ifndef CONFIG_PAGE_ARENA_MB
#define CONFIG_PAGE_ARENA_MB 64
#endif

#if defined(CONFIG_SYSFS) && defined(CONFIG_SLUB) && !defined(CONFIG_SLUB_TINY)
#define SLAB_SUPPORTS_SYSFS
#endif

/* Linux 7.0's SLUB: per-CPU sheaves; under SLUB_TINY their capacity is 0. */
#if defined(CONFIG_SLUB_SHEAVES) && defined(CONFIG_SLUB) && !defined(CONFIG_SLUB_TINY)
#define ST_SLUB_SHEAVES 1
#endif

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline	inline __attribute__((always_inline))
#endif
#define noinline	__attribute__((noinline))
#define ALIGN(x, a)	(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ST_CACHE_LINE	64

/*
 * SLUB forces its fast paths inline; SLUB_TINY trades that speed for code
 * size (the series' "don't aggressively inline" patch).
 */
#ifndef CONFIG_SLUB_TINY
#define __fastpath_inline __always_inline
#else
#define __fastpath_inline
#endif

/* ------------------------------------------------------------------ */
/* Locks: a spinning byte lock built on the compiler's atomics, so the */
/* library needs no pthreads. Without SMP they compile to nothing.     */

typedef struct {
	unsigned char v;
} st_spinlock_t;

#ifdef CONFIG_SMP
void st_cpu_relax_slow(unsigned int *spins);

static inline void spin_lock(st_spinlock_t *l)
{
	unsigned int spins = 0;

	while (__atomic_test_and_set(&l->v, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			st_cpu_relax_slow(&spins);
	}
}

static inline void spin_unlock(st_spinlock_t *l)
{
	__atomic_clear(&l->v, __ATOMIC_RELEASE);
}

static inline bool spin_trylock(st_spinlock_t *l)
{
	return !__atomic_load_n(&l->v, __ATOMIC_RELAXED) &&
	       !__atomic_test_and_set(&l->v, __ATOMIC_ACQUIRE);
}

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define stat_add(x, v)		__atomic_fetch_add(&(x), (v), __ATOMIC_RELAXED)
#else
static inline void spin_lock(st_spinlock_t *l) { (void)l; }
static inline void spin_unlock(st_spinlock_t *l) { (void)l; }
static inline bool spin_trylock(st_spinlock_t *l) { (void)l; return true; }
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))
#define stat_add(x, v)		((x) += (v))
#endif

/* ------------------------------------------------------------------ */
/* Intrusive doubly linked list.                                       */

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void __list_link(struct list_head *n, struct list_head *prev,
			       struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *h)
{
	__list_link(n, h, h->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	__list_link(n, h->prev, h);
}

static inline void list_del(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n;
	n->prev = n;
}

#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
#define list_entry(p, type, member) container_of(p, type, member)

/* ------------------------------------------------------------------ */
/* Two words updated together: SLUB's freelist + tid and freelist +    */
/* counters. Native double-word CAS where the target has one, else an  */
/* emulation with a lock as the kernel does without cmpxchg_double.    */

#if (__SIZEOF_POINTER__ == 8 && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)) || \
	(__SIZEOF_POINTER__ == 4 && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_8))
#define ST_HAVE_CMPXCHG_DOUBLE 1
#if __SIZEOF_POINTER__ == 8
typedef unsigned __int128 st_dword_t;
#else
typedef uint64_t st_dword_t;
#endif
#endif

struct st_pair {
	union {
		struct {
			void *first;		/* a freelist */
			unsigned long second;	/* tid or counters */
		};
#ifdef ST_HAVE_CMPXCHG_DOUBLE
		st_dword_t full;
#endif
	};
} __attribute__((aligned(2 * sizeof(void *))));

#if defined(CONFIG_SMP) && defined(ST_HAVE_CMPXCHG_DOUBLE)
static inline bool pair_cmpxchg(struct st_pair *p, st_spinlock_t *lock,
				void *o1, unsigned long o2,
				void *n1, unsigned long n2)
{
	struct st_pair o = { .first = o1, .second = o2 };
	struct st_pair n = { .first = n1, .second = n2 };

	(void)lock;
	return __sync_bool_compare_and_swap(&p->full, o.full, n.full);
}
#else
static inline bool pair_cmpxchg(struct st_pair *p, st_spinlock_t *lock,
				void *o1, unsigned long o2,
				void *n1, unsigned long n2)
{
	bool ok = false;

	spin_lock(lock);
	if (p->first == o1 && p->second == o2) {
		WRITE_ONCE(p->first, n1);
		WRITE_ONCE(p->second, n2);
		ok = true;
	}
	spin_unlock(lock);
	return ok;
}
#endif

/* ------------------------------------------------------------------ */
/* Restartable sequences: SLUB's per-CPU fast path on x86_64 Linux     */
/* with glibc (2.35+ registers an rseq area for every thread). A       */
/* critical section runs on one CPU and is restarted (aborted) by the  */
/* kernel if the thread is preempted, migrated or signalled before its */
/* last store, so it needs no atomic instruction: the per-CPU freelist */
/* and tid are compared and replaced with plain loads and stores.      */
/* Everywhere else (other arches and libcs, ThreadSanitizer builds,    */
/* ST_SLAB_NO_RSEQ) the double-word cmpxchg stays.                     */

#if defined(CONFIG_SLUB) && !defined(CONFIG_SLUB_TINY) && defined(CONFIG_SMP) && \
	!defined(ST_SLUB_SHEAVES) && \
	defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__) && \
	!defined(ST_SLAB_NO_RSEQ) && !defined(__SANITIZE_THREAD__) && \
	__has_include(<sys/rseq.h>)
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ST_SLAB_NO_RSEQ_TSAN 1
#endif
#endif
#ifndef ST_SLAB_NO_RSEQ_TSAN
#define ST_SLAB_RSEQ 1
#endif
#endif

/* Which fast path the library uses (st_slab_fastpath()). */
extern bool st_slab_rseq;
void st_rseq_init(void);

#ifdef ST_SLAB_RSEQ
#include <stddef.h>
#include <sys/rseq.h>

/*
 * glibc's __rseq_offset, copied by st_rseq_init(): hidden, so that the
 * fast paths load it directly and not through the GOT.
 */
extern long st_rseq_off __attribute__((visibility("hidden")));

/* This thread's CPU as its rseq area says; negative if not registered. */
static __always_inline int st_rseq_cpu_id(void)
{
	int cpu;

	__asm__ __volatile__("movl %%fs:4(%1), %0"
			     : "=r"(cpu) : "r"(st_rseq_off));
	return cpu;
}

/*
 * On CPU @cpu only: if @p is (@o1, @o2), store @n2 into its second word
 * and, as the commit, @n1 into its first. True when done; false when the
 * values differ, the thread is on another CPU, or the kernel aborted the
 * section (preemption, migration, signal): the caller starts over.
 * The descriptor goes to the __rseq_cs section, the abort handler (behind
 * glibc's signature, RSEQ_SIG) to __rseq_failure.
 */
static __always_inline bool st_rseq_pair_commit(int cpu, struct st_pair *p,
						void *o1, unsigned long o2,
						void *n1, unsigned long n2)
{
	__asm__ __volatile__ goto(
		".pushsection __rseq_cs, \"aw\"\n\t"
		".balign 32\n\t"
		"3:\n\t"
		".long 0x0, 0x0\n\t"			/* version, flags */
		".quad 1f, (2f - 1f), 4f\n\t"		/* start, length, abort */
		".popsection\n\t"
		"leaq 3b(%%rip), %%rax\n\t"
		"movq %%rax, %%fs:8(%[off])\n\t"	/* rseq->rseq_cs */
		"1:\n\t"
		"cmpl %[cpu], %%fs:4(%[off])\n\t"	/* rseq->cpu_id */
		"jnz %l[fail]\n\t"
		"cmpq %[o2], %[second]\n\t"
		"jnz %l[fail]\n\t"
		"cmpq %[o1], %[first]\n\t"
		"jnz %l[fail]\n\t"
		"movq %[n2], %[second]\n\t"
		"movq %[n1], %[first]\n\t"		/* the commit */
		"2:\n\t"
		".pushsection __rseq_failure, \"ax\"\n\t"
		".byte 0x0f, 0xb9, 0x3d\n\t"		/* ud1 with ... */
		".long 0x53053053\n\t"		/* ... RSEQ_SIG */
		"4:\n\t"
		"jmp %l[fail]\n\t"
		".popsection\n\t"
		:
		: [off] "r"(st_rseq_off), [cpu] "r"(cpu),
		  [first] "m"(p->first), [second] "m"(p->second),
		  [o1] "r"(o1), [o2] "r"(o2), [n1] "r"(n1), [n2] "r"(n2)
		: "memory", "cc", "rax"
		: fail);
	return true;
fail:
	return false;
}

/* Abort every critical section running on @cpu now: 0 or -errno. */
int st_rseq_fence(int cpu);
#endif

/* ------------------------------------------------------------------ */
/* Page descriptors: one per arena page, outside the arena, like the   */
/* kernel's memmap (not counted as slab memory, as in the kernel).     */

enum {
	PG_head		= 1u << 0,	/* first page of an allocated block */
	PG_tail		= 1u << 1,	/* other pages of it */
	PG_slab		= 1u << 3,	/* a slab (SLUB) or SLOB page */
	PG_large	= 1u << 4,	/* large kmalloc() */
	PG_cache_large	= 1u << 5,	/* SLOB: kmem_cache_alloc() >= page */
	PG_reclaim	= 1u << 7,	/* SLAB_RECLAIM_ACCOUNT slab */
};

/* slab->counters: inuse:16 objects:15 frozen:1, as the kernel packs it */
#define CNT_INUSE(c)	((unsigned int)((c) & 0xffff))
#define CNT_OBJECTS(c)	((unsigned int)(((c) >> 16) & 0x7fff))
#define CNT_FROZEN(c)	((unsigned int)(((c) >> 31) & 1))
#define CNT_MAKE(inuse, objects, frozen) \
	((unsigned long)(inuse) | ((unsigned long)(objects) << 16) | \
	 ((unsigned long)(frozen) << 31))

/*
 * flags only change while the page is allocated or freed, so lock-free
 * readers (kfree) see them stable; list membership, which changes under
 * a list lock, is kept apart in on_list. buddy and order belong to the
 * page allocator: written under its zone lock only, so that the buddy
 * check of a free never reads a byte the owner of a page is writing.
 */
struct slab {
	unsigned int flags;
	unsigned char order;
	unsigned char buddy;		/* first page of a free buddy block */
	unsigned char on_list;		/* SLUB node partial / SLOB free list */
	st_spinlock_t lock;		/* emulated cmpxchg of fc */
	struct slab *head;		/* for tail pages: the first page */
	/* a block is on one list at most, and a large kmalloc on none */
	union {
		struct list_head slab_list;	/* buddy, partial or SLOB list */
		struct {
			struct slab *next;	/* SLUB per-CPU partial chain */
			unsigned int slabs;	/* slabs in it from here */
		};
		size_t large_size;	/* large kmalloc: requested size */
	};
	struct kmem_cache *slab_cache;
	int units;			/* SLOB: free units in the page */
	struct st_pair fc;		/* freelist + counters */
} __attribute__((aligned(ST_CACHE_LINE)));	/* one line, as the kernel's */
_Static_assert(sizeof(struct slab) == ST_CACHE_LINE, "struct slab: one cache line");

#define slab_freelist(sl)	((sl)->fc.first)
#define slab_counters(sl)	((sl)->fc.second)

/* page.c */
void *st_alloc_pages(unsigned int order, bool zero);
void st_free_pages(void *addr);
void *st_slab_address(const struct slab *slab);
void st_page_account_slab(struct slab *slab, long pages, bool reclaim);
void st_page_account_large(long pages);
unsigned int st_get_order(size_t size);
int st_page_init(void);
void st_page_exit(void);
bool st_page_inited(void);

/* Reports and per-thread CPU. */
void st_slab_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A pseudo-random number (freelist randomisation, hardening secret). */
unsigned long st_slab_random(void);
extern unsigned long st_slab_event_clock;

/* slab_common.c */
/* 8, 16, 32, 64, 96, 128, 192, then powers of two to the maximum */
#define ST_NR_KMALLOC_SIZES	KMALLOC_SHIFT_HIGH
extern const unsigned int st_kmalloc_sizes[ST_NR_KMALLOC_SIZES];
extern const unsigned int st_nr_kmalloc_sizes;
extern unsigned int st_slub_max_order;
extern unsigned int st_slub_min_objects;
extern bool st_slab_nomerge;
extern bool st_slub_debug_param;
int st_slab_lazy_init(void);

/* The allocator core (slub.c or slob.c). */
int st_allocator_init(void);
void st_allocator_exit(void);
void *st_kmalloc_node(size_t size, gfp_t flags, unsigned long caller);
void st_kfree_caller(const void *obj, unsigned long caller);
size_t st_ksize(const void *obj);
/* Return the object size bounds for krealloc: usable size of @obj. */

/* Introspection (slub_sysfs.c), only with SLAB_SUPPORTS_SYSFS. */
int st_sysfs_add_cache(struct kmem_cache *s);
int st_sysfs_add_alias(struct kmem_cache *s, const char *name);
void st_sysfs_remove_cache(struct kmem_cache *s);
void st_sysfs_init_done(void);
void st_sysfs_exit(void);

/*
 * The hot helpers of every kmalloc() and kfree(), inline so that the fast
 * paths make no call (the kernel's are inline too).
 */

/* The arena as page.c maps it: what virt_to_slab() needs. */
struct st_pagemap {
	char *base;
	struct slab *memmap;		/* one descriptor per arena page */
	unsigned long nr;		/* pages in the arena */
};
extern struct st_pagemap st_pagemap;

/* The head page of the block @addr is in, or NULL if none is allocated. */
static __always_inline struct slab *st_virt_to_slab(const void *addr)
{
	/* below the arena, this wraps around to a huge page number */
	uintptr_t pfn = ((uintptr_t)addr - (uintptr_t)st_pagemap.base) >> ST_PAGE_SHIFT;
	struct slab *slab;

	if (unlikely(pfn >= st_pagemap.nr))
		return NULL;
	slab = &st_pagemap.memmap[pfn];
	if (slab->flags & PG_tail)
		slab = slab->head;
	if (unlikely(!(slab->flags & PG_head)))
		return NULL;
	return slab;
}

/* This thread's CPU: the real one with rseq, else one handed out per thread. */
#ifdef CONFIG_SMP
/* initial-exec: one %fs-relative load, no __tls_get_addr() call */
extern _Thread_local unsigned int st_this_cpu_plus1
	__attribute__((tls_model("initial-exec")));
unsigned int st_this_cpu_slow(void);

static __always_inline unsigned int st_this_cpu(void)
{
	unsigned int c;

#ifdef ST_SLAB_RSEQ
	if (likely(st_slab_rseq)) {
		int cpu = st_rseq_cpu_id();

		return cpu >= 0 ? (unsigned int)cpu : 0;
	}
#endif
	c = st_this_cpu_plus1;
	if (likely(c))
		return c - 1;
	return st_this_cpu_slow();
}
#else
static __always_inline unsigned int st_this_cpu(void)
{
	return 0;
}
#endif

/*
 * Index into st_kmalloc_sizes for a kmalloc() of @size, or -1. Up to 192
 * bytes the kernel's size_index table, which routes 65..96 and 129..192
 * to the two non-power-of-two classes; then powers of two from index 7.
 */
static __always_inline int st_kmalloc_index(size_t size)
{
	static const unsigned char size_index[24] = {
		0, 1, 2, 2, 3, 3, 3, 3,		/*   8 ..  64 */
		4, 4, 4, 4,			/*  72 ..  96 */
		5, 5, 5, 5,			/* 104 .. 128 */
		6, 6, 6, 6, 6, 6, 6, 6,		/* 136 .. 192 */
	};
	unsigned int i;

	if (likely(size <= 192))
		return size ? size_index[(size - 1) / 8] : 0;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return -1;
	for (i = 7; st_kmalloc_sizes[i] < size; i++)
		;
	return (int)i;
}

/* Set once the allocator is up: kmalloc() checks it inline. */
extern bool st_slab_ready;

#endif
