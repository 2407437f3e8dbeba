// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/kconfig without a kernel tree: the reply parser on good
 * and malformed replies, and the client's process handling against the
 * real helper on a bundled model (verify, fix_deps, many calls on one
 * helper) and against broken interpreters. TAP output.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "kconfig/kconfig.h"
#include "kconfig/kconfig_priv.h"

#include "../../tap.h"

static int parse(const char *s, struct st_kc_result **r, struct st_error *e)
{
	st_error_clear(e);
	*r = NULL;
	return st_kc_reply_parse(s, strlen(s), r, e);
}

static void test_parse_good(void)
{
	const char *s = "{\"id\":3,\"ok\":true,\"findings\":[{\"line\":4,"
		"\"symbol\":\"SLUB_TINY\",\"kind\":\"ineffective\",\"cause\":"
		"\"depends\",\"requested\":\"y\",\"actual\":\"n\",\"message\":"
		"\"m\",\"detail\":\"d\",\"fix\":\"CONFIG_EXPERT=y\"},{\"line\":5,"
		"\"symbol\":\"FOO\",\"kind\":\"unknown\",\"cause\":\"new_cause\","
		"\"requested\":\"y\",\"actual\":null,\"message\":\"u\"}],"
		"\"config\":[[\"B\",\"y\",\"b\"],[\"A\",\"x y\",\"s\"]],"
		"\"fixes\":[{\"sym\":\"EXPERT\",\"val\":\"y\",\"line_text\":"
		"\"CONFIG_EXPERT=y\",\"replace_line\":0,\"after_line\":2,"
		"\"order\":312,\"reason\":\"r\"}],\"iterations\":2}";
	struct st_kc_result *r;
	struct st_error e;
	int err = parse(s, &r, &e);

	ok(!err && r, "a full reply parses");
	if (err || !r)
		return;
	ok(r->nr_findings == 2 && r->findings[0].line == 4 &&
	   r->findings[0].kind == ST_KC_INEFFECTIVE &&
	   r->findings[0].cause == ST_KC_CAUSE_DEPENDS &&
	   !strcmp(r->findings[0].fix, "CONFIG_EXPERT=y"), "finding fields");
	ok(r->findings[1].kind == ST_KC_UNKNOWN && !r->findings[1].actual &&
	   r->findings[1].cause == ST_KC_CAUSE_OTHER && !r->findings[1].fix &&
	   r->findings[1].detail && !*r->findings[1].detail,
	   "null actual, missing detail, unknown cause name");
	ok(r->nr_config == 2 && !strcmp(st_kc_result_value(r, "A"), "x y") &&
	   !strcmp(st_kc_result_value(r, "B"), "y") &&
	   !st_kc_result_value(r, "C") && r->config[1].type == 's',
	   "config entries and lookup by name");
	ok(r->nr_fixes == 1 && r->fixes[0].after_line == 2 &&
	   r->fixes[0].order == 312 && r->iterations == 2, "fixes");
	st_kc_result_free(r);
}

