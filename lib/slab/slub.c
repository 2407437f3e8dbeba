// SPDX-License-Identifier: GPL-2.0-only
/*
 * SLUB and SLUB_TINY.
 *
 * A cache hands out objects from slabs (blocks of 2^order pages). Each
 * emulated CPU owns one slab at a time and allocates from, and frees to,
 * its freelist without a lock: the freelist pointer and a transaction id
 * are replaced together by a double-word cmpxchg, so an interleaved slow
 * path (which bumps the tid) makes a fast path retry. Slabs that are
 * neither full nor owned by a CPU sit on per-CPU partial lists
 * (SLUB_CPU_PARTIAL) or on the node partial list, which keeps up to
 * min_partial empty slabs around. Frees to slabs not owned by the freeing
 * CPU update the slab's own freelist and counters with a double-word
 * cmpxchg and take the node lock only when a list has to change.
 *
 * SLUB_TINY removes the per-CPU layer: every allocation and free takes
 * the node list lock and works on one object (the path debug caches use
 * in SLUB too), empty slabs are freed at once, the slab order limit is 1,
 * and debugging, statistics, introspection and the kmalloc-rcl caches are
 * compiled out.
 *
 * SLUB_SHEAVES is the SLUB of Linux 7.0 ("sheaves for all"): the per-CPU
 * slab, its fast path and the per-CPU partial slabs give way to per-CPU
 * arrays of object pointers (a main and a spare sheaf, under a per-CPU
 * lock), exchanged whole with a per-node barn; a sheaf is refilled from
 * and flushed to the slabs in bulk, and what remains of the slab layer is
 * the node partial list and the lockless frees to a slab's freelist.
 * Under SLUB_TINY the sheaf capacity is 0 and the TINY paths stay.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "slab_priv.h"

#ifdef CONFIG_SLUB
#include "slub_def.h"

#ifdef CONFIG_SLUB_TINY
#define MIN_PARTIAL 0
#define MAX_PARTIAL 0
#else
#define MIN_PARTIAL 5
#define MAX_PARTIAL 10
#endif
#define MAX_OBJS_PER_PAGE	32767
/* Internal: this allocation may not allocate a sheaf (bounds recursion). */
#define __GFP_NO_SHEAF		0x40000000u
#define ARCH_SLAB_MINALIGN	8u

/* Debug fill values (the kernel's poison.h values). */
#define SLUB_RED_INACTIVE	0xbb
#define SLUB_RED_ACTIVE		0xcc
#define POISON_INUSE		0x5a
#define POISON_FREE		0x6b
#define POISON_END		0xa5

st_spinlock_t st_slab_mutex;
struct list_head st_slab_caches = { &st_slab_caches, &st_slab_caches };

static struct kmem_cache boot_kmem_cache;
static struct kmem_cache *kmem_cache;	/* the cache of struct kmem_cache */

enum kmalloc_cache_type {
	KMALLOC_NORMAL,
#ifndef CONFIG_SLUB_TINY
	KMALLOC_RECLAIM,
#else
	KMALLOC_RECLAIM = KMALLOC_NORMAL,	/* no kmalloc-rcl-* caches */
#endif
	NR_KMALLOC_TYPES
};
static struct kmem_cache *kmalloc_caches[NR_KMALLOC_TYPES][ST_NR_KMALLOC_SIZES];
static bool kmalloc_ready __attribute__((unused));

#ifdef CONFIG_SLUB_DEBUG
#ifdef CONFIG_SLUB_DEBUG_ON
static bool slub_debug_on = true;
#else
static bool slub_debug_on;
#endif
static inline bool kmem_cache_debug(const struct kmem_cache *s)
{
	return s->flags & SLAB_DEBUG_FLAGS;
}
#else
static inline bool kmem_cache_debug(const struct kmem_cache *s)
{
	(void)s;
	return false;
}
#endif

/* Caches that work on the node list one object at a time. */
static inline bool single_object_path(const struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_TINY
	(void)s;
	return true;
#else
	return kmem_cache_debug(s);
#endif
}

static inline bool kmem_cache_has_cpu_partial(const struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_CPU_PARTIAL
	return !kmem_cache_debug(s);
#else
	(void)s;
	return false;
#endif
}

#ifdef CONFIG_SLUB_STATS
static inline void stat(struct kmem_cache *s, enum stat_item si)
{
	stat_add(slub_cpu_stats(s, st_this_cpu())[si], 1);
}

const char *const st_slub_stat_names[NR_SLUB_STAT_ITEMS] = {
	"alloc_fastpath", "alloc_slowpath", "free_fastpath", "free_slowpath",
	"free_frozen", "free_add_partial", "free_remove_partial",
	"alloc_from_partial", "alloc_slab", "alloc_refill",
	"alloc_node_mismatch", "free_slab", "cpuslab_flush",
	"deactivate_full", "deactivate_empty", "deactivate_to_head",
	"deactivate_to_tail", "deactivate_remote_frees", "deactivate_bypass",
	"order_fallback", "cmpxchg_double_cpu_fail", "cmpxchg_double_fail",
	"cpu_partial_alloc", "cpu_partial_free", "cpu_partial_node",
	"cpu_partial_drain",
#ifdef ST_SLUB_SHEAVES
	"alloc_cpu_sheaf", "free_cpu_sheaf", "sheaf_flush", "sheaf_refill",
	"sheaf_alloc", "sheaf_free", "barn_get", "barn_get_fail", "barn_put",
	"barn_put_fail",
#endif
};

unsigned long st_slub_stat_sum(struct kmem_cache *s, int item)
{
	unsigned long sum = 0;
	int cpu;

	for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++)
		sum += READ_ONCE(slub_cpu_stats(s, cpu)[item]);
	return sum;
}

static inline void __attribute__((unused))
stat_n(struct kmem_cache *s, enum stat_item si, unsigned int n)
{
	stat_add(slub_cpu_stats(s, st_this_cpu())[si], n);
}
#else
#define stat(s, si) do { (void)(s); } while (0)
#define stat_n(s, si, n) do { (void)(s); (void)(n); } while (0)
#endif

int st_kmem_cache_stat(struct kmem_cache *s, const char *name,
		       unsigned long *val)
{
#ifdef CONFIG_SLUB_STATS
	int i;

	for (i = 0; i < NR_SLUB_STAT_ITEMS; i++) {
		if (!strcmp(name, st_slub_stat_names[i])) {
			*val = st_slub_stat_sum(s, i);
			return 0;
		}
	}
	return -ENOENT;
#else
	(void)s;
	(void)name;
	(void)val;
	return -ENOSYS;
#endif
}

/* ------------------------------------------------------------------ */
/* Free pointers                                                       */

static inline void *slab_base(const struct slab *slab)
{
	return st_slab_address(slab);
}

/* Is @p the start of an object of @slab (or NULL)? */
static __attribute__((unused)) bool check_valid_pointer(const struct kmem_cache *s,
				const struct slab *slab, const void *p)
{
	const char *base;
	unsigned long off;

	if (!p)
		return true;
	base = slab_base(slab);
	if ((const char *)p < base)
		return false;
	off = (unsigned long)((const char *)p - base);
	if (off >= (unsigned long)CNT_OBJECTS(slab_counters(slab)) * s->size)
		return false;
	return off % s->size == s->red_left_pad;
}

#ifdef CONFIG_SLAB_FREELIST_HARDENED
static inline unsigned long swab_long(unsigned long x)
{
#if __SIZEOF_LONG__ == 8
	return __builtin_bswap64(x);
#else
	return __builtin_bswap32(x);
#endif
}

/* The stored value: pointer ^ per-cache secret ^ byte-swapped location. */
static inline unsigned long freelist_encode(const struct kmem_cache *s,
					    void *ptr, unsigned long addr)
{
	return (unsigned long)ptr ^ s->random ^ swab_long(addr);
}
#define freelist_decode(s, v, addr) ((void *)freelist_encode(s, (void *)(v), addr))
#else
#define freelist_encode(s, ptr, addr) ((unsigned long)(ptr))
#define freelist_decode(s, v, addr) ((void *)(v))
#endif

static inline unsigned long *freeptr_addr(const struct kmem_cache *s, void *obj)
{
	return (unsigned long *)((char *)obj + s->offset);
}

static noinline __attribute__((unused)) void freelist_corrupted(struct kmem_cache *s, void *obj,
					void *fp)
{
	st_slab_report("BUG %s: Freepointer corrupt\n"
		       "INFO: object %p has free pointer %p outside its slab\n"
		       "FIX %s: Isolate the rest of the freelist (objects are leaked)\n",
		       s->name, obj, fp, s->name);
}

/* Follow the free pointer of @obj, checking it when hardened. */
static inline void *get_freepointer(struct kmem_cache *s, void *obj)
{
	unsigned long *a = freeptr_addr(s, obj);
	void *fp = freelist_decode(s, READ_ONCE(*a), (unsigned long)a);

#ifdef CONFIG_SLAB_FREELIST_HARDENED
	if (unlikely(!check_valid_pointer(s, st_virt_to_slab(obj), fp))) {
		freelist_corrupted(s, obj, fp);
		return NULL;
	}
#endif
	return fp;
}

static inline void set_freepointer(struct kmem_cache *s, void *obj, void *fp)
{
	unsigned long *a = freeptr_addr(s, obj);

	WRITE_ONCE(*a, freelist_encode(s, fp, (unsigned long)a));
}

#ifdef CONFIG_SLAB_FREELIST_HARDENED
static noinline bool report_double_free(struct kmem_cache *s, void *obj)
{
	st_slab_report("BUG %s: Double free detected\n"
		       "INFO: object %p freed while at the freelist head; not freed\n",
		       s->name, obj);
	return true;
}

/*
 * The naive double-free check of freelist hardening: @obj is already the
 * head of the freelist @head it is going to. The kernel stops there
 * (BUG_ON); here the free is refused, which leaves the freelist intact.
 */
#define double_free(s, obj, head) \
	(unlikely((obj) == (head)) && report_double_free(s, obj))
#else
#define double_free(s, obj, head) false
#endif

/* Object @idx of @slab. */
static inline void *slab_object(const struct kmem_cache *s,
				const struct slab *slab, unsigned int idx)
{
	return (char *)slab_base(slab) + (size_t)idx * s->size + s->red_left_pad;
}

/* ------------------------------------------------------------------ */
/* SLUB_DEBUG: red zones, poison, owner tracking, consistency checks.  */

#ifdef CONFIG_SLUB_DEBUG
struct track {
	unsigned long addr;	/* caller */
	unsigned long when;	/* event clock */
	unsigned int cpu;
};

enum track_item { TRACK_ALLOC, TRACK_FREE };

static inline unsigned int get_info_end(const struct kmem_cache *s)
{
	if (s->offset >= s->inuse)
		return s->inuse + sizeof(void *);
	return s->inuse;
}

static struct track *get_track(const struct kmem_cache *s, void *obj,
			       enum track_item alloc)
{
	return (struct track *)((char *)obj + get_info_end(s)) + alloc;
}

static void set_track(struct kmem_cache *s, void *obj, enum track_item alloc,
		      unsigned long addr)
{
	struct track *t;

	if (!(s->flags & SLAB_STORE_USER))
		return;
	t = get_track(s, obj, alloc);
	t->addr = addr;
	t->cpu = st_this_cpu();
	t->when = stat_add(st_slab_event_clock, 1);
}

static void init_tracking(struct kmem_cache *s, void *obj)
{
	if (s->flags & SLAB_STORE_USER)
		memset(get_track(s, obj, TRACK_ALLOC), 0, 2 * sizeof(struct track));
}

/*
 * kmalloc caches with red zones and owner tracking keep the requested
 * size of each object after the tracks, and red-zone the rest of the
 * object (the kernel's kmalloc redzone, 6.1+).
 */
static inline bool slub_debug_orig_size(const struct kmem_cache *s)
{
	return (s->flags & (SLAB_KMALLOC | SLAB_RED_ZONE | SLAB_STORE_USER)) ==
	       (SLAB_KMALLOC | SLAB_RED_ZONE | SLAB_STORE_USER);
}

static unsigned int *orig_size_addr(const struct kmem_cache *s, void *obj)
{
	return (unsigned int *)((char *)obj + get_info_end(s) +
				2 * sizeof(struct track));
}

static void set_orig_size(struct kmem_cache *s, void *obj, unsigned int size)
{
	if (slub_debug_orig_size(s))
		*orig_size_addr(s, obj) = size;
}

static unsigned int get_orig_size(struct kmem_cache *s, void *obj)
{
	if (!slub_debug_orig_size(s))
		return s->object_size;
	return *orig_size_addr(s, obj);
}

static void init_object(struct kmem_cache *s, void *obj, unsigned char val)
{
	unsigned char *p = obj;
	unsigned int poison_size = s->object_size;

	if (s->flags & SLAB_RED_ZONE) {
		memset(p - s->red_left_pad, val, s->red_left_pad);
		/* an allocated kmalloc object: red zone from its requested size */
		if (val == SLUB_RED_ACTIVE)
			poison_size = get_orig_size(s, obj);
	}
	if (s->flags & __OBJECT_POISON) {
		memset(p, POISON_FREE, poison_size - 1);
		p[poison_size - 1] = POISON_END;
	}
	if (s->flags & SLAB_RED_ZONE)
		memset(p + poison_size, val, s->inuse - poison_size);
}

static const unsigned char *check_bytes(const unsigned char *p,
					unsigned char v, size_t n)
{
	while (n--) {
		if (*p != v)
			return p;
		p++;
	}
	return NULL;
}

struct dbg_report {
	char buf[2048];
	size_t len;
};

