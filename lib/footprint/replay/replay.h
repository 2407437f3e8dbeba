/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_REPLAY_H
#define ST_REPLAY_H

#include <stdint.h>

#include "footprint/trace.h"

#define RP_KMALLOC_CLASSES	14	/* 8 ... 8192 and kmalloc-large */
#define RP_SAMPLES		400	/* pages-over-time points per run */

/* Live objects of one size class (a kmalloc size or a trace cache). */
struct rp_class {
	char name[72];
	uint64_t objects, requested, usable;
};

struct rp_cache {
	char name[72];
	unsigned long slabs, objects, order;
	unsigned int size;
	int merged;
};

struct rp_result {
	/* measuring pass */
	unsigned long start_pages, peak_pages, final_pages;
	unsigned long final_slab_pages, final_large_pages;
	unsigned long blocks[16];
	int nr_orders;
	struct rp_class *classes;	/* live now (end of trace) */
	struct rp_class *at_peak;	/* when pages peaked */
	size_t nr_classes;
	struct rp_cache *caches;	/* at the end of the trace */
	size_t nr_caches;
	unsigned long *samples;		/* pages, evenly over the ops */
	size_t nr_samples;
	uint64_t measure_ns;
	/* timed passes */
	uint64_t wall_ns;		/* wall time of the median pass */
	uint64_t cpu_ns;		/* CPU time of the median pass */
	unsigned int reps;
	unsigned long timed_peak_pages;
	size_t failed_op;		/* index + 1 of the op that failed, 0 none */
};

/* The measuring pass; @res is filled (free with rp_result_free()). */
int rp_measure(const struct st_trace *t, unsigned int threads, struct rp_result *res);
/* Timed passes until @budget_ns is spent or @max_reps are done. */
int rp_time(const struct st_trace *t, unsigned int threads, uint64_t budget_ns,
	    unsigned int max_reps, struct rp_result *res);
void rp_result_free(struct rp_result *res);

#endif
