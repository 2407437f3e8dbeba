// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML renderer: one self-contained page (inline CSS and SVG, no
 * script, nothing fetched) with the size table, bar charts of size per
 * variant and arch, the bloat-o-meter symbol tables and the attribution.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/str.h"
#include "report/report.h"
#include "report_priv.h"
#include "sizes/size_diff.h"

/* Colours of the text / data / bss parts of a bar. */
static const char *const part_color[3] = { "#3b6ea8", "#e0a030", "#8aa35a" };
static const char *const part_name[3] = { "text", "data", "bss" };

static void head(FILE *f, const struct st_report *r)
{
	char what[1024];
	size_t i, n = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>slubtiny report</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;color:#222;background:#fff}\n"
	      "table{border-collapse:collapse;margin:1em 0}\n"
	      "th,td{border:1px solid #bbb;padding:2px 8px}\n"
	      "td.n{text-align:right;font-family:monospace}\n"
	      "th{background:#eee}\n"
	      ".neg{color:#1a7f37}.pos{color:#b42318}\n"
	      "pre{background:#f6f6f6;padding:8px}\n"
	      "</style>\n</head>\n<body>\n", f);
	fputs("<h1>slubtiny report</h1>\n<p id=\"measured\"><b>Measured:</b> ", f);
	st_xml_escape(f, st_report_summary(r, what, sizeof(what)));
	fputs("</p>\n", f);
	for (i = 0; r->compilers && i < r->narches; i++) {
		if (!r->compilers[i])
			continue;
		fputs(n++ ? ", " : "<p id=\"compilers\"><b>Compilers:</b> ", f);
		st_xml_escape(f, r->arches[i]);
		fputc(' ', f);
		st_xml_escape(f, r->compilers[i]);
	}
	if (n)
		fputs("</p>\n", f);
	fputs("<p>Slab allocator variants, sizes in bytes as "
	      "binutils <code>size</code> counts them; delta is the total against the baseline <b>", f);
	st_xml_escape(f, r->baseline);
	fputs("</b> on the same arch, in bytes and (%) in percent of the baseline's total.</p>\n", f);
	if (!r->tree)
		return;
	fputs("<p>Kernel tree <b>", f);
	st_xml_escape(f, r->tree);
	fputs("</b>: each variant configured by the tree's own "
	      "<code>make olddefconfig</code>.</p>\n<table id=\"resolved\">\n"
	      "<tr><th>arch</th><th>variant</th><th>resolved allocator options</th></tr>\n", f);
	for (i = 0; i < r->nvariants * r->narches; i++) {
		const struct st_report_cell *c = &r->cells[i];

		if (c->aux || !c->resolved)
			continue;
		fputs("<tr><td>", f);
		st_xml_escape(f, c->arch);
		fputs("</td><td>", f);
		st_xml_escape(f, c->variant);
		fputs("</td><td><code>", f);
		st_xml_escape(f, c->resolved);
		fputs("</code></td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void delta_td(FILE *f, int64_t d, uint64_t base, bool show)
{
	if (!show) {
		fputs("<td class=\"n\"></td><td class=\"n\"></td>", f);
		return;
	}
	fprintf(f, "<td class=\"n %s\">%+" PRId64 "</td>", d < 0 ? "neg" : d > 0 ? "pos" : "", d);
	if (base)
		fprintf(f, "<td class=\"n\">%+.1f%%</td>", (double)d * 100.0 / (double)base);
	else
		fputs("<td class=\"n\"></td>", f);
}

static void size_table(FILE *f, const struct st_report *r)
{
	size_t a, v;

	fputs("<h2>Sizes</h2>\n<table id=\"sizes\">\n<tr><th>arch</th><th>variant</th><th>text</th>"
	      "<th>data</th><th>bss</th><th>total</th><th>delta</th><th>% of baseline total</th></tr>\n", f);
	for (a = 0; a < r->narches; a++) {
		for (v = 0; v < r->nvariants; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (c->aux)
				continue;
			fputs("<tr><td>", f);
			st_xml_escape(f, c->arch);
			fputs("</td><td>", f);
			st_xml_escape(f, c->variant);
			fputs("</td>", f);
			if (!c->object) {
				fputs("<td colspan=\"6\">failed: ", f);
				st_xml_escape(f, c->error ? c->error : "not built");
				fputs("</td></tr>\n", f);
				continue;
			}
			fprintf(f, "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64
				"</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td>",
				c->text, c->data, c->bss, c->total);
			delta_td(f, c->delta_total, st_report_cell(r, 0, a)->total,
				 v && c->has_base);
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static uint64_t max_total(const struct st_report *r)
{
	uint64_t m = 1;
	size_t i;

	for (i = 0; i < r->nvariants * r->narches; i++)
		if (r->cells[i].object && r->cells[i].total > m)
			m = r->cells[i].total;
	return m;
}

/* One stacked bar: text, data, bss from @x at row @y. */
static void bar(FILE *f, const struct st_report_cell *c, double scale, int x, int y)
{
	uint64_t part[3] = { c->text, c->data, c->bss };
	double at = x;
	int i;

	for (i = 0; i < 3; i++) {
		double w = (double)part[i] * scale;

		if (w <= 0)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\">"
			"<title>%s %s %s: %" PRIu64 "</title></rect>\n", at, y, w, part_color[i],
			c->arch, c->variant, part_name[i], part[i]);
		at += w;
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%" PRIu64 "</text>\n",
		at + 4, y + 10, c->total);
}

static void chart(FILE *f, const struct st_report *r)
{
	const int label = 170, width = 560, row = 15, gap = 10;
	double scale = (double)width / (double)max_total(r);
	int h = 30 + (int)(r->narches * (r->nvariants * row + gap));
	size_t a, v;
	int y = 30, i;

	fputs("<h2>Size per variant and arch</h2>\n", f);
	fprintf(f, "<svg id=\"chart-sizes\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\">\n", label + width + 80, h);
	for (i = 0; i < 3; i++)
		fprintf(f, "<rect x=\"%d\" y=\"4\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"14\" font-size=\"12\">%s</text>\n",
			label + i * 80, part_color[i], label + i * 80 + 16, part_name[i]);
	for (a = 0; a < r->narches; a++) {
		for (v = 0; v < r->nvariants; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"11\">", y + 10);
			st_xml_escape(f, c->arch);
			fputs(" ", f);
			st_xml_escape(f, c->variant);
			fputs("</text>\n", f);
			if (c->object)
				bar(f, c, scale, label, y);
			y += row;
		}
		y += gap;
	}
	fputs("</svg>\n", f);
}

/* The largest |text change| in percent over the non-baseline cells, at least 1. */
static double max_pct(const struct st_report *r)
{
	double m = 1, p;
	size_t a, v;

	for (a = 0; a < r->narches; a++) {
		const struct st_report_cell *b = st_report_cell(r, 0, a);

		for (v = 1; v < r->nvariants; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (!c->object || !c->has_base || !b->text)
				continue;
			p = (double)c->delta_text * 100.0 / (double)b->text;
			if (p < 0)
				p = -p;
			if (p > m)
				m = p;
		}
	}
	return m;
}

/* Text change against the baseline per arch: bars left of 0 are savings. */
static void pct_chart(FILE *f, const struct st_report *r)
{
	const int label = 170, half = 260, row = 15, gap = 10;
	double scale = (double)half / max_pct(r);
	int zero = label + half, y = 30;
	int h = 30 + (int)(r->narches * ((r->nvariants - 1) * row + gap));
	size_t a, v;

	if (r->nvariants < 2)
		return;
	fputs("<h2>Text section against the baseline's (% of its text)</h2>\n", f);
	fprintf(f, "<svg id=\"chart-text-pct\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\">\n", label + 2 * half + 60, h);
	fprintf(f, "<line x1=\"%d\" y1=\"20\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n"
		"<text x=\"%d\" y=\"14\" font-size=\"11\">0%% = ", zero, zero, h, zero - 40);
	st_xml_escape(f, r->baseline);
	fputs("</text>\n", f);
	for (a = 0; a < r->narches; a++) {
		const struct st_report_cell *b = st_report_cell(r, 0, a);

		for (v = 1; v < r->nvariants; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);
			double p, w;

			fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"11\">", y + 10);
			st_xml_escape(f, c->arch);
			fputs(" ", f);
			st_xml_escape(f, c->variant);
			fputs("</text>\n", f);
			if (c->object && c->has_base && b->text) {
				p = (double)c->delta_text * 100.0 / (double)b->text;
				w = (p < 0 ? -p : p) * scale;
				fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" "
					"fill=\"%s\"><title>%s %s: %+.1f%%</title></rect>\n"
					"<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%+.1f%%</text>\n",
					p < 0 ? zero - w : (double)zero, y, w, p < 0 ? "#1a7f37" : "#b42318",
					c->arch, c->variant, p, p < 0 ? zero + 4.0 : zero + w + 4, y + 10, p);
			}
			y += row;
		}
		y += gap;
	}
	fputs("</svg>\n", f);
}