static void __attribute__((format(printf, 2, 3)))
rpt(struct dbg_report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->len >= sizeof(r->buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, sizeof(r->buf) - r->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		r->len += (size_t)n;
}

static void rpt_track(struct dbg_report *r, struct kmem_cache *s, void *obj)
{
	static const char *const what[] = { "Allocated", "Freed" };
	int i;

	if (!(s->flags & SLAB_STORE_USER))
		return;
	for (i = 0; i < 2; i++) {
		struct track *t = get_track(s, obj, (enum track_item)i);

		if (t->addr)
			rpt(r, "INFO: %s in 0x%lx age=%lu cpu=%u\n", what[i],
			    t->addr, st_slab_event_clock - t->when, t->cpu);
	}
}

/* Print the "BUG" block for @obj of @s and hand it to the report sink. */
static noinline void object_err(struct kmem_cache *s, struct slab *slab,
				void *obj, const char *reason,
				const unsigned char *fault, unsigned char expect)
{
	struct dbg_report r = { .len = 0 };
	unsigned int i;

	rpt(&r, "=============================================================================\n");
	rpt(&r, "BUG %s (Not tainted): %s\n", s->name, reason);
	rpt(&r, "-----------------------------------------------------------------------------\n");
	if (fault)
		rpt(&r, "%p @offset=%ld. First byte 0x%x instead of 0x%x\n",
		    (const void *)fault, (long)(fault - (unsigned char *)obj),
		    *fault, expect);
	rpt_track(&r, s, obj);
	if (slab)
		rpt(&r, "Slab %p objects=%u used=%u fp=%p\n", slab_base(slab),
		    CNT_OBJECTS(slab_counters(slab)),
		    CNT_INUSE(slab_counters(slab)), slab_freelist(slab));
	rpt(&r, "Object %p:", obj);
	for (i = 0; i < 16 && i < s->object_size; i++)
		rpt(&r, " %02x", ((unsigned char *)obj)[i]);
	rpt(&r, "\n");
	st_slab_report("%s", r.buf);
}

/* Check one zone; on damage report it and restore the expected bytes. */
static bool check_bytes_and_report(struct kmem_cache *s, struct slab *slab,
				   void *obj, const char *what,
				   unsigned char *start, unsigned char v,
				   size_t n)
{
	const unsigned char *fault = check_bytes(start, v, n);

	if (!fault)
		return true;
	object_err(s, slab, obj, what, fault, v);
	memset(start, v, n);
	return false;
}

/* Red zones (@val: active or inactive) and, for free objects, poison. */
static bool check_object(struct kmem_cache *s, struct slab *slab, void *obj,
			 unsigned char val)
{
	unsigned char *p = obj;
	bool ok = true;

	if (s->flags & SLAB_RED_ZONE) {
		ok &= check_bytes_and_report(s, slab, obj, "Left Redzone overwritten",
					     p - s->red_left_pad, val, s->red_left_pad);
		ok &= check_bytes_and_report(s, slab, obj, "Right Redzone overwritten",
					     p + s->object_size, val,
					     s->inuse - s->object_size);
		if (val == SLUB_RED_ACTIVE && slub_debug_orig_size(s)) {
			unsigned int orig = get_orig_size(s, obj);

			if (orig < s->object_size)
				ok &= check_bytes_and_report(s, slab, obj,
						"kmalloc Redzone overwritten",
						p + orig, val, s->object_size - orig);
		}
	}
	if (val != SLUB_RED_ACTIVE && (s->flags & __OBJECT_POISON)) {
		ok &= check_bytes_and_report(s, slab, obj, "Poison overwritten",
					     p, POISON_FREE, s->object_size - 1);
		ok &= check_bytes_and_report(s, slab, obj, "Poison overwritten",
					     p + s->object_size - 1, POISON_END, 1);
	}
	return ok;
}

/* Is @search on the freelist of @slab? Called under the node lock. */
static bool on_freelist(struct kmem_cache *s, struct slab *slab, void *search)
{
	unsigned int n = 0, max = CNT_OBJECTS(slab_counters(slab));
	void *fp = slab_freelist(slab);

	while (fp && n <= max) {
		if (fp == search)
			return true;
		if (!check_valid_pointer(s, slab, fp)) {
			object_err(s, slab, fp, "Freechain corrupt", NULL, 0);
			slab_freelist(slab) = NULL;	/* isolate the rest */
			return false;
		}
		fp = get_freepointer(s, fp);
		n++;
	}
	return false;
}

static void setup_object_debug(struct kmem_cache *s, void *obj)
{
	if (!kmem_cache_debug(s))
		return;
	init_object(s, obj, SLUB_RED_INACTIVE);
	init_tracking(s, obj);
}

static void alloc_debug_processing(struct kmem_cache *s, struct slab *slab,
				   void *obj, unsigned long addr,
				   unsigned int orig_size)
{
	if (s->flags & SLAB_CONSISTENCY_CHECKS) {
		if (!check_valid_pointer(s, slab, obj))
			object_err(s, slab, obj, "Freelist Pointer check fails",
				   NULL, 0);
		check_object(s, slab, obj, SLUB_RED_INACTIVE);
	}
	set_track(s, obj, TRACK_ALLOC, addr);
	set_orig_size(s, obj, orig_size);
	init_object(s, obj, SLUB_RED_ACTIVE);
}

/*
 * Checks before an object goes back to its slab; false means it must not
 * be freed (double free, wrong pointer): the report says why.
 */
static bool free_debug_processing(struct kmem_cache *s, struct slab *slab,
				  void *obj, unsigned long addr)
{
	if (s->flags & SLAB_CONSISTENCY_CHECKS) {
		if (!check_valid_pointer(s, slab, obj)) {
			object_err(s, slab, obj, "Invalid object pointer", NULL, 0);
			return false;
		}
		if (on_freelist(s, slab, obj)) {
			object_err(s, slab, obj, "Object already free (double free)",
				   NULL, 0);
			return false;
		}
		check_object(s, slab, obj, SLUB_RED_ACTIVE);
	}
	set_track(s, obj, TRACK_FREE, addr);
	init_object(s, obj, SLUB_RED_INACTIVE);
	return true;
}

static void add_full(struct kmem_cache *s, struct kmem_cache_node *n,
		     struct slab *slab)
{
	if (s->flags & SLAB_STORE_USER)
		list_add(&slab->slab_list, &n->full);
}

static void remove_full(struct kmem_cache *s, struct slab *slab)
{
	if (s->flags & SLAB_STORE_USER)
		list_del(&slab->slab_list);
}

static slab_flags_t kmem_cache_flags(slab_flags_t flags)
{
	if (slub_debug_on || st_slub_debug_param)
		flags |= SLAB_DEBUG_FLAGS;
	return flags;
}
#else /* !CONFIG_SLUB_DEBUG */
static inline void setup_object_debug(struct kmem_cache *s, void *obj)
{
	(void)s;
	(void)obj;
}
static inline void alloc_debug_processing(struct kmem_cache *s,
		struct slab *slab, void *obj, unsigned long addr,
		unsigned int orig_size)
{
	(void)s;
	(void)slab;
	(void)obj;
	(void)addr;
	(void)orig_size;
}
static inline bool slub_debug_orig_size(const struct kmem_cache *s)
{
	(void)s;
	return false;
}
static inline void set_orig_size(struct kmem_cache *s, void *obj,
				 unsigned int size)
{
	(void)s;
	(void)obj;
	(void)size;
}
static inline bool free_debug_processing(struct kmem_cache *s,
		struct slab *slab, void *obj, unsigned long addr)
{
	(void)s;
	(void)slab;
	(void)obj;
	(void)addr;
	return true;
}
static inline void add_full(struct kmem_cache *s, struct kmem_cache_node *n,
			    struct slab *slab)
{
	(void)s;
	(void)n;
	(void)slab;
}
static inline void remove_full(struct kmem_cache *s, struct slab *slab)
{
	(void)s;
	(void)slab;
}
/*
 * Without SLUB_DEBUG the debug flags are dropped, as CACHE_CREATE_MASK
 * does. SLUB_TINY defines SLAB_RECLAIM_ACCOUNT as 0; a caller passing the
 * kernel's value numerically (a replayed trace) gets it ignored too.
 */
static inline slab_flags_t kmem_cache_flags(slab_flags_t flags)
{
#ifdef CONFIG_SLUB_TINY
	flags &= ~(slab_flags_t)0x00020000u;
#endif
	return flags & ~(slab_flags_t)SLAB_DEBUG_FLAGS;
}
#endif /* CONFIG_SLUB_DEBUG */

/* ------------------------------------------------------------------ */
/* Slab allocation from the page allocator                             */

#ifdef CONFIG_SLAB_FREELIST_RANDOM
/* A random permutation of the object indexes, per cache. */
static void init_cache_random_seq(struct kmem_cache *s)
{
	unsigned int i, j, t, n = s->objects;

	if (s->random_seq || n < 2 || !kmalloc_ready)
		return;
	s->random_seq = st_kmalloc_node(n * sizeof(unsigned int), GFP_KERNEL, 0);
	if (!s->random_seq)
		return;
	for (i = 0; i < n; i++)
		s->random_seq[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = (unsigned int)(st_slab_random() % (i + 1));
		t = s->random_seq[i];
		s->random_seq[i] = s->random_seq[j];
		s->random_seq[j] = t;
	}
}

/* Link the objects in the cache's random order from a random start. */
static bool shuffle_freelist(struct kmem_cache *s, struct slab *slab,
			     unsigned int nr)
{
	unsigned int i, pos, cur;
	void *obj, *next;

	if (!s->random_seq || nr != s->objects)
		return false;
	pos = (unsigned int)(st_slab_random() % nr);
	cur = s->random_seq[pos];
	obj = slab_object(s, slab, cur);
	slab_freelist(slab) = obj;
	for (i = 1; i < nr; i++) {
		pos = (pos + 1) % nr;
		next = slab_object(s, slab, s->random_seq[pos]);
		set_freepointer(s, obj, next);
		obj = next;
	}
	set_freepointer(s, obj, NULL);
	return true;
}
#else
static inline void init_cache_random_seq(struct kmem_cache *s) { (void)s; }
static inline bool shuffle_freelist(struct kmem_cache *s, struct slab *slab,
				    unsigned int nr)
{
	(void)s;
	(void)slab;
	(void)nr;
	return false;
}
#endif

static struct slab *new_slab(struct kmem_cache *s, gfp_t flags)
{
	unsigned int order = s->order, nr = s->objects, i;
	struct slab *slab;
	void *addr, *obj;
	bool reclaim = s->flags & SLAB_RECLAIM_ACCOUNT;

	(void)flags;
	addr = st_alloc_pages(order, false);
	if (unlikely(!addr) && order > st_get_order(s->size)) {
		/* Fall back to the smallest order that holds one object. */
		order = st_get_order(s->size);
		nr = (unsigned int)((ST_PAGE_SIZE << order) / s->size);
		addr = st_alloc_pages(order, false);
		stat(s, ORDER_FALLBACK);
	}
	if (unlikely(!addr))
		return NULL;
	slab = st_virt_to_slab(addr);
	slab->flags |= PG_slab | (reclaim ? PG_reclaim : 0);
	slab->slab_cache = s;
	slab_counters(slab) = CNT_MAKE(0, nr, 0);
	st_page_account_slab(slab, 1L << order, reclaim);

#ifdef CONFIG_SLUB_DEBUG
	if (s->flags & SLAB_POISON)
		memset(addr, POISON_INUSE, ST_PAGE_SIZE << order);
#endif
	for (i = 0; i < nr; i++) {
		obj = slab_object(s, slab, i);
		setup_object_debug(s, obj);
		if (s->ctor)
			s->ctor(obj);
	}
	if (!shuffle_freelist(s, slab, nr)) {
		slab_freelist(slab) = slab_object(s, slab, 0);
		for (i = 0; i + 1 < nr; i++)
			set_freepointer(s, slab_object(s, slab, i),
					slab_object(s, slab, i + 1));
		set_freepointer(s, slab_object(s, slab, nr - 1), NULL);
	}
	stat_add(s->node.nr_slabs, 1);
	stat_add(s->node.total_objects, (long)nr);
	return slab;
}

static void discard_slab(struct kmem_cache *s, struct slab *slab)
{
	long pages = 1L << slab->order;

	stat_add(s->node.nr_slabs, -1);
	stat_add(s->node.total_objects, -(long)CNT_OBJECTS(slab_counters(slab)));
	st_page_account_slab(slab, -pages, slab->flags & PG_reclaim);
	stat(s, FREE_SLAB);
	st_free_pages(slab_base(slab));
}

/* Node partial list, under n->list_lock. */
static inline void add_partial(struct kmem_cache_node *n, struct slab *slab,
			       bool tail)
{
	WRITE_ONCE(n->nr_partial, n->nr_partial + 1);	/* read unlocked */
	if (tail)
		list_add_tail(&slab->slab_list, &n->partial);
	else
		list_add(&slab->slab_list, &n->partial);
	slab->on_list = 1;
}

static inline void remove_partial(struct kmem_cache_node *n, struct slab *slab)
{
	list_del(&slab->slab_list);
	slab->on_list = 0;
	WRITE_ONCE(n->nr_partial, n->nr_partial - 1);
}

/* ------------------------------------------------------------------ */
/* The single-object path: SLUB_TINY always, debug caches in SLUB.     */

/* Take one object from @slab under the node lock; unlink it if full. */
static void *alloc_single_from_slab(struct kmem_cache *s,
				    struct kmem_cache_node *n,
				    struct slab *slab, unsigned long addr,
				    unsigned int orig_size, bool on_partial)
{
	void *obj = slab_freelist(slab);
	unsigned long c = slab_counters(slab);
	unsigned int inuse = CNT_INUSE(c) + 1;

	alloc_debug_processing(s, slab, obj, addr, orig_size);
	slab_freelist(slab) = get_freepointer(s, obj);
	slab_counters(slab) = CNT_MAKE(inuse, CNT_OBJECTS(c), 0);
	if (inuse == CNT_OBJECTS(c) || !slab_freelist(slab)) {
		if (on_partial)
			remove_partial(n, slab);
		add_full(s, n, slab);
	} else if (!on_partial) {
		add_partial(n, slab, false);
	}
	return obj;
}

static noinline void *alloc_single(struct kmem_cache *s, gfp_t flags,
				   unsigned long addr, unsigned int orig_size)
{
	struct kmem_cache_node *n = &s->node;
	struct slab *slab;
	void *obj;

	spin_lock(&n->list_lock);
	if (!list_empty(&n->partial)) {
		slab = list_entry(n->partial.next, struct slab, slab_list);
		obj = alloc_single_from_slab(s, n, slab, addr, orig_size, true);
		spin_unlock(&n->list_lock);
		stat(s, ALLOC_FROM_PARTIAL);
		return obj;
	}
	spin_unlock(&n->list_lock);

	slab = new_slab(s, flags);
	if (!slab)
		return NULL;
	stat(s, ALLOC_SLAB);
	spin_lock(&n->list_lock);
	obj = alloc_single_from_slab(s, n, slab, addr, orig_size, false);
	spin_unlock(&n->list_lock);
	return obj;
}

static noinline void free_to_partial_list(struct kmem_cache *s,
					  struct slab *slab, void *obj,
					  unsigned long addr)
{
	struct kmem_cache_node *n = &s->node;
	unsigned long c;
	unsigned int inuse;
	void *prior;
	bool discard = false;

	spin_lock(&n->list_lock);
	if (!free_debug_processing(s, slab, obj, addr)) {
		spin_unlock(&n->list_lock);
		return;
	}
	prior = slab_freelist(slab);
	if (double_free(s, obj, prior)) {
		spin_unlock(&n->list_lock);
		return;
	}
	c = slab_counters(slab);
	inuse = CNT_INUSE(c) - 1;
	set_freepointer(s, obj, prior);
	slab_freelist(slab) = obj;
	slab_counters(slab) = CNT_MAKE(inuse, CNT_OBJECTS(c), 0);

	if (!inuse && n->nr_partial >= s->min_partial) {
		if (prior)
			remove_partial(n, slab);
		else
			remove_full(s, slab);
		discard = true;
		stat(s, FREE_REMOVE_PARTIAL);
	} else if (!prior) {
		remove_full(s, slab);
		add_partial(n, slab, true);
		stat(s, FREE_ADD_PARTIAL);
	}
	spin_unlock(&n->list_lock);
	if (discard)
		discard_slab(s, slab);
}

/* What a free fast path did: freed, or what the caller must do instead. */
enum free_fast {
	FREE_DONE,		/* pushed to the CPU freelist */
	FREE_REMOTE,		/* not the CPU slab's: __slab_free() */
	FREE_SLOW,		/* anything else: slab_free() */
};

#ifndef CONFIG_SLUB_TINY
#ifndef ST_SLUB_SHEAVES
/* ------------------------------------------------------------------ */
/* Per-CPU slabs                                                       */

static __always_inline struct kmem_cache_cpu *this_cpu_slab(struct kmem_cache *s)
{
#ifdef ST_SLAB_RSEQ
	if (likely(st_slab_rseq)) {
		int cpu = st_rseq_cpu_id();

		return &s->cpu_slab[cpu >= 0 ? cpu : 0];
	}
#endif
	return &s->cpu_slab[st_this_cpu()];
}

/*
 * As this_cpu_slab(), for the fast paths: NULL if this thread has no CPU
 * yet (its first slow path hands one out), so that they make no call.
 */
static __always_inline struct kmem_cache_cpu *this_cpu_slab_fast(struct kmem_cache *s)
{
#ifdef ST_SLAB_RSEQ
	if (likely(st_slab_rseq)) {
		int cpu = st_rseq_cpu_id();

		return cpu >= 0 ? &s->cpu_slab[cpu] : NULL;
	}
#endif
#ifdef CONFIG_SMP
	{
		unsigned int c = st_this_cpu_plus1;

		return likely(c) ? &s->cpu_slab[c - 1] : NULL;
	}
#else
	return &s->cpu_slab[0];
#endif
}

/* Transaction ids step by 2; bit 0 set = owned by a slow path. */
#define TID_STEP	2
#define TID_OWNED	1

static inline bool cpu_ft_cmpxchg(struct kmem_cache_cpu *c, void *ofl,
				  unsigned long otid, void *nfl,
				  unsigned long ntid)
{
	return pair_cmpxchg(&c->ft, &c->pair_lock, ofl, otid, nfl, ntid);
}

/*
 * The fast paths' update of @c's freelist and tid: a critical section on
 * @c's CPU with rseq, else the double-word cmpxchg.
 */
static __always_inline bool cpu_ft_commit(struct kmem_cache_cpu *c, void *ofl,
					  unsigned long otid, void *nfl,
					  unsigned long ntid)
{
#ifdef ST_SLAB_RSEQ
	if (likely(st_slab_rseq))
		return st_rseq_pair_commit((int)c->cpu, &c->ft, ofl, otid, nfl, ntid);
#endif
	return cpu_ft_cmpxchg(c, ofl, otid, nfl, ntid);
}

#ifdef ST_SLAB_RSEQ
/*
 * Mark @c owned (odd tid) under rseq. On its CPU that is a critical
 * section like the fast paths'. From another CPU, a cmpxchg sets the bit
 * and a membarrier fence aborts every critical section running on that
 * CPU; one that committed before the fence but after the cmpxchg has
 * stored an even tid, so the claim checks and starts over.
 */
static void cpu_claim_rseq(struct kmem_cache_cpu *c)
{
	unsigned long tid;
	void *fl;

	for (;;) {
		tid = READ_ONCE(c->ft.second);
		fl = READ_ONCE(c->ft.first);
		if (st_rseq_cpu_id() == (int)c->cpu) {
			if (st_rseq_pair_commit((int)c->cpu, &c->ft, fl, tid, fl,
						tid | TID_OWNED))
				return;
			continue;
		}
		if (!__sync_bool_compare_and_swap(&c->ft.second, tid, tid | TID_OWNED))
			continue;
		if (st_rseq_fence((int)c->cpu))
			abort();	/* registered at init: cannot fail */
		if (READ_ONCE(c->ft.second) == (tid | TID_OWNED))
			return;
	}
}
#endif

/*
 * Enter this CPU's slow path: with c->lock held, mark the tid owned so
 * every fast path in flight fails its cmpxchg, and take the freelist.
 */
static void *cpu_claim(struct kmem_cache_cpu *c)
{
	unsigned long tid;
	void *fl;

	spin_lock(&c->lock);
#ifdef ST_SLAB_RSEQ
	if (st_slab_rseq) {
		cpu_claim_rseq(c);
		return READ_ONCE(c->ft.first);
	}
#endif
	do {
		tid = READ_ONCE(c->ft.second);
		fl = READ_ONCE(c->ft.first);
	} while (!cpu_ft_cmpxchg(c, fl, tid, fl, tid | TID_OWNED));
	return fl;
}

/*
 * Leave the slow path publishing a new freelist and a new even tid. The
 * fast paths leave an owned entry alone and read the tid before the
 * freelist, so two ordered stores do, unless the pair's cmpxchg is
 * emulated with pair_lock.
 */
static void cpu_release(struct kmem_cache_cpu *c, void *freelist)
{
	unsigned long tid = READ_ONCE(c->ft.second);

#if !defined(ST_HAVE_CMPXCHG_DOUBLE)
	spin_lock(&c->pair_lock);
#endif
	WRITE_ONCE(c->ft.first, freelist);
	WRITE_ONCE(c->ft.second, (tid | TID_OWNED) + 1);
#if !defined(ST_HAVE_CMPXCHG_DOUBLE)
	spin_unlock(&c->pair_lock);
#endif
	spin_unlock(&c->lock);
}

#endif /* !ST_SLUB_SHEAVES */

static inline bool slab_update_freelist(struct kmem_cache *s,
					struct slab *slab, void *ofl,
					unsigned long ocnt, void *nfl,
					unsigned long ncnt)
{
	if (pair_cmpxchg(&slab->fc, &slab->lock, ofl, ocnt, nfl, ncnt))
		return true;
	stat(s, CMPXCHG_DOUBLE_FAIL);
	return false;
}

#ifndef ST_SLUB_SHEAVES
/*
 * Take the slab's whole freelist for a CPU: all objects count as in use
 * and the slab stays frozen if there was anything, or is unfrozen (full,
 * on no list) if not.
 */
static void *get_freelist(struct kmem_cache *s, struct slab *slab)
{
	unsigned long c;
	void *fl;

	do {
		fl = READ_ONCE(slab_freelist(slab));
		c = READ_ONCE(slab_counters(slab));
	} while (!slab_update_freelist(s, slab, fl, c, NULL,
				       CNT_MAKE(CNT_OBJECTS(c), CNT_OBJECTS(c),
						fl != NULL)));
	return fl;
}

/*
 * Give a CPU slab back: its remaining CPU freelist @fl goes to the slab,
 * which is unfrozen and put on the node partial list, or freed if empty
 * and the node has min_partial slabs, or left alone if full.
 */
static void deactivate_slab(struct kmem_cache *s, struct slab *slab, void *fl)
{
	struct kmem_cache_node *n = &s->node;
	unsigned int count = 0;
	void *tail = NULL, *p, *prior, *nfl;
	unsigned long c, nc;

	for (p = fl; p; p = get_freepointer(s, p)) {
		tail = p;
		count++;
	}
	do {
		prior = READ_ONCE(slab_freelist(slab));
		c = READ_ONCE(slab_counters(slab));
		if (tail) {
			set_freepointer(s, tail, prior);
			nfl = fl;
		} else {
			nfl = prior;
		}
		nc = CNT_MAKE(CNT_INUSE(c) - count, CNT_OBJECTS(c), 0);
	} while (!slab_update_freelist(s, slab, prior, c, nfl, nc));
	if (prior)
		stat(s, DEACTIVATE_REMOTE_FREES);

	if (!CNT_INUSE(nc) && n->nr_partial >= s->min_partial) {
		stat(s, DEACTIVATE_EMPTY);
		discard_slab(s, slab);
	} else if (nfl) {
		spin_lock(&n->list_lock);
		add_partial(n, slab, true);
		spin_unlock(&n->list_lock);
		stat(s, DEACTIVATE_TO_TAIL);
	} else {
		stat(s, DEACTIVATE_FULL);
	}
}

#ifdef CONFIG_SLUB_CPU_PARTIAL
/* Move a chain of per-CPU partial slabs to the node list (or free them). */
static void put_partials(struct kmem_cache *s, struct slab *list)
{
	struct kmem_cache_node *n = &s->node;
	struct slab *slab, *discard = NULL;

	spin_lock(&n->list_lock);
	while ((slab = list)) {
		list = slab->next;
		if (!CNT_INUSE(READ_ONCE(slab_counters(slab))) &&
		    n->nr_partial >= s->min_partial) {
			slab->next = discard;
			discard = slab;
		} else {
			add_partial(n, slab, true);
		}
	}
	spin_unlock(&n->list_lock);
	while ((slab = discard)) {
		discard = slab->next;
		discard_slab(s, slab);
	}
}

/* A full slab got a free object: keep it on this CPU's partial list. */
static void put_cpu_partial(struct kmem_cache *s, struct slab *slab)
{
	struct kmem_cache_cpu *c = this_cpu_slab(s);
	struct slab *old, *drain = NULL;
	unsigned int slabs = 0;

	spin_lock(&c->lock);
	old = c->partial;
	if (old) {
		slabs = old->slabs;
		if (slabs >= s->cpu_partial_slabs) {
			drain = old;
			old = NULL;
			slabs = 0;
		}
	}
	slab->slabs = slabs + 1;
	slab->next = old;
	c->partial = slab;
	spin_unlock(&c->lock);
	if (drain) {
		put_partials(s, drain);
		stat(s, CPU_PARTIAL_DRAIN);
	}
}
#endif

/* Deactivate @cpu's slab and drain its partial list (the kernel's IPI). */
static void flush_cpu_slab(struct kmem_cache *s, unsigned int cpu)
{
	struct kmem_cache_cpu *c = &s->cpu_slab[cpu];
	struct slab *slab;
	void *fl;
#ifdef CONFIG_SLUB_CPU_PARTIAL
	struct slab *partial;
#endif

	fl = cpu_claim(c);
	slab = c->slab;
	WRITE_ONCE(c->slab, NULL);
#ifdef CONFIG_SLUB_CPU_PARTIAL
	partial = c->partial;
	c->partial = NULL;
#endif
	cpu_release(c, NULL);
	if (slab) {
		deactivate_slab(s, slab, fl);
		stat(s, CPUSLAB_FLUSH);
	}
#ifdef CONFIG_SLUB_CPU_PARTIAL
	if (partial)
		put_partials(s, partial);
#endif
}

static void flush_all(struct kmem_cache *s)
{
	unsigned int cpu;

	for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++)
		flush_cpu_slab(s, cpu);
}

