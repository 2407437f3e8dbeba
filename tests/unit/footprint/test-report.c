// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the footprint result model (TAP): replay JSON in, runs,
 * the ratios against the kernel's and the expectations of issue 7, and
 * the three renderers over the same report.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "footprint/footprint.h"
#include "st_config.h"

static int tests, failures;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

static void add(struct st_fp_report *r, const char *trace, const char *variant,
		int threads, int peak, int final, double ops)
{
	char json[1024];

	snprintf(json, sizeof(json),
		 "{\"trace\":\"%s\",\"variant\":\"%s\",\"pages_source\":\"allocator\","
		 "\"threads\":%d,\"ops\":1000,\"page_size\":4096,\"peak_pages\":%d,"
		 "\"final_pages\":%d,\"requested_bytes\":100,\"held_bytes\":%d,"
		 "\"ops_per_s\":%g,\"ops_per_cpu_s\":%g,\"leak_pages\":0,"
		 "\"classes_at_peak\":[{\"name\":\"kmalloc-8\",\"objects\":2,\"requested\":10,"
		 "\"usable\":16}],\"caches_final\":[{\"name\":\"dentry\",\"slabs\":3,"
		 "\"objects\":60,\"order\":0,\"size\":192,\"merged\":false}],"
		 "\"samples\":[1,%d,%d]}",
		 trace, variant, threads, peak, final, peak * 4096, ops, ops, peak, final);
	r->runs = realloc(r->runs, (r->nr_runs + 1) * sizeof(*r->runs));
	if (st_fp_run_parse(json, &r->runs[r->nr_runs]) == 0)
		r->nr_runs++;
}

static const struct st_fp_ratio *ratio(const struct st_fp_report *r, const char *trace,
				       const char *what, const char *num)
{
	size_t i;

	for (i = 0; i < r->nr_ratios; i++) {
		if (!strcmp(r->ratios[i].trace, trace) && !strcmp(r->ratios[i].what, what) &&
		    !strcmp(r->ratios[i].num, num))
			return &r->ratios[i];
	}
	return NULL;
}

/* svg: 1 the SVG, 0 the text, 2 the text with -v */
static char *render(const struct st_fp_report *r, int svg)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (svg == 1)
		st_fp_render_svg(r, f);
	else
		st_fp_render_text(r, svg == 2, f);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s++;
	}
	return n;
}

int main(void)
{
	struct st_fp_report r = { 0 };
	const struct st_fp_ratio *x;
	char *text, *svg, *js;
	cJSON *root;

	add(&r, "boot", "slob", 1, 90, 80, 1e6);
	add(&r, "boot", "slub", 1, 100, 100, 5e7);
	add(&r, "boot", "slub_tiny", 1, 95, 90, 4e7);
	add(&r, "net", "slub", 2, 30, 20, 9e7);
	add(&r, "net", "slub_tiny", 2, 10, 5, 5e7);
	ok(r.nr_runs == 5 && r.runs[0].nr_classes == 1 && r.runs[0].nr_caches == 1 &&
	   r.runs[0].nr_samples == 3 && r.runs[3].threads == 2, "replay JSON parses into runs");
	ok(st_fp_compare(&r) == 0, "compare");
	x = ratio(&r, "boot", "peak_pages", "slub_tiny");
	ok(x && fabs(x->value - 0.95) < 1e-9 && !x->kernel &&
	   x->expect && !strcmp(x->expect, "< 1") && x->holds,
	   "boot: tiny/slub peak; no kernel ratio without booted figures");
	x = ratio(&r, "boot", "peak_pages", "slob");
	ok(x && fabs(x->value - 90.0 / 95) < 1e-9 && x->holds && !strcmp(x->expect, "<= 1"),
	   "boot: slob/tiny peak");
	x = ratio(&r, "boot", "ops_per_s", "slub");
	ok(x && !x->expect, "one thread: no throughput expectation");
	x = ratio(&r, "net", "ops_per_s", "slub");
	ok(x && fabs(x->value - 1.8) < 1e-9 && x->holds && !x->kernel,
	   "net, 2 threads: slub/tiny >= 1.5 holds at 1.8");
	x = ratio(&r, "net", "peak_pages", "slub_tiny");
	ok(x && !x->expect && !x->kernel, "kernel figures and page expectations only on boot");
	ok(!r.failed, "nothing failed");

	text = render(&r, 0);
	ok(text && strstr(text, "  boot   peak_pages    slub_tiny/slub = 0.950  expected < 1: yes\n") &&
	   !strstr(text, "kernel") && !strstr(text, "final_pages ") && !strstr(text, "kmalloc-8"),
	   "text: the expected ratios and their verdict, no kernel figure, no detail");
	ok(text && count(text, "\n") == 11, "text: header, a row per run, the expected ratios");
	free(text);
	text = render(&r, 2);
	ok(text && strstr(text, "final_pages   slub_tiny/slub = 0.900") && strstr(text, "kmalloc-8"),
	   "text -v: every ratio, the size classes");
	free(text);
	ok(!st_fp_set_kernel(&r, "slub", 2000, "booted linux-6.12 x86_64") &&
	   !st_fp_set_kernel(&r, "slub_tiny", 1800, "booted linux-6.12 x86_64") &&
	   !st_fp_compare(&r), "booted kernel figures");
	x = ratio(&r, "boot", "peak_pages", "slub_tiny");
	ok(x && fabs(x->kernel - 0.9) < 1e-9, "boot: the booted kernel's ratio");
	text = render(&r, 0);
	ok(text && strstr(text, "slub_tiny/slub = 0.950  (booted kernel's Slab: 0.900)  expected") &&
	   strstr(text, "  slub              2000 kB  booted linux-6.12 x86_64\n"),
	   "text: the booted figures, named");
	free(text);
	svg = render(&r, 1);
	ok(svg && count(svg, "<polyline") == 5 && strstr(svg, "trace boot"),
	   "svg: a line per run, a panel per trace");
	free(svg);
	root = st_fp_render_json(&r);
	js = root ? cJSON_PrintUnformatted(root) : NULL;
	ok(js && strstr(js, "{\"version\":\"" ST_VERSION "\",\"runs\":[{\"trace\":\"boot\",\"variant\":\"slob\",\"threads\":1,"
			"\"peak_pages\":90,\"final_pages\":80,\"requested_bytes\":100,"
			"\"held_bytes\":368640,\"ops_per_s\":1000000,") &&
	   strstr(js, "\"expectations_hold\":true"), "json: the issue's keys first");
	cJSON_free(js);
	cJSON_Delete(root);

	/* SLUB_TINY above SLUB on boot is a finding */
	r.runs[2].peak_pages = 120;
	st_fp_compare(&r);
	x = ratio(&r, "boot", "peak_pages", "slub_tiny");
	ok(x && !x->holds && r.failed, "tiny above slub on boot fails the report");
	st_fp_report_free(&r);

	/* the same figure through the budget helper, from the real replay */
	{
		struct st_error e = { 0 };
		unsigned long tiny = 0, slub = 0;

		ok(!st_fp_peak_pages("slub_tiny", "boot", &tiny, &e) &&
		   !st_fp_peak_pages("slub", "boot", &slub, &e) && tiny && tiny < slub,
		   "st_fp_peak_pages: boot, slub_tiny below slub");
		ok(st_fp_peak_pages("nosuch", "boot", &tiny, &e) < 0 && e.code,
		   "st_fp_peak_pages: unknown variant is an error");
	}
	printf("1..%d\n", tests);
	return failures ? 1 : 0;
}
