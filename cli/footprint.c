// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny footprint: option parsing only; lib/footprint does the work.
 *
 *	footprint gen SHAPE [--binary] [--seed N] [--scale N]
 *	footprint [--variant V]... [--trace FILE]... [--threads N]
 *		  [--time-ms MS] [--builddir DIR] [--json] [--svg FILE]
 *	footprint --boot --srctree DIR [--defconfig FILE|TARGET] [--arch A]
 *		  [--variant V]... [--mem MB] [--cpus N] [--timeout S]
 *		  [--accel kvm|tcg] [--busybox FILE] [--boot-config minimal|kvm-guest]
 *		  [--config FRAGMENT]...
 *		  [--cmdline ARGS] [-j N] [--builddir DIR] [--json] [--svg FILE]
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/error.h"
#include "common/json.h"
#include "footprint/footprint.h"
#include "boot/boot.h"

/* Parse a decimal number in [min, max]; false (said, naming the option) if it is not one. */
static bool parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *v)
{
	return !st_opt_number(s, min, max, v);
}

struct fp_args;
static int parse_mems(const char *arg, struct fp_args *a);

#define ST_MEM_STEPS 8

enum { OPT_BINARY = ST_OPT_ID, OPT_SEED, OPT_SCALE, OPT_VARIANT, OPT_TRACE, OPT_THREADS,
       OPT_TIME_MS, OPT_SVG, OPT_BOOT, OPT_SRCTREE, OPT_DEFCONFIG, OPT_ARCH, OPT_CROSS,
       OPT_BUILDDIR, OPT_MEM, OPT_CPUS, OPT_TIMEOUT, OPT_ACCEL, OPT_BUSYBOX, OPT_CONFIG, OPT_CMDLINE, OPT_BOOT_CONFIG,
       OPT_CC_WRAPPER };

const struct st_opt st_footprint_opts[] = {
	{ "variant", 0, OPT_VARIANT, "V", "replay on this variant only; repeatable (default: all)" },
	{ "trace", 0, OPT_TRACE, "TRACE", "replay this trace file; repeatable (default: the generated shapes)" },
	{ "threads", 0, OPT_THREADS, "N", "replay on N threads (1-64)" },
	{ "time-ms", 0, OPT_TIME_MS, "MS", "time each speed measurement for MS milliseconds (default 300)" },
	{ "svg", 0, OPT_SVG, "FILE", "also write the pages-held chart (with --boot: the Slab: bars) as SVG" },
	{ "builddir", 0, OPT_BUILDDIR, "DIR", "kernel build cache with the booted figures (default: $XDG_CACHE_HOME/slubtiny/kernel)" },
	{ "boot", 0, OPT_BOOT, NULL, "build and boot each variant of a kernel tree in QEMU" },
	{ "srctree", 0, OPT_SRCTREE, "DIR", "with --boot: the kernel tree (never written)" },
	{ "defconfig", 0, OPT_DEFCONFIG, "FILE|TARGET", "with --boot: a defconfig file or make target (default: defconfig)" },
	{ "arch", 0, OPT_ARCH, "A", "with --boot: the ARCH to boot: x86_64, arm, riscv (default: $ARCH, else x86_64)" },
	{ "boot-config", 0, OPT_BOOT_CONFIG, "minimal|kvm-guest", "with --boot: add only what a boot needs (default), or first the tree's kvm_guest.config" },
	{ "config", 0, OPT_CONFIG, "FRAGMENT", "with --boot: merge this config fragment into every variant (as merge_config.sh); repeatable" },
	{ "cross-compile", 0, OPT_CROSS, "[A=]PREFIX", "with --boot: CROSS_COMPILE (default: $CROSS_COMPILE); repeatable" },
	{ "mem", 0, OPT_MEM, "MB[,MB...]", "with --boot: QEMU -m (default 32); several: boot each variant in each, smallest first" },
	{ "cpus", 0, OPT_CPUS, "N", "with --boot: QEMU -smp (default 1)" },
	{ "timeout", 0, OPT_TIMEOUT, "S", "with --boot: time limit per boot (default 300)" },
	{ "accel", 0, OPT_ACCEL, "kvm|tcg", "with --boot: accelerator (default: kvm when it starts the kernel)" },
	{ "cmdline", 0, OPT_CMDLINE, "ARGS", "with --boot: add ARGS to the kernel command line (slub_max_order=1, ...)" },
	{ "busybox", 0, OPT_BUSYBOX, "FILE", "with --boot: pack this static busybox and its applet links" },
	{ "jobs", 'j', 'j', "N", "with --boot: make -j N" },
	{ "cc-wrapper", 0, OPT_CC_WRAPPER, "distcc|ccache", "with --boot: compile the kernels through this wrapper (as kernel --cc-wrapper)" },
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	{ "verbose", 'v', ST_OPT_VERBOSE, NULL, "print every figure: all ratios, size classes, caches" },
	ST_OPT_END,
};