/*
 * Get a slab from the node partial list, frozen for this CPU with its
 * freelist in *@fl, and (SLUB_CPU_PARTIAL) a few more for the per-CPU
 * partial list.
 */
static struct slab *get_partial(struct kmem_cache *s,
				struct kmem_cache_cpu *c, void **fl)
{
	struct kmem_cache_node *n = &s->node;
	struct slab *slab, *got = NULL;
	struct list_head *pos, *next;
	unsigned int partials = 0;

	if (!READ_ONCE(n->nr_partial))
		return NULL;
	spin_lock(&n->list_lock);
	for (pos = n->partial.next; pos != &n->partial; pos = next) {
		next = pos->next;
		slab = list_entry(pos, struct slab, slab_list);
		remove_partial(n, slab);
		if (!got) {
			got = slab;
			*fl = get_freelist(s, slab);
			stat(s, ALLOC_FROM_PARTIAL);
			if (!kmem_cache_has_cpu_partial(s))
				break;
			continue;
		}
#ifdef CONFIG_SLUB_CPU_PARTIAL
		slab->next = c->partial;
		slab->slabs = (c->partial ? c->partial->slabs : 0) + 1;
		c->partial = slab;
		stat(s, CPU_PARTIAL_NODE);
		if (++partials > s->cpu_partial_slabs / 2)
			break;
#else
		(void)c;
		(void)partials;
#endif
	}
	spin_unlock(&n->list_lock);
	return got;
}

/*
 * The allocation slow path: refill the CPU freelist from the CPU slab's
 * remote frees, the per-CPU partial list, the node partial list or a new
 * slab, in that order.
 */
static noinline void *___slab_alloc(struct kmem_cache *s, gfp_t flags,
				    unsigned long addr, unsigned int orig_size)
{
	struct kmem_cache_cpu *c;
	struct slab *slab;
	void *fl, *obj;

	if (kmem_cache_debug(s))
		return alloc_single(s, flags, addr, orig_size);
	stat(s, ALLOC_SLOWPATH);
	c = this_cpu_slab(s);
	fl = cpu_claim(c);
	slab = c->slab;
	if (fl)			/* refilled by a free while we raced */
		goto load;
	if (slab) {
		fl = get_freelist(s, slab);
		if (fl) {
			stat(s, ALLOC_REFILL);
			goto load;
		}
		/* full: it is already unfrozen and on no list */
		WRITE_ONCE(c->slab, NULL);
		stat(s, DEACTIVATE_BYPASS);
	}
#ifdef CONFIG_SLUB_CPU_PARTIAL
	while (c->partial) {
		slab = c->partial;
		c->partial = slab->next;
		fl = get_freelist(s, slab);
		if (fl) {
			stat(s, CPU_PARTIAL_ALLOC);
			goto load;
		}
	}
#endif
	slab = get_partial(s, c, &fl);
	if (slab && fl)
		goto load;
	/* Don't sleep on the page allocator while owning the CPU. */
	slab = new_slab(s, flags);
	if (unlikely(!slab)) {
		WRITE_ONCE(c->slab, NULL);
		cpu_release(c, NULL);
		return NULL;
	}
	stat(s, ALLOC_SLAB);
	fl = slab_freelist(slab);
	slab_freelist(slab) = NULL;
	slab_counters(slab) = CNT_MAKE(s->objects, CNT_OBJECTS(slab_counters(slab)), 1);
load:
	WRITE_ONCE(c->slab, slab);
	obj = fl;
	cpu_release(c, get_freepointer(s, obj));
	return obj;
}

