/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_LAYOUT_H
#define ST_LAYOUT_H

/*
 * Build systems' kernel config layouts. A distribution rarely keeps one
 * defconfig per board: OpenWrt merges target/linux/generic/config-X.Y, the
 * target's config-X.Y and a subtarget's config-default; Buildroot's
 * configs/NAME_defconfig names a kernel config (or an in-tree defconfig) and
 * fragments; a Yocto recipe lists a layer defconfig and .cfg fragments in
 * SRC_URI. A file of such a tree means something only merged over the parts
 * below it, for the ARCH and kernel version the build system gives.
 *
 * st_layout_of() finds the stack a file belongs to. Nothing here resolves
 * Kconfig or prints; every string belongs to the layout and is freed by
 * st_layout_release().
 */

#include <stdbool.h>
#include <stddef.h>

struct st_error;

enum st_layout_kind {
	ST_LAYOUT_PLAIN,	/* a file judged alone */
	ST_LAYOUT_OPENWRT,
	ST_LAYOUT_BUILDROOT,
	ST_LAYOUT_YOCTO,
};

/*
 * One file of the stack, in merge order. Parts after the owned one are
 * merged over it (Buildroot fragments listed after it): they override it.
 */
struct st_layout_part {
	char *path;		/* as the caller should show it */
	/*
	 * The file the user asked about (exactly one part): fixes and added
	 * lines go here, and findings on other parts are the base's.
	 */
	bool owned;
	/*
	 * A file of the kernel tree the build system names
	 * ("$(LINUX_DIR)/arch/arm/configs/dram_0x00000000.config" in a
	 * Buildroot defconfig): @path as it is written there, read from
	 * --srctree, left out without one.
	 */
	bool in_kernel;
};

struct st_layout {
	enum st_layout_kind kind;
	struct st_layout_part *parts;	/* base first, the owned one among them */
	size_t nr_parts;
	/*
	 * An in-tree defconfig the build starts from ("multi_v7_defconfig",
	 * Buildroot's BR2_LINUX_KERNEL_DEFCONFIG, Yocto's KBUILD_DEFCONFIG), to
	 * be resolved before the parts; NULL when the parts stand alone.
	 */
	char *base_defconfig;
	/* The kernel ARCH the build system gives (make's name), or NULL. */
	char *arch;
	char *arch_why;		/* "target/linux/ramips/Makefile: ARCH:=mipsel" */
	/* The kernel version the files are meant for ("6.6"), or NULL. */
	char *version;
	char *version_why;	/* "file name config-6.6", "BR2_LINUX_KERNEL_..." */
	/*
	 * Files the build system names that are outside its tree and the
	 * external trees declared ($BR2_EXTERNAL): an absolute path elsewhere,
	 * "../..", a symlink leaving the tree. Never read, not among the parts;
	 * as the build system names them.
	 */
	char **not_read;
	size_t nr_not_read;
	/*
	 * Parts the build system names that are not where it would look
	 * ("defconfig (SRC_URI; no file for machine bananapi)"): the stack
	 * is judged without them, and says so.
	 */
	char **not_found;
	size_t nr_not_found;
	/*
	 * A PLAIN layout of a file in a build system's tree that none of its
	 * stacks has: why (a static string), so that -v can say it was judged
	 * alone; NULL otherwise.
	 */
	const char *unplaced;
};

/* "plain", "openwrt", "buildroot", "yocto" (JSON and text). */
const char *st_layout_kind_name(enum st_layout_kind kind);

/*
 * The stack @path belongs to. A file no build system claims gets a PLAIN
 * layout of itself alone (never an error). Returns 0, or -errno with @err
 * filled when a build system's files that decide the stack cannot be read
 * or make no sense (a Buildroot defconfig naming a missing config file).
 * Release with st_layout_release().
 */
int st_layout_of(const char *path, struct st_layout *l, struct st_error *err);
void st_layout_release(struct st_layout *l);

