// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/build alone: the job pool (order, parallelism cap, failure
 * propagation) and the variant build over a small data dir made here (the
 * real kconfig/ helper and Kconfig, two toy sources): stamps make a warm run
 * spawn nothing, and a changed source, header, defconfig or CFLAGS rebuilds
 * exactly what depends on it. Output is TAP.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/build.h"
#include "build/pool.h"
#include "common/error.h"

#include "../../tap.h"

/* snprintf through a function: paths here are short, truncation is not a concern. */
static void pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static char **argv_of(const char *a, const char *b, const char *c)
{
	char **v = calloc(4, sizeof(*v));

	v[0] = strdup(a);
	v[1] = b ? strdup(b) : NULL;
	v[2] = c ? strdup(c) : NULL;
	return v;
}

/* Jobs append their letter to a log file; order and overlap become visible. */
static char logpath[PATH_MAX];

static int log_prepare(struct st_job *j)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "echo %s >> %s; sleep 0.05", (char *)j->data, logpath);
	j->argv = argv_of("sh", "-c", cmd);
	return ST_JOB_RUN;
}

static int fail_prepare(struct st_job *j)
{
	j->argv = argv_of("false", NULL, NULL);
	return ST_JOB_RUN;
}

static void test_pool(const char *tmp)
{
	struct st_pool p = { .max_running = 2 };
	struct st_error e = { 0 };
	struct st_job *a, *b, *c, *d, *x, *y;
	char buf[64] = "";
	FILE *f;
	int ret;

	pathf(logpath, sizeof(logpath), "%s/pool.log", tmp);
	unlink(logpath);
	a = st_pool_job(&p, "a");
	b = st_pool_job(&p, "b");
	c = st_pool_job(&p, "c");
	d = st_pool_job(&p, "d");
	x = st_pool_job(&p, "x");
	y = st_pool_job(&p, "y");
	a->data = "a";
	b->data = "b";
	c->data = "c";
	d->data = "d";
	y->data = "y";
	a->prepare = b->prepare = c->prepare = d->prepare = y->prepare = log_prepare;
	x->prepare = fail_prepare;
	/* d after b and c, c after a; y after the failing x */
	st_pool_depend(c, a);
	st_pool_depend(d, b);
	st_pool_depend(d, c);
	st_pool_depend(y, x);
	ret = st_pool_run(&p, &e);
	ok(ret == 0, "pool runs (%d)", ret);
	ok(p.nrun == 4 && p.nfailed == 2, "4 jobs ran, x and y failed (run %u failed %u)",
	   p.nrun, p.nfailed);
	ok(y->state == ST_JOB_FAILED && !y->ran, "a dependent of a failed job never runs");
	ok(y->error && strstr(y->error, "x"), "its error names the failed job (%s)",
	   y->error ? y->error : "null");
	f = fopen(logpath, "r");
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);

		buf[n] = '\0';
		fclose(f);
	}
	for (char *q = buf; *q; q++)
		if (*q == '\n')
			*q = ' ';
	ok(strchr(buf, 'a') < strchr(buf, 'c') && strchr(buf, 'c') < strchr(buf, 'd') &&
	   strchr(buf, 'b') < strchr(buf, 'd'), "dependencies respected (%s)", buf);
	st_pool_free(&p);
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	pathf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	size_t n;

	if (!in || !out)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return fclose(out);
}