#ifdef ST_SLAB_RSEQ
/*
 * The rseq fast paths: the whole pop or push is one critical section on
 * the CPU whose cpu_slab[] entry it picks (read inside the section, so a
 * migration aborts it), with no atomic instruction and no tid to bump:
 * nothing else on that CPU can run between its loads and its commit, and
 * a slow path on another CPU first marks the entry owned (odd tid) and
 * fences the CPU (cpu_claim_rseq()). Any failure (no rseq area, owned,
 * empty, another slab, an abort) sends the caller to the slow path.
 */
/* [c] = the rseq area's offset from %fs (st_rseq_off: one load, where
 * glibc's __rseq_offset behind the GOT would be two on the critical
 * path), then the descriptor of the section goes to rseq->rseq_cs */
#define RSEQ_CS_BEGIN							\
	".pushsection __rseq_cs, \"aw\"\n\t"				\
	".balign 32\n\t"						\
	"3:\n\t"							\
	".long 0x0, 0x0\n\t"		/* version, flags */		\
	".quad 1f, (2f - 1f), 4f\n\t"	/* start, length, abort */	\
	".popsection\n\t"						\
	"movq st_rseq_off(%%rip), %[c]\n\t"				\
	"leaq 3b(%%rip), %[tmp]\n\t"					\
	"movq %[tmp], %%fs:8(%[c])\n\t"	/* rseq->rseq_cs */	\
	"1:\n\t"
#define RSEQ_CS_END(fail)						\
	"2:\n\t"							\
	".pushsection __rseq_failure, \"ax\"\n\t"			\
	".byte 0x0f, 0xb9, 0x3d\n\t"	/* ud1 with ... */		\
	".long 0x53053053\n\t"		/* ... RSEQ_SIG */		\
	"4:\n\t"							\
	"jmp %l[" fail "]\n\t"						\
	".popsection\n\t"
#if defined(CONFIG_SLUB_STATS) || ST_CACHE_LINE != 64
#define RSEQ_CPU_INDEX	"imulq %[csize], %[tmp], %[c]\n\t"
#else
/* one cache line each: a shift, not a multiply, on the critical path */
_Static_assert(sizeof(struct kmem_cache_cpu) == 64, "kmem_cache_cpu is one line");
#define RSEQ_CPU_INDEX	"movq %[tmp], %[c]\n\tshlq $6, %[c]\n\t"
#endif
/* c = &s->cpu_slab[rseq->cpu_id], or fail if it is not a valid CPU
 * (negative: this thread has no rseq area) */
#define RSEQ_CPU_SLAB							\
	"movl %%fs:4(%[c]), %k[tmp]\n\t"				\
	"cmpl %[ncpu], %k[tmp]\n\t"					\
	"jae %l[fail]\n\t"						\
	RSEQ_CPU_INDEX							\
	"addq %[s], %[c]\n\t"						\
	"testb $1, %c[tid](%[c])\n\t"	/* owned by a slow path */	\
	"jnz %l[fail]\n\t"

#define RSEQ_CONSTS							\
	[ncpu] "i"(CONFIG_NR_CPUS),					\
	[csize] "i"(sizeof(struct kmem_cache_cpu)),			\
	[tid] "i"(offsetof(struct kmem_cache_cpu, ft.second)),		\
	[first] "i"(offsetof(struct kmem_cache_cpu, ft.first)),		\
	[cslab] "i"(offsetof(struct kmem_cache_cpu, slab)),		\
	[offset] "i"(offsetof(struct kmem_cache, offset))

#ifdef CONFIG_SLAB_FREELIST_HARDENED
#define RSEQ_HARDENED_CONSTS ,						\
	[random] "i"(offsetof(struct kmem_cache, random)),		\
	[mask] "i"(offsetof(struct kmem_cache, block_mask))
#else
#define RSEQ_HARDENED_CONSTS
#endif

/* Pop this CPU's freelist; NULL for the slow path. */
static __always_inline void *slab_alloc_rseq(struct kmem_cache *s)
{
	unsigned long c, tmp;
	void *obj, *next;

	__asm__ __volatile__ goto(
		RSEQ_CS_BEGIN
		RSEQ_CPU_SLAB
		"movq %c[first](%[c]), %[obj]\n\t"
		"testq %[obj], %[obj]\n\t"
		"jz %l[fail]\n\t"
		"movl %c[offset](%[s]), %k[tmp]\n\t"
		"addq %[obj], %[tmp]\n\t"
		"movq (%[tmp]), %[next]\n\t"
#ifdef CONFIG_SLAB_FREELIST_HARDENED
		/* decode, and check it stays in the slab's block: the
		 * slow path then looks closer and reports */
		"bswapq %[tmp]\n\t"
		"xorq %[tmp], %[next]\n\t"
		"xorq %c[random](%[s]), %[next]\n\t"
		"jz 5f\n\t"
		"movq %[next], %[tmp]\n\t"
		"xorq %[obj], %[tmp]\n\t"
		"testq %c[mask](%[s]), %[tmp]\n\t"
		"jnz %l[fail]\n\t"
		"5:\n\t"
#endif
		"movq %[next], %c[first](%[c])\n\t"	/* the commit */
		RSEQ_CS_END("fail")
		: [obj] "=&r"(obj), [next] "=&r"(next), [c] "=&r"(c),
		  [tmp] "=&r"(tmp)
		: [s] "r"(s), RSEQ_CONSTS
		  RSEQ_HARDENED_CONSTS
		: "memory", "cc"
		: fail);
	/* the next allocation reads next's free pointer: fetch it now */
	__builtin_prefetch((char *)next + s->offset, 1);
	stat(s, ALLOC_FASTPATH);
	return obj;
fail:
	return NULL;
}

/*
 * Push @obj to this CPU's freelist if @slab is the CPU's slab; else say
 * which slow path to take (FREE_SLOW also when @obj heads the freelist:
 * a double free, which slab_free() reports).
 */
static __always_inline enum free_fast slab_free_rseq(struct kmem_cache *s,
						     struct slab *slab,
						     void *obj)
{
	unsigned long c, tmp, fpa, key;

	__asm__ __volatile__ goto(
		"movl %c[offset](%[s]), %k[fpa]\n\t"
		"addq %[obj], %[fpa]\n\t"
#ifdef CONFIG_SLAB_FREELIST_HARDENED
		"movq %[fpa], %[key]\n\t"
		"bswapq %[key]\n\t"
		"xorq %c[random](%[s]), %[key]\n\t"
#endif
		RSEQ_CS_BEGIN
		RSEQ_CPU_SLAB
		"cmpq %[slab], %c[cslab](%[c])\n\t"
		"jne %l[remote]\n\t"
		"movq %c[first](%[c]), %[tmp]\n\t"
#ifdef CONFIG_SLAB_FREELIST_HARDENED
		"cmpq %[tmp], %[obj]\n\t"
		"je %l[fail]\n\t"
		"xorq %[key], %[tmp]\n\t"
#endif
		"movq %[tmp], (%[fpa])\n\t"
		"movq %[obj], %c[first](%[c])\n\t"	/* the commit */
		RSEQ_CS_END("fail")
		: [c] "=&r"(c), [tmp] "=&r"(tmp), [fpa] "=&r"(fpa),
		  [key] "=&r"(key)
		: [s] "r"(s), [slab] "r"(slab),
		  [obj] "r"(obj), RSEQ_CONSTS RSEQ_HARDENED_CONSTS
		: "memory", "cc"
		: fail, remote);
	stat(s, FREE_FASTPATH);
	return FREE_DONE;
remote:
	return FREE_REMOTE;
fail:
	return FREE_SLOW;
}
#endif

#ifdef CONFIG_SLAB_FREELIST_HARDENED
/*
 * A corrupt free pointer seen by the fast path: report it and pop @obj
 * with an empty freelist behind it (the rest of the chain is lost).
 * Out of line, so that the fast path saves no registers for a call.
 */
static noinline void *alloc_fast_corrupt(struct kmem_cache *s,
					 struct kmem_cache_cpu *c, void *obj,
					 unsigned long tid, void *next)
{
	freelist_corrupted(s, obj, next);
	if (!cpu_ft_commit(c, obj, tid, NULL, tid + TID_STEP))
		return NULL;	/* raced: the caller starts over */
	stat(s, ALLOC_FASTPATH);
	return obj;
}
#endif

/*
 * The lockless fast path: pop the CPU freelist, with an rseq critical
 * section or one cmpxchg. NULL when the slow path must run (no CPU slab,
 * empty freelist, a slow path owns the CPU); it makes no call, so that
 * its callers need no stack frame.
 */
static __always_inline void *slab_alloc_fast_cmpxchg(struct kmem_cache *s)
{
	struct kmem_cache_cpu *c;
	unsigned long tid, *fpa;
	void *obj, *next;

redo:
	c = this_cpu_slab_fast(s);
	if (unlikely(!c))
		return NULL;	/* no CPU yet */
	tid = READ_ONCE(c->ft.second);
	obj = READ_ONCE(c->ft.first);
	if (unlikely((tid & TID_OWNED) || !obj || !READ_ONCE(c->slab)))
		return NULL;
	/* @obj may be reallocated under us: then the tid has moved on. */
	fpa = freeptr_addr(s, obj);
	next = freelist_decode(s, __atomic_load_n(fpa, __ATOMIC_RELAXED),
			       (unsigned long)fpa);
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	/*
	 * The kernel does not check here at all; a pointer out of the
	 * naturally aligned block of the cache's slab order around @obj is
	 * cheap to see without a division or a look at the slab, and the
	 * full check is the slow path's.
	 */
	if (unlikely(next && (((uintptr_t)next ^ (uintptr_t)obj) >>
			      (ST_PAGE_SHIFT + s->order)))) {
		if (READ_ONCE(c->ft.second) != tid)
			goto redo;
		return alloc_fast_corrupt(s, c, obj, tid, next);
	}
#endif
	if (unlikely(!cpu_ft_commit(c, obj, tid, next, tid + TID_STEP))) {
		stat(s, CMPXCHG_DOUBLE_CPU_FAIL);
		goto redo;
	}
	/* the next allocation reads next's free pointer: fetch it now */
	if (next)
		__builtin_prefetch((char *)next + s->offset, 1);
	stat(s, ALLOC_FASTPATH);
	return obj;
}

#ifdef ST_SLAB_RSEQ
/* Out of line, so that the rseq fast path around it needs no stack frame. */
static noinline void *slab_alloc_fast_nonrseq(struct kmem_cache *s)
{
	return slab_alloc_fast_cmpxchg(s);
}
#endif

/*
 * The lockless fast path: the rseq critical section where the library
 * uses rseq, else one cmpxchg; NULL when the slow path must run.
 */
static __always_inline void *slab_alloc_fast(struct kmem_cache *s)
{
#ifdef ST_SLAB_RSEQ
	if (likely(st_slab_rseq))
		return slab_alloc_rseq(s);
	return slab_alloc_fast_nonrseq(s);
#else
	return slab_alloc_fast_cmpxchg(s);
#endif
}

static __fastpath_inline void *slab_alloc(struct kmem_cache *s, gfp_t flags,
					  unsigned long addr,
					  unsigned int orig_size)
{
	void *obj = slab_alloc_fast(s);

	if (likely(obj))
		return obj;
	return ___slab_alloc(s, flags, addr, orig_size);
}

#endif /* !ST_SLUB_SHEAVES */

/*
 * Free to a slab that is not this CPU's: update its freelist and
 * counters locklessly, and take the node lock only when the slab must
 * change lists (was full, or becomes empty).
 */
static noinline void __slab_free(struct kmem_cache *s, struct slab *slab,
				 void *obj, unsigned long addr)
{
	struct kmem_cache_node *n = NULL;
	unsigned long c, nc;
	void *prior;
	bool was_frozen, on_node_partial = false;

	stat(s, FREE_SLOWPATH);
	if (kmem_cache_debug(s)) {
		free_to_partial_list(s, slab, obj, addr);
		return;
	}
	do {
		if (n) {
			spin_unlock(&n->list_lock);
			n = NULL;
		}
		prior = READ_ONCE(slab_freelist(slab));
		c = READ_ONCE(slab_counters(slab));
		if (double_free(s, obj, prior))
			return;
		set_freepointer(s, obj, prior);
		was_frozen = CNT_FROZEN(c);
		nc = CNT_MAKE(CNT_INUSE(c) - 1, CNT_OBJECTS(c), was_frozen);
		if ((!CNT_INUSE(nc) || !prior) && !was_frozen) {
			if (!kmem_cache_has_cpu_partial(s) || prior) {
				n = &s->node;
				spin_lock(&n->list_lock);
				on_node_partial = slab->on_list;
			}
		}
	} while (!slab_update_freelist(s, slab, prior, c, obj, nc));

	if (!n) {
		if (was_frozen) {
			stat(s, FREE_FROZEN);
#ifdef CONFIG_SLUB_CPU_PARTIAL
		} else if (!prior) {
			put_cpu_partial(s, slab);
			stat(s, CPU_PARTIAL_FREE);
#endif
		}
		return;
	}
	/* Partially empty but on a per-CPU partial list: leave it there. */
	if (prior && !on_node_partial) {
		spin_unlock(&n->list_lock);
		return;
	}
	if (!CNT_INUSE(nc) && n->nr_partial >= s->min_partial) {
		if (prior) {
			remove_partial(n, slab);
			stat(s, FREE_REMOVE_PARTIAL);
		}
		spin_unlock(&n->list_lock);
		discard_slab(s, slab);
		return;
	}
	if (!kmem_cache_has_cpu_partial(s) && !prior) {
		add_partial(n, slab, true);
		stat(s, FREE_ADD_PARTIAL);
	}
	spin_unlock(&n->list_lock);
}

