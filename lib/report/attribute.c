// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attribution: what one Kconfig option costs. For each option whose
 * resolved value differs between the baseline and another variant, the
 * baseline's defconfig gets that one option set the other way, Kconfig
 * resolves it (dependencies and selects apply, as with olddefconfig), and
 * the result is built and sized like any variant.
 *
 * Some options cannot move alone: SLUB_TINY and the prompt of SLUB_DEBUG
 * depend on EXPERT. When Kconfig keeps such an option, a second round
 * retries it together with one other toggle of the same target variant
 * (the cheapest first) and charges it the difference between the two
 * builds, so EXPERT's cost is not counted twice.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "build/build.h"
#include "common/error.h"
#include "common/fs.h"
#include "defconfig/defconfig.h"
#include "elf/elf.h"
#include "report/report.h"
#include "sizes/sections.h"

/* The value of @sym in a resolved .config: as written, "n" when unset or absent. */
static const char *value_of(const struct st_defconfig *dc, const char *sym)
{
	long i = st_defconfig_find(dc, sym);

	if (i < 0)
		return "n";
	return dc->lines[i].val;
}

/* A toggle to try: @sym set to @to in the baseline (with toggle @with too). */
struct toggle {
	char *sym;
	char *from, *to;
	char *towards;
	char *name;		/* variant name of the toggled build */
	char *defconfig;
	long with;		/* index of the enabling toggle, -1 */
	bool applied;
};

struct toggles {
	struct toggle *t;
	size_t n;
};

static void toggles_free(struct toggles *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++) {
		free(ts->t[i].sym);
		free(ts->t[i].from);
		free(ts->t[i].to);
		free(ts->t[i].towards);
		free(ts->t[i].name);
		free(ts->t[i].defconfig);
	}
	free(ts->t);
	ts->t = NULL;
	ts->n = 0;
}

static bool in_list(const char *list, const char *name)
{
	size_t l = strlen(name);
	const char *p;

	for (p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, l) && (p[l] == ',' || !p[l]))
			return true;
	return false;
}

/* Do two comma-separated variant lists share a name? */
static bool shares_target(const char *a, const char *b)
{
	char name[256];
	const char *p, *c;

	for (p = a; p && *p; p = c ? c + 1 : NULL) {
		c = strchr(p, ',');
		snprintf(name, sizeof(name), "%.*s", (int)(c ? (size_t)(c - p) : strlen(p)), p);
		if (in_list(b, name))
			return true;
	}
	return false;
}

static struct toggle *new_toggle(struct toggles *ts)
{
	struct toggle *t = realloc(ts->t, (ts->n + 1) * sizeof(*t));

	if (!t)
		return NULL;
	ts->t = t;
	t = &t[ts->n++];
	memset(t, 0, sizeof(*t));
	t->with = -1;
	return t;
}

/* Record that @variant has @sym=@to; one toggle per (sym, to). */
static int add_toggle(struct toggles *ts, const char *sym, const char *from, const char *to,
		      const char *variant)
{
	struct toggle *t;
	char *nt;
	size_t i;

	for (i = 0; i < ts->n; i++) {
		t = &ts->t[i];
		if (strcmp(t->sym, sym) || strcmp(t->to, to))
			continue;
		if (in_list(t->towards, variant))
			return 0;
		if (asprintf(&nt, "%s,%s", t->towards, variant) < 0)
			return -ENOMEM;
		free(t->towards);
		t->towards = nt;
		return 0;
	}
	t = new_toggle(ts);
	if (!t)
		return -ENOMEM;
	t->sym = strdup(sym);
	t->from = strdup(from);
	t->to = strdup(to);
	t->towards = strdup(variant);
	return t->sym && t->from && t->to && t->towards ? 0 : -ENOMEM;
}

