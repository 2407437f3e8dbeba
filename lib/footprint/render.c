// SPDX-License-Identifier: GPL-2.0-only
/*
 * Renderers of a footprint report: text, JSON (cJSON tree), SVG. They print
 * the numbers of the report and compute nothing but unit conversions and
 * chart coordinates.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <string.h>

#include "common/array.h"
#include "common/fs.h"
#include "common/json.h"
#include "common/str.h"
#include "footprint/footprint.h"
#include "st_config.h"

/* The traces of the report, in first-run order: index of each first run. */
static size_t traces(const struct st_fp_report *r, size_t *first, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < r->nr_runs && n < max; i++) {
		for (k = 0; k < n; k++) {
			if (!strcmp(r->runs[first[k]].trace, r->runs[i].trace))
				break;
		}
		if (k == n)
			first[n++] = i;
	}
	return n;
}

/* The widest of @min and the trace (@variant false) or variant names of the runs. */
static int name_width(const struct st_fp_report *r, bool variant, int min)
{
	size_t i;
	int w = min, n;

	for (i = 0; i < r->nr_runs; i++) {
		n = (int)strlen(variant ? r->runs[i].variant : r->runs[i].trace);
		if (n > w)
			w = n;
	}
	return w;
}

/* The short table: one row per trace and variant, the key figures. */
static void text_table(const struct st_fp_report *r, FILE *f)
{
	int tw = name_width(r, false, 5), vw = name_width(r, true, 7);
	const struct st_fp_run *x;
	bool rss = false;
	size_t i;

	fprintf(f, "%-*s  %-*s %3s %8s %9s %10s %7s %11s %5s\n", tw, "trace", vw, "variant",
		"thr", "peak pg", "final pg", "req kB", "Mops/s", "Mops/cpu-s", "leak");
	for (i = 0; i < r->nr_runs; i++) {
		x = &r->runs[i];
		fprintf(f, "%-*s  %-*s %3u %8.0f %9.0f %10.1f %7.2f %11.2f %5.0f%s\n", tw, x->trace,
			vw, x->variant, x->threads, x->peak_pages, x->final_pages,
			x->requested_bytes / 1024, x->ops_per_s / 1e6, x->ops_per_cpu_s / 1e6,
			x->leak_pages, x->rss ? " *" : "");
		rss |= x->rss;
	}
	if (rss)
		fprintf(f, "* pages: the process's RSS growth, not the allocator's counters\n");
}

/* Every run of @trace with all its figures (-v). */
static void text_runs(const struct st_fp_report *r, const char *trace, FILE *f)
{
	const struct st_fp_run *x;
	size_t i;

	fprintf(f, "  %-10s %7s %8s %8s %8s %12s %10s %12s %12s %5s %6s\n", "variant",
		"threads", "peak pg", "final pg", "slab pg", "requested kB", "held kB",
		"ops/s", "ops/cpu-s", "leak", "/1T");
	for (i = 0; i < r->nr_runs; i++) {
		x = &r->runs[i];
		if (strcmp(x->trace, trace))
			continue;
		fprintf(f, "  %-10s %7u %8.0f %8.0f %8.0f %12.1f %10.1f %12.0f %12.0f %5.0f",
			x->variant, x->threads, x->peak_pages, x->final_pages,
			x->final_slab_pages, x->requested_bytes / 1024, x->held_bytes / 1024,
			x->ops_per_s, x->ops_per_cpu_s, x->leak_pages);
		if (x->scaling)
			fprintf(f, " %6.2f", x->scaling);
		else
			fprintf(f, " %6s", "-");
		fprintf(f, "%s\n", x->rss ? "  (pages: RSS delta)" : "");
	}
}

/* Class @name of @x at its peak, or NULL. */
static const struct st_fp_class *find_class(const struct st_fp_run *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->nr_classes; i++) {
		if (!strcmp(x->classes[i].name, name))
			return &x->classes[i];
	}
	return NULL;
}

