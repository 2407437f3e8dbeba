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

/* One file of the stack, in merge order. */
struct st_layout_part {
	char *path;		/* as the caller should show it */
	/*
	 * The file the user asked about (exactly one part): fixes and added
	 * lines go here, and findings on other parts are the base's.
	 */
	bool owned;
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

#endif
