// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text, Markdown and JSON renderers of a struct st_report. They print what
 * the model holds; the symbol tables are lib/sizes' bloat-o-meter renderer
 * over the first rows of each diff.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "report/report.h"
#include "report_priv.h"
#include "sizes/size_diff.h"
#include "st_config.h"

/* The objects a kernel report measured, unless --vmlinux or an image said otherwise. */
#define KERNEL_OBJECTS "mm/slab_common.o and the variant's allocator " \
	"(mm/slub.o, mm/slab.o or mm/slob.o)"

static const char *subject_name(enum st_report_subject s)
{
	switch (s) {
	case ST_REPORT_KERNEL:
		return "kernel";
	case ST_REPORT_OBJECTS:
		return "objects";
	default:
		return "bundled-allocator";
	}
}

static const char *measured_objects(const struct st_report *r)
{
	switch (r->subject) {
	case ST_REPORT_KERNEL:
		return r->measured ? r->measured : KERNEL_OBJECTS;
	case ST_REPORT_OBJECTS:
		return "the ELF files given";
	default:
		return "lib/slab/*.c linked into one object per variant and arch";
	}
}

const char *st_report_summary(const struct st_report *r, char *buf, size_t len)
{
	switch (r->subject) {
	case ST_REPORT_KERNEL:
		snprintf(buf, len, "the slab objects of kernel tree %s (%s), defconfig %s, "
			 "built by the tree's make", r->tree ? r->tree : "?",
			 measured_objects(r), r->defconfig ? r->defconfig : "unknown");
		break;
	case ST_REPORT_OBJECTS:
		snprintf(buf, len, "the ELF files given (--objects), as they are");
		break;
	default:
		snprintf(buf, len, "slubtiny's bundled user-space slab allocator (lib/slab, "
			 "built per variant from defconfigs/), not a kernel's slab objects "
			 "(slubtiny kernel --srctree DIR measures those)");
		break;
	}
	return buf;
}

/* "x86_64 gcc, arm arm-linux-gnueabi-gcc": each arch's compiler, "" when none is known. */
static void compilers_str(const struct st_report *r, char *buf, size_t len)
{
	size_t a, off = 0;

	buf[0] = 0;
	for (a = 0; r->compilers && a < r->narches && off < len; a++)
		if (r->compilers[a])
			off += snprintf(buf + off, len - off, "%s%s %s", off ? ", " : "",
					r->arches[a], r->compilers[a]);
}

/* The first lines of the text and Markdown (@md: list items): what was measured, with what. */
static void text_measured(FILE *f, const struct st_report *r, bool md)
{
	const char *pre = md ? "- **" : "", *post = md ? "**" : "";
	char what[1024], cc[1024];

	fprintf(f, "%sMeasured:%s %s\n", pre, post, st_report_summary(r, what, sizeof(what)));
	compilers_str(r, cc, sizeof(cc));
	if (*cc)
		fprintf(f, "%sCompilers:%s %s\n", pre, post, cc);
}

/* Percent change of @delta over @base, as text ("-31.2%"); "" without a base. */
static const char *pct(char *buf, size_t len, int64_t delta, uint64_t base)
{
	if (!base) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(buf, len, "%+.1f%%", (double)delta * 100.0 / (double)base);
	return buf;
}

static const char *delta_str(char *buf, size_t len, const struct st_report_cell *c, size_t v)
{
	if (!c->object || !c->has_base)
		snprintf(buf, len, "-");
	else if (!v)
		snprintf(buf, len, "(baseline)");
	else
		snprintf(buf, len, "%+" PRId64, c->delta_total);
	return buf;
}

/*
 * bloat-o-meter's lines for @d, the symbol rows cut to the @top largest
 * changes (kept in bloat-o-meter's order).
 */
static int print_diff_top(FILE *f, const struct st_size_diff *d, unsigned int top)
{
	struct st_sd_row *rows[3] = { NULL };
	struct st_size_diff cut = *d;
	size_t i;
	int ret;

	for (i = 0; i < cut.ntables; i++) {
		if (!top || cut.tables[i].nrows <= top)
			continue;
		rows[i] = st_report_top(&d->tables[i], top, &cut.tables[i].nrows);
		if (!rows[i]) {
			ret = -ENOMEM;
			goto out;
		}
		cut.tables[i].rows = rows[i];
	}
	ret = st_size_diff_render(f, &cut, &(struct st_render_opts){ .format = ST_FORMAT_TEXT });
out:
	for (i = 0; i < 3; i++)
		free(rows[i]);
	return ret;
}

