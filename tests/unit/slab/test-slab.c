// SPDX-License-Identifier: GPL-2.0-only
/*
 * Functional tests of one lib/slab variant (the one linked in). Usage:
 * test-slab CASE. Behaviour that differs between variants is asserted per
 * the CONFIG_ symbols of the variant's generated header. Every case ends
 * with st_slab_exit() and checks that the page count is back to zero.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slab.h"

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Linux 7.0's SLUB: per-CPU sheaves instead of per-CPU slabs. */
#if defined(CONFIG_SLUB_SHEAVES) && defined(CONFIG_SLUB) && !defined(CONFIG_SLUB_TINY)
#define HAVE_SHEAVES 1
#endif
/* ... which debug caches, all caches under SLUB_DEBUG_ON, do without */
#if defined(HAVE_SHEAVES) && !defined(CONFIG_SLUB_DEBUG_ON)
#define HAVE_SHEAVES_ON 1
#endif

static int failures;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: %s: check failed: %s\n",		\
			__FILE__, __LINE__, __func__, #cond);		\
		failures++;						\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	unsigned long _a = (unsigned long)(a), _b = (unsigned long)(b);	\
	if (_a != _b) {							\
		fprintf(stderr, "%s:%d: %s: %s == %lu, expected %s == %lu\n", \
			__FILE__, __LINE__, __func__, #a, _a, #b, _b);	\
		failures++;						\
	}								\
} while (0)

static unsigned long nr_pages(void)
{
	struct st_page_stats st;

	st_page_stats(&st);
	return st.nr_pages;
}

static unsigned long reports_before;

static unsigned long new_reports(void)
{
	unsigned long n = st_slab_nr_reports() - reports_before;

	reports_before = st_slab_nr_reports();
	return n;
}

static bool is_aligned(const void *p, unsigned long a)
{
	return !((uintptr_t)p & (a - 1));
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ------------------------------------------------------------------ */

static void test_kmalloc(void)
{
	static const size_t sizes[] = { 1, 7, 8, 9, 16, 24, 32, 33, 64, 65, 96,
		100, 128, 129, 192, 200, 256, 500, 512, 1000, 1024, 2000, 2048,
		3000, 4096, 5000, 8192, 8193, 16384, 100000 };
	void *p[N_ELEM(sizes)];
	unsigned int i;

	for (i = 0; i < N_ELEM(sizes); i++) {
		size_t s = sizes[i];

		p[i] = kmalloc(s, GFP_KERNEL);
		CHECK(p[i] != NULL);
		if (!p[i])
			continue;
		CHECK(is_aligned(p[i], 8));
		/* power-of-two kmallocs are naturally aligned (up to a page) */
		if (!(s & (s - 1)) && s >= 8 && s <= ST_PAGE_SIZE)
			CHECK(is_aligned(p[i], s));
		CHECK(ksize(p[i]) >= s);
		memset(p[i], 0x5c, ksize(p[i]));
	}
	for (i = 0; i < N_ELEM(sizes); i++) {
		const unsigned char *c = p[i];

		if (c)
			CHECK(c[0] == 0x5c && c[sizes[i] - 1] == 0x5c);
		kfree(p[i]);
	}
	CHECK_EQ(new_reports(), 0);
}

/*
 * kmalloc() alignment as the kernel guarantees it: the largest power of
 * two dividing the size (96: 32, 192: 64), for every size up to
 * KMALLOC_MAX_SIZE, red zones or not. SLOB (removed before that
 * guarantee) aligns powers of two only. Above a page the blocks come from
 * the buddy allocator and are aligned to their size, which needs an arena
 * aligned to its largest block.
 */
static unsigned long kmalloc_align(size_t size)
{
	unsigned long a = (unsigned long)(size & -size);

#ifdef CONFIG_SLOB
	if (size & (size - 1))
		return a < 8 ? a : 8;
#endif
	return a;
}

static void test_kmalloc_align(void)
{
	size_t size;
	int bad = 0;

	for (size = 1; size <= KMALLOC_MAX_SIZE;
	     size = size < 512 ? size + 1 : size < 65536 ? size + 24 : size * 2) {
		void *p = kmalloc(size, GFP_KERNEL);
		void *q = kmalloc(size, GFP_KERNEL);

		CHECK(p && q);
		if (!p || !q || !is_aligned(p, kmalloc_align(size)) ||
		    !is_aligned(q, kmalloc_align(size))) {
			if (bad++ < 10)
				fprintf(stderr, "kmalloc(%zu) = %p, %p: not %lu-aligned\n",
					size, p, q, kmalloc_align(size));
		}
		if (p)
			memset(p, 0x3c, size);
		kfree(q);
		kfree(p);
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(new_reports(), 0);
}

static void test_zero_huge(void)
{
	struct st_page_stats a, b;
	unsigned char *p;
	size_t i;

	CHECK(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	CHECK_EQ(ksize(NULL), 0);
	CHECK(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL) == NULL);
	CHECK(kmem_cache_create("zero", 0, 0, 0, NULL) == NULL);
	CHECK(kmem_cache_create("badalign", 8, 3, 0, NULL) == NULL);

	p = kzalloc(3000, GFP_KERNEL);
	CHECK(p != NULL);
	for (i = 0; p && i < 3000; i++)
		if (p[i])
			break;
	CHECK_EQ(i, 3000);
	kfree(p);

	/* large kmalloc comes straight from the page allocator */
	st_page_stats(&a);
	p = kmalloc(1 << 20, GFP_KERNEL);
	CHECK(p != NULL);
	CHECK(is_aligned(p, ST_PAGE_SIZE));
	st_page_stats(&b);
	CHECK_EQ(b.nr_pages - a.nr_pages, (1 << 20) / ST_PAGE_SIZE);
	CHECK_EQ(b.nr_large_pages - a.nr_large_pages, (1 << 20) / ST_PAGE_SIZE);
	CHECK_EQ(ksize(p), 1 << 20);
	memset(p, 1, 1 << 20);
	kfree(p);
	st_page_stats(&b);
	CHECK_EQ(b.nr_pages, a.nr_pages);
	CHECK(b.peak_pages >= a.nr_pages + (1 << 20) / ST_PAGE_SIZE);
	st_page_stats_reset_peak();
	st_page_stats(&b);
	CHECK_EQ(b.peak_pages, b.nr_pages);
	CHECK_EQ(new_reports(), 0);
}

static void test_krealloc(void)
{
	unsigned char *p, *q;
	size_t i, sz;

	p = krealloc(NULL, 10, GFP_KERNEL);
	CHECK(p != NULL);
	for (i = 0; i < 10; i++)
		p[i] = (unsigned char)i;
	for (sz = 20; sz < 20000; sz = sz * 3 / 2) {
		q = krealloc(p, sz, GFP_KERNEL);
		CHECK(q != NULL);
		if (!q)
			break;
		p = q;
		CHECK(ksize(p) >= sz);
		for (i = 0; i < 10; i++)
			CHECK(p[i] == i);
	}
	/* shrinking in place keeps the object */
	q = krealloc(p, 5, GFP_KERNEL);
	CHECK(q == p);
	p = q;
	q = krealloc(p, 0, GFP_KERNEL);
	CHECK(q == ZERO_SIZE_PTR);

	/* __GFP_ZERO zeroes what is new */
	p = kmalloc(8, GFP_KERNEL);
	memset(p, 0xff, 8);
	q = krealloc(p, 300, GFP_KERNEL | __GFP_ZERO);
	CHECK(q && q[7] == 0xff && q[8] == 0 && q[299] == 0);
	kfree(q);
	CHECK_EQ(new_reports(), 0);
}

static void test_align(void)
{
	static const unsigned int aligns[] = { 0, 8, 16, 32, 64, 128, 256 };
	struct kmem_cache *c;
	unsigned int i, j, sz;
	void *objs[40];

	for (i = 0; i < N_ELEM(aligns); i++) {
		for (sz = 12; sz < 3000; sz = sz * 5 / 2) {
			c = kmem_cache_create("align", sz, aligns[i], SLAB_NO_MERGE, NULL);
			CHECK(c != NULL);
			for (j = 0; j < 40; j++) {
				objs[j] = kmem_cache_alloc(c, GFP_KERNEL);
				CHECK(objs[j] != NULL);
				CHECK(is_aligned(objs[j], aligns[i] ? aligns[i] : 8));
				memset(objs[j], 0x11, sz);
			}
			for (j = 0; j < 40; j++)
				kmem_cache_free(c, objs[j]);
			kmem_cache_destroy(c);
		}
	}
	/* SLAB_HWCACHE_ALIGN: a cache line, or half for small objects */
	c = kmem_cache_create("hwalign", 100, 0, SLAB_HWCACHE_ALIGN, NULL);
	for (j = 0; j < 10; j++) {
		objs[j] = kmem_cache_alloc(c, GFP_KERNEL);
		CHECK(is_aligned(objs[j], 64));
	}
	for (j = 0; j < 10; j++)
		kmem_cache_free(c, objs[j]);
	kmem_cache_destroy(c);
	c = kmem_cache_create("hwalign-small", 20, 0, SLAB_HWCACHE_ALIGN, NULL);
	objs[0] = kmem_cache_alloc(c, GFP_KERNEL);
	objs[1] = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(is_aligned(objs[0], 32) && is_aligned(objs[1], 32));
	kmem_cache_free(c, objs[0]);
	kmem_cache_free(c, objs[1]);
	kmem_cache_destroy(c);
	CHECK_EQ(new_reports(), 0);
}

/*
 * Alignment above a page (size 100, align 8192): SLUB's order-1 slabs are
 * aligned to their size, so it works; SLOB places objects inside one page
 * and refuses the cache with a report instead of failing half of the
 * allocations and leaking their pages.
 */
static void test_align_page(void)
{
	struct kmem_cache *c = kmem_cache_create("align-8k", 100, 8192, 0, NULL);
	void *o[20];
	int i;

#ifdef CONFIG_SLOB
	CHECK(c == NULL);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(),
		     "kmem_cache_create align-8k: SLOB cannot align 100-byte objects to 8192 bytes") != NULL);
	(void)o;
	(void)i;
#else
	CHECK(c != NULL);
	for (i = 0; c && i < 20; i++) {
		o[i] = kmem_cache_alloc(c, GFP_KERNEL);
		CHECK(o[i] != NULL && is_aligned(o[i], 8192));
		if (o[i])
			memset(o[i], 0x19, 100);
	}
	for (i = 0; c && i < 20; i++)
		kmem_cache_free(c, o[i]);
	kmem_cache_destroy(c);
	CHECK_EQ(new_reports(), 0);
#endif
}

