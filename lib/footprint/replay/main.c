// SPDX-License-Identifier: GPL-2.0-only
/*
 * st-replay-VARIANT: replay one trace on the allocator variant this
 * executable is linked with and print one JSON object on stdout (the
 * schema is in README.md, ## footprint). `slubtiny footprint` runs one of
 * these per variant: the variants share symbol names, so one process can
 * hold only one of them.
 *
 *	st-replay-VARIANT [--threads N] [--name NAME] [--time-ms MS]
 *			  [--param KERNEL_PARAM]... TRACE
 *
 * --param passes a boot parameter to the allocator (slub_max_order=1,
 * slab_nomerge, ...), for experiments.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "footprint/trace.h"
#include "backend.h"
#include "replay.h"

static cJSON *classes_json(const struct rp_class *cls, size_t n)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < n; i++) {
		if (!cls[i].objects)
			continue;
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddStringToObject(o, "name", cls[i].name) ||
		    !cJSON_AddNumberToObject(o, "objects", cls[i].objects) ||
		    !cJSON_AddNumberToObject(o, "requested", cls[i].requested) ||
		    !cJSON_AddNumberToObject(o, "usable", cls[i].usable)) {
			cJSON_Delete(o);
			cJSON_Delete(arr);
			return NULL;
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *caches_json(const struct rp_result *res)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < res->nr_caches; i++) {
		const struct rp_cache *c = &res->caches[i];

		o = cJSON_CreateObject();
		if (!o || !cJSON_AddStringToObject(o, "name", c->name) ||
		    !cJSON_AddNumberToObject(o, "slabs", c->slabs) ||
		    !cJSON_AddNumberToObject(o, "objects", c->objects) ||
		    !cJSON_AddNumberToObject(o, "order", c->order) ||
		    !cJSON_AddNumberToObject(o, "size", c->size) ||
		    !cJSON_AddBoolToObject(o, "merged", c->merged)) {
			cJSON_Delete(o);
			cJSON_Delete(arr);
			return NULL;
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *ulong_array(const unsigned long *v, size_t n)
{
	cJSON *arr = cJSON_CreateArray(), *x;
	size_t i;

	for (i = 0; arr && i < n; i++) {
		x = cJSON_CreateNumber(v[i]);
		if (!x) {
			cJSON_Delete(arr);
			return NULL;
		}
		cJSON_AddItemToArray(arr, x);
	}
	return arr;
}

static uint64_t sum(const struct rp_class *c, size_t n, int field)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += field ? c[i].usable : c[i].requested;
	return s;
}

static cJSON *result_json(const struct st_trace *t, const char *name, unsigned int threads,
			  const struct rp_result *m, const struct rp_result *tm,
			  unsigned long leak)
{
	long ps = sysconf(_SC_PAGESIZE);
	double secs = tm->wall_ns / 1e9;
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	if (!cJSON_AddStringToObject(o, "trace", name) ||
	    !cJSON_AddStringToObject(o, "variant", rb_variant()) ||
	    !cJSON_AddStringToObject(o, "pages_source", rb_has_pages ? "allocator" : "rss") ||
	    !cJSON_AddNumberToObject(o, "threads", threads) ||
	    !cJSON_AddNumberToObject(o, "ops", t->nr_ops) ||
	    !cJSON_AddNumberToObject(o, "page_size", ps) ||
	    !cJSON_AddNumberToObject(o, "peak_pages", m->peak_pages) ||
	    !cJSON_AddNumberToObject(o, "final_pages", m->final_pages) ||
	    !cJSON_AddNumberToObject(o, "final_slab_pages", m->final_slab_pages) ||
	    !cJSON_AddNumberToObject(o, "final_large_pages", m->final_large_pages) ||
	    !cJSON_AddNumberToObject(o, "start_pages", m->start_pages) ||
	    !cJSON_AddNumberToObject(o, "requested_bytes", sum(m->at_peak, m->nr_classes, 0)) ||
	    !cJSON_AddNumberToObject(o, "usable_bytes", sum(m->at_peak, m->nr_classes, 1)) ||
	    !cJSON_AddNumberToObject(o, "held_bytes", (double)m->peak_pages * ps) ||
	    !cJSON_AddNumberToObject(o, "final_requested_bytes", sum(m->classes, m->nr_classes, 0)) ||
	    !cJSON_AddNumberToObject(o, "wall_ns", tm->wall_ns) ||
	    !cJSON_AddNumberToObject(o, "reps", tm->reps) ||
	    !cJSON_AddNumberToObject(o, "ops_per_s", secs > 0 ? t->nr_ops / secs : 0) ||
	    !cJSON_AddNumberToObject(o, "cpu_ns", tm->cpu_ns) ||
	    !cJSON_AddNumberToObject(o, "ops_per_cpu_s",
				     tm->cpu_ns ? t->nr_ops / (tm->cpu_ns / 1e9) : 0) ||
	    !cJSON_AddNumberToObject(o, "timed_peak_pages", tm->timed_peak_pages) ||
	    !cJSON_AddNumberToObject(o, "leak_pages", leak) ||
	    !cJSON_AddNumberToObject(o, "slab_reports", rb_nr_reports()) ||
	    !cJSON_AddItemToObject(o, "blocks_final", ulong_array(m->blocks, m->nr_orders)) ||
	    !cJSON_AddItemToObject(o, "classes_at_peak", classes_json(m->at_peak, m->nr_classes)) ||
	    !cJSON_AddItemToObject(o, "caches_final", caches_json(m)) ||
	    !cJSON_AddItemToObject(o, "samples", ulong_array(m->samples, m->nr_samples))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* What op @i of @t did, for a message. */
