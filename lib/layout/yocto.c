// SPDX-License-Identifier: GPL-2.0-only
/*
 * Yocto: a kernel recipe (recipes-kernel/linux/NAME.bb or .bbappend) lists in
 * SRC_URI a defconfig and .cfg fragments as file:// entries, found below the
 * recipe's directory (files/, the recipe's name, a machine's subdirectory).
 * kernel-yocto merges the fragments over the defconfig (or the in-tree
 * KBUILD_DEFCONFIG) in their order. The kernel version is the recipe's
 * (linux-yocto_6.6.bb, LINUX_VERSION). No ARCH: TARGET_ARCH and tunes are
 * not make's ARCH.
 *
 * A layer for several machines says which entries are whose with overrides:
 * SRC_URI:append:<machine> (SRC_URI_append_<machine> before Yocto 3.4) and
 * KBUILD_DEFCONFIG:<machine>. A file is judged for one machine: the one
 * whose subdirectory holds it, else the override of the line that lists it;
 * with that machine's entries and the ones of no override, never another
 * machine's. A file of no machine gets the entries of no override.
 * SRC_URI:remove (under an override: for that machine) takes whole words
 * out, after everything else, as BitBake does.
 *
 * Files are read only inside the recipe's layer (the directory up with
 * conf/layer.conf, else the one holding recipes-*): a file:// entry or a
 * require that leaves it ("../../..", a symlink out) is named, not read.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "layout_priv.h"

#define MAX_URIS 64
#define MAX_DEFCONFIGS 16

struct recipe {
	char *uri[MAX_URIS];	/* file:// names, in order */
	char *word[MAX_URIS];	/* and each whole word, "file://NAME;PARAMS" */
	char *cond[MAX_URIS];	/* the machine override each is under, or NULL */
	size_t n;
	char *rm[MAX_URIS];	/* the words of SRC_URI:remove statements */
	char *rm_cond[MAX_URIS];	/* and their overrides */
	size_t nr_rm;
	char *kdef[MAX_DEFCONFIGS];	/* KBUILD_DEFCONFIG values, the last one wins */
	char *kdef_cond[MAX_DEFCONFIGS];
	size_t nr_kdef;
	char *version, *version_why;
	const struct st_layout_trees *trees;	/* the layer, what may be read */
	char *outside[MAX_URIS];	/* includes out of it, not read */
	size_t nr_outside;
};

static void recipe_free(struct recipe *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->uri[i]);
		free(r->word[i]);
		free(r->cond[i]);
	}
	for (i = 0; i < r->nr_rm; i++) {
		free(r->rm[i]);
		free(r->rm_cond[i]);
	}
	for (i = 0; i < r->nr_kdef; i++) {
		free(r->kdef[i]);
		free(r->kdef_cond[i]);
	}
	for (i = 0; i < r->nr_outside; i++)
		free(r->outside[i]);
	free(r->version);
	free(r->version_why);
	memset(r, 0, sizeof(*r));
}

/* The quoted value after the first '=' of @line, malloc'ed, or NULL. */
static char *quoted(const char *line)
{
	const char *p = strchr(line, '='), *e;

	if (!p || !(p = strchr(p, '"')) || !(e = strchr(p + 1, '"')))
		return NULL;
	return strndup(p + 1, e - p - 1);
}