static int ctor_calls;

static void ctor(void *p)
{
	memset(p, 0xab, 48);
	__atomic_fetch_add(&ctor_calls, 1, __ATOMIC_RELAXED);
}

static void test_ctor(void)
{
	struct kmem_cache *c = kmem_cache_create("ctor", 48, 0, 0, ctor);
	unsigned char *p[100];
	int i;

	CHECK(c != NULL);
	for (i = 0; i < 100; i++) {
		p[i] = kmem_cache_alloc(c, GFP_KERNEL);
		CHECK(p[i] && p[i][0] == 0xab && p[i][47] == 0xab);
	}
	CHECK(ctor_calls >= 100);
	for (i = 0; i < 100; i++)
		kmem_cache_free(c, p[i]);
	/* a zalloc still zeroes */
	p[0] = kmem_cache_zalloc(c, GFP_KERNEL);
	CHECK(p[0] && p[0][0] == 0 && p[0][47] == 0);
	kmem_cache_free(c, p[0]);
	kmem_cache_destroy(c);
	CHECK_EQ(new_reports(), 0);
}

static void test_many_caches(void)
{
	struct kmem_cache *c[120];
	void *o[120][5];
	char name[32];
	unsigned long base = nr_pages();
	int i, j;

	for (i = 0; i < 120; i++) {
		snprintf(name, sizeof(name), "cache-%d", i);
		c[i] = kmem_cache_create(name, 8 + (unsigned int)i * 37, 0,
					 i & 1 ? SLAB_NO_MERGE : 0, NULL);
		CHECK(c[i] != NULL);
		for (j = 0; j < 5; j++) {
			o[i][j] = kmem_cache_alloc(c[i], GFP_KERNEL);
			CHECK(o[i][j] != NULL);
			memset(o[i][j], i, 8 + (size_t)i * 37);
		}
	}
	for (i = 0; i < 120; i++) {
		for (j = 0; j < 5; j++) {
			CHECK(((unsigned char *)o[i][j])[0] == (unsigned char)i);
			kmem_cache_free(c[i], o[i][j]);
		}
	}
	for (i = 119; i >= 0; i--)
		kmem_cache_destroy(c[i]);
	/* destroying every cache gives back their slabs */
	CHECK(nr_pages() <= base + 64);
	CHECK_EQ(new_reports(), 0);
}

static void test_merge(void)
{
	struct kmem_cache *a, *b, *n, *r, *k;
	struct st_cache_info ia, ib;

	(void)ia;
	a = kmem_cache_create("merge-a", 200, 0, 0, NULL);
	b = kmem_cache_create("merge-b", 200, 0, 0, NULL);
	n = kmem_cache_create("merge-n", 200, 0, SLAB_NO_MERGE, NULL);
	k = kmem_cache_create("merge-c", 200, 0, 0, ctor);
	CHECK(a && b && n && k);
	CHECK(n != a && n != b && k != a);
#if defined(CONFIG_SLUB) && defined(CONFIG_SLAB_MERGE_DEFAULT) && !defined(CONFIG_SLUB_DEBUG_ON)
	CHECK(a == b);
	st_kmem_cache_info(a, &ia);
	/* 200 bytes merge into kmalloc-192? no: into an existing 200..207 cache */
	CHECK(ia.refcount >= 2);
#else
	CHECK(a != b);
#endif
	st_kmem_cache_info(n, &ib);
	CHECK_EQ(ib.refcount, 1);
	/* merging with kmalloc caches: 192-byte caches are kmalloc-192 */
	r = kmem_cache_create("merge-192", 192, 0, 0, NULL);
#if defined(CONFIG_SLUB) && defined(CONFIG_SLAB_MERGE_DEFAULT) && !defined(CONFIG_SLUB_DEBUG_ON)
	{
		void *o = kmalloc(150, GFP_KERNEL);

		CHECK(st_virt_to_cache(o) == r);
		kfree(o);
		st_kmem_cache_info(r, &ia);
		CHECK(!strcmp(ia.name, "kmalloc-192"));
	}
#endif
	kmem_cache_destroy(r);
	kmem_cache_destroy(k);
	kmem_cache_destroy(n);
	kmem_cache_destroy(b);
	kmem_cache_destroy(a);
	CHECK_EQ(new_reports(), 0);
}

static void test_reclaim(void)
{
	struct st_page_stats st0, st1;
	struct kmem_cache *plain, *rcl;
	void *o[200], *k;
	int i;

	st_page_stats(&st0);
	plain = kmem_cache_create("rcl-plain", 512, 0, 0, NULL);
	rcl = kmem_cache_create("rcl-yes", 512, 0, SLAB_RECLAIM_ACCOUNT, NULL);
	for (i = 0; i < 200; i++)
		o[i] = kmem_cache_alloc(rcl, GFP_KERNEL);
	st_page_stats(&st1);
	k = kmalloc(100, GFP_KERNEL | __GFP_RECLAIMABLE);
	CHECK(k != NULL);
#if defined(CONFIG_SLUB) && !defined(CONFIG_SLUB_TINY)
	/* reclaimable slabs are accounted apart and never merged with others */
	CHECK(st1.nr_reclaimable >= st0.nr_reclaimable + 200 * 512 / ST_PAGE_SIZE);
	CHECK(plain != rcl);
	{
		struct st_cache_info info;

		st_kmem_cache_info(st_virt_to_cache(k), &info);
		CHECK(!strcmp(info.name, "kmalloc-rcl-128"));
	}
#elif defined(CONFIG_SLUB_TINY)
	/* SLAB_RECLAIM_ACCOUNT is 0: same flags, so the caches merge */
	CHECK_EQ(SLAB_RECLAIM_ACCOUNT, 0);
	CHECK_EQ(st1.nr_reclaimable, 0);
	CHECK(plain == rcl);
	{
		/* the kernel's numeric value (a replayed trace) is ignored too */
		struct kmem_cache *raw = kmem_cache_create("rcl-raw", 512, 0,
							   0x00020000u, NULL);

		CHECK(raw == plain);
		kmem_cache_destroy(raw);
	}
	{
		struct st_cache_info info;

		st_kmem_cache_info(st_virt_to_cache(k), &info);
		CHECK(!strcmp(info.name, "kmalloc-128"));
	}
#endif
	kfree(k);
	for (i = 0; i < 200; i++)
		kmem_cache_free(rcl, o[i]);
	kmem_cache_destroy(rcl);
	kmem_cache_destroy(plain);
	CHECK_EQ(new_reports(), 0);
}

