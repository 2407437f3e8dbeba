// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/report alone: the model over two objects compiled here (deltas,
 * baseline first, diffs only against the baseline), the choice of the top
 * symbol rows, and the renderers over a hand-made report (JSON schema,
 * HTML escaping, no trailing blanks in text). Output is TAP.
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/spawn.h"
#include "report/report.h"

#include "../../tap.h"

/* @r printed in @format by the one renderer. */
static int render(FILE *f, const struct st_report *r, enum st_format format)
{
	struct st_render_opts o = { .format = format };

	return st_report_render(f, r, &o);
}

/* Whether @name is an executable file in a directory of $PATH. */
static int on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];

	for (p = path; p && *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, name);
		if (end > p && !access(buf, X_OK))
			return 1;
	}
	return 0;
}

static int compile(const char *dir, const char *name, const char *code)
{
	char src[512], obj[512];
	char *argv[] = { "cc", "-Os", "-c", src, "-o", obj, NULL };
	FILE *f;

	snprintf(src, sizeof(src), "%s/%s.c", dir, name);
	snprintf(obj, sizeof(obj), "%s/%s.o", dir, name);
	f = fopen(src, "w");
	if (!f)
		return -1;
	fputs(code, f);
	fclose(f);
	return st_run(argv, NULL, NULL, NULL, NULL, 0);
}

static void test_objects(const char *dir)
{
	const char *names[] = { "old", "new" };
	char po[512], pn[512];
	const char *paths[] = { po, pn };
	struct st_report *r = NULL;
	struct st_report_cell *b, *c;
	struct st_error e = { 0 };
	int ret;

	snprintf(po, sizeof(po), "%s/old.o", dir);
	snprintf(pn, sizeof(pn), "%s/new.o", dir);
	/* The precondition: a compiler. Once it is there, a failure fails. */
	if (!on_path("cc")) {
		printf("ok %d # SKIP no cc on PATH\n", ++nr_test);
		return;
	}
	ret = compile(dir, "old", "int a[10];\nint f(int i) { return a[i]; }\n") ||
	      compile(dir, "new", "int a[30];\nint f(int i) { return a[i] * 3; }\n"
		      "int g(int i) { return i + 7; }\n");
	ok(!ret, "cc compiles the two objects");
	if (ret)
		return;
	ret = st_report_from_objects(&r, names, paths, 2, NULL, false, &e);
	ok(!ret, "report over two objects (%s)", e.msg);
	if (ret)
		return;
	ok(r->nvariants == 2 && !strcmp(r->variants[0], "old") && r->narches == 1 &&
	   !strcmp(r->baseline, "old"), "first object is the baseline");
	b = st_report_cell(r, 0, 0);
	c = st_report_cell(r, 1, 0);
	ok(b->total == b->text + b->data + b->bss && b->total > 0, "total = text + data + bss");
	ok(c->delta_total == (int64_t)(c->total - b->total) &&
	   c->delta_text == (int64_t)(c->text - b->text), "deltas against the baseline");
	ok(!b->has_diff && c->has_diff, "only the non-baseline cell has a diff");
	ok(c->has_diff && c->diff.tables[0].add == 1 && c->diff.tables[0].nrows >= 2,
	   "diff sees g added and a grown");
	st_report_free(r);

	ret = st_report_from_objects(&r, names, paths, 2, "new", false, &e);
	ok(!ret && !strcmp(r->variants[0], "new") && st_report_cell(r, 1, 0)->delta_total < 0,
	   "--baseline moves the other object first");
	st_report_free(r);
	st_error_clear(&e);
	ret = st_report_from_objects(&r, names, paths, 2, "nosuch", false, &e);
	ok(ret < 0 && strstr(e.msg, "nosuch"), "unknown baseline is an error (%s)", e.msg);
}

static struct st_sd_row mkrow(const char *name, int old, int new)
{
	struct st_sd_row r = { .name = name, .old_size = old, .new_size = new,
			       .delta = new - old, .in_old = old != 0, .in_new = new != 0 };
	return r;
}

static void test_top(void)
{
	/* bloat-o-meter's order: delta descending */
	struct st_sd_row rows[] = {
		mkrow("grow5", 10, 15), mkrow("grow1", 10, 11), mkrow("shrink2", 10, 8),
		mkrow("gone10", 10, 0), mkrow("shrink50", 60, 10),
	};
	struct st_sd_table t = { .rows = rows, .nrows = 5 };
	struct st_sd_row *top;
	size_t n;

	top = st_report_top(&t, 2, &n);
	ok(n == 2 && !strcmp(top[0].name, "gone10") && !strcmp(top[1].name, "shrink50"),
	   "top 2 by |delta|, in bloat-o-meter's order");
	free(top);
	top = st_report_top(&t, 0, &n);
	ok(n == 5 && !strcmp(top[4].name, "shrink50"), "top 0 is every row");
	free(top);
}

