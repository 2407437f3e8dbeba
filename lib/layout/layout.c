// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which build system's stack a kernel config belongs to: ask each reader in
 * turn, and fall back to the file alone.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "kconfig/kconfig.h"
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
	p[l->nr_parts].in_kernel = false;
	l->nr_parts++;
	return 0;
}

int st_layout_add_not_found(struct st_layout *l, const char *fmt, ...)
{
	char **v = realloc(l->not_found, (l->nr_not_found + 1) * sizeof(*v));
	va_list ap;
	int n;

	if (!v)
		return -ENOMEM;
	l->not_found = v;
	va_start(ap, fmt);
	n = vasprintf(&v[l->nr_not_found], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	l->nr_not_found++;
	return 0;
}

int st_layout_add_kernel_part(struct st_layout *l, const char *path)
{
	int ret = st_layout_add_part(l, path, false);

	if (!ret)
		l->parts[l->nr_parts - 1].in_kernel = true;
	return ret;
}

/*
 * An in_kernel part's file in @srctree into b->kernel_parts: its path, or
 * NULL when there is no tree to read it from. -ENOMEM.
 */
static int kernel_part(struct st_layout_base *b, const char *srctree,
		       const struct st_layout_part *p, const char **path)
{
	size_t k = strlen(ST_LAYOUT_KERNEL_DIR);
	char **v, *s;

	*path = NULL;
	if (!srctree || strncmp(p->path, ST_LAYOUT_KERNEL_DIR, k))
		return 0;
	v = realloc(b->kernel_parts, (b->nr_kernel_parts + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	b->kernel_parts = v;
	if (asprintf(&s, "%s/%s", srctree, p->path + k) < 0)
		return -ENOMEM;
	v[b->nr_kernel_parts++] = s;
	*path = s;
	return 0;
}

int st_layout_trees_add(struct st_layout_trees *t, const char *dir)
{
	size_t i;
	char *real;

	if (t->n == ST_LAYOUT_MAX_TREES)
		return 0;
	real = realpath(dir[0] ? dir : ".", NULL);
	if (!real)
		return errno == ENOMEM ? -ENOMEM : 0;
	for (i = 0; i < t->n; i++) {
		if (!strcmp(t->dir[i], real)) {
			free(real);
			return 0;
		}
	}
	t->dir[t->n++] = real;
	return 0;
}

int st_layout_trees_add_list(struct st_layout_trees *t, const char *list)
{
	char *copy, *tok, *save = NULL;
	int ret = 0;

	if (!list || !*list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ": \t", &save); tok && !ret; tok = strtok_r(NULL, ": \t", &save))
		ret = st_layout_trees_add(t, tok);
	free(copy);
	return ret;
}

void st_layout_trees_release(struct st_layout_trees *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->dir[i]);
	t->n = 0;
}

bool st_layout_inside(const struct st_layout_trees *t, const char *path)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < t->n; i++) {
		ret = st_path_within(path, t->dir[i]);
		if (ret)
			break;
	}
	/* < 0: not even its directory resolves; reading it fails anyway */
	return ret != 0;
}

