// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page allocator under every variant: a binary buddy allocator over
 * one arena, with the accounting that makes the footprint a measurement.
 * Also the small services every variant needs: the per-thread emulated
 * CPU number, reports of detected corruption and a PRNG.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE	/* sched_setaffinity() */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "slab_priv.h"

#if !defined(ST_SLAB_NO_MMAP) && (defined(__unix__) || defined(__APPLE__)) && \
	__has_include(<sys/mman.h>)
#define ST_ARENA_MMAP 1
#include <sys/mman.h>
#endif
#if defined(CONFIG_SMP) && defined(__linux__) && __has_include(<sched.h>)
#include <sched.h>
#define ST_HAVE_YIELD 1
#endif

#ifdef ST_SLAB_RSEQ
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#define ARENA_PAGES	((unsigned long)CONFIG_PAGE_ARENA_MB << (20 - ST_PAGE_SHIFT))

static struct {
	st_spinlock_t lock;		/* the zone lock */
	bool ready;
	char *raw;			/* what malloc() gave (no mmap) */
	struct list_head free_area[ST_MAX_ORDER + 1];
	struct st_page_stats st;
} zone;

unsigned long st_slab_event_clock;
struct st_pagemap st_pagemap;
static void *memmap_raw;		/* what st_pagemap.memmap was carved from */

static void arena_unmap(void)
{
#ifdef ST_ARENA_MMAP
	munmap(st_pagemap.base, (size_t)ARENA_PAGES << ST_PAGE_SHIFT);
#else
	free(zone.raw);
	zone.raw = NULL;
#endif
	st_pagemap.base = NULL;
}

bool st_page_inited(void)
{
	return READ_ONCE(zone.ready);
}

static inline unsigned long slab_pfn(const struct slab *slab)
{
	return (unsigned long)(slab - st_pagemap.memmap);
}

void *st_slab_address(const struct slab *slab)
{
	return st_pagemap.base + (slab_pfn(slab) << ST_PAGE_SHIFT);
}

