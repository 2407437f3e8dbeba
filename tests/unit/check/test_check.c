// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/check: each rule on small in-memory defconfigs, the
 * suppression comments, .slubtiny.json, budgets and the output formats.
 * TAP output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "common/json.h"
#include "defconfig/defconfig.h"
#include "layout/discover.h"
#include "migrate/migrate.h"

#include "../../tap.h"

/* The kernel expect_for() judges for ("" none: the newest). */
static const char *judge = "";

/* Check @text as file @name with every rule on; returns the result. */
static struct st_check_result run(const char *name, const char *text,
				  const char *ignore)
{
	struct st_check_result r;
	struct st_check_opts o;
	struct st_defconfig *dc;
	struct st_kver v;

	st_check_result_init(&r);
	st_check_opts_init(&o);
	if (*judge && !st_kver_parse(judge, &v)) {
		o.judge_major = o.fix_major = v.major;
		o.judge_minor = o.fix_minor = v.minor;
	}
	if (ignore) {
		bool off[ST_RULE_COUNT] = { 0 };

		st_check_rule_list(off, ignore, NULL);
		for (int i = 0; i < ST_RULE_COUNT; i++)
			o.enabled[i] &= !off[i];
	}
	if (st_defconfig_parse(&dc, text, strlen(text), name, NULL))
		abort();
	if (st_check_defconfig(&r, dc, name, &o))
		abort();
	st_defconfig_free(dc);
	st_check_sort(&r);
	return r;
}

/* "rule@line,rule@line" of a result, for compact expectations. */
static const char *summary(const struct st_check_result *r)
{
	static char buf[1024];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < r->nr && n < sizeof(buf) - 64; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s@%d", i ? "," : "",
			      st_check_rules[r->f[i].rule].id, r->f[i].line);
	return buf;
}

static void expect(const char *what, const char *name, const char *text,
		   const char *ignore, const char *want)
{
	struct st_check_result r = run(name, text, ignore);
	const char *got = summary(&r);

	ok(!strcmp(got, want), "%s: got '%s', want '%s'", what, got, want);
	st_check_result_free(&r);
}

/* expect() for kernel @ver, as with --target VER */
static void expect_for(const char *what, const char *ver, const char *text,
		       const char *want)
{
	judge = ver;
	expect(what, "a_defconfig", text, NULL, want);
	judge = "";
}

