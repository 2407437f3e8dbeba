// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running the replay executables and the result model: one st_fp_run per
 * trace x variant from the executable's JSON, then the comparisons the
 * issue asks for, against the kernel's booted figures.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/array.h"
#include "common/error.h"
#include "common/spawn.h"
#include "footprint/footprint.h"
#include "footprint/st_footprint_config.h"
#include "footprint/trace.h"

#define REPLAY_PREFIX	"st-replay-"

const char *st_fp_replay_dir(void)
{
	const char *d = getenv("SLUBTINY_REPLAY_DIR");

	if (d && *d)
		return d;
	/* the build tree while it exists, else where meson installs them */
	return access(ST_REPLAY_DIR, X_OK) ? ST_REPLAY_INSTALL_DIR : ST_REPLAY_DIR;
}

void st_fp_free_names(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

/* Sort order: alphabetical, the glibc reference last. */
static int cmp_variant(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	if (!strcmp(x, "glibc") || !strcmp(y, "glibc"))
		return !strcmp(x, "glibc") - !strcmp(y, "glibc");
	return strcmp(x, y);
}

int st_fp_variants(const char *dir, char ***names, struct st_error *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL, **nv, path[4096];
	size_t n = 0;

	if (!d)
		return st_err(e, errno, dir, "no replay executables: %s", strerror(errno));
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, REPLAY_PREFIX, strlen(REPLAY_PREFIX)) ||
		    strchr(de->d_name, '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (access(path, X_OK))
			continue;
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv)
			goto nomem;
		v = nv;
		v[n] = strdup(de->d_name + strlen(REPLAY_PREFIX));
		if (!v[n])
			goto nomem;
		v[++n] = NULL;
	}
	closedir(d);
	if (!n)
		return st_err(e, ENOENT, dir, "no replay executables (st-replay-*)");
	qsort(v, n, sizeof(*v), cmp_variant);
	*names = v;
	return 0;
nomem:
	closedir(d);
	if (v)
		v[n] = NULL;
	st_fp_free_names(v);
	return -ENOMEM;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

static char *str(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	return strdup(cJSON_IsString(x) ? x->valuestring : "");
}

static int parse_classes(const cJSON *arr, struct st_fp_run *run)
{
	const cJSON *o;
	size_t n = cJSON_GetArraySize(arr);

	run->classes = calloc(n + 1, sizeof(*run->classes));
	if (!run->classes)
		return -ENOMEM;
	cJSON_ArrayForEach(o, arr) {
		struct st_fp_class *c = &run->classes[run->nr_classes++];

		c->name = str(o, "name");
		c->objects = num(o, "objects");
		c->requested = num(o, "requested");
		c->usable = num(o, "usable");
		if (!c->name)
			return -ENOMEM;
	}
	return 0;
}

static int parse_caches(const cJSON *arr, struct st_fp_run *run)
{
	const cJSON *o;
	size_t n = cJSON_GetArraySize(arr);

	run->caches = calloc(n + 1, sizeof(*run->caches));
	if (!run->caches)
		return -ENOMEM;
	cJSON_ArrayForEach(o, arr) {
		struct st_fp_cache *c = &run->caches[run->nr_caches++];

		c->name = str(o, "name");
		c->slabs = num(o, "slabs");
		c->objects = num(o, "objects");
		c->order = num(o, "order");
		c->size = num(o, "size");
		c->merged = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "merged"));
		if (!c->name)
			return -ENOMEM;
	}
	return 0;
}

static int parse_samples(const cJSON *arr, struct st_fp_run *run)
{
	const cJSON *x;
	size_t n = cJSON_GetArraySize(arr);

	run->samples = calloc(n + 1, sizeof(*run->samples));
	if (!run->samples)
		return -ENOMEM;
	cJSON_ArrayForEach(x, arr)
		run->samples[run->nr_samples++] = cJSON_IsNumber(x) ? x->valuedouble : 0;
	return 0;
}

static void parse_blocks(const cJSON *arr, struct st_fp_run *run)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, arr) {
		if (run->nr_orders == ARRAY_SIZE(run->blocks))
			break;
		run->blocks[run->nr_orders++] = cJSON_IsNumber(x) ? x->valuedouble : 0;
	}
}