/*
 * The common free to another slab, the one the kernel's __slab_free()
 * also does without a lock: the slab stays where it is (it is frozen, or
 * keeps a free object and an object in use), so one cmpxchg of its
 * freelist and counters does it. Out of line with a small frame; the
 * rest (list changes, debug caches, a double free to report) goes on to
 * __slab_free().
 */
static noinline void slab_free_remote(struct kmem_cache *s, struct slab *slab,
				      void *obj, unsigned long addr)
{
	unsigned long c;
	void *prior;

	if (kmem_cache_debug(s))
		goto slow;
	prior = READ_ONCE(slab_freelist(slab));
	c = READ_ONCE(slab_counters(slab));
	/* frozen: its objects, the CPU's included, count as in use */
	if (unlikely(!CNT_FROZEN(c) && (!prior || CNT_INUSE(c) == 1)))
		goto slow;
	if (unlikely(obj == prior))
		goto slow;	/* a double free: reported there */
	set_freepointer(s, obj, prior);
	/* inuse is the low field and at least 1: c - 1 drops it by one */
	if (unlikely(!pair_cmpxchg(&slab->fc, &slab->lock, prior, c, obj, c - 1)))
		goto slow;
	stat(s, FREE_SLOWPATH);
	if (CNT_FROZEN(c))
		stat(s, FREE_FROZEN);
	return;
slow:
	__slab_free(s, slab, obj, addr);
}

#ifndef ST_SLUB_SHEAVES
/*
 * The lockless fast path: push @obj to the CPU freelist if @slab is the
 * CPU's slab. False when the slow path must run (another slab, a slow
 * path owns the CPU, or @obj heads the freelist: a double free, which
 * slab_free() reports); like slab_alloc_fast(), it makes no call.
 */
static __always_inline enum free_fast
slab_free_fast_cmpxchg(struct kmem_cache *s, struct slab *slab, void *obj)
{
	struct kmem_cache_cpu *c;
	unsigned long tid;
	void *fl;

redo:
	c = this_cpu_slab_fast(s);
	if (unlikely(!c))
		return FREE_SLOW;	/* no CPU yet */
	tid = READ_ONCE(c->ft.second);
	if (unlikely(tid & TID_OWNED))
		return FREE_SLOW;
	if (slab != READ_ONCE(c->slab))
		return FREE_REMOTE;
	fl = READ_ONCE(c->ft.first);
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	if (unlikely(obj == fl))
		return FREE_SLOW;
#endif
	set_freepointer(s, obj, fl);
	if (unlikely(!cpu_ft_commit(c, fl, tid, obj, tid + TID_STEP))) {
		stat(s, CMPXCHG_DOUBLE_CPU_FAIL);
		goto redo;
	}
	stat(s, FREE_FASTPATH);
	return FREE_DONE;
}

#ifdef ST_SLAB_RSEQ
static noinline enum free_fast
slab_free_fast_nonrseq(struct kmem_cache *s, struct slab *slab, void *obj)
{
	return slab_free_fast_cmpxchg(s, slab, obj);
}
#endif

/* As slab_alloc_fast(): rseq, else the cmpxchg, out of line. */
static __always_inline enum free_fast
slab_free_fast(struct kmem_cache *s, struct slab *slab, void *obj)
{
#ifdef ST_SLAB_RSEQ
	if (likely(st_slab_rseq))
		return slab_free_rseq(s, slab, obj);
	return slab_free_fast_nonrseq(s, slab, obj);
#else
	return slab_free_fast_cmpxchg(s, slab, obj);
#endif
}

static __fastpath_inline void slab_free(struct kmem_cache *s,
					struct slab *slab, void *obj,
					unsigned long addr)
{
	struct kmem_cache_cpu *c;
	unsigned long tid;
	void *fl;

redo:
	c = this_cpu_slab(s);
	tid = READ_ONCE(c->ft.second);
	if (unlikely((tid & TID_OWNED) || slab != READ_ONCE(c->slab))) {
		__slab_free(s, slab, obj, addr);
		return;
	}
#ifdef ST_SLAB_RSEQ
	if (unlikely(st_slab_rseq && st_rseq_cpu_id() < 0)) {
		__slab_free(s, slab, obj, addr);	/* no rseq area */
		return;
	}
#endif
	fl = READ_ONCE(c->ft.first);
	if (double_free(s, obj, fl))
		return;
	set_freepointer(s, obj, fl);
	if (unlikely(!cpu_ft_commit(c, fl, tid, obj, tid + TID_STEP))) {
		stat(s, CMPXCHG_DOUBLE_CPU_FAIL);
		goto redo;
	}
	stat(s, FREE_FASTPATH);
}

#else /* ST_SLUB_SHEAVES */
/* ------------------------------------------------------------------ */
/* Per-CPU sheaves (Linux 7.0)                                         */

static __always_inline struct slub_percpu_sheaves *this_cpu_sheaves(struct kmem_cache *s)
{
	return &s->cpu_sheaves[st_this_cpu()];
}

/*
 * An empty sheaf, from kmalloc as in the kernel, so that its memory is
 * counted with the rest. The sheaves of a kmalloc cache come from kmalloc
 * caches too: such a nested allocation may not allocate a sheaf in turn
 * (the kernel's __GFP_NO_OBJ_EXT), which bounds the recursion.
 */
static struct slab_sheaf *alloc_empty_sheaf(struct kmem_cache *s, gfp_t gfp)
{
	struct slab_sheaf *sheaf;

	if (gfp & __GFP_NO_SHEAF)
		return NULL;
	gfp &= ~(__GFP_RECLAIMABLE | __GFP_ZERO);
	if (s->flags & SLAB_KMALLOC)
		gfp |= __GFP_NO_SHEAF;
	sheaf = st_kmalloc_node(sizeof(*sheaf) + s->sheaf_capacity * sizeof(void *),
				gfp | __GFP_ZERO, 0);
	if (unlikely(!sheaf))
		return NULL;
	sheaf->cache = s;
	stat(s, SHEAF_ALLOC);
	return sheaf;
}

static void free_empty_sheaf(struct kmem_cache *s, struct slab_sheaf *sheaf)
{
	if (!sheaf)
		return;
	kfree(sheaf);
	stat(s, SHEAF_FREE);
}

/*
 * Take up to @want objects off @slab, which is on the node partial list
 * (n->list_lock held): only the lock holder pops, while frees may push
 * concurrently, so the chain below the head read is stable and one
 * cmpxchg of freelist and counters takes it. A slab left without free
 * objects leaves the list (full slabs are on none).
 */
static unsigned int take_objects(struct kmem_cache *s, struct kmem_cache_node *n,
				 struct slab *slab, void **p, unsigned int want)
{
	unsigned long c;
	unsigned int k;
	void *fl, *rest;

	do {
		fl = READ_ONCE(slab_freelist(slab));
		c = READ_ONCE(slab_counters(slab));
		rest = fl;
		for (k = 0; k < want && rest; k++) {
			p[k] = rest;
			rest = get_freepointer(s, rest);
		}
	} while (!slab_update_freelist(s, slab, fl, c, rest,
				       CNT_MAKE(CNT_INUSE(c) + k, CNT_OBJECTS(c), 0)));
	if (!rest)
		remove_partial(n, slab);
	return k;
}

/* Objects of a slab nobody else knows yet: no atomics needed. */
static unsigned int take_new_objects(struct kmem_cache *s, struct slab *slab,
				     void **p, unsigned int want)
{
	unsigned long c = slab_counters(slab);
	unsigned int k;
	void *fl = slab_freelist(slab);

	for (k = 0; k < want && fl; k++) {
		p[k] = fl;
		fl = get_freepointer(s, fl);
	}
	slab_freelist(slab) = fl;
	slab_counters(slab) = CNT_MAKE(CNT_INUSE(c) + k, CNT_OBJECTS(c), 0);
	return k;
}

/*
 * The slab layer under the sheaves (the kernel's refill_objects()): fill
 * @p with up to @want objects from the node partial list, then from new
 * slabs; a new slab with objects left goes on the partial list.
 */
static unsigned int refill_objects(struct kmem_cache *s, void **p,
				   unsigned int want, gfp_t gfp)
{
	struct kmem_cache_node *n = &s->node;
	unsigned int got = 0;
	struct slab *slab;

	if (READ_ONCE(n->nr_partial)) {
		spin_lock(&n->list_lock);
		while (got < want && !list_empty(&n->partial)) {
			slab = list_entry(n->partial.next, struct slab, slab_list);
			got += take_objects(s, n, slab, p + got, want - got);
		}
		spin_unlock(&n->list_lock);
		if (got)
			stat(s, ALLOC_FROM_PARTIAL);
	}
	while (got < want) {
		slab = new_slab(s, gfp);
		if (unlikely(!slab))
			break;
		stat(s, ALLOC_SLAB);
		got += take_new_objects(s, slab, p + got, want - got);
		if (slab_freelist(slab)) {
			spin_lock(&n->list_lock);
			add_partial(n, slab, false);
			spin_unlock(&n->list_lock);
		}
	}
	return got;
}

/* Return every object of @sheaf to its slab. */
static void sheaf_flush(struct kmem_cache *s, struct slab_sheaf *sheaf)
{
	unsigned int i;

	for (i = 0; i < sheaf->size; i++)
		slab_free_remote(s, st_virt_to_slab(sheaf->objects[i]),
				 sheaf->objects[i], 0);
	stat_n(s, SHEAF_FLUSH, sheaf->size);
	sheaf->size = 0;
}

/* Barn, under its lock: take a sheaf of the kind wanted, or NULL. */
static struct slab_sheaf *barn_take(struct node_barn *barn, bool full)
{
	struct list_head *head = full ? &barn->sheaves_full : &barn->sheaves_empty;
	struct slab_sheaf *sheaf;

	if (list_empty(head))
		return NULL;
	sheaf = list_entry(head->next, struct slab_sheaf, barn_list);
	list_del(&sheaf->barn_list);
	/* read unlocked */
	if (full)
		WRITE_ONCE(barn->nr_full, barn->nr_full - 1);
	else
		WRITE_ONCE(barn->nr_empty, barn->nr_empty - 1);
	return sheaf;
}

/* Barn, under its lock: keep @sheaf if there is room; false if not. */
static bool barn_keep(struct node_barn *barn, struct slab_sheaf *sheaf)
{
	bool full = sheaf->size != 0;

	if (full ? barn->nr_full >= MAX_FULL_SHEAVES
		 : barn->nr_empty >= MAX_EMPTY_SHEAVES)
		return false;
	list_add(&sheaf->barn_list, full ? &barn->sheaves_full
					 : &barn->sheaves_empty);
	if (full)
		WRITE_ONCE(barn->nr_full, barn->nr_full + 1);
	else
		WRITE_ONCE(barn->nr_empty, barn->nr_empty + 1);
	return true;
}

/*
 * Trade @give (may be NULL) for a sheaf that is full (@full) or empty;
 * NULL, and @give not taken, if the barn has none, or if @give is full
 * and the barn holds MAX_FULL_SHEAVES already. A sheaf given in trade
 * always fits otherwise: the counts only move by one.
 */
static struct slab_sheaf *barn_exchange(struct kmem_cache *s,
					struct slab_sheaf *give, bool full)
{
	struct node_barn *barn = &s->node.barn;
	struct slab_sheaf *got = NULL;

	if (!(full ? READ_ONCE(barn->nr_full) : READ_ONCE(barn->nr_empty)))
		goto out;
	spin_lock(&barn->lock);
	if (!give || !give->size || barn->nr_full < MAX_FULL_SHEAVES) {
		got = barn_take(barn, full);
		if (got && give) {
			list_add(&give->barn_list, give->size ? &barn->sheaves_full
							      : &barn->sheaves_empty);
			if (give->size)
				WRITE_ONCE(barn->nr_full, barn->nr_full + 1);
			else
				WRITE_ONCE(barn->nr_empty, barn->nr_empty + 1);
		}
	}
	spin_unlock(&barn->lock);
out:
	stat(s, got ? BARN_GET : BARN_GET_FAIL);
	return got;
}

/* Put @sheaf into the barn; false (kept by the caller) if no room. */
static bool barn_put(struct kmem_cache *s, struct slab_sheaf *sheaf)
{
	struct node_barn *barn = &s->node.barn;
	bool ok;

	spin_lock(&barn->lock);
	ok = barn_keep(barn, sheaf);
	spin_unlock(&barn->lock);
	stat(s, ok ? BARN_PUT : BARN_PUT_FAIL);
	return ok;
}

/*
 * Allocation with an empty main sheaf, pcs->lock held: swap with a
 * non-empty spare, or trade the empty main for a full sheaf of the barn.
 * False if neither works.
 */
static bool pcs_replace_empty_main(struct kmem_cache *s,
				   struct slub_percpu_sheaves *pcs)
{
	struct slab_sheaf *main = pcs->main, *full;

	if (pcs->spare && pcs->spare->size) {
		pcs->main = pcs->spare;
		pcs->spare = main;
		return true;
	}
	if (main && !pcs->spare) {
		/* keep the empty main as the spare, take a full one */
		full = barn_exchange(s, NULL, true);
		if (full) {
			pcs->spare = main;
			pcs->main = full;
		}
		return full;
	}
	full = barn_exchange(s, main, true);
	if (full)
		pcs->main = full;
	return full;
}

/*
 * Refill with the per-CPU lock dropped, as the kernel does: an empty
 * sheaf from the barn or kmalloc, filled from the slabs, then installed
 * as main. NULL if no sheaf or no object could be had: the caller then
 * allocates one object from the slabs.
 */
static void *sheaf_alloc_refill(struct kmem_cache *s, gfp_t gfp)
{
	struct slub_percpu_sheaves *pcs;
	struct slab_sheaf *sheaf, *old = NULL, *drop = NULL;
	void *obj;

	sheaf = barn_exchange(s, NULL, false);
	if (!sheaf)
		sheaf = alloc_empty_sheaf(s, gfp);
	if (!sheaf)
		return NULL;
	sheaf->size = refill_objects(s, sheaf->objects, s->sheaf_capacity, gfp);
	stat_n(s, SHEAF_REFILL, sheaf->size);
	if (!sheaf->size) {
		free_empty_sheaf(s, sheaf);
		return NULL;
	}
	pcs = this_cpu_sheaves(s);
	spin_lock(&pcs->lock);
	if (pcs->main && pcs->main->size) {
		/* another thread of this CPU refilled meanwhile */
		obj = pcs->main->objects[--pcs->main->size];
		if (!barn_put(s, sheaf))
			drop = sheaf;
		goto out;
	}
	old = pcs->main;
	pcs->main = sheaf;
	obj = sheaf->objects[--sheaf->size];
	if (old && !pcs->spare) {
		pcs->spare = old;
		old = NULL;
	}
	if (old && barn_put(s, old))
		old = NULL;
out:
	spin_unlock(&pcs->lock);
	if (drop) {
		sheaf_flush(s, drop);
		free_empty_sheaf(s, drop);
	}
	free_empty_sheaf(s, old);
	stat(s, ALLOC_PCS);
	return obj;
}

