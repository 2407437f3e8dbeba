/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_BOOT_BOOT_H
#define ST_BOOT_BOOT_H

/*
 * `slubtiny footprint boot`: each allocator variant of a user's kernel
 * tree, built by lib/kernel with what a boot needs added to its
 * configuration (console on the serial port, initramfs, /proc), booted in
 * QEMU with a small init (boot-init.c, compiled at run time with the
 * kernel's compiler) packed into a cpio initramfs; the figures are what the
 * booted kernel prints of /proc/meminfo and /proc/slabinfo. Nothing here
 * prints: progress goes to the lib/kernel callback.
 *
 * Every boot result is kept under the build directory (boot.json next to
 * the image) and the latest per variant in <builddir>/boot-latest.json,
 * which `footprint` reads for its kernel figures.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/render.h"
#include "kernel/kernel.h"

struct cJSON;
struct st_error;

/*
 * One entry of an initramfs: a directory, regular file, symlink or device
 * node. A regular file may have other names (@links, hard links to it): they
 * cost the unpacked rootfs a dentry each, where a symlink costs an inode and
 * a page of page cache too.
 */
struct st_cpio_entry {
	const char *name;	/* relative, "dev/console" */
	unsigned int mode;	/* type and permissions (S_IFDIR | 0755, ...) */
	unsigned int rmajor, rminor;	/* device nodes */
	const void *data;	/* regular files; a symlink's target (a string) */
	size_t size;
	const char *const *links;	/* regular files: @nr_links more names */
	size_t nr_links;
};

/* A newc cpio archive of @ents into a malloc'd buffer. -EINVAL for a bad entry. */
int st_cpio_build(const struct st_cpio_entry *ents, size_t n, char **out, size_t *out_len);

struct st_boot_cache {
	char *name;
	double objs, objsize, slabs, pagesperslab, kb;	/* kb: slabs * pages * page size */
};

/* What one boot printed between its markers. */
struct st_boot_figures {
	bool idle;		/* the init saw the figures settle */
	double uptime_s;
	double memtotal_kb, memfree_kb, slab_kb, sreclaimable_kb, sunreclaim_kb;
	bool has_slabinfo;
	struct st_boot_cache *caches;	/* biggest first */
	size_t ncaches;
};

/*
 * Parse a console log: the figures between the markers. -ENOENT when the
 * begin marker is missing, -EPIPE when the end marker is, -EINVAL when
 * meminfo lacks Slab: or MemFree:. @f is filled (st_boot_figures_free()) on 0.
 */
int st_boot_parse(const char *log, size_t len, struct st_boot_figures *f);
void st_boot_figures_free(struct st_boot_figures *f);

struct st_boot_opts {
	struct st_kernel_opts k;	/* tree, defconfig, arch, variants, builddir, -j */
	unsigned int mem_mb;		/* -m; 0: 32 */
	/*
	 * Several -m sizes (MB, ascending): each variant boots in each, so
	 * the smallest RAM it boots in shows; nmems 0: mem_mb alone.
	 */
	const unsigned int *mems;
	size_t nmems;
	unsigned int cpus;		/* -smp; 0: 1 */
	unsigned int timeout_s;		/* per boot; 0: 300 */
	/*
	 * "kvm", "tcg" or NULL: KVM when /dev/kvm is usable, and TCG when
	 * KVM shows no kernel banner within 20 s (then for the rest of the run).
	 */
	const char *accel;
	const char *datadir;		/* has lib/boot/boot-init.c; NULL: st_build_datadir() */
	/*
	 * A static busybox of the target packed beside the init with a link
	 * per applet (busybox --list-full, run on the host: the host's arch
	 * only), the userspace of a small board; NULL: the init alone.
	 */
	const char *busybox;
	/*
	 * Appended to the kernel command line after slubtiny's own
	 * "console=... panic=-1" (slub_max_order=1, ...); NULL: nothing.
	 */
	const char *cmdline;
	/*
	 * What the configuration starts from besides the user's defconfig:
	 * "minimal" (NULL: only the arch's boot lines) or "kvm-guest" (the
	 * tree's kernel/configs/kvm_guest.config first, as `make tinyconfig
	 * kvm_guest.config`). The user's --config fragments follow it.
	 */
	const char *profile;
};