int st_fp_run_parse(const char *json, struct st_fp_run *run)
{
	cJSON *o = cJSON_Parse(json);
	char *src;
	int err;

	memset(run, 0, sizeof(*run));
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return -EINVAL;
	}
	run->trace = str(o, "trace");
	run->variant = str(o, "variant");
	src = str(o, "pages_source");
	run->rss = src && !strcmp(src, "rss");
	free(src);
	run->threads = num(o, "threads");
	run->ops = num(o, "ops");
	run->page_size = num(o, "page_size");
	run->peak_pages = num(o, "peak_pages");
	run->final_pages = num(o, "final_pages");
	run->final_slab_pages = num(o, "final_slab_pages");
	run->timed_peak_pages = num(o, "timed_peak_pages");
	run->leak_pages = num(o, "leak_pages");
	run->slab_reports = num(o, "slab_reports");
	run->requested_bytes = num(o, "requested_bytes");
	run->usable_bytes = num(o, "usable_bytes");
	run->held_bytes = num(o, "held_bytes");
	run->wall_ns = num(o, "wall_ns");
	run->ops_per_s = num(o, "ops_per_s");
	run->cpu_ns = num(o, "cpu_ns");
	run->ops_per_cpu_s = num(o, "ops_per_cpu_s");
	err = parse_classes(cJSON_GetObjectItemCaseSensitive(o, "classes_at_peak"), run);
	if (!err)
		err = parse_caches(cJSON_GetObjectItemCaseSensitive(o, "caches_final"), run);
	if (!err)
		err = parse_samples(cJSON_GetObjectItemCaseSensitive(o, "samples"), run);
	parse_blocks(cJSON_GetObjectItemCaseSensitive(o, "blocks_final"), run);
	if (!err && (!run->trace || !run->variant))
		err = -ENOMEM;
	cJSON_Delete(o);
	return err;
}

static void run_free(struct st_fp_run *run)
{
	size_t i;

	for (i = 0; i < run->nr_classes; i++)
		free(run->classes[i].name);
	for (i = 0; i < run->nr_caches; i++)
		free(run->caches[i].name);
	free(run->classes);
	free(run->caches);
	free(run->samples);
	free(run->trace);
	free(run->variant);
}

int st_fp_set_kernel(struct st_fp_report *r, const char *variant, double slab_kb,
		     const char *from)
{
	struct st_fp_kernel *k = NULL;
	size_t i;

	for (i = 0; i < r->nr_kernel; i++)
		if (!strcmp(r->kernel[i].variant, variant))
			k = &r->kernel[i];
	if (!k) {
		if (r->nr_kernel == ARRAY_SIZE(r->kernel))
			return -E2BIG;
		k = &r->kernel[r->nr_kernel];
		k->variant = strdup(variant);
		if (!k->variant)
			return -ENOMEM;
		k->from = NULL;
		r->nr_kernel++;
	}
	free(k->from);
	k->from = strdup(from);
	k->slab_kb = slab_kb;
	return k->from ? 0 : -ENOMEM;
}

double st_fp_kernel_kb(const struct st_fp_report *r, const char *variant, const char **from)
{
	size_t i;

	if (from)
		*from = NULL;
	for (i = 0; i < r->nr_kernel; i++) {
		if (!strcmp(r->kernel[i].variant, variant)) {
			if (from)
				*from = r->kernel[i].from;
			return r->kernel[i].slab_kb;
		}
	}
	return 0;
}

void st_fp_report_free(struct st_fp_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_kernel; i++) {
		free(r->kernel[i].variant);
		free(r->kernel[i].from);
	}

	for (i = 0; i < r->nr_runs; i++)
		run_free(&r->runs[i]);
	free(r->runs);
	free(r->ratios);
	memset(r, 0, sizeof(*r));
}

/*
 * A replay that exited non-zero: its own {"where", "error"} (an op of the
 * trace that failed), else its exit status. Frees @out.
 */
static int replay_failed(char *out, const char *exe, const char *name, int status,
			 struct st_error *e)
{
	cJSON *o = out ? cJSON_Parse(out) : NULL;
	const cJSON *where = cJSON_GetObjectItemCaseSensitive(o, "where");
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(o, "error");
	int err;

	free(out);
	if (cJSON_IsString(where) && cJSON_IsString(msg))
		err = st_err(e, EINVAL, where->valuestring, "%s", msg->valuestring);
	else
		err = st_err(e, EIO, exe, "replay of %s failed (exit status %d)", name, status);
	cJSON_Delete(o);
	return err;
}

