/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_LAYOUT_PRIV_H
#define ST_LAYOUT_PRIV_H

#include "layout/layout.h"

/*
 * One reader per build system. Each returns 1 and fills @l when @path is
 * one of its files, 0 when it is not (the next reader is asked), or -errno
 * with @err filled.
 */
int st_layout_openwrt(const char *path, struct st_layout *l, struct st_error *err);
int st_layout_buildroot(const char *path, struct st_layout *l, struct st_error *err);
int st_layout_yocto(const char *path, struct st_layout *l, struct st_error *err);

/* Append a part (copies @path). 0 or -ENOMEM. */
int st_layout_add_part(struct st_layout *l, const char *path, bool owned);
/* "$(LINUX_DIR)/REL": the kernel tree's file REL as a part (in_kernel) */
#define ST_LAYOUT_KERNEL_DIR "$(LINUX_DIR)/"
int st_layout_add_kernel_part(struct st_layout *l, const char *path);
/* A part the build names and that is not found, printf-style. -ENOMEM. */
int st_layout_add_not_found(struct st_layout *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The value of make- or shell-style assignment @name in @path ("NAME:=v",
 * "NAME = v", "NAME=\"v\"", quotes and a trailing comment dropped), the
 * last one in the file: 1 with *@val (malloc'ed) and *@line set, 0 when the
 * file lacks it or cannot be read, -ENOMEM.
 */
int st_layout_file_var(const char *path, const char *name, char **val, int *line);

/* Set l->arch/version and their *_why; 0 or -ENOMEM. */
int st_layout_set_arch(struct st_layout *l, const char *arch, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int st_layout_set_version(struct st_layout *l, const char *ver, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The directories a layout may read files of: the build system's tree and
 * the external trees declared for it, resolved. A file they name elsewhere
 * is left in l->not_read, unread.
 */
#define ST_LAYOUT_MAX_TREES	16
struct st_layout_trees {
	char *dir[ST_LAYOUT_MAX_TREES];
	size_t n;
};

/* Add @dir (resolved; one that does not resolve is left out). 0 or -ENOMEM. */
int st_layout_trees_add(struct st_layout_trees *t, const char *dir);
/* Each of a $BR2_EXTERNAL-style list (':' or blanks between). 0 or -ENOMEM. */
int st_layout_trees_add_list(struct st_layout_trees *t, const char *list);
void st_layout_trees_release(struct st_layout_trees *t);

/*
 * Is @path (symlinks resolved) inside one of @t? A path that cannot be
 * resolved at all counts as inside: reading it fails as any missing file.
 */
bool st_layout_inside(const struct st_layout_trees *t, const char *path);

/*
 * st_layout_inside(), and when not, @path into l->not_read (once): 1 inside,
 * 0 outside, -ENOMEM.
 */
int st_layout_confine(struct st_layout *l, const struct st_layout_trees *t, const char *path);

/*
 * l->base_defconfig = @name (a copy), an in-tree defconfig of the kernel's
 * arch/ARCH/configs/; an absolute @name or one with ".." is put in
 * l->not_read instead. 0 or -ENOMEM.
 */
int st_layout_set_base(struct st_layout *l, const char *name);

/* "X.Y" at the start of @s (digits '.' digits), its length, or 0. */
size_t st_layout_version_len(const char *s);

#endif