int st_layout_confine(struct st_layout *l, const struct st_layout_trees *t, const char *path)
{
	char **v;
	size_t i;

	if (st_layout_inside(t, path))
		return 1;
	for (i = 0; i < l->nr_not_read; i++)
		if (!strcmp(l->not_read[i], path))
			return 0;
	v = realloc(l->not_read, (l->nr_not_read + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->not_read = v;
	if (!(v[l->nr_not_read] = strdup(path)))
		return -ENOMEM;
	l->nr_not_read++;
	return 0;
}

/* Does @s have a ".." path component? */
static bool climbs(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "..")); p += 2)
		if ((p == s || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return true;
	return false;
}

int st_layout_set_base(struct st_layout *l, const char *name)
{
	char **v;

	if (name[0] != '/' && !climbs(name)) {
		free(l->base_defconfig);
		l->base_defconfig = strdup(name);
		return l->base_defconfig ? 0 : -ENOMEM;
	}
	/* the kernel tree's file of that name would be outside its configs */
	v = realloc(l->not_read, (l->nr_not_read + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->not_read = v;
	if (!(v[l->nr_not_read] = strdup(name)))
		return -ENOMEM;
	l->nr_not_read++;
	return 0;
}

int st_layout_of(const char *path, struct st_layout *l, struct st_error *err)
{
	size_t i;
	int ret;

	const char *unplaced = NULL;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < ARRAY_SIZE(readers); i++) {
		ret = readers[i](path, l, err);
		if (ret > 0)
			return 0;
		if (l->unplaced)
			unplaced = l->unplaced;
		st_layout_release(l);
		if (ret < 0)
			return ret;
	}
	l->kind = ST_LAYOUT_PLAIN;
	l->unplaced = unplaced;
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
	for (i = 0; i < l->nr_not_read; i++)
		free(l->not_read[i]);
	free(l->not_read);
	st_strv_free(l->not_found, l->nr_not_found);
	memset(l, 0, sizeof(*l));
}

/* @s with leading/trailing blanks, one pair of quotes and a "# ..." dropped. */
static char *var_value(const char *s)
{
	const char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '"' || *s == '\'') {
		e = strchr(s + 1, *s);
		return strndup(s + 1, e ? (size_t)(e - s - 1) : strlen(s + 1));
	}
	e = strchr(s, '#');
	if (!e)
		e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		e--;
	return strndup(s, e - s);
}

int st_layout_file_var(const char *path, const char *name, char **val, int *line)
{
	size_t len = strlen(name);
	char buf[4096], *v = NULL;
	int n = 0, found = 0;
	FILE *f = st_fopen_regular(path);

	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f)) {
		char *p = buf;

		n++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, name, len))
			continue;
		p += len;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == ':' || *p == '?')
			p++;
		if (*p != '=')
			continue;
		free(v);
		v = var_value(p + 1);
		if (!v) {
			fclose(f);
			return -ENOMEM;
		}
		*line = n;
		found = 1;
	}
	fclose(f);
	if (found)
		*val = v;
	return found;
}

/* Replace *@val with a copy of @v and *@why with @fmt's text. 0 or -ENOMEM. */
static int set_decided(char **val, char **why, const char *v, const char *fmt, va_list ap)
{
	free(*val);
	free(*why);
	*why = NULL;
	*val = strdup(v);
	if (vasprintf(why, fmt, ap) < 0)
		*why = NULL;
	return *val && *why ? 0 : -ENOMEM;
}

int st_layout_set_arch(struct st_layout *l, const char *arch, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = set_decided(&l->arch, &l->arch_why, arch, fmt, ap);
	va_end(ap);
	return ret;
}

int st_layout_set_version(struct st_layout *l, const char *ver, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = set_decided(&l->version, &l->version_why, ver, fmt, ap);
	va_end(ap);
	return ret;
}

size_t st_layout_version_len(const char *s)
{
	size_t i = 0, dot;

	while (s[i] >= '0' && s[i] <= '9')
		i++;
	if (!i || s[i] != '.')
		return 0;
	dot = ++i;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	return i > dot ? i : 0;
}

/* Append @path's model to @b (@path stays the caller's). */
static int base_add(struct st_layout_base *b, const char *path, struct st_error *err)
{
	int ret = st_defconfig_load(&b->dc[b->n], path, err);

	if (!ret)
		b->path[b->n++] = path;
	return ret;
}

/* Part @p into @b: a kernel tree's file from @srctree, skipped without it. */
static int part_add(struct st_layout_base *b, const char *srctree,
		    const struct st_layout_part *p, struct st_error *err)
{
	const char *path;

	if (!p->in_kernel)
		return base_add(b, p->path, err);
	if (kernel_part(b, srctree, p, &path))
		return st_err(err, ENOMEM, NULL, "out of memory");
	return path ? base_add(b, path, err) : 0;
}

int st_layout_base_load(const struct st_layout *l, const char *srctree, const char *arch,
			struct st_layout_base *b, struct st_error *err)
{
	size_t i;
	int ret = 0;