static void test_parse_bad(void)
{
	static const char *const bad[] = {
		"", "null", "[]", "{", "{\"id\":1}", "{\"ok\":1}",
		"{\"ok\":true,\"findings\":{}}",
		"{\"ok\":true,\"findings\":[1]}",
		"{\"ok\":true,\"findings\":[{\"line\":\"x\",\"symbol\":\"A\"}]}",
		"{\"ok\":true,\"findings\":[{\"line\":1.5,\"symbol\":\"A\",\"kind\":\"unknown\",\"cause\":\"x\",\"requested\":\"y\",\"message\":\"m\"}]}",
		"{\"ok\":true,\"findings\":[{\"line\":1,\"symbol\":\"A\",\"kind\":\"bogus\",\"cause\":\"x\",\"requested\":\"y\",\"message\":\"m\"}]}",
		"{\"ok\":true,\"findings\":[{\"line\":-1,\"symbol\":\"A\",\"kind\":\"unknown\",\"cause\":\"x\",\"requested\":\"y\",\"message\":\"m\"}]}",
		"{\"ok\":true,\"config\":[[\"A\"]]}",
		"{\"ok\":true,\"config\":[[\"A\",\"y\",\"\"]]}",
		"{\"ok\":true,\"config\":[[\"A\",\"y\",\"q\"]]}",
		"{\"ok\":true,\"config\":[[\"A\",1,\"b\"]]}",
		"{\"ok\":true,\"fixes\":[{\"sym\":\"A\"}]}",
		"{\"ok\":true,\"iterations\":1e300}",
	};
	struct st_kc_result *r;
	struct st_error e;
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = parse(bad[i], &r, &e);

		if (err == -EPROTO && !r && e.msg[0])
			n++;
		else
			printf("# accepted or wrong error for: %s (%d)\n", bad[i], err);
	}
	ok(n == (int)(sizeof(bad) / sizeof(bad[0])),
	   "%d malformed replies are -EPROTO with a message", n);
	ok(parse("{\"ok\":false,\"error\":\"no tree\"}", &r, &e) == -EIO &&
	   !strcmp(e.msg, "no tree"), "ok:false carries the helper's error");
}

static struct st_kconfig *open_model(const char *target, struct st_error *e)
{
	struct st_kc_opts o = { .target = target };
	struct st_kconfig *kc = NULL;

	st_error_clear(e);
	if (st_kconfig_open(&o, &kc, e))
		printf("# open: %s: %s\n", e->file, e->msg);
	return kc;
}

static const struct st_kc_finding *find(const struct st_kc_result *r,
					const char *sym)
{
	size_t i;

	for (i = 0; r && i < r->nr_findings; i++)
		if (!strcmp(r->findings[i].sym, sym))
			return &r->findings[i];
	return NULL;
}

