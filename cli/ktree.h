/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_CLI_KTREE_H
#define ST_CLI_KTREE_H
/*
 * The kernel-tree options of `kernel` and `footprint boot`: the same rows
 * in both tables and one parser, so that both spell, check and default
 * them alike (ARCH and CROSS_COMPILE from the environment as make takes
 * them, CC, HOSTCC and a make jobserver from it too).
 */
#include "kernel/kernel.h"
#include "opt.h"

enum {
	ST_KTREE_SRCTREE = 0x1000,
	ST_KTREE_DEFCONFIG,
	ST_KTREE_CONFIG,
	ST_KTREE_ARCH,
	ST_KTREE_CROSS,
	ST_KTREE_VARIANT,
	ST_KTREE_BUILDDIR,
	ST_KTREE_CC_WRAPPER,
	ST_KTREE_JOBS = 'j',
};

#define ST_KTREE_MAX 16

#define ST_KTREE_ROW_SRCTREE { "srctree", 0, ST_KTREE_SRCTREE, "DIR", "the kernel tree (required; never written)" }
#define ST_KTREE_ROW_DEFCONFIG { "defconfig", 0, ST_KTREE_DEFCONFIG, "FILE|TARGET", "a defconfig file or a make target such as tinyconfig (default: defconfig)" }
#define ST_KTREE_ROW_CONFIG { "config", 0, ST_KTREE_CONFIG, "FRAGMENT", "merge this config fragment into every variant (as merge_config.sh); repeatable" }
#define ST_KTREE_ROW_CROSS { "cross-compile", 0, ST_KTREE_CROSS, "[A=]PREFIX", "CROSS_COMPILE, for every arch or for arch A; repeatable (default: $CROSS_COMPILE, else the cross compiler build finds)" }
#define ST_KTREE_ROW_VARIANT { "variant", 0, ST_KTREE_VARIANT, "V", "only this allocator (slub, slub_tiny, slab, slob); repeatable" }
#define ST_KTREE_ROW_JOBS { "jobs", 'j', ST_KTREE_JOBS, "N", "make -j N; 0 = all CPUs (under make -j the caller's jobserver)" }
#define ST_KTREE_ROW_CC_WRAPPER { "cc-wrapper", 0, ST_KTREE_CC_WRAPPER, "distcc|ccache", "compile through this wrapper: CC=\"distcc ${CROSS_COMPILE}gcc\" (or before $CC)" }
#define ST_KTREE_ROW_BUILDDIR { "builddir", 0, ST_KTREE_BUILDDIR, "DIR", "build directory (default: $XDG_CACHE_HOME/slubtiny/kernel)" }
/* --arch is ST_KTREE_ARCH too; its help differs (`footprint boot` boots one). */

struct st_ktree_args {
	struct st_kernel_opts o;
	const char *arches[ST_KTREE_MAX], *cross[ST_KTREE_MAX];
	const char *variants[ST_KTREE_MAX], *fragments[ST_KTREE_MAX];
};

/* Point @k->o at @k's arrays and take CC, HOSTCC, SLUBTINY_PYTHON and the jobserver. */
void st_ktree_init(struct st_ktree_args *k);
/* Option @id with @arg: 0, -1 (said), or 1 when @id is not a kernel-tree option. */
int st_ktree_opt(struct st_ktree_args *k, int id, const char *arg);
/*
 * After the options: --srctree given, ARCH and CROSS_COMPILE from the
 * environment where no option names them (said, unless -q). 0 or -1 (said).
 */
int st_ktree_finish(struct st_ktree_args *k);

#endif