/* The rules that depend on the kernel: 6.11 to 7.3. */
static void test_versions(void)
{
	struct st_check_result r;

	expect_for("compile test, 6.14: SLUB_TINY does not depend on it", "6.14",
		   "CONFIG_EXPERT=y\nCONFIG_COMPILE_TEST=y\nCONFIG_SLUB_TINY=y\n",
		   "hardening-notice@3");
	expect_for("compile test, 6.15", "6.15",
		   "CONFIG_EXPERT=y\nCONFIG_COMPILE_TEST=y\nCONFIG_SLUB_TINY=y\n",
		   "slub-tiny-deps@3,hardening-notice@3");
	expect_for("cpu partial not set, 6.12", "6.12",
		   "# CONFIG_SLUB_CPU_PARTIAL is not set\n", "");
	expect_for("cpu partial not set, 6.19", "6.19",
		   "# CONFIG_SLUB_CPU_PARTIAL is not set\n", "");
	expect_for("cpu partial not set, 7.0", "7.0",
		   "# CONFIG_SLUB_CPU_PARTIAL is not set\n", "removed-option@1");
	expect_for("cpu partial y, 7.3", "7.3", "CONFIG_SLUB_CPU_PARTIAL=y\n",
		   "removed-option@1");
	expect("cpu partial without a target: the newest kernel", "a_defconfig",
	       "CONFIG_SLUB_CPU_PARTIAL=y\n", NULL, "removed-option@1");
	expect("cpu partial, removed-option off", "a_defconfig",
	       "CONFIG_SLUB_CPU_PARTIAL=y\n", "removed-option", "");
	/* beside SLUB_TINY: one finding, the one of the kernel judged for */
	expect_for("cpu partial beside tiny, 6.12", "6.12",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_CPU_PARTIAL=y\n",
		   "hardening-notice@2,slub-tiny-disables@3");
	expect_for("cpu partial beside tiny, 7.0", "7.0",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_CPU_PARTIAL=y\n",
		   "hardening-notice@2,removed-option@3");
	expect_for("random kmalloc, 7.1", "7.1", "CONFIG_RANDOM_KMALLOC_CACHES=y\n", "");
	expect_for("random kmalloc, 7.2", "7.2", "CONFIG_RANDOM_KMALLOC_CACHES=y\n",
		   "removed-option@1");
	expect_for("random kmalloc beside tiny, 7.1", "7.1",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_RANDOM_KMALLOC_CACHES=y\n",
		   "hardening-notice@2,slub-tiny-disables@3");
	expect_for("random kmalloc beside tiny, 7.2", "7.2",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_RANDOM_KMALLOC_CACHES=y\n",
		   "hardening-notice@2,removed-option@3");
	expect_for("partition caches beside tiny, 7.2", "7.2",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_KMALLOC_PARTITION_CACHES=y\n",
		   "hardening-notice@2,slub-tiny-disables@3");
	expect_for("partition caches beside tiny, 7.1: not a 7.1 symbol", "7.1",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_KMALLOC_PARTITION_CACHES=y\n",
		   "hardening-notice@2");
	expect_for("buckets beside tiny, 6.11", "6.11",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLAB_BUCKETS=y\n",
		   "hardening-notice@2,slub-tiny-disables@3");
	expect_for("buckets beside tiny, 6.10: not a 6.10 symbol", "6.10",
		   "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLAB_BUCKETS=y\n",
		   "hardening-notice@2");

	judge = "7.0";
	r = run("a_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_STATS=y\n", NULL);
	ok(r.nr == 2 && strstr(r.f[1].msg, "sheaf counters"),
	   "SLUB_STATS on 7.0 names the sheaf counters: %s", r.nr > 1 ? r.f[1].msg : "");
	st_check_result_free(&r);
	judge = "6.12";
	r = run("a_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_STATS=y\n", NULL);
	ok(r.nr == 2 && !strstr(r.f[1].msg, "sheaf"),
	   "SLUB_STATS on 6.12: no sheaves: %s", r.nr > 1 ? r.f[1].msg : "");
	st_check_result_free(&r);

	/* the messages name the release and the replacement */
	judge = "7.2";
	r = run("a_defconfig", "# CONFIG_SLUB_CPU_PARTIAL is not set\n"
		"CONFIG_RANDOM_KMALLOC_CACHES=y\n", NULL);
	ok(r.nr == 2 && strstr(r.f[0].msg, "removed in Linux 7.0") &&
	   !strcmp(r.f[0].hint, "delete this line") &&
	   st_check_rules[r.f[0].rule].fixable,
	   "cpu partial: release and 'delete this line': %s", r.nr ? r.f[0].msg : "");
	ok(r.nr == 2 && strstr(r.f[1].msg, "Linux 7.2") &&
	   strstr(r.f[1].msg, "KMALLOC_PARTITION_CACHES") &&
	   !strcmp(r.f[1].hint, "replace with CONFIG_KMALLOC_PARTITION_CACHES=y"),
	   "random kmalloc: names KMALLOC_PARTITION_CACHES: %s", r.nr > 1 ? r.f[1].msg : "");
	st_check_result_free(&r);
	r = run("a_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\n"
		"CONFIG_RANDOM_KMALLOC_CACHES=y\n", NULL);
	ok(r.nr == 2 && strstr(r.f[1].msg, "KMALLOC_PARTITION_CACHES") &&
	   strstr(r.f[1].msg, "no effect next to CONFIG_SLUB_TINY=y (line 2)") &&
	   !strcmp(r.f[1].hint, "delete this line, or CONFIG_SLUB_TINY=y at line 2"),
	   "random kmalloc beside tiny: no effect: %s", r.nr > 1 ? r.f[1].msg : "");
	st_check_result_free(&r);
	r = run("a_defconfig", "# CONFIG_RANDOM_KMALLOC_CACHES is not set\n"
		"CONFIG_KMALLOC_PARTITION_CACHES=y\n", NULL);
	ok(r.nr == 1 && strstr(r.f[0].hint, "line 2 sets CONFIG_KMALLOC_PARTITION_CACHES"),
	   "random kmalloc beside the new name: %s", r.nr ? r.f[0].hint : "");
	st_check_result_free(&r);
	judge = "";
}