/* Per size class at the peak: requested, and what each variant gave. */
static void text_classes(const struct st_fp_report *r, size_t first, FILE *f)
{
	const struct st_fp_run *ref = &r->runs[first], *x;
	const struct st_fp_class *c;
	size_t i, k;

	fprintf(f, "  size classes at %s's peak: requested kB, then usable kB (ksize) per variant\n",
		ref->variant);
	fprintf(f, "  %-24s %8s %12s", "class", "objects", "requested");
	for (i = first; i < r->nr_runs; i++) {
		if (!strcmp(r->runs[i].trace, ref->trace))
			fprintf(f, " %10s", r->runs[i].variant);
	}
	fputc('\n', f);
	for (k = 0; k < ref->nr_classes; k++) {
		fprintf(f, "  %-24s %8.0f %12.1f", ref->classes[k].name, ref->classes[k].objects,
			ref->classes[k].requested / 1024);
		for (i = first; i < r->nr_runs; i++) {
			x = &r->runs[i];
			if (strcmp(x->trace, ref->trace))
				continue;
			c = find_class(x, ref->classes[k].name);
			if (c)
				fprintf(f, " %10.1f", c->usable / 1024);
			else
				fprintf(f, " %10s", "-");
		}
		fputc('\n', f);
	}
}

/* Slabs per cache at the end of the trace, per variant (slab variants). */
static void text_caches(const struct st_fp_report *r, size_t first, FILE *f)
{
	const struct st_fp_run *x;
	const struct st_fp_cache *c;
	size_t i, k;

	fprintf(f, "  page blocks per order at the end (order:blocks):\n");
	for (i = first; i < r->nr_runs; i++) {
		x = &r->runs[i];
		if (strcmp(x->trace, r->runs[first].trace) || !x->nr_orders)
			continue;
		fprintf(f, "    %-10s", x->variant);
		for (k = 0; k < x->nr_orders; k++) {
			if (x->blocks[k])
				fprintf(f, " %zu:%.0f", k, x->blocks[k]);
		}
		fputc('\n', f);
	}
	fprintf(f, "  slabs per cache at the end (order; * = merged):\n");
	for (i = first; i < r->nr_runs; i++) {
		x = &r->runs[i];
		if (strcmp(x->trace, r->runs[first].trace) || !x->nr_caches)
			continue;
		fprintf(f, "    %-10s", x->variant);
		for (k = 0; k < x->nr_caches; k++) {
			c = &x->caches[k];
			fprintf(f, " %s=%.0f(o%.0f)%s", c->name, c->slabs, c->order,
				c->merged ? "*" : "");
		}
		fputc('\n', f);
	}
}

/* One ratio: what, the variants, its value, the booted kernel's, the verdict. */
static void text_ratio(const struct st_fp_ratio *x, int tw, FILE *f)
{
	fprintf(f, "  %-*s  %-13s %s/%s = %.3f", tw, x->trace, x->what, x->num, x->den, x->value);
	if (x->kernel)
		fprintf(f, "  (booted kernel's Slab: %.3f)", x->kernel);
	if (x->expect)
		fprintf(f, "  expected %s: %s", x->expect, x->holds ? "yes" : "NO");
	fputc('\n', f);
}

/* The ratios: with @all every one, else those with an expectation. */
static void text_ratios(const struct st_fp_report *r, bool all, FILE *f)
{
	int tw = name_width(r, false, 5);
	size_t i, n = 0;

	for (i = 0; i < r->nr_ratios; i++) {
		if (!all && !r->ratios[i].expect)
			continue;
		if (!n++)
			fprintf(f, "\n%s\n", all ? "ratios:" :
				"expected page ratios (exit 1 when one does not hold):");
		text_ratio(&r->ratios[i], tw, f);
	}
}

/* The ratio @what of @num over @den on @trace, or NULL. */
static const struct st_fp_ratio *find_ratio(const struct st_fp_report *r, const char *trace,
					    const char *what, const char *num,
					    const char *den)
{
	return st_fp_ratio_find(r, 0, trace, what, num, den);
}

