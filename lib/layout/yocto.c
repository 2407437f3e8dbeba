// SPDX-License-Identifier: GPL-2.0-only
/*
 * Yocto: a kernel recipe (recipes-kernel/linux/NAME.bb or .bbappend) lists in
 * SRC_URI a defconfig and .cfg fragments as file:// entries, found below the
 * recipe's directory (files/, the recipe's name, a machine's subdirectory).
 * kernel-yocto merges the fragments over the defconfig (or the in-tree
 * KBUILD_DEFCONFIG) in their order. The kernel version is the recipe's
 * (linux-yocto_6.6.bb, LINUX_VERSION). No ARCH: TARGET_ARCH and tunes are
 * not make's ARCH.
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
#include "layout_priv.h"

#define MAX_URIS 64

struct recipe {
	char *uri[MAX_URIS];	/* file:// names, in order */
	size_t n;
	char *kbuild_defconfig;
	char *version, *version_why;
};

static void recipe_free(struct recipe *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->uri[i]);
	free(r->kbuild_defconfig);
	free(r->version);
	free(r->version_why);
	memset(r, 0, sizeof(*r));
}

/* Every "file://NAME" of @line (up to ';', a quote or a blank) into @r. */
static int add_uris(struct recipe *r, const char *line)
{
	const char *p = line, *e;

	while ((p = strstr(p, "file://")) && r->n < MAX_URIS) {
		p += 7;
		e = p + strcspn(p, " \t\"';\\\n");
		if (e > p && !(r->uri[r->n++] = strndup(p, e - p)))
			return -ENOMEM;
		p = e;
	}
	return 0;
}

/* The quoted value after the first '=' of @line, malloc'ed, or NULL. */
static char *quoted(const char *line)
{
	const char *p = strchr(line, '='), *e;

	if (!p || !(p = strchr(p, '"')) || !(e = strchr(p + 1, '"')))
		return NULL;
	return strndup(p + 1, e - p - 1);
}

static int read_recipe(const char *path, const char *name, struct recipe *r)
{
	char line[1024], *v;
	size_t len;
	int n = 0, ret = 0;
	FILE *f = st_fopen_regular(path);
	const char *us = strchr(name, '_');

	if (!f)
		return 0;
	/* SRC_URI entries: every file:// of the recipe (continuations too) */
	while (!ret && fgets(line, sizeof(line), f)) {
		n++;
		ret = add_uris(r, line);
		if (!strncmp(line, "KBUILD_DEFCONFIG", 16) && (v = quoted(line))) {
			free(r->kbuild_defconfig);
			r->kbuild_defconfig = v;
		}
		if (!strncmp(line, "LINUX_VERSION", 13) && (v = quoted(line))) {
			len = st_layout_version_len(v);
			free(r->version);
			free(r->version_why);
			r->version = len ? strndup(v, len) : NULL;
			r->version_why = NULL;
			if (len && asprintf(&r->version_why, "%s:%d: LINUX_VERSION \"%s\"",
					    path, n, v) < 0)
				ret = -ENOMEM;
			free(v);
		}
	}
	fclose(f);
	/* linux-yocto_6.6.bb */
	if (!ret && !r->version && us && (len = st_layout_version_len(us + 1))) {
		r->version = strndup(us + 1, len);
		if (asprintf(&r->version_why, "recipe name %s", name) < 0)
			ret = -ENOMEM;
	}
	return ret;
}