unsigned int st_get_order(size_t size)
{
	unsigned int order = 0;

	size = (size - 1) >> ST_PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

static void add_free_block(unsigned long pfn, unsigned int order)
{
	struct slab *p = &st_pagemap.memmap[pfn];

	p->flags = 0;
	p->buddy = 1;
	p->order = (unsigned char)order;
	list_add(&p->slab_list, &zone.free_area[order]);
}

/*
 * The arena is aligned to its largest block, so that every buddy block is
 * naturally aligned in memory too: power-of-two kmalloc()s above a page
 * are then aligned to their size, as the kernel's are.
 */
#define ARENA_ALIGN	(ST_PAGE_SIZE << ST_MAX_ORDER)

int st_page_init(void)
{
	unsigned long pfn, npages = ARENA_PAGES;
	unsigned int o;
	size_t bytes = npages << ST_PAGE_SHIFT;
	char *raw;

	if (zone.ready)
		return 0;
#ifdef ST_ARENA_MMAP
	raw = mmap(NULL, bytes + ARENA_ALIGN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		return -ENOMEM;
	st_pagemap.base = (char *)ALIGN((uintptr_t)raw, ARENA_ALIGN);
	/* give back what the alignment skipped, before and after */
	if (st_pagemap.base != raw)
		munmap(raw, (size_t)(st_pagemap.base - raw));
	munmap(st_pagemap.base + bytes, ARENA_ALIGN - (size_t)(st_pagemap.base - raw));
#else
	/* No mmap (newlib targets): one malloc'd region, aligned by hand. */
	raw = malloc(bytes + ARENA_ALIGN);
	if (!raw)
		return -ENOMEM;
	zone.raw = raw;
	st_pagemap.base = (char *)ALIGN((uintptr_t)raw, ARENA_ALIGN);
#endif
	/* one cache line per descriptor: aligned by hand (newlib too) */
	memmap_raw = calloc(npages + 1, sizeof(*st_pagemap.memmap));
	if (!memmap_raw) {
		arena_unmap();
		return -ENOMEM;
	}
	st_pagemap.memmap = (struct slab *)ALIGN((uintptr_t)memmap_raw, ST_CACHE_LINE);
	st_pagemap.nr = npages;
	for (o = 0; o <= ST_MAX_ORDER; o++)
		INIT_LIST_HEAD(&zone.free_area[o]);
	/* Carve the arena into the largest naturally aligned blocks. */
	for (pfn = 0; pfn < npages;) {
		o = ST_MAX_ORDER;
		while ((pfn & ((1UL << o) - 1)) || pfn + (1UL << o) > npages)
			o--;
		add_free_block(pfn, o);
		pfn += 1UL << o;
	}
	zone.st.page_size = ST_PAGE_SIZE;
	zone.st.total_pages = npages;
	st_rseq_init();
	WRITE_ONCE(zone.ready, true);
	return 0;
}

/* Give the arena back; only meaningful once everything has been freed. */
void st_page_exit(void)
{
	if (!zone.ready)
		return;
	zone.ready = false;
	free(memmap_raw);
	memmap_raw = NULL;
	st_pagemap.memmap = NULL;
	arena_unmap();
	memset(&zone.st, 0, sizeof(zone.st));
}

/* Take a block of 2^order pages off the free lists, splitting larger ones. */
static struct slab *rmqueue(unsigned int order)
{
	unsigned int o;
	struct slab *p;
	unsigned long pfn;

	for (o = order; o <= ST_MAX_ORDER; o++)
		if (!list_empty(&zone.free_area[o]))
			break;
	if (o > ST_MAX_ORDER)
		return NULL;
	p = list_entry(zone.free_area[o].next, struct slab, slab_list);
	list_del(&p->slab_list);
	pfn = slab_pfn(p);
	while (o > order) {
		o--;
		add_free_block(pfn + (1UL << o), o);
	}
	return p;
}

void *st_alloc_pages(unsigned int order, bool zero)
{
	struct slab *p;
	unsigned long i, n = 1UL << order;
	void *addr;

	if (order > ST_MAX_ORDER)
		return NULL;
	spin_lock(&zone.lock);
	p = rmqueue(order);
	if (!p) {
		zone.st.nr_failed++;
		spin_unlock(&zone.lock);
		return NULL;
	}
	zone.st.nr_pages += n;
	if (zone.st.nr_pages > zone.st.peak_pages)
		zone.st.peak_pages = zone.st.nr_pages;
	zone.st.nr_allocs++;
	zone.st.blocks[order]++;
	zone.st.allocs[order]++;
	/*
	 * Until its head says PG_head the block still reads as a free buddy
	 * (of the order it had before the split): a concurrent free of its
	 * buddy would merge it back into the free lists. So the descriptor
	 * is finished before the zone lock is dropped.
	 */
	memset(p, 0, sizeof(*p));
	p->flags = PG_head;
	p->order = (unsigned char)order;
	INIT_LIST_HEAD(&p->slab_list);
	for (i = 1; i < n; i++) {
		p[i].flags = PG_tail;
		p[i].head = p;
	}
	spin_unlock(&zone.lock);

	addr = st_slab_address(p);
	if (zero)
		memset(addr, 0, n << ST_PAGE_SHIFT);
	return addr;
}

void st_free_pages(void *addr)
{
	struct slab *p = st_virt_to_slab(addr);
	unsigned long pfn, buddy, i, n;
	unsigned int order;

	if (!p)
		return;
	order = p->order;
	n = 1UL << order;
	for (i = 1; i < n; i++)
		p[i].flags = 0;
	pfn = slab_pfn(p);

	spin_lock(&zone.lock);
	zone.st.nr_pages -= n;
	zone.st.nr_frees++;
	zone.st.blocks[order]--;
	/* Merge with the buddy as long as it is free and of the same order. */
	while (order < ST_MAX_ORDER) {
		struct slab *b;

		buddy = pfn ^ (1UL << order);
		if (buddy + (1UL << order) > st_pagemap.nr)
			break;
		b = &st_pagemap.memmap[buddy];
		if (!b->buddy || b->order != order)
			break;
		list_del(&b->slab_list);
		b->buddy = 0;
		st_pagemap.memmap[pfn].buddy = 0;
		pfn &= ~(1UL << order);
		order++;
	}
	add_free_block(pfn, order);
	spin_unlock(&zone.lock);
}

void st_page_account_slab(struct slab *slab, long pages, bool reclaim)
{
	spin_lock(&zone.lock);
	zone.st.nr_slab_pages += pages;
	if (reclaim)
		zone.st.nr_reclaimable += pages;
	spin_unlock(&zone.lock);
	(void)slab;
}

void st_page_account_large(long pages)
{
	spin_lock(&zone.lock);
	zone.st.nr_slab_pages += pages;
	zone.st.nr_large_pages += pages;
	spin_unlock(&zone.lock);
}

void st_page_stats(struct st_page_stats *st)
{
	spin_lock(&zone.lock);
	*st = zone.st;
	spin_unlock(&zone.lock);
	st->page_size = ST_PAGE_SIZE;
	st->total_pages = ARENA_PAGES;
}

void st_page_stats_reset_peak(void)
{
	spin_lock(&zone.lock);
	zone.st.peak_pages = zone.st.nr_pages;
	spin_unlock(&zone.lock);
}

/* ------------------------------------------------------------------ */

bool st_slab_rseq;

#ifdef ST_SLAB_RSEQ
long st_rseq_off;

static long membarrier(int cmd, unsigned int flags, int cpu)
{
	return syscall(__NR_membarrier, cmd, flags, cpu);
}

/* The highest CPU number the kernel may ever report, or -1. */
static int max_possible_cpu(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	char buf[256], *p;
	long v = -1;

	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			/* "0-1", "0", "0-3,8-11": the last number */
			for (p = buf; *p; p++)
				if (*p >= '0' && *p <= '9' &&
				    (p == buf || p[-1] < '0' || p[-1] > '9'))
					v = strtol(p, NULL, 10);
		}
		fclose(f);
	}
	if (v < 0)
		v = sysconf(_SC_NPROCESSORS_CONF) - 1;
	return (int)v;
}