int st_fp_replay(struct st_fp_report *r, const char *dir, const char *variant,
		 const char *path, const char *name, unsigned int threads,
		 unsigned int time_ms, struct st_error *e)
{
	char exe[4096], th[16], ms[16], *out = NULL;
	char *argv[] = { exe, "--name", (char *)name, "--threads", th, "--time-ms", ms,
			 (char *)path, NULL };
	char *env[] = { "ST_REPLAY_ERROR_JSON=1", NULL };
	struct st_fp_run run, *nruns;
	int status;

	snprintf(exe, sizeof(exe), "%s/" REPLAY_PREFIX "%s", dir, variant);
	snprintf(th, sizeof(th), "%u", threads);
	snprintf(ms, sizeof(ms), "%u", time_ms);
	if (access(exe, X_OK))
		return st_err(e, ENOENT, variant, "no such variant (no %s)", exe);
	status = st_run(argv, env, NULL, &out, NULL, 0);
	if (status < 0)
		return st_err(e, -status, exe, "cannot run: %s", strerror(-status));
	if (status)
		return replay_failed(out, exe, name, status, e);
	status = st_fp_run_parse(out, &run);
	free(out);
	if (status) {
		run_free(&run);
		return st_err(e, EIO, exe, "unreadable replay output");
	}
	nruns = realloc(r->runs, (r->nr_runs + 1) * sizeof(*nruns));
	if (!nruns) {
		run_free(&run);
		return -ENOMEM;
	}
	r->runs = nruns;
	r->runs[r->nr_runs++] = run;
	return 0;
}

static const struct st_fp_run *find_run(const struct st_fp_report *r, const char *trace,
					const char *variant)
{
	size_t i;

	for (i = 0; i < r->nr_runs; i++) {
		if (!strcmp(r->runs[i].trace, trace) && !strcmp(r->runs[i].variant, variant))
			return &r->runs[i];
	}
	return NULL;
}

static double field(const struct st_fp_run *run, const char *what)
{
	if (!strcmp(what, "peak_pages"))
		return run->peak_pages;
	if (!strcmp(what, "final_pages"))
		return run->final_pages;
	if (!strcmp(what, "ops_per_cpu_s"))
		return run->ops_per_cpu_s;
	if (!strcmp(what, "scaling"))
		return run->scaling;
	return run->ops_per_s;
}

/* Each multi-threaded run's ops_per_s over its 1-thread companion's. */
static void set_scaling(struct st_fp_report *r)
{
	char name[512];
	size_t i;

	for (i = 0; i < r->nr_runs; i++) {
		struct st_fp_run *x = &r->runs[i];
		const struct st_fp_run *one;

		x->scaling = 0;
		if (x->threads < 2)
			continue;
		snprintf(name, sizeof(name), "%s" ST_FP_ONE_THREAD, x->trace);
		one = find_run(r, name, x->variant);
		if (one && one->ops_per_s)
			x->scaling = x->ops_per_s / one->ops_per_s;
	}
}

/*
 * The allocator's design claims on pages, checked on the boot trace (and
 * set beside the booted kernel's Slab: ratio when it was booted), and
 * Linux 7.0's SLUB against the pre-7.0 one. Speed has no claim: how fast a
 * variant is against another is measured and shown, never judged, as it
 * moves with the machine's load and with the trace (doc/allocator.md).
 */
static const struct cmp_desc {
	const char *what, *num, *den;
	bool kernel;		/* the kernel's Slab: ratio of the same variants */
	const char *expect;	/* on the boot trace */
} cmps[] = {
	{ "peak_pages", "slub_tiny", "slub", true, "< 1" },
	{ "final_pages", "slub_tiny", "slub", true, NULL },
	{ "peak_pages", "slob", "slub_tiny", true, "<= 1" },
	{ "final_pages", "slob", "slub_tiny", true, NULL },
	{ "peak_pages", "slub_sheaves", "slub", false, NULL },
	{ "ops_per_s", "slub_sheaves", "slub", false, NULL },
};

/* Every other variant against SLUB_TINY on each trace: pages held and speed. */
#define ST_FP_BASE	"slub_tiny"
static const char *const base_whats[] = {
	"peak_pages", "final_pages", "ops_per_s", "ops_per_cpu_s", "scaling",
};

/* The booted kernel's Slab: ratio of two variants, 0 when a figure is missing. */
static double kernel_ratio(const struct st_fp_report *r, const char *num, const char *den)
{
	double d = st_fp_kernel_kb(r, den, NULL);

	return d ? st_fp_kernel_kb(r, num, NULL) / d : 0;
}

static bool timed(const char *what)
{
	return strcmp(what, "peak_pages") && strcmp(what, "final_pages");
}

