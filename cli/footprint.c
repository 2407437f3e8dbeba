// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny footprint: option parsing only; lib/footprint and lib/boot do
 * the work. Three commands under one name, each with its own option table:
 *
 *	footprint [replay] [--variant V]... [--trace FILE]... [--threads N]
 *		  [--time-ms MS] [--builddir DIR] [--json] [--svg FILE]
 *	footprint gen [--binary] [--seed N] [--scale N] SHAPE
 *	footprint boot --srctree DIR [the kernel-tree options of `kernel`]
 *		  [--mem MB[,MB...]] [--cpus N] [--timeout S] [--accel kvm|tcg]
 *		  [--busybox FILE] [--boot-config minimal|kvm-guest]
 *		  [--cmdline ARGS] [--json] [--svg FILE]
 *
 * `footprint --boot ...`, the spelling from before the boot command, is
 * still taken for `footprint boot ...`.
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
#include "ktree.h"

#define ST_MEM_STEPS 8

enum { OPT_BINARY = ST_OPT_ID, OPT_SEED, OPT_SCALE, OPT_VARIANT, OPT_TRACE, OPT_THREADS,
       OPT_TIME_MS, OPT_SVG, OPT_BUILDDIR, OPT_MEM, OPT_CPUS, OPT_TIMEOUT, OPT_ACCEL,
       OPT_BUSYBOX, OPT_CMDLINE, OPT_BOOT_CONFIG };

const struct st_opt st_footprint_opts[] = {
	{ "variant", 0, OPT_VARIANT, "V", "replay on this variant only; repeatable (default: all)" },
	{ "trace", 0, OPT_TRACE, "TRACE", "replay this trace file; repeatable (default: the generated shapes)" },
	{ "threads", 0, OPT_THREADS, "N", "replay on N threads (1-64)", ST_OPT_NUM, 1, 64 },
	{ "time-ms", 0, OPT_TIME_MS, "MS", "time each speed measurement for MS milliseconds (default 300)",
	  ST_OPT_NUM, 1, 600000 },
	{ "svg", 0, OPT_SVG, "FILE", "also write the pages-held chart as SVG" },
	{ "builddir", 0, OPT_BUILDDIR, "DIR", "kernel build cache with the booted figures (default: $XDG_CACHE_HOME/slubtiny/kernel)" },
	ST_OPT_ROW_FORMAT("{text|json|svg}"),
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	{ "verbose", 'v', ST_OPT_VERBOSE, NULL, "print every figure: all ratios, size classes, caches" },
	ST_OPT_END,
};

const struct st_opt st_footprint_gen_opts[] = {
	{ "binary", 0, OPT_BINARY, NULL, "write the binary trace format (not to a terminal)" },
	{ "seed", 0, OPT_SEED, "N", "random seed (default 1)", ST_OPT_NUM, 0, ~0ul },
	{ "scale", 0, OPT_SCALE, "N", "multiply the trace length by N (1-100)", ST_OPT_NUM, 1, 100 },
	ST_OPT_END,
};

const struct st_opt st_footprint_boot_opts[] = {
	ST_KTREE_ROW_SRCTREE,
	ST_KTREE_ROW_DEFCONFIG,
	{ "arch", 0, ST_KTREE_ARCH, "A", "the ARCH to boot: x86_64, arm, riscv (default: $ARCH, else x86_64)" },
	{ "boot-config", 0, OPT_BOOT_CONFIG, "minimal|kvm-guest", "add only what a boot needs (default), or first the tree's kvm_guest.config",
	  ST_OPT_CHOICE },
	ST_KTREE_ROW_CONFIG,
	ST_KTREE_ROW_CROSS,
	ST_KTREE_ROW_VARIANT,
	{ "mem", 0, OPT_MEM, "MB[,MB...]", "QEMU -m (default 32); several: boot each variant in each, smallest first" },
	{ "cpus", 0, OPT_CPUS, "N", "QEMU -smp (default 1)", ST_OPT_NUM, 1, 64 },
	{ "timeout", 0, OPT_TIMEOUT, "S", "time limit per boot (default 300)", ST_OPT_NUM, 1, 86400 },
	{ "accel", 0, OPT_ACCEL, "kvm|tcg", "accelerator (default: kvm when it starts the kernel)", ST_OPT_CHOICE },
	{ "cmdline", 0, OPT_CMDLINE, "ARGS", "add ARGS to the kernel command line (slub_max_order=1, ...)" },
	{ "busybox", 0, OPT_BUSYBOX, "FILE", "pack this static busybox and its applet links" },
	ST_KTREE_ROW_JOBS,
	ST_KTREE_ROW_CC_WRAPPER,
	ST_KTREE_ROW_BUILDDIR,
	{ "svg", 0, OPT_SVG, "FILE", "also write the Slab: bars as SVG" },
	ST_OPT_ROW_FORMAT("{text|json|svg}"),
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	ST_OPT_ROW_VERBOSE,
	ST_OPT_END,
};

