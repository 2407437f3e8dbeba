/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_DISCOVER_H
#define ST_DISCOVER_H

/*
 * Which files of a tree are kernel configs, and which ARCH a kernel config
 * is meant for when nothing else says so.
 *
 * A directory walk looks at files whose names kernel configs have
 * (defconfig, *_defconfig, *.config, *.fragment, *.cfg, OpenWrt's
 * config-VERSION) and keeps those whose content is a kernel config: only
 * CONFIG_ assignments, "is not set" lines and comments, mostly of symbols
 * some kernel defines. That leaves out Buildroot's BR2_ configs, OpenWrt's
 * UCI files, hostapd, BusyBox, uClibc and U-Boot configs that share the
 * names. A file named on the command line is taken as given.
 *
 * Nothing here prints; the strings of a struct st_discovery are its own.
 */

#include <stdbool.h>
#include <stddef.h>

#include "kconfig/kconfig.h"
#include "linux/arch.h"

struct st_error;

enum st_cfg_kind {
	ST_CFG_KERNEL,		/* a kernel config or fragment */
	ST_CFG_EMPTY,		/* no assignment at all */
	ST_CFG_BUILDROOT,	/* BR2_ symbols */
	ST_CFG_UBOOT,		/* symbols only U-Boot has */
	ST_CFG_BUSYBOX,		/* symbols only BusyBox has */
	ST_CFG_SYNTAX,		/* a line no kernel config has (UCI, key=value) */
	ST_CFG_FOREIGN,		/* CONFIG_ lines, mostly of no kernel's symbols */
};

struct st_cfg_verdict {
	enum st_cfg_kind kind;
	unsigned int line;	/* the line that decided, 0 when none did */
	size_t nr_syms;		/* CONFIG_ symbols assigned or "is not set" */
	size_t nr_known;	/* of them, symbols of a kernel */
	size_t nr_slab;		/* of them, the allocator's (SLAB, SLOB, SLUB, SLUB_TINY) */
	char why[160];		/* "line 1 sets BR2_arm: a Buildroot config" */
};

/*
 * Judge the first @len bytes of a file (the caller reads a prefix: 256 KiB
 * decides every real case seen). Never fails.
 */
void st_cfg_classify_buf(const char *buf, size_t len, struct st_cfg_verdict *v);
/* The same for a file: 0, or -errno when it cannot be read. */
int st_cfg_classify(const char *path, struct st_cfg_verdict *v);

/*
 * A named file that is clearly another program's config (Buildroot's BR2_,
 * U-Boot's, BusyBox's): true with @v saying why. Unreadable: false (the
 * caller's reading says why).
 */
bool st_cfg_not_kernel(const char *path, struct st_cfg_verdict *v);

/* Is @sym (without CONFIG_) defined by the 6.1 or 6.12 tree? (~1% false yes) */
bool st_cfg_kernel_symbol(const char *sym, size_t len);

/*
 * The arch-only symbols: the SRCARCH (arm, mips, x86, ...) whose arch/<a>/
 * alone defines @sym in the 6.1 and 6.12 trees, or NULL.
 */
const char *st_cfg_symbol_arch(const char *sym, size_t len);

/*
 * The ARCH a config's own symbols say: the arch that most of its enabled
 * arch-only symbols (=y or =m) belong to, when no other arch has as many.
 * Copies the arch into @arch and the first of its symbols into @sym;
 * returns 1, or 0 when the symbols say nothing (or disagree evenly).
 */
int st_cfg_arch_of_buf(const char *buf, size_t len, char *arch, size_t asize,
		       char *sym, size_t ssize);
int st_cfg_arch_of(const char *path, char *arch, size_t asize, char *sym, size_t ssize);

struct st_discover_opts {
	/* a directory without kernel configs is no error */
	bool allow_empty;
	/*
	 * Files named on the command line that are not kernel configs are
	 * left out (and counted) as a walk would: for a pre-commit hook, which
	 * selects files by name only.
	 */
	bool skip_foreign;
};

struct st_discovery {
	char **paths;		/* what to check, sorted within each directory */
	size_t nr;
	size_t nr_looked;	/* files a walk (or --skip-foreign) judged */
	size_t nr_skipped;	/* of them, not kernel configs */
	char **skipped;		/* those, and why each (for -v) */
	char **skipped_why;
	/* the directories walked, as given, and each resolved (realpath) */
	char **walked, **walked_real;
	size_t nr_walked;
};

/*
 * Expand @paths: files stay as given ("-" too, once), a directory gives its
 * kernel configs. A directory that gives none is an error naming it
 * ("no kernel configs found under DIR", -ENOENT) unless @o->allow_empty.
 * Release with st_discovery_release(). Returns 0 or -errno with @err filled.
 */
int st_discover(char *const *paths, size_t n, const struct st_discover_opts *o,
		struct st_discovery *d, struct st_error *err);
void st_discovery_release(struct st_discovery *d);

/*
 * The resolved directory @path was found in by a walk of @d (the innermost
 * one when walks nest), or NULL for a file named on the command line: a
 * writer keeps a walked file's writes in there (st_defconfig_write_within),
 * so that a committed symlink cannot take them out of the tree.
 */
const char *st_discovery_within(const struct st_discovery *d, const char *path);

/*
 * Decide the ARCH of @path (as given; @real its realpath, or NULL) by the
 * one rule (st_arch_decide()): @given's --arch, .slubtiny.json and $ARCH
 * (what the command was told; NULL: nothing), the build system's layout,
 * arch/<a>/configs/ in the path (kernel/configs/ is x86's; the path given,
 * else @real), the file's own arch-only symbols (read only when nothing
 * above says), the host. c->conflicts has each source that said another
 * arch. An unreadable file falls through to the host. Never fails.
 */
void st_arch_of_file(const char *path, const char *real,
		     const struct st_arch_sources *given, struct st_arch_choice *c);

/*
 * The SRCARCH of a defconfig from its path: <arch> of the last
 * "arch/<arch>/configs/" in @path (at its start or after a '/'), as a
 * pointer into @path and its length in *len, or NULL.
 */
const char *st_arch_of_path(const char *path, size_t *len);

#endif
