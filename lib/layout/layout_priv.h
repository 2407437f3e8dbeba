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

#endif