static void describe_op(const struct st_trace *t, size_t i, char *buf, size_t size)
{
	const struct st_trace_op *op = &t->ops[i];

	switch (op->type) {
	case ST_OP_CACHE:
	case ST_OP_DESTROY:
	case ST_OP_SHRINK:
		snprintf(buf, size, "%s %s", st_trace_op_name(op->type), t->caches[op->cache].name);
		break;
	case ST_OP_ALLOC:
		snprintf(buf, size, "alloc from %s", t->caches[op->cache].name);
		break;
	case ST_OP_FREE:
		snprintf(buf, size, "free");
		break;
	default:
		snprintf(buf, size, "%s of %u bytes", st_trace_op_name(op->type), op->size);
		break;
	}
}

/*
 * The one line of a failed replay: where in the trace, which op, why.
 * With ST_REPLAY_ERROR_JSON set (by `slubtiny footprint`, which reports it
 * as its own error) it goes to stdout as {"where": ..., "error": ...}.
 */
static void report_failure(const struct st_trace *t, const char *path,
			   const struct rp_result *res, int err, const char *limits)
{
	char msg[1024], where[600], what[128];
	cJSON *o;
	char *s;

	snprintf(where, sizeof(where), "%s", path);
	if (res->failed_op) {
		st_trace_op_where(t, path, res->failed_op - 1, where, sizeof(where));
		describe_op(t, res->failed_op - 1, what, sizeof(what));
		if (err == -ENOMEM)
			snprintf(msg, sizeof(msg), "%s failed on %s: out of memory (%s)",
				 what, rb_variant(), limits);
		else
			snprintf(msg, sizeof(msg), "%s failed on %s: %s", what, rb_variant(),
				 strerror(-err));
	} else {
		snprintf(msg, sizeof(msg), "replay on %s failed: %s", rb_variant(), strerror(-err));
	}
	if (!getenv("ST_REPLAY_ERROR_JSON")) {
		fprintf(stderr, "st-replay-%s: %s: %s\n", rb_variant(), where, msg);
		return;
	}
	o = cJSON_CreateObject();
	if (o && cJSON_AddStringToObject(o, "where", where) &&
	    cJSON_AddStringToObject(o, "error", msg) && (s = cJSON_PrintUnformatted(o))) {
		puts(s);
		cJSON_free(s);
	}
	cJSON_Delete(o);
}

static int usage(void)
{
	fprintf(stderr, "usage: st-replay-%s [--threads N] [--name NAME] [--time-ms MS] "
		"[--param KERNEL_PARAM]... TRACE\n", rb_variant());
	return 2;
}

int main(int argc, char **argv)
{
	struct rp_result m = { 0 }, tm = { 0 };
	struct st_error e = { 0 };
	struct st_trace *t = NULL;
	const char *name = NULL;
	unsigned int threads = 0, ms = 300;
	struct rb_pages p;
	cJSON *o = NULL;
	char *s = NULL;
	int i, err;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--threads")) {
			threads = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--name")) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--time-ms")) {
			ms = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--param")) {
			if (rb_boot_param(argv[++i]))
				return usage();
		} else {
			return usage();
		}
	}
	if (i != argc - 1 || threads > ST_TRACE_MAX_THREADS)
		return usage();
	err = st_trace_load(argv[i], &t, &e);
	if (err) {
		if (e.code)
			fprintf(stderr, "%s: %s\n", e.file, e.msg);
		else
			fprintf(stderr, "%s: %s\n", argv[i], strerror(-err));
		return 2;
	}
	if (!threads)
		threads = t->nr_threads ? t->nr_threads : 1;
	if (!rb_smp)
		threads = 1;	/* a !SMP allocator takes one thread at a time */
	err = rb_init();
	if (!err)
		err = rp_measure(t, threads, &m);
	if (!err)
		err = rp_time(t, threads, (uint64_t)ms * 1000000, 50, &tm);
	if (err)
		report_failure(t, argv[i], m.failed_op ? &m : &tm, err, rb_limits());
	rb_exit();
	rb_pages(&p);
	if (!err) {
		o = result_json(t, name ? name : t->name, threads, &m, &tm,
				rb_has_pages ? p.nr_pages : 0);
		s = o ? cJSON_PrintUnformatted(o) : NULL;
		if (!s) {
			err = -ENOMEM;
			fprintf(stderr, "st-replay-%s: %s: %s\n", rb_variant(), argv[i],
				strerror(-err));
		} else {
			puts(s);
		}
	}
	cJSON_free(s);
	cJSON_Delete(o);
	rp_result_free(&m);
	rp_result_free(&tm);
	st_trace_delete(t);
	return err ? 2 : 0;
}