const struct st_example st_footprint_examples[] = {
	{ "slubtiny footprint", "pages held and speed of every variant on the built-in trace shapes" },
	{ "slubtiny footprint gen boot --seed 7 > boot.trace",
	  "write a trace of a generated boot-like workload" },
	{ "slubtiny footprint --trace boot.trace --variant slub --variant slub_tiny",
	  "replay that trace on two variants" },
	{ "slubtiny footprint boot --srctree ~/linux --defconfig tinyconfig",
	  "boot each allocator of your tree in QEMU and show the kernel's Slab:" },
	{ NULL, NULL },
};

static int fp_replay(int argc, char **argv);
static int fp_gen(int argc, char **argv);
static int fp_boot(int argc, char **argv);

const struct cmd st_footprint_cmds[] = {
	{ "replay", fp_replay, "replay allocation traces on each variant (the default)", "",
	  st_footprint_opts, NULL, NULL },
	{ "gen", fp_gen, "write a generated trace on stdout", "SHAPE (boot, net or fs)",
	  st_footprint_gen_opts, NULL, NULL },
	{ "boot", fp_boot, "build and boot each variant of a kernel tree in QEMU",
	  "", st_footprint_boot_opts, NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

/* The command as typed: "footprint" (replay, or the old --boot) or "footprint gen". */
static const char *fp_cmd = "footprint";

static int fp_gen(int argc, char **argv)
{
	unsigned long seed = 1, scale = 1;
	struct st_error e = { 0 };
	bool binary = false;
	int c, err;

	while ((c = st_getopt(argc, argv, fp_cmd, st_footprint_gen_opts)) >= 0) {
		switch (c) {
		case OPT_BINARY:
			binary = true;
			break;
		case OPT_SEED:
			seed = st_optnum;
			break;
		case OPT_SCALE:
			scale = st_optnum;
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

/* After the options (st_getopt() returned @c): 1 for --help, -EINVAL, or 0. */
static int parse_end(int c, int argc, char **argv)
{
	if (c == ST_OPT_HELP)
		return 1;
	if (c == ST_OPT_FAIL)
		return -EINVAL;
	if (optind != argc) {
		p_err("unexpected argument '%s'; see 'slubtiny footprint --help'",
		      argv[optind]);
		return -EINVAL;
	}
	return 0;
}

struct replay_args {
	char **variants, **traces;
	size_t nr_variants, nr_traces;
	unsigned long threads, time_ms;
	const char *svg, *builddir;
};

static int replay_parse(int argc, char **argv, struct replay_args *a)
{
	int c;

	a->time_ms = 300;
	while ((c = st_getopt(argc, argv, fp_cmd, st_footprint_opts)) >= 0) {
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
			a->threads = st_optnum;
			break;
		case OPT_TIME_MS:
			a->time_ms = st_optnum;
			break;
		case OPT_SVG:
			a->svg = optarg;
			break;
		case OPT_BUILDDIR:
			a->builddir = optarg;
			break;
		}
	}
	return parse_end(c, argc, argv);
}

static int write_svg(const struct st_fp_report *r, const char *path)
{
	struct st_render_opts o = st_render_opts(ST_FORMAT_SVG);
	FILE *f = st_out_open(path);

	return f && !st_out_close(f, path, st_fp_render(f, r, &o)) ? ST_EXIT_OK : ST_EXIT_ERROR;
}

/* The result on stdout: text, JSON or the SVG chart. */
static int print_result(const struct st_fp_report *r)
{
	struct st_render_opts o = st_render_opts(st_out.format);
	int ret = st_fp_render(stdout, r, &o);

	st_out.json_done = st_out.json;
	/* a closed pipe is said by no one (finish_stdout() in main.c) */
	if (ret && ret != -EPIPE) {
		p_err("%s", strerror(-ret));
		return ST_EXIT_ERROR;
	}
	return ST_EXIT_OK;
}

/* The booted figures kept by footprint boot, for the kernel column. */
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

static int fp_replay(int argc, char **argv)
{
	struct st_progress *prog;
	struct replay_args a = { 0 };
	struct st_fp_report r = { 0 };
	struct st_error e = { 0 };
	int err, ret;

	err = replay_parse(argc, argv, &a);
	if (err) {
		ret = err > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
		goto out;
	}
	st_fit_output(st_out.format == ST_FORMAT_TEXT, true);
	if (use_booted(&r, a.builddir)) {
		ret = ST_EXIT_ERROR;
		goto out;
	}
	prog = st_progress_open("footprint", ST_PROGRESS_LOG);
	r.progress = prog ? st_progress_update : NULL;
	r.progress_ctx = prog;
	err = st_fp_measure(&r, st_fp_replay_dir(), a.variants, a.traces, a.nr_traces,
			    a.threads, a.time_ms, &e);
	st_progress_end(prog);
	if (err) {
		p_lib_err(&e, "footprint", err);
		ret = ST_EXIT_ERROR;
		goto out;
	}
	ret = print_result(&r);
	if (ret == ST_EXIT_OK && a.svg)
		ret = write_svg(&r, a.svg);
	/* An expected page ratio that does not hold (the JSON's expectations_hold) is a finding. */
	if (ret == ST_EXIT_OK && r.failed)
		ret = ST_EXIT_FINDINGS;
out:
	st_fp_report_free(&r);
	free(a.variants);
	free(a.traces);
	return ret;
}

struct boot_args {
	struct st_ktree_args k;
	const char *accel, *busybox, *cmdline, *profile, *svg;
	unsigned long cpus, timeout;
	unsigned int mems[ST_MEM_STEPS];
	size_t nmems;
};

/*
 * --mem MB or MB,MB,...: the -m sizes to boot each variant in, kept
 * ascending without repeats (the smallest that boots is the answer).
 */
static int parse_mems(const char *arg, struct boot_args *a)
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
		if (st_opt_number(tok, 4, 65536, &v))
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
	return 0;
}

/* One option of footprint boot's own (not a kernel-tree one). */
static int boot_opt(struct boot_args *a, int c, const char *arg)
{
	switch (c) {
	case OPT_MEM:
		return parse_mems(arg, a);
	case OPT_CPUS:
		a->cpus = st_optnum;
		break;
	case OPT_TIMEOUT:
		a->timeout = st_optnum;
		break;
	case OPT_ACCEL:
		a->accel = arg;
		break;
	case OPT_BUSYBOX:
		a->busybox = arg;
		break;
	case OPT_CMDLINE:
		a->cmdline = arg;
		break;
	case OPT_BOOT_CONFIG:
		a->profile = arg;
		break;
	case OPT_SVG:
		a->svg = arg;
		break;
	}
	return 0;
}

/* What only a boot cannot take, said in the options' terms. */
static int boot_check(struct boot_args *a)
{
	struct st_kernel_opts *o = &a->k.o;
	const char *const *b;

	if (o->narches > 1) {
		p_err("--arch: a boot takes one ARCH at a time");
		return -EINVAL;
	}
	/* as make: ARCH=x86 builds x86_64, and QEMU's pc boots it */
	if (o->narches)
		a->k.arches[0] = st_arch_exact(o->arches[0]);
	if (!o->narches || !a->accel || strcmp(a->accel, "kvm") ||
	    st_arch_same(o->arches[0], st_arch_host_machine()))
		return 0;
	for (b = st_boot_arches(); *b; b++) {
		if (!strcmp(*b, o->arches[0])) {
			p_err("--accel kvm: no KVM for ARCH=%s on this machine; use --accel tcg",
			      o->arches[0]);
			return -EINVAL;
		}
	}
	return 0;
}

static int boot_parse(int argc, char **argv, struct boot_args *a)
{
	int c, ret = 0;

	st_ktree_init(&a->k);
	while (!ret && (c = st_getopt(argc, argv, fp_cmd, st_footprint_boot_opts)) >= 0) {
		ret = st_ktree_opt(&a->k, c, optarg);
		if (ret == 1)
			ret = boot_opt(a, c, optarg);
	}
	if (ret)
		return -EINVAL;
	ret = parse_end(c, argc, argv);
	if (ret)
		return ret;
	if (st_ktree_finish(&a->k) || boot_check(a))
		return -EINVAL;
	if (!a->k.o.defconfig)
		a->k.o.defconfig = ST_KERNEL_DEFCONFIG;
	return 0;
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
	struct st_render_opts o = st_render_opts(ST_FORMAT_SVG);
	FILE *f = st_out_open(path);

	return f && !st_out_close(f, path, st_boot_render(f, r, &o)) ? ST_EXIT_OK : ST_EXIT_ERROR;
}

/* Boot figures beside the trace replay's: the same ratios where the bundled allocator has the variant. */
static void boot_ratios(struct st_boot_result *r)
{
	const char *names[8];
	unsigned long peak[8];
	size_t i, n = 0;

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
}

static int boot_print(struct st_boot_result *r, const char *svg)
{
	struct st_render_opts o = st_render_opts(st_out.format);
	size_t i;
	int ret;

	for (i = 0; i < r->nitems; i++)
		if (r->items[i].error)
			p_err("%s", r->items[i].error);
	ret = st_boot_render(stdout, r, &o);
	st_out.json_done = st_out.json;
	if (ret && ret != -EPIPE) {
		p_err("%s", strerror(-ret));
		return ST_EXIT_ERROR;
	}
	ret = svg ? boot_svg(r, svg) : ST_EXIT_OK;
	if (ret == ST_EXIT_OK && r->nfailed)
		ret = ST_EXIT_ERROR;
	return ret;
}

static int fp_boot(int argc, char **argv)
{
	struct boot_args a = { 0 };
	struct st_boot_opts o = { 0 };
	struct st_boot_result *r = NULL;
	struct st_progress *prog;
	struct st_error e = { 0 };
	int err, ret;

	err = boot_parse(argc, argv, &a);
	if (err)
		return err > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
	st_fit_output(st_out.format == ST_FORMAT_TEXT, true);
	o.k = a.k.o;
	o.mem_mb = a.nmems ? a.mems[0] : 0;
	o.mems = a.mems;
	o.nmems = a.nmems > 1 ? a.nmems : 0;
	o.cpus = a.cpus;
	o.timeout_s = a.timeout;
	o.accel = a.accel;
	o.busybox = a.busybox;
	o.cmdline = a.cmdline;
	o.profile = a.profile;
	prog = st_progress_open("footprint", ST_PROGRESS_STEPS);
	o.k.progress = prog ? boot_progress : NULL;
	o.k.progress_ctx = prog;
	err = st_boot_run(&o, &r, &e);
	st_progress_end(prog);
	if (err) {
		p_lib_err(&e, "footprint", err);
		return ST_EXIT_ERROR;
	}
	boot_ratios(r);
	ret = boot_print(r, a.svg);
	st_boot_result_free(r);
	return ret;
}

/*
 * Where "--boot" stands as an option of its own in @argv (the old spelling
 * of `footprint boot`), else 0: not as the argument of an option before it,
 * nor after "--".
 */
static int boot_alias(int argc, char **argv)
{
	const struct st_opt *tables[] = { st_footprint_boot_opts, st_footprint_opts }, *o;
	int i;
	size_t t;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--boot"))
			return i;
		for (t = 0; t < 2; t++) {
			for (o = tables[t]; o->name || o->shrt; o++) {
				if (!o->arg)
					continue;
				if ((o->name && argv[i][0] == '-' && argv[i][1] == '-' &&
				     !strcmp(argv[i] + 2, o->name)) ||
				    (o->shrt && argv[i][0] == '-' && argv[i][1] == o->shrt && !argv[i][2]))
					break;
			}
			if (o->name || o->shrt) {
				i++;	/* its argument */
				break;
			}
		}
	}
	return 0;
}

int cmd_footprint(int argc, char **argv)
{
	static char name[32];
	const struct cmd *sub;
	int at;

	for (sub = st_footprint_cmds; argc > 1 && sub->name; sub++) {
		if (strcmp(argv[1], sub->name))
			continue;
		snprintf(name, sizeof(name), "footprint %s", sub->name);
		fp_cmd = name;
		return sub->fn(argc - 1, argv + 1);
	}
	at = boot_alias(argc, argv);
	if (at) {
		memmove(&argv[at], &argv[at + 1], (argc - at) * sizeof(*argv));
		return fp_boot(argc - 1, argv);
	}
	return fp_replay(argc, argv);
}