/* Rows of table @t of @c's diff: a merged report keeps only the top ones. */
static size_t diff_nrows(const struct st_report_cell *c, size_t t)
{
	return c->nrows_all && !t ? c->nrows_all : c->diff.tables[t].nrows;
}

static size_t hidden_rows(const struct st_report_cell *c, unsigned int top)
{
	size_t i, n = 0;

	for (i = 0; i < c->diff.ntables; i++)
		if (top && diff_nrows(c, i) > top)
			n += diff_nrows(c, i) - top;
	return n;
}

/* Kernel reports: the allocator options each variant resolved to. */
static void text_resolved(FILE *f, const struct st_report *r)
{
	size_t i;

	if (!r->tree)
		return;
	fprintf(f, "\nResolved allocator options (%s, make olddefconfig):\n", r->tree);
	for (i = 0; i < r->nvariants * r->narches; i++) {
		const struct st_report_cell *c = &r->cells[i];

		if (!c->aux && c->resolved)
			fprintf(f, "  %-9s %-12s %s\n", c->arch, c->variant, c->resolved);
	}
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * Kernel reports: one line saying which compiler wrapper built the
 * variants, when one did, naming the variants only when not all were
 * (others were cached from a build without it, or with another).
 */
static void text_wrapper(FILE *f, const struct st_report *r)
{
	const struct st_report_cell *w = NULL, *c;
	size_t i, n = 0, nbuilt = 0;

	for (i = 0; i < r->nvariants * r->narches; i++) {
		c = &r->cells[i];
		if (c->aux || !c->object)
			continue;
		nbuilt++;
		if (c->cc_wrapper && (!w || (same_str(c->cc, w->cc) &&
					    same_str(c->cc_wrapper, w->cc_wrapper)))) {
			w = w ? w : c;
			n++;
		}
	}
	if (!w)
		return;
	fprintf(f, "Built through %s (CC=%s)", w->cc_wrapper, w->cc);
	for (i = 0; n < nbuilt && i < r->nvariants * r->narches; i++) {
		c = &r->cells[i];
		if (!c->aux && c->object && same_str(c->cc, w->cc) &&
		    same_str(c->cc_wrapper, w->cc_wrapper))
			fprintf(f, "%s %s/%s", c == w ? ":" : ",", c->arch, c->variant);
	}
	fputc('\n', f);
}

static void text_sizes(FILE *f, const struct st_report *r)
{
	char d[32], p[32];
	size_t a, v;

	fprintf(f, "%-9s %-12s %9s %9s %9s %9s %11s %8s\n", "arch", "variant", "text", "data",
		"bss", "total", "delta", "%");
	for (a = 0; a < r->narches; a++) {
		for (v = 0; v < r->nvariants; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (c->aux)
				continue;
			if (!c->object) {
				fprintf(f, "%-9s %-12s failed: %s\n", c->arch, c->variant,
					c->error ? c->error : "not built");
				continue;
			}
			fprintf(f, "%-9s %-12s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
				" %11s", c->arch, c->variant, c->text, c->data, c->bss,
				c->total, delta_str(d, sizeof(d), c, v));
			if (v && c->has_base)
				fprintf(f, " %8s", pct(p, sizeof(p), c->delta_total,
						       st_report_cell(r, 0, a)->total));
			fputc('\n', f);
		}
	}
}

/* The compact view: text size per arch and variant, change vs the baseline. */
static void text_matrix(FILE *f, const struct st_report *r)
{
	char p[32];
	size_t a, v;

	fprintf(f, "text section (bytes), and its change in %% of %s's text on the same arch:\n",
		r->baseline ? r->baseline : "the baseline");
	fprintf(f, "%-9s", "arch");
	for (v = 0; v < r->nvariants; v++)
		fprintf(f, " %18s", r->variants[v]);
	fputc('\n', f);
	for (a = 0; a < r->narches; a++) {
		const struct st_report_cell *b = st_report_cell(r, 0, a);

		fprintf(f, "%-9s", r->arches[a]);
		for (v = 0; v < r->nvariants; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);
			char cell[48];

			if (!c->object)
				snprintf(cell, sizeof(cell), "-");
			else if (!v || !c->has_base)
				snprintf(cell, sizeof(cell), "%" PRIu64, c->text);
			else
				snprintf(cell, sizeof(cell), "%" PRIu64 " %8s", c->text,
					 pct(p, sizeof(p), c->delta_text, b->text));
			fprintf(f, " %18s", cell);
		}
		fputc('\n', f);
	}
}