/* Destroy gives every page back; shrink frees empty slabs. */
static void test_shrink_destroy(void)
{
	unsigned long base = nr_pages();
	struct kmem_cache *c = kmem_cache_create("shrink", 1000, 0, SLAB_NO_MERGE, NULL);
	void *o[500];
	int i;

	for (i = 0; i < 500; i++)
		o[i] = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(nr_pages() >= base + 500 * 1000 / ST_PAGE_SIZE);
	for (i = 0; i < 500; i++)
		kmem_cache_free(c, o[i]);
	kmem_cache_shrink(c);
#ifdef CONFIG_SLUB
	{
		struct st_cache_info info;

		st_kmem_cache_info(c, &info);
		CHECK_EQ(info.nr_slabs, 0);
	}
#endif
	kmem_cache_destroy(c);
	/*
	 * Only the metadata (struct kmem_cache, name, sysfs nodes) may stay,
	 * as free objects in slabs other caches keep; main() checks zero.
	 */
	CHECK(nr_pages() <= base + 8);
	CHECK_EQ(new_reports(), 0);
}

/*
 * A cache whose destroy failed (objects left) is off the list: a new
 * cache of the same size is not merged into it, and its own destroy
 * reports nothing. Once its objects are freed, a second destroy gives
 * everything back.
 */
static void test_destroy_busy(void)
{
	struct kmem_cache *a, *b;
	void *o, *p;

	a = kmem_cache_create("busy-a", 72, 0, 0, NULL);
	o = kmem_cache_alloc(a, GFP_KERNEL);
	CHECK(a && o);
	kmem_cache_destroy(a);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "kmem_cache_destroy busy-a: Slab cache still has objects") != NULL);
	b = kmem_cache_create("busy-b", 72, 0, 0, NULL);
	CHECK(b != NULL && b != a);
	p = kmem_cache_alloc(b, GFP_KERNEL);
	CHECK(p != NULL && p != o);
	kmem_cache_free(b, p);
	kmem_cache_destroy(b);
	CHECK_EQ(new_reports(), 0);
	/* the leaked cache still frees its objects, and goes once empty */
	memset(o, 0x77, 72);
	kmem_cache_free(a, o);
	kmem_cache_destroy(a);
	CHECK_EQ(new_reports(), 0);
}

/* kfree() of a kmem_cache_alloc() object: SLOB reports, SLUB frees. */
static void test_kfree_cache_object(void)
{
	struct kmem_cache *c = kmem_cache_create("kfree-obj", 40, 0, SLAB_NO_MERGE, NULL);
	void *o[50];
	int i;

	for (i = 0; i < 50; i++)
		o[i] = kmem_cache_alloc(c, GFP_KERNEL);
	for (i = 0; i < 50; i++)
		kfree(o[i]);
#ifdef CONFIG_SLOB
	CHECK_EQ(new_reports(), 50);
	CHECK(strstr(st_slab_last_report(), "not a kmalloc() object") != NULL);
	/* the objects were not freed: give them back the right way */
	for (i = 0; i < 50; i++)
		kmem_cache_free(c, o[i]);
#else
	CHECK_EQ(new_reports(), 0);
#endif
	kmem_cache_destroy(c);
	CHECK_EQ(new_reports(), 0);
}

/* ------------------------------------------------------------------ */
/* Randomised model check against a reference set of live objects.     */

struct live {
	unsigned char *p;
	size_t size;
	struct kmem_cache *c;
	unsigned char fill;
};

static int cmp_ptr(const void *a, const void *b)
{
	const struct live *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p;
}

static void check_live(struct live *l, int n)
{
	struct live *sorted = malloc(sizeof(*l) * (size_t)n);
	int i;

	memcpy(sorted, l, sizeof(*l) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(*l), cmp_ptr);
	for (i = 0; i + 1 < n; i++)
		CHECK(sorted[i].p + sorted[i].size <= sorted[i + 1].p);
	for (i = 0; i < n; i++) {
		size_t k = rnd() % l[i].size;

		CHECK(l[i].p[0] == l[i].fill && l[i].p[k] == l[i].fill &&
		      l[i].p[l[i].size - 1] == l[i].fill);
	}
	free(sorted);
}

static void test_model(void)
{
	enum { N = 3000, OPS = 60000 };
	struct live *l = calloc(N, sizeof(*l));
	struct kmem_cache *c[4];
	int n = 0, op, i;

	c[0] = kmem_cache_create("model-24", 24, 0, 0, NULL);
	c[1] = kmem_cache_create("model-300", 300, 0, SLAB_NO_MERGE, NULL);
	c[2] = kmem_cache_create("model-hw", 72, 0, SLAB_HWCACHE_ALIGN, NULL);
	c[3] = kmem_cache_create("model-5000", 5000, 0, 0, NULL);
	for (op = 0; op < OPS; op++) {
		uint64_t r = rnd();

		if (n < N && (r % 100 < 55 || !n)) {
			struct live *x = &l[n];
			unsigned int kind = (unsigned int)(r >> 8) % 6;

			if (kind < 4) {
				x->c = c[kind];
				x->size = kind == 0 ? 24 : kind == 1 ? 300 :
					  kind == 2 ? 72 : 5000;
				x->p = kmem_cache_alloc(x->c, GFP_KERNEL);
			} else {
				x->c = NULL;
				x->size = 1 + (r >> 16) % (kind == 4 ? 512 : 20000);
				x->p = kmalloc(x->size, GFP_KERNEL);
			}
			CHECK(x->p != NULL);
			if (!x->p)
				break;
			x->fill = (unsigned char)(r >> 40);
			memset(x->p, x->fill, x->size);
			n++;
		} else {
			i = (int)((r >> 8) % (uint64_t)n);
			CHECK(l[i].p[0] == l[i].fill &&
			      l[i].p[l[i].size - 1] == l[i].fill);
			if (l[i].c)
				kmem_cache_free(l[i].c, l[i].p);
			else if (r & 1)
				kfree(l[i].p);
			else	/* krealloc keeps contents */
				kfree(krealloc(l[i].p, l[i].size + 100, GFP_KERNEL));
			l[i] = l[--n];
		}
		if (op % 10000 == 0)
			check_live(l, n);
	}
	check_live(l, n);
	for (i = 0; i < n; i++) {
		if (l[i].c)
			kmem_cache_free(l[i].c, l[i].p);
		else
			kfree(l[i].p);
	}
	for (i = 0; i < 4; i++)
		kmem_cache_destroy(c[i]);
	free(l);
	CHECK_EQ(new_reports(), 0);
}

/* ------------------------------------------------------------------ */
/* Multi-threaded stress: own and remote frees across emulated CPUs.   */

#define STRESS_THREADS	4
#define STRESS_MANY	24	/* stress-many: far more threads than CPUs */
#define STRESS_SLOTS	512
#define STRESS_OPS	150000

static struct kmem_cache *stress_cache;
static void *volatile handoff[STRESS_MANY][64];
static long stress_threads = STRESS_THREADS;
static int stress_ops = STRESS_OPS;

/* Free a slot: cache objects go to another thread sometimes (a remote
 * free); SLUB may kfree() cache objects, SLOB must not. */
static void stress_free(long id, void *p, bool cached, uint64_t r)
{
	unsigned int h = (unsigned int)(r >> 20) % 64;

	if (!cached) {
		kfree(p);
		return;
	}
	if ((r >> 30) % 4 == 0) {
		p = __atomic_exchange_n(&handoff[(id + 1) % stress_threads][h], p,
					__ATOMIC_ACQ_REL);
		if (p)
			kmem_cache_free(stress_cache, p);
		return;
	}
#ifndef CONFIG_SLOB
	if ((r >> 34) & 1) {
		kfree(p);
		return;
	}
#endif
	kmem_cache_free(stress_cache, p);
}

static void *stress_thread(void *arg)
{
	long id = (long)arg;
	void *slots[STRESS_SLOTS] = { 0 };
	bool cached[STRESS_SLOTS] = { 0 };
	uint64_t r = 0x9e3779b97f4a7c15ULL * (uint64_t)(id + 1);
	int op, bad = 0;

	for (op = 0; op < stress_ops; op++) {
		unsigned int s;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		s = (unsigned int)(r % STRESS_SLOTS);
		if (slots[s]) {
			if (((unsigned char *)slots[s])[0] != (unsigned char)id ||
			    ((unsigned char *)slots[s])[63] != (unsigned char)id)
				bad++;
			stress_free(id, slots[s], cached[s], r);
			slots[s] = NULL;
			continue;
		}
		cached[s] = (r >> 32) & 1;
		if (cached[s])
			slots[s] = kmem_cache_alloc(stress_cache, GFP_KERNEL);
		else
			slots[s] = kmalloc(64 + (r >> 40) % 400, GFP_KERNEL);
		if (!slots[s])
			bad++;
		else
			memset(slots[s], (int)id, 64);
	}
	for (op = 0; op < STRESS_SLOTS; op++)
		if (slots[op])
			stress_free(id, slots[op], cached[op], 0);
	return (void *)(long)bad;
}