const struct st_opt st_footprint_gen_opts[] = {
	{ "binary", 0, OPT_BINARY, NULL, "write the binary trace format (not to a terminal)" },
	{ "seed", 0, OPT_SEED, "N", "random seed (default 1)" },
	{ "scale", 0, OPT_SCALE, "N", "multiply the trace length by N (1-100)" },
	ST_OPT_END,
};

const struct st_example st_footprint_examples[] = {
	{ "slubtiny footprint", "pages held and speed of every variant on the built-in trace shapes" },
	{ "slubtiny footprint gen boot --seed 7 > boot.trace",
	  "write a trace of a generated boot-like workload" },
	{ "slubtiny footprint --trace boot.trace --variant slub --variant slub_tiny",
	  "replay that trace on two variants" },
	{ "slubtiny footprint --boot --srctree ~/linux --defconfig tinyconfig",
	  "boot each allocator of your tree in QEMU and show the kernel's Slab:" },
	{ NULL, NULL },
};

static int do_gen(int argc, char **argv)
{
	unsigned long seed = 1, scale = 1;
	struct st_error e = { 0 };
	bool binary = false;
	int c, err;

	while ((c = st_getopt(argc, argv, "footprint gen", st_footprint_gen_opts)) >= 0) {
		switch (c) {
		case OPT_BINARY:
			binary = true;
			break;
		case OPT_SEED:
			if (!parse_uint(optarg, 0, ~0ul, &seed))
				goto bad;
			break;
		case OPT_SCALE:
			if (!parse_uint(optarg, 1, 100, &scale))
				goto bad;
			break;
		}
	}
	if (c != ST_OPT_DONE)
		return c == ST_OPT_HELP ? ST_EXIT_OK : ST_EXIT_ERROR;
	if (optind != argc - 1) {
		p_err("expected one SHAPE; see 'slubtiny footprint --help'");
		return ST_EXIT_ERROR;
	}
	if (binary && isatty(STDOUT_FILENO)) {
		p_err("not writing a binary trace to a terminal");
		return ST_EXIT_ERROR;
	}
	err = st_fp_generate(argv[optind], seed, scale, binary, stdout, &e);
	if (err) {
		p_lib_err(&e, argv[optind], err);
		return ST_EXIT_ERROR;
	}
	return ST_EXIT_OK;
bad:
	return ST_EXIT_ERROR;
}

struct fp_args {
	char **variants, **traces, **cross, **fragments;
	size_t nr_variants, nr_traces, nr_cross, nr_fragments;
	unsigned long threads, time_ms;
	const char *svg;
	/* --boot */
	bool boot;
	const char *srctree, *defconfig, *arch, *builddir, *accel, *busybox, *cmdline, *profile;
	const char *cc_wrapper;
	unsigned long mem, cpus, timeout, jobs;
	unsigned int mems[ST_MEM_STEPS];
	size_t nmems;
};

/*
 * --mem MB or MB,MB,...: the -m sizes to boot each variant in, kept
 * ascending without repeats (the smallest that boots is the answer).
 */