/* A data dir: the project's kconfig/, two defconfigs, two toy sources. */
static int make_datadir(const char *src, const char *d)
{
	char p[PATH_MAX], q[PATH_MAX];

	pathf(p, sizeof(p), "%s/kconfig", d);
	mkdir(d, 0777);
	mkdir(p, 0777);
	pathf(p, sizeof(p), "%s/defconfigs", d);
	mkdir(p, 0777);
	pathf(p, sizeof(p), "%s/lib", d);
	mkdir(p, 0777);
	pathf(p, sizeof(p), "%s/lib/slab", d);
	mkdir(p, 0777);
	pathf(p, sizeof(p), "%s/kconfig/Kconfig", src);
	pathf(q, sizeof(q), "%s/kconfig/Kconfig", d);
	if (copy_file(p, q))
		return -1;
	pathf(p, sizeof(p), "%s/kconfig/st_kconfig.py", src);
	pathf(q, sizeof(q), "%s/kconfig/st_kconfig.py", d);
	if (copy_file(p, q))
		return -1;
	pathf(p, sizeof(p), "%s/defconfigs", d);
	if (write_file(p, "slub_defconfig", "CONFIG_NR_CPUS=2\n") ||
	    write_file(p, "slub_tiny_defconfig", "CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\n") ||
	    write_file(p, "slob_legacy_defconfig", "CONFIG_EMBEDDED=y\nCONFIG_SLOB=y\n"))
		return -1;
	pathf(p, sizeof(p), "%s/lib/slab", d);
	return write_file(p, "a.c", "#include \"t.h\"\n#ifndef CONFIG_SLUB_TINY\n"
			  "int big[64];\nint f(int i) { return big[i] + T; }\n#endif\n"
			  "int g(void) { return 1; }\n") ||
	       write_file(p, "b.c", "int h(void) { return 2; }\n") ||
	       write_file(p, "t.h", "#define T 3\n");
}

static int run(struct st_build_opts *o, struct st_build_result **r)
{
	struct st_error e = { 0 };
	int ret;

	*r = NULL;
	ret = st_build_run(o, r, &e);
	if (ret)
		printf("# st_build_run: %s: %s\n", e.file, e.msg);
	return ret;
}