static void diff_table(FILE *f, const struct st_report *r, const struct st_report_cell *c)
{
	const struct st_sd_table *t = &c->diff.tables[0];
	char a[48], b[48], d[48];
	struct st_sd_row *rows;
	size_t i, n, nrows;

	fputs("<h3>", f);
	st_xml_escape(f, c->variant);
	fputs(" vs ", f);
	st_xml_escape(f, r->baseline);
	fputs(" on ", f);
	st_xml_escape(f, c->arch);
	fputs("</h3>\n", f);
	fprintf(f, "<p>add/remove: %lu/%lu grow/shrink: %lu/%lu up/down: %s/%s (%s)</p>\n",
		t->add, t->remove, t->grow, t->shrink, st_sd_int_str(a, t->up),
		st_sd_int_str(b, -t->down), st_sd_int_str(d, t->up - t->down));
	fputs("<table class=\"symbols\">\n<tr><th>function</th><th>old</th><th>new</th>"
	      "<th>delta</th></tr>\n", f);
	rows = st_report_top(t, r->top, &n);
	for (i = 0; rows && i < n; i++) {
		const struct st_sd_row *s = &rows[i];

		fputs("<tr><td><code>", f);
		st_xml_escape(f, s->name);
		fprintf(f, "</code></td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
			"<td class=\"n %s\">%s</td></tr>\n",
			s->in_old ? st_sd_int_str(a, s->old_size) : "-",
			s->in_new ? st_sd_int_str(b, s->new_size) : "-",
			s->delta < 0 ? "neg" : "pos", st_sd_int_str(d, s->delta));
	}
	free(rows);
	fputs("</table>\n", f);
	nrows = c->nrows_all ? c->nrows_all : t->nrows;
	if (nrows > r->top)
		fprintf(f, "<p>%zu more symbols changed.</p>\n", nrows - r->top);
	fprintf(f, "<p>Total: Before=%s, After=%s</p>\n", st_sd_int_str(a, t->old_total),
		st_sd_int_str(b, t->new_total));
}