static void test_stress(void)
{
	pthread_t t[STRESS_MANY];
	long i, j;
	void *ret;

#ifdef CONFIG_SMP
	long nr = stress_threads;
#else
	long nr = 1;	/* without SMP the allocator is single-threaded */
#endif

	stress_cache = kmem_cache_create("stress", 64, 0, 0, NULL);
	for (i = 0; i < nr; i++)
		pthread_create(&t[i], NULL, stress_thread, (void *)i);
#ifdef CONFIG_SMP
	/* meanwhile flush every CPU's slabs and read the counters, as
	 * kmem_cache_shrink() and /sys/kernel/slab do from other CPUs */
	for (j = 0; j < 200; j++) {
		struct st_cache_info info;

		kmem_cache_shrink(stress_cache);
		/* (counts are a racy snapshot here: only walk them) */
		CHECK_EQ(st_kmem_cache_info(stress_cache, &info), 0);
	}
#endif
	for (i = 0; i < nr; i++) {
		pthread_join(t[i], &ret);
		CHECK_EQ((long)ret, 0);
	}
	for (i = 0; i < STRESS_MANY; i++)
		for (j = 0; j < 64; j++) {
			kmem_cache_free(stress_cache, handoff[i][j]);
			handoff[i][j] = NULL;
		}
	kmem_cache_destroy(stress_cache);
	CHECK_EQ(new_reports(), 0);
}

/*
 * The same with many more threads than CPUs, the same work in all: the
 * threads are preempted and migrated inside SLUB's per-CPU critical
 * sections (rseq aborts and restarts them) and inside its slow paths.
 */
static void test_stress_many(void)
{
	stress_threads = STRESS_MANY;
	stress_ops = STRESS_OPS * STRESS_THREADS / STRESS_MANY;
	test_stress();
}

/* ------------------------------------------------------------------ */
/*
 * Concurrency against the page allocator and the slabs at once: threads
 * allocate small and multi-page kmalloc()s and objects of two caches,
 * fill each with its own byte, and free them - themselves or, through a
 * mailbox, from another thread - after checking every byte. Multi-page
 * blocks freed while a buddy is being handed out is what used to corrupt
 * the free lists.
 */
#define CONC_THREADS	2
#define CONC_SLOTS	16
#define CONC_BOX	32
#define CONC_OPS	1000000	/* per thread; argv[2] overrides (TSan) */

#if defined(__SANITIZE_ADDRESS__)
static long conc_ops = CONC_OPS / 4;	/* ASan: 4-15 times slower */
#else
static long conc_ops = CONC_OPS;
#endif

enum { CONC_KMALLOC, CONC_CACHE_SMALL, CONC_CACHE_BIG };

struct conc_obj {
	unsigned char *p;
	size_t size;
	unsigned int kind;
	unsigned char fill;
};

struct conc_box {
	int state;		/* 0 empty, 1 being written, 2 full */
	struct conc_obj o;
};

static struct kmem_cache *conc_cache[3];
static struct conc_box conc_mail[CONC_THREADS][CONC_BOX];
static const unsigned int conc_cache_size[3] = { 0, 72, 3000 };

/*
 * The bytes an object's fill covers: all of a small one; of a multi-page
 * one the first 64 bytes of every page and the last 64, so that the page
 * allocator, not memset, is what the threads spend their time in.
 */
static bool conc_covered(const struct conc_obj *o, size_t i)
{
	return o->size <= 2048 || (i & (ST_PAGE_SIZE - 1)) < 64 ||
	       i + 64 >= o->size;
}

static void conc_fill(struct conc_obj *o)
{
	size_t i;

	if (o->size <= 2048) {
		memset(o->p, o->fill, o->size);
		return;
	}
	for (i = 0; i < o->size; i += ST_PAGE_SIZE)
		memset(o->p + i, o->fill, 64);
	memset(o->p + o->size - 64, o->fill, 64);
}

/* The fill is intact: 0, or 1 for a bad object. */
static int conc_check(const struct conc_obj *o)
{
	size_t i;

	for (i = 0; i < o->size; i++) {
		if (!conc_covered(o, i)) {
			i = (i | (ST_PAGE_SIZE - 1));
			if (i + 64 >= o->size)
				i = o->size - 65;
			continue;
		}
		if (o->p[i] != o->fill)
			return 1;
	}
	return 0;
}

static int conc_free(const struct conc_obj *o)
{
	int bad = conc_check(o);

	if (o->kind == CONC_KMALLOC)
		kfree(o->p);
	else
		kmem_cache_free(conc_cache[o->kind], o->p);
	return bad;
}

/* Free what other threads posted to @id's mailbox. */
static int conc_drain(long id)
{
	int k, bad = 0;

	for (k = 0; k < CONC_BOX; k++) {
		struct conc_box *b = &conc_mail[id][k];

		if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != 2)
			continue;
		bad += conc_free(&b->o);
		__atomic_store_n(&b->state, 0, __ATOMIC_RELEASE);
	}
	return bad;
}

