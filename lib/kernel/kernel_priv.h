/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_KERNEL_PRIV_H
#define ST_KERNEL_PRIV_H
/*
 * What the files of lib/kernel share, in the order a run uses them: the
 * variants a tree offers (variants.c), the build directory and the stamps
 * of its cache (cache.c), each item's configuration (config.c), its make
 * and build (make.c); kernel.c plans the items and runs them. Not for
 * other modules.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "build/pool.h"
#include "common/stamp.h"
#include "kernel/kernel.h"
#include "linux/linux.h"
#include "migrate/migrate.h"

/* Bump when what a stamp means changes: old stamps then never match. */
#define STAMP_FORMAT "slubtiny-kernel-1"
#define STAMP_NAME ".slubtiny-stamp"
#define LOG_NAME "slubtiny-make.log"
#define ARCHIVE_NAME "slubtiny-slab.a"

struct st_error;
struct st_defconfig;

/*
 * An allocator variant (st_kernel_kvariants[], report column order).
 * @choice lists the choice member that selects it, newest name first: the
 * first one the tree offers with a prompt is used. @object is its
 * allocator source (mm/<object>.c).
 */
struct kvariant {
	const char *name;
	const char *choice[2];
	const char *object;
	bool tiny, expert;
};
#define NKVARIANTS 4

struct item;

struct run {
	const struct st_kernel_opts *o;
	char src[PATH_MAX];
	char builddir[PATH_MAX];
	char treedir[64];	/* <basename>-<hash> */
	struct st_kver kver;
	bool is_file;
	char *defconfig_text;	/* the file's bytes when is_file */
	struct st_defconfig **frags;	/* the parsed --config fragments */
	char **frag_texts;		/* and their bytes, for the cache key */
	struct st_pool pool;
	struct item *items;
	size_t nitems;
	struct timespec t0;
	int lock_fd;		/* held for the whole run, see st_kernel_lock_builddir() */
	struct st_kernel_tc tcs[8];	/* per arch of the plan: its compiler */
	char *cc_ver;		/* hash_cc_version() of CROSS_COMPILE cc_cross */
	char *cc_cross;
	/* The tree identity of the last arch asked for (items come arch by arch). */
	char tree_arch[64];
	char tree_hex[ST_HASH_HEX];
	struct st_kernel_result *res;
};

struct item {
	struct run *run;
	struct st_kernel_item *out;
	const struct kvariant *kv;
	const char *choice;	/* the choice symbol offered by the tree */
	bool has_tiny;		/* the tree knows SLUB_TINY */
	const char *cross;	/* CROSS_COMPILE or NULL */
	struct st_kernel_cc cc;	/* CC of its make, and the compiler behind a wrapper */
	char *cc_version;	/* first line of the compiler's --version, or NULL */
	unsigned int index;
	char key[ST_HASH_HEX];
	char objects[3][32];	/* relative to O */
	size_t nobjects;
	char *config_text;	/* the configuration given to olddefconfig */
	struct st_job *jcfg, *jold, *jbuild;
};

/* variants.c: the NKVARIANTS variants, report column order. */
extern const struct kvariant st_kernel_kvariants[];
/*
 * The variants @arch's Kconfig offers: @choices[v] is the choice symbol of
 * st_kernel_kvariants[v], or NULL.
 */
int st_kernel_offered(struct run *r, const char *arch, const char *cross,
		      const char *choices[NKVARIANTS], bool *has_tiny, struct st_error *e);
/* @name was asked for (or no variant was named). */
bool st_kernel_wanted(const struct st_kernel_opts *o, const char *name);

/*
 * seed.c: a never-built item's object directory becomes a copy of the
 * last finished sibling's (same arch and compiler) with its own .config:
 * 1 if it did, 0 if it builds from scratch, -ENOMEM.
 */
int st_kernel_seed(struct item *it);

/* cache.c: the build directory, one run at a time in it. */
int st_kernel_lock_builddir(struct run *r, struct st_error *e);
/* The stamps: written whole, read by field. */
int st_kernel_write_text(const char *path, const char *text, size_t len, struct st_error *e);
char *st_kernel_stamp_field(const char *text, const char *key);
/* The tree's identity for @arch, as hex (hashed once per arch in a row). */
const char *st_kernel_tree_id(struct run *r, const char *arch);
/* @it's stamp matches and its objects are there. */
bool st_kernel_item_cached(struct item *it);
/* it->key: everything @it's result depends on. */
void st_kernel_item_key(struct item *it);

/* config.c: the jobs of `make <defconfig>` and `make olddefconfig`. */
int st_kernel_cfg_prepare(struct st_job *j);
int st_kernel_cfg_finish(struct st_job *j, int status);
int st_kernel_old_prepare(struct st_job *j);
int st_kernel_old_finish(struct st_job *j, int status);

/* make.c: a step of @it to the progress callback. */
void st_kernel_progress(struct item *it, const char *step);
/* argv of @it's make for @targets (with -j when @jobs); NULL without memory. */
char **st_kernel_make_argv(struct item *it, const char *const *targets, bool jobs);
/* Fail @j with a message naming @it and ending with its make log's tail. */
void st_kernel_item_fail(struct item *it, struct st_job *j, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The job of the build itself. */
int st_kernel_build_prepare(struct st_job *j);
int st_kernel_build_finish(struct st_job *j, int status);

#endif