static void test_rules(void)
{
	expect("clean file", "a_defconfig", "CONFIG_SLUB=y\n# CONFIG_SLOB is not set\n", NULL, "");
	expect("slob", "a_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLOB=y\n", NULL,
	       "removed-allocator@2");
	expect("slab and deprecated", "a_defconfig",
	       "CONFIG_SLAB=y\nCONFIG_SLOB_DEPRECATED=y\n", NULL,
	       "removed-allocator@1,removed-allocator@2");
	expect("slab=m counts", "a_defconfig", "CONFIG_SLAB_DEPRECATED=m\n", NULL,
	       "removed-allocator@1");
	expect("slab=n is fine", "a_defconfig", "CONFIG_SLAB=n\n", NULL, "");
	expect("tiny without expert", "a_defconfig", "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", NULL,
	       "slub-tiny-deps@2,hardening-notice@2");
	expect("tiny with expert", "a_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\n", NULL,
	       "hardening-notice@2");
	expect("notice off", "a_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\n",
	       "hardening-notice", "");
	expect("expert disabled", "a_defconfig",
	       "# CONFIG_EXPERT is not set\nCONFIG_SLUB_TINY=y\n", "hardening-notice",
	       "slub-tiny-deps@2");
	expect("compile test and slub off", "a_defconfig",
	       "CONFIG_EXPERT=y\nCONFIG_COMPILE_TEST=y\n# CONFIG_SLUB is not set\nCONFIG_SLUB_TINY=y\n",
	       "hardening-notice", "slub-tiny-deps@4,slub-tiny-deps@4");
	expect("tiny disabled at the end", "a_defconfig",
	       "CONFIG_SLUB_TINY=y\n# CONFIG_SLUB_TINY is not set\nCONFIG_SLUB_DEBUG=y\n", NULL,
	       "conflicting-assignment@2");
	expect("disables", "a_defconfig",
	       "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_DEBUG=y\nCONFIG_SLAB_FREELIST_RANDOM=y\n"
	       "CONFIG_SLAB_FREELIST_HARDENED=y\nCONFIG_SLUB_STATS=y\nCONFIG_SLUB_CPU_PARTIAL=y\n"
	       "# CONFIG_KASAN is not set\n", "hardening-notice",
	       "slub-tiny-disables@3,slub-tiny-disables@4,slub-tiny-disables@5,"
	       "slub-tiny-disables@6,removed-option@7");
	expect("disables need tiny", "a_defconfig", "CONFIG_SLUB_DEBUG=y\n", NULL, "");
	expect("duplicate and conflict", "a_defconfig",
	       "CONFIG_A=y\nCONFIG_B=y\nCONFIG_A=y\n# CONFIG_B is not set\n", NULL,
	       "duplicate-assignment@3,conflicting-assignment@4");
	expect("syntax", "a_defconfig", "CONFIG_A=y\nfoo bar\nCONFIG_B=\n", NULL,
	       "syntax@2,syntax@3");
	expect("fragment note", "tiny.config", "CONFIG_SLUB_TINY=y\n", "hardening-notice",
	       "slub-tiny-deps@1");
}

static void test_messages(void)
{
	struct st_check_result r = run("x_defconfig",
		"CONFIG_EMBEDDED=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLOB=y\n", "hardening-notice");

	ok(r.nr == 2, "two findings");
	if (r.nr != 2)
		return;
	ok(strstr(r.f[0].msg, "CONFIG_EMBEDDED=y (line 1)") != NULL,
	   "slub-tiny-deps names EMBEDDED: %s", r.f[0].msg);
	ok(r.f[0].hint && strstr(r.f[0].hint, "CONFIG_EXPERT=y"), "hint adds EXPERT");
	ok(!strcmp(r.f[1].sym, "SLOB") && strstr(r.f[1].msg, "6.4"), "slob message: %s",
	   r.f[1].msg);
	ok(st_check_nr_failing(&r) == 2, "warnings fail");
	st_check_result_free(&r);
	r = run("x_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\n", NULL);
	ok(r.nr == 1 && st_check_nr_failing(&r) == 0, "a note alone does not fail");
	st_check_result_free(&r);
}