/*
 * The parts below the owned one, loaded, for resolving the stack: their
 * assignments go to Kconfig before the owned file's, with line numbers
 * ST_LAYOUT_LINE_BASE * (index + 1) + line, so that a finding on a base
 * line is told apart from one of the owned file (whose lines keep their
 * numbers).
 */
#define ST_LAYOUT_LINE_BASE	(1 << 20)

struct st_defconfig;
struct st_kc_assign;

struct st_layout_base {
	struct st_defconfig **dc;
	const char **path;	/* the layout's strings, or kernel_path */
	size_t n;
	size_t nr_below;	/* dc[0..nr_below) go before the owned file, the rest after */
	char *kernel_path;	/* the kernel's defconfig read as dc[0], or NULL */
	char **kernel_parts;	/* the in_kernel parts' paths in the tree */
	size_t nr_kernel_parts;
};

/*
 * 0, or -errno with @err naming the part that cannot be read or parsed.
 * With @srctree and @arch, a base_defconfig is read from the tree's
 * arch/ARCH/configs/ as the first part (a missing one is an error);
 * without, it is left out (st_layout_describe() says so). The in_kernel
 * parts likewise: read from @srctree, left out without it.
 */
int st_layout_base_load(const struct st_layout *l, const char *srctree, const char *arch,
			struct st_layout_base *b, struct st_error *err);
void st_layout_base_release(struct st_layout_base *b);

/*
 * @b's assignments below the owned file (never fix targets), @own's @n_own,
 * then @b's parts over it, in a new array the caller frees (pointers into
 * @b and @own); NULL on ENOMEM.
 */
struct st_kc_assign *st_layout_assigns(const struct st_layout_base *b,
				       const struct st_kc_assign *own, size_t n_own,
				       size_t *n);

/*
 * @s (a Kconfig helper's message about the assignments) with each "this
 * file (line N)" of a base line N said as "PATH (line L)": a new string,
 * NULL on ENOMEM.
 */
char *st_layout_base_text(const struct st_layout_base *b, const char *s);

/* The base part a line number of st_layout_assigns() is in (-1: the owned file). */
int st_layout_line_part(int line, int *part_line);

/*
 * Does the base end with @sym set (the last assignment of the parts)? Then
 * *@val is its value as written, NULL for "is not set".
 */
bool st_layout_base_value(const struct st_layout_base *b, const char *sym, const char **val);

/*
 * The stack of @file as JSON, a detached tree the caller deletes (NULL on
 * ENOMEM): {"file", "build_system", "parts": [paths in merge order],
 * "base_defconfig", "arch": {"name", "from", "used"}, "version": {...},
 * "base_findings", "not_read": [paths outside the tree, not read],
 * "not_found": [parts named but not found]}. @arch_used/@version_used: whether the layout's decided
 * (no --arch, $ARCH, path; no --target, --srctree).
 */
struct cJSON *st_layout_to_json(const struct st_layout *l, const char *file,
				bool arch_used, bool version_used, size_t nr_in_base);

/*
 * One line: "openwrt stack, over A + B; ARCH=mips; linux 6.6" (with
 * @verbose, each from where it came; "(not used)" where options decided;
 * parts merged over the owned file as "under C"; the kernel tree's files
 * (a kernel defconfig, $(LINUX_DIR) parts) followed by "(@unread)" when
 * they were not read, NULL when they were; files named outside the tree as
 * "not read"). Malloc'ed, NULL on ENOMEM.
 */
char *st_layout_describe(const struct st_layout *l, bool arch_used, bool version_used,
			 const char *unread, bool verbose);
/* Why a stack's kernel tree files were not read, for st_layout_describe(). */
#define ST_LAYOUT_UNREAD_NO_TREE "not read without a kernel tree"
#define ST_LAYOUT_UNREAD_NO_ARCH "not read: no ARCH but the host's guess; --arch names it"
static inline const char *st_layout_unread(bool tree, bool arch_known)
{
	return !tree ? ST_LAYOUT_UNREAD_NO_TREE : !arch_known ? ST_LAYOUT_UNREAD_NO_ARCH : NULL;
}

#endif