/* The run of @variant on @trace, from run @from on, or NULL. */
static const struct st_fp_run *find_run(const struct st_fp_report *r, size_t from,
					const char *trace, const char *variant)
{
	for (; from < r->nr_runs; from++) {
		if (!strcmp(r->runs[from].trace, trace) && !strcmp(r->runs[from].variant, variant))
			return &r->runs[from];
	}
	return NULL;
}

#define VS_BASE		"slub_tiny"
#define VS_CELL		13	/* "%5.2fx %5.2fx" */

/*
 * The variants compared with VS_BASE, in run order, into @v (at most @max);
 * *rss: whether each one's pages are an RSS delta.
 */
static size_t vs_variants(const struct st_fp_report *r, const char **v, bool *rss, size_t max)
{
	const struct st_fp_run *x;
	size_t i, k, n = 0;

	for (i = 0; i < r->nr_runs; i++) {
		x = &r->runs[i];
		if (!find_ratio(r, x->trace, "peak_pages", x->variant, VS_BASE) &&
		    !find_ratio(r, x->trace, "ops_per_s", x->variant, VS_BASE))
			continue;
		for (k = 0; k < n && strcmp(v[k], x->variant); k++)
			;
		if (k == n && n < max) {
			v[n] = x->variant;
			rss[n++] = x->rss;
		}
	}
	return n;
}

/* One cell: @trace's peak pages and ops/s ratios of @variant over VS_BASE. */
static void vs_cell(const struct st_fp_report *r, const char *trace, const char *variant,
		    int w, FILE *f)
{
	const struct st_fp_ratio *p = find_ratio(r, trace, "peak_pages", variant, VS_BASE);
	const struct st_fp_ratio *s = find_ratio(r, trace, "ops_per_s", variant, VS_BASE);
	char cell[64] = "-";

	if (p || s)
		snprintf(cell, sizeof(cell), "%5.2fx %5.2fx", p ? p->value : 0, s ? s->value : 0);
	fprintf(f, "  %*s", w, cell);
}

/*
 * Each variant against SLUB_TINY, a row per trace (so a trace on two
 * threads and its one-thread replay are two rows) and a column per
 * variant: its peak pages and its ops/s over SLUB_TINY's, each labelled
 * under the variant's name and written as a multiple ("1.08x").
 */
static void text_vs_base(const struct st_fp_report *r, const size_t *first, size_t n, FILE *f)
{
	const char *v[32];
	bool rss[32];
	size_t nv = vs_variants(r, v, rss, 32), i, k;
	int tw = name_width(r, false, 5), w[32];
	const struct st_fp_run *base;
	const char *trace;
	char name[80];

	if (!nv)
		return;
	fprintf(f, "\nagainst " VS_BASE " on the same trace: peak pages and ops/s, times "
		VS_BASE "'s\n");
	fprintf(f, "%-*s  %3s", tw, "trace", "thr");
	for (k = 0; k < nv; k++) {
		snprintf(name, sizeof(name), "%s%s", v[k], rss[k] ? "*" : "");
		w[k] = strlen(name) > VS_CELL ? (int)strlen(name) : VS_CELL;
		fprintf(f, "  %*s", w[k], name);
	}
	fprintf(f, "\n%-*s  %3s", tw, "", "");
	for (k = 0; k < nv; k++)
		fprintf(f, "  %*s", w[k], "pages  ops/s");
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		trace = r->runs[first[i]].trace;
		base = find_run(r, first[i], trace, VS_BASE);
		if (!base)
			continue;
		fprintf(f, "%-*s  %3u", tw, trace, base->threads);
		for (k = 0; k < nv; k++)
			vs_cell(r, trace, v[k], w[k], f);
		fputc('\n', f);
	}
}

