/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_KERNEL_H
#define ST_KERNEL_H

/*
 * lib/kernel: a user's kernel tree as a build target. For each (arch,
 * allocator variant) work item: the variants the tree's Kconfig offers, a
 * configuration made from the user's defconfig (migrated to the tree by
 * lib/migrate) with the allocator lines set, resolved by the tree's own
 * `make olddefconfig` and checked, then an out-of-tree build of the slab
 * objects (or vmlinux) through the job pool. The objects go into the report
 * model of lib/report. Nothing here prints: progress goes to a callback.
 *
 * Work items are cached under builddir/<tree>/<arch>/<variant>/: a stamp
 * (written atomically once everything is built) holds a hash of every input
 * (tree identity, defconfig, variant, arch, toolchain variables); when it
 * matches, make is not run at all. Otherwise make decides what to rebuild.
 */

#include <stdbool.h>
#include <stddef.h>

struct st_error;
struct st_report;
struct st_kernel_tc;

/* One step of one work item, for a progress line. */
struct st_kernel_progress {
	const char *item;	/* "linux-6.12.57/x86_64/slub" */
	const char *step;	/* "config", "olddefconfig", "build", "cached", "done", "failed" */
	double elapsed;		/* seconds since st_kernel_run() started */
	unsigned int index, total;	/* work item index (1-based), item count */
};

struct st_kernel_opts {
	const char *srctree;	/* the kernel tree (never written to) */
	/*
	 * A file (has a '/', starts with '.' or exists) or a make config
	 * target; NULL: "defconfig".
	 */
	const char *defconfig;
	const char *const *arches;	/* make ARCH values; NULL: the host's */
	size_t narches;
	/* CROSS_COMPILE for every arch, or per arch as "ARCH=PREFIX" entries. */
	const char *const *cross;
	size_t ncross;
	const char *const *variants;	/* "slub", "slub_tiny", "slab", "slob"; NULL: all offered */
	size_t nvariants;
	const char *baseline;	/* NULL: "slub" when offered, else the first */
	const char *builddir;	/* NULL: st_kernel_default_dir() */
	const char *python;	/* Kconfig helper interpreter, NULL: default */
	/* -j for make; 0: the number of CPUs. Ignored when @jobserver. */
	unsigned int jobs;
	bool jobserver;		/* MAKEFLAGS carries a jobserver: add no -j */
	/* Make variables passed through from the environment when non-NULL. */
	const char *cc, *hostcc;
	/*
	 * A compiler wrapper (one of st_kernel_cc_wrappers()) put in front of
	 * the kernel's C compiler: make gets CC="WRAPPER $CC", or without
	 * @cc "WRAPPER ${CROSS_COMPILE}gcc" (clang with $LLVM). NULL: none
	 * (a wrapper already in @cc or PATH is still seen, see st_kernel_cc()).
	 */
	const char *cc_wrapper;
	bool vmlinux;		/* build vmlinux instead of the slab objects */
	/* Build make target @image_target instead, which makes @image_file (relative to O=). */
	const char *image_target, *image_file;
	/*
	 * Config fragment files merged, in order, into each variant's
	 * configuration before its allocator lines and olddefconfig, as
	 * scripts/kconfig/merge_config.sh merges: an assignment (or "is not
	 * set") replaces every earlier one of its symbol. Part of the cache key.
	 */
	const char *const *fragments;
	size_t nfragments;
	/* "CONFIG_X=y" lines added to every configuration, each checked after olddefconfig. */
	const char *const *extra;
	/* Items go to <variant>-<flavour>/, so that other configurations keep their builds. */
	const char *flavour;
	unsigned int shard_k, shard_n;	/* 1-based K of N; N 0: no sharding */
	void (*progress)(void *ctx, const struct st_kernel_progress *p);
	void *progress_ctx;
	/*
	 * Called once per arch, before anything runs for it, with the
	 * compiler st_kernel_toolchain() chose (progress_ctx); may be NULL.
	 */
	void (*toolchain)(void *ctx, const char *arch, const struct st_kernel_tc *tc);
};

struct st_kernel_item {
	char *arch;
	char *variant;
	char *name;		/* tree/arch/variant */
	char *dir;		/* O= */
	char *object;		/* what the report measures, NULL when failed */
	char *resolved;		/* resolved allocator options ("SLUB=y SLUB_TINY=y ...") */
	char *error;		/* one message (may end with the make log tail) */
	/*
	 * The compiler command of the make that built the objects ("distcc
	 * gcc", "gcc") and its wrapper ("distcc"; NULL: none). A cached item
	 * keeps those of the run that built it.
	 */
	char *cc, *cc_wrapper;
	bool cached;
	bool in_shard;		/* false: built only as the baseline of a sharded item */
};

struct st_kernel_result {
	char *tree;		/* "linux-6.12.57" */
	char *defconfig;	/* the file or make target each variant started from */
	char *measured;		/* what each item's object is: "vmlinux", the image; NULL: the slab objects */
	char *baseline;
	char **variants;	/* offered and asked for, report column order */
	size_t nvariants;
	char **arches;
	size_t narches;
	struct st_kernel_item *items;
	size_t nitems;
	unsigned int nfailed, ncached;
};

