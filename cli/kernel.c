// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny kernel: what each slab allocator the tree offers costs on the
 * user's own kernel tree, arch and defconfig.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/error.h"
#include "kernel/kernel.h"
#include "report/report.h"

#define KERNEL_MAX_ARGS 16

enum {
	OPT_SRCTREE = ST_OPT_ID,
	OPT_DEFCONFIG,
	OPT_ARCH,
	OPT_CROSS,
	OPT_VARIANT,
	OPT_BASELINE,
	OPT_BUILDDIR,
	OPT_MARKDOWN,
	OPT_HTML,
	OPT_SHARD,
	OPT_VMLINUX,
	OPT_OBJECTS,
	OPT_CONFIG,
	OPT_CC_WRAPPER,
};

const struct st_opt st_kernel_opts[] = {
	{ "srctree", 0, OPT_SRCTREE, "DIR", "the kernel tree to build (required; never written)" },
	{ "defconfig", 0, OPT_DEFCONFIG, "FILE|TARGET", "a defconfig file or a make target such as tinyconfig (default: defconfig)" },
	{ "config", 0, OPT_CONFIG, "FRAGMENT", "merge this config fragment into every variant (as merge_config.sh); repeatable" },
	{ "arch", 0, OPT_ARCH, "A", "build for this ARCH (default: $ARCH, else the host's); repeatable" },
	{ "cross-compile", 0, OPT_CROSS, "[A=]PREFIX", "CROSS_COMPILE, for every arch or for arch A; repeatable (default: $CROSS_COMPILE)" },
	{ "variant", 0, OPT_VARIANT, "V", "only this allocator (slub, slub_tiny, slab, slob); repeatable" },
	{ "baseline", 0, OPT_BASELINE, "V", "compare against this variant (default: slub)" },
	{ "objects", 0, OPT_OBJECTS, NULL, "build mm/slab_common.o and the allocator only (the default)" },
	{ "vmlinux", 0, OPT_VMLINUX, NULL, "build the whole image" },
	{ "jobs", 'j', 'j', "N", "make -j N; 0 = all CPUs (under make -j the caller's jobserver)" },
	{ "cc-wrapper", 0, OPT_CC_WRAPPER, "distcc|ccache", "compile through this wrapper: CC=\"distcc ${CROSS_COMPILE}gcc\" (or before $CC)" },
	{ "builddir", 0, OPT_BUILDDIR, "DIR", "build directory (default: $XDG_CACHE_HOME/slubtiny/kernel)" },
	{ "shard", 0, OPT_SHARD, "K/N", "build every N-th item from the K-th (merge with report --merge)" },
	{ "markdown", 0, OPT_MARKDOWN, NULL, "print Markdown tables" },
	{ "html", 0, OPT_HTML, "FILE", "also write a self-contained HTML page" },
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	ST_OPT_END,
};

const struct st_example st_kernel_examples[] = {
	{ "slubtiny kernel --srctree ~/linux --defconfig tinyconfig",
	  "what each allocator costs in a tinyconfig build of your tree" },
	{ "slubtiny kernel --srctree ~/linux --arch arm --defconfig board_defconfig",
	  "the same for a board, with your cross compiler" },
	{ NULL, NULL },
};

struct kernel_args {
	struct st_kernel_opts o;
	const char *arches[KERNEL_MAX_ARGS], *cross[KERNEL_MAX_ARGS];
	const char *variants[KERNEL_MAX_ARGS];
	const char *fragments[KERNEL_MAX_ARGS];
	const char *html;
	bool markdown;
};

static int add_arg(const char **v, size_t *n, const char *arg, const char *opt)
{
	if (*n == KERNEL_MAX_ARGS) {
		p_err("too many %s options (at most %d)", opt, KERNEL_MAX_ARGS);
		return -1;
	}
	v[(*n)++] = arg;
	return 0;
}

