// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel configs by content: the directory walk of migrate and check, the
 * classifier it asks about each file, and the ARCH a file's own arch-only
 * symbols give.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "layout/discover.h"
#include "layout/layout.h"

struct st_arch_sym {
	const char *sym;
	const char *arch;
};

struct st_marker {
	const char *sym;	/* a prefix when it ends in '_' */
	const char *kind;	/* "u-boot", "busybox" */
};

#include "kernel_symbols.h"

/* Enough of a file to judge it: OpenWrt's generic config-6.6 is 190 KiB. */
#define READ_MAX	(512 * 1024)

static uint32_t fnv1a(const char *s, size_t len, uint32_t seed)
{
	uint32_t h = 2166136261u ^ seed;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* Bit @b of the Bloom filter, kept as two hex digits a byte. */
static bool bloom_bit(uint32_t b)
{
	const char *p = &st_ksym_bloom[2 * (b / 8)];
	int byte = hexval(p[0]) << 4 | hexval(p[1]);

	return byte & (1 << (b % 8));
}

bool st_cfg_kernel_symbol(const char *sym, size_t len)
{
	uint32_t seed;

	for (seed = 0; seed < 3; seed++)
		if (!bloom_bit(fnv1a(sym, len, seed) % ST_KSYM_BLOOM_BITS))
			return false;
	return true;
}

const char *st_cfg_symbol_arch(const char *sym, size_t len)
{
	size_t lo = 0, hi = ARRAY_SIZE(st_arch_syms);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *s = st_arch_syms[mid].sym;
		int c = strncmp(s, sym, len);

		if (!c && s[len])
			c = 1;
		if (!c)
			return st_arch_syms[mid].arch;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The marker @sym carries ("u-boot", "busybox"), or NULL. */
static const char *marker_of(const char *sym, size_t len)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(st_markers); i++) {
		n = strlen(st_markers[i].sym);
		if (st_markers[i].sym[n - 1] == '_' ? len > n && !strncmp(sym, st_markers[i].sym, n)
						   : len == n && !strncmp(sym, st_markers[i].sym, n))
			return st_markers[i].kind;
	}
	return NULL;
}

static size_t sym_len(const char *p, const char *end)
{
	const char *s = p;

	while (p < end && (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			   (*p >= '0' && *p <= '9')))
		p++;
	return p - s;
}

/*
 * The symbol of a kernel config line [p, end): "CONFIG_X=..." or
 * "# CONFIG_X is not set". Sets *sym, returns its length, 0 for none.
 */
static size_t line_sym(const char *p, const char *end, const char **sym, bool *enabled)
{
	static const char not_set[] = " is not set";
	size_t n;

	*enabled = false;
	if (end - p > 9 && !strncmp(p, "# CONFIG_", 9)) {
		n = sym_len(p + 9, end);
		if (n && (size_t)(end - p - 9 - n) >= sizeof(not_set) - 1 &&
		    !strncmp(p + 9 + n, not_set, sizeof(not_set) - 1)) {
			*sym = p + 9;
			return n;
		}
		return 0;
	}
	if (end - p > 7 && !strncmp(p, "CONFIG_", 7)) {
		n = sym_len(p + 7, end);
		if (!n || p + 7 + n == end || p[7 + n] != '=')
			return 0;
		*sym = p + 7;
		*enabled = end - p > (ptrdiff_t)(8 + n) && (p[8 + n] == 'y' || p[8 + n] == 'm');
		return n;
	}
	return 0;
}

static bool is_blank_line(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return false;
	return true;
}

#define VERDICT(v, k, l, ...) do {				\
	(v)->kind = (k);					\
	(v)->line = (l);					\
	snprintf((v)->why, sizeof((v)->why), __VA_ARGS__);	\
} while (0)