const struct st_fp_ratio *st_fp_ratio_find(const struct st_fp_report *r, size_t from,
					   const char *trace, const char *what,
					   const char *num, const char *den)
{
	const struct st_fp_ratio *x;

	for (; from < r->nr_ratios; from++) {
		x = &r->ratios[from];
		if (!strcmp(x->trace, trace) && !strcmp(x->what, what) &&
		    !strcmp(x->num, num) && !strcmp(x->den, den))
			return x;
	}
	return NULL;
}

/*
 * Append @what of @a over @b (the kernel's ratio and the expectation only
 * on the boot trace); nothing when a figure is missing: no run has 0 ops/s,
 * and a scaling of 0 is a run without a 1-thread companion.
 */
static void add_ratio(struct st_fp_report *r, const struct st_fp_run *a,
		      const struct st_fp_run *b, const char *what, bool kernel,
		      const char *expect)
{
	struct st_fp_ratio *x;
	bool boot = !strcmp(a->trace, "boot");

	if (!field(b, what) || (timed(what) && !field(a, what)))
		return;
	x = &r->ratios[r->nr_ratios++];
	x->trace = a->trace;
	x->what = what;
	x->num = a->variant;
	x->den = b->variant;
	x->value = field(a, what) / field(b, what);
	x->kernel = boot && kernel ? kernel_ratio(r, a->variant, b->variant) : 0;
	x->expect = boot ? expect : NULL;
	x->holds = x->expect && (!strcmp(x->expect, "< 1") ? x->value < 1 : x->value <= 1);
	/*
	 * Speed moves with the machine's load: it has no expectation, and
	 * only the page counts, which replay the same way every time, can
	 * fail the report.
	 */
	x->timed = timed(what);
	if (x->expect && !x->holds)
		r->failed = true;
}

/* The ratios of trace @trace, which starts at run @first. */
static void compare_trace(struct st_fp_report *r, size_t first)
{
	const char *trace = r->runs[first].trace;
	const struct st_fp_run *a, *b, *base = find_run(r, trace, ST_FP_BASE);
	size_t from = r->nr_ratios, i, k;

	for (k = 0; k < ARRAY_SIZE(cmps); k++) {
		a = find_run(r, trace, cmps[k].num);
		b = find_run(r, trace, cmps[k].den);
		if (a && b)
			add_ratio(r, a, b, cmps[k].what, cmps[k].kernel, cmps[k].expect);
	}
	for (i = first; base && i < r->nr_runs; i++) {
		a = &r->runs[i];
		if (strcmp(a->trace, trace) || a == base)
			continue;
		for (k = 0; k < ARRAY_SIZE(base_whats); k++) {
			if (!st_fp_ratio_find(r, from, trace, base_whats[k], a->variant,
					      ST_FP_BASE))
				add_ratio(r, a, base, base_whats[k], false, NULL);
		}
	}
}

int st_fp_compare(struct st_fp_report *r)
{
	size_t i, k, n = ARRAY_SIZE(cmps) + ARRAY_SIZE(base_whats);

	free(r->ratios);
	r->nr_ratios = 0;
	r->failed = false;
	/* per trace: the fixed ones, and base_whats per run at most */
	r->ratios = calloc(r->nr_runs * n + 1, sizeof(*r->ratios));
	if (!r->ratios)
		return -ENOMEM;
	set_scaling(r);
	for (i = 0; i < r->nr_runs; i++) {
		/* one set of ratios per trace: at its first run */
		for (k = 0; k < i && strcmp(r->runs[k].trace, r->runs[i].trace); k++)
			;
		if (k == i)
			compare_trace(r, i);
	}
	return 0;
}

int st_fp_generate(const char *shape, uint64_t seed, unsigned int scale, bool binary,
		   FILE *f, struct st_error *e)
{
	struct st_trace *t;
	int err = st_trace_generate(shape, seed, scale, &t, e);

	if (err)
		return err;
	err = binary ? st_trace_write_bin(t, f) : st_trace_write_text(t, f);
	st_trace_delete(t);
	if (err)
		return st_err(e, -err, "stdout", "write error: %s", strerror(-err));
	return 0;
}