static void test_model(void)
{
	/* The migrated collie_defconfig situation on 6.12, and friends. */
	const struct st_kc_assign as[] = {
		{ "EMBEDDED", "y", 3 },
		{ "SLUB", "y", 7 },
		{ "SLUB_TINY", "y", 8 },
		{ "SLAB_FREELIST_RANDOM", "y", 9 },
		{ "SLAB_MERGE_DEFAULT", NULL, 10 },
		{ "NOT_IN_MODEL", "y", 11 },
	};
	const struct st_kc_assign as_expert[] = {
		{ "EMBEDDED", "y", 3 },
		{ "EXPERT", "y", 4 },
		{ "SLUB", "y", 7 },
		{ "SLUB_TINY", "y", 8 },
		{ "SLAB_FREELIST_RANDOM", "y", 9 },
		{ "SLAB_MERGE_DEFAULT", NULL, 10 },
		{ "NOT_IN_MODEL", "y", 11 },
	};
	const struct st_kc_finding *f;
	struct st_kc_result *r = NULL;
	struct st_kconfig *kc;
	struct st_error e;
	int i, err;

	kc = open_model("6.12.1", &e);
	ok(kc != NULL, "open the bundled 6.12 model");
	if (!kc)
		return;
	ok(strstr(st_kconfig_describe(kc), "bundled") &&
	   !strcmp(st_kconfig_version(kc), "6.12"), "describe: %s",
	   st_kconfig_describe(kc));
	err = st_kconfig_verify(kc, as, 6, ST_KC_DEFCONFIG, true, &r, &e);
	ok(!err && r, "verify");
	f = find(r, "SLUB_TINY");
	ok(f && f->cause == ST_KC_CAUSE_DEPENDS && f->line == 8 &&
	   strstr(f->message, "depends on EXPERT, which is n") &&
	   f->fix && !strcmp(f->fix, "CONFIG_EXPERT=y"),
	   "SLUB_TINY=y without EXPERT: depends, fix CONFIG_EXPERT=y");
	f = find(r, "EMBEDDED");
	ok(f && f->kind == ST_KC_UNKNOWN, "EMBEDDED is unknown on 6.12");
	ok(!find(r, "NOT_IN_MODEL") && !find(r, "SLAB_FREELIST_RANDOM") &&
	   !find(r, "SLAB_MERGE_DEFAULT"),
	   "out-of-model and effective lines are not reported");
	ok(r && !st_kc_result_value(r, "SLUB_TINY") &&
	   !strcmp(st_kc_result_value(r, "SLUB"), "y"),
	   "resolved config: SLUB=y, hidden SLUB_TINY not written");
	st_kc_result_free(r);

	/*
	 * EXPERT=y would make SLUB_TINY take effect, and SLUB_TINY switches
	 * off SLAB_FREELIST_RANDOM=y (line 9), which took effect: refused.
	 */
	err = st_kconfig_fix_deps(kc, as, 6, ST_KC_DEFCONFIG, true, &r, &e);
	ok(!err && r && r->nr_fixes == 0 && r->nr_refused == 1 &&
	   strstr(r->refused[0], "CONFIG_EXPERT=y") && strstr(r->refused[0], "line 9"),
	   "fix_deps refuses a fix that switches a line off: %s",
	   r && r->nr_refused ? r->refused[0] : "");
	st_kc_result_free(r);

	/* Without those lines, EXPERT is the fix. */
	err = st_kconfig_fix_deps(kc, as, 3, ST_KC_DEFCONFIG, true, &r, &e);
	ok(!err && r && r->nr_fixes == 1 && !strcmp(r->fixes[0].sym, "EXPERT") &&
	   !r->fixes[0].replace_line && r->iterations >= 2 && !r->nr_refused &&
	   !strcmp(st_kc_result_value(r, "SLUB_TINY"), "y"),
	   "fix_deps adds EXPERT");
	st_kc_result_free(r);

	/* With EXPERT, SLUB_TINY takes effect and overrides two lines. */
	err = st_kconfig_verify(kc, as_expert, 7, ST_KC_DEFCONFIG, true, &r, &e);
	f = find(r, "SLAB_FREELIST_RANDOM");
	ok(f && f->cause == ST_KC_CAUSE_DEPENDS &&
	   strstr(f->detail, "SLUB_TINY=y in this file (line 8)") &&
	   !strcmp(st_kc_result_value(r, "SLUB_TINY"), "y"),
	   "with the fix, SLUB_TINY is on and turns off SLAB_FREELIST_RANDOM");
	f = find(r, "SLAB_MERGE_DEFAULT");
	ok(f && f->cause == ST_KC_CAUSE_SELECT &&
	   strstr(f->message, "SLUB_TINY=y") && strstr(f->message, ":"),
	   "is-not-set overridden by a select names the selector and its file:line");
	st_kc_result_free(r);

	/* One helper, many files. */
	for (i = 0, err = 0; i < 50 && !err; i++) {
		err = st_kconfig_verify(kc, as, 6, ST_KC_DEFCONFIG, false, &r, &e);
		st_kc_result_free(r);
	}
	ok(!err, "50 verifications on one helper");
	st_kconfig_close(kc);
}

static void test_choice_61(void)
{
	const struct st_kc_assign as[] = {
		{ "SLOB", "y", 1 },
		{ "SLAB", "y", 2 },
		{ "SLUB_STATS", "y", 3 },
	};
	const struct st_kc_finding *f;
	struct st_kc_result *r = NULL;
	struct st_kconfig *kc;
	struct st_error e;

	kc = open_model("6.1", &e);
	if (!kc || st_kconfig_verify(kc, as, 3, ST_KC_DEFCONFIG, false, &r, &e)) {
		ok(0, "verify on the 6.1 model");
		st_kconfig_close(kc);
		return;
	}
	f = find(r, "SLOB");
	ok(f && f->cause == ST_KC_CAUSE_DEPENDS &&
	   strstr(f->detail, "EXPERT is not set in this file"),
	   "6.1: SLOB=y without EXPERT");
	f = find(r, "SLUB_STATS");
	ok(f && f->cause == ST_KC_CAUSE_DEPENDS, "6.1: SLUB_STATS needs SLUB");
	st_kc_result_free(r);
	st_kconfig_close(kc);
}