/* The widest of @min and the options' names (@v < 0) or variant @v's name and values. */
static int option_width(const struct st_report *r, long v, int min)
{
	size_t i;
	int w = min, n;

	if (v >= 0 && (n = (int)strlen(r->variants[v])) > w)
		w = n;
	for (i = 0; i < r->noptions; i++) {
		const char *s = v < 0 ? r->options[i].option : r->options[i].values[v];

		if (s && (n = (int)strlen(s)) > w)
			w = n;
	}
	return w;
}

/* What each variant's defconfig turns on: the resolved options that differ. */
static void text_options(FILE *f, const struct st_report *r)
{
	int w = option_width(r, -1, 6);
	size_t i, v;

	if (!r->noptions)
		return;
	fprintf(f, "\nOptions that differ between the variants (resolved .config; n = not set):\n");
	/* no trailing blanks: the last column is not padded */
	fprintf(f, "%-*s", w, "option");
	for (v = 0; v < r->nvariants; v++)
		fprintf(f, "  %-*s", v + 1 < r->nvariants ? option_width(r, v, 1) : 0,
			r->variants[v]);
	fputc('\n', f);
	for (i = 0; i < r->noptions; i++) {
		const struct st_report_option *o = &r->options[i];

		fprintf(f, "%-*s", w, o->option);
		for (v = 0; v < r->nvariants; v++)
			fprintf(f, "  %-*s", v + 1 < r->nvariants ? option_width(r, v, 1) : 0,
				o->values[v] ? o->values[v] : "?");
		fputc('\n', f);
	}
}

/* The options variant @v sets otherwise than the baseline, as "SYM from->to". */
static void text_option_changes(FILE *f, const struct st_report *r, size_t v)
{
	size_t i, n = 0;

	for (i = 0; i < r->noptions; i++) {
		const struct st_report_option *o = &r->options[i];

		if (!o->values[0] || !o->values[v] || !strcmp(o->values[0], o->values[v]))
			continue;
		fprintf(f, "%s %s %s->%s", n++ ? "," : "  options:", o->option, o->values[0],
			o->values[v]);
	}
	if (n)
		fputc('\n', f);
}

static void text_attrs(FILE *f, const struct st_report *r)
{
	size_t i;

	fprintf(f, "\nWhat each option costs (%s with one option toggled, Kconfig-resolved):\n",
		r->baseline);
	fprintf(f, "%-9s %-24s %-9s %8s %8s %8s %8s  %s\n", "arch", "option", "change", "text",
		"data", "bss", "total", "towards");
	for (i = 0; i < r->nattrs; i++) {
		const struct st_report_attr *t = &r->attrs[i];
		char ch[64];

		snprintf(ch, sizeof(ch), "%s->%s", t->from, t->to);
		if (!t->built) {
			fprintf(f, "%-9s %-24s %-9s not built: %s\n", t->arch, t->option, ch,
				t->error ? t->error : "?");
			continue;
		}
		fprintf(f, "%-9s %-24s %-9s %+8" PRId64 " %+8" PRId64 " %+8" PRId64 " %+8" PRId64
			"  %s", t->arch, t->option, ch, t->text, t->data, t->bss, t->total,
			t->towards);
		if (t->with)
			fprintf(f, " (with %s)", t->with);
		if (!t->applied)
			fprintf(f, " (Kconfig keeps %s=%s)", t->option, t->resolved);
		if (t->changed && *t->changed)
			fprintf(f, " (also changes %s)", t->changed);
		fputc('\n', f);
	}
}