static void test_build(const char *src, const char *tmp)
{
	char data[PATH_MAX], bdir[PATH_MAX], p[PATH_MAX];
	const char *arch[1];
	struct st_build_opts o = { 0 };
	struct st_build_result *r;
	struct st_toolchain *tcs;
	struct st_variant *v;
	struct st_error e = { 0 };
	size_t n, ntc = 0;
	int ret;

	pathf(data, sizeof(data), "%s/data", tmp);
	pathf(bdir, sizeof(bdir), "%s/out", tmp);
	ok(!make_datadir(src, data), "data dir made");
	ret = st_build_variants(data, &v, &n, &e);
	ok(!ret && n == 2 && !strcmp(v[0].name, "slub") && !strcmp(v[1].name, "slub_tiny"),
	   "variants: sorted, *_legacy left out (%zu)", n);
	if (!ret)
		st_build_variants_free(v, n);

	/* Only the host: cross compilers are exercised by the report tests. */
	ret = st_build_toolchains(&o, &tcs, &ntc, &e);
	ok(!ret && ntc >= 1 && tcs[0].found && !tcs[0].prefix[0], "host toolchain found first");
	if (ret || !ntc)
		return;
	arch[0] = tcs[0].arch;
	o.arches = arch;
	o.narches = 1;
	{
		const char *bad[1] = { "vax" };
		struct st_build_opts ob = { .arches = bad, .narches = 1 };
		struct st_toolchain *t2;
		size_t n2;

		ok(st_build_toolchains(&ob, &t2, &n2, &e) == -EINVAL, "unknown arch is an error");
		st_error_clear(&e);
	}
	{
		/* a blank CC is no CC: the default compiler, not "out of memory" */
		struct st_build_opts ob = { .arches = arch, .narches = 1, .cc = " \t " };
		struct st_toolchain *t2 = NULL;
		size_t n2 = 0;

		ret = st_build_toolchains(&ob, &t2, &n2, &e);
		ok(!ret && n2 == 1 && t2[0].cc && !strcmp(t2[0].cc[0], "gcc") && !t2[0].cc[1],
		   "blank CC: gcc (ret %d: %s)", ret, e.msg);
		if (!ret)
			st_toolchains_free(t2, n2);
		st_error_clear(&e);
	}
	o.datadir = data;
	o.builddir = bdir;
	o.jobs = 2;
	o.quiet = true;

	ret = run(&o, &r);
	ok(!ret && r->nunits == 2 && r->units[0].ok && r->units[1].ok,
	   "cold build: 2 units built");
	ok(r && r->jobs_run == 2 + 2 * 3 && r->jobs_uptodate == 0,
	   "cold: 2 kconfig + 2 x (2 cc + 1 ld) jobs ran (%u)", r ? r->jobs_run : 0);
	ok(r && !access(r->units[0].object, R_OK) && !access(r->units[0].header, R_OK),
	   "object and header exist");
	st_build_result_free(r);

	ret = run(&o, &r);
	ok(!ret && r->jobs_run == 0 && r->jobs_uptodate == 8 && !r->units[0].rebuilt,
	   "warm: nothing runs (%u run)", r ? r->jobs_run : 99);
	st_build_result_free(r);

	/* A touched source with the same bytes rebuilds nothing: content, not mtime. */
	pathf(p, sizeof(p), "%s/lib/slab", data);
	write_file(p, "b.c", "int h(void) { return 2; }\n");
	ret = run(&o, &r);
	ok(!ret && r->jobs_run == 0, "rewritten identical source: nothing runs");
	st_build_result_free(r);

	write_file(p, "b.c", "int h(void) { return 3; }\n");
	ret = run(&o, &r);
	ok(!ret && r->jobs_run == 4, "changed b.c: 2 cc + 2 ld (%u)", r ? r->jobs_run : 0);
	st_build_result_free(r);

	write_file(p, "t.h", "#define T 4\n");
	ret = run(&o, &r);
	ok(!ret && r->jobs_run == 6, "changed header: every cc and ld (%u)",
	   r ? r->jobs_run : 0);
	st_build_result_free(r);

	pathf(p, sizeof(p), "%s/defconfigs", data);
	write_file(p, "slub_defconfig", "CONFIG_NR_CPUS=3\n");
	ret = run(&o, &r);
	ok(!ret && r->jobs_run == 4, "changed defconfig: its kconfig, 2 cc, ld (%u)",
	   r ? r->jobs_run : 0);
	st_build_result_free(r);

	o.cflags = "-O2";
	ret = run(&o, &r);
	ok(!ret && r->jobs_run == 6, "changed CFLAGS: every cc and ld (%u)",
	   r ? r->jobs_run : 0);
	st_build_result_free(r);

	pathf(p, sizeof(p), "%s/lib/slab", data);
	write_file(p, "b.c", "int h(void) { return 3 }\n");
	ret = run(&o, &r);
	ok(!ret && r->jobs_failed == 4 && !r->units[0].ok && !r->units[1].ok &&
	   r->units[0].error && strstr(r->units[0].error, "b.c"),
	   "broken source: units fail naming it (ret %d failed %u: %s)", ret, !ret ? r->jobs_failed : 0, !ret && r->nunits && r->units[0].error ? r->units[0].error : "");
	st_build_result_free(r);

	write_file(p, "b.c", "int h(void) { return 3; }\n");
	ret = run(&o, &r);
	ok(!ret && r->units[0].ok && r->units[1].ok, "fixed source builds again");
	st_build_result_free(r);
	st_toolchains_free(tcs, ntc);
}

/* make's ARCH names map onto the bundled build's arches. */
static void test_arch_of_make(void)
{
	static const char *const pairs[][2] = {
		{ "arm64", "aarch64" }, { "sh", "sh4" }, { "x86", "x86_64" },
		{ "x86_64", "x86_64" }, { "i386", "i686" }, { "riscv", "riscv64" },
		{ "openrisc", "or1k" }, { "arm", "arm" }, { "mipsel", "mipsel" },
	};
	const char *a;
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		a = st_build_arch_of_make(pairs[i][0]);
		ok(a && !strcmp(a, pairs[i][1]), "ARCH=%s builds %s (got %s)", pairs[i][0],
		   pairs[i][1], a ? a : "(null)");
	}
	ok(!st_build_arch_of_make("nope") && !st_build_arch_of_make("sparc"),
	   "an ARCH without a bundled build maps to nothing");
}

int main(void)
{
	const char *src = getenv("ST_SRCDIR");
	char tmp[] = "/tmp/st-build-XXXXXX", cmd[64];

	if (!src) {
		fprintf(stderr, "ST_SRCDIR not set\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(tmp))
		return 2;
	test_arch_of_make();
	test_pool(tmp);
	test_build(src, tmp);
	printf("1..%d\n", nr_test);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (!nr_fail && system(cmd))
		return 1;
	return nr_fail ? 1 : 0;
}