/* Hand @o to thread @to; false if its mailbox slot is taken. */
static bool conc_post(long to, unsigned int k, const struct conc_obj *o)
{
	struct conc_box *b = &conc_mail[to][k % CONC_BOX];
	int empty = 0;

	if (!__atomic_compare_exchange_n(&b->state, &empty, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	b->o = *o;
	__atomic_store_n(&b->state, 2, __ATOMIC_RELEASE);
	return true;
}

/* Most requests are multi-page, most of those order-2 blocks. */
static size_t conc_size(uint64_t r)
{
	switch ((r >> 8) % 8) {
	case 0:
		return 8193 + (r >> 16) % 57344;	/* 3 to 16 pages */
	case 1:
	case 2:
		return 1 + (r >> 16) % 2048;		/* slab objects */
	default:
		return 16384;
	}
}

static void *conc_thread(void *arg)
{
	long id = (long)arg;
	struct conc_obj slot[CONC_SLOTS] = { { 0 } };
	uint64_t r = 0x2545f4914f6cdd1dULL * (uint64_t)(id + 3);
	long bad = 0;
	long op;
	int s;

	for (op = 0; op < conc_ops; op++) {
		struct conc_obj *o;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		o = &slot[r % CONC_SLOTS];
		if (o->p) {
			if ((r >> 40) % 3 == 0 &&
			    conc_post((id + 1) % CONC_THREADS, (unsigned int)(r >> 44), o)) {
				o->p = NULL;
				continue;
			}
			bad += conc_free(o);
			o->p = NULL;
			continue;
		}
		o->kind = (unsigned int)(r >> 4) % 4 == 0 ? CONC_CACHE_SMALL + (r >> 6) % 2
							   : CONC_KMALLOC;
		if (o->kind == CONC_KMALLOC) {
			o->size = conc_size(r);
			o->p = kmalloc(o->size, GFP_KERNEL);
		} else {
			o->size = conc_cache_size[o->kind];
			o->p = kmem_cache_alloc(conc_cache[o->kind], GFP_KERNEL);
		}
		if (!o->p) {
			bad++;
			continue;
		}
		o->fill = (unsigned char)(op * 2 + id + 1);
		conc_fill(o);
		if (op % 64 == 0)
			bad += conc_drain(id);
	}
	for (s = 0; s < CONC_SLOTS; s++)
		if (slot[s].p)
			bad += conc_free(&slot[s]);
	return (void *)bad;
}

static void test_concurrent(void)
{
	pthread_t t[CONC_THREADS];
	long i, nr = CONC_THREADS;
	void *ret;

#ifndef CONFIG_SMP
	nr = 1;		/* without SMP the allocator is single-threaded */
#endif
	conc_cache[CONC_CACHE_SMALL] = kmem_cache_create("conc-72", 72, 0, 0, NULL);
	conc_cache[CONC_CACHE_BIG] = kmem_cache_create("conc-3000", 3000, 0,
						       SLAB_NO_MERGE, NULL);
	CHECK(conc_cache[CONC_CACHE_SMALL] && conc_cache[CONC_CACHE_BIG]);
	for (i = 0; i < nr; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, conc_thread, (void *)i), 0);
	for (i = 0; i < nr; i++) {
		pthread_join(t[i], &ret);
		CHECK_EQ((long)ret, 0);
	}
	for (i = 0; i < CONC_THREADS; i++)
		CHECK_EQ(conc_drain(i), 0);
	kmem_cache_destroy(conc_cache[CONC_CACHE_BIG]);
	kmem_cache_destroy(conc_cache[CONC_CACHE_SMALL]);
	CHECK_EQ(new_reports(), 0);
}

/* ------------------------------------------------------------------ */
/* SLUB_TINY: one observable effect per difference of the series.     */

#if defined(CONFIG_SLUB) && !defined(CONFIG_SLUB_TINY) && \
	!defined(CONFIG_SLUB_DEBUG_ON) && !defined(HAVE_SHEAVES)
#define HAVE_CPU_SLABS 1	/* debug caches bypass them, as in the kernel */
#endif

static struct kmem_cache *fresh_cache(const char *name, unsigned int size)
{
	struct kmem_cache *c = kmem_cache_create(name, size, 0, SLAB_NO_MERGE, NULL);

	CHECK(c != NULL);
	return c;
}

/* No per-CPU slabs: an allocation leaves its slab on the node list. */
static void test_tiny_cpu_slab(void)
{
#ifdef CONFIG_SLUB
	struct kmem_cache *c = fresh_cache("t-cpu", 64);
	struct st_cache_info i;
	void *o;

	st_slab_set_cpu(0);
	o = kmem_cache_alloc(c, GFP_KERNEL);
	st_kmem_cache_info(c, &i);
#ifdef HAVE_CPU_SLABS
	CHECK_EQ(i.nr_cpu_slabs, 1);
	CHECK_EQ(i.nr_partial, 0);
#else
	CHECK_EQ(i.nr_cpu_slabs, 0);
	CHECK_EQ(i.nr_partial, 1);
#endif
	kmem_cache_free(c, o);
	kmem_cache_destroy(c);
#endif
}

/* No CPU partial lists: a free into a full slab puts it on the node list. */
static void test_tiny_cpu_partial(void)
{
#ifdef CONFIG_SLUB
	struct kmem_cache *c = fresh_cache("t-cpupartial", 256);
	struct st_cache_info i;
	void **o;
	unsigned int n, k;

	st_slab_set_cpu(0);
	st_kmem_cache_info(c, &i);
	n = 3 * i.objs_per_slab;
	o = calloc(n, sizeof(*o));
	for (k = 0; k < n; k++)
		o[k] = kmem_cache_alloc(c, GFP_KERNEL);
	st_kmem_cache_info(c, &i);
	CHECK_EQ(i.nr_partial, 0);
	/* free one object of the first (full, not the CPU's) slab */
	kmem_cache_free(c, o[0]);
	st_kmem_cache_info(c, &i);
#if defined(HAVE_CPU_SLABS) && defined(CONFIG_SLUB_CPU_PARTIAL)
	CHECK_EQ(i.nr_cpu_partial, 1);
	CHECK_EQ(i.nr_partial, 0);
#else
	CHECK_EQ(i.nr_cpu_partial, 0);
	CHECK_EQ(i.nr_partial, 1);
#endif
	for (k = 1; k < n; k++)
		kmem_cache_free(c, o[k]);
	free(o);
	kmem_cache_destroy(c);
#endif
}

/* Lower default slub_max_order: 1 instead of 3. */
static void test_tiny_max_order(void)
{
#if defined(CONFIG_SLUB) && ST_PAGE_SHIFT == 12	/* orders for 4 KiB pages */
	void *p = kmalloc(8192, GFP_KERNEL), *q = kmalloc(4096, GFP_KERNEL);
	struct st_cache_info i8, i4;
	struct st_page_stats st;

	st_kmem_cache_info(st_virt_to_cache(p), &i8);
	st_kmem_cache_info(st_virt_to_cache(q), &i4);
	st_page_stats(&st);
#ifdef CONFIG_SLUB_TINY
	CHECK_EQ(i8.order, 1);
	CHECK_EQ(i4.order, 1);
	CHECK_EQ(st.blocks[3], 0);
#else
	CHECK_EQ(i8.order, 3);
	CHECK_EQ(i4.order, 3);
	CHECK(st.blocks[3] >= 2);
#endif
	kfree(p);
	kfree(q);
#endif
}

/* Empty slabs are freed at once instead of kept (min_partial 0). */
static void test_tiny_empty_slabs(void)
{
#ifdef CONFIG_SLUB
	struct kmem_cache *c = fresh_cache("t-empty", 256);
	struct st_cache_info i;
	void *o[200];
	int k;

	for (k = 0; k < 200; k++)
		o[k] = kmem_cache_alloc(c, GFP_KERNEL);
	for (k = 0; k < 200; k++)
		kmem_cache_free(c, o[k]);
	st_kmem_cache_info(c, &i);
#ifdef CONFIG_SLUB_TINY
	CHECK_EQ(i.min_partial, 0);
	CHECK_EQ(i.nr_slabs, 0);
#else
	CHECK_EQ(i.min_partial, 5);
	CHECK(i.nr_slabs >= 1);
	CHECK(i.nr_slabs <= i.min_partial + 1 + i.cpu_partial_slabs);
	kmem_cache_shrink(c);
	st_kmem_cache_info(c, &i);
	CHECK_EQ(i.nr_slabs, 0);
#endif
	kmem_cache_destroy(c);
#endif
}

/* No statistics. */
static void test_tiny_stats(void)
{
	struct kmem_cache *c = fresh_cache("t-stats", 100);
	unsigned long v = 0;
	void *o = kmem_cache_alloc(c, GFP_KERNEL);
	int ret = st_kmem_cache_stat(c, "alloc_slab", &v);

#ifdef CONFIG_SLUB_STATS
	struct st_cache_info i;

	st_kmem_cache_info(c, &i);
	CHECK_EQ(ret, 0);
	/* one slab; with sheaves as many as the first sheaf took */
	CHECK_EQ(v, i.nr_slabs);
	CHECK(i.nr_slabs >= 1);
	CHECK_EQ(st_kmem_cache_stat(c, "no_such_stat", &v), -ENOENT);
#else
	CHECK_EQ(ret, -ENOSYS);
#endif
	kmem_cache_free(c, o);
	kmem_cache_destroy(c);
}

/* No /sys/kernel/slab, and so none of its memory. */
static void test_tiny_sysfs(void)
{
	char buf[8192];
	int ret = st_slab_sysfs_read("", buf, sizeof(buf));

#if defined(CONFIG_SLUB) && !defined(CONFIG_SLUB_TINY) && defined(CONFIG_SYSFS)
	struct kmem_cache *c = fresh_cache("t-sysfs", 300), *a, *b;
	void *o[3];

	CHECK(ret > 0);
	CHECK(strstr(buf, "kmalloc-64\n") && strstr(buf, "kernfs_node_cache\n"));
#ifdef CONFIG_SLUB_DEBUG_ON
	CHECK(!strstr(buf, "kmalloc-rcl-64 ->"));
#endif
	ret = st_slab_sysfs_read("kmalloc-8k/order", buf, sizeof(buf));
	CHECK(ret > 0 && !strcmp(buf, ST_PAGE_SHIFT == 12 ? "3\n" : "0\n"));
	o[0] = kmem_cache_alloc(c, GFP_KERNEL);
	o[1] = kmem_cache_alloc(c, GFP_KERNEL);
	o[2] = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(st_slab_sysfs_read("t-sysfs/objects", buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "3\n"));
	CHECK(st_slab_sysfs_read("t-sysfs/object_size", buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "300\n"));
	CHECK(st_slab_sysfs_read("t-sysfs", buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "slabs_cpu_partial\n") != NULL);
	CHECK_EQ(st_slab_sysfs_read("t-sysfs/nonexistent", buf, sizeof(buf)), -ENOENT);
	CHECK_EQ(st_slab_sysfs_write("t-sysfs/shrink", "1"), 0);
	kmem_cache_free(c, o[0]);
	kmem_cache_free(c, o[1]);
	kmem_cache_free(c, o[2]);
	/* merged caches appear as links */
	a = kmem_cache_create("t-alias-a", 1200, 0, 0, NULL);
	b = kmem_cache_create("t-alias-b", 1200, 0, 0, NULL);
	CHECK(st_slab_sysfs_read("", buf, sizeof(buf)) > 0);
#if defined(CONFIG_SLAB_MERGE_DEFAULT) && !defined(CONFIG_SLUB_DEBUG_ON)
	CHECK(strstr(buf, "t-alias-b ->") != NULL);
	CHECK(st_slab_sysfs_read("t-alias-b/aliases", buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "1\n"));
#endif
	kmem_cache_destroy(b);
	kmem_cache_destroy(a);
	kmem_cache_destroy(c);
	{
		/* the model's cost: nodes from kernfs_node_cache */
		struct st_page_stats st;

		st_page_stats(&st);
		CHECK(st_slab_sysfs_read("kernfs_node_cache/slabs", buf, sizeof(buf)) > 0 ||
		      st_slab_sysfs_read("kernfs_node_cache/objects", buf, sizeof(buf)) > 0);
		CHECK(atoi(buf) > 0);
	}
#else
	CHECK_EQ(ret, -ENOSYS);
	CHECK_EQ(st_slab_sysfs_write("kmalloc-64/shrink", "1"), -ENOSYS);
#endif
}

/* ------------------------------------------------------------------ */
/* Debug: each corruption is reported by SLUB_DEBUG, unchecked in TINY. */

#define DEBUG_FLAGS (SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | SLAB_POISON | \
		     SLAB_STORE_USER)