static int print_text(FILE *f, const struct st_report *r)
{
	size_t a, v, i;

	text_measured(f, r, false);
	fputc('\n', f);
	fprintf(f, "Slab allocator variants: sizes in bytes, as binutils size counts the "
		   "sections;\ndelta = total - %s's total on the same arch; "
		   "%% = delta in %% of %s's total\n\n", r->baseline ? r->baseline : "-",
		r->baseline ? r->baseline : "-");
	if (r->tree) {
		fprintf(f, "Kernel tree: %s (each variant configured by its make olddefconfig)\n",
			r->tree);
		text_wrapper(f, r);
		fputc('\n', f);
	}
	text_sizes(f, r);
	fputc('\n', f);
	text_matrix(f, r);
	text_options(f, r);
	text_resolved(f, r);
	for (i = 0; i < r->nskipped; i++)
		fprintf(f, "%sskipped %s: %s\n", i ? "" : "\n", r->skipped[i].arch,
			r->skipped[i].reason);
	for (v = 1; v < r->nvariants; v++) {
		fprintf(f, "\n%s vs %s (bloat-o-meter: symbol sizes; chg %% is of %s's symbol "
			   "total):\n", r->variants[v], r->baseline, r->baseline);
		text_option_changes(f, r, v);
		for (a = 0; a < r->narches; a++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);
			const struct st_sd_table *t;
			char u[48], d[48], n[48];

			if (!c->has_diff)
				continue;
			t = &c->diff.tables[0];
			fprintf(f, "  %-9s add/remove: %lu/%lu grow/shrink: %lu/%lu up/down: %s/%s (%s)\n",
				c->arch, t->add, t->remove, t->grow, t->shrink,
				st_sd_int_str(u, t->up), st_sd_int_str(d, -t->down),
				st_sd_int_str(n, t->up - t->down));
		}
		/* The symbol table of the first arch (the host when it was built). */
		for (a = 0; a < r->narches; a++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (!c->has_diff)
				continue;
			fprintf(f, "%s:\n", c->arch);
			print_diff_top(f, &c->diff, r->top);
			if (hidden_rows(c, r->top))
				fprintf(f, "(%zu more symbols: slubtiny size-diff %s %s)\n",
					hidden_rows(c, r->top),
					st_report_cell(r, 0, a)->object, c->object);
			break;
		}
	}
	if (r->nattrs)
		text_attrs(f, r);
	return ferror(f) ? -EIO : 0;
}

