// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit nr_test of the footprint result model (TAP): replay JSON in, runs,
 * every variant against SLUB_TINY, the page expectations (the only ones:
 * speed is measured, never expected), the kernel's ratios, and the three
 * renderers over the same report.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "footprint/footprint.h"
#include "st_config.h"

#include "../../tap.h"

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

/* The ratio @what of @num over @den (NULL: the first of any) on @trace. */
static const struct st_fp_ratio *ratio_of(const struct st_fp_report *r, const char *trace,
					  const char *what, const char *num, const char *den)
{
	size_t i;

	for (i = 0; i < r->nr_ratios; i++) {
		if (!strcmp(r->ratios[i].trace, trace) && !strcmp(r->ratios[i].what, what) &&
		    !strcmp(r->ratios[i].num, num) && (!den || !strcmp(r->ratios[i].den, den)))
			return &r->ratios[i];
	}
	return NULL;
}

static const struct st_fp_ratio *ratio(const struct st_fp_report *r, const char *trace,
				       const char *what, const char *num)
{
	return ratio_of(r, trace, what, num, NULL);
}

/* svg: 1 the SVG, 0 the text, 2 the text with -v */
static char *render(const struct st_fp_report *r, int svg)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	struct st_render_opts o = {
		.format = svg == 1 ? ST_FORMAT_SVG : ST_FORMAT_TEXT,
		.verbose = svg == 2,
	};

	ok(st_fp_render(f, r, &o) == 0, "rendered as %s", svg == 1 ? "svg" : "text");
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

	add(&r, "boot", "slob", 1, 90, 80, 2e6);
	add(&r, "boot", "slub", 1, 100, 100, 5e7);
	add(&r, "boot", "slub_tiny", 1, 95, 90, 4e7);
	/* SLUB below SLUB_TINY on net, as it can be on frees to other slabs */
	add(&r, "net", "slub", 2, 30, 20, 4e7);
	add(&r, "net", "slub_tiny", 2, 10, 5, 5e7);
	add(&r, "net", "slub_sheaves", 2, 36, 36, 6e7);
	add(&r, "net-1t", "slub", 1, 28, 28, 3e7);
	add(&r, "net-1t", "slub_tiny", 1, 12, 5, 4e7);
	add(&r, "net-1t", "slub_sheaves", 1, 33, 33, 5e7);
	ok(r.nr_runs == 9 && r.runs[0].nr_classes == 1 && r.runs[0].nr_caches == 1 &&
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
	ok(x && !x->expect && x->timed && fabs(x->value - 1.25) < 1e-9,
	   "boot, one thread: slub/tiny ops/s, no expectation");
	x = ratio(&r, "net", "ops_per_s", "slub");
	ok(x && fabs(x->value - 0.8) < 1e-9 && !x->expect && !x->holds && x->timed && !x->kernel,
	   "net, 2 threads: slub/tiny ops/s 0.8, measured, no expectation");
	x = ratio(&r, "net-1t", "ops_per_s", "slub");
	ok(x && fabs(x->value - 0.75) < 1e-9 && !x->expect,
	   "net on one thread: slub/tiny ops/s 0.75, no expectation");
	x = ratio(&r, "net", "scaling", "slub");
	ok(x && fabs(x->value - (4.0 / 3) / 1.25) < 1e-9 && !x->expect && x->timed,
	   "net: slub's 2-thread/1-thread scaling over tiny's, no expectation");
	ok(!r.failed, "a slower SLUB fails nothing");
	x = ratio(&r, "net", "peak_pages", "slub_tiny");
	ok(x && !x->expect && !x->kernel, "kernel figures and page expectations only on boot");
	{
		static const char *const whats[] = { "peak_pages", "final_pages", "ops_per_s",
						     "ops_per_cpu_s" };
		static const char *const traces[] = { "net", "net-1t" };
		int all = 1, i, t;

		for (t = 0; t < 2; t++) {
			for (i = 0; i < 4; i++) {
				x = ratio_of(&r, traces[t], whats[i], "slub_sheaves",
					     "slub_tiny");
				all &= x && !x->expect;
				x = ratio_of(&r, traces[t], whats[i], "slub", "slub_tiny");
				all &= x && !x->expect;
			}
		}
		x = ratio_of(&r, "net", "scaling", "slub_sheaves", "slub_tiny");
		all &= x && fabs(x->value - 1.2 / 1.25) < 1e-9;
		all &= !!ratio_of(&r, "boot", "ops_per_s", "slob", "slub_tiny");
		ok(all, "every variant against slub_tiny, pages and speed, on 1 and 2 threads");
	}

	text = render(&r, 0);
	ok(text && strstr(text, "  boot    peak_pages    slub_tiny/slub = 0.950  expected < 1: yes\n") &&
	   !strstr(strchr(text, '\n'), "kernel") && !strstr(text, "final_pages ") &&
	   !strstr(text, "kmalloc-8") &&
	   !strstr(text, "ops_per_s") && !strstr(text, "NO"),
	   "text: the expected page ratios and their verdict, no speed verdict, no detail");
	ok(text && strstr(text, "\nagainst slub_tiny on the same trace: peak pages and ops/s, "
			  "times slub_tiny's\n"
			  "trace   thr           slob           slub   slub_sheaves\n"
			  "              pages  ops/s   pages  ops/s   pages  ops/s\n"
			  "boot      1   0.95x  0.05x   1.05x  1.25x              -\n"
			  "net       2              -   3.00x  0.80x   3.60x  1.20x\n"
			  "net-1t    1              -   2.33x  0.75x   2.75x  1.25x\n"),
	   "text: each variant's peak pages and ops/s against slub_tiny, labelled, 1 and 2 threads");
	ok(text && count(text, "\n") == 22 &&
	   !strncmp(text, "Measured: slubtiny's bundled user-space allocator (lib/slab), not a "
		    "kernel\n", 75),
	   "text: what was measured, header, units, a row per run, the comparison, the ratios");
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
	ok(svg && count(svg, "<polyline") == 9 && strstr(svg, "trace boot"),
	   "svg: a line per run, a panel per trace");
	free(svg);
	root = st_fp_to_json(&r);
	js = root ? cJSON_PrintUnformatted(root) : NULL;
	ok(js && strstr(js, "{\"version\":\"" ST_VERSION "\",\"runs\":[{\"trace\":\"boot\",\"variant\":\"slob\",\"threads\":1,"
			"\"peak_pages\":90,\"final_pages\":80,\"requested_bytes\":100,"
			"\"held_bytes\":368640,\"ops_per_s\":2000000,") &&
	   strstr(js, "\"expectations_hold\":true"), "json: the schema's first keys");
	ok(js && strstr(js, "{\"trace\":\"net\",\"what\":\"ops_per_s\",\"num\":\"slub\","
			"\"den\":\"slub_tiny\",\"value\":0.8,\"kernel\":null,\"expect\":null,"
			"\"holds\":null,\"timing\":true}") &&
	   strstr(js, "\"expect\":\"< 1\",\"holds\":true,\"timing\":false}"),
	   "json: a speed ratio has no expectation and no verdict (null)");
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
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