/* One object from the slabs, for caches without sheaves or as fallback. */
static noinline void *slab_alloc_nosheaf(struct kmem_cache *s, gfp_t flags,
					 unsigned long addr,
					 unsigned int orig_size)
{
	void *obj;

	if (kmem_cache_debug(s))
		return alloc_single(s, flags, addr, orig_size);
	stat(s, ALLOC_SLOWPATH);
	return refill_objects(s, &obj, 1, flags) ? obj : NULL;
}

/* Pop the main sheaf; NULL for the slow path. Makes no call. */
static __always_inline void *slab_alloc_fast(struct kmem_cache *s)
{
	struct slub_percpu_sheaves *pcs = this_cpu_sheaves(s);
	struct slab_sheaf *main;
	void *obj = NULL;

	if (unlikely(!spin_trylock(&pcs->lock)))
		return NULL;
	main = pcs->main;
	if (likely(main && main->size))
		obj = main->objects[--main->size];
	spin_unlock(&pcs->lock);
	if (likely(obj))
		stat(s, ALLOC_PCS);
	return obj;
}

static noinline void *slab_alloc_slow(struct kmem_cache *s, gfp_t flags,
				      unsigned long addr, unsigned int orig_size)
{
	struct slub_percpu_sheaves *pcs;
	void *obj = NULL;

	if (!READ_ONCE(s->sheaf_capacity))
		return slab_alloc_nosheaf(s, flags, addr, orig_size);
	pcs = this_cpu_sheaves(s);
	if (spin_trylock(&pcs->lock)) {
		if (pcs_replace_empty_main(s, pcs))
			obj = pcs->main->objects[--pcs->main->size];
		spin_unlock(&pcs->lock);
		if (obj) {
			stat(s, ALLOC_PCS);
			return obj;
		}
		obj = sheaf_alloc_refill(s, flags);
		if (obj)
			return obj;
	}
	return slab_alloc_nosheaf(s, flags, addr, orig_size);
}

static __fastpath_inline void *slab_alloc(struct kmem_cache *s, gfp_t flags,
					  unsigned long addr,
					  unsigned int orig_size)
{
	void *obj = slab_alloc_fast(s);

	if (likely(obj))
		return obj;
	return slab_alloc_slow(s, flags, addr, orig_size);
}

/* Push to the main sheaf if it has room; makes no call. */
static __always_inline enum free_fast
slab_free_fast(struct kmem_cache *s, struct slab *slab, void *obj)
{
	struct slub_percpu_sheaves *pcs = this_cpu_sheaves(s);
	struct slab_sheaf *main;
	bool done = false;

	(void)slab;
	if (unlikely(!spin_trylock(&pcs->lock)))
		return FREE_REMOTE;
	main = pcs->main;
	if (likely(main && main->size < s->sheaf_capacity)) {
		main->objects[main->size++] = obj;
		done = true;
	}
	spin_unlock(&pcs->lock);
	if (likely(done)) {
		stat(s, FREE_PCS);
		return FREE_DONE;
	}
	return FREE_SLOW;
}

/*
 * Free with a full main sheaf, pcs->lock held: swap with an empty spare,
 * trade the full main for an empty sheaf of the barn, or, when the barn
 * holds its 10 full sheaves already, flush main to the slabs. False if
 * an empty sheaf must be allocated first.
 */
static bool pcs_replace_full_main(struct kmem_cache *s,
				  struct slub_percpu_sheaves *pcs)
{
	struct node_barn *barn = &s->node.barn;
	struct slab_sheaf *main = pcs->main, *empty;

	if (!main)
		return false;
	if (pcs->spare && !pcs->spare->size) {
		pcs->main = pcs->spare;
		pcs->spare = main;
		return true;
	}
	if (READ_ONCE(barn->nr_full) >= MAX_FULL_SHEAVES) {
		stat(s, BARN_PUT_FAIL);
		sheaf_flush(s, main);
		return true;
	}
	empty = barn_exchange(s, main, false);
	if (empty)
		pcs->main = empty;
	return empty;
}

static noinline void slab_free_sheaf_slow(struct kmem_cache *s,
					  struct slab *slab, void *obj,
					  unsigned long addr)
{
	struct slub_percpu_sheaves *pcs = this_cpu_sheaves(s);
	struct slab_sheaf *empty, *main, *drop = NULL;

	spin_lock(&pcs->lock);
	if (pcs_replace_full_main(s, pcs))
		goto push;
	spin_unlock(&pcs->lock);
	/* no lock held across kmalloc: it may come back here */
	empty = alloc_empty_sheaf(s, GFP_NOWAIT);
	if (!empty) {
		slab_free_remote(s, slab, obj, addr);
		return;
	}
	spin_lock(&pcs->lock);
	main = pcs->main;
	if (main && main->size == s->sheaf_capacity) {
		/* main goes to the barn, or is flushed and kept empty */
		if (!barn_put(s, main)) {
			sheaf_flush(s, main);
			if (!pcs->spare)
				pcs->spare = main;
			else
				drop = main;
		}
		pcs->main = empty;
	} else if (!main) {
		pcs->main = empty;
	} else {
		drop = empty;	/* made room meanwhile */
	}
push:
	main = pcs->main;
	main->objects[main->size++] = obj;
	spin_unlock(&pcs->lock);
	stat(s, FREE_PCS);
	if (drop && !barn_put(s, drop))
		free_empty_sheaf(s, drop);
}

static void slab_free(struct kmem_cache *s, struct slab *slab, void *obj,
		      unsigned long addr)
{
	if (!READ_ONCE(s->sheaf_capacity)) {
		slab_free_remote(s, slab, obj, addr);
		return;
	}
	if (slab_free_fast(s, slab, obj) == FREE_DONE)
		return;
	slab_free_sheaf_slow(s, slab, obj, addr);
}

/*
 * kmem_cache_shrink(): the kernel's pcs_flush_all() and barn_shrink().
 * Every CPU's main and spare go back to the slabs; the spare sheaf and
 * every sheaf of the barn are freed, each CPU keeps an empty main (and,
 * with @all, for kmem_cache_destroy(), loses that too).
 */
static void free_sheaves(struct kmem_cache *s, bool all)
{
	struct node_barn *barn = &s->node.barn;
	struct slab_sheaf *sheaf, *spare, *main;
	unsigned int cpu;

	for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++) {
		struct slub_percpu_sheaves *pcs = &s->cpu_sheaves[cpu];

		spin_lock(&pcs->lock);
		main = pcs->main;
		spare = pcs->spare;
		pcs->spare = NULL;
		if (main)
			sheaf_flush(s, main);
		if (all)
			pcs->main = NULL;
		spin_unlock(&pcs->lock);
		if (spare)
			sheaf_flush(s, spare);
		free_empty_sheaf(s, spare);
		if (all)
			free_empty_sheaf(s, main);
	}
	for (;;) {
		spin_lock(&barn->lock);
		sheaf = barn_take(barn, true);
		if (!sheaf)
			sheaf = barn_take(barn, false);
		spin_unlock(&barn->lock);
		if (!sheaf)
			break;
		sheaf_flush(s, sheaf);
		free_empty_sheaf(s, sheaf);
	}
}

static void flush_all(struct kmem_cache *s)
{
	if (s->sheaf_capacity)
		free_sheaves(s, false);
}

/*
 * The kernel's calculate_sheaf_capacity(): the per-CPU partial slabs'
 * object budget halved (two sheaves per CPU), then rounded up so that a
 * sheaf fills its kmalloc size class. 0 for debug caches and the
 * bootstrap cache.
 */
static unsigned int calculate_sheaf_capacity(struct kmem_cache *s)
{
	unsigned int capacity;
	size_t size;

	if (s->flags & SLAB_DEBUG_FLAGS)
		return 0;
	if (s->size >= ST_PAGE_SIZE)
		capacity = 4;
	else if (s->size >= 1024)
		capacity = 12;
	else if (s->size >= 256)
		capacity = 26;
	else
		capacity = 60;
	size = sizeof(struct slab_sheaf) + capacity * sizeof(void *);
	size = st_kmalloc_sizes[st_kmalloc_index(size)];
	return (unsigned int)((size - sizeof(struct slab_sheaf)) / sizeof(void *));
}

/*
 * Give @s its sheaves once kmalloc works (the kernel's
 * init_percpu_sheaves() and, for the kmalloc caches,
 * bootstrap_kmalloc_sheaves()): a main sheaf per CPU, allocated up front.
 * Until its capacity is set, @s runs on the slab paths.
 */
static void init_sheaves(struct kmem_cache *s)
{
	unsigned int capacity = calculate_sheaf_capacity(s), cpu;

	if (!capacity)
		return;
	s->sheaf_capacity = capacity;
	for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++) {
		struct slub_percpu_sheaves *pcs = &s->cpu_sheaves[cpu];
		struct slab_sheaf *sheaf = alloc_empty_sheaf(s, GFP_KERNEL);

		spin_lock(&pcs->lock);
		if (!pcs->main) {
			pcs->main = sheaf;
			sheaf = NULL;
		}
		spin_unlock(&pcs->lock);
		free_empty_sheaf(s, sheaf);
	}
}
#endif /* ST_SLUB_SHEAVES */

#else /* CONFIG_SLUB_TINY */

static inline void flush_all(struct kmem_cache *s)
{
	(void)s;
}

static __fastpath_inline void *slab_alloc(struct kmem_cache *s, gfp_t flags,
					  unsigned long addr,
					  unsigned int orig_size)
{
	return alloc_single(s, flags, addr, orig_size);
}

static __fastpath_inline void slab_free(struct kmem_cache *s,
					struct slab *slab, void *obj,
					unsigned long addr)
{
	free_to_partial_list(s, slab, obj, addr);
}

static __always_inline void *slab_alloc_fast(struct kmem_cache *s)
{
	(void)s;
	return NULL;
}

static __always_inline enum free_fast
slab_free_fast(struct kmem_cache *s, struct slab *slab, void *obj)
{
	(void)s;
	(void)slab;
	(void)obj;
	return FREE_SLOW;
}

static inline void slab_free_remote(struct kmem_cache *s, struct slab *slab,
				    void *obj, unsigned long addr)
{
	free_to_partial_list(s, slab, obj, addr);
}
#endif /* CONFIG_SLUB_TINY */

/* ------------------------------------------------------------------ */
/* API                                                                 */

/* @orig_size: what kmalloc() asked for, else the cache's object size. */
static __fastpath_inline void *slab_alloc_node(struct kmem_cache *s,
					       gfp_t flags, unsigned long addr,
					       unsigned int orig_size)
{
	void *obj = slab_alloc(s, flags, addr, orig_size);

	/* zero what was asked for: the rest may be a kmalloc red zone */
	if (unlikely(flags & __GFP_ZERO) && obj)
		memset(obj, 0, slub_debug_orig_size(s) ? orig_size : s->object_size);
	return obj;
}

#ifdef ST_SLAB_RSEQ
/* Everything but kmem_cache_alloc()'s rseq fast path, out of line. */
static noinline void *kmem_cache_alloc_slow(struct kmem_cache *s, gfp_t flags,
					    unsigned long caller)
{
	return slab_alloc_node(s, flags, caller, s->object_size);
}

/* With rseq, the fast path and a tail call: no stack frame. */
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *obj;

	if (likely(st_slab_rseq && !(flags & __GFP_ZERO))) {
		obj = slab_alloc_rseq(s);
		if (likely(obj))
			return obj;
	}
	return kmem_cache_alloc_slow(s, flags,
				     (unsigned long)__builtin_return_address(0));
}
#else
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	return slab_alloc_node(s, flags,
			       (unsigned long)__builtin_return_address(0),
			       s->object_size);
}
#endif

static noinline void slab_free_slow(struct kmem_cache *s, struct slab *slab,
				    void *obj, unsigned long caller)
{
	slab_free(s, slab, obj, caller);
}

/* Free @obj of @slab: the fast path inline, the slow paths out of line. */
static __always_inline void slab_free_any(struct kmem_cache *s,
					  struct slab *slab, void *obj,
					  unsigned long caller)
{
	enum free_fast r = slab_free_fast(s, slab, obj);

	if (likely(r == FREE_DONE))
		return;
	if (r == FREE_REMOTE)
		slab_free_remote(s, slab, obj, caller);
	else
		slab_free_slow(s, slab, obj, caller);
}

#ifdef ST_SLAB_RSEQ
/* slab_free_any() without rseq, out of line: see kmalloc_nonrseq(). */
static noinline void slab_free_nonrseq(struct kmem_cache *s, struct slab *slab,
				       void *obj, unsigned long caller)
{
	slab_free_any(s, slab, obj, caller);
}
#endif

/* The entry points' free: rseq inline, else a tail call. */
static __always_inline void slab_free_entry(struct kmem_cache *s,
					    struct slab *slab, void *obj,
					    unsigned long caller)
{
#ifdef ST_SLAB_RSEQ
	if (unlikely(!st_slab_rseq)) {
		slab_free_nonrseq(s, slab, obj, caller);
		return;
	}
#endif
	slab_free_any(s, slab, obj, caller);
}

/* The cache @obj really belongs to; complain if the caller said another. */
static struct slab *cache_from_obj(struct kmem_cache *s, const void *obj,
				   struct kmem_cache **real)
{
	struct slab *slab = st_virt_to_slab(obj);

	if (unlikely(!slab || !(slab->flags & PG_slab))) {
		st_slab_report("BUG %s: kmem_cache_free: %p is not a slab object\n",
			       s ? s->name : "?", obj);
		return NULL;
	}
	*real = slab->slab_cache;
#if defined(CONFIG_SLUB_DEBUG) || defined(CONFIG_SLAB_FREELIST_HARDENED)
	if (unlikely(s && *real != s))
		st_slab_report("BUG %s: Wrong slab cache. %s but object is from %s\n",
			       s->name, s->name, (*real)->name);
#endif
	return slab;
}