static void diffs(FILE *f, const struct st_report *r)
{
	size_t v, a;

	if (r->nvariants < 2)
		return;
	fputs("<h2>Symbol differences (bloat-o-meter)</h2>\n<p>Sums of symbol sizes "
	      "(functions and data objects), not sections: they differ from the sizes "
	      "above.</p>\n", f);
	for (v = 1; v < r->nvariants; v++) {
		for (a = 0; a < r->narches; a++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (c->has_diff) {
				diff_table(f, r, c);
				break;
			}
		}
	}
}

static void attrs(FILE *f, const struct st_report *r)
{
	size_t i;

	if (!r->nattrs)
		return;
	fputs("<h2>What each option costs</h2>\n<table id=\"attribution\">\n<tr><th>arch</th>"
	      "<th>option</th><th>change</th><th>text</th><th>data</th><th>bss</th><th>total</th>"
	      "<th>towards</th></tr>\n", f);
	for (i = 0; i < r->nattrs; i++) {
		const struct st_report_attr *t = &r->attrs[i];

		if (!t->built)
			continue;
		fputs("<tr><td>", f);
		st_xml_escape(f, t->arch);
		fputs("</td><td><code>", f);
		st_xml_escape(f, t->option);
		fputs("</code></td><td>", f);
		st_xml_escape(f, t->from);
		fputs(" &#8594; ", f);
		st_xml_escape(f, t->to);
		if (t->with) {
			fputs(" (with ", f);
			st_xml_escape(f, t->with);
			fputs(")", f);
		}
		fprintf(f, "</td><td class=\"n\">%+" PRId64 "</td><td class=\"n\">%+" PRId64
			"</td><td class=\"n\">%+" PRId64 "</td><td class=\"n %s\">%+" PRId64 "</td><td>",
			t->text, t->data, t->bss, t->total < 0 ? "neg" : "pos", t->total);
		st_xml_escape(f, t->towards);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void skipped(FILE *f, const struct st_report *r)
{
	size_t i;

	if (!r->nskipped)
		return;
	fputs("<h2>Skipped</h2>\n<ul>\n", f);
	for (i = 0; i < r->nskipped; i++) {
		fputs("<li>", f);
		st_xml_escape(f, r->skipped[i].arch);
		fputs(": ", f);
		st_xml_escape(f, r->skipped[i].reason);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* What each variant's defconfig turns on: the resolved options that differ. */
static void options_table(FILE *f, const struct st_report *r)
{
	size_t i, v;

	if (!r->noptions)
		return;
	fputs("<h2>Options that differ between the variants</h2>\n<p>As resolved in each "
	      "variant's <code>.config</code>; n = not set.</p>\n<table id=\"options\">\n"
	      "<tr><th>option</th>", f);
	for (v = 0; v < r->nvariants; v++) {
		fputs("<th>", f);
		st_xml_escape(f, r->variants[v]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (i = 0; i < r->noptions; i++) {
		fputs("<tr><td><code>", f);
		st_xml_escape(f, r->options[i].option);
		fputs("</code></td>", f);
		for (v = 0; v < r->nvariants; v++) {
			fputs("<td>", f);
			st_xml_escape(f, r->options[i].values[v] ? r->options[i].values[v] : "?");
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

int st_report_print_html(FILE *f, const struct st_report *r)
{
	head(f, r);
	size_table(f, r);
	options_table(f, r);
	chart(f, r);
	pct_chart(f, r);
	diffs(f, r);
	attrs(f, r);
	skipped(f, r);
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
