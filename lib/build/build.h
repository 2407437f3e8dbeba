/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_BUILD_H
#define ST_BUILD_H

/*
 * lib/build: compile the bundled allocator (lib/slab/) once per variant and
 * architecture.
 *
 * A variant is a defconfig. It is resolved by the Kconfiglib helper
 * (kconfig/st_kconfig.py autoconf) into a CONFIG_ header; every lib/slab/
 * source is compiled with that header forced in (-include) and the objects
 * of one (variant, arch) are linked into one relocatable object with
 * `cc -r`. Toolchains are the host compiler and the Debian cross compilers
 * found on PATH; a missing one is reported as skipped with the package that
 * provides it.
 *
 * Jobs run in parallel (a pool over st_spawn) and every output carries a
 * stamp: a hash of everything that went into it (source and header bytes,
 * flags, compiler identity). An output whose stamp matches is not rebuilt.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/render.h"

struct cJSON;

struct st_error;

/* One architecture: the host compiler or a cross compiler. */
struct st_toolchain {
	char *arch;		/* "x86_64", "arm", "riscv64", ... */
	char *prefix;		/* CROSS_COMPILE prefix, "" for the host */
	char *pkg;		/* Debian package providing the compiler */
	char **cc;		/* compiler argv words (CC may hold several), NULL-terminated */
	char *version;		/* first line of `cc --version` */
	char *cflags;		/* arch flags always passed (e.g. -mcx16 on x86_64), may be "" */
	bool found;
	bool freestanding;	/* probed for a kernel: its C library not asked for */
	char *reason;		/* why it is skipped (!found) */
};

/* One variant: a name and the defconfig it is resolved from. */
struct st_variant {
	const char *name;	/* "slub", "slub_tiny", ... */
	const char *defconfig;	/* path */
};

/* Progress of the job pool, for a progress line. */
struct st_build_progress {
	unsigned int done;	/* jobs finished (run or found up to date) */
	unsigned int total;
	unsigned int running;
	const char *what;	/* the job that just started or finished */
};

struct st_build_opts {
	const char *datadir;	/* has kconfig/, defconfigs/, lib/slab/; NULL: st_build_datadir() */
	const char *builddir;	/* outputs; NULL: st_build_default_dir() */
	const char *python;	/* interpreter with Kconfiglib; NULL: the configured one */
	const struct st_variant *variants;	/* NULL: every defconfigs/<name>_defconfig */
	size_t nvariants;
	const char *const *arches;	/* NULL: every toolchain found */
	size_t narches;
	unsigned int jobs;	/* 0: the number of CPUs */
	/* Make-style overrides (the CLI passes the environment); NULL: unset. */
	const char *cc;		/* replaces the compiler of the host or CROSS_COMPILE arch */
	const char *cflags;	/* replaces the default optimisation flags */
	const char *cross_compile;	/* build only this prefix's arch */
	bool quiet;		/* compilers' stderr to /dev/null (failures still reported) */
	/*
	 * The compilers build a kernel, not lib/slab: no C library is needed,
	 * so a cross compiler without its libc headers is found all the same.
	 */
	bool freestanding;
	/* Called from the pool loop (the caller's thread); may be NULL. */
	void (*progress)(void *ctx, const struct st_build_progress *p);
	void *progress_ctx;
};

/* One built (variant, arch). */
struct st_build_unit {
	char *variant;
	char *arch;
	char *object;		/* relocatable object, valid when ok */
	char *header;		/* resolved CONFIG_ header */
	char *config;		/* resolved full .config */
	bool ok;
	bool rebuilt;		/* something was (re)compiled or linked this run */
	char *error;		/* when !ok: what failed (the first failing job) */
};

struct st_build_result {
	struct st_build_unit *units;	/* variant-major, in the order asked */
	size_t nunits;
	struct st_toolchain *tcs;	/* every arch considered, skipped ones too */
	size_t ntcs;
	unsigned int jobs_run;		/* processes spawned */
	unsigned int jobs_uptodate;	/* outputs whose stamp matched */
	unsigned int jobs_failed;
	char *builddir, *datadir;	/* where it built, from what (resolved) */
};

/*
 * A line per unit built, per arch skipped and the job counts (text), or
 * the JSON of the same (common/render.h).
 */
int st_build_render(FILE *f, const struct st_build_result *r, const struct st_render_opts *o);
struct cJSON *st_build_to_json(const struct st_build_result *r);