/* kmem_cache_free() of anything unusual: NULL, not @s's, not a slab's. */
static noinline void kmem_cache_free_checked(struct kmem_cache *s, void *obj,
					     unsigned long caller)
{
	struct kmem_cache *real;
	struct slab *slab;

	if (unlikely(!obj))
		return;
	slab = cache_from_obj(s, obj, &real);
	if (unlikely(!slab))
		return;
	slab_free_entry(real, slab, obj, caller);
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	unsigned long caller = (unsigned long)__builtin_return_address(0);
	struct slab *slab = st_virt_to_slab(obj);

	/* the usual case inline, with no call to keep registers across */
	if (likely(slab && (slab->flags & PG_slab) && slab->slab_cache == s)) {
		slab_free_entry(s, slab, obj, caller);
		return;
	}
	kmem_cache_free_checked(s, obj, caller);
}

static void *kmalloc_large(size_t size, gfp_t flags)
{
	unsigned int order = st_get_order(size);
	void *p = st_alloc_pages(order, flags & __GFP_ZERO);
	struct slab *page;

	if (!p)
		return NULL;
	page = st_virt_to_slab(p);
	page->flags |= PG_large;
	page->large_size = size;
	st_page_account_large(1L << order);
	return p;
}

static noinline void *kmalloc_slow(size_t size, gfp_t flags,
				   unsigned long caller)
{
	struct kmem_cache *s;
	int idx;

	if (unlikely(!size))
		return ZERO_SIZE_PTR;
	if (unlikely(size > KMALLOC_MAX_CACHE_SIZE)) {
		if (size > KMALLOC_MAX_SIZE)
			return NULL;
		return kmalloc_large(size, flags);
	}
	idx = st_kmalloc_index(size);
	s = kmalloc_caches[(flags & __GFP_RECLAIMABLE) ? KMALLOC_RECLAIM
						      : KMALLOC_NORMAL][idx];
	return slab_alloc_node(s, flags, caller, (unsigned int)size);
}

/*
 * kmalloc(): the per-CPU fast path inline, with no stack frame; anything
 * else (zeroing, large sizes, an empty CPU freelist) out of line.
 */
#ifdef ST_SLAB_RSEQ
/* kmalloc() without rseq: the cmpxchg fast path, then the slow path. */
static noinline void *kmalloc_nonrseq(struct kmem_cache *s, size_t size,
				      gfp_t flags, unsigned long caller)
{
	void *obj = slab_alloc_fast_cmpxchg(s);

	if (likely(obj))
		return obj;
	return kmalloc_slow(size, flags, caller);
}
#endif

void *st_kmalloc_node(size_t size, gfp_t flags, unsigned long caller)
{
	struct kmem_cache *s;
	void *obj;

	if (likely(size - 1 < KMALLOC_MAX_CACHE_SIZE && !(flags & __GFP_ZERO))) {
		s = kmalloc_caches[(flags & __GFP_RECLAIMABLE) ? KMALLOC_RECLAIM :
								  KMALLOC_NORMAL]
				  [st_kmalloc_index(size)];
#ifdef ST_SLAB_RSEQ
		/* a tail call: nothing stays live across a call, no frame */
		if (unlikely(!st_slab_rseq))
			return kmalloc_nonrseq(s, size, flags, caller);
#endif
		obj = slab_alloc_fast(s);
		if (likely(obj))
			return obj;
	}
	return kmalloc_slow(size, flags, caller);
}

static noinline void kfree_slow(const void *obj, unsigned long caller)
{
	struct slab *slab = st_virt_to_slab(obj);

	if (unlikely(!slab)) {
		st_slab_report("BUG kfree: %p is not from the slab allocator\n", obj);
		return;
	}
	if (slab->flags & PG_slab) {
		slab_free(slab->slab_cache, slab, (void *)obj, caller);
		return;
	}
	if (unlikely(!(slab->flags & PG_large) || obj != st_slab_address(slab))) {
		st_slab_report("BUG kfree: invalid pointer %p\n", obj);
		return;
	}
	st_page_account_large(-(1L << slab->order));
	st_free_pages((void *)obj);
}

/* kfree(): as kmalloc(), the fast path inline and the rest out of line. */
void st_kfree_caller(const void *obj, unsigned long caller)
{
	struct slab *slab = st_virt_to_slab(obj);

	if (likely(slab && (slab->flags & PG_slab))) {
		/* another slab's object, most often: no second lookup */
		slab_free_entry(slab->slab_cache, slab, (void *)obj, caller);
		return;
	}
	kfree_slow(obj, caller);
}

size_t st_ksize(const void *obj)
{
	struct slab *slab = st_virt_to_slab(obj);
	struct kmem_cache *s;

	if (!slab)
		return 0;
	if (!(slab->flags & PG_slab))
		return ST_PAGE_SIZE << slab->order;
	s = slab->slab_cache;
	/* the caller may now use all of it: no kmalloc red zone any more */
	set_orig_size(s, (void *)obj, s->object_size);
	if (s->flags & (SLAB_RED_ZONE | SLAB_POISON))
		return s->object_size;
	if (s->flags & (SLAB_STORE_USER | SLAB_TYPESAFE_BY_RCU))
		return s->inuse;
	return s->size;
}

struct kmem_cache *st_virt_to_cache(const void *obj)
{
	struct slab *slab = st_virt_to_slab(obj);

	return slab && (slab->flags & PG_slab) ? slab->slab_cache : NULL;
}

/* ------------------------------------------------------------------ */
/* Cache creation                                                      */

static unsigned int fls_uint(unsigned int x)
{
	unsigned int r = 0;

	while (x) {
		r++;
		x >>= 1;
	}
	return r;
}

static inline unsigned int order_objects(unsigned int order, unsigned int size)
{
	return (unsigned int)((ST_PAGE_SIZE << order) / size);
}

/* Smallest order from @min up to @max that wastes at most 1/@fract. */
static unsigned int calc_slab_order(unsigned int size, unsigned int min,
				    unsigned int max, unsigned int fract)
{
	unsigned int order;

	for (order = min; order <= max; order++) {
		unsigned int slab_size = (unsigned int)(ST_PAGE_SIZE << order);

		if (slab_size % size <= slab_size / fract)
			break;
	}
	return order;
}

/*
 * The kernel's rule: enough objects per slab for the number of CPUs,
 * little waste, and no higher order than slub_max_order unless one object
 * does not fit otherwise.
 */
static unsigned int calculate_order(unsigned int size)
{
	unsigned int min_objects = st_slub_min_objects, max_objects;
	unsigned int min_order, order, fraction;

	if (!min_objects)
		min_objects = 4 * (fls_uint(CONFIG_NR_CPUS) + 1);
	max_objects = order_objects(st_slub_max_order, size);
	if (!max_objects)
		max_objects = 1;
	if (min_objects > max_objects)
		min_objects = max_objects;
	min_order = st_get_order((size_t)min_objects * size);
	if (order_objects(min_order, size) > MAX_OBJS_PER_PAGE)
		return st_get_order((size_t)size * MAX_OBJS_PER_PAGE) - 1;
	for (fraction = 16; fraction > 1; fraction /= 2) {
		order = calc_slab_order(size, min_order, st_slub_max_order,
					fraction);
		if (order <= st_slub_max_order)
			return order;
	}
	return st_get_order(size);
}

static unsigned int calculate_alignment(slab_flags_t flags,
					unsigned int align, unsigned int size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = ST_CACHE_LINE;

		while (size <= ralign / 2)
			ralign /= 2;
		if (ralign > align)
			align = ralign;
	}
	if (align < ARCH_SLAB_MINALIGN)
		align = ARCH_SLAB_MINALIGN;
	return ALIGN(align, (unsigned int)sizeof(void *));
}

/* Object layout: the object, red zones, free pointer, tracks, padding. */
static int calculate_sizes(struct kmem_cache *s)
{
	unsigned int size = ALIGN(s->object_size, (unsigned int)sizeof(void *));

#ifdef CONFIG_SLUB_DEBUG
	if ((s->flags & SLAB_POISON) && !s->ctor)
		s->flags |= __OBJECT_POISON;
	else
		s->flags &= ~__OBJECT_POISON;
	if ((s->flags & SLAB_RED_ZONE) && size == s->object_size)
		size += sizeof(void *);
#endif
	s->inuse = size;
	if ((s->flags & (SLAB_POISON | SLAB_TYPESAFE_BY_RCU)) || s->ctor) {
		/* the object's bytes are in use while free: pointer after it */
		s->offset = size;
		size += sizeof(void *);
	} else {
		/* mid-object, away from the edges overflows hit */
		s->offset = (s->object_size / 2) & ~(unsigned int)(sizeof(void *) - 1);
	}
#ifdef CONFIG_SLUB_DEBUG
	if (s->flags & SLAB_STORE_USER)
		size += 2 * sizeof(struct track);
	if (slub_debug_orig_size(s))
		size += sizeof(unsigned int);
	if (s->flags & SLAB_RED_ZONE) {
		size += sizeof(void *);
		s->red_left_pad = ALIGN((unsigned int)sizeof(void *), s->align);
		size += s->red_left_pad;
	}
#endif
	size = ALIGN(size, s->align);
	s->size = size;
	s->order = calculate_order(size);
	s->objects = order_objects(s->order, size);
	s->min_objects = order_objects(st_get_order(size), size);
	if (!s->objects || s->order > ST_MAX_ORDER)
		return -EINVAL;
	return 0;
}

static void set_min_partial(struct kmem_cache *s)
{
	unsigned int l = fls_uint(s->size) - 1;	/* ilog2 */

	/* ilog2(size) / 2, clamped to [MIN_PARTIAL, MAX_PARTIAL] */
	l /= 2;
	if (l > MAX_PARTIAL)
		l = MAX_PARTIAL;
	if (l + 1 < MIN_PARTIAL + 1)
		l = MIN_PARTIAL;
	s->min_partial = l;
}

static void set_cpu_partial(struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_CPU_PARTIAL
	unsigned int nr_objects;

	if (!kmem_cache_has_cpu_partial(s))
		nr_objects = 0;
	else if (s->size >= ST_PAGE_SIZE)
		nr_objects = 6;
	else if (s->size >= 1024)
		nr_objects = 24;
	else if (s->size >= 256)
		nr_objects = 52;
	else
		nr_objects = 120;
	s->cpu_partial_slabs = DIV_ROUND_UP(nr_objects * 2, s->objects);
#else
	(void)s;
#endif
}

static int kmem_cache_open(struct kmem_cache *s, const char *name,
			   unsigned int size, unsigned int align,
			   slab_flags_t flags, void (*ctor)(void *))
{
#ifdef ST_SLUB_SHEAVES
	INIT_LIST_HEAD(&s->node.barn.sheaves_full);
	INIT_LIST_HEAD(&s->node.barn.sheaves_empty);
#elif !defined(CONFIG_SLUB_TINY)
	unsigned int cpu;

	for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++)
		s->cpu_slab[cpu].cpu = cpu;
#endif
	s->name = name;
	s->object_size = size;
	s->flags = kmem_cache_flags(flags);
	s->ctor = ctor;
	s->align = calculate_alignment(flags, align, size);
	s->refcount = 1;
	if (calculate_sizes(s))
		return -EINVAL;
	set_min_partial(s);
	set_cpu_partial(s);
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	s->random = st_slab_random();
	s->block_mask = ~((ST_PAGE_SIZE << s->order) - 1);
#endif
	init_cache_random_seq(s);
	INIT_LIST_HEAD(&s->node.partial);
#ifdef CONFIG_SLUB_DEBUG
	INIT_LIST_HEAD(&s->node.full);
#endif
	return 0;
}

#define SLAB_NEVER_MERGE (SLAB_RED_ZONE | SLAB_POISON | SLAB_STORE_USER | \
			  SLAB_CONSISTENCY_CHECKS | SLAB_NO_MERGE | \
			  SLAB_TYPESAFE_BY_RCU)
#define SLAB_MERGE_SAME	(SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT)

#ifdef CONFIG_SLAB_MERGE_DEFAULT
static bool slab_nomerge_default;
#else
static bool slab_nomerge_default = true;
#endif

/* An existing cache that can serve objects of this kind, as the kernel merges. */
static struct kmem_cache *find_mergeable(unsigned int size, unsigned int align,
					 slab_flags_t flags,
					 void (*ctor)(void *))
{
	struct list_head *pos;

	if (slab_nomerge_default || st_slab_nomerge || ctor)
		return NULL;
	size = ALIGN(size, (unsigned int)sizeof(void *));
	align = calculate_alignment(flags, align, size);
	size = ALIGN(size, align);
	flags = kmem_cache_flags(flags);
	if (flags & SLAB_NEVER_MERGE)
		return NULL;
	for (pos = st_slab_caches.prev; pos != &st_slab_caches; pos = pos->prev) {
		struct kmem_cache *s = list_entry(pos, struct kmem_cache, list);

		if ((s->flags & SLAB_NEVER_MERGE) || s->ctor || s->refcount < 0)
			continue;
		if (size > s->size)
			continue;
		if ((flags & SLAB_MERGE_SAME) != (s->flags & SLAB_MERGE_SAME))
			continue;
		if ((s->size & ~(align - 1)) != s->size)
			continue;
		if (s->size - size >= sizeof(void *))
			continue;
		return s;
	}
	return NULL;
}