/* An interpreter that cannot import Kconfiglib: python3 -S. */
static char nokc[] = "/tmp/st-kc-nokc.XXXXXX";

static void make_nokc(void)
{
	const char *py = getenv("ST_PYTHON");
	FILE *f;
	int fd = mkstemp(nokc);

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		printf("Bail out! mkstemp\n");
		exit(1);
	}
	fprintf(f, "#!/bin/sh\nexec %s -S \"$@\"\n", py ? py : "/usr/bin/python3");
	fchmod(fd, 0755);
	fclose(f);
}

/* A kernel-like tree with a Kconfig and a Makefile, no arch/. */
static char fake[] = "/tmp/st-kc-tree.XXXXXX";

static const char *fake_tree(void)
{
	char path[128];
	FILE *f;

	if (!mkdtemp(fake))
		return "/nonexistent";
	snprintf(path, sizeof(path), "%s/Kconfig", fake);
	if ((f = fopen(path, "w"))) {
		fputs("config X\n\tbool \"x\"\n", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/Makefile", fake);
	if ((f = fopen(path, "w"))) {
		fputs("VERSION = 6\nPATCHLEVEL = 12\n", f);
		fclose(f);
	}
	return fake;
}

static void rm_fake_tree(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/Kconfig", fake);
	unlink(path);
	snprintf(path, sizeof(path), "%s/Makefile", fake);
	unlink(path);
	rmdir(fake);
}

static void test_errors(void)
{
	struct st_kc_opts o = { .python = "/nonexistent/python3" };
	struct st_kconfig *kc = NULL;
	struct st_error e = { 0 };
	int err;

	err = st_kconfig_open(&o, &kc, &e);
	ok(err == -ENOENT && !kc && strstr(e.msg, "SLUBTINY_PYTHON"),
	   "missing interpreter: -ENOENT, says SLUBTINY_PYTHON");
	st_error_clear(&e);
	o.python = "/bin/false";
	err = st_kconfig_open(&o, &kc, &e);
	ok(err < 0 && !kc && e.msg[0], "interpreter that exits: error (%s)",
	   e.msg);
	st_error_clear(&e);
	o.python = nokc;
	err = st_kconfig_open(&o, &kc, &e);
	ok(err == -ENOENT && !kc && strstr(e.msg, "Kconfiglib not found"),
	   "interpreter without Kconfiglib: %s", e.msg);
	st_error_clear(&e);
	o.python = NULL;
	o.target = "5.4";
	err = st_kconfig_open(&o, &kc, &e);
	ok(err == -ENOENT && !kc && strstr(e.msg, "no bundled Kconfig model"),
	   "no model for 5.4");
	st_error_clear(&e);
	o.target = NULL;
	o.srctree = "/nonexistent-tree";
	err = st_kconfig_open(&o, &kc, &e);
	ok(err == -ENOENT && !kc && strstr(e.msg, "no Kconfig"),
	   "a tree without Kconfig: %s", e.msg);
	st_error_clear(&e);
	o.srctree = fake_tree();
	o.arch = "no-such-arch";
	err = st_kconfig_open(&o, &kc, &e);
	ok(err == -EINVAL && !kc && strstr(e.msg, "unknown arch"),
	   "unknown arch: -EINVAL: %s", e.msg);
}

int main(void)
{
	test_parse_good();
	test_parse_bad();
	make_nokc();
	test_errors();
	unlink(nokc);
	rm_fake_tree();
	test_model();
	test_choice_61();
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