	memset(b, 0, sizeof(*b));
	b->dc = calloc(l->nr_parts + 2, sizeof(*b->dc));
	b->path = calloc(l->nr_parts + 2, sizeof(*b->path));
	if (!b->dc || !b->path) {
		st_layout_base_release(b);
		return st_err(err, ENOMEM, NULL, "out of memory");
	}
	/* the kernel's own defconfig: the build's first step, below every part */
	if (l->base_defconfig && srctree && arch && arch[0]) {
		if (asprintf(&b->kernel_path, "%s/arch/%s/configs/%s", srctree, arch,
			     l->base_defconfig) < 0) {
			b->kernel_path = NULL;
			ret = st_err(err, ENOMEM, NULL, "out of memory");
		} else {
			ret = base_add(b, b->kernel_path, err);
		}
	}
	for (i = 0; !ret && i < l->nr_parts && !l->parts[i].owned; i++)
		ret = part_add(b, srctree, &l->parts[i], err);
	b->nr_below = b->n;
	for (i++; !ret && i < l->nr_parts; i++)
		ret = part_add(b, srctree, &l->parts[i], err);
	if (ret)
		st_layout_base_release(b);
	return ret;
}

void st_layout_base_release(struct st_layout_base *b)
{
	size_t i;

	for (i = 0; b->dc && i < b->n; i++)
		st_defconfig_free(b->dc[i]);
	free(b->dc);
	free(b->path);
	free(b->kernel_path);
	st_strv_free(b->kernel_parts, b->nr_kernel_parts);
	memset(b, 0, sizeof(*b));
}

struct st_kc_assign *st_layout_assigns(const struct st_layout_base *b,
				       const struct st_kc_assign *own, size_t n_own,
				       size_t *n)
{
	struct st_kc_assign *a;
	size_t i, j, total = n_own;

	for (i = 0; i < b->n; i++)
		total += b->dc[i]->nr_lines;
	a = calloc(total + 1, sizeof(*a));
	if (!a)
		return NULL;
	*n = 0;
	for (i = 0; i < b->n; i++) {
		if (i == b->nr_below) {
			memcpy(a + *n, own, n_own * sizeof(*a));
			*n += n_own;
		}
		for (j = 0; j < b->dc[i]->nr_lines; j++) {
			const struct st_dc_line *l = &b->dc[i]->lines[j];

			if (l->kind != ST_DC_ASSIGN && l->kind != ST_DC_NOT_SET)
				continue;
			a[*n].sym = l->sym;
			a[*n].val = l->kind == ST_DC_ASSIGN ? l->val : NULL;
			a[(*n)++].line = ST_LAYOUT_LINE_BASE * (int)(i + 1) + l->lineno;
		}
	}
	if (b->nr_below == b->n) {
		memcpy(a + *n, own, n_own * sizeof(*a));
		*n += n_own;
	}
	return a;
}

int st_layout_line_part(int line, int *part_line)
{
	*part_line = line % ST_LAYOUT_LINE_BASE;
	return line >= ST_LAYOUT_LINE_BASE ? line / ST_LAYOUT_LINE_BASE - 1 : -1;
}

bool st_layout_base_value(const struct st_layout_base *b, const char *sym, const char **val)
{
	bool found = false;
	size_t i, j;

	for (i = 0; i < b->n; i++) {
		for (j = 0; j < b->dc[i]->nr_lines; j++) {
			const struct st_dc_line *l = &b->dc[i]->lines[j];

			if (!l->sym || strcmp(l->sym, sym))
				continue;
			if (l->kind == ST_DC_ASSIGN) {
				*val = l->val;
				found = true;
			} else if (l->kind == ST_DC_NOT_SET) {
				*val = NULL;
				found = true;
			}
		}
	}
	return found;
}

char *st_layout_base_text(const struct st_layout_base *b, const char *s)
{
	static const char key[] = "this file (line ";
	size_t size = strlen(s) + 1, len = 0;
	char *out = malloc(size), *grown;
	const char *p;
	int n, line, part;

	while (out && (p = strstr(s, key))) {
		n = atoi(p + sizeof(key) - 1);
		part = st_layout_line_part(n, &line);
		if (part < 0 || (size_t)part >= b->n) {
			p += sizeof(key) - 1;
			memcpy(out + len, s, p - s);
			len += p - s;
			s = p;
			continue;
		}
		size += strlen(b->path[part]) + 16;
		grown = realloc(out, size);
		if (!grown)
			break;
		out = grown;
		memcpy(out + len, s, p - s);
		len += p - s;
		len += sprintf(out + len, "%s (line %d", b->path[part], line);
		for (s = p + sizeof(key) - 1; *s >= '0' && *s <= '9'; s++)
			;
	}
	if (!out || p) {
		free(out);
		return NULL;
	}
	strcpy(out + len, s);
	return out;
}

