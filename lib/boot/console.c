// SPDX-License-Identifier: GPL-2.0-only
/*
 * The console log of a boot: the figures the init prints between its
 * markers (/proc/meminfo and /proc/slabinfo), and the last lines for an
 * error.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "boot_priv.h"

#define LOG_TAIL_LINES 20

/* The line at @p (up to '\n', without '\r'), its length in *n; the next line in *next. */
static const char *line_at(const char *p, const char *end, size_t *n, const char **next)
{
	const char *nl = memchr(p, '\n', end - p);
	const char *e = nl ? nl : end;

	*next = nl ? nl + 1 : end;
	while (e > p && e[-1] == '\r')
		e--;
	*n = e - p;
	return p;
}

static bool line_is(const char *l, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(l, s, n);
}

/* A marker line; the kernel may have printed on the same line before it. */
static const char *find_marker(const char *p, const char *end, const char *marker)
{
	size_t ml = strlen(marker), n;
	const char *l, *next;

	while (p < end) {
		l = line_at(p, end, &n, &next);
		if (n >= ml && !memcmp(l + n - ml, marker, ml))
			return next;
		p = next;
	}
	return NULL;
}

/* A number at the start of @s (after blanks); false when there is none. */
static bool number(const char *s, size_t n, double *v, size_t *used)
{
	char tmp[64], *end;
	size_t i = 0, k;

	while (i < n && s[i] == ' ')
		i++;
	for (k = 0; i + k < n && k < sizeof(tmp) - 1 &&
		    ((s[i + k] >= '0' && s[i + k] <= '9') || s[i + k] == '.'); k++)
		tmp[k] = s[i + k];
	if (!k)
		return false;
	tmp[k] = 0;
	*v = strtod(tmp, &end);
	if (*end)
		return false;
	if (used)
		*used = i + k;
	return true;
}

static void meminfo_line(struct st_boot_figures *f, const char *l, size_t n, unsigned int *seen)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal:", offsetof(struct st_boot_figures, memtotal_kb) },
		{ "MemFree:", offsetof(struct st_boot_figures, memfree_kb) },
		{ "Slab:", offsetof(struct st_boot_figures, slab_kb) },
		{ "SReclaimable:", offsetof(struct st_boot_figures, sreclaimable_kb) },
		{ "SUnreclaim:", offsetof(struct st_boot_figures, sunreclaim_kb) },
	};
	size_t i, kl;
	double v;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		kl = strlen(keys[i].key);
		if (n > kl && !memcmp(l, keys[i].key, kl) && number(l + kl, n - kl, &v, NULL)) {
			*(double *)((char *)f + keys[i].off) = v;
			*seen |= 1u << i;
		}
	}
}

/* "name active num objsize perslab pagesperslab : tunables ... : slabdata active num ..." */
static int slabinfo_line(struct st_boot_figures *f, const char *l, size_t n)
{
	double v[5], slabs = 0;
	const char *p, *end = l + n, *sd;
	struct st_boot_cache *c;
	size_t k, used, nl;

	if (!n || *l == '#' || (n > 9 && !memcmp(l, "slabinfo ", 9)))
		return 0;
	for (nl = 0; nl < n && l[nl] != ' '; nl++)
		;
	p = l + nl;
	for (k = 0; k < 5; k++) {
		if (!number(p, end - p, &v[k], &used))
			return 0;
		p += used;
	}
	sd = NULL;
	for (; p + 10 <= end; p++)
		if (!memcmp(p, ": slabdata", 10)) {
			sd = p + 10;
			break;
		}
	if (!sd || !number(sd, end - sd, &slabs, &used) ||
	    !number(sd + used, end - sd - used, &slabs, NULL))
		return 0;
	c = realloc(f->caches, (f->ncaches + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	f->caches = c;
	c = &f->caches[f->ncaches];
	c->name = strndup(l, nl);
	if (!c->name)
		return -ENOMEM;
	f->ncaches++;
	c->objs = v[1];
	c->objsize = v[2];
	c->pagesperslab = v[4];
	c->slabs = slabs;
	c->kb = slabs * v[4] * 4;
	return 0;
}

static int by_kb(const void *a, const void *b)
{
	const struct st_boot_cache *x = a, *y = b;

	if (x->kb != y->kb)
		return x->kb < y->kb ? 1 : -1;
	return strcmp(x->name, y->name);
}

void st_boot_figures_free(struct st_boot_figures *f)
{
	size_t i;

	for (i = 0; i < f->ncaches; i++)
		free(f->caches[i].name);
	free(f->caches);
	memset(f, 0, sizeof(*f));
}

int st_boot_parse(const char *log, size_t len, struct st_boot_figures *f)
{
	const char *end = log + len, *p, *stop, *l, *next;
	enum { NONE, UPTIME, MEMINFO, SLABINFO } sect = NONE;
	unsigned int seen = 0;
	size_t n;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	p = find_marker(log, end, BOOT_BEGIN);
	if (!p)
		return -ENOENT;
	for (stop = p; stop < end; stop = next) {
		l = line_at(stop, end, &n, &next);
		if (line_is(l, n, BOOT_END))
			break;
	}
	if (stop >= end)
		return -EPIPE;
	for (; p < stop && !ret; p = next) {
		l = line_at(p, stop, &n, &next);
		if (n >= 4 && !memcmp(l, "--- ", 4)) {
			sect = line_is(l, n, "--- /proc/uptime") ? UPTIME :
			       line_is(l, n, "--- /proc/meminfo") ? MEMINFO :
			       line_is(l, n, "--- /proc/slabinfo") ? SLABINFO : NONE;
			if (line_is(l, n, "--- idle"))
				f->idle = true;
			if (sect == SLABINFO)
				f->has_slabinfo = true;
			continue;
		}
		if (sect == UPTIME)
			number(l, n, &f->uptime_s, NULL);
		else if (sect == MEMINFO)
			meminfo_line(f, l, n, &seen);
		else if (sect == SLABINFO)
			ret = slabinfo_line(f, l, n);
	}
	if (!ret && (seen & 0x6) != 0x6)
		ret = -EINVAL;
	if (ret) {
		st_boot_figures_free(f);
		return ret;
	}
	if (f->ncaches)
		qsort(f->caches, f->ncaches, sizeof(*f->caches), by_kb);
	return 0;
}

/* The last TAIL_LINES lines of @log, each indented. */

char *st_boot_log_tail(const char *log, size_t len)
{
	const char *p = log + len;
	int lines = 0;
	char *out, *d;

	while (p > log && (p[-1] == '\n' || p[-1] == '\r'))
		p--;
	len = p - log;
	while (p > log && lines < LOG_TAIL_LINES)
		if (*--p == '\n')
			lines++;
	if (*p == '\n')
		p++;
	out = malloc((log + len - p) * 2 + 8);
	if (!out)
		return NULL;
	d = out;
	*d++ = ' ';
	*d++ = ' ';
	*d++ = ' ';
	*d++ = ' ';
	for (; p < log + len; p++) {
		if (*p == '\r')
			continue;
		*d++ = (*p >= ' ' || *p == '\n' || *p == '\t') ? *p : '?';
		if (*p == '\n') {
			memcpy(d, "    ", 4);
			d += 4;
		}
	}
	*d = 0;
	return out;
}