static void test_suppress_parse(void)
{
	struct st_supp s;
	static const struct {
		const char *text;
		enum st_supp_kind kind;
		int rule;	/* one rule that must be set, -1 none, -2 all */
	} cases[] = {
		{ "# slubtiny: ignore[removed-allocator]", ST_SUPP_LINE, ST_RULE_REMOVED_ALLOCATOR },
		{ "#slubtiny:ignore[ syntax , duplicate-assignment ] why", ST_SUPP_LINE, ST_RULE_SYNTAX },
		{ "# slubtiny: ignore-file[hardening-notice]", ST_SUPP_FILE, ST_RULE_HARDENING_NOTICE },
		{ "# slubtiny: ignore", ST_SUPP_LINE, -2 },
		{ "# slubtiny: ignore because", ST_SUPP_LINE, -2 },
		{ "# slubtiny: ignore[nope]", ST_SUPP_BAD, -1 },
		{ "# slubtiny: ignore[]", ST_SUPP_BAD, -1 },
		{ "# slubtiny: ignore[syntax", ST_SUPP_BAD, -1 },
		{ "# slubtiny: ignore[syntax]x", ST_SUPP_BAD, -1 },
		{ "# slubtiny: frob", ST_SUPP_BAD, -1 },
		{ "# slubtiny: ignorex", ST_SUPP_BAD, -1 },
		{ "# slubtiny: ignore [hardening-notice]", ST_SUPP_LINE, ST_RULE_HARDENING_NOTICE },
		{ "# slubtiny: ignore [syntax", ST_SUPP_BAD, -1 },
		{ "# slubtiny: ignore[Syntax]", ST_SUPP_BAD, -1 },
		{ "# slubtiny: IGNORE[syntax]", ST_SUPP_BAD, -1 },
		{ "# CONFIG_SLOB is not set", ST_SUPP_NONE, -1 },
		{ "CONFIG_A=y", ST_SUPP_NONE, -1 },
		{ "", ST_SUPP_NONE, -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool good;

		st_check_parse_suppression(&s, cases[i].text, strlen(cases[i].text));
		good = s.kind == cases[i].kind;
		if (cases[i].rule >= 0)	/* that rule, not every rule */
			good &= s.rules[cases[i].rule] &&
				!(s.rules[0] && s.rules[ST_RULE_COUNT - 1]);
		if (cases[i].rule == -2)
			good &= s.rules[0] && s.rules[ST_RULE_COUNT - 1];
		ok(good, "suppression '%s' -> kind %d (%s)", cases[i].text, s.kind, s.bad);
	}
	/* the length bounds the parse: no terminating NUL needed */
	st_check_parse_suppression(&s, "# slubtiny: ignore[syntax]garbage", 26);
	ok(s.kind == ST_SUPP_LINE && s.rules[ST_RULE_SYNTAX], "parse stops at len");
}

static void test_suppress_apply(void)
{
	expect("line suppression", "a_defconfig",
	       "# slubtiny: ignore[removed-allocator]\n\n# why: legacy board\nCONFIG_SLOB=y\nCONFIG_SLAB=y\n",
	       NULL, "removed-allocator@5");
	expect("suppression of another rule", "a_defconfig",
	       "# slubtiny: ignore[syntax]\nCONFIG_SLOB=y\n", NULL, "removed-allocator@2");
	expect("file suppression", "a_defconfig",
	       "CONFIG_SLOB=y\n# slubtiny: ignore-file[removed-allocator]\nCONFIG_SLAB=y\n", NULL, "");
	expect("bad suppression", "a_defconfig",
	       "# slubtiny: ignore[slob]\nCONFIG_SLOB=y\n", NULL,
	       "bad-suppression@1,removed-allocator@2");
	{
		struct st_check_result r = run("a_defconfig",
			"# slubtiny: ignore\nCONFIG_SLOB=y\n", NULL);

		ok(r.nr == 0 && r.nr_suppressed == 1, "suppressed count %zu", r.nr_suppressed);
		st_check_result_free(&r);
	}
}

static void test_config(void)
{
	struct st_check_config c;
	struct st_error e = { 0 };
	const char *good = "{\"select\":[\"removed-allocator\",\"syntax\"],"
			   "\"ignore\":[\"hardening-notice\"],\"srctree\":\"linux\","
			   "\"arch\":\"arm\",\"budget\":\"/abs/b.json\"}";
	int ret;

	ret = st_check_config_parse(&c, good, strlen(good), "repo/.slubtiny.json", &e);
	ok(!ret && c.has_select && c.select[ST_RULE_SYNTAX] && !c.select[ST_RULE_DUPLICATE] &&
	   c.ignore[ST_RULE_HARDENING_NOTICE], "config rules");
	ok(!ret && !strcmp(c.srctree, "repo/linux") && !strcmp(c.arch, "arm") &&
	   !strcmp(c.budget, "/abs/b.json"), "config paths resolve against the file");
	st_check_config_free(&c);
	{
		const char *inl = "{\"budgets\":[{\"object\":\"a.o\",\"max\":{\"text\":1}}]}";
		struct st_budget b;

		ret = st_check_config_parse(&c, inl, strlen(inl), "r/.slubtiny.json", &e);
		ok(!ret && c.budgets, "inline budgets kept");
		ret = ret ? ret : st_budget_parse(&b, c.budgets, strlen(c.budgets), c.path, &e);
		ok(!ret && b.nr == 1 && !strcmp(b.e[0].object, "r/a.o"),
		   "inline budgets parse as a budget file next to the config");
		if (!ret)
			st_budget_free(&b);
		st_check_config_free(&c);
	}
	static const char *const bad[] = {
		"", "[]", "{\"selct\":[]}", "{\"budgets\":{}}",
		"{\"budget\":\"b.json\",\"budgets\":[]}", "{\"select\":[\"nope\"]}", "{\"select\":\"syntax\"}",
		"{\"srctree\":1}", "{\"srctree\":\"\"}", "{\"ignore\":[1]}", "{",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		st_error_clear(&e);
		ret = st_check_config_parse(&c, bad[i], strlen(bad[i]), ".slubtiny.json", &e);
		ok(ret < 0 && e.msg[0], "bad config '%s': %s", bad[i], e.msg);
		st_check_config_free(&c);
	}
}

static void test_budget(void)
{
	const char *doc = "{\"budgets\":["
		"{\"object\":\"obj.o\",\"max\":{\"text\":100,\"bss\":0},"
		" \"baseline\":\"old.o\",\"growth\":{\"total\":\"10%\",\"data\":5}},"
		"{\"variant\":\"slub_tiny\",\"arch\":\"arm\",\"max\":{\"total\":1000}}]}";
	struct st_budget_sizes cur = { { 120, 20, 0, 140 } }, base = { { 100, 10, 0, 110 } };
	struct st_check_result r;
	struct st_error e = { 0 };
	struct st_budget b;
	int ret;

	ret = st_budget_parse(&b, doc, strlen(doc), "ci/budget.json", &e);
	ok(!ret && b.nr == 2, "budget parses (%s)", e.msg);
	if (ret)
		return;
	ok(!strcmp(b.e[0].object, "ci/obj.o") && !strcmp(b.e[0].baseline, "ci/old.o"),
	   "object paths resolve against the budget file");
	ok(b.e[0].growth[ST_BF_TOTAL].percent && b.e[0].growth[ST_BF_TOTAL].value == 10,
	   "percent growth");
	st_check_result_init(&r);
	st_budget_judge(&r, &b, &b.e[0], "ci/obj.o", &cur, &base);
	/* text 120 > 100; data +10 > 5; total +27.3% > 10% */
	ok(r.nr == 3, "three limits blown (%zu)", r.nr);
	ok(r.nr == 3 && strstr(r.f[0].msg, "text is 120 bytes, over its budget of 100 bytes by 20"),
	   "max message: %s", r.nr ? r.f[0].msg : "");
	ok(r.nr == 3 && strstr(r.f[2].msg, "grew from 110 to 140") && strstr(r.f[2].msg, "10.00%"),
	   "growth message: %s", r.nr == 3 ? r.f[2].msg : "");
	st_check_result_free(&r);
	st_check_result_init(&r);
	st_budget_judge(&r, &b, &b.e[0], "ci/obj.o", &base, &base);
	ok(r.nr == 0, "nothing fails at exactly the limits (%zu)", r.nr);
	st_check_result_free(&r);
	st_budget_free(&b);
	static const char *const bad[] = {
		"{}", "{\"budgets\":{}}", "{\"budgets\":[{}]}",
		"{\"budgets\":[{\"object\":\"a\"}]}",
		"{\"budgets\":[{\"object\":\"a\",\"variant\":\"b\",\"max\":{\"text\":1}}]}",
		"{\"budgets\":[{\"object\":\"a\",\"max\":{\"txt\":1}}]}",
		"{\"budgets\":[{\"object\":\"a\",\"max\":{\"text\":\"5%\"}}]}",
		"{\"budgets\":[{\"object\":\"a\",\"max\":{\"text\":-1}}]}",
		"{\"budgets\":[{\"object\":\"a\",\"growth\":{\"text\":1}}]}",
		"{\"budgets\":[{\"object\":\"a\",\"baseline\":\"b\",\"growth\":{\"text\":\"x%\"}}]}",
		"{\"budgets\":[{\"object\":\"a\",\"arch\":\"arm\",\"max\":{\"text\":1}}]}",
		"{\"budgets\":[],\"x\":1}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		st_error_clear(&e);
		ret = st_budget_parse(&b, bad[i], strlen(bad[i]), "b.json", &e);
		ok(ret < 0 && e.msg[0], "bad budget %zu: %s", i, e.msg);
		st_budget_free(&b);
	}
}

static char *render(const struct st_check_result *r, enum st_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || st_check_render(f, r, &(struct st_render_opts){ .format = fmt }))
		abort();
	fclose(f);
	return buf;
}

