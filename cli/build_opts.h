/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_CLI_BUILD_OPTS_H
#define ST_CLI_BUILD_OPTS_H

/*
 * The options `build` and `report` share: --variant, --arch, -j, --builddir
 * and the CC/CFLAGS/CROSS_COMPILE environment, turned into st_build_opts.
 */
#include <limits.h>
#include <stdbool.h>

#include "build/build.h"
#include "opt.h"

#define BUILD_MAX_ARGS 64

struct build_args {
	struct st_build_opts o;
	const char *variant_names[BUILD_MAX_ARGS];
	size_t nvariant_names;
	const char *arches[BUILD_MAX_ARGS];
	struct st_variant *variants;	/* resolved, owned */
	size_t nvariants;
	char datadir[PATH_MAX];
	char builddir[PATH_MAX];
	const char *cmd;		/* "build" or "report", for the progress lines */
	struct st_progress *prog;	/* the pool's progress (cli.h), NULL with -q */
};

/* Option ids of the shared options. */
enum {
	OPT_VARIANT = ST_OPT_ID,
	OPT_ARCH,
	OPT_BUILDDIR,
	OPT_FIRST_FREE,
};

/* The option rows of the shared options, for the commands' tables. */
#define BUILD_OPT_ROWS \
	{ "variant", 0, OPT_VARIANT, "V", "this variant (defconfigs/V_defconfig, or a defconfig's path); repeatable" }, \
	{ "arch", 0, OPT_ARCH, "A", "this architecture only (x86_64, arm, riscv64...; default: $ARCH's); repeatable" }, \
	{ "jobs", 'j', 'j', "N", "run N compiles at once; 0 = all CPUs (the default)" }, \
	{ "builddir", 0, OPT_BUILDDIR, "DIR", "build directory (default: $SLUBTINY_BUILDDIR or ~/.cache/slubtiny)" }

/* @cmd names the command in its progress lines. */
void build_args_init(struct build_args *b, const char *cmd);
/* Take one parsed option. Returns 1 if it was one of ours, 0 if not, -1 on error (printed). */
int build_args_opt(struct build_args *b, int opt, const char *arg);
/* Resolve data dir, build dir, variants and environment. 0 or an exit code (printed). */
int build_args_finish(struct build_args *b);
void build_args_free(struct build_args *b);
/* Clear the progress line, if one is drawn; the log pauses until the next build. */
void build_progress_end(struct build_args *b);

#endif