static int parse_mems(const char *arg, struct fp_args *a)
{
	char buf[128], *tok, *save = NULL;
	unsigned long v;
	size_t i, k;

	if (strlen(arg) >= sizeof(buf)) {
		p_err("--mem: longer than %zu bytes", sizeof(buf) - 1);
		return -EINVAL;
	}
	strcpy(buf, arg);
	a->nmems = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!parse_uint(tok, 4, 65536, &v))
			return -EINVAL;
		if (a->nmems == ST_MEM_STEPS) {
			p_err("--mem '%s': more than %d sizes", arg, ST_MEM_STEPS);
			return -EINVAL;
		}
		for (i = 0; i < a->nmems && a->mems[i] < v; i++)
			;
		if (i < a->nmems && a->mems[i] == v)
			continue;
		for (k = a->nmems; k > i; k--)
			a->mems[k] = a->mems[k - 1];
		a->mems[i] = (unsigned int)v;
		a->nmems++;
	}
	if (!a->nmems) {
		p_err("--mem '%s': no size", arg);
		return -EINVAL;
	}
	a->mem = a->mems[0];
	return 0;
}


static int push(char ***v, size_t *n, char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

static int parse_args(int argc, char **argv, struct fp_args *a)
{
	int c;

	a->time_ms = 300;
	while ((c = st_getopt(argc, argv, "footprint", st_footprint_opts)) >= 0) {
		switch (c) {
		case OPT_VARIANT:
			if (push(&a->variants, &a->nr_variants, optarg))
				return -ENOMEM;
			break;
		case OPT_TRACE:
			if (push(&a->traces, &a->nr_traces, optarg))
				return -ENOMEM;
			break;
		case OPT_THREADS:
			if (!parse_uint(optarg, 1, 64, &a->threads))
				goto bad;
			break;
		case OPT_TIME_MS:
			if (!parse_uint(optarg, 1, 600000, &a->time_ms))
				goto bad;
			break;
		case OPT_SVG:
			a->svg = optarg;
			break;
		case OPT_BOOT:
			a->boot = true;
			break;
		case OPT_SRCTREE:
			a->srctree = optarg;
			break;
		case OPT_DEFCONFIG:
			a->defconfig = optarg;
			break;
		case OPT_ARCH:
			a->arch = optarg;
			break;
		case OPT_CROSS:
			if (push(&a->cross, &a->nr_cross, optarg))
				return -ENOMEM;
			break;
		case OPT_CONFIG:
			if (push(&a->fragments, &a->nr_fragments, optarg))
				return -ENOMEM;
			break;
		case OPT_BUILDDIR:
			a->builddir = optarg;
			break;
		case OPT_MEM:
			if (parse_mems(optarg, a))
				goto bad;
			break;
		case OPT_CPUS:
			if (!parse_uint(optarg, 1, 64, &a->cpus))
				goto bad;
			break;
		case OPT_TIMEOUT:
			if (!parse_uint(optarg, 1, 86400, &a->timeout))
				goto bad;
			break;
		case OPT_ACCEL:
			if (strcmp(optarg, "kvm") && strcmp(optarg, "tcg")) {
				p_err("--accel is kvm or tcg, not '%s'", optarg);
				return -EINVAL;
			}
			a->accel = optarg;
			break;
		case OPT_BUSYBOX:
			a->busybox = optarg;
			break;
		case OPT_CMDLINE:
			a->cmdline = optarg;
			break;
		case OPT_BOOT_CONFIG:
			if (strcmp(optarg, "minimal") && strcmp(optarg, "kvm-guest")) {
				p_err("--boot-config is minimal or kvm-guest, not '%s'",
				      optarg);
				return -EINVAL;
			}
			a->profile = optarg;
			break;
		case 'j':
			if (!parse_uint(optarg, 1, 4096, &a->jobs))
				goto bad;
			break;
		case OPT_CC_WRAPPER:
			if (st_parse_cc_wrapper(optarg, &a->cc_wrapper))
				goto bad;
			break;
		}
	}
	if (c == ST_OPT_HELP)
		return 1;
	if (c == ST_OPT_FAIL)
		return -EINVAL;
	if (optind != argc) {
		p_err("unexpected argument '%s'; see 'slubtiny footprint --help'",
		      argv[optind]);
		return -EINVAL;
	}
	if (!a->boot && (a->srctree || a->defconfig || a->arch || a->nr_cross || a->nr_fragments || a->mem ||
			 a->cpus || a->timeout || a->accel || a->jobs || a->busybox ||
			 a->cmdline || a->profile || a->cc_wrapper)) {
		p_err("the kernel options need --boot");
		return -EINVAL;
	}
	if (a->boot && !a->srctree) {
		p_err("--boot needs --srctree DIR");
		return -EINVAL;
	}
	/* as make: $ARCH unless --arch says otherwise (x86 boots as x86_64) */
	if (a->boot && !a->arch) {
		enum st_arch_from from;

		if (st_cli_arch(NULL, NULL, &a->arch, &from))
			return -EINVAL;
		if (a->arch && !strcmp(a->arch, "x86"))
			a->arch = "x86_64";
		if (a->arch && st_out.verbosity >= 0)
			p_err("ARCH=%s (from %s)", a->arch, st_arch_from_name(from));
	}
	if (a->boot && !a->nr_cross) {
		char *cc = getenv("CROSS_COMPILE");

		if (cc && *cc && push(&a->cross, &a->nr_cross, cc))
			return -ENOMEM;
	}
	if (a->boot && (a->nr_traces || a->threads)) {
		p_err("--trace and --threads are for the replay, not --boot");
		return -EINVAL;
	}
	return 0;
bad:
	return -EINVAL;
}

static int write_svg(const struct st_fp_report *r, const char *path)
{
	FILE *f = st_out_open(path);

	return f && !st_out_close(f, path, st_fp_render_svg(r, f)) ? ST_EXIT_OK : ST_EXIT_ERROR;
}

static int print_json(const struct st_fp_report *r)
{
	int ret = st_json_print(stdout, st_fp_render_json(r), st_out.pretty);

	if (ret) {
		p_err("%s", strerror(-ret));
		return ST_EXIT_ERROR;
	}
	return ST_EXIT_OK;
}

/* The booted figures kept by footprint --boot, for the kernel column. */
static int use_booted(struct st_fp_report *r, const char *builddir)
{
	struct st_boot_latest *l = NULL;
	struct st_error e = { 0 };
	size_t n, i;
	char *from;
	int err = st_boot_latest_load(builddir, &l, &n, &e);

	if (err) {
		p_lib_err(&e, "footprint", err);
		return err;
	}
	for (i = 0; !err && i < n; i++) {
		if (asprintf(&from, "booted %s %s %s%s%s, %u MB, %u CPU%s%s", l[i].tree, l[i].arch,
			     l[i].defconfig, strcmp(l[i].profile, "minimal") ? " + " : "",
			     strcmp(l[i].profile, "minimal") ? l[i].profile : "", l[i].mem_mb,
			     l[i].cpus, *l[i].cmdline ? ", " : "", l[i].cmdline) < 0) {
			err = -ENOMEM;
			break;
		}
		err = st_fp_set_kernel(r, l[i].variant, l[i].slab_kb, from);
		free(from);
	}
	st_boot_latest_free(l, n);
	if (err)
		p_err("%s", strerror(-err));
	return err;
}

/* One line per step on stderr, repeated while it runs, as `kernel` prints them. */
static void boot_progress(void *ctx, const struct st_kernel_progress *p)
{
	char item[256];

	snprintf(item, sizeof(item), "%s: %s", p->item, p->step);
	st_progress_update(ctx, p->index, p->total, item);
}

static int boot_svg(const struct st_boot_result *r, const char *path)
{
	FILE *f = st_out_open(path);

	return f && !st_out_close(f, path, st_boot_render_svg(r, f)) ? ST_EXIT_OK : ST_EXIT_ERROR;
}

static int do_boot(struct fp_args *a)
{
	const char *arches[1] = { a->arch };
	struct st_boot_opts o = {
		.k = {
			.srctree = a->srctree,
			.defconfig = a->defconfig ? a->defconfig : ST_KERNEL_DEFCONFIG,
			.arches = arches,
			.narches = a->arch ? 1 : 0,
			.cross = (const char *const *)a->cross,
			.ncross = a->nr_cross,
			.fragments = (const char *const *)a->fragments,
			.nfragments = a->nr_fragments,
			.variants = (const char *const *)a->variants,
			.nvariants = a->nr_variants,
			.builddir = a->builddir,
			.jobs = a->jobs,
			.cc_wrapper = a->cc_wrapper,
		},
		.mem_mb = a->mem,
		.mems = a->mems,
		.nmems = a->nmems > 1 ? a->nmems : 0,
		.cpus = a->cpus,
		.timeout_s = a->timeout,
		.accel = a->accel,
		.busybox = a->busybox,
		.cmdline = a->cmdline,
		.profile = a->profile,
	};
	const char *v, *names[8];
	unsigned long peak[8];
	struct st_boot_result *r = NULL;
	struct st_progress *prog;
	struct st_error e = { 0 };
	size_t i, n = 0;
	int ret, err;

	v = getenv("CC");
	o.k.cc = v && *v ? v : NULL;
	v = getenv("SLUBTINY_PYTHON");
	o.k.python = v && *v ? v : NULL;
	v = getenv("MAKEFLAGS");
	o.k.jobserver = v && (strstr(v, "--jobserver-auth=") || strstr(v, "--jobserver-fds="));
	prog = st_progress_open("footprint", ST_PROGRESS_STEPS);
	o.k.progress = prog ? boot_progress : NULL;
	o.k.progress_ctx = prog;
	err = st_boot_run(&o, &r, &e);
	st_progress_end(prog);
	if (err) {
		p_lib_err(&e, "footprint", err);
		return ST_EXIT_ERROR;
	}
	/* The same ratios from the trace replay, where the bundled allocator has the variant. */
	for (i = 0; i < r->nitems && n < 8; i++) {
		struct st_error pe = { 0 };

		if (r->items[i].error || r->items[i].stopped || r->items[i].mem_mb != r->mem_mb)
			continue;
		names[n] = r->items[i].variant;
		if (st_fp_peak_pages(names[n], "boot", &peak[n], &pe))
			peak[n] = 0;
		n++;
	}
	st_boot_ratios(r, names, peak, n);
	for (i = 0; i < r->nitems; i++)
		if (r->items[i].error)
			p_err("%s", r->items[i].error);
	if (st_out.json) {
		ret = st_json_print(stdout, st_boot_render_json(r), st_out.pretty);
		if (ret) {
			p_err("%s", strerror(-ret));
			st_boot_result_free(r);
			return ST_EXIT_ERROR;
		}
		st_out.json_done = true;
	} else {
		st_boot_render_text(r, stdout);
	}
	ret = a->svg ? boot_svg(r, a->svg) : ST_EXIT_OK;
	if (ret == ST_EXIT_OK && r->nfailed)
		ret = ST_EXIT_ERROR;
	st_boot_result_free(r);
	return ret;
}

int cmd_footprint(int argc, char **argv)
{
	struct st_progress *prog;
	struct fp_args a = { 0 };
	struct st_fp_report r = { 0 };
	struct st_error e = { 0 };
	int err, ret;

	if (argc > 1 && !strcmp(argv[1], "gen"))
		return do_gen(argc - 1, argv + 1);
	err = parse_args(argc, argv, &a);
	if (err) {
		ret = err > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
		goto out;
	}
	st_fit_output(!st_out.json, true);
	if (a.boot) {
		ret = do_boot(&a);
		goto out;
	}
	if (use_booted(&r, a.builddir)) {
		ret = ST_EXIT_ERROR;
		goto out;
	}
	prog = st_progress_open("footprint", ST_PROGRESS_LOG);
	r.progress = prog ? st_progress_update : NULL;
	r.progress_ctx = prog;
	if (!err)
		err = st_fp_measure(&r, st_fp_replay_dir(), a.variants, a.traces, a.nr_traces,
				    a.threads, a.time_ms, &e);
	st_progress_end(prog);
	if (err) {
		p_lib_err(&e, "footprint", err);
		ret = ST_EXIT_ERROR;
		goto out;
	}
	ret = st_out.json ? print_json(&r) : (st_fp_render_text(&r, st_out.verbosity > 0, stdout), ST_EXIT_OK);
	st_out.json_done = st_out.json;
	if (ret == ST_EXIT_OK && a.svg)
		ret = write_svg(&r, a.svg);
	/* An expected page ratio that does not hold (the JSON's expectations_hold) is a finding. */
	if (ret == ST_EXIT_OK && r.failed)
		ret = ST_EXIT_FINDINGS;
out:
	st_fp_report_free(&r);
	free(a.variants);
	free(a.traces);
	free(a.cross);
	free(a.fragments);
	return ret;
}