/* The kernel's booted Slab: figures, each with the kernel it was booted from. */
static void text_kernel(const struct st_fp_report *r, FILE *f)
{
	size_t i;

	if (!r->nr_kernel)
		return;
	fprintf(f, "\nbooted kernel's Slab: (footprint boot):\n");
	for (i = 0; i < r->nr_kernel; i++)
		fprintf(f, "  %-16s %5.0f kB  %s\n", r->kernel[i].variant, r->kernel[i].slab_kb,
			r->kernel[i].from ? r->kernel[i].from : "");
}

/*
 * What a replay measures, the first line of the text and "measured" in
 * JSON: not a kernel (its user-space allocator is lib/slab's), whatever the
 * booted figures beside it say.
 */
#define FP_MEASURED "slubtiny's bundled user-space allocator (lib/slab), not a kernel"

static void render_text(const struct st_fp_report *r, bool verbose, FILE *f)
{
	size_t first[64], n = traces(r, first, 64), i;
	const struct st_fp_run *x;

	if (!n)
		return;
	/* one line of 80 columns: the default text fits a terminal */
	fprintf(f, "Measured: %s\n", FP_MEASURED);
	text_table(r, f);
	text_vs_base(r, first, n, f);
	text_ratios(r, verbose, f);
	text_kernel(r, f);
	for (i = 0; verbose && i < n; i++) {
		x = &r->runs[first[i]];
		fprintf(f, "\ntrace %s: %.0f ops, page size %.0f\n", x->trace, x->ops, x->page_size);
		text_runs(r, x->trace, f);
		text_classes(r, first[i], f);
		text_caches(r, first[i], f);
	}
}

/* ---- JSON ---------------------------------------------------------- */