/* A report made by hand, with a hostile symbol name. */
static void test_render(void)
{
	struct st_sd_row rows[] = { mkrow("<script>alert(1)</script>", 0, 40), mkrow("b&c", 8, 0) };
	struct st_report_cell cells[2] = {
		{ .variant = "slub", .arch = "x86_64", .object = "a.o", .text = 100, .data = 10,
		  .bss = 5, .total = 115, .has_base = true },
		{ .variant = "slub_tiny", .arch = "x86_64", .object = "b.o", .text = 132, .data = 10,
		  .bss = 5, .total = 147, .delta_text = 32, .delta_total = 32, .has_base = true,
		  .has_diff = true },
	};
	char *variants[] = { "slub", "slub_tiny" }, *arches[] = { "x86_64" };
	struct st_report_skip skip = { .arch = "or1k", .reason = "no libc", .package = "gcc-or1k-elf" };
	char *random_vals[] = { "y", "n" }, *tiny_vals[] = { "n", "y" };
	struct st_report_option options[] = { { "SLAB_FREELIST_RANDOM", random_vals },
					      { "SLUB_TINY", tiny_vals } };
	struct st_report r = { .baseline = "slub", .variants = variants, .nvariants = 2,
			       .arches = arches, .narches = 1, .cells = cells, .skipped = &skip,
			       .nskipped = 1, .top = 10, .options = options, .noptions = 2 };
	cJSON *root, *res, *it;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	bool trailing = false;
	int ret;

	cells[1].diff.ntables = 1;
	cells[1].diff.tables[0] = (struct st_sd_table){ .title = "Function", .add = 1,
		.remove = 1, .up = 40, .down = 8, .old_total = 8, .new_total = 40,
		.rows = rows, .nrows = 2 };

	f = open_memstream(&buf, &len);
	ok(!render(f, &r, ST_FORMAT_JSON), "JSON renders");
	fclose(f);
	root = cJSON_Parse(buf);
	res = cJSON_GetObjectItem(root, "results");
	it = cJSON_GetArrayItem(res, 1);
	ok(root && cJSON_IsString(cJSON_GetObjectItem(root, "baseline")) &&
	   cJSON_GetArraySize(res) == 2 &&
	   cJSON_GetObjectItem(it, "delta_total")->valueint == 32 &&
	   cJSON_GetObjectItem(it, "total")->valueint == 147 &&
	   cJSON_GetArraySize(cJSON_GetObjectItem(root, "skipped")) == 1,
	   "JSON has baseline, results with totals and deltas, skipped");
	ok(it && cJSON_GetObjectItem(cJSON_GetObjectItem(it, "size_diff"), "top") &&
	   cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
		cJSON_GetObjectItem(it, "size_diff"), "top"), 0), "old")),
	   "an added symbol has old: null");
	it = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "options"), 0);
	ok(it && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "option")),
			 "SLAB_FREELIST_RANDOM") &&
	   !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "values"),
							    "slub_tiny")), "n") &&
	   cJSON_GetArraySize(cJSON_GetObjectItem(root, "options")) == 2,
	   "JSON: the options that differ, a value per variant");
	cJSON_Delete(root);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	ok(!render(f, &r, ST_FORMAT_HTML), "HTML renders");
	fclose(f);
	ok(!strstr(buf, "<script") && strstr(buf, "&lt;script&gt;alert(1)&lt;/script&gt;") &&
	   strstr(buf, "b&amp;c"), "HTML escapes symbol names");
	ok(strstr(buf, "<svg id=\"chart-sizes\"") && strstr(buf, "</html>"), "HTML has the chart");
	ok(strstr(buf, "<svg id=\"chart-text-pct\"") && strstr(buf, "+32.0%</text>"),
	   "HTML has the percent chart (+32.0%% text)");
	ok(strstr(buf, "<table id=\"options\">") &&
	   strstr(buf, "<tr><td><code>SLUB_TINY</code></td><td>n</td><td>y</td></tr>") &&
	   strstr(buf, "<th>% of baseline total</th>"), "HTML: the options table, labelled %%");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	ok(!render(f, &r, ST_FORMAT_TEXT), "text renders");
	fclose(f);
	for (char *p = buf; (p = strchr(p, '\n')); p++)
		if (p > buf && p[-1] == ' ')
			trailing = true;
	ok(!trailing, "no trailing blanks in text");
	ok(strstr(buf, "add/remove: 1/1 grow/shrink: 0/0 up/down: 40/-8 (32)") &&
	   strstr(buf, "Total: Before=8, After=40, chg +400.00%") &&
	   strstr(buf, "skipped or1k: no libc"), "text has bloat-o-meter lines and skips");
	ok(strstr(buf, "% = delta in % of slub's total\n") &&
	   strstr(buf, "text section (bytes), and its change in % of slub's text on the same arch:\n") &&
	   strstr(buf, "(bloat-o-meter: symbol sizes; chg % is of slub's symbol total)"),
	   "text: each percentage says what it is of");
	ok(strstr(buf, "option                slub  slub_tiny\n"
		       "SLAB_FREELIST_RANDOM  y     n\n"
		       "SLUB_TINY             n     y\n") &&
	   strstr(buf, "  options: SLAB_FREELIST_RANDOM y->n, SLUB_TINY n->y\n"),
	   "text: the options table, and what each variant sets otherwise than the baseline");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	ret = render(f, &r, ST_FORMAT_MARKDOWN);
	fclose(f);
	ok(!ret && strstr(buf, "| x86_64 | slub_tiny | 132 | 10 | 5 | 147 | +32 | +27.8% |"),
	   "markdown row with the percentage");
	ok(!ret && strstr(buf, "| `SLUB_TINY` | n | y |") && strstr(buf, "%: delta in % of `slub`'s total"),
	   "markdown: the options table, the percentage labelled");
	free(buf);
}

int main(void)
{
	char dir[] = "/tmp/st-report-XXXXXX", cmd[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(dir))
		return 2;
	test_objects(dir);
	test_top();
	test_render();
	printf("1..%d\n", nr_test);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return nr_fail ? 1 : 0;
}