void st_cfg_classify_buf(const char *buf, size_t len, struct st_cfg_verdict *v)
{
	const char *p = buf, *end = buf + len, *eol, *sym, *kind;
	unsigned int line = 0;
	bool enabled;
	size_t n;

	memset(v, 0, sizeof(*v));
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		line++;
		if (is_blank_line(p, eol))
			continue;
		n = line_sym(p, eol, &sym, &enabled);
		/* conf reads " # text" as a comment too (a stray blank before it) */
		if (!n && p[strspn(p, " \t")] == '#') {
			if (eol - p > 17 && !strncmp(p, "# Busybox version", 17)) {
				VERDICT(v, ST_CFG_BUSYBOX, line, "line %u names a BusyBox "
					"version: a BusyBox config, not a kernel config", line);
				return;
			}
			continue;
		}
		if (!n && eol - p >= 4 && !strncmp(p, "BR2_", 4)) {
			VERDICT(v, ST_CFG_BUILDROOT, line, "line %u sets %.*s: a Buildroot "
				"config, not a kernel config", line, (int)sym_len(p, eol), p);
			return;
		}
		if (!n) {
			VERDICT(v, ST_CFG_SYNTAX, line, "line %u is no kernel config line: '%.*s'",
				line, (int)(eol - p > 40 ? 40 : eol - p), p);
			return;
		}
		kind = marker_of(sym, n);
		if (kind) {
			VERDICT(v, *kind == 'u' ? ST_CFG_UBOOT : ST_CFG_BUSYBOX, line,
				"line %u sets CONFIG_%.*s: a %s config, not a kernel config",
				line, (int)n, sym, *kind == 'u' ? "U-Boot" : "BusyBox");
			return;
		}
		v->nr_syms++;
		v->nr_known += st_cfg_kernel_symbol(sym, n);
		v->nr_slab += (n == 4 && (!strncmp(sym, "SLAB", 4) || !strncmp(sym, "SLOB", 4) ||
					  !strncmp(sym, "SLUB", 4))) ||
			      (n == 9 && !strncmp(sym, "SLUB_TINY", 9));
	}
	if (!v->nr_syms) {
		snprintf(v->why, sizeof(v->why), "no CONFIG_ assignment");
		v->kind = ST_CFG_EMPTY;
	} else if (2 * v->nr_known < v->nr_syms) {
		snprintf(v->why, sizeof(v->why), "%zu of its %zu symbols are no kernel's",
			 v->nr_syms - v->nr_known, v->nr_syms);
		v->kind = ST_CFG_FOREIGN;
	}
}

