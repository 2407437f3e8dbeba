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
#include "ktree.h"

enum {
	OPT_BASELINE = ST_OPT_ID,
	OPT_HTML,
	OPT_SHARD,
	OPT_VMLINUX,
	OPT_OBJECTS,
};

const struct st_opt st_kernel_opts[] = {
	ST_KTREE_ROW_SRCTREE,
	ST_KTREE_ROW_DEFCONFIG,
	ST_KTREE_ROW_CONFIG,
	{ "arch", 0, ST_KTREE_ARCH, "A", "build for this ARCH (default: $ARCH, else the host's); repeatable" },
	ST_KTREE_ROW_CROSS,
	ST_KTREE_ROW_VARIANT,
	{ "baseline", 0, OPT_BASELINE, "V", "compare against this variant (default: slub)" },
	{ "objects", 0, OPT_OBJECTS, NULL, "build mm/slab_common.o and the allocator only (the default)" },
	{ "vmlinux", 0, OPT_VMLINUX, NULL, "build the whole image" },
	ST_KTREE_ROW_JOBS,
	ST_KTREE_ROW_CC_WRAPPER,
	ST_KTREE_ROW_BUILDDIR,
	{ "shard", 0, OPT_SHARD, "K/N", "build every N-th item from the K-th (merge with report --merge)" },
	ST_OPT_ROW_FORMAT("{text|json|markdown|html}"),
	ST_OPT_ROW_MARKDOWN,
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
	struct st_ktree_args k;
	const char *html;
};

static int kernel_opt(struct kernel_args *ka, int opt, const char *arg)
{
	struct st_kernel_opts *o = &ka->k.o;

	switch (opt) {
	case OPT_BASELINE:
		o->baseline = arg;
		break;
	case OPT_HTML:
		ka->html = arg;
		break;
	case OPT_SHARD:
		return st_parse_shard(arg, &o->shard_k, &o->shard_n);
	case OPT_VMLINUX:
		o->vmlinux = true;
		break;
	case OPT_OBJECTS:
		o->vmlinux = false;
		break;
	}
	return 0;
}

static int parse(struct kernel_args *ka, int argc, char **argv)
{
	int opt, ret = 0;

	st_ktree_init(&ka->k);
	ka->k.o.defconfig = ST_KERNEL_DEFCONFIG;
	while (!ret && (opt = st_getopt(argc, argv, "kernel", st_kernel_opts)) >= 0) {
		ret = st_ktree_opt(&ka->k, opt, optarg);
		if (ret == 1)
			ret = kernel_opt(ka, opt, optarg);
	}
	if (ret)
		return -1;
	if (opt == ST_OPT_HELP)
		return 1;
	if (opt == ST_OPT_FAIL)
		return -1;
	if (optind < argc) {
		p_err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return st_ktree_finish(&ka->k);
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

int cmd_kernel(int argc, char **argv)
{
	struct kernel_args ka = { .html = NULL };
	struct st_kernel_result *k = NULL;
	struct st_progress *prog;
	struct st_report *r = NULL;
	struct st_error e = { 0 };
	int ret, status = ST_EXIT_ERROR;
	size_t i;

	ret = parse(&ka, argc, argv);
	if (ret)
		return ret > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
	/* -q: the errors only, not a line per build step */
	prog = st_progress_open("kernel", ST_PROGRESS_STEPS);
	ka.k.o.progress = prog ? progress : NULL;
	ka.k.o.progress_ctx = prog;
	ret = st_kernel_run(&ka.k.o, &k, &e);
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
	status = report_render(r, ka.html);
	if (!status && k->nfailed)
		status = ST_EXIT_ERROR;
out:
	st_report_free(r);
	st_kernel_result_free(k);
	return status;
}
