// SPDX-License-Identifier: GPL-2.0-only
/*
 * slab-bench: one lib/slab variant (or glibc malloc with -DBENCH_GLIBC).
 *
 *   slab-bench throughput THREADS OPS   alloc+free pairs per second
 *   slab-bench pages                    pages held after a fixed workload
 *
 * Output is one line of key=value pairs for tests/bench/slab.sh.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef BENCH_GLIBC
#define kmalloc(s, f)	malloc(s)
#define kfree(p)	free(p)
#define GFP_KERNEL	0
static const char *variant(void)
{
	return "glibc";
}

static const char *fastpath(void)
{
	return "malloc";
}
#else
#include "slab.h"
static const char *variant(void)
{
	return st_slab_variant();
}

static const char *fastpath(void)
{
	st_slab_init();
	return st_slab_fastpath();
}
#endif

static unsigned long ops_per_thread;
static unsigned long long cpu_ns;	/* summed over the measured threads */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Steady state: each thread keeps SLOTS live objects of mixed small sizes
 * and replaces a pseudo-random one per step (a free and an allocation),
 * so slabs are neither always empty nor always full.
 */
#define SLOTS 256

static void *worker(void *arg)
{
	static const unsigned int sizes[32] = {
		16, 32, 64, 24, 128, 96, 48, 256, 16, 64, 192, 40, 512, 32, 80, 8,
		64, 128, 16, 200, 32, 64, 100, 24, 320, 16, 48, 64, 128, 8, 256, 72,
	};
	void *p[SLOTS] = { 0 };
	uint64_t r = 0x9e3779b97f4a7c15ULL ^ (uintptr_t)arg;
	unsigned long i;
	unsigned int j;

	for (i = 0; i < ops_per_thread; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		j = (unsigned int)(r % SLOTS);
		kfree(p[j]);
		p[j] = kmalloc(sizes[(r >> 20) % 32], GFP_KERNEL);
		*(volatile char *)p[j] = (char)j;
	}
	for (j = 0; j < SLOTS; j++)
		kfree(p[j]);
	if (arg) {
		struct timespec ts;

		/* CPU time, not wall time: the machine may be shared */
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		__atomic_fetch_add(&cpu_ns, (unsigned long long)ts.tv_sec *
				   1000000000ULL + (unsigned long long)ts.tv_nsec,
				   __ATOMIC_RELAXED);
	}
	return NULL;
}

static int throughput(int threads, unsigned long ops)
{
	pthread_t t[16];
	double t0, t1;
	int i;

	if (threads < 1 || threads > 16)
		return 2;
	ops_per_thread = ops;
	worker(NULL);	/* warm up: caches, slabs, lazy init */
	t0 = now();
	for (i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1));
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	t1 = now();
	printf("variant=%s fastpath=%s threads=%d mops=%.2f cpu_ns_per_op=%.1f\n",
	       variant(), fastpath(), threads,
	       (double)ops * threads / (t1 - t0) / 1e6,
	       (double)cpu_ns / ((double)ops * threads));
	return 0;
}

#ifndef BENCH_GLIBC
/*
 * A small system after boot: named caches with the object sizes and
 * counts of common kernel structures, plus mixed kmalloc()s; then half
 * of everything is freed in a scattered order, as it would be over time.
 */
static const struct {
	const char *name;
	unsigned int size;
	unsigned int count;
} workload[] = {
	{ "inode_cache", 600, 400 }, { "dentry", 192, 900 },
	{ "buffer_head", 104, 300 }, { "vm_area_struct", 176, 500 },
	{ "anon_vma", 88, 200 }, { "task_struct", 2900, 40 },
	{ "mm_struct", 960, 20 }, { "files_cache", 704, 30 },
	{ "signal_cache", 1000, 40 }, { "sighand_cache", 2088, 40 },
	{ "filp", 256, 400 }, { "radix_tree_node", 576, 150 },
	{ "proc_inode_cache", 648, 200 }, { "sock_inode_cache", 768, 20 },
	{ "pid", 128, 60 }, { "cred_jar", 192, 60 },
};

#define NR_KMALLOC 4000

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int pages(void)
{
	enum { NC = sizeof(workload) / sizeof(workload[0]) };
	struct kmem_cache *c[NC];
	void **objs[NC];
	void *km[NR_KMALLOC];
	struct st_page_stats boot, full, half;
	unsigned int i, k;

	st_slab_init();
	st_page_stats(&boot);
	for (i = 0; i < NC; i++) {
		c[i] = kmem_cache_create(workload[i].name, workload[i].size, 0,
					 SLAB_HWCACHE_ALIGN, NULL);
		objs[i] = calloc(workload[i].count, sizeof(void *));
		if (!c[i] || !objs[i])
			return 1;
	}
	/* interleave the allocations like a boot does */
	for (k = 0; k < 900; k++) {
		for (i = 0; i < NC; i++)
			if (k < workload[i].count)
				objs[i][k] = kmem_cache_alloc(c[i], GFP_KERNEL);
		for (i = 0; i < NR_KMALLOC / 900 + 1; i++) {
			unsigned int n = k * (NR_KMALLOC / 900 + 1) + i;
			uint64_t r = rnd();
			size_t sz = r % 16 == 0 ? 1024 + r % 3000 : 8 + (r >> 8) % 500;

			if (n < NR_KMALLOC)
				km[n] = kmalloc(sz, GFP_KERNEL);
		}
	}
	st_page_stats(&full);
	for (i = 0; i < NC; i++)
		for (k = 0; k < workload[i].count; k++)
			if (rnd() & 1) {
				kmem_cache_free(c[i], objs[i][k]);
				objs[i][k] = NULL;
			}
	for (k = 0; k < NR_KMALLOC; k++)
		if (rnd() & 1) {
			kfree(km[k]);
			km[k] = NULL;
		}
	st_page_stats(&half);
	printf("variant=%s boot_pages=%lu full_pages=%lu half_pages=%lu "
	       "half_slab_kb=%lu peak_pages=%lu\n", variant(), boot.nr_pages,
	       full.nr_pages, half.nr_pages,
	       half.nr_slab_pages * half.page_size / 1024, half.peak_pages);
	/* and everything goes back */
	for (i = 0; i < NC; i++) {
		for (k = 0; k < workload[i].count; k++)
			if (objs[i][k])
				kmem_cache_free(c[i], objs[i][k]);
		kmem_cache_destroy(c[i]);
		free(objs[i]);
	}
	for (k = 0; k < NR_KMALLOC; k++)
		kfree(km[k]);
	st_slab_exit();
	st_page_stats(&half);
	return half.nr_pages ? 1 : 0;
}
#endif

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "throughput"))
		return throughput(atoi(argv[2]), strtoul(argv[3], NULL, 10));
#ifndef BENCH_GLIBC
	if (argc == 2 && !strcmp(argv[1], "pages"))
		return pages();
#endif
	fprintf(stderr, "usage: slab-bench throughput THREADS OPS | pages\n");
	return 2;
}