/* Read at most READ_MAX bytes of @path into a malloc'd *buf. */
static int read_prefix(const char *path, char **buf, size_t *len)
{
	ssize_t r;
	size_t n = 0;
	int fd, ret = 0;

	*buf = malloc(READ_MAX);
	if (!*buf)
		return -ENOMEM;
	ret = st_open_regular(path, &fd, NULL, NULL);
	if (ret)
		goto out;
	while (n < READ_MAX && (r = read(fd, *buf + n, READ_MAX - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		n += r;
	}
	close(fd);
	/* a line cut at the end is not judged */
	while (n == READ_MAX && n && (*buf)[n - 1] != '\n')
		n--;
out:
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	*len = n;
	return ret;
}

int st_cfg_classify(const char *path, struct st_cfg_verdict *v)
{
	char *buf;
	size_t len;
	int ret = read_prefix(path, &buf, &len);

	if (ret)
		return ret;
	st_cfg_classify_buf(buf, len, v);
	free(buf);
	return 0;
}

bool st_cfg_not_kernel(const char *path, struct st_cfg_verdict *v)
{
	if (!strcmp(path, "-") || st_cfg_classify(path, v))
		return false;
	return v->kind == ST_CFG_BUILDROOT || v->kind == ST_CFG_UBOOT ||
	       v->kind == ST_CFG_BUSYBOX;
}

/* After "CONFIG_X" at @p: "=VALUE" with a VALUE that is not n. */
static bool valued(const char *p, const char *end)
{
	if (p >= end || *p != '=' || ++p >= end)
		return false;
	return !(*p == 'n' && (p + 1 == end || p[1] == '\r' || p[1] == ' ' || p[1] == '\t'));
}

int st_cfg_arch_of_buf(const char *buf, size_t len, char *arch, size_t asize,
		       char *sym, size_t ssize)
{
	const char *arches[32], *first[32], *p, *eol, *s, *a;
	size_t votes[32], firstlen[32], nr = 0, i, n, best = 0;
	bool enabled, tie = false;

	for (p = buf; p < buf + len; p = eol + 1) {
		eol = memchr(p, '\n', buf + len - p);
		if (!eol)
			eol = buf + len;
		n = line_sym(p, eol, &s, &enabled);
		/*
		 * a symbol set to anything but n: y, m, or a value (microblaze's
		 * CONFIG_XILINX_MICROBLAZE0_USE_FPU=1, FAMILY="kintexu")
		 */
		if (!n || !(enabled || valued(s + n, eol)) || !(a = st_cfg_symbol_arch(s, n)))
			continue;
		for (i = 0; i < nr && strcmp(arches[i], a); i++)
			;
		if (i == nr) {
			if (nr == ARRAY_SIZE(arches))
				continue;
			arches[nr] = a;
			first[nr] = s;
			firstlen[nr] = n;
			votes[nr++] = 0;
		}
		votes[i]++;
	}
	if (!nr)
		return 0;
	for (i = 1; i < nr; i++) {
		if (votes[i] > votes[best]) {
			best = i;
			tie = false;
		} else if (votes[i] == votes[best]) {
			tie = true;
		}
	}
	if (tie)
		return 0;
	snprintf(arch, asize, "%s", arches[best]);
	snprintf(sym, ssize, "CONFIG_%.*s", (int)firstlen[best], first[best]);
	return 1;
}

int st_cfg_arch_of(const char *path, char *arch, size_t asize, char *sym, size_t ssize)
{
	char *buf;
	size_t len;
	int ret = read_prefix(path, &buf, &len);

	if (ret)
		return ret;
	ret = st_cfg_arch_of_buf(buf, len, arch, asize, sym, ssize);
	free(buf);
	return ret;
}

/* The walk */

static int add_path(struct st_discovery *d, size_t *cap, const char *p)
{
	char **v;

	if (d->nr == *cap) {
		size_t c = *cap ? 2 * *cap : 64;

		v = realloc(d->paths, c * sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->paths = v;
		*cap = c;
	}
	d->paths[d->nr] = strdup(p);
	if (!d->paths[d->nr])
		return -ENOMEM;
	d->nr++;
	return 0;
}

static bool ends_with(const char *name, size_t n, const char *suffix)
{
	size_t l = strlen(suffix);

	return n > l && !strcmp(name + n - l, suffix);
}

/* config-<version> or config-default: OpenWrt's kernel configs. */
static bool openwrt_name(const char *name)
{
	const char *v = name + 7;

	if (strncmp(name, "config-", 7))
		return false;
	if (!strcmp(v, "default"))
		return true;
	if (!*v)
		return false;
	for (; *v; v++)
		if (!(*v >= '0' && *v <= '9') && *v != '.')
			return false;
	return true;
}

/* Is @dir/ in @path, at its start or after a slash? */
static bool under(const char *path, const char *dir)
{
	const char *p = path;
	size_t l = strlen(dir);

	for (;;) {
		if (!strncmp(p, dir, l) && p[l] == '/')
			return true;
		p = strchr(p, '/');
		if (!p)
			return false;
		p++;
	}
}

/*
 * Names a kernel config has: defconfig and *_defconfig (arch/<a>/configs/,
 * Yocto layers), *.config (fragments, Buildroot's linux.config), *.fragment
 * (Buildroot), OpenWrt's config-VERSION, and *.cfg below a recipes-kernel/
 * directory: Yocto's BusyBox fragments (recipes-core/busybox/, *.cfg) can
 * hold kernel symbols alone (CONFIG_WATCHDOG=y), so only the place tells.
 * The content decides the rest; the name spares reading every file.
 */
static bool candidate(const char *path, const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "defconfig") || ends_with(name, n, "_defconfig") ||
	       ends_with(name, n, ".config") || ends_with(name, n, ".fragment") ||
	       openwrt_name(name) ||
	       (ends_with(name, n, ".cfg") && under(path, "recipes-kernel"));
}

struct walk {
	struct st_discovery *d;
	size_t cap;
	struct st_error *err;
};

/*
 * A name or place that says "kernel": OpenWrt's config-VERSION,
 * linux*.fragment, kernel.config, anything in an arch/ARCH/configs/ (a
 * vendor tree's defconfig may set mostly its own patches' symbols). Downstream kernels' files (OpenWrt's bcm27xx config-6.6:
 * 44 of 48 lines are Raspberry Pi drivers) and fragments for a newer kernel
 * name few symbols of the 6.1 and 6.12 trees; such a name is taken as
 * enough when nothing in the file says otherwise.
 */
static bool kernel_name(const char *path, const char *name)
{
	size_t n;

	return openwrt_name(name) || strstr(name, "linux") || strstr(name, "kernel") ||
	       st_arch_of_path(path, &n);
}

/*
 * Append @x and @y (owned: freed on failure) to the parallel arrays *@a and
 * *@b of @n entries each; the caller counts the entry. 0 or -ENOMEM.
 */
static int push_pair(char ***a, char ***b, size_t n, char *x, char *y)
{
	char **v = realloc(*a, (n + 1) * sizeof(*v));

	if (v)
		*a = v;
	v = v ? realloc(*b, (n + 1) * sizeof(*v)) : NULL;
	if (v)
		*b = v;
	if (!v || !x || !y) {
		free(x);
		free(y);
		return -ENOMEM;
	}
	(*a)[n] = x;
	(*b)[n] = y;
	return 0;
}

/* @path was looked at and is not judged, for @why: kept for -v. */
static int skip(struct st_discovery *d, const char *path, const char *why)
{
	int ret = push_pair(&d->skipped, &d->skipped_why, d->nr_skipped, strdup(path),
			    strdup(why));

	if (!ret)
		d->nr_skipped++;
	return ret;
}

/* A build system's stack has @path as a part: its build merges it. */
static bool claimed(const char *path)
{
	struct st_layout l;
	bool yes;

	if (st_layout_of(path, &l, NULL))
		return true;	/* its stack's error is reported when it is judged */
	yes = l.kind != ST_LAYOUT_PLAIN;
	st_layout_release(&l);
	return yes;
}

/*
 * A candidate of the walk is judged unless its content says it is another
 * program's config (U-Boot, BusyBox, Buildroot), or it has too few kernel
 * symbols and nothing else speaks for it: a kernel's name or place, an
 * allocator line (a vendor tree's fragment may name only its own drivers),
 * a build system that merges it (a recipe's SRC_URI lists it).
 */
static int take_if_kernel(struct walk *w, const char *path, const char *name)
{
	struct st_cfg_verdict v;
	int ret;

	w->d->nr_looked++;
	ret = st_cfg_classify(path, &v);
	if (ret) {
		char why[128];

		snprintf(why, sizeof(why), "cannot be read: %s", strerror(-ret));
		return skip(w->d, path, why) ? st_err(w->err, ENOMEM, NULL, "out of memory") : 0;
	}
	if (v.kind != ST_CFG_KERNEL && v.kind != ST_CFG_BUILDROOT && v.kind != ST_CFG_UBOOT &&
	    v.kind != ST_CFG_BUSYBOX && v.kind != ST_CFG_EMPTY &&
	    ((v.kind == ST_CFG_FOREIGN && (kernel_name(path, name) || v.nr_slab)) ||
	     claimed(path)))
		v.kind = ST_CFG_KERNEL;
	if (v.kind != ST_CFG_KERNEL)
		return skip(w->d, path, v.why) ? st_err(w->err, ENOMEM, NULL, "out of memory") : 0;
	return add_path(w->d, &w->cap, path) ? st_err(w->err, ENOMEM, NULL, "out of memory") : 0;
}

static int walk(struct walk *w, const char *dir, int depth)
{
	char sub[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (depth > 32)
		return st_err(w->err, ELOOP, dir, "directories nested too deep");
	d = opendir(dir);
	if (!d)
		return st_err(w->err, errno, dir, "cannot open directory: %s", strerror(errno));
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')	/* ., .., .git, editor temp files */
			continue;
		if (snprintf(sub, sizeof(sub), "%s%s%s", dir,
			     dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/",
			     de->d_name) >= (int)sizeof(sub))
			continue;
		if (lstat(sub, &st) < 0)
			continue;
		/* a symlinked defconfig is followed (not a symlinked directory) */
		if (S_ISLNK(st.st_mode) && stat(sub, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode))
			ret = walk(w, sub, depth + 1);
		else if (S_ISREG(st.st_mode) && candidate(sub, de->d_name))
			ret = take_if_kernel(w, sub, de->d_name);
	}
	closedir(d);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Remember the directory @dir a walk starts from, and where it resolves. */
static int add_walked(struct st_discovery *d, const char *dir)
{
	char *real = realpath(dir, NULL);
	int err = errno;

	if (!real)
		return -err;
	if (push_pair(&d->walked, &d->walked_real, d->nr_walked, strdup(dir), real))
		return -ENOMEM;
	d->nr_walked++;
	return 0;
}

const char *st_discovery_within(const struct st_discovery *d, const char *path)
{
	const char *best = NULL;
	size_t i, n, best_n = 0;

	for (i = 0; i < d->nr_walked; i++) {
		n = strlen(d->walked[i]);
		/* the walk made "DIR/NAME", or "DIR/NAME" from "DIR/" */
		if (strncmp(path, d->walked[i], n) ||
		    (path[n] != '/' && (!n || d->walked[i][n - 1] != '/')))
			continue;
		if (!best || n > best_n) {
			best = d->walked_real[i];
			best_n = n;
		}
	}
	return best;
}

/* A file named on the command line. */
static int given(struct walk *w, const char *path, const struct st_discover_opts *o)
{
	struct st_cfg_verdict v;

	if (o->skip_foreign) {
		w->d->nr_looked++;
		if (!st_cfg_classify(path, &v) && v.kind != ST_CFG_KERNEL &&
		    v.kind != ST_CFG_EMPTY)
			return skip(w->d, path, v.why) ?
			       st_err(w->err, ENOMEM, NULL, "out of memory") : 0;
	}
	return add_path(w->d, &w->cap, path) ? st_err(w->err, ENOMEM, NULL, "out of memory") : 0;
}

int st_discover(char *const *paths, size_t n, const struct st_discover_opts *o,
		struct st_discovery *d, struct st_error *err)
{
	struct walk w = { .d = d, .err = err };
	struct stat st;
	size_t i, first;
	int ret = 0, stdin_seen = 0;

	memset(d, 0, sizeof(*d));
	for (i = 0; !ret && i < n; i++) {
		/* "-" is standard input: once, and never a directory. */
		if (!strcmp(paths[i], "-")) {
			if (stdin_seen++)
				ret = st_err(err, EINVAL, "-", "standard input given twice");
			else
				ret = add_path(d, &w.cap, "-") ?
				      st_err(err, ENOMEM, NULL, "out of memory") : 0;
			continue;
		}
		if (stat(paths[i], &st) < 0) {
			ret = st_err(err, errno, paths[i], "%s", strerror(errno));
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			ret = given(&w, paths[i], o);
			continue;
		}
		first = d->nr;
		ret = add_walked(d, paths[i]);
		if (ret) {
			ret = st_err(err, -ret, paths[i], "cannot resolve: %s", strerror(-ret));
			break;
		}
		ret = walk(&w, paths[i], 0);
		if (!ret && d->nr > first)
			qsort(d->paths + first, d->nr - first, sizeof(*d->paths), cmp_str);
		if (!ret && d->nr == first && !o->allow_empty)
			ret = st_err(err, ENOENT, NULL, "no kernel configs found under %s",
				     paths[i]);
	}
	if (ret)
		st_discovery_release(d);
	return ret;
}

void st_discovery_release(struct st_discovery *d)
{
	st_strv_free(d->paths, d->nr);
	st_strv_free(d->skipped, d->nr_skipped);
	st_strv_free(d->skipped_why, d->nr_skipped);
	st_strv_free(d->walked, d->nr_walked);
	st_strv_free(d->walked_real, d->nr_walked);
	memset(d, 0, sizeof(*d));
}

/* The ARCH of a file */

const char *st_arch_of_path(const char *path, size_t *len)
{
	const char *p, *a, *end;

	/* the last "arch/X/configs/": the tree nearest to the file */
	for (a = NULL, p = path; (p = strstr(p, "arch/")); p++) {
		if (p != path && p[-1] != '/')
			continue;
		end = strchr(p + 5, '/');
		if (end && end > p + 5 && !strncmp(end, "/configs/", 9))
			a = p;
	}
	if (!a)
		return NULL;
	end = strchr(a + 5, '/');
	*len = end - (a + 5);
	return a + 5;
}

/* What one source of a file's ARCH said. */
struct said {
	char arch[32];
	char why[256];
};

static bool from_path(const char *path, struct said *c)
{
	size_t n;
	const char *a = st_arch_of_path(path, &n);

	if (a && n < sizeof(c->arch)) {
		snprintf(c->arch, sizeof(c->arch), "%.*s", (int)n, a);
		snprintf(c->why, sizeof(c->why), "arch/%.*s/configs/", (int)n, a);
		return true;
	}
	if (strstr(path, "/kernel/configs/") || !strncmp(path, "kernel/configs/", 15)) {
		snprintf(c->arch, sizeof(c->arch), "x86");	/* make ARCH=x86 tinyconfig */
		snprintf(c->why, sizeof(c->why), "kernel/configs/");
		return true;
	}
	return false;
}

/*
 * The ARCH the build system gives for the stack @path belongs to (OpenWrt's
 * target Makefile, Buildroot's BR2_<arch>): st_layout_of()'s arch and
 * arch_why.
 */
static bool from_layout(const char *path, struct said *c, struct said *sym)
{
	struct st_layout l;
	bool found = false;
	const char *b;
	char s[64];
	size_t i;

	sym->arch[0] = '\0';
	/* an unreadable stack is the file's error, reported when it is checked */
	if (!strcmp(path, "-") || st_layout_of(path, &l, NULL))
		return false;
	if (l.arch) {
		snprintf(c->arch, sizeof(c->arch), "%s", l.arch);
		snprintf(c->why, sizeof(c->why), "%s", l.arch_why ? l.arch_why : "");
		found = true;
	}
	/*
	 * A fragment (a Yocto .cfg, an OpenWrt subtarget's config) often has
	 * no symbol of its own arch; the defconfig below it has: the stack's
	 * other parts, base first, for the symbols' guess.
	 */
	for (i = 0; !found && i < l.nr_parts && !sym->arch[0]; i++) {
		if (l.parts[i].owned ||
		    st_cfg_arch_of(l.parts[i].path, sym->arch, sizeof(sym->arch), s, sizeof(s)) != 1) {
			sym->arch[0] = '\0';
			continue;
		}
		b = strrchr(l.parts[i].path, '/');
		snprintf(sym->why, sizeof(sym->why), "%s of %s", s, b ? b + 1 : l.parts[i].path);
	}
	st_layout_release(&l);
	return found;
}

/*
 * st_cfg_arch_of() for standard input: lib/defconfig keeps what it read,
 * so the file is judged afterwards from the same bytes.
 */
static int stdin_arch(char *arch, size_t asize, char *sym, size_t ssize)
{
	const char *buf;
	size_t len;

	/* an error is the file's, reported when it is judged */
	if (st_defconfig_stdin(&buf, &len, NULL))
		return 0;
	return st_cfg_arch_of_buf(buf, len, arch, asize, sym, ssize);
}

void st_arch_of_file(const char *path, const char *real,
		     const struct st_arch_sources *given, struct st_arch_choice *c)
{
	struct st_arch_sources s = { 0 };
	struct said p, l, sym, below;
	unsigned int i;
	int ret;

	if (given)
		s = *given;
	/* the path given decides, not where a symlink points */
	if (from_path(path, &p) || (real && from_path(real, &p)))
		s.s[ST_ARCH_FROM_PATH] = (struct st_arch_source){ p.arch, p.why };
	if (from_layout(path, &l, &below))
		s.s[ST_ARCH_FROM_LAYOUT] = (struct st_arch_source){ l.arch, l.why };
	/* the symbols are a guess for a gap: read only when nothing above says */
	for (i = 0; i < ST_ARCH_FROM_SYMBOLS && !s.s[i].arch; i++)
		;
	if (i == ST_ARCH_FROM_SYMBOLS) {
		ret = strcmp(path, "-") ?
			st_cfg_arch_of(path, sym.arch, sizeof(sym.arch), sym.why, sizeof(sym.why)) :
			stdin_arch(sym.arch, sizeof(sym.arch), sym.why, sizeof(sym.why));
		if (ret == 1)
			s.s[ST_ARCH_FROM_SYMBOLS] = (struct st_arch_source){ sym.arch, sym.why };
		else if (below.arch[0])
			s.s[ST_ARCH_FROM_SYMBOLS] = (struct st_arch_source){ below.arch, below.why };
	}
	st_arch_decide(&s, c);
}
