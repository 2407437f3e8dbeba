// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which build system's stack a kernel config belongs to: ask each reader in
 * turn, and fall back to the file alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "layout_priv.h"

static int (*const readers[])(const char *, struct st_layout *, struct st_error *) = {
	st_layout_openwrt,
	st_layout_buildroot,
	st_layout_yocto,
};

const char *st_layout_kind_name(enum st_layout_kind kind)
{
	switch (kind) {
	case ST_LAYOUT_OPENWRT:
		return "openwrt";
	case ST_LAYOUT_BUILDROOT:
		return "buildroot";
	case ST_LAYOUT_YOCTO:
		return "yocto";
	case ST_LAYOUT_PLAIN:
		break;
	}
	return "plain";
}

int st_layout_add_part(struct st_layout *l, const char *path, bool owned)
{
	struct st_layout_part *p;
	char *copy = strdup(path);

	if (!copy)
		return -ENOMEM;
	p = realloc(l->parts, (l->nr_parts + 1) * sizeof(*p));
	if (!p) {
		free(copy);
		return -ENOMEM;
	}
	l->parts = p;
	p[l->nr_parts].path = copy;
	p[l->nr_parts].owned = owned;
	l->nr_parts++;
	return 0;
}

int st_layout_of(const char *path, struct st_layout *l, struct st_error *err)
{
	size_t i;
	int ret;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		ret = readers[i](path, l, err);
		if (ret > 0)
			return 0;
		st_layout_release(l);
		if (ret < 0)
			return ret;
	}
	l->kind = ST_LAYOUT_PLAIN;
	ret = st_layout_add_part(l, path, true);
	if (ret)
		st_layout_release(l);
	return ret;
}

void st_layout_release(struct st_layout *l)
{
	size_t i;

	for (i = 0; i < l->nr_parts; i++)
		free(l->parts[i].path);
	free(l->parts);
	free(l->base_defconfig);
	free(l->arch);
	free(l->arch_why);
	free(l->version);
	free(l->version_why);
	memset(l, 0, sizeof(*l));
}