static int parse(struct kernel_args *ka, int argc, char **argv)
{
	struct st_kernel_opts *o = &ka->o;
	int opt, ret = 0;

	while (!ret && (opt = st_getopt(argc, argv, "kernel", st_kernel_opts)) >= 0) {
		switch (opt) {
		case OPT_SRCTREE:
			o->srctree = optarg;
			break;
		case OPT_DEFCONFIG:
			o->defconfig = optarg;
			break;
		case OPT_CONFIG:
			ret = add_arg(ka->fragments, &o->nfragments, optarg, "--config");
			break;
		case OPT_ARCH:
			ret = add_arg(ka->arches, &o->narches, optarg, "--arch");
			break;
		case OPT_CROSS:
			ret = add_arg(ka->cross, &o->ncross, optarg, "--cross-compile");
			break;
		case OPT_VARIANT:
			ret = add_arg(ka->variants, &o->nvariants, optarg, "--variant");
			break;
		case OPT_BASELINE:
			o->baseline = optarg;
			break;
		case OPT_BUILDDIR:
			o->builddir = optarg;
			break;
		case 'j':
			if (st_parse_jobs(optarg, &o->jobs))
				return -1;
			break;
		case OPT_CC_WRAPPER:
			if (st_parse_cc_wrapper(optarg, &o->cc_wrapper))
				return -1;
			break;
		case OPT_MARKDOWN:
			ka->markdown = true;
			break;
		case OPT_HTML:
			ka->html = optarg;
			break;
		case OPT_SHARD:
			if (st_parse_shard(optarg, &o->shard_k, &o->shard_n))
				return -1;
			break;
		case OPT_VMLINUX:
			o->vmlinux = true;
			break;
		case OPT_OBJECTS:
			o->vmlinux = false;
			break;
		}
	}
	if (opt == ST_OPT_HELP)
		return 1;
	if (ret || opt == ST_OPT_FAIL)
		return -1;
	if (optind < argc) {
		p_err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!o->srctree) {
		p_err("--srctree DIR is required");
		return -1;
	}
	if (st_out.json && ka->markdown) {
		p_err("--json and --markdown exclude each other");
		return -1;
	}
	/* as make: $ARCH and $CROSS_COMPILE unless the options say otherwise */
	if (!o->narches) {
		enum st_arch_from from;
		const char *arch;

		if (st_cli_arch(NULL, NULL, &arch, &from))
			return -1;
		if (arch) {
			ka->arches[o->narches++] = arch;
			if (st_out.verbosity >= 0)
				p_err("ARCH=%s (from %s)", arch, st_arch_from_name(from));
		}
	}
	if (!o->ncross) {
		const char *cc = getenv("CROSS_COMPILE");

		if (cc && *cc)
			ka->cross[o->ncross++] = cc;
	}
	return 0;
}

/*
 * One line per step on stderr (which item, which step, seconds so far),
 * repeated every few seconds while a step runs: a make takes minutes.
 */
static void progress(void *ctx, const struct st_kernel_progress *p)
{
	char item[256];

	snprintf(item, sizeof(item), "%s: %s", p->item, p->step);
	st_progress_update(ctx, p->index, p->total, item);
}

/* MAKEFLAGS of a make -jN that runs us: its jobserver is ours to join. */
static bool in_jobserver(void)
{
	const char *mf = getenv("MAKEFLAGS");

	return mf && (strstr(mf, "--jobserver-auth=") || strstr(mf, "--jobserver-fds="));
}

static const char *env_or_null(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int cmd_kernel(int argc, char **argv)
{
	struct kernel_args ka = { .o = { .defconfig = ST_KERNEL_DEFCONFIG } };
	struct st_kernel_result *k = NULL;
	struct st_progress *prog;
	struct st_report *r = NULL;
	struct st_error e = { 0 };
	int ret, status = ST_EXIT_ERROR;
	size_t i;

	ret = parse(&ka, argc, argv);
	if (ret)
		return ret > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
	ka.o.arches = ka.arches;
	ka.o.cross = ka.cross;
	ka.o.variants = ka.variants;
	ka.o.fragments = ka.fragments;
	ka.o.jobserver = in_jobserver();
	ka.o.cc = env_or_null("CC");
	ka.o.hostcc = env_or_null("HOSTCC");
	ka.o.python = env_or_null("SLUBTINY_PYTHON");
	/* -q: the errors only, not a line per build step */
	prog = st_progress_open("kernel", ST_PROGRESS_STEPS);
	ka.o.progress = prog ? progress : NULL;
	ka.o.progress_ctx = prog;
	ret = st_kernel_run(&ka.o, &k, &e);
	st_progress_end(prog);
	if (!ret)
		ret = st_kernel_report(&r, k, &e);
	if (ret) {
		p_lib_err(&e, NULL, ret);
		goto out;
	}
	for (i = 0; i < k->nitems; i++)
		if (k->items[i].error)
			p_err("%s", k->items[i].error);
	status = report_render(r, ka.markdown, ka.html);
	if (!status && k->nfailed)
		status = ST_EXIT_ERROR;
out:
	st_report_free(r);
	st_kernel_result_free(k);
	return status;
}