static bool same_cond(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* A word of a ":remove" statement, under the override @cond. */
static int add_removed(struct recipe *r, const char *word, size_t len, const char *cond)
{
	if (r->nr_rm == MAX_URIS)
		return 0;
	if (!(r->rm[r->nr_rm] = strndup(word, len)) ||
	    (cond && !(r->rm_cond[r->nr_rm] = strdup(cond)))) {
		free(r->rm[r->nr_rm]);
		return -ENOMEM;
	}
	r->nr_rm++;
	return 0;
}

/*
 * Every "file://NAME" of @line (NAME up to ';', a quote or a blank) into
 * @r, under the override @cond; the words of a ":remove" statement (@drop)
 * into its removals instead.
 */
static int add_uris(struct recipe *r, const char *line, const char *cond, bool drop)
{
	const char *p = line, *e, *w, *start;
	int ret;

	while ((p = strstr(p, "file://"))) {
		start = p;
		p += 7;
		e = p + strcspn(p, " \t\"';\\\n");
		w = start + strcspn(start, " \t\"'\\\n");
		if (drop) {
			ret = add_removed(r, start, w - start, cond);
			if (ret)
				return ret;
		} else if (e > p && r->n < MAX_URIS) {
			if (!(r->uri[r->n] = strndup(p, e - p)) ||
			    !(r->word[r->n] = strndup(start, w - start)) ||
			    (cond && !(r->cond[r->n] = strdup(cond)))) {
				r->n++;		/* freed with the recipe */
				return -ENOMEM;
			}
			r->n++;
		}
		p = w;
	}
	return 0;
}

/*
 * Entry @i is taken out for @machine (NULL: none in particular): BitBake
 * applies ":remove" last, to whole words, whatever the order of the
 * statements; one under an override only for that machine.
 */
static bool removed(const struct recipe *r, size_t i, const char *machine)
{
	size_t k;

	for (k = 0; k < r->nr_rm; k++)
		if (!strcmp(r->rm[k], r->word[i]) &&
		    (!r->rm_cond[k] || (machine && !strcmp(r->rm_cond[k], machine))))
			return true;
	return false;
}

/*
 * The override a statement's variable name carries: "board" of
 * SRC_URI:append:board, KBUILD_DEFCONFIG:board and the old SRC_URI_append_board,
 * into @cond (NULL for none); *@drop for a :remove. @var: the variable.
 */
static int statement_cond(const char *line, const char *var, char **cond, bool *drop)
{
	static const char *const ops[] = { "append", "prepend", "remove" };
	size_t vl = strlen(var), n, k, i;
	const char *p, *end;
	char sep;

	*cond = NULL;
	*drop = false;
	/* the name with its overrides: up to a blank or the operator */
	n = strcspn(line, " \t=+?.");
	if (n <= vl || strncmp(line, var, vl) || (line[vl] != ':' && line[vl] != '_'))
		return 0;
	sep = line[vl];
	end = line + n;
	for (p = line + vl + 1; p < end; p += k + 1) {
		const char *e = memchr(p, sep, (size_t)(end - p));

		k = (size_t)((e ? e : end) - p);
		for (i = 0; i < ARRAY_SIZE(ops); i++)
			if (k == strlen(ops[i]) && !strncmp(p, ops[i], k))
				break;
		if (i == 2)
			*drop = true;
		if (i < ARRAY_SIZE(ops) || !k)
			continue;
		free(*cond);
		if (!(*cond = strndup(p, k)))
			return -ENOMEM;
	}
	return 0;
}

static int add_kdef(struct recipe *r, const char *line)
{
	char *cond, *v;
	bool drop;
	int ret = statement_cond(line, "KBUILD_DEFCONFIG", &cond, &drop);

	if (ret || drop || r->nr_kdef == MAX_DEFCONFIGS || !(v = quoted(line))) {
		free(cond);
		return ret;
	}
	r->kdef[r->nr_kdef] = v;
	r->kdef_cond[r->nr_kdef++] = cond;
	return 0;
}

/* KBUILD_DEFCONFIG for @machine: its own, else the one of no override. */
static const char *kbuild_defconfig(const struct recipe *r, const char *machine)
{
	const char *any = NULL, *own = NULL;
	size_t i;

	for (i = 0; i < r->nr_kdef; i++) {
		if (!r->kdef_cond[i])
			any = r->kdef[i];
		else if (machine && !strcmp(r->kdef_cond[i], machine))
			own = r->kdef[i];
	}
	return own ? own : any;
}


static int read_lines(const char *path, struct recipe *r, int depth);

/*
 * "require x.inc" / "include x.inc": the file next to @path, read in place
 * (a layer's machine entries are often in a shared .inc). A name with a
 * variable, or one not next to the recipe (BBPATH-relative), is not read.
 */
static int read_included(const char *path, const char *line, struct recipe *r, int depth)
{
	const char *p = line + strcspn(line, " \t");
	const char *slash = strrchr(path, '/');
	char *inc;
	size_t n;
	int ret;

	p += strspn(p, " \t");
	n = strcspn(p, " \t\n");
	if (!n || memchr(p, '$', n) || depth >= 4)
		return 0;
	if (asprintf(&inc, "%.*s%.*s", slash ? (int)(slash - path + 1) : 0, path,
		     (int)n, p) < 0)
		return -ENOMEM;
	if (!st_layout_inside(r->trees, inc)) {
		/* out of the layer: named, not read */
		if (r->nr_outside < MAX_URIS) {
			r->outside[r->nr_outside++] = inc;
			return 0;
		}
		free(inc);
		return 0;
	}
	ret = access(inc, R_OK) ? 0 : read_lines(inc, r, depth + 1);
	free(inc);
	return ret;
}

static int read_lines(const char *path, struct recipe *r, int depth)
{
	char line[1024], *v, *cond = NULL;
	bool cont = false, drop = false;
	size_t len;
	int n = 0, ret = 0;
	FILE *f = st_fopen_regular(path);

	if (!f)
		return 0;
	/*
	 * SRC_URI entries: every file:// of the recipe, under the override of
	 * the statement it is in (a continuation line is in the one before).
	 */
	while (!ret && fgets(line, sizeof(line), f)) {
		n++;
		/* a comment names no entry, whatever it quotes */
		if (!cont && line[strspn(line, " \t")] == '#')
			continue;
		if (!cont) {
			free(cond);
			ret = statement_cond(line, "SRC_URI", &cond, &drop);
			if (!ret && (!strncmp(line, "require ", 8) ||
				     !strncmp(line, "include ", 8)))
				ret = read_included(path, line, r, depth);
		}
		len = strcspn(line, "\n");
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		cont = len && line[len - 1] == '\\';
		if (!ret)
			ret = add_uris(r, line, cond, drop);
		if (!ret && !strncmp(line, "KBUILD_DEFCONFIG", 16))
			ret = add_kdef(r, line);
		/* LINUX_VERSION, not LINUX_VERSION_EXTENSION */
		if (!ret && !strncmp(line, "LINUX_VERSION", 13) && strchr(" \t?=:", line[13]) &&
		    (v = quoted(line))) {
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
	free(cond);
	return ret;
}

static int read_recipe(const char *path, const char *name, struct recipe *r)
{
	const char *us = strchr(name, '_');
	size_t len;
	int ret = read_lines(path, r, 0);

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
	const char *base;
	char *p;
	size_t i, own;
	int ret = 0;

	for (own = 0; own < r->n; own++) {
		if ((machine && r->cond[own] && strcmp(r->cond[own], machine)) ||
		    removed(r, own, machine ? machine : r->cond[own]))
			continue;
		p = find_uri(dir, pn, r->uri[own], machine ? machine : r->cond[own]);
		if (p && same_file(p, path)) {
			free(p);
			break;
		}
		free(p);
	}
	if (own == r->n)
		return 0;
	/* the machine this file is judged for */
	if (!machine)
		machine = r->cond[own];
	/* the defconfig first, wherever SRC_URI lists it; then the fragments */
	for (i = 0; !ret && i < r->n; i++) {
		const char *b = strrchr(r->uri[i], '/');

		if (i == own || strcmp(b ? b + 1 : r->uri[i], "defconfig") ||
		    (r->cond[i] && !same_cond(r->cond[i], machine)) || removed(r, i, machine))
			continue;
		p = find_uri(dir, pn, r->uri[i], machine);
		ret = p ? st_layout_confine(l, r->trees, p) : 0;
		if (ret > 0)
			ret = st_layout_add_part(l, p, false);
		free(p);
	}
	for (i = 0; ret >= 0 && i < own; i++) {
		size_t len = strlen(r->uri[i]);

		if (len < 4 || strcmp(r->uri[i] + len - 4, ".cfg") ||
		    (r->cond[i] && !same_cond(r->cond[i], machine)) || removed(r, i, machine))
			continue;
		p = find_uri(dir, pn, r->uri[i], machine);
		ret = p ? st_layout_confine(l, r->trees, p) : 0;
		if (ret > 0)
			ret = st_layout_add_part(l, p, false);
		free(p);
	}
	for (i = 0; ret >= 0 && i < r->nr_outside; i++)
		ret = st_layout_confine(l, r->trees, r->outside[i]);
	if (ret >= 0)
		ret = st_layout_add_part(l, path, true);
	base = kbuild_defconfig(r, machine);
	if (!ret && base)
		ret = st_layout_set_base(l, base);
	if (!ret && r->version)
		ret = st_layout_set_version(l, r->version, "%s", r->version_why);
	if (!ret)
		l->kind = ST_LAYOUT_YOCTO;
	return ret ? ret : 1;
}

/*
 * The layer a recipe of @dir is in, into @out: the nearest directory up
 * (or ".") with conf/layer.conf, else the one holding the recipes-*
 * directory, else @dir.
 */
static void layer_of(const char *dir, char *out, size_t size)
{
	char p[PATH_MAX], *slash;
	const char *r, *rec = NULL;

	snprintf(out, size, "%s", dir);
	for (;;) {
		if (!st_pathf(p, "%s/conf/layer.conf", out) && !access(p, F_OK))
			return;
		slash = strrchr(out, '/');
		if (!slash || slash == out)
			break;
		*slash = '\0';
	}
	if (dir[0] != '/' && !access("conf/layer.conf", F_OK)) {
		snprintf(out, size, ".");
		return;
	}
	for (r = dir; (r = strstr(r, "recipes-")); r++)
		if (r == dir || r[-1] == '/')
			rec = r;
	if (!rec)
		snprintf(out, size, "%s", dir);
	else if (rec == dir)
		snprintf(out, size, ".");
	else if (rec == dir + 1)
		snprintf(out, size, "/");
	else
		snprintf(out, size, "%.*s", (int)(rec - dir - 1), dir);
}

/* Ask every recipe in @dir whether it lists @path. */
static int try_dir(const char *dir, const char *path, struct st_layout *l)
{
	struct st_layout_trees layer = { .n = 0 };
	struct recipe r = { 0 };
	char *rp, *pn, *machine = machine_of(dir, path), top[PATH_MAX];
	struct dirent *de;
	int ret = 0;
	size_t len;
	DIR *d = opendir(dir);

	if (!d) {
		free(machine);
		return 0;
	}
	layer_of(dir, top, sizeof(top));
	ret = st_layout_trees_add(&layer, top);
	while (!ret && (de = readdir(d))) {
		len = strlen(de->d_name);
		if (!(len > 3 && !strcmp(de->d_name + len - 3, ".bb")) &&
		    !(len > 9 && !strcmp(de->d_name + len - 9, ".bbappend")))
			continue;
		if (asprintf(&rp, "%s/%s", dir, de->d_name) < 0) {
			ret = -ENOMEM;
			break;
		}
		/* a recipe that is a link out of the layer is not read */
		if (!st_layout_inside(&layer, rp)) {
			free(rp);
			continue;
		}
		r.trees = &layer;
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
	st_layout_trees_release(&layer);
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
