// SPDX-License-Identifier: GPL-2.0-only
/*
 * OpenWrt: include/kernel-defaults.mk hands scripts/kconfig.pl the list
 * target/linux/generic/config-$(KERNEL_PATCHVER), the target's config of that
 * version, then the subtarget's config-$(KERNEL_PATCHVER) or config-default;
 * kconfig.pl merges them in that order, a later file's line replacing an
 * earlier one. ARCH is the target Makefile's (a subtarget's target.mk may
 * set its own), in OpenWrt's toolchain names (mipsel, aarch64, i386).
 * Only files inside the OpenWrt tree are read: a config committed as a
 * symlink out of it is named, not read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "layout_priv.h"
#include "linux/arch.h"

/* "config-X.Y" (@ver set) or "config-default" (@ver ""), else false. */
static bool config_name(const char *name, char *ver, size_t size)
{
	size_t n;

	if (strncmp(name, "config-", 7))
		return false;
	name += 7;
	if (!strcmp(name, "default")) {
		ver[0] = '\0';
		return true;
	}
	n = st_layout_version_len(name);
	if (!n || name[n] || n >= size)
		return false;
	snprintf(ver, size, "%s", name);
	return true;
}

/* Add @root@rel if it exists inside @tree; 0 or -ENOMEM. */
static int add_if(struct st_layout *l, const struct st_layout_trees *tree,
		  const char *root, const char *rel)
{
	char *p;
	int ret = 0;

	if (asprintf(&p, "%s%s", root, rel) < 0)
		return -ENOMEM;
	ret = st_layout_confine(l, tree, p);
	if (ret > 0)
		ret = access(p, R_OK) ? 0 : st_layout_add_part(l, p, false);
	free(p);
	return ret;
}

/*
 * ARCH from the subtarget's target.mk (@sub may be NULL) or the target's
 * Makefile, mapped to make's name; 0 when neither gives a known one.
 */
static int find_arch(struct st_layout *l, const struct st_layout_trees *tree,
		     const char *root, const char *target, const char *sub)
{
	char *mk = NULL, *val = NULL;
	const char *arch;
	int line = 0, ret = 0, i;

	for (i = sub ? 0 : 1; i < 2 && !ret; i++) {
		free(mk);
		if ((i ? asprintf(&mk, "%s%s/Makefile", root, target) :
			 asprintf(&mk, "%s%s/%s/target.mk", root, target, sub)) < 0)
			return -ENOMEM;
		/* a Makefile linked from out of the tree is not read */
		ret = st_layout_inside(tree, mk) ?
		      st_layout_file_var(mk, "ARCH", &val, &line) : 0;
	}
	/* a target whose ARCH is not its toolchain's (uml, armsr) decides itself */
	arch = st_arch_of_openwrt_target(target, sub);
	if (ret >= 0 && arch)
		ret = st_layout_set_arch(l, arch, "%s%s%s%s: OpenWrt's %s target",
					 root, target, sub ? "/" : "", sub ? sub : "",
					 target);
	else if (ret > 0) {
		arch = st_arch_of_openwrt(val);
		ret = arch ? st_layout_set_arch(l, arch, "%s:%d: ARCH:=%s", mk, line, val) : 0;
	}
	free(val);
	free(mk);
	return ret;
}

/* The target's KERNEL_PATCHVER into @ver ("" when it has none). */
static int patchver(struct st_layout *l, const struct st_layout_trees *tree,
		    const char *root, const char *target, char *ver, size_t size)
{
	char *mk, *val = NULL;
	int line = 0, ret;

	if (asprintf(&mk, "%s%s/Makefile", root, target) < 0)
		return -ENOMEM;
	ret = st_layout_inside(tree, mk) ?
	      st_layout_file_var(mk, "KERNEL_PATCHVER", &val, &line) : 0;
	if (ret > 0 && st_layout_version_len(val) == strlen(val) && strlen(val) < size) {
		snprintf(ver, size, "%s", val);
		ret = st_layout_set_version(l, val, "%s:%d: KERNEL_PATCHVER:=%s",
					    mk, line, val);
	}
	free(val);
	free(mk);
	return ret < 0 ? ret : 0;
}

int st_layout_openwrt(const char *path, struct st_layout *l, struct st_error *err)
{
	struct st_layout_trees tree = { .n = 0 };
	const char *p, *rest = NULL, *s1, *s2;
	char root[4096], top[4096], target[256], sub[256], ver[32], rel[600];
	size_t rlen;
	int ret;

	/* the last "target/linux/" names the tree nearest to the file */
	for (p = path; (p = strstr(p, "target/linux/")); p++)
		if (p == path || p[-1] == '/')
			rest = p + 13;
	if (!rest || (rlen = rest - path) >= sizeof(root))
		return 0;
	snprintf(root, sizeof(root), "%.*s", (int)rlen, path);
	s1 = strchr(rest, '/');
	if (!s1 || s1 == rest || (size_t)(s1 - rest) >= sizeof(target))
		return 0;
	snprintf(target, sizeof(target), "%.*s", (int)(s1 - rest), rest);
	s2 = strchr(s1 + 1, '/');
	if (s2 && (strchr(s2 + 1, '/') || (size_t)(s2 - s1 - 1) >= sizeof(sub) || s2 == s1 + 1))
		return 0;
	if (!config_name(s2 ? s2 + 1 : s1 + 1, ver, sizeof(ver)))
		return 0;
	if (s2)
		snprintf(sub, sizeof(sub), "%.*s", (int)(s2 - s1 - 1), s1 + 1);
	if (!s2 && !ver[0])
		return 0;	/* a target's own config is versioned */
	l->kind = ST_LAYOUT_OPENWRT;
	/* the tree: what is above target/linux/ */
	snprintf(top, sizeof(top), "%.*s", (int)(rlen - 13), path);
	ret = st_layout_trees_add(&tree, top[0] ? top : ".");
	if (!ret && ver[0])
		ret = st_layout_set_version(l, ver, "file name config-%s", ver);
	else if (!ret)
		ret = patchver(l, &tree, root, target, ver, sizeof(ver));
	if (!ret && strcmp(target, "generic"))
		ret = find_arch(l, &tree, root, target, s2 ? sub : NULL);
	if (!ret && ver[0] && strcmp(target, "generic")) {
		snprintf(rel, sizeof(rel), "generic/config-%s", ver);
		ret = add_if(l, &tree, root, rel);
		if (!ret && s2) {
			snprintf(rel, sizeof(rel), "%s/config-%s", target, ver);
			ret = add_if(l, &tree, root, rel);
		}
	}
	if (!ret)
		ret = st_layout_add_part(l, path, true);
	st_layout_trees_release(&tree);
	if (ret)
		return st_err(err, -ret, path, "%s", strerror(-ret));
	return 1;
}
