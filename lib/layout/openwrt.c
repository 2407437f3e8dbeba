// SPDX-License-Identifier: GPL-2.0-only
/* The openwrt layout reader (not written yet: claims no file). */
#include "layout_priv.h"

int st_layout_openwrt(const char *path, struct st_layout *l, struct st_error *err)
{
	(void)path;
	(void)l;
	(void)err;
	return 0;
}