/* Generate @shape into a binary temp file; its name in @path. */
static int gen_temp(const char *shape, char *path, size_t size, struct st_error *e)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	int fd, err;

	snprintf(path, size, "%s/slubtiny-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", shape);
	fd = mkstemp(path);
	if (fd < 0)
		return st_err(e, errno, path, "cannot create: %s", strerror(errno));
	f = fdopen(fd, "wb");
	if (!f) {
		err = st_err(e, errno, path, "%s", strerror(errno));
		close(fd);
		unlink(path);
		return err;
	}
	err = st_fp_generate(shape, 1, 1, true, f, e);
	if (fclose(f) && !err)
		err = st_err(e, EIO, path, "write error");
	if (err)
		unlink(path);
	return err;
}

/* Tell r->progress that trace @name (@done of @total) is replayed on @variant. */
static void replay_progress(const struct st_fp_report *r, size_t done, size_t total,
			    const char *name, const char *variant)
{
	char what[600];

	if (!r->progress)
		return;
	snprintf(what, sizeof(what), "%s on %s", name, variant);
	r->progress(r->progress_ctx, done, total, what);
}

/* Trace @path (@done of @total) on every variant; on one thread too when it has more. */
static int measure_one(struct st_fp_report *r, const char *dir, char *const *variants,
		       const char *path, const char *name, unsigned int threads,
		       unsigned int time_ms, size_t done, size_t total, struct st_error *e)
{
	static const char *const speed[] = { "slub", "slub_tiny", "slub_sheaves" };
	char *const *v;
	char one[512];
	size_t first = r->nr_runs, i, k;
	bool mt = false;
	int err = 0;

	for (v = variants; *v && !err; v++) {
		replay_progress(r, done, total, name, *v);
		err = st_fp_replay(r, dir, *v, path, name, threads, time_ms, e);
	}
	for (i = first; i < r->nr_runs; i++)
		mt |= r->runs[i].threads > 1;
	if (err || !mt)
		return err;
	/* the same trace on one thread, for the SLUBs against SLUB_TINY */
	snprintf(one, sizeof(one), "%s" ST_FP_ONE_THREAD, name);
	for (k = 0; k < ARRAY_SIZE(speed) && !err; k++) {
		for (v = variants; *v && strcmp(*v, speed[k]); v++)
			;
		if (!*v)
			continue;
		replay_progress(r, done, total, one, *v);
		err = st_fp_replay(r, dir, *v, path, one, 1, time_ms, e);
	}
	return err;
}

int st_fp_measure(struct st_fp_report *r, const char *dir, char *const *variants,
		  char *const *paths, size_t nr_paths, unsigned int threads,
		  unsigned int time_ms, struct st_error *e)
{
	char **found = NULL, tmp[4096];
	size_t i, nshapes = 0;
	int err = 0;

	if (!variants) {
		err = st_fp_variants(dir, &found, e);
		if (err)
			return err;
		variants = found;
	}
	for (i = 0; i < nr_paths && !err; i++) {
		struct st_trace *t = NULL;

		/* parse here first: the errors are ours to report, FILE:LINE */
		err = st_trace_load(paths[i], &t, e);
		st_trace_delete(t);
		if (!err)
			err = measure_one(r, dir, variants, paths[i], paths[i], threads, time_ms,
					  i + 1, nr_paths, e);
	}
	while (st_trace_shapes[nshapes])
		nshapes++;
	for (i = 0; !nr_paths && st_trace_shapes[i] && !err; i++) {
		err = gen_temp(st_trace_shapes[i], tmp, sizeof(tmp), e);
		if (err)
			break;
		err = measure_one(r, dir, variants, tmp, st_trace_shapes[i], threads, time_ms,
				  i + 1, nshapes, e);
		unlink(tmp);
	}
	st_fp_free_names(found);
	if (!err)
		err = st_fp_compare(r);
	return err;
}

int st_fp_peak_pages(const char *variant, const char *trace, unsigned long *peak,
		     struct st_error *e)
{
	struct st_fp_report r = { 0 };
	char tmp[4096];
	bool shape = false;
	size_t i;
	int err;

	for (i = 0; st_trace_shapes[i]; i++)
		shape |= !strcmp(trace, st_trace_shapes[i]);
	if (shape) {
		err = gen_temp(trace, tmp, sizeof(tmp), e);
		if (err)
			return err;
		err = st_fp_replay(&r, st_fp_replay_dir(), variant, tmp, trace, 0, 1, e);
		unlink(tmp);
	} else {
		err = st_fp_replay(&r, st_fp_replay_dir(), variant, trace, trace, 0, 1, e);
	}
	if (!err)
		*peak = r.runs[0].peak_pages;
	st_fp_report_free(&r);
	return err;
}