/*
 * The JSON renderer prints the findings one at a time; its bytes must be
 * those of the whole tree (st_check_to_json()), plain and indented.
 */
static void json_same(const struct st_check_result *r, const char *what)
{
	int pretty;

	for (pretty = 0; pretty < 2; pretty++) {
		char *a = NULL, *b = NULL;
		size_t la = 0, lb = 0;
		FILE *fa = open_memstream(&a, &la), *fb = open_memstream(&b, &lb);

		if (!fa || !fb || st_json_print(fa, st_check_to_json(r), pretty) ||
		    st_check_render(fb, r, &(struct st_render_opts){
			    .format = ST_FORMAT_JSON, .pretty = pretty }))
			abort();
		fclose(fa);
		fclose(fb);
		ok(la == lb && !memcmp(a, b, la), "json streamed = whole tree, %s%s", what,
		   pretty ? ", indented" : "");
		free(a);
		free(b);
	}
}

static void test_render(void)
{
	struct st_check_result r = run("dir, x/a%b_defconfig",
		"CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLAB=y\n", NULL);
	cJSON *j;
	char *s;

	s = render(&r, ST_FORMAT_TEXT);
	ok(strstr(s, "dir, x/a%b_defconfig:3:1: warning: CONFIG_SLAB=y: SLAB was removed in Linux 6.8") &&
	   strstr(s, " [removed-allocator]\n") &&
	   strstr(s, "dir, x/a%b_defconfig:3:1: note: fix: delete the line (SLUB needs no line since Linux 6.8);") &&
	   strstr(s, "dir, x/a%b_defconfig:2:1: note: CONFIG_SLUB_TINY=y turns off"),
	   "text format");
	if (nr_fail)
		fputs(s, stderr);
	free(s);
	s = render(&r, ST_FORMAT_GITHUB);
	ok(strstr(s, "::warning file=dir%2C x/a%25b_defconfig,line=3,col=1,title=removed-allocator::CONFIG_SLAB=y: SLAB") &&
	   strstr(s, "::notice file=") && strstr(s, "%0Afix: "),
	   "github format");
	if (nr_fail)
		fputs(s, stderr);
	free(s);
	s = render(&r, ST_FORMAT_JSON);
	j = cJSON_Parse(s);
	ok(j && cJSON_GetArraySize(cJSON_GetObjectItem(j, "findings")) == 2 &&
	   cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summary"), "failing")->valueint == 1,
	   "json format");
	cJSON_Delete(j);
	free(s);
	json_same(&r, "two findings");
	s = render(&r, ST_FORMAT_SARIF);
	j = cJSON_Parse(s);
	ok(j && !strcmp(cJSON_GetObjectItem(j, "version")->valuestring, "2.1.0") &&
	   strstr(s, "\"uri\":\"dir%2C%20x/a%25b_defconfig\""), "sarif format");
	cJSON_Delete(j);
	free(s);
	st_check_result_free(&r);
	r = run("one_defconfig", "CONFIG_SLAB=y\n", NULL);
	json_same(&r, "one finding");
	st_check_result_free(&r);
	r = run("clean_defconfig", "CONFIG_SLUB=y\n", NULL);
	json_same(&r, "no finding");
	st_check_result_free(&r);
}