/* {"name": S or null, "from": WHY or null, "used": B}. */
static cJSON *json_decided(const char *name, const char *why, bool used)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	if (!(name ? cJSON_AddStringToObject(o, "name", name) : cJSON_AddNullToObject(o, "name")) ||
	    !(why ? cJSON_AddStringToObject(o, "from", why) : cJSON_AddNullToObject(o, "from")) ||
	    !cJSON_AddBoolToObject(o, "used", used)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *st_layout_to_json(const struct st_layout *l, const char *file,
			 bool arch_used, bool version_used, size_t nr_in_base)
{
	cJSON *o = cJSON_CreateObject(), *parts;
	size_t i;

	if (!o)
		return NULL;
	if (!cJSON_AddStringToObject(o, "file", file) ||
	    !cJSON_AddStringToObject(o, "build_system", st_layout_kind_name(l->kind)) ||
	    !(parts = cJSON_AddArrayToObject(o, "parts")))
		goto oom;
	for (i = 0; i < l->nr_parts; i++)
		if (!cJSON_AddItemToArray(parts, cJSON_CreateString(l->parts[i].path)))
			goto oom;
	if (!(l->base_defconfig ? cJSON_AddStringToObject(o, "base_defconfig", l->base_defconfig)
				: cJSON_AddNullToObject(o, "base_defconfig")) ||
	    !cJSON_AddItemToObject(o, "arch", json_decided(l->arch, l->arch_why, arch_used)) ||
	    !cJSON_AddItemToObject(o, "version", json_decided(l->version, l->version_why,
							      version_used)) ||
	    !cJSON_AddNumberToObject(o, "base_findings", nr_in_base) ||
	    !(parts = cJSON_AddArrayToObject(o, "not_read")))
		goto oom;
	for (i = 0; i < l->nr_not_read; i++)
		if (!cJSON_AddItemToArray(parts, cJSON_CreateString(l->not_read[i])))
			goto oom;
	if (!(parts = cJSON_AddArrayToObject(o, "not_found")))
		goto oom;
	for (i = 0; i < l->nr_not_found; i++)
		if (!cJSON_AddItemToArray(parts, cJSON_CreateString(l->not_found[i])))
			goto oom;
	return o;
oom:
	cJSON_Delete(o);
	return NULL;
}

char *st_layout_describe(const struct st_layout *l, bool arch_used, bool version_used,
			 const char *unread, bool verbose)
{
	char *buf = NULL;
	size_t len = 0, i;
	bool first = true, over = false;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (l->kind == ST_LAYOUT_PLAIN) {
		fprintf(f, "judged alone: %s", l->unplaced ? l->unplaced : "no build system has it");
		goto out;
	}
	fprintf(f, "%s stack", st_layout_kind_name(l->kind));
	if (l->base_defconfig) {
		fprintf(f, ", over the kernel's %s%s%s%s", l->base_defconfig,
			unread ? " (" : "", unread ? unread : "", unread ? ")" : "");
		first = false;
	}
	for (i = 0; i < l->nr_parts; i++) {
		if (l->parts[i].owned) {
			over = true;
			first = true;
			continue;
		}
		fprintf(f, "%s%s%s%s%s", !first ? " + " : over ? ", under " : ", over ",
			l->parts[i].path, l->parts[i].in_kernel && unread ? " (" : "",
			l->parts[i].in_kernel && unread ? unread : "",
			l->parts[i].in_kernel && unread ? ")" : "");
		first = false;
	}
	if (l->arch)
		fprintf(f, "; ARCH=%s%s%s%s", l->arch, arch_used ? "" : " (not used)",
			verbose ? " from " : "", verbose ? l->arch_why : "");
	if (l->version)
		fprintf(f, "; linux %s%s%s%s", l->version, version_used ? "" : " (not used)",
			verbose ? " from " : "", verbose ? l->version_why : "");
	/* named, never read: what they hold is not ours to show */
	for (i = 0; i < l->nr_not_read; i++)
		fprintf(f, "%s%s", i ? ", " : "; not read (outside the tree): ", l->not_read[i]);
	/* judged without them: the build would have them, or fail */
	for (i = 0; i < l->nr_not_found; i++)
		fprintf(f, "%s%s", i ? ", " : "; not found: ", l->not_found[i]);
out:
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