static int print_markdown(FILE *f, const struct st_report *r)
{
	char p[32], d[32];
	size_t a, v, i;

	fprintf(f, "### Slab allocator sizes (bytes, baseline `%s`)\n\n", r->baseline);
	text_measured(f, r, true);
	fputc('\n', f);
	fprintf(f, "Sections as binutils `size` counts them; delta: total minus `%s`'s total "
		   "on the same arch; %%: delta in %% of `%s`'s total.\n\n", r->baseline,
		r->baseline);
	fprintf(f, "| arch | variant | text | data | bss | total | delta | %% |\n");
	fprintf(f, "|---|---|--:|--:|--:|--:|--:|--:|\n");
	for (a = 0; a < r->narches; a++) {
		for (v = 0; v < r->nvariants; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (c->aux)
				continue;
			if (!c->object) {
				fprintf(f, "| %s | %s | failed | | | | | |\n", c->arch, c->variant);
				continue;
			}
			fprintf(f, "| %s | %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64
				" | %s | %s |\n", c->arch, c->variant, c->text, c->data, c->bss,
				c->total, delta_str(d, sizeof(d), c, v),
				v && c->has_base ? pct(p, sizeof(p), c->delta_total,
						       st_report_cell(r, 0, a)->total) : "");
		}
	}
	if (r->noptions) {
		fprintf(f, "\n#### Options that differ between the variants (resolved `.config`)\n\n"
			   "| option |");
		for (v = 0; v < r->nvariants; v++)
			fprintf(f, " %s |", r->variants[v]);
		fprintf(f, "\n|---|");
		for (v = 0; v < r->nvariants; v++)
			fprintf(f, "---|");
		fputc('\n', f);
		for (i = 0; i < r->noptions; i++) {
			fprintf(f, "| `%s` |", r->options[i].option);
			for (v = 0; v < r->nvariants; v++)
				fprintf(f, " %s |", r->options[i].values[v] ?
					r->options[i].values[v] : "?");
			fputc('\n', f);
		}
	}
	if (r->tree) {
		fprintf(f, "\n#### Resolved allocator options (%s, `make olddefconfig`)\n\n"
			   "| arch | variant | options |\n|---|---|---|\n", r->tree);
		for (i = 0; i < r->nvariants * r->narches; i++)
			if (!r->cells[i].aux && r->cells[i].resolved)
				fprintf(f, "| %s | %s | `%s` |\n", r->cells[i].arch,
					r->cells[i].variant, r->cells[i].resolved);
	}
	for (i = 0; i < r->nskipped; i++)
		fprintf(f, "%s- skipped `%s`: %s\n", i ? "" : "\n", r->skipped[i].arch,
			r->skipped[i].reason);
	for (v = 1; v < r->nvariants; v++) {
		for (a = 0; a < r->narches; a++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (!c->has_diff)
				continue;
			fprintf(f, "\n#### `%s` vs `%s` on %s (bloat-o-meter)\n\n"
				   "Symbol sizes: `chg` is in %% of the sum of `%s`'s symbols, "
				   "not of a section.\n\n```\n",
				r->variants[v], r->baseline, c->arch, r->baseline);
			print_diff_top(f, &c->diff, r->top);
			fprintf(f, "```\n");
			break;
		}
	}
	if (r->nattrs) {
		fprintf(f, "\n#### What each option costs (`%s` with one option toggled)\n\n",
			r->baseline);
		fprintf(f, "| arch | option | change | text | data | bss | total | towards |\n");
		fprintf(f, "|---|---|---|--:|--:|--:|--:|---|\n");
		for (i = 0; i < r->nattrs; i++) {
			const struct st_report_attr *t = &r->attrs[i];

			if (!t->built)
				continue;
			fprintf(f, "| %s | `%s` | %s→%s%s%s%s | %+" PRId64 " | %+" PRId64 " | %+"
				PRId64 " | %+" PRId64 " | %s |\n", t->arch, t->option, t->from, t->to,
				t->applied ? "" : " (kept by Kconfig)", t->with ? " with " : "",
				t->with ? t->with : "", t->text, t->data, t->bss, t->total,
				t->towards);
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* JSON numbers: sizes fit a double exactly (< 2^53). */
static cJSON *json_table(const struct st_sd_table *t, size_t nrows, unsigned int top)
{
	cJSON *o = cJSON_CreateObject(), *rows, *row;
	struct st_sd_row *top_rows = NULL;
	size_t i, ntop;

	if (!o)
		return NULL;
	if (!cJSON_AddStringToObject(o, "title", t->title) ||
	    !cJSON_AddNumberToObject(o, "add", t->add) ||
	    !cJSON_AddNumberToObject(o, "remove", t->remove) ||
	    !cJSON_AddNumberToObject(o, "grow", t->grow) ||
	    !cJSON_AddNumberToObject(o, "shrink", t->shrink) ||
	    !cJSON_AddNumberToObject(o, "up", (double)t->up) ||
	    !cJSON_AddNumberToObject(o, "down", -(double)t->down) ||
	    !cJSON_AddNumberToObject(o, "old_total", (double)t->old_total) ||
	    !cJSON_AddNumberToObject(o, "new_total", (double)t->new_total) ||
	    !cJSON_AddNumberToObject(o, "symbols_changed", nrows) ||
	    !(rows = cJSON_AddArrayToObject(o, "top")))
		goto fail;
	top_rows = st_report_top(t, top, &ntop);
	if (!top_rows && t->nrows)
		goto fail;
	for (i = 0; i < ntop; i++) {
		const struct st_sd_row *s = &top_rows[i];

		row = cJSON_CreateObject();
		if (!row || !cJSON_AddItemToArray(rows, row) ||
		    !cJSON_AddStringToObject(row, "name", s->name) ||
		    !(s->in_old ? cJSON_AddNumberToObject(row, "old", (double)s->old_size)
				: cJSON_AddNullToObject(row, "old")) ||
		    !(s->in_new ? cJSON_AddNumberToObject(row, "new", (double)s->new_size)
				: cJSON_AddNullToObject(row, "new")) ||
		    !cJSON_AddNumberToObject(row, "delta", (double)s->delta))
			goto fail;
	}
	free(top_rows);
	return o;
fail:
	free(top_rows);
	cJSON_Delete(o);
	return NULL;
}

static int json_cell(cJSON *arr, const struct st_report_cell *c, unsigned int top)
{
	cJSON *o = cJSON_CreateObject(), *t;

	if (!o || !cJSON_AddItemToArray(arr, o))
		goto fail;
	if (!cJSON_AddStringToObject(o, "variant", c->variant) ||
	    !cJSON_AddStringToObject(o, "arch", c->arch) ||
	    !cJSON_AddNumberToObject(o, "text", (double)c->text) ||
	    !cJSON_AddNumberToObject(o, "data", (double)c->data) ||
	    !cJSON_AddNumberToObject(o, "bss", (double)c->bss) ||
	    !cJSON_AddNumberToObject(o, "total", (double)c->total) ||
	    !(c->has_base ? cJSON_AddNumberToObject(o, "delta_total", (double)c->delta_total)
			  : cJSON_AddNullToObject(o, "delta_total")) ||
	    !(c->has_base ? cJSON_AddNumberToObject(o, "delta_text", (double)c->delta_text)
			  : cJSON_AddNullToObject(o, "delta_text")) ||
	    !cJSON_AddStringToObject(o, "object", c->object) ||
	    (c->resolved && !cJSON_AddStringToObject(o, "resolved", c->resolved)) ||
	    (c->cc && !cJSON_AddStringToObject(o, "cc", c->cc)) ||
	    (c->cc && !st_json_add_str_or_null(o, "cc_wrapper", c->cc_wrapper)))
		return -ENOMEM;
	if (c->has_diff) {
		t = json_table(&c->diff.tables[0], diff_nrows(c, 0), top);
		if (!t || !cJSON_AddItemToObject(o, "size_diff", t)) {
			cJSON_Delete(t);
			return -ENOMEM;
		}
	}
	return 0;
fail:
	cJSON_Delete(o);
	return -ENOMEM;
}

static int json_attr(cJSON *arr, const struct st_report_attr *t)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddItemToArray(arr, o)) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	if (!cJSON_AddStringToObject(o, "option", t->option) ||
	    !cJSON_AddStringToObject(o, "arch", t->arch) ||
	    !cJSON_AddStringToObject(o, "from", t->from) ||
	    !cJSON_AddStringToObject(o, "to", t->to) ||
	    !cJSON_AddStringToObject(o, "towards", t->towards) ||
	    !cJSON_AddBoolToObject(o, "applied", t->applied) ||
	    !cJSON_AddStringToObject(o, "resolved", t->resolved ? t->resolved : t->to) ||
	    !cJSON_AddStringToObject(o, "also_changes", t->changed ? t->changed : "") ||
	    !st_json_add_str_or_null(o, "with", t->with) ||
	    !cJSON_AddBoolToObject(o, "built", t->built))
		return -ENOMEM;
	if (!t->built)
		return cJSON_AddStringToObject(o, "error", t->error ? t->error : "") ? 0 : -ENOMEM;
	if (!cJSON_AddNumberToObject(o, "text", (double)t->text) ||
	    !cJSON_AddNumberToObject(o, "data", (double)t->data) ||
	    !cJSON_AddNumberToObject(o, "bss", (double)t->bss) ||
	    !cJSON_AddNumberToObject(o, "total", (double)t->total))
		return -ENOMEM;
	return 0;
}

/* "options": [{"option", "values": {variant: value}}], the options that differ. */
static int json_options(cJSON *root, const struct st_report *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "options"), *o, *vals;
	size_t i, v;

	for (i = 0; arr && i < r->noptions; i++) {
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddStringToObject(o, "option", r->options[i].option) ||
		    !(vals = cJSON_AddObjectToObject(o, "values")))
			return -ENOMEM;
		for (v = 0; v < r->nvariants; v++)
			if (!(r->options[i].values[v] ?
			      cJSON_AddStringToObject(vals, r->variants[v], r->options[i].values[v]) :
			      cJSON_AddNullToObject(vals, r->variants[v])))
				return -ENOMEM;
	}
	return arr ? 0 : -ENOMEM;
}

