// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buildroot: configs/NAME_defconfig (BR2_ symbols) names the kernel config
 * a board builds: BR2_LINUX_KERNEL_CUSTOM_CONFIG_FILE (with
 * BR2_LINUX_KERNEL_USE_CUSTOM_CONFIG) or an in-tree defconfig
 * (BR2_LINUX_KERNEL_USE_DEFCONFIG, BR2_LINUX_KERNEL_DEFCONFIG), then
 * BR2_LINUX_KERNEL_CONFIG_FRAGMENT_FILES merged over it in their order
 * (a fragment's later ones over it too). A
 * kernel config file of the tree is claimed by the first defconfig (in name
 * order) that names it; the ARCH is the BR2_<arch>=y the defconfig chose, the
 * kernel its custom version or the headers series.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "layout_priv.h"
#include "linux/arch.h"

/* A tree root: a directory with configs/ and Config.in (or external.desc). */
static bool is_root(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;

	if (st_pathf(p, "%s/configs", dir) || stat(p, &st) || !S_ISDIR(st.st_mode))
		return false;
	if (!st_pathf(p, "%s/Config.in", dir) && !access(p, R_OK))
		return true;
	return !st_pathf(p, "%s/external.desc", dir) && !access(p, R_OK);
}

/* The nearest ancestor directory of @path that is a tree root, into @root. */
static bool find_root(const char *path, char *root, size_t size)
{
	char *slash;

	if (snprintf(root, size, "%s", path) >= (int)size)
		return false;
	while ((slash = strrchr(root, '/'))) {
		*slash = '\0';
		if (is_root(root[0] ? root : "/"))
			return true;
	}
	/* a relative path: the current directory last */
	if (path[0] != '/' && is_root(".")) {
		snprintf(root, size, ".");
		return true;
	}
	return false;
}

static bool in_kernel(const char *name)
{
	return !strncmp(name, ST_LAYOUT_KERNEL_DIR, strlen(ST_LAYOUT_KERNEL_DIR)) &&
	       !strstr(name, "/../");
}

/* @name (a defconfig's path form) as a path below @root: malloc'ed. */
static char *tree_path(const char *root, const char *name)
{
	char *out;

	/* the kernel tree's file: read from --srctree, not from @root */
	if (in_kernel(name))
		return strdup(name);
	if (!strncmp(name, "$(TOPDIR)/", 10))
		name += 10;
	else if (!strncmp(name, "$(BR2_EXTERNAL", 14) && strstr(name, ")/"))
		name = strstr(name, ")/") + 2;	/* the external tree is @root */
	if (name[0] == '/' || !strcmp(root, "."))
		return strdup(name);
	if (asprintf(&out, "%s/%s", root, name) < 0)
		return NULL;
	return out;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* The BR2_<arch>=y of @defconfig, mapped to make's ARCH. */
static int find_arch(struct st_layout *l, const char *defconfig)
{
	char line[512], name[64];
	const char *arch;
	int n = 0, ret = 0;
	FILE *f = st_fopen_regular(defconfig);

	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		n++;
		if (sscanf(line, "BR2_%63[a-z0-9_]=y", name) != 1)
			continue;
		arch = st_arch_of_buildroot(name);
		if (arch)
			ret = st_layout_set_arch(l, arch, "%s:%d: BR2_%s=y", defconfig, n, name);
		if (arch && !ret)
			ret = 1;
	}
	fclose(f);
	return ret < 0 ? ret : 0;
}

/* The kernel series: the custom version, else the headers' series. */
static int find_version(struct st_layout *l, const char *defconfig)
{
	char line[512], ver[32];
	char *val = NULL;
	int n = 0, major, minor, ret;
	size_t len;
	FILE *f;

	ret = st_layout_file_var(defconfig, "BR2_LINUX_KERNEL_CUSTOM_VERSION_VALUE", &val, &n);
	if (ret > 0 && (len = st_layout_version_len(val)) && len < sizeof(ver)) {
		snprintf(ver, sizeof(ver), "%.*s", (int)len, val);
		ret = st_layout_set_version(l, ver, "%s:%d: BR2_LINUX_KERNEL_CUSTOM_VERSION_VALUE=\"%s\"",
					    defconfig, n, val);
		free(val);
		return ret;
	}
	free(val);
	if (ret < 0)
		return ret;
	f = st_fopen_regular(defconfig);
	if (!f)
		return 0;
	for (n = 1, ret = 0; !ret && fgets(line, sizeof(line), f); n++) {
		if (sscanf(line, "BR2_PACKAGE_HOST_LINUX_HEADERS_CUSTOM_%d_%d=y", &major, &minor) != 2 &&
		    sscanf(line, "BR2_KERNEL_HEADERS_%d_%d=y", &major, &minor) != 2)
			continue;
		snprintf(ver, sizeof(ver), "%d.%d", major, minor);
		line[strcspn(line, "\n")] = '\0';
		ret = st_layout_set_version(l, ver, "%s:%d: %s", defconfig, n, line);
		if (!ret)
			ret = 1;
	}
	fclose(f);
	return ret < 0 ? ret : 0;
}

/*
 * The files @defconfig merges, in order, into @files (NULLs where it names
 * none): the custom config, then each fragment. Returns how many, -ENOMEM.
 */
static int named_files(const char *root, const char *defconfig, char ***files, int **lines)
{
	char *custom = NULL, *frags = NULL, *use = NULL, *tok, *save = NULL;
	int n = 0, line = 0, fline = 0, ret;
	char **v = NULL;
	int *lv = NULL;

	*files = NULL;
	*lines = NULL;
	ret = st_layout_file_var(defconfig, "BR2_LINUX_KERNEL_USE_CUSTOM_CONFIG", &use, &line);
	if (ret > 0 && !strcmp(use, "y"))
		ret = st_layout_file_var(defconfig, "BR2_LINUX_KERNEL_CUSTOM_CONFIG_FILE",
					 &custom, &line);
	if (ret >= 0)
		ret = st_layout_file_var(defconfig, "BR2_LINUX_KERNEL_CONFIG_FRAGMENT_FILES",
					 &frags, &fline);
	free(use);
	if (ret < 0)
		goto out;
	v = calloc(2 + (frags ? strlen(frags) : 0), sizeof(*v));
	lv = calloc(2 + (frags ? strlen(frags) : 0), sizeof(*lv));
	ret = -ENOMEM;
	if (!v || !lv)
		goto out;
	if (custom && custom[0]) {
		lv[n] = line;
		if (!(v[n++] = tree_path(root, custom)))
			goto out;
	}
	for (tok = frags ? strtok_r(frags, " \t", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		lv[n] = fline;
		if (!(v[n++] = tree_path(root, tok)))
			goto out;
	}
	*files = v;
	*lines = lv;
	v = NULL;
	lv = NULL;
	ret = n;
out:
	if (v)
		for (line = 0; line < n; line++)
			free(v[line]);
	free(v);
	free(lv);
	free(custom);
	free(frags);
	return ret;
}

/*
 * BR2_LINUX_KERNEL_USE_DEFCONFIG is the default of linux/Config.in's
 * "Kernel configuration" choice, so savedefconfig leaves it out: every
 * board of Buildroot's configs/ that builds an in-tree defconfig has only
 * BR2_LINUX_KERNEL_DEFCONFIG. The choice is that one unless another
 * member is set.
 */
static bool uses_defconfig(const char *defconfig)
{
	static const char *const others[] = {
		"BR2_LINUX_KERNEL_USE_CUSTOM_CONFIG",
		"BR2_LINUX_KERNEL_USE_ARCH_DEFAULT_CONFIG",
	};
	char *v = NULL;
	bool y = false;
	size_t i;
	int line;

	for (i = 0; i < 2 && !y; i++) {
		if (st_layout_file_var(defconfig, others[i], &v, &line) > 0)
			y = !strcmp(v, "y");
		free(v);
		v = NULL;
	}
	return !y;
}

/*
 * Fill @l if @defconfig names @path: 1, 0 when it does not, -errno. Parts
 * outside @trees are named in l->not_read and not read.
 */
static int try_defconfig(const char *root, const struct st_layout_trees *trees,
			 const char *defconfig, const char *path,
			 struct st_layout *l, struct st_error *err)
{
	char **files, *val = NULL;
	int *lines, n, i, own = -1, ret = 0, line;
	bool *in;

	n = named_files(root, defconfig, &files, &lines);
	if (n < 0)
		return st_err(err, -n, defconfig, "%s", strerror(-n));
	for (i = 0; i < n && own < 0; i++)
		if (same_file(files[i], path))
			own = i;
	if (own < 0)
		goto out;
	in = calloc(n, sizeof(*in));
	if (!in) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	/* a path out of the tree (/etc/shadow, ../..) is named, never read */
	for (i = 0; i < n && ret >= 0; i++)
		ret = i == own || in_kernel(files[i]) ? 1 : st_layout_confine(l, trees, files[i]);
	ret = ret < 0 ? -ENOMEM : 0;
	for (i = 0; i < n && !ret; i++)
		in[i] = i == own || in_kernel(files[i]) || st_layout_inside(trees, files[i]);
	/*
	 * The other parts must exist: the build would fail without them.
	 * Those listed after it are merged over it, and override it. The
	 * kernel tree's ones are looked for in --srctree, when given.
	 */
	for (i = 0; i < n && !ret; i++)
		if (i != own && in[i] && !in_kernel(files[i]) && access(files[i], R_OK))
			ret = st_err(err, errno, path, "%s:%d names %s: %s", defconfig,
				     lines[i], files[i], strerror(errno));
	for (i = 0; i < n && !ret; i++)
		if (in[i] && i != own && in_kernel(files[i]))
			ret = st_layout_add_kernel_part(l, files[i]);
		else if (in[i])
			ret = st_layout_add_part(l, i == own ? path : files[i], i == own);
	free(in);
	if (!ret && uses_defconfig(defconfig) &&
	    st_layout_file_var(defconfig, "BR2_LINUX_KERNEL_DEFCONFIG", &val, &line) > 0) {
		char *name;

		if (asprintf(&name, "%s_defconfig", val) < 0) {
			name = NULL;
			ret = -ENOMEM;
		} else {
			ret = st_layout_set_base(l, name);
		}
		free(name);
	}
	if (!ret)
		ret = find_arch(l, defconfig);
	if (!ret)
		ret = find_version(l, defconfig);
	if (ret == -ENOMEM)
		ret = st_err(err, ENOMEM, path, "out of memory");
	if (!ret) {
		l->kind = ST_LAYOUT_BUILDROOT;
		ret = 1;
	}
out:
	st_strv_free(files, n);
	free(lines);
	free(val);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* configs/ *_defconfig of @root, sorted: malloc'ed names, NULL-terminated. */
static char **defconfigs(const char *root, size_t *n)
{
	char dir[PATH_MAX], **v = NULL, **grown;
	struct dirent *de;
	size_t len;
	DIR *d;

	*n = 0;
	/* names as the user gave the tree: "configs/x", not "./configs/x" */
	if (!strcmp(root, "."))
		root = "";
	if (st_pathf(dir, "%s%sconfigs", root, *root ? "/" : ""))
		return calloc(1, sizeof(*v));
	d = opendir(dir);
	if (!d)
		return calloc(1, sizeof(*v));
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 11 || strcmp(de->d_name + len - 10, "_defconfig"))
			continue;
		grown = realloc(v, (*n + 2) * sizeof(*v));
		if (!grown)
			break;
		v = grown;
		if (asprintf(&v[*n], "%s/%s", dir, de->d_name) < 0)
			break;
		v[++*n] = NULL;
	}
	closedir(d);
	if (!v)
		v = calloc(1, sizeof(*v));
	else
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

int st_layout_buildroot(const char *path, struct st_layout *l, struct st_error *err)
{
	struct st_layout_trees trees = { .n = 0 };
	char root[PATH_MAX], **dc;
	const char *base = strrchr(path, '/');
	size_t n, i;
	int ret = 0;

	base = base ? base + 1 : path;
	n = strlen(base);
	/* Buildroot's own configs are not kernel configs */
	if (n > 10 && !strcmp(base + n - 10, "_defconfig") && strstr(path, "configs/"))
		return 0;
	if (!find_root(path, root, sizeof(root)))
		return 0;
	/* the tree, and the external trees make would be given */
	if (st_layout_trees_add(&trees, root) ||
	    st_layout_trees_add_list(&trees, getenv("BR2_EXTERNAL"))) {
		st_layout_trees_release(&trees);
		return st_err(err, ENOMEM, path, "out of memory");
	}
	dc = defconfigs(root, &n);
	if (!dc) {
		st_layout_trees_release(&trees);
		return st_err(err, ENOMEM, path, "out of memory");
	}
	for (i = 0; i < n && !ret; i++) {
		/* a defconfig that is a link out of the tree is not read */
		if (!st_layout_inside(&trees, dc[i]))
			continue;
		ret = try_defconfig(root, &trees, dc[i], path, l, err);
		if (ret <= 0) {
			/* an error stays in @err; a miss leaves @l for the next */
			if (ret == 0)
				st_layout_release(l);
		}
	}
	st_strv_free(dc, n);
	st_layout_trees_release(&trees);
	if (!ret)
		l->unplaced = "no configs/*_defconfig of its Buildroot tree names it";
	return ret;
}