/*
 * Use rseq when glibc registered this thread's area, the emulated CPUs
 * cover every CPU the kernel may report (CONFIG_NR_CPUS >= possible
 * CPUs), remote slow paths can fence a CPU (membarrier's RSEQ command,
 * Linux 5.10+), and ST_SLAB_RSEQ is not "0".
 */
void st_rseq_init(void)
{
	const char *env = getenv("ST_SLAB_RSEQ");

	st_slab_rseq = false;
	st_rseq_off = __rseq_offset;
	if ((env && !strcmp(env, "0")) || !__rseq_size || st_rseq_cpu_id() < 0)
		return;
	if (max_possible_cpu() < 0 || max_possible_cpu() >= CONFIG_NR_CPUS)
		return;
	if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0))
		return;
	st_slab_rseq = true;
}

int st_rseq_fence(int cpu)
{
	if (!membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ,
			MEMBARRIER_CMD_FLAG_CPU, cpu))
		return 0;
	/* a child of fork() has a new mm, not registered yet */
	if (errno != EPERM ||
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0) ||
	    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ,
		       MEMBARRIER_CMD_FLAG_CPU, cpu))
		return -errno;
	return 0;
}
#else
void st_rseq_init(void)
{
}
#endif

const char *st_slab_fastpath(void)
{
#if defined(CONFIG_SLOB) || defined(CONFIG_SLUB_TINY)
	return "none";
#elif defined(ST_SLUB_SHEAVES)
	return "sheaves";
#else
	if (st_slab_rseq)
		return "rseq";
#if defined(CONFIG_SMP) && defined(ST_HAVE_CMPXCHG_DOUBLE)
	return "cmpxchg";
#elif defined(CONFIG_SMP)
	return "locked";
#else
	return "plain";
#endif
#endif
}

#ifdef CONFIG_SMP
void st_cpu_relax_slow(unsigned int *spins)
{
	if (++*spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		return;
	}
	*spins = 0;
#ifdef ST_HAVE_YIELD
	sched_yield();	/* the holder may be preempted: let it run */
#endif
}

_Thread_local unsigned int st_this_cpu_plus1
	__attribute__((tls_model("initial-exec")));
static unsigned int next_cpu;

/* A thread's first look at its CPU: hand out the next one. */
unsigned int st_this_cpu_slow(void)
{
	unsigned int c;

	c = __atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED) % CONFIG_NR_CPUS;
	st_this_cpu_plus1 = c + 1;
	return c;
}

void st_slab_set_cpu(unsigned int cpu)
{
	st_this_cpu_plus1 = cpu % CONFIG_NR_CPUS + 1;
#ifdef ST_SLAB_RSEQ
	/* the per-CPU data is the real CPU's: run there */
	if (st_slab_rseq) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu % CONFIG_NR_CPUS, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
#endif
}
#else
void st_slab_set_cpu(unsigned int cpu)
{
	(void)cpu;
}
#endif

unsigned int st_slab_nr_cpus(void)
{
	return CONFIG_NR_CPUS;
}

static unsigned long rnd_state = (unsigned long)0x2545f4914f6cdd1dULL;

unsigned long st_slab_random(void)
{
	unsigned long x;

	/* xorshift; races only make it more random */
	x = READ_ONCE(rnd_state);
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	WRITE_ONCE(rnd_state, x);
	return x * (unsigned long)0x9e3779b97f4a7c15ULL;
}

static struct {
	st_spinlock_t lock;
	unsigned long nr;
	char text[4096];
	st_slab_report_fn fn;
	void *arg;
} rep;

void st_slab_report(const char *fmt, ...)
{
	va_list ap;

	spin_lock(&rep.lock);
	va_start(ap, fmt);
	vsnprintf(rep.text, sizeof(rep.text), fmt, ap);
	va_end(ap);
	rep.nr++;
	if (rep.fn)
		rep.fn(rep.text, rep.arg);
	spin_unlock(&rep.lock);
}

void st_slab_set_report_handler(st_slab_report_fn fn, void *arg)
{
	spin_lock(&rep.lock);
	rep.fn = fn;
	rep.arg = arg;
	spin_unlock(&rep.lock);
}

unsigned long st_slab_nr_reports(void)
{
	return READ_ONCE(rep.nr);
}

const char *st_slab_last_report(void)
{
	return rep.nr ? rep.text : "";
}