/* Where @uri of a recipe in @dir is: files/, the recipe's PN, @dir. */
static char *find_uri(const char *dir, const char *pn, const char *uri,
		      const char *machine)
{
	const char *sub[] = { "files", pn, "." };
	char *p;
	size_t i;

	for (i = 0; i < 3; i++) {
		if (machine && asprintf(&p, "%s/%s/%s/%s", dir, sub[i], machine, uri) >= 0) {
			if (!access(p, R_OK))
				return p;
			free(p);
		}
		if (asprintf(&p, "%s/%s/%s", dir, sub[i], uri) < 0)
			return NULL;
		if (!access(p, R_OK))
			return p;
		free(p);
	}
	return NULL;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * The machine subdirectory @path is in (files/<machine>/x.cfg), or NULL:
 * the same names are looked up there first.
 */
static char *machine_of(const char *dir, const char *path)
{
	size_t n = strlen(dir);
	const char *rest, *s1, *s2;

	if (strncmp(path, dir, n) || path[n] != '/')
		return NULL;
	rest = path + n + 1;
	s1 = strchr(rest, '/');
	s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	if (!s2 || strchr(s2 + 1, '/'))
		return NULL;
	return strndup(s1 + 1, s2 - s1 - 1);
}

static int fill(struct st_layout *l, const char *dir, const char *pn,
		const struct recipe *r, const char *path, const char *machine)
{
	char *p;
	size_t i, own;
	int ret = 0;

	for (own = 0; own < r->n; own++) {
		p = find_uri(dir, pn, r->uri[own], machine);
		if (p && same_file(p, path)) {
			free(p);
			break;
		}
		free(p);
	}
	if (own == r->n)
		return 0;
	/* the defconfig first, wherever SRC_URI lists it; then the fragments */
	for (i = 0; !ret && i < r->n; i++) {
		const char *b = strrchr(r->uri[i], '/');

		if (i == own || strcmp(b ? b + 1 : r->uri[i], "defconfig"))
			continue;
		p = find_uri(dir, pn, r->uri[i], machine);
		if (p)
			ret = st_layout_add_part(l, p, false);
		free(p);
	}
	for (i = 0; !ret && i < own; i++) {
		size_t len = strlen(r->uri[i]);

		if (len < 4 || strcmp(r->uri[i] + len - 4, ".cfg"))
			continue;
		p = find_uri(dir, pn, r->uri[i], machine);
		if (p)
			ret = st_layout_add_part(l, p, false);
		free(p);
	}
	if (!ret)
		ret = st_layout_add_part(l, path, true);
	if (!ret && r->kbuild_defconfig && !(l->base_defconfig = strdup(r->kbuild_defconfig)))
		ret = -ENOMEM;
	if (!ret && r->version)
		ret = st_layout_set_version(l, r->version, "%s", r->version_why);
	if (!ret)
		l->kind = ST_LAYOUT_YOCTO;
	return ret ? ret : 1;
}

/* Ask every recipe in @dir whether it lists @path. */
static int try_dir(const char *dir, const char *path, struct st_layout *l)
{
	struct recipe r = { 0 };
	char *rp, *pn, *machine = machine_of(dir, path);
	struct dirent *de;
	int ret = 0;
	size_t len;
	DIR *d = opendir(dir);

	if (!d) {
		free(machine);
		return 0;
	}
	while (!ret && (de = readdir(d))) {
		len = strlen(de->d_name);
		if (!(len > 3 && !strcmp(de->d_name + len - 3, ".bb")) &&
		    !(len > 9 && !strcmp(de->d_name + len - 9, ".bbappend")))
			continue;
		if (asprintf(&rp, "%s/%s", dir, de->d_name) < 0) {
			ret = -ENOMEM;
			break;
		}
		pn = strndup(de->d_name, strcspn(de->d_name, "_."));
		ret = pn ? read_recipe(rp, de->d_name, &r) : -ENOMEM;
		if (!ret)
			ret = fill(l, dir, pn, &r, path, machine);
		if (ret <= 0)
			st_layout_release(l);
		recipe_free(&r);
		free(pn);
		free(rp);
	}
	closedir(d);
	free(machine);
	return ret;
}

int st_layout_yocto(const char *path, struct st_layout *l, struct st_error *err)
{
	char dir[PATH_MAX], *slash;
	int depth, ret = 0;

	if (!strstr(path, "recipes-kernel/") || snprintf(dir, sizeof(dir), "%s", path) >=
	    (int)sizeof(dir))
		return 0;
	/* the recipe sits up to three directories above its files */
	for (depth = 0; depth < 4 && !ret && (slash = strrchr(dir, '/')); depth++) {
		*slash = '\0';
		ret = try_dir(dir[0] ? dir : "/", path, l);
	}
	if (!ret && path[0] != '/' && !strchr(dir, '/'))
		ret = try_dir(".", path, l);
	if (ret < 0)
		return st_err(err, -ret, path, "%s", strerror(-ret));
	return ret;
}