static struct kmem_cache *create_cache(const char *name, unsigned int size,
				       unsigned int align, slab_flags_t flags,
				       void (*ctor)(void *))
{
	struct kmem_cache *s;
	char *cname;

	s = kmem_cache_zalloc(kmem_cache, GFP_KERNEL);
	if (flags & SLAB_KMALLOC) {
		cname = (char *)name;	/* static kmalloc names */
	} else {
		size_t len = strlen(name) + 1;

		cname = st_kmalloc_node(len, GFP_KERNEL, 0);
		if (cname)
			memcpy(cname, name, len);
	}
	if (!s || !cname)
		goto fail;
	if (kmem_cache_open(s, cname, size, align, flags, ctor))
		goto fail;
#ifdef ST_SLUB_SHEAVES
	if (kmalloc_ready)
		init_sheaves(s);
#endif
	list_add_tail(&s->list, &st_slab_caches);
#ifdef SLAB_SUPPORTS_SYSFS
	st_sysfs_add_cache(s);
#endif
	return s;
fail:
	if (!(flags & SLAB_KMALLOC))
		kfree(cname);
	if (s)
		kmem_cache_free(kmem_cache, s);
	return NULL;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s = NULL;

	if (st_slab_lazy_init())
		goto out;
	if (!name || !size || size > KMALLOC_MAX_SIZE ||
	    (align & (align - 1)))
		goto out;
	spin_lock(&st_slab_mutex);
	s = find_mergeable(size, align, flags, ctor);
	if (s) {
		s->refcount++;
		if (size > s->object_size)
			s->object_size = size;
		if (ALIGN(size, (unsigned int)sizeof(void *)) > s->inuse)
			s->inuse = ALIGN(size, (unsigned int)sizeof(void *));
#ifdef SLAB_SUPPORTS_SYSFS
		st_sysfs_add_alias(s, name);
#endif
	} else {
		s = create_cache(name, size, align, flags, ctor);
	}
	spin_unlock(&st_slab_mutex);
out:
	if (!s && (flags & SLAB_PANIC))
		abort();
	return s;
}

/* Free every slab of @s; false if objects are still allocated. */
static bool kmem_cache_shutdown(struct kmem_cache *s)
{
	struct kmem_cache_node *n = &s->node;
	struct list_head *pos, *next;
	struct slab *slab;

#ifdef ST_SLUB_SHEAVES
	free_sheaves(s, true);
#else
	flush_all(s);
#endif
	spin_lock(&n->list_lock);
	for (pos = n->partial.next; pos != &n->partial; pos = next) {
		next = pos->next;
		slab = list_entry(pos, struct slab, slab_list);
		if (CNT_INUSE(slab_counters(slab)))
			continue;
		remove_partial(n, slab);
		spin_unlock(&n->list_lock);
		discard_slab(s, slab);
		spin_lock(&n->list_lock);
		next = n->partial.next;
	}
	spin_unlock(&n->list_lock);
	return READ_ONCE(n->nr_slabs) == 0;
}

int st_slub_shrink(struct kmem_cache *s)
{
	struct kmem_cache_node *n = &s->node;
	struct list_head *pos, *next;
	struct slab *slab, *discard = NULL;

	flush_all(s);
	spin_lock(&n->list_lock);
	for (pos = n->partial.next; pos != &n->partial; pos = next) {
		next = pos->next;
		slab = list_entry(pos, struct slab, slab_list);
		if (!CNT_INUSE(slab_counters(slab))) {
			remove_partial(n, slab);
			slab->next = discard;
			discard = slab;
		}
	}
	spin_unlock(&n->list_lock);
	while ((slab = discard)) {
		discard = slab->next;
		discard_slab(s, slab);
	}
	return 0;
}

int kmem_cache_shrink(struct kmem_cache *s)
{
	return s ? st_slub_shrink(s) : 0;
}

static void release_cache(struct kmem_cache *s)
{
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	kfree(s->random_seq);
#endif
	if (!(s->flags & SLAB_KMALLOC) && s != &boot_kmem_cache)
		kfree(s->name);
	if (s != &boot_kmem_cache)
		kmem_cache_free(kmem_cache, s);
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	if (!s)
		return;
	spin_lock(&st_slab_mutex);
	if (--s->refcount > 0) {
		spin_unlock(&st_slab_mutex);
		return;
	}
	/*
	 * As in the kernel, a cache that still has objects leaves the list
	 * (so nothing merges into it any more) and is not freed. Unlike
	 * the kernel, destroying it again once its objects are freed
	 * releases it.
	 */
	list_del(&s->list);
#ifdef SLAB_SUPPORTS_SYSFS
	st_sysfs_remove_cache(s);
#endif
	if (!kmem_cache_shutdown(s)) {
		st_slab_report("kmem_cache_destroy %s: Slab cache still has objects\n",
			       s->name);
		s->refcount = 0;
		spin_unlock(&st_slab_mutex);
		return;
	}
	spin_unlock(&st_slab_mutex);
	release_cache(s);
}

/* ------------------------------------------------------------------ */
/* Introspection helpers                                               */

static unsigned int count_free(struct kmem_cache *s, struct slab *slab)
{
	(void)s;
	return CNT_OBJECTS(slab_counters(slab)) - CNT_INUSE(slab_counters(slab));
}

#ifdef ST_SLUB_SHEAVES
static void count_sheaf(struct slab_sheaf *sheaf, struct slub_counts *cnt)
{
	if (!sheaf)
		return;
	cnt->sheaves++;
	cnt->sheaf_objects += sheaf->size;
}

/* Objects cached in sheaves are allocated from their slabs but free. */
static void count_sheaves(struct kmem_cache *s, struct slub_counts *cnt)
{
	struct node_barn *barn = &s->node.barn;
	struct list_head *pos;
	unsigned int cpu;

	for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++) {
		struct slub_percpu_sheaves *pcs = &s->cpu_sheaves[cpu];

		spin_lock(&pcs->lock);
		count_sheaf(pcs->main, cnt);
		count_sheaf(pcs->spare, cnt);
		spin_unlock(&pcs->lock);
	}
	spin_lock(&barn->lock);
	for (pos = barn->sheaves_full.next; pos != &barn->sheaves_full; pos = pos->next)
		count_sheaf(list_entry(pos, struct slab_sheaf, barn_list), cnt);
	for (pos = barn->sheaves_empty.next; pos != &barn->sheaves_empty; pos = pos->next)
		count_sheaf(list_entry(pos, struct slab_sheaf, barn_list), cnt);
	spin_unlock(&barn->lock);
}
#endif

void st_slub_count(struct kmem_cache *s, struct slub_counts *cnt)
{
	struct kmem_cache_node *n = &s->node;
	struct list_head *pos;

	memset(cnt, 0, sizeof(*cnt));
	spin_lock(&n->list_lock);
	for (pos = n->partial.next; pos != &n->partial; pos = pos->next) {
		struct slab *slab = list_entry(pos, struct slab, slab_list);

		cnt->partial++;
		cnt->partial_free += count_free(s, slab);
	}
	spin_unlock(&n->list_lock);
	cnt->slabs = (unsigned long)READ_ONCE(n->nr_slabs);
	cnt->objects = (unsigned long)READ_ONCE(n->total_objects);
	cnt->free = cnt->partial_free;
#ifdef ST_SLUB_SHEAVES
	count_sheaves(s, cnt);
	cnt->free += cnt->sheaf_objects;
#elif !defined(CONFIG_SLUB_TINY)
	{
		unsigned int cpu;

		for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++) {
			struct kmem_cache_cpu *c = &s->cpu_slab[cpu];
			struct slab *slab;
			void *fl;

			/* briefly own the CPU to read a stable picture */
			fl = cpu_claim(c);
			if (c->slab) {
				void *p;

				cnt->cpu_slabs++;
				for (p = fl; p; p = get_freepointer(s, p))
					cnt->free++;
				cnt->free += count_free(s, c->slab);
			}
#ifdef CONFIG_SLUB_CPU_PARTIAL
			for (slab = c->partial; slab; slab = slab->next) {
				cnt->cpu_partial++;
				cnt->free += count_free(s, slab);
			}
#else
			(void)slab;
#endif
			cpu_release(c, fl);
		}
	}
#endif
}

int st_kmem_cache_info(struct kmem_cache *s, struct st_cache_info *info)
{
	struct slub_counts c;

	if (!s)
		return -EINVAL;
	st_slub_count(s, &c);
	memset(info, 0, sizeof(*info));
	info->name = s->name;
	info->object_size = s->object_size;
	info->size = s->size;
	info->align = s->align;
	info->order = s->order;
	info->objs_per_slab = s->objects;
	info->min_partial = (unsigned int)s->min_partial;
#ifdef CONFIG_SLUB_CPU_PARTIAL
	info->cpu_partial_slabs = s->cpu_partial_slabs;
#endif
	info->refcount = (unsigned int)s->refcount;
	info->flags = s->flags & ~__OBJECT_POISON;
	info->nr_slabs = c.slabs;
	info->nr_partial = c.partial;
	info->nr_cpu_slabs = c.cpu_slabs;
	info->nr_cpu_partial = c.cpu_partial;
	info->nr_objects = c.objects;
	info->nr_free = c.free;
#ifdef ST_SLUB_SHEAVES
	info->sheaf_capacity = s->sheaf_capacity;
	info->nr_sheaves = c.sheaves;
	info->nr_sheaf_objects = c.sheaf_objects;
#endif
	return 0;
}

int st_kmem_cache_validate(struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_DEBUG
	struct kmem_cache_node *n = &s->node;
	struct list_head *heads[2] = { &n->partial, &n->full };
	unsigned long before = st_slab_nr_reports();
	unsigned int i, k;

	if (!kmem_cache_debug(s))
		return 0;
	spin_lock(&n->list_lock);
	for (k = 0; k < 2; k++) {
		struct list_head *pos;

		for (pos = heads[k]->next; pos != heads[k]; pos = pos->next) {
			struct slab *slab = list_entry(pos, struct slab, slab_list);

			for (i = 0; i < CNT_OBJECTS(slab_counters(slab)); i++) {
				void *obj = slab_object(s, slab, i);
				bool free = on_freelist(s, slab, obj);

				check_object(s, slab, obj, free ? SLUB_RED_INACTIVE
								: SLUB_RED_ACTIVE);
			}
		}
	}
	spin_unlock(&n->list_lock);
	return (int)(st_slab_nr_reports() - before);
#else
	(void)s;
	return 0;
#endif
}

/* ------------------------------------------------------------------ */
/* Boot                                                                */

static const char *kmalloc_name(char *buf, size_t len, const char *prefix,
				unsigned int size)
{
	if (size >= 1024 && !(size % 1024))
		snprintf(buf, len, "%s%uk", prefix, size / 1024);
	else
		snprintf(buf, len, "%s%u", prefix, size);
	return buf;
}

static char kmalloc_names[NR_KMALLOC_TYPES][ST_NR_KMALLOC_SIZES][24];

static int create_kmalloc_caches(void)
{
	unsigned int i, type, sz;

	for (type = 0; type < NR_KMALLOC_TYPES; type++) {
		const char *prefix = type == KMALLOC_NORMAL ? "kmalloc-" : "kmalloc-rcl-";
		slab_flags_t flags = SLAB_KMALLOC;

		if (type != KMALLOC_NORMAL)
			flags |= SLAB_RECLAIM_ACCOUNT;
		for (i = 0; i < st_nr_kmalloc_sizes; i++) {
			struct kmem_cache *s;
			const char *name;

			name = kmalloc_name(kmalloc_names[type][i],
					    sizeof(kmalloc_names[type][i]),
					    prefix, st_kmalloc_sizes[i]);
			sz = st_kmalloc_sizes[i];
			/*
			 * The kernel's guarantee: kmalloc() memory is aligned
			 * to the largest power of two dividing the size (96:
			 * 32, 192: 64), with or without red zones.
			 */
			s = create_cache(name, sz, sz & -sz, flags, NULL);
			if (!s)
				return -ENOMEM;
			kmalloc_caches[type][i] = s;
		}
	}
	return 0;
}

int st_allocator_init(void)
{
	struct list_head *pos;
	int ret;
#ifdef ST_SLUB_SHEAVES
	unsigned int type, i;
#endif

	/*
	 * Bootstrap: struct kmem_cache objects come from a cache that is
	 * itself static; its name is set once kmalloc works.
	 */
	memset(&boot_kmem_cache, 0, sizeof(boot_kmem_cache));
	if (kmem_cache_open(&boot_kmem_cache, "kmem_cache",
			    sizeof(struct kmem_cache), 0,
			    SLAB_HWCACHE_ALIGN, NULL))
		return -EINVAL;
	kmem_cache = &boot_kmem_cache;
	INIT_LIST_HEAD(&st_slab_caches);
	list_add(&boot_kmem_cache.list, &st_slab_caches);

	ret = create_kmalloc_caches();
	if (ret)
		return ret;
	kmalloc_ready = true;
#ifdef ST_SLUB_SHEAVES
	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i < st_nr_kmalloc_sizes; i++)
			init_sheaves(kmalloc_caches[type][i]);
#endif
	for (pos = st_slab_caches.next; pos != &st_slab_caches; pos = pos->next)
		init_cache_random_seq(list_entry(pos, struct kmem_cache, list));
#ifdef SLAB_SUPPORTS_SYSFS
	st_sysfs_init_done();
#endif
	return 0;
}

void st_allocator_exit(void)
{
	unsigned int type, i;
	struct kmem_cache *s;

#ifdef SLAB_SUPPORTS_SYSFS
	st_sysfs_exit();
#endif
#ifdef ST_SLUB_SHEAVES
	/*
	 * The kmalloc caches hold each other's sheaves: with every capacity
	 * 0 first, a sheaf freed into a cache already emptied goes to its
	 * slabs, one freed into a cache not yet emptied is flushed with it.
	 */
	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i < st_nr_kmalloc_sizes; i++)
			WRITE_ONCE(kmalloc_caches[type][i]->sheaf_capacity, 0);
	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i < st_nr_kmalloc_sizes; i++)
			free_sheaves(kmalloc_caches[type][i], true);
#endif
	/*
	 * The kmalloc caches hold each other's random sequences: free those
	 * first, then the slabs, then the cache structures, then the boot
	 * cache's slabs.
	 */
	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i < st_nr_kmalloc_sizes; i++) {
			s = kmalloc_caches[type][i];
#ifdef CONFIG_SLAB_FREELIST_RANDOM
			kfree(s->random_seq);
			s->random_seq = NULL;
#endif
		}
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	kfree(boot_kmem_cache.random_seq);
	boot_kmem_cache.random_seq = NULL;
#endif
	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i < st_nr_kmalloc_sizes; i++) {
			s = kmalloc_caches[type][i];
			if (!kmem_cache_shutdown(s))
				st_slab_report("kmem_cache_destroy %s: Slab cache still has objects\n",
					       s->name);
		}
	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i < st_nr_kmalloc_sizes; i++) {
			s = kmalloc_caches[type][i];
			kmalloc_caches[type][i] = NULL;
			list_del(&s->list);
			kmem_cache_free(kmem_cache, s);
		}
	kmalloc_ready = false;
	if (!kmem_cache_shutdown(&boot_kmem_cache))
		st_slab_report("kmem_cache_destroy kmem_cache: Slab cache still has objects\n");
	list_del(&boot_kmem_cache.list);
}

#endif /* CONFIG_SLUB */