static void test_arch_of(void)
{
	static const struct {
		const char *path, *arch;
	} cases[] = {
		{ "arch/sh/configs/se7206_defconfig", "sh" },
		{ "/usr/src/linux/arch/powerpc/configs/44x/bamboo_defconfig", "powerpc" },
		{ "./arch/x86/configs/tiny.config", "x86" },
		{ "myarch/x/configs/a_defconfig", NULL },
		{ "kernel/configs/tiny.config", NULL },
		{ "arch//configs/a", NULL },
		{ "a_defconfig", NULL },
		{ "arch/arm/configs/../../arch/mips/configs/x_defconfig", "mips" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = 0;
		const char *a = st_arch_of_path(cases[i].path, &n);

		ok(cases[i].arch ? a && n == strlen(cases[i].arch) &&
				   !strncmp(a, cases[i].arch, n) : !a,
		   "arch of %s: %.*s", cases[i].path, a ? (int)n : 6, a ? a : "(none)");
	}
}

static void test_resolve(void)
{
	char *p;

	p = st_check_resolve("repo/.slubtiny.json", "linux");
	ok(p && !strcmp(p, "repo/linux"), "relative to the file's directory");
	free(p);
	p = st_check_resolve(".slubtiny.json", "linux");
	ok(p && !strcmp(p, "linux"), "file in the current directory");
	free(p);
	p = st_check_resolve("/a/b.json", "/abs");
	ok(p && !strcmp(p, "/abs"), "absolute stays");
	free(p);
}

/*
 * The removed-allocator note for the kernel of a tree (--srctree): every
 * line migrate's rewrite for that kernel writes is named, and a kernel
 * that still has the allocator gets no rewrite promised.
 */
static void test_fix_note_target(void)
{
	static const struct { int major, minor; } kernels[] = { { 6, 1 }, { 6, 2 }, { 6, 12 } };
	const char *text = "CONFIG_EXPERT=y\nCONFIG_SLOB=y\n";
	struct st_defconfig *dc;
	size_t i, j, k;

	if (st_defconfig_parse(&dc, text, strlen(text), "a_defconfig", NULL))
		abort();
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		struct st_kver v = { kernels[i].major, kernels[i].minor };
		struct st_check_result r;
		struct st_check_opts o;
		struct st_migration m;
		const char *hint = NULL;
		bool good;

		st_check_result_init(&r);
		st_check_opts_init(&o);
		o.fix_major = v.major;
		o.fix_minor = v.minor;
		if (st_check_defconfig(&r, dc, "a_defconfig", &o) || st_migrate(dc, v, &m))
			abort();
		for (j = 0; j < r.nr; j++)
			if (r.f[j].rule == ST_RULE_REMOVED_ALLOCATOR)
				hint = r.f[j].hint;
		good = hint != NULL;
		if (good && !m.changed)
			good = strstr(hint, "keeps the line") != NULL;
		for (k = 0; good && m.changed && k < m.after->nr_lines; k++)
			if (m.after->lines[k].sym &&
			    st_defconfig_find(dc, m.after->lines[k].sym) < 0)
				good = strstr(hint, m.after->lines[k].text) != NULL;
		ok(good, "removed-allocator note for Linux %d.%d: %s", v.major, v.minor,
		   hint ? hint : "(none)");
		st_migration_release(&m);
		st_check_result_free(&r);
	}
	st_defconfig_free(dc);
}

int main(void)
{
	test_arch_of();
	test_resolve();
	test_rules();
	test_versions();
	test_messages();
	test_suppress_parse();
	test_suppress_apply();
	test_config();
	test_budget();
	test_render();
	test_fix_note_target();
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