static cJSON *classes_json(const struct st_fp_run *x)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < x->nr_classes; i++) {
		o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		if (!o || !cJSON_AddStringToObject(o, "name", x->classes[i].name) ||
		    !cJSON_AddNumberToObject(o, "objects", x->classes[i].objects) ||
		    !cJSON_AddNumberToObject(o, "requested", x->classes[i].requested) ||
		    !cJSON_AddNumberToObject(o, "usable", x->classes[i].usable)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *caches_json(const struct st_fp_run *x)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < x->nr_caches; i++) {
		o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		if (!o || !cJSON_AddStringToObject(o, "name", x->caches[i].name) ||
		    !cJSON_AddNumberToObject(o, "slabs", x->caches[i].slabs) ||
		    !cJSON_AddNumberToObject(o, "objects", x->caches[i].objects) ||
		    !cJSON_AddNumberToObject(o, "order", x->caches[i].order) ||
		    !cJSON_AddNumberToObject(o, "size", x->caches[i].size) ||
		    !cJSON_AddBoolToObject(o, "merged", x->caches[i].merged)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *run_json(const struct st_fp_run *x)
{
	cJSON *o = cJSON_CreateObject(), *s;

	if (!o || !cJSON_AddStringToObject(o, "trace", x->trace) ||
	    !cJSON_AddStringToObject(o, "variant", x->variant) ||
	    !cJSON_AddNumberToObject(o, "threads", x->threads) ||
	    !cJSON_AddNumberToObject(o, "peak_pages", x->peak_pages) ||
	    !cJSON_AddNumberToObject(o, "final_pages", x->final_pages) ||
	    !cJSON_AddNumberToObject(o, "requested_bytes", x->requested_bytes) ||
	    !cJSON_AddNumberToObject(o, "held_bytes", x->held_bytes) ||
	    !cJSON_AddNumberToObject(o, "ops_per_s", x->ops_per_s) ||
	    !(x->scaling ? cJSON_AddNumberToObject(o, "scaling", x->scaling) :
			   cJSON_AddNullToObject(o, "scaling")) ||
	    !cJSON_AddStringToObject(o, "pages_source", x->rss ? "rss" : "allocator") ||
	    !cJSON_AddNumberToObject(o, "usable_bytes", x->usable_bytes) ||
	    !cJSON_AddNumberToObject(o, "final_slab_pages", x->final_slab_pages) ||
	    !cJSON_AddNumberToObject(o, "timed_peak_pages", x->timed_peak_pages) ||
	    !cJSON_AddNumberToObject(o, "leak_pages", x->leak_pages) ||
	    !cJSON_AddNumberToObject(o, "slab_reports", x->slab_reports) ||
	    !cJSON_AddNumberToObject(o, "ops", x->ops) ||
	    !cJSON_AddNumberToObject(o, "wall_ns", x->wall_ns) ||
	    !cJSON_AddNumberToObject(o, "cpu_ns", x->cpu_ns) ||
	    !cJSON_AddNumberToObject(o, "ops_per_cpu_s", x->ops_per_cpu_s) ||
	    !cJSON_AddNumberToObject(o, "page_size", x->page_size) ||
	    !cJSON_AddItemToObject(o, "classes_at_peak", classes_json(x)) ||
	    !cJSON_AddItemToObject(o, "caches_final", caches_json(x)) ||
	    !(s = cJSON_CreateDoubleArray(x->blocks, x->nr_orders)) ||
	    !cJSON_AddItemToObject(o, "blocks_final", s) ||
	    !(s = cJSON_CreateDoubleArray(x->samples, x->nr_samples)) ||
	    !cJSON_AddItemToObject(o, "samples", s)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *ratio_json(const struct st_fp_ratio *x)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddStringToObject(o, "trace", x->trace) ||
	    !cJSON_AddStringToObject(o, "what", x->what) ||
	    !cJSON_AddStringToObject(o, "num", x->num) ||
	    !cJSON_AddStringToObject(o, "den", x->den) ||
	    !cJSON_AddNumberToObject(o, "value", x->value) ||
	    !(x->kernel ? cJSON_AddNumberToObject(o, "kernel", x->kernel) :
			  cJSON_AddNullToObject(o, "kernel")) ||
	    !st_json_add_str_or_null(o, "expect", x->expect) ||
	    !(x->expect ? cJSON_AddBoolToObject(o, "holds", x->holds) :
			  cJSON_AddNullToObject(o, "holds")) ||
	    !cJSON_AddBoolToObject(o, "timing", x->timed)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *st_fp_to_json(const struct st_fp_report *r)
{
	cJSON *root = cJSON_CreateObject(), *runs, *ratios, *k, *x, *from, *m;
	size_t i;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "version", ST_VERSION);
	runs = cJSON_AddArrayToObject(root, "runs");
	ratios = cJSON_AddArrayToObject(root, "ratios");
	k = cJSON_AddObjectToObject(root, "kernel_slab_kb");
	from = cJSON_AddObjectToObject(root, "kernel_slab_from");
	if (!runs || !ratios || !k || !from ||
	    !cJSON_AddBoolToObject(root, "expectations_hold", !r->failed) ||
	    !(m = cJSON_AddObjectToObject(root, "measured")) ||
	    !cJSON_AddStringToObject(m, "subject", "bundled-allocator") ||
	    !cJSON_AddStringToObject(m, "summary", FP_MEASURED))
		goto fail;
	/* only the booted figures: nothing without footprint boot */
	for (i = 0; i < r->nr_kernel; i++) {
		if (!cJSON_AddNumberToObject(k, r->kernel[i].variant, r->kernel[i].slab_kb) ||
		    !cJSON_AddStringToObject(from, r->kernel[i].variant,
					     r->kernel[i].from ? r->kernel[i].from : ""))
			goto fail;
	}
	for (i = 0; i < r->nr_runs; i++) {
		if (!(x = run_json(&r->runs[i])))
			goto fail;
		cJSON_AddItemToArray(runs, x);
	}
	for (i = 0; i < r->nr_ratios; i++) {
		if (!(x = ratio_json(&r->ratios[i])))
			goto fail;
		cJSON_AddItemToArray(ratios, x);
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

/* ---- SVG ----------------------------------------------------------- */

#define SVG_W		760
#define SVG_PANEL_H	260
#define SVG_LEFT	70
#define SVG_TOP		30
#define SVG_PLOT_W	520
#define SVG_PLOT_H	190

/* A fixed colour per variant, so that a variant has one colour in every panel. */
static const struct {
	const char *variant, *colour;
} variant_colours[] = {
	{ "slub", "#1f77b4" }, { "slub_tiny", "#d62728" }, { "slob", "#2ca02c" },
	{ "slub_debug", "#9467bd" }, { "glibc", "#7f7f7f" }, { "slob_legacy", "#8c564b" },
	{ "slub_max_order_1", "#17becf" },
};
static const char *const other_colours[] = { "#ff7f0e", "#bcbd22", "#e377c2", "#000000" };

/* @variant's colour: its own, else one chosen by a hash of its name. */
static const char *variant_colour(const char *variant)
{
	unsigned int h = 2166136261u;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(variant_colours); i++) {
		if (!strcmp(variant_colours[i].variant, variant))
			return variant_colours[i].colour;
	}
	for (; *variant; variant++)
		h = (h ^ (unsigned char)*variant) * 16777619u;
	return other_colours[h % (ARRAY_SIZE(other_colours))];
}

/* One panel: pages over the trace, a line per variant. */
static void svg_panel(const struct st_fp_report *r, size_t first, int y0, FILE *f)
{
	const char *trace = r->runs[first].trace;
	const struct st_fp_run *x;
	double max = 1;
	size_t i, k;
	int c = 0;

	for (i = first; i < r->nr_runs; i++) {
		x = &r->runs[i];
		for (k = 0; !strcmp(x->trace, trace) && k < x->nr_samples; k++)
			if (x->samples[k] > max)
				max = x->samples[k];
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">trace ", SVG_LEFT, y0 + 18);
	st_xml_escape(f, trace);
	fprintf(f, ": pages held over the trace</text>\n");
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
		SVG_LEFT, y0 + SVG_TOP, SVG_PLOT_W, SVG_PLOT_H);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>\n",
		SVG_LEFT - 6, y0 + SVG_TOP + 10, max);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n",
		SVG_LEFT - 6, y0 + SVG_TOP + SVG_PLOT_H);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">ops (0 .. end of trace)</text>\n",
		SVG_LEFT + SVG_PLOT_W / 2, y0 + SVG_TOP + SVG_PLOT_H + 20);
	for (i = first; i < r->nr_runs; i++) {
		x = &r->runs[i];
		if (strcmp(x->trace, trace) || !x->nr_samples)
			continue;
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"",
			variant_colour(x->variant), x->rss ? " stroke-dasharray=\"4 3\"" : "");
		for (k = 0; k < x->nr_samples; k++)
			fprintf(f, "%.1f,%.1f ", SVG_LEFT + SVG_PLOT_W * (double)k / x->nr_samples,
				y0 + SVG_TOP + SVG_PLOT_H * (1 - x->samples[k] / max));
		fprintf(f, "\"/>\n<text x=\"%d\" y=\"%d\" fill=\"%s\">", SVG_LEFT + SVG_PLOT_W + 12,
			y0 + SVG_TOP + 14 + 18 * c, variant_colour(x->variant));
		st_xml_escape(f, x->variant);
		fprintf(f, " (peak %.0f%s)</text>\n", x->peak_pages, x->rss ? ", RSS" : "");
		c++;
	}
}

static int render_svg(const struct st_fp_report *r, FILE *f)
{
	size_t first[64], n = traces(r, first, 64), i;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", SVG_W, n * SVG_PANEL_H + 10);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	for (i = 0; i < n; i++)
		svg_panel(r, first[i], i * SVG_PANEL_H, f);
	fprintf(f, "</svg>\n");
	return st_stream_status(f);
}

int st_fp_render(FILE *f, const struct st_fp_report *r, const struct st_render_opts *o)
{
	switch (o->format) {
	case ST_FORMAT_TEXT:
		render_text(r, o->verbose, f);
		return st_stream_status(f);
	case ST_FORMAT_JSON:
		return st_json_print(f, st_fp_to_json(r), o->pretty);
	case ST_FORMAT_SVG:
		return render_svg(r, f);
	default:
		return -ENOTSUP;
	}
}