static void test_debug_redzone(void)
{
#ifdef CONFIG_SLUB
	struct kmem_cache *c = kmem_cache_create("d-redzone", 20, 0, DEBUG_FLAGS, NULL);
	struct st_cache_info i;
	unsigned char *p = kmem_cache_alloc(c, GFP_KERNEL);

	st_kmem_cache_info(c, &i);
	p[20] = 0x42;		/* one byte past the object */
	kmem_cache_free(c, p);
#ifdef CONFIG_SLUB_DEBUG
	CHECK(i.size > 24);	/* red zones and tracks take room */
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "BUG d-redzone") != NULL);
	CHECK(strstr(st_slab_last_report(), "Right Redzone overwritten") != NULL);
	CHECK(strstr(st_slab_last_report(), "First byte 0x42 instead of 0xcc") != NULL);
	CHECK(strstr(st_slab_last_report(), "Allocated in 0x") != NULL);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	p[-1] = 0;		/* left red zone */
	kmem_cache_free(c, p);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "Left Redzone overwritten") != NULL);
#else
	/* SLUB_TINY: flags ignored, the byte lands in alignment padding */
	CHECK_EQ(i.size, 24);
	CHECK_EQ(i.flags & DEBUG_FLAGS, 0);
	CHECK_EQ(new_reports(), 0);
#endif
	kmem_cache_destroy(c);
#endif
}

/*
 * slub_debug's kmalloc red zone (kernel 6.1+, kunit's
 * test_kmalloc_redzone_access): bytes past the requested size of a
 * kmalloc() object are checked at free. ksize() hands the whole object to
 * the caller, and kzalloc() zeroes the requested size only.
 */
static void test_debug_kmalloc_redzone(void)
{
	unsigned char *p = kmalloc(18, GFP_KERNEL);
	size_t ks;

	CHECK(p != NULL);
	memset(p, 0x21, 18);
	kfree(p);
	CHECK_EQ(new_reports(), 0);

	p = kmalloc(18, GFP_KERNEL);
	p[18] = 0xab;
	p[19] = 0xab;
	kfree(p);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "BUG kmalloc-32 (Not tainted): kmalloc Redzone overwritten") != NULL);
	CHECK(strstr(st_slab_last_report(), "First byte 0xab instead of 0xcc") != NULL);

	p = kzalloc(18, GFP_KERNEL);
	CHECK(p && p[0] == 0 && p[17] == 0);
	ks = ksize(p);
	CHECK_EQ(ks, 32);
	memset(p, 0x22, ks);	/* allowed after ksize() */
	kfree(p);
	CHECK_EQ(new_reports(), 0);
}

static void test_debug_use_after_free(void)
{
#ifdef CONFIG_SLUB
	struct kmem_cache *c = kmem_cache_create("d-uaf", 64, 0, DEBUG_FLAGS, NULL);
	unsigned char *p = kmem_cache_alloc(c, GFP_KERNEL), *q;

	kmem_cache_free(c, p);
	p[3] = 0x11;		/* write after free */
#ifdef CONFIG_SLUB_DEBUG
	CHECK_EQ(st_kmem_cache_validate(c), 1);
	CHECK(strstr(st_slab_last_report(), "Poison overwritten") != NULL);
	CHECK(strstr(st_slab_last_report(), "Freed in 0x") != NULL);
	new_reports();
	p[3] = 0x12;		/* again, now found by the next allocation */
	q = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(q == p);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "First byte 0x12 instead of 0x6b") != NULL);
#else
	CHECK_EQ(st_kmem_cache_validate(c), 0);
	q = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(q == p);
	CHECK(q[3] == 0x11);	/* nobody looked */
	CHECK_EQ(new_reports(), 0);
#endif
	kmem_cache_free(c, q);
	kmem_cache_destroy(c);
#endif
}

static void test_debug_double_free(void)
{
	/* (SLUB without SLUB_DEBUG would just loop its freelist: not run) */
#if defined(CONFIG_SLUB_DEBUG) || defined(CONFIG_SLUB_TINY)
	struct kmem_cache *c = kmem_cache_create("d-double", 64, 0, DEBUG_FLAGS, NULL);
	void *a = kmem_cache_alloc(c, GFP_KERNEL);
	void *b = kmem_cache_alloc(c, GFP_KERNEL);
	void *p = kmem_cache_alloc(c, GFP_KERNEL), *x, *y;

	kmem_cache_free(c, p);
	kmem_cache_free(c, p);
	x = kmem_cache_alloc(c, GFP_KERNEL);
	y = kmem_cache_alloc(c, GFP_KERNEL);
#ifdef CONFIG_SLUB_DEBUG
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "Object already free") != NULL);
	CHECK(x != y);
	kmem_cache_free(c, x);
	kmem_cache_free(c, y);
#else
	/* unchecked: the freelist now hands out the same object twice */
	CHECK_EQ(new_reports(), 0);
	CHECK(x == p && y == p);
	kmem_cache_free(c, p);
#endif
	kmem_cache_free(c, a);
	kmem_cache_free(c, b);
	kmem_cache_destroy(c);
#endif
}

/* SLAB_FREELIST_HARDENED: free pointers are stored obfuscated and a
 * corrupted one is detected when followed. */
static void test_hardened(void)
{
#ifdef CONFIG_SLUB
	struct kmem_cache *c = fresh_cache("h-freeptr", 64);
	unsigned char *a, *b, *n;
	uintptr_t raw;
	/* a non-debug cache keeps the free pointer mid-object */
	unsigned int off = (64 / 2) & ~(unsigned int)(sizeof(void *) - 1);

	st_slab_set_cpu(0);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	n = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, n);
	kmem_cache_free(c, b);	/* b's free pointer: n */
	memcpy(&raw, b + off, sizeof(raw));
#if defined(CONFIG_SLAB_FREELIST_HARDENED) && !defined(CONFIG_SLUB_DEBUG_ON)
	CHECK(raw != (uintptr_t)n);
	memset(b + off, 0x41, sizeof(raw));
	CHECK(kmem_cache_alloc(c, GFP_KERNEL) == b);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "Freepointer corrupt") != NULL);
	/* the corrupt chain was cut; the cache still works */
	n = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(n != NULL && ((uintptr_t)n & ~(ST_PAGE_SIZE - 1)) !=
			   ((uintptr_t)a & ~(ST_PAGE_SIZE - 1)));
	kmem_cache_free(c, n);
	/*
	 * Everything after b in the chain is lost, i.e. allocated as far as
	 * the allocator knows. 64-byte objects live in order-0 slabs: give
	 * back every object of a's (and b's) page.
	 */
	{
		char *base = (char *)((uintptr_t)a & ~(ST_PAGE_SIZE - 1));
		unsigned int k;

		for (k = 0; k < ST_PAGE_SIZE / 64; k++)
			kmem_cache_free(c, base + k * 64);
	}
	kmem_cache_destroy(c);
	CHECK_EQ(new_reports(), 0);
	return;
#elif !defined(CONFIG_SLUB_DEBUG_ON)
	CHECK(raw == (uintptr_t)n);
#endif
	kmem_cache_free(c, a);
	kmem_cache_destroy(c);
#endif
}

/*
 * Freelist hardening's double-free check: the second kmem_cache_free()
 * of the freelist head is reported and refused, so the freelist stays
 * intact and later allocations are distinct. Both
 * the CPU freelist (fast path) and a slab's own freelist (slow path).
 */
