/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_FOOTPRINT_H
#define ST_FOOTPRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/render.h"

struct st_error;
struct cJSON;

/*
 * `slubtiny footprint`: replay traces on each allocator variant. Each
 * variant is its own executable (st-replay-VARIANT, see replay/); a run
 * spawns one, collects its JSON and turns it into a struct st_fp_run. The
 * comparisons (ratios against the kernel's booted figures) are computed here
 * too, so that the renderers only print.
 */
struct st_fp_class {
	char *name;
	double objects, requested, usable;
};

struct st_fp_cache {
	char *name;
	double slabs, objects, order, size;
	bool merged;
};

struct st_fp_run {
	char *trace, *variant;
	bool rss;			/* pages are an RSS delta (glibc) */
	unsigned int threads;
	double ops, page_size;
	double peak_pages, final_pages, final_slab_pages, timed_peak_pages, leak_pages;
	double slab_reports;		/* bugs the allocator reported: 0 */
	double requested_bytes, usable_bytes, held_bytes;
	double wall_ns, ops_per_s;	/* median pass, wall clock */
	double scaling;			/* ops_per_s / the 1-thread run's, or 0 */
	double cpu_ns, ops_per_cpu_s;	/* median CPU time of a pass */
	struct st_fp_class *classes;	/* at the pages peak */
	size_t nr_classes;
	struct st_fp_cache *caches;	/* at the end of the trace */
	size_t nr_caches;
	double *samples;		/* pages over the trace */
	size_t nr_samples;
	double blocks[16];		/* allocated page blocks per order, at the end */
	size_t nr_orders;
};

/*
 * A ratio of two variants on one trace, with the kernel's where known.
 * Every variant is compared with SLUB_TINY (pages and speed); only the page
 * ratios that are the allocator's design claims carry an expectation.
 */
struct st_fp_ratio {
	const char *trace;
	const char *what;	/* "peak_pages", "final_pages", "ops_per_s", "ops_per_cpu_s",
				 * "scaling" (ops_per_s over the same trace on 1 thread) */
	const char *num, *den;	/* variants */
	double value;
	double kernel;		/* 0 when the kernel has no such figure */
	const char *expect;	/* "< 1", "<= 1" (page ratios on boot only) or NULL */
	bool holds;		/* the expectation holds; false without one */
	bool timed;		/* a speed ratio: measured, never expected */
};

/* The kernel's Slab: figure of a variant, and where it comes from. */
struct st_fp_kernel {
	char *variant;
	double slab_kb;
	char *from;	/* "linux-6.12.57 x86_64 tinyconfig, 32 MB, 1 CPU" */
};

struct st_fp_report {
	/* Booted figures (footprint boot's cache); a variant not here has none. */
	struct st_fp_kernel kernel[8];
	size_t nr_kernel;
	struct st_fp_run *runs;
	size_t nr_runs;
	struct st_fp_ratio *ratios;
	size_t nr_ratios;
	bool failed;		/* a page expectation does not hold */
	/*
	 * Set by the caller of st_fp_measure(), may be NULL: called before
	 * each replay with the trace's place among the traces (1-based),
	 * their count and "TRACE on VARIANT".
	 */
	void (*progress)(void *ctx, size_t done, size_t total, const char *what);
	void *progress_ctx;
};

/*
 * The directory of the replay executables: $SLUBTINY_REPLAY_DIR, else the
 * build tree's, else the installed one (libexecdir/slubtiny).
 */
const char *st_fp_replay_dir(void);
/*
 * Variants that have a replay executable in @dir, sorted, "glibc" last;
 * *names is a NULL-terminated malloc'd array (st_fp_free_names()).
 */
int st_fp_variants(const char *dir, char ***names, struct st_error *e);
void st_fp_free_names(char **names);

/*
 * Replay the trace file @path (called @name in the results) on @variant
 * with @threads (0: the trace's own count) and append the run to @r.
 */
int st_fp_replay(struct st_fp_report *r, const char *dir, const char *variant,
		 const char *path, const char *name, unsigned int threads,
		 unsigned int time_ms, struct st_error *e);
/*
 * Everything `slubtiny footprint` measures: each of @paths (or, when
 * @nr_paths is 0, each generated shape) on each of @variants (NULL: every
 * variant found), then the comparisons. A trace replayed on more than one
 * thread is replayed again on one thread by slub, slub_tiny and
 * slub_sheaves, as trace
 * "NAME" ST_FP_ONE_THREAD: their speed on one thread and how each scales.
 */
#define ST_FP_ONE_THREAD	"-1t"
int st_fp_measure(struct st_fp_report *r, const char *dir, char *const *variants,
		  char *const *paths, size_t nr_paths, unsigned int threads,
		  unsigned int time_ms, struct st_error *e);
/*
 * Peak pages of @variant replaying @trace (a generator shape such as
 * "boot", or a trace file), without timing: what a budget of
 * `slubtiny check --budget` can bound.
 */
int st_fp_peak_pages(const char *variant, const char *trace, unsigned long *peak,
		     struct st_error *e);
/* Generate @shape and write it (text or binary) to @f. */
int st_fp_generate(const char *shape, uint64_t seed, unsigned int scale, bool binary,
		   FILE *f, struct st_error *e);
/* Parse one replay executable's JSON output into @run. */
int st_fp_run_parse(const char *json, struct st_fp_run *run);
/* Use a booted @slab_kb for @variant's kernel figure, from kernel @from. */
int st_fp_set_kernel(struct st_fp_report *r, const char *variant, double slab_kb,
		     const char *from);
/* @variant's booted kernel Slab: figure (kB), 0 when none; *from (may be NULL) its kernel or NULL. */
double st_fp_kernel_kb(const struct st_fp_report *r, const char *variant, const char **from);
/* The ratio @what of @num over @den on @trace among r->ratios[@from..], or NULL. */
const struct st_fp_ratio *st_fp_ratio_find(const struct st_fp_report *r, size_t from,
					   const char *trace, const char *what,
					   const char *num, const char *den);
/* Compute the ratios over the runs, and check the page expectations. */
int st_fp_compare(struct st_fp_report *r);
void st_fp_report_free(struct st_fp_report *r);

/* Renderers: they print what the report holds, nothing else. */
/*
 * Text: a short table, each variant's peak pages and ops/s against
 * SLUB_TINY's, and the expected ratios; with @verbose every figure.
 */
/* Text (verbose: every figure), JSON and the SVG chart (common/render.h). */
int st_fp_render(FILE *f, const struct st_fp_report *r, const struct st_render_opts *o);
struct cJSON *st_fp_to_json(const struct st_fp_report *r);

#endif