/* "measured": what the figures are of, and with which defconfig and compilers. */
static int json_measured(cJSON *root, const struct st_report *r)
{
	cJSON *m = cJSON_AddObjectToObject(root, "measured"), *cc;
	char what[1024];
	size_t a;

	if (!m || !cJSON_AddStringToObject(m, "subject", subject_name(r->subject)) ||
	    !cJSON_AddStringToObject(m, "summary", st_report_summary(r, what, sizeof(what))) ||
	    !cJSON_AddStringToObject(m, "objects", measured_objects(r)) ||
	    !st_json_add_str_or_null(m, "defconfig", r->defconfig) ||
	    !(cc = cJSON_AddObjectToObject(m, "compilers")))
		return -ENOMEM;
	for (a = 0; r->compilers && a < r->narches; a++)
		if (r->compilers[a] && !cJSON_AddStringToObject(cc, r->arches[a], r->compilers[a]))
			return -ENOMEM;
	return 0;
}

/* A kernel report names its tree and its whole grid: shards merge into it. */
static int json_kernel(cJSON *root, const struct st_report *r)
{
	cJSON *v, *a;
	size_t i;

	if (!cJSON_AddStringToObject(root, "tree", r->tree) ||
	    !(v = cJSON_AddArrayToObject(root, "variants")) ||
	    !(a = cJSON_AddArrayToObject(root, "arches")))
		return -ENOMEM;
	for (i = 0; i < r->nvariants; i++)
		if (!cJSON_AddItemToArray(v, cJSON_CreateString(r->variants[i])))
			return -ENOMEM;
	for (i = 0; i < r->narches; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(r->arches[i])))
			return -ENOMEM;
	return 0;
}