static void test_hardened_double_free(void)
{
	struct kmem_cache *c = fresh_cache("h-double", 64);
	void *a, *p, *x, *y, *z;

	st_slab_set_cpu(0);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, p);
	kmem_cache_free(c, p);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "BUG h-double: Double free detected") != NULL);
	x = kmem_cache_alloc(c, GFP_KERNEL);
	y = kmem_cache_alloc(c, GFP_KERNEL);
	z = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(x == p);
	CHECK(x != y && y != z && x != z);
	if (x == y || y == z || x == z)
		return;		/* a cyclic freelist: nothing more to test */
	kmem_cache_free(c, z);
	kmem_cache_free(c, y);
	/* x's slab leaves the CPU: its frees take the slow path */
	kmem_cache_shrink(c);
	kmem_cache_free(c, x);
	kmem_cache_free(c, x);
	CHECK_EQ(new_reports(), 1);
	CHECK(strstr(st_slab_last_report(), "Double free detected") != NULL);
	x = kmem_cache_alloc(c, GFP_KERNEL);
	y = kmem_cache_alloc(c, GFP_KERNEL);
	CHECK(x != y);
	kmem_cache_free(c, y);
	kmem_cache_free(c, x);
	kmem_cache_free(c, a);
	kmem_cache_destroy(c);
	CHECK_EQ(new_reports(), 0);
}

/* ------------------------------------------------------------------ */
/* SLUB_SHEAVES: the model of Linux 7.0's per-CPU sheaves.             */

/*
 * The kernel's capacities by object size (4/12/26/60), each rounded up so
 * that a sheaf (a 32-byte header on 64-bit, 20 on 32-bit, and the
 * pointers) fills its kmalloc size class: 4/12/28/60 on 64-bit. Debug
 * caches and the bootstrap cache have none.
 */
static void test_sheaf_capacity(void)
{
#ifdef HAVE_SHEAVES_ON
	static const struct { unsigned int size, cap64, cap32; } t[] = {
		{ 64, 60, 123 }, { 248, 60, 123 }, { 256, 28, 27 },
		{ 1500, 12, 19 }, { 4096, 4, 11 }, { 8192, 4, 11 },
	};
	struct st_cache_info i;
	struct kmem_cache *c;
	unsigned int k;

	for (k = 0; k < N_ELEM(t); k++) {
		c = fresh_cache("sheaf-cap", t[k].size);
		st_kmem_cache_info(c, &i);
		CHECK_EQ(i.sheaf_capacity, sizeof(void *) == 8 ? t[k].cap64
							: t[k].cap32);
		/* a main sheaf per CPU, allocated with the cache */
		CHECK_EQ(i.nr_sheaves, st_slab_nr_cpus());
		kmem_cache_destroy(c);
	}
	c = kmem_cache_create("sheaf-debug", 64, 0, SLAB_RED_ZONE | SLAB_NO_MERGE, NULL);
	st_kmem_cache_info(c, &i);
	CHECK_EQ(i.sheaf_capacity, 0);
	CHECK_EQ(i.nr_sheaves, 0);
	st_kmem_cache_info(st_virt_to_cache(c), &i);	/* the bootstrap cache */
	CHECK(!strcmp(i.name, "kmem_cache"));
	CHECK_EQ(i.sheaf_capacity, 0);
	kmem_cache_destroy(c);
#endif
}

/*
 * One allocation fills a whole sheaf from the slabs (the slab stays on
 * the node list: there are no CPU slabs); frees go to the sheaves, then
 * the barn keeps at most 10 full sheaves and the rest goes back to the
 * slabs; kmem_cache_shrink() empties all of it, keeping an empty main
 * sheaf per CPU.
 */
static void test_sheaf_barn(void)
{
#ifdef HAVE_SHEAVES_ON
	struct kmem_cache *c = fresh_cache("sheaf-barn", 64);
	unsigned int n, k, cap;
	struct st_cache_info i;
	void **o;

	st_slab_set_cpu(0);
	o = calloc(4000, sizeof(*o));
	o[0] = kmem_cache_alloc(c, GFP_KERNEL);
	st_kmem_cache_info(c, &i);
	cap = i.sheaf_capacity;
	CHECK_EQ(i.nr_cpu_slabs, 0);
	CHECK_EQ(i.nr_partial, 1);
	CHECK_EQ(i.nr_sheaf_objects, cap - 1);
	CHECK_EQ(i.nr_objects - i.nr_free, 1);
	n = 50 * cap;
	for (k = 1; k < n; k++)
		o[k] = kmem_cache_alloc(c, GFP_KERNEL);
	for (k = 0; k < n; k++)
		kmem_cache_free(c, o[k]);
	st_kmem_cache_info(c, &i);
	CHECK_EQ(i.nr_objects - i.nr_free, 0);
	/* this CPU's main and spare, 10 full sheaves in the barn */
	CHECK(i.nr_sheaf_objects <= (2 + 10) * cap);
	CHECK(i.nr_sheaf_objects >= 10 * cap);
	CHECK(i.nr_sheaves <= 2 * st_slab_nr_cpus() + 10 + 10);
	CHECK(i.nr_slabs * i.objs_per_slab >= i.nr_sheaf_objects);
	kmem_cache_shrink(c);
	st_kmem_cache_info(c, &i);
	CHECK_EQ(i.nr_sheaf_objects, 0);
	CHECK_EQ(i.nr_slabs, 0);
	CHECK_EQ(i.nr_sheaves, st_slab_nr_cpus());
	free(o);
	kmem_cache_destroy(c);
#endif
}

/* SLAB_FREELIST_RANDOM: a new slab hands out objects in shuffled order. */
static void test_random(void)
{
#ifdef CONFIG_SLUB
	struct kmem_cache *c = fresh_cache("r-order", 128);
	struct st_cache_info i;
	char *o[64];
	unsigned int k, n, ascending = 0;

	st_slab_set_cpu(0);
	st_kmem_cache_info(c, &i);
	n = i.objs_per_slab < 64 ? i.objs_per_slab : 64;
	for (k = 0; k < n; k++)
		o[k] = kmem_cache_alloc(c, GFP_KERNEL);
	for (k = 1; k < n; k++)
		ascending += o[k] == o[k - 1] + i.size;
#if defined(CONFIG_SLAB_FREELIST_RANDOM) && !defined(CONFIG_SLUB_DEBUG_ON)
	CHECK(ascending < n / 2);
#else
	CHECK_EQ(ascending, n - 1);
#endif
	for (k = 0; k < n; k++)
		kmem_cache_free(c, o[k]);
	kmem_cache_destroy(c);
#endif
}

/* SLOB: one heap of blocks per page, three lists, first fit, merging. */
static void test_slob_heap(void)
{
#ifdef CONFIG_SLOB
	uintptr_t mask = ~(uintptr_t)(ST_PAGE_SIZE - 1);
	unsigned long base = nr_pages();
	struct kmem_cache *c = kmem_cache_create("slob-50", 50, 0, 0, NULL);
	char *a = kmalloc(20, GFP_KERNEL), *b = kmalloc(100, GFP_KERNEL);
	char *o = kmem_cache_alloc(c, GFP_KERNEL), *m, *l, *x, *y;
	void *fill[400];
	int k;

	/* objects of every small size share a page */
	CHECK(((uintptr_t)a & mask) == ((uintptr_t)b & mask));
	CHECK(((uintptr_t)a & mask) == ((uintptr_t)o & mask));
	CHECK_EQ(nr_pages(), base + 1);
	/* medium (< 1024) and large requests use pages of their own lists */
	m = kmalloc(600, GFP_KERNEL);
	l = kmalloc(2000, GFP_KERNEL);
	CHECK(((uintptr_t)m & mask) != ((uintptr_t)a & mask));
	CHECK(((uintptr_t)l & mask) != ((uintptr_t)m & mask));
	CHECK_EQ(nr_pages(), base + 3);
	/* kmalloc() sizes are kept in 2-byte units */
	x = kmalloc(13, GFP_KERNEL);
	CHECK_EQ(ksize(x), 14);
	/* first fit: a freed block is reused by the next request that fits */
	y = kmalloc(13, GFP_KERNEL);
	kfree(x);
	CHECK(kmalloc(13, GFP_KERNEL) == x);
	kfree(x);
	kfree(y);
	/* filling a page and freeing it all merges the blocks back: page freed */
	for (k = 0; k < 400; k++)
		fill[k] = kmalloc(24, GFP_KERNEL);
	CHECK(nr_pages() > base + 3);
	for (k = 0; k < 400; k++)
		kfree(fill[k]);
	CHECK_EQ(nr_pages(), base + 3);
	kfree(l);
	kfree(m);
	kmem_cache_free(c, o);
	kfree(b);
	kfree(a);
	kmem_cache_destroy(c);
	CHECK_EQ(nr_pages(), base);
	CHECK_EQ(new_reports(), 0);
#endif
}