/* The C compiler of a kernel build, as make gets it and as the cache key sees it. */
struct st_kernel_cc {
	char *make_cc;		/* the CC= given to make; NULL: none (kbuild's default) */
	char *cc;		/* what compiles: make_cc, else kbuild's default */
	char *compiler;		/* cc without its wrapper ("gcc", "arm-linux-gnueabi-gcc") */
	const char *wrapper;	/* "distcc", "icecc", "ccache" (static), or NULL */
	bool is_default;	/* compiler is kbuild's default for this CROSS_COMPILE */
};

/* Where an arch's CROSS_COMPILE came from (st_kernel_toolchain()). */
enum st_kernel_tc_from {
	ST_KERNEL_TC_GIVEN,	/* --cross-compile or $CROSS_COMPILE */
	ST_KERNEL_TC_HOST,	/* the host's arch: none needed */
	ST_KERNEL_TC_FOUND,	/* lib/build's finder: the Debian cross compiler */
	ST_KERNEL_TC_CC,	/* none found, but $CC or $LLVM names the compiler */
};

/* The compiler a kernel build of one arch uses, and why (st_kernel_toolchain()). */
struct st_kernel_tc {
	char *cross;		/* CROSS_COMPILE given to make, NULL: none */
	char *cc;		/* what compiles: "arm-linux-gnueabi-gcc", "distcc gcc", "clang" */
	enum st_kernel_tc_from from;
};

/*
 * The compiler of make ARCH @arch: the user's CROSS_COMPILE when @o names
 * one for it, none on the host's arch (or an arch the host's compiler
 * builds, i386 on x86_64), else the cross compiler lib/build's finder
 * picks for `build` and `report`. Without one, a user's $CC or $LLVM is
 * used as it is; otherwise -ENOENT with @e naming the package to install.
 * Free with st_kernel_tc_release().
 */
int st_kernel_toolchain(const struct st_kernel_opts *o, const char *arch,
			struct st_kernel_tc *out, struct st_error *e);
void st_kernel_tc_release(struct st_kernel_tc *tc);

/* The compiler wrappers seen in CC or PATH, NULL-terminated. */
const char *const *st_kernel_cc_wrappers(void);
/* The ones --cc-wrapper accepts (tested here), NULL-terminated. */
const char *const *st_kernel_cc_wrapper_choices(void);

/*
 * The compiler of a build with @o for CROSS_COMPILE @cross (NULL: none):
 * $CC (@o->cc) with @o->cc_wrapper in front of it, or kbuild's default
 * (${CROSS_COMPILE}gcc, or clang as $LLVM names it) with the wrapper. A
 * wrapper is also recognised as the first word of $CC ("distcc gcc") or as
 * what the compiler resolves to in PATH (/usr/lib/distcc/gcc, a link to
 * distcc). -EINVAL when $CC already has a wrapper other than
 * @o->cc_wrapper, -ENOMEM. Free with st_kernel_cc_release().
 */
int st_kernel_cc(const struct st_kernel_opts *o, const char *cross, struct st_kernel_cc *out);
void st_kernel_cc_release(struct st_kernel_cc *c);

/* What --defconfig is when not given: the make target. */
#define ST_KERNEL_DEFCONFIG "defconfig"

/* The allocator names --variant takes ("slub", ...), NULL-terminated. */
const char *const *st_kernel_variants(void);

/* CROSS_COMPILE of @o for @arch: its "ARCH=PREFIX" entry, else the plain one, else NULL. */
const char *st_kernel_cross(const struct st_kernel_opts *o, const char *arch);

/*
 * $XDG_CACHE_HOME/slubtiny/kernel (or ~/.cache/..., or a fresh mkdtemp one
 * without a home) into @buf. -EPERM when the slubtiny directory is not ours
 * and 0700; on error @buf names the directory for
 * st_kernel_default_dir_err().
 */
int st_kernel_default_dir(char *buf, size_t len);
int st_kernel_default_dir_err(const char *dir, int ret, struct st_error *e);

/* Run every work item (those of the shard). 0 even when items failed (see nfailed). */
int st_kernel_run(const struct st_kernel_opts *o, struct st_kernel_result **out,
		  struct st_error *e);
void st_kernel_result_free(struct st_kernel_result *r);

struct st_defconfig;

/*
 * Merge fragment @frag into @dc like merge_config.sh -m: every line of @dc
 * that assigns (or "is not set") a symbol @frag assigns is removed, then
 * an empty line and every line of @frag are appended. 0 or -ENOMEM.
 */
int st_kernel_merge_fragment(struct st_defconfig *dc, const struct st_defconfig *frag);

/*
 * The report of a run: one cell per item (failed items are cells with the
 * error); items outside the shard are left out of the result rows but
 * serve as the baseline of the diffs.
 */
int st_kernel_report(struct st_report **out, const struct st_kernel_result *k,
		     struct st_error *e);

#endif