/* The most --config fragments a boot takes beside its profile's. */
#define ST_BOOT_MAX_FRAGMENTS 32

struct st_boot_item {
	char *arch, *variant, *name;
	char *image, *dir;
	char *resolved;
	/* The compiler command that built the image and its wrapper ("distcc"), or NULL. */
	char *cc, *cc_wrapper;
	char *error;		/* build or boot error, with the log's tail */
	/*
	 * The kernel's line when the boot stopped before the figures as a
	 * result, not an error: it ran out of memory (@out_of_memory), or
	 * panicked in a --mem series.
	 */
	char *stopped;
	bool out_of_memory;
	unsigned int mem_mb;	/* QEMU -m of this boot */
	bool build_cached;
	const char *accel;	/* "kvm", "tcg" */
	bool kvm_failed;	/* KVM showed no kernel banner: booted with TCG */
	double boot_s;		/* QEMU started .. end marker, wall clock */
	struct st_boot_figures fig;
};

/* A ratio of two variants' Slab: beside the same ratio of the trace replay's peak pages. */
struct st_boot_ratio {
	const char *num, *den;
	double kernel;
	double replay;		/* 0 when the replay has no figure */
};

struct st_boot_result {
	char *tree;
	char *defconfig;
	char *cmdline;		/* the user's part of the command line, "" for none */
	const char *profile;	/* "minimal", "kvm-guest" (static) */
	unsigned int mem_mb, cpus;
	bool nommu;		/* no MMU: booted in M-mode from a FLAT init */
	size_t nmems;		/* -m sizes each variant booted in (1: mem_mb alone) */
	struct st_boot_item *items;
	size_t nitems;
	unsigned int nfailed;
	struct st_boot_ratio ratios[3];
	size_t nratios;
};

/* The configuration lines a boot adds for @arch (NULL-terminated), or NULL. */
const char *const *st_boot_config(const char *arch);
/* The ARCHes footprint boot boots, NULL-terminated (for completion). */
const char *const *st_boot_arches(void);

int st_boot_run(const struct st_boot_opts *o, struct st_boot_result **out, struct st_error *e);
/* The smallest -m (MB) @variant booted in without running out of memory; 0: none. */
unsigned int st_boot_smallest(const struct st_boot_result *r, const char *variant);
/*
 * The ratios (slub_tiny/slub, slob/slub_tiny, slob/slub) of the booted
 * variants, each beside the trace replay's: @peak[i] the replay's peak
 * pages of @variants[i] (0: none).
 */
void st_boot_ratios(struct st_boot_result *r, const char *const *variants,
		    const unsigned long *peak, size_t n);
void st_boot_result_free(struct st_boot_result *r);

/* The latest boot figure per variant, as kept in <builddir>/boot-latest.json. */
struct st_boot_latest {
	char *variant, *tree, *arch, *defconfig;
	char *cmdline;		/* "" when the boot had none */
	char *profile;		/* --boot-config; "minimal" for results older than it */
	unsigned int mem_mb, cpus;
	double slab_kb;
};

/*
 * Read <builddir>/boot-latest.json (@builddir NULL: the default kernel
 * cache). 0 with *n = 0 when there is none; -EINVAL for a broken file.
 */
int st_boot_latest_load(const char *builddir, struct st_boot_latest **out, size_t *n,
			struct st_error *e);
/* The same from JSON text (the fuzz target's entry). */
int st_boot_latest_parse(const char *text, struct st_boot_latest **out, size_t *n);
void st_boot_latest_free(struct st_boot_latest *l, size_t n);

/* Text, JSON and the SVG bar chart of what the result holds (common/render.h). */
int st_boot_render(FILE *f, const struct st_boot_result *r, const struct st_render_opts *o);
struct cJSON *st_boot_to_json(const struct st_boot_result *r);

#endif