cJSON *st_report_to_json(const struct st_report *r)
{
	cJSON *root = cJSON_CreateObject(), *res, *sk, *o, *at;
	size_t i;

	if (!root)
		return NULL;
	if (!cJSON_AddStringToObject(root, "version", ST_VERSION) ||
	    json_measured(root, r) ||
	    !cJSON_AddStringToObject(root, "baseline", r->baseline ? r->baseline : "") ||
	    (r->tree && json_kernel(root, r)) ||
	    !(res = cJSON_AddArrayToObject(root, "results")) ||
	    !(sk = cJSON_AddArrayToObject(root, "skipped")))
		goto fail;
	for (i = 0; i < r->nvariants * r->narches; i++) {
		const struct st_report_cell *c = &r->cells[i];

		if (c->aux)
			continue;
		if (!c->object) {
			o = cJSON_CreateObject();
			if (!o || !cJSON_AddItemToArray(sk, o) ||
			    !cJSON_AddStringToObject(o, "arch", c->arch) ||
			    !cJSON_AddStringToObject(o, "variant", c->variant) ||
			    !cJSON_AddStringToObject(o, "reason", c->error ? c->error : ""))
				goto fail;
			continue;
		}
		if (json_cell(res, c, r->top))
			goto fail;
	}
	for (i = 0; i < r->nskipped; i++) {
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(sk, o) ||
		    !cJSON_AddStringToObject(o, "arch", r->skipped[i].arch) ||
		    !cJSON_AddStringToObject(o, "reason", r->skipped[i].reason) ||
		    !cJSON_AddStringToObject(o, "package", r->skipped[i].package))
			goto fail;
	}
	if (r->noptions && json_options(root, r))
		goto fail;
	if (r->nattrs) {
		at = cJSON_AddArrayToObject(root, "attribution");
		if (!at)
			goto fail;
		for (i = 0; i < r->nattrs; i++)
			if (json_attr(at, &r->attrs[i]))
				goto fail;
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

int st_report_render(FILE *f, const struct st_report *r, const struct st_render_opts *o)
{
	switch (o->format) {
	case ST_FORMAT_TEXT:
		return print_text(f, r);
	case ST_FORMAT_MARKDOWN:
		return print_markdown(f, r);
	case ST_FORMAT_JSON:
		return st_json_print(f, st_report_to_json(r), o->pretty);
	case ST_FORMAT_HTML:
		return st_report_print_html(f, r);
	default:
		return -ENOTSUP;
	}
}