/* Options of @other that differ from @base, in either file. */
static int diff_configs(struct toggles *ts, const struct st_defconfig *base,
			const struct st_defconfig *other, const char *variant)
{
	const struct st_defconfig *pass[2] = { base, other };
	size_t p, i;
	int ret;

	for (p = 0; p < 2; p++) {
		for (i = 0; i < pass[p]->nr_lines; i++) {
			const char *sym = pass[p]->lines[i].sym;
			const char *from, *to;

			if (!sym)
				continue;
			from = value_of(base, sym);
			to = value_of(other, sym);
			if (!strcmp(from, to))
				continue;
			ret = add_toggle(ts, sym, from, to, variant);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static const char *config_of(const struct st_build_result *b, const char *variant)
{
	size_t i;

	for (i = 0; i < b->nunits; i++)
		if (!strcmp(b->units[i].variant, variant))
			return b->units[i].config;
	return NULL;
}

static const struct st_build_unit *unit_of(const struct st_build_result *b, const char *variant,
					   const char *arch)
{
	size_t i;

	for (i = 0; b && i < b->nunits; i++)
		if (!strcmp(b->units[i].variant, variant) && !strcmp(b->units[i].arch, arch))
			return &b->units[i];
	return NULL;
}

static const char *defconfig_of(const struct st_build_opts *o, const char *variant,
				char *buf, size_t len)
{
	size_t i;

	for (i = 0; o->variants && i < o->nvariants; i++)
		if (!strcmp(o->variants[i].name, variant))
			return o->variants[i].defconfig;
	snprintf(buf, len, "%s/defconfigs/%s_defconfig", o->datadir, variant);
	return buf;
}

static int set_line(struct st_defconfig *dc, const struct toggle *t)
{
	char line[512];
	long i;

	if (!strcmp(t->to, "n"))
		snprintf(line, sizeof(line), "# CONFIG_%s is not set", t->sym);
	else
		snprintf(line, sizeof(line), "CONFIG_%s=%s", t->sym, t->to);
	i = st_defconfig_find(dc, t->sym);
	return i >= 0 ? st_defconfig_replace(dc, i, line)
		      : st_defconfig_insert(dc, dc->nr_lines, line);
}

/*
 * The baseline's defconfig with @t's option set (and its enabler's),
 * edited through lib/defconfig and written as a new file in our build dir
 * (a build input, not an edit of a user file).
 */
static int write_toggled(const char *base_def, struct toggle *t, const struct toggles *ts,
			 const char *dir, const char *baseline, struct st_error *e)
{
	const struct toggle *w = t->with >= 0 ? &ts->t[t->with] : NULL;
	struct st_defconfig *dc;
	char *text, fname[512];
	size_t len;
	int ret;

	ret = st_defconfig_load(&dc, base_def, e);
	if (ret)
		return ret;
	ret = set_line(dc, t);
	if (!ret && w)
		ret = set_line(dc, w);
	if (!ret)
		ret = st_defconfig_render(dc, &text, &len);
	st_defconfig_free(dc);
	if (ret)
		return st_err(e, ret, base_def, "%s", strerror(-ret));
	free(t->name);
	free(t->defconfig);
	if (w)
		snprintf(fname, sizeof(fname), "%s+%s=%s+%s=%s", baseline, t->sym, t->to, w->sym,
			 w->to);
	else
		snprintf(fname, sizeof(fname), "%s+%s=%s", baseline, t->sym, t->to);
	t->name = strdup(fname);
	if (asprintf(&t->defconfig, "%s/%s_defconfig", dir, fname) < 0)
		t->defconfig = NULL;
	if (!t->name || !t->defconfig) {
		free(text);
		return st_err(e, ENOMEM, NULL, "out of memory");
	}
	/* in the build dir: never through a name someone planted there */
	ret = st_write_file(t->defconfig, text, len, 0666);
	free(text);
	if (ret)
		return st_err(e, -ret, t->defconfig, "%s", strerror(-ret));
	return 0;
}

static int find_toggles(struct toggles *ts, const struct st_report *r,
			const struct st_build_result *b, struct st_error *e)
{
	struct st_defconfig *base = NULL, *other;
	const char *path = config_of(b, r->baseline);
	size_t v;
	int ret;

	if (!path)
		return st_err(e, ENOENT, NULL, "baseline '%s' was not built", r->baseline);
	ret = st_defconfig_load(&base, path, e);
	for (v = 1; !ret && v < r->nvariants; v++) {
		path = config_of(b, r->variants[v]);
		if (!path)
			continue;
		ret = st_defconfig_load(&other, path, e);
		if (ret)
			break;
		ret = diff_configs(ts, base, other, r->variants[v]);
		st_defconfig_free(other);
		if (ret)
			st_err(e, ret, NULL, "out of memory");
	}
	st_defconfig_free(base);
	return ret;
}

/* Does the resolved @config give @t's option the value asked for? */
static bool took_effect(const char *config, const struct toggle *t)
{
	struct st_defconfig *dc;
	bool ok;

	if (!config || st_defconfig_load(&dc, config, NULL))
		return false;
	ok = !strcmp(value_of(dc, t->sym), t->to);
	st_defconfig_free(dc);
	return ok;
}

/* Other options whose values the toggle changed, comma-separated. */
static char *side_effects(const char *base_cfg, const char *cfg, const char *sym,
			  const char *with)
{
	struct st_defconfig *a = NULL, *b = NULL;
	char *out = strdup(""), *n;
	size_t i;

	if (!out || !base_cfg || !cfg || st_defconfig_load(&a, base_cfg, NULL) ||
	    st_defconfig_load(&b, cfg, NULL))
		goto out;
	/* Symbols in either file: an option that became invisible is not written. */
	for (i = 0; i < a->nr_lines + b->nr_lines; i++) {
		const char *s = i < b->nr_lines ? b->lines[i].sym : a->lines[i - b->nr_lines].sym;

		if (!s || !strcmp(s, sym) || (with && !strcmp(s, with)) ||
		    !strcmp(value_of(a, s), value_of(b, s)))
			continue;
		if (i >= b->nr_lines && st_defconfig_find(b, s) >= 0)
			continue;
		if (asprintf(&n, "%s%s%s=%s", out, *out ? "," : "", s, value_of(b, s)) < 0)
			break;
		free(out);
		out = n;
	}
out:
	st_defconfig_free(a);
	st_defconfig_free(b);
	return out;
}

static int size_of(const char *path, uint64_t v[3], struct st_error *e)
{
	struct st_elf_file *f;
	struct st_size_result sr;
	int ret;

	ret = st_elf_open(&f, path, e);
	if (ret)
		return ret;
	memset(&sr, 0, sizeof(sr));
	ret = st_size_compute(&f, 1, &sr, e);
	if (!ret) {
		v[0] = sr.text;
		v[1] = sr.data;
		v[2] = sr.bss;
		st_size_free(&sr);
	}
	st_elf_close(f);
	return ret;
}

/* The state of both rounds. */
struct attribution {
	struct st_report *r;
	const struct st_build_opts *o;
	const struct st_build_result *b;	/* the report's build */
	struct toggles ts;
	struct st_build_result *res[2];		/* round 1: single toggles; round 2: pairs */
	char dir[PATH_MAX];
	const char *base_def;
	const char *const *arches;		/* where to measure: report arches */
	size_t narches;
};

/* Build the toggles [from, ts.n) as variants on the report's arches. */
static int build_round(struct attribution *at, size_t from, int round, struct st_error *e)
{
	struct st_build_opts ao = *at->o;
	struct st_variant *vars;
	size_t i, n = at->ts.n - from;
	int ret;

	if (!n)
		return 0;
	vars = calloc(n, sizeof(*vars));
	if (!vars)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; i < n; i++) {
		vars[i].name = at->ts.t[from + i].name;
		vars[i].defconfig = at->ts.t[from + i].defconfig;
	}
	ao.variants = vars;
	ao.nvariants = n;
	ao.arches = at->arches;
	ao.narches = at->narches;
	ret = st_build_run(&ao, &at->res[round], e);
	free(vars);
	if (ret)
		return ret;
	for (i = from; i < at->ts.n; i++) {
		struct toggle *t = &at->ts.t[i];

		t->applied = took_effect(config_of(at->res[round], t->name), t);
	}
	return 0;
}

/* Text cost of toggle @i alone on the first arch, for ordering enablers. */
static uint64_t alone_cost(const struct attribution *at, size_t i)
{
	const struct st_build_unit *u = unit_of(at->res[0], at->ts.t[i].name, at->arches[0]);
	uint64_t sz[3];

	if (!u || !u->ok || size_of(u->object, sz, NULL))
		return UINT64_MAX;
	return sz[0] + sz[1] + sz[2];
}

/*
 * For a toggle Kconfig kept, find one applied toggle of the same target
 * variant that lets it take effect: resolve the pair (no build), cheapest
 * enabler first. Adds the pair as a new toggle. Returns 0 also when none
 * is found.
 */
static int find_enabler(struct attribution *at, size_t x, struct st_error *e)
{
	size_t n1 = at->ts.n, i, best;
	uint64_t *cost = calloc(n1, sizeof(*cost));
	bool *tried = calloc(n1, sizeof(*tried));
	char hdr[PATH_MAX + 16], cfg[PATH_MAX + 16];
	struct toggle *p;
	int ret = 0;

	if (!cost || !tried) {
		ret = st_err(e, ENOMEM, NULL, "out of memory");
		goto out;
	}
	for (i = 0; i < n1; i++)
		cost[i] = alone_cost(at, i);
	for (;;) {
		struct toggle *t = &at->ts.t[x], *y;

		best = n1;
		for (i = 0; i < n1; i++) {
			y = &at->ts.t[i];
			if (i == x || tried[i] || !y->applied || y->with >= 0 ||
			    !strcmp(y->sym, t->sym))
				continue;
			if (!shares_target(y->towards, t->towards))
				continue;
			if (best == n1 || cost[i] < cost[best])
				best = i;
		}
		if (best == n1)
			break;
		tried[best] = true;
		p = new_toggle(&at->ts);
		if (!p) {
			ret = st_err(e, ENOMEM, NULL, "out of memory");
			break;
		}
		t = &at->ts.t[x];
		p->sym = strdup(t->sym);
		p->from = strdup(t->from);
		p->to = strdup(t->to);
		p->towards = strdup(t->towards);
		p->with = (long)best;
		if (!p->sym || !p->from || !p->to || !p->towards) {
			ret = st_err(e, ENOMEM, NULL, "out of memory");
			break;
		}
		ret = write_toggled(at->base_def, p, &at->ts, at->dir, at->r->baseline, e);
		if (ret)
			break;
		snprintf(hdr, sizeof(hdr), "%s.h", p->defconfig);
		snprintf(cfg, sizeof(cfg), "%s.config", p->defconfig);
		ret = st_build_resolve(at->o->datadir, at->o->python, p->defconfig, hdr, cfg, e);
		if (ret)
			break;
		if (took_effect(cfg, p))
			break;
		/* Not this one: drop the pair and try the next enabler. */
		at->ts.n--;
		free(p->sym);
		free(p->from);
		free(p->to);
		free(p->towards);
		free(p->name);
		free(p->defconfig);
	}
out:
	free(cost);
	free(tried);
	return ret;
}

/* The attribution row of toggle @t on @arch. */
static int fill_attr(struct attribution *at, struct st_report_attr *a, const struct toggle *t,
		     const char *arch, struct st_error *e)
{
	const struct toggle *w = t->with >= 0 ? &at->ts.t[t->with] : NULL;
	const struct st_build_unit *u = unit_of(at->res[w ? 1 : 0], t->name, arch);
	const struct st_build_unit *base_u = w ? unit_of(at->res[0], w->name, arch)
					       : unit_of(at->b, at->r->baseline, arch);
	struct st_defconfig *dc = NULL;
	uint64_t sz[3], bz[3];
	int ret;

	a->option = strdup(t->sym);
	a->from = strdup(t->from);
	a->to = strdup(t->to);
	a->towards = strdup(t->towards);
	a->arch = strdup(arch);
	if (w && asprintf(&a->with, "%s=%s", w->sym, w->to) < 0)
		a->with = NULL;
	if (!a->option || !a->from || !a->to || !a->towards || !a->arch || (w && !a->with))
		return st_err(e, ENOMEM, NULL, "out of memory");
	a->applied = t->applied;
	if (u && !st_defconfig_load(&dc, u->config, NULL)) {
		a->resolved = strdup(value_of(dc, t->sym));
		st_defconfig_free(dc);
	}
	if (u && base_u)
		a->changed = side_effects(base_u->config, u->config, t->sym, w ? w->sym : NULL);
	if (!u || !u->ok || !base_u || !base_u->ok) {
		a->error = strdup(u && !u->ok ? u->error : "reference not built on this arch");
		return 0;
	}
	ret = size_of(u->object, sz, e);
	if (!ret)
		ret = size_of(base_u->object, bz, e);
	if (ret)
		return ret;
	a->built = true;
	a->text = (int64_t)(sz[0] - bz[0]);
	a->data = (int64_t)(sz[1] - bz[1]);
	a->bss = (int64_t)(sz[2] - bz[2]);
	a->total = a->text + a->data + a->bss;
	return 0;
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

/* Per arch (in the report's order, compared by index), largest |total| first. */
static const struct st_report *rank_report;

static long arch_index(const char *arch)
{
	size_t a;

	for (a = 0; a < rank_report->narches; a++)
		if (!strcmp(rank_report->arches[a], arch))
			return (long)a;
	return -1;
}

static int cmp_attr(const void *pa, const void *pb)
{
	const struct st_report_attr *a = pa, *b = pb;
	long ia = arch_index(a->arch), ib = arch_index(b->arch);

	if (ia != ib)
		return ia < ib ? -1 : 1;
	if (a->built != b->built)
		return a->built ? -1 : 1;
	if (a->applied != b->applied)
		return a->applied ? -1 : 1;
	if (abs64(a->total) != abs64(b->total))
		return abs64(a->total) > abs64(b->total) ? -1 : 1;
	return strcmp(a->option, b->option);
}

/*
 * One row per (toggle, arch): a toggle that took effect alone, or the pair
 * that made a kept one take effect; a toggle Kconfig kept even in a pair is
 * shown once, as kept.
 */
static int collect(struct attribution *at, struct st_error *e)
{
	struct st_report *r = at->r;
	size_t i, k, a;
	int ret = 0;

	r->attrs = calloc(at->ts.n * at->narches + 1, sizeof(*r->attrs));
	if (!r->attrs)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; i < at->ts.n && !ret; i++) {
		const struct toggle *t = &at->ts.t[i];
		bool paired = false;

		if (t->with >= 0 && !t->applied)
			continue;
		if (t->with < 0 && !t->applied) {
			for (k = 0; k < at->ts.n; k++)
				if (at->ts.t[k].with >= 0 && at->ts.t[k].applied &&
				    !strcmp(at->ts.t[k].sym, t->sym) && !strcmp(at->ts.t[k].to, t->to))
					paired = true;
			if (paired)
				continue;
		}
		for (a = 0; a < at->narches && !ret; a++)
			ret = fill_attr(at, &r->attrs[r->nattrs++], t, at->arches[a], e);
	}
	if (ret)
		return ret;
	rank_report = r;
	qsort(r->attrs, r->nattrs, sizeof(*r->attrs), cmp_attr);
	rank_report = NULL;
	return 0;
}

int st_report_attribute(struct st_report *r, const struct st_build_opts *o,
			const struct st_build_result *b, const char *const *arches,
			size_t narches, struct st_error *e)
{
	struct attribution at = { .r = r, .b = b };
	char buf[PATH_MAX], datadir[PATH_MAX], builddir[PATH_MAX];
	struct st_build_opts ro = *o;
	size_t i, n1;
	int ret;

	if (r->objects)
		return st_err(e, EINVAL, NULL, "attribution needs variants built from defconfigs");
	if (!r->narches)
		return 0;
	at.arches = arches && narches ? arches : (const char *const *)r->arches;
	at.narches = arches && narches ? narches : r->narches;
	for (i = 0; i < at.narches; i++) {
		size_t a;

		for (a = 0; a < r->narches; a++)
			if (!strcmp(r->arches[a], at.arches[i]))
				break;
		if (a == r->narches)
			return st_err(e, EINVAL, NULL, "arch '%s' is not in the report", at.arches[i]);
	}
	/* The same defaults as st_build_run(): paths are needed here too. */
	if (!ro.datadir) {
		ret = st_build_datadir(datadir, sizeof(datadir), e);
		if (ret)
			return ret;
		ro.datadir = datadir;
	}
	if (!ro.builddir) {
		ret = st_build_default_dir(builddir, sizeof(builddir), NULL, 0, e);
		if (ret)
			return ret;
		ro.builddir = builddir;
	}
	o = &ro;
	at.o = o;
	at.base_def = defconfig_of(o, r->baseline, buf, sizeof(buf));
	snprintf(at.dir, sizeof(at.dir), "%s/attribute", o->builddir);
	if (mkdir(at.dir, 0777) && errno != EEXIST)
		return st_err(e, errno, at.dir, "%s", strerror(errno));
	ret = find_toggles(&at.ts, r, b, e);
	for (i = 0; !ret && i < at.ts.n; i++)
		ret = write_toggled(at.base_def, &at.ts.t[i], &at.ts, at.dir, r->baseline, e);
	if (!ret)
		ret = build_round(&at, 0, 0, e);
	n1 = at.ts.n;
	for (i = 0; !ret && i < n1; i++)
		if (!at.ts.t[i].applied)
			ret = find_enabler(&at, i, e);
	if (!ret)
		ret = build_round(&at, n1, 1, e);
	if (!ret)
		ret = collect(&at, e);
	st_build_result_free(at.res[0]);
	st_build_result_free(at.res[1]);
	toggles_free(&at.ts);
	return ret;
}
