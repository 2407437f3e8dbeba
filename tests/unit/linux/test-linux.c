// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/linux: the version parser's edges, the release list
 * and the slab Kconfig history's invariants, and both held to the bundled
 * models under $ST_SRCDIR/kconfig/models/. TAP output.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux/linux.h"
#include "linux/slab_history.h"

#include "../../tap.h"

static bool same(struct st_kver a, struct st_kver b)
{
	return !st_kver_cmp(a, b);
}

static void parse_ok(const char *s, int major, int minor)
{
	struct st_kver v = { 0, 0 };

	ok(!st_kver_parse(s, &v) && v.major == major && v.minor == minor,
	   "parse \"%s\" = %d.%d", s, major, minor);
}

static void parse_bad(const char *s)
{
	struct st_kver v = { 42, 42 };

	ok(st_kver_parse(s, &v) == -EINVAL && v.major == 42 && v.minor == 42,
	   "parse \"%s\" = -EINVAL, nothing written", s);
}

static void test_parse(void)
{
	parse_ok("6.2", 6, 2);
	parse_ok("v6.12", 6, 12);
	parse_ok("6.1.0-rc3", 6, 1);
	parse_ok("6.12-rc1", 6, 12);
	parse_ok("6.12.57", 6, 12);
	parse_ok("7.0", 7, 0);
	parse_ok("6.01", 6, 1);
	parse_ok("99.999", 99, 999);
	parse_bad("");
	parse_bad("v");
	parse_bad("6");
	parse_bad("6.");
	parse_bad(".6");
	parse_bad("vv6.1");
	parse_bad("x6.1");
	parse_bad("6.1x");
	parse_bad("6.1 ");
	parse_bad(" 6.1");
	parse_bad("6.-1");
	parse_bad("1.0");
	parse_bad("100.1");
	parse_bad("6.1000");
	parse_bad("linux-6.1");
}

static void test_cmp(void)
{
	struct st_kver a = { 6, 9 }, b = { 6, 10 }, c = { 7, 0 };

	ok(st_kver_cmp(a, b) < 0 && st_kver_cmp(b, a) > 0 && !st_kver_cmp(a, a),
	   "6.9 < 6.10: minor numbers compare as numbers");
	ok(st_kver_cmp(b, c) < 0, "6.10 < 7.0");
	ok(st_kver_between(b, a, c) && st_kver_between(a, a, c) && st_kver_between(c, a, c) &&
	   !st_kver_between(a, b, c), "between includes both ends");
}

static void test_releases(void)
{
	const struct st_release *model = NULL;
	bool sorted = true;
	size_t i;

	ok(st_nr_releases > 0, "there are releases");
	for (i = 1; i < st_nr_releases; i++)
		if (st_kver_cmp(st_releases[i - 1].v, st_releases[i].v) >= 0)
			sorted = false;
	ok(sorted, "releases are sorted and unique");
	for (i = 0; i < st_nr_releases && !model; i++)
		if (st_releases[i].model)
			model = &st_releases[i];
	ok(model == &st_releases[0], "the first release has a model");
	ok(same(st_kver_oldest_model, st_releases[0].v), "st_kver_oldest_model is the first release");
	ok(same(st_kver_newest, st_releases[st_nr_releases - 1].v),
	   "st_kver_newest is the last release");
}

static const struct st_release *release(struct st_kver v)
{
	size_t i;

	for (i = 0; i < st_nr_releases; i++)
		if (same(st_releases[i].v, v))
			return &st_releases[i];
	return NULL;
}

/* @v is {0, 0} (not in the history) or a release slubtiny knows. */
static bool known_or_none(struct st_kver v)
{
	return !v.major || release(v);
}

static void test_row(const struct st_slab_sym *s)
{
	const struct st_slab_sym *to;

	ok(st_slab_sym(s->name) == s, "%s: found by its name", s->name);
	ok(known_or_none(s->added) && known_or_none(s->removed) && known_or_none(s->renamed) &&
	   known_or_none(s->forced) && known_or_none(s->changed) &&
	   known_or_none(s->gap_from) && known_or_none(s->gap_until),
	   "%s: every version is a release of oldest..newest", s->name);
	ok(!s->added.major || !s->removed.major || st_kver_cmp(s->added, s->removed) < 0,
	   "%s: removed after added", s->name);
	ok(!s->renamed.major == !s->new_name && !s->forced.major == !s->forced_val &&
	   !s->changed.major == !s->change && !s->gap_dep == !s->gap_from.major &&
	   !s->gap_dep == !s->gap_until.major,
	   "%s: each version has its text and each text its version", s->name);
	if (s->gap_dep)
		ok(st_kver_cmp(s->gap_from, s->gap_until) < 0, "%s: the gap ends after it starts",
		   s->name);
	if (!s->renamed.major)
		return;
	to = st_slab_sym(s->new_name);
	ok(to && same(to->added, s->renamed) && st_kver_cmp(s->added, s->renamed) < 0,
	   "%s: renamed to %s when that was added", s->name, s->new_name);
	ok(st_slab_sym_exists(s, s->renamed) && !st_slab_sym_settable(s, s->renamed),
	   "%s: a transitional name exists, but is not settable", s->name);
}