/* Boot parameters are taken before the allocator starts, and only then. */
static void test_boot_params(void)
{
	CHECK_EQ(st_slab_boot_param("slub_max_order=0"), -EBUSY);
	st_slab_exit();
	CHECK_EQ(nr_pages(), 0);
	CHECK_EQ(st_slab_boot_param("slub_max_order=99"), -EINVAL);
	CHECK_EQ(st_slab_boot_param("bogus"), -EINVAL);
	CHECK_EQ(st_slab_boot_param("slub_max_order=0"), 0);
	CHECK_EQ(st_slab_boot_param("slab_nomerge"), 0);
	CHECK_EQ(st_slab_init(), 0);
#ifdef CONFIG_SLUB
	{
		void *p = kmalloc(2048, GFP_KERNEL), *q = kmalloc(8192, GFP_KERNEL);
		struct kmem_cache *a, *b;
		struct st_cache_info i;

		st_kmem_cache_info(st_virt_to_cache(p), &i);
#ifndef CONFIG_SLUB_DEBUG_ON	/* red zones make these objects larger */
		CHECK_EQ(i.order, 0);	/* limited by slub_max_order=0 */
		st_kmem_cache_info(st_virt_to_cache(q), &i);
		CHECK_EQ(i.order, 1);	/* still one object must fit */
#else
		CHECK_EQ(i.order, 1);	/* 6144-byte slots: get_order */
#endif
		a = kmem_cache_create("bp-a", 300, 0, 0, NULL);
		b = kmem_cache_create("bp-b", 300, 0, 0, NULL);
		CHECK(a != b);		/* slab_nomerge */
		kmem_cache_destroy(b);
		kmem_cache_destroy(a);
		kfree(q);
		kfree(p);
	}
#endif
	CHECK_EQ(new_reports(), 0);
}

/* ------------------------------------------------------------------ */

/*
 * A case that tests a feature some variants lack names it in needs;
 * tests/unit/slab/meson.build registers it only for the variants that
 * have it, and the 'cases' test checks that its table agrees with this
 * one (test-slab --cases NAME...).
 */
struct test_case {
	const char *name;
	void (*fn)(void);
	const char *needs;	/* a feature, or NULL: every variant */
};

static const struct test_case cases[] = {
	{ "kmalloc", test_kmalloc, NULL },
	{ "zero-huge", test_zero_huge, NULL },
	{ "kmalloc-align", test_kmalloc_align, NULL },
	{ "krealloc", test_krealloc, NULL },
	{ "align", test_align, NULL },
	{ "align-page", test_align_page, NULL },
	{ "ctor", test_ctor, NULL },
	{ "many-caches", test_many_caches, NULL },
	{ "merge", test_merge, NULL },
	{ "reclaim", test_reclaim, NULL },
	{ "shrink-destroy", test_shrink_destroy, NULL },
	{ "destroy-busy", test_destroy_busy, NULL },
	{ "kfree-cache-object", test_kfree_cache_object, NULL },
	{ "model", test_model, NULL },
	{ "stress", test_stress, NULL },
	{ "stress-many", test_stress_many, NULL },
	{ "concurrent", test_concurrent, NULL },
	{ "tiny-cpu-slab", test_tiny_cpu_slab, "slab-freelists" },
	{ "tiny-cpu-partial", test_tiny_cpu_partial, "slab-freelists" },
	{ "tiny-max-order", test_tiny_max_order, "slub" },
	{ "tiny-empty-slabs", test_tiny_empty_slabs, "slab-freelists" },
	{ "tiny-stats", test_tiny_stats, NULL },
	{ "tiny-sysfs", test_tiny_sysfs, NULL },
	{ "debug-redzone", test_debug_redzone, "slub" },
	{ "debug-kmalloc-redzone", test_debug_kmalloc_redzone, "slub-debug-on" },
	{ "debug-use-after-free", test_debug_use_after_free, "slub" },
	{ "debug-double-free", test_debug_double_free, "slub" },
	{ "hardened", test_hardened, "slab-freelists-no-debug-on" },
	{ "hardened-double-free", test_hardened_double_free, "freelist-hardened" },
	{ "random", test_random, "slub" },
	{ "sheaf-capacity", test_sheaf_capacity, "sheaves" },
	{ "sheaf-barn", test_sheaf_barn, "sheaves" },
	{ "slob-heap", test_slob_heap, "slob" },
	{ "boot-params", test_boot_params, NULL },
};

/* The features the needs of the cases above refer to. */
static bool has_feature(const char *f)
{
	static const char *const features[] = {
#ifdef CONFIG_SLUB
		"slub",
#endif
#ifdef CONFIG_SLOB
		"slob",
#endif
#ifdef CONFIG_SLUB_DEBUG_ON
		"slub-debug-on",
#elif defined(CONFIG_SLUB)
		"slub-no-debug-on",
#endif
#if defined(CONFIG_SLAB_FREELIST_HARDENED) && !defined(HAVE_SHEAVES)
		/* a sheaf takes a double free unseen, as in Linux 7.0 */
		"freelist-hardened",
#endif
#ifdef HAVE_SHEAVES_ON
		"sheaves",
#endif
#if defined(CONFIG_SLUB) && !defined(HAVE_SHEAVES)
		/* a free goes straight to the slab's (or CPU's) freelist */
		"slab-freelists",
#endif
#if defined(CONFIG_SLUB) && !defined(HAVE_SHEAVES) && !defined(CONFIG_SLUB_DEBUG_ON)
		"slab-freelists-no-debug-on",
#endif
	};
	unsigned int i;

	for (i = 0; i < N_ELEM(features); i++)
		if (!strcmp(f, features[i]))
			return true;
	return false;
}

static bool applies(const struct test_case *c)
{
	return !c->needs || has_feature(c->needs);
}

/* The cases registered for this variant are exactly those that apply. */
static int check_cases(int n, char **names)
{
	unsigned int i;
	int k, bad = 0;

	for (i = 0; i < N_ELEM(cases); i++) {
		for (k = 0; k < n && strcmp(names[k], cases[i].name); k++)
			;
		if (applies(&cases[i]) != (k < n)) {
			fprintf(stderr, "test-slab: %s: case %s is%s registered, but the "
				"variant %s %s\n", st_slab_variant(), cases[i].name,
				k < n ? "" : " not", k < n ? "lacks" : "has",
				cases[i].needs ? cases[i].needs : "everything it needs");
			bad++;
		}
	}
	for (k = 0; k < n; k++) {
		for (i = 0; i < N_ELEM(cases) && strcmp(names[k], cases[i].name); i++)
			;
		if (i == N_ELEM(cases)) {
			fprintf(stderr, "test-slab: no case %s\n", names[k]);
			bad++;
		}
	}
	printf("%s: %d cases registered, %s\n", st_slab_variant(), n,
	       bad ? "FAIL" : "as the variant's features say");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned int i;
	int ran = 0;

	if (argc >= 2 && !strcmp(argv[1], "--cases"))
		return check_cases(argc - 2, argv + 2);
	if (argc == 3 && atol(argv[2]) > 0) {
		conc_ops = atol(argv[2]);
	} else if (argc != 2) {
		fprintf(stderr, "usage: test-slab CASE [OPS] | --cases NAME...\n");
		return 2;
	}
	for (i = 0; i < N_ELEM(cases); i++) {
		if (!strcmp(argv[1], cases[i].name) && !applies(&cases[i])) {
			/* run by hand on a variant without the feature */
			printf("%s %s: SKIP: the variant lacks %s\n", st_slab_variant(),
			       argv[1], cases[i].needs);
			return 77;
		}
	}
	CHECK_EQ(st_slab_init(), 0);
	reports_before = st_slab_nr_reports();
	for (i = 0; i < N_ELEM(cases); i++) {
		if (strcmp(argv[1], cases[i].name) &&
		    (strcmp(argv[1], "all") || !applies(&cases[i])))
			continue;
		cases[i].fn();
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "test-slab: unknown case %s\n", argv[1]);
		return 2;
	}
	/* the leak check: everything freed, so every page is back */
	st_slab_exit();
	CHECK_EQ(nr_pages(), 0);
	if (st_slab_nr_reports() != reports_before)
		fprintf(stderr, "last report:\n%s", st_slab_last_report());
	CHECK_EQ(st_slab_nr_reports(), reports_before);
	printf("%s %s: %s\n", st_slab_variant(), argv[1],
	       failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