/* Default optimisation flags, like the kernel's CONFIG_CC_OPTIMIZE_FOR_SIZE. */
#define ST_BUILD_DEFAULT_CFLAGS \
	"-Os -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-pic " \
	"-fno-stack-protector -fno-common -g0"

/*
 * Where the allocator sources, kconfig/ and defconfigs/ live: $SLUBTINY_DATADIR,
 * else the installed data directory next to the executable
 * (<prefix>/share/slubtiny), else the source tree the program was built from.
 * Writes a path into @buf. Returns 0 or -ENOENT (with @e) if none has them.
 */
int st_build_datadir(char *buf, size_t len, struct st_error *e);

/*
 * $SLUBTINY_BUILDDIR as it is, else $XDG_CACHE_HOME/slubtiny, else
 * ~/.cache/slubtiny, made (0700) if missing. That cache holds objects and
 * stamps later runs trust, so it must be private (st_private_dir()): when
 * it is someone else's, writable by others or a symlink, a fresh 0700
 * mkdtemp directory under $TMPDIR is used instead and @refused (@rlen
 * bytes, may be NULL) names the cache refused; else it is "".
 */
int st_build_default_dir(char *buf, size_t len, char *refused, size_t rlen,
			 struct st_error *e);

/* Online CPUs, at least 1. */
unsigned int st_build_cpus(void);

/*
 * The variants of @datadir/defconfigs: every <name>_defconfig except the
 * *_legacy ones (inputs for migrate, not allocator variants), sorted by name.
 * *out is malloc'd; free it with st_build_variants_free().
 */
int st_build_variants(const char *datadir, struct st_variant **out, size_t *n,
		      struct st_error *e);
void st_build_variants_free(struct st_variant *v, size_t n);

/*
 * Find the toolchains: the host compiler and every known cross compiler
 * (narrowed to @o->arches when set; an unknown arch name is an error).
 * Honours @o->cc and @o->cross_compile. Skipped arches stay in the list
 * with found = false and a reason. With @o->builddir, what the compilers
 * said is cached there (keyed by the executable's inode, size and mtime),
 * so a warm run spawns none. Free with st_toolchains_free().
 */
int st_build_toolchains(const struct st_build_opts *o, struct st_toolchain **out,
			size_t *n, struct st_error *e);
void st_toolchains_free(struct st_toolchain *tcs, size_t n);

/*
 * The one toolchain finder for a make ARCH (`kernel`, `footprint boot`):
 * st_build_toolchains() asked for the bundled build's arch of @make_arch
 * (st_build_arch_of_make()), freestanding, so that `build`, `report` and
 * the kernel commands pick the same compiler. *@out is the host's compiler
 * (prefix "") when @make_arch is the host's arch, else the Debian cross
 * compiler; found is false (with a reason) when that is not installed or
 * does not run. -ENOENT when no known arch is @make_arch (out untouched).
 * @builddir caches the probes (NULL: none). Free with st_toolchains_free().
 */
int st_build_find_toolchain(const char *make_arch, const char *builddir,
			    struct st_toolchain **out, struct st_error *e);

/* Names of the known architectures, NULL-terminated (for help texts). */
const char *const *st_build_known_arches(void);
/*
 * The bundled build's arch for a make ARCH (arm64 -> aarch64, sh -> sh4,
 * x86 -> x86_64, ...; a build arch name is its own), or NULL when none of
 * st_build_known_arches() is that ARCH. Static.
 */
const char *st_build_arch_of_make(const char *arch);

/*
 * Build every variant for every found toolchain. Returns 0 when the pool
 * ran (units that failed to compile have ok = false and an error; see
 * jobs_failed), or -errno for a setup error (no data dir, no variants,
 * unwritable build dir, ...). *out is set on 0; free with
 * st_build_result_free().
 */
int st_build_run(const struct st_build_opts *o, struct st_build_result **out,
		 struct st_error *e);
void st_build_result_free(struct st_build_result *r);

/*
 * Resolve one defconfig into @header and @config with the Kconfiglib helper,
 * synchronously (no stamp). For callers that want a resolved configuration
 * without building, e.g. to compare two variants' option sets.
 */
int st_build_resolve(const char *datadir, const char *python, const char *defconfig,
		     const char *header, const char *config, struct st_error *e);

#endif