static void test_history(void)
{
	struct st_kver v62 = { 6, 2 }, v64 = { 6, 4 }, v613 = { 6, 13 }, v615 = { 6, 15 };
	const struct st_slab_sym *tiny = st_slab_sym("SLUB_TINY");
	bool sorted = true;
	size_t i;

	for (i = 0; i < ST_SLAB_NR; i++)
		ok(st_slab_syms[i].name != NULL, "row %zu has a name", i);
	for (i = 1; i < ST_SLAB_NR; i++)
		if (strcmp(st_slab_syms[i - 1].name, st_slab_syms[i].name) >= 0)
			sorted = false;
	ok(sorted, "rows are sorted by name and unique");
	for (i = 0; i < ST_SLAB_NR; i++)
		test_row(&st_slab_syms[i]);
	ok(!st_slab_sym("SLUB_DEBUG") && !st_slab_sym("CONFIG_SLOB") && !st_slab_sym(""),
	   "names not in the table (and CONFIG_ prefixed ones) are not found");
	ok(same(st_slab_when((struct st_slab_when){ ST_SLAB_SLOB, ST_SLAB_REMOVED }), v64),
	   "SLOB was removed in 6.4");
	ok(!st_slab_since(st_kver_newest, ST_SLAB_SLUB_TINY, ST_SLAB_REMOVED),
	   "a moment that never came is never reached");
	ok(st_slab_sym_exists(st_slab_sym("SLOB_DEPRECATED"), v62) &&
	   !st_slab_sym_exists(st_slab_sym("SLOB_DEPRECATED"), v64) &&
	   !st_slab_sym_exists(st_slab_sym("SLUB_TINY"), st_kver_oldest_model) &&
	   st_slab_sym_exists(st_slab_sym("SLUB"), st_kver_newest),
	   "exists: [added, removed)");
	ok(tiny && st_slab_dep_holds(tiny, v62) && !st_slab_dep_holds(tiny, v613) &&
	   st_slab_dep_holds(tiny, v615), "SLUB_TINY: !COMPILE_TEST but in 6.13 and 6.14");
}

/* The names after each "# slubtiny-removed:" of @kconfig, and whether it defines @sym. */
static int read_model(const char *kconfig, const char *sym, char *removed, size_t size,
		      bool *defines)
{
	char line[512], want[128];
	FILE *f = fopen(kconfig, "r");
	size_t len = 0;

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), "config %s\n", sym);
	removed[0] = '\0';
	*defines = false;
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, want) || (!strncmp(line, "menu", 4) && !strcmp(line + 4, want)))
			*defines = true;
		if (!strncmp(line, "# slubtiny-removed:", 19) && len < size)
			len += snprintf(removed + len, size - len, "%s", line + 19);
	}
	fclose(f);
	return 0;
}

/* Is @sym a word of the space-separated list @list? */
static bool word_of(const char *list, const char *sym)
{
	size_t n = strlen(sym);
	const char *p;

	for (p = strstr(list, sym); p; p = strstr(p + 1, sym))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The model of release @v says what the history says of every row. */
static void test_model(const char *dir, const char *name, struct st_kver v)
{
	char path[4096], removed[2048];
	bool defines = false, agree = true;
	size_t i;

	if (snprintf(path, sizeof(path), "%s/%s/Kconfig", dir, name) >= (int)sizeof(path)) {
		ok(0, "model %s: path too long", name);
		return;
	}
	for (i = 0; i < ST_SLAB_NR; i++) {
		const struct st_slab_sym *s = &st_slab_syms[i];

		if (read_model(path, s->name, removed, sizeof(removed), &defines)) {
			ok(0, "model %s: read %s", name, path);
			return;
		}
		if ((defines && !st_slab_sym_exists(s, v)) ||
		    (word_of(removed, s->name) && st_slab_sym_exists(s, v))) {
			printf("# model %s: %s %s\n", name, s->name,
			       defines ? "defined" : "listed as removed");
			agree = false;
		}
	}
	ok(agree, "model %s: its symbols and slubtiny-removed list agree with the history",
	   name);
}

static void test_models(void)
{
	const char *src = getenv("ST_SRCDIR");
	char dir[4096];
	struct dirent *d;
	size_t nr = 0, nr_model = 0, i;
	struct st_kver newest = { 0, 0 }, newest_model = { 0, 0 };
	DIR *dp;

	if (!src) {
		printf("# ST_SRCDIR not set: the models are not checked\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/kconfig/models", src);
	dp = opendir(dir);
	ok(dp != NULL, "open %s", dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		const struct st_release *r;
		struct st_kver v;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		nr++;
		r = st_kver_parse(d->d_name, &v) ? NULL : release(v);
		ok(r && r->model, "model %s is a release with a model", d->d_name);
		if (!r)
			continue;
		if (st_kver_cmp(v, newest) > 0)
			newest = v;
		test_model(dir, d->d_name, v);
	}
	closedir(dp);
	for (i = 0; i < st_nr_releases; i++)
		if (st_releases[i].model) {
			nr_model++;
			newest_model = st_releases[i].v;
		}
	ok(nr == nr_model, "every release with a model has its directory (%zu, %zu)", nr,
	   nr_model);
	ok(same(newest, newest_model) && st_kver_cmp(newest, st_kver_newest) <= 0,
	   "the newest model %d.%d is the last release with one, at most st_kver_newest",
	   newest.major, newest.minor);
}

int main(void)
{
	test_parse();
	test_cmp();
	test_releases();
	test_history();
	test_models();
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
