// SPDX-License-Identifier: GPL-2.0-only
/*
 * Toolchain discovery and the places lib/build reads from and writes to.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/build.h"
#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/str.h"
#include "linux/arch.h"
#include "st_config.h"

/*
 * The architectures small systems use, with the Debian cross compiler for
 * each, keyed by the make ARCH each builds for (lib/linux's registry
 * names). The host is the one whose ARCH the registry gives for this
 * machine, built with plain "gcc" (or $CC).
 */
static const struct arch_def {
	const char *arch;
	const char *prefix;
	const char *pkg;
	/*
	 * The make ARCH this arch is the build of (NULL: another row is that
	 * ARCH's: mips is big-endian, as `uname -m` does not tell).
	 */
	const char *karch;
	const char *cflags;	/* always passed: what lib/slab's own build passes */
} arch_defs[] = {
	/* cmpxchg16b for SLUB's freelist + tid double-word cmpxchg, as meson does */
	{ "x86_64", "x86_64-linux-gnu-", "gcc-x86-64-linux-gnu", "x86_64", "-mcx16" },
	{ "i686", "i686-linux-gnu-", "gcc-i686-linux-gnu libc6-dev-i386-cross", "i386" },
	{ "arm", "arm-linux-gnueabi-", "gcc-arm-linux-gnueabi libc6-dev-armel-cross", "arm" },
	{ "aarch64", "aarch64-linux-gnu-", "gcc-aarch64-linux-gnu libc6-dev-arm64-cross", "arm64" },
	{ "riscv64", "riscv64-linux-gnu-", "gcc-riscv64-linux-gnu libc6-dev-riscv64-cross", "riscv" },
	{ "mips", "mips-linux-gnu-", "gcc-mips-linux-gnu libc6-dev-mips-cross", "mips" },
	{ "mipsel", "mipsel-linux-gnu-", "gcc-mipsel-linux-gnu libc6-dev-mipsel-cross", NULL },
	{ "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu libc6-dev-powerpc-cross", "powerpc" },
	{ "sh4", "sh4-linux-gnu-", "gcc-sh4-linux-gnu libc6-dev-sh4-cross", "sh" },
	/* bare metal: Debian's or1k-elf has its C library in libnewlib-dev */
	{ "or1k", "or1k-elf-", "gcc-or1k-elf libnewlib-dev", "openrisc",
	  "-isystem /usr/include/newlib" },
};

#define NARCH (ARRAY_SIZE(arch_defs))

const char *const *st_build_known_arches(void)
{
	static const char *names[NARCH + 1];
	size_t i;

	for (i = 0; i < NARCH; i++)
		names[i] = arch_defs[i].arch;
	return names;
}

/* The row building make's @arch (its exact ARCH: x86 is x86_64), or NULL. */
static const struct arch_def *def_of_make(const char *arch)
{
	const char *exact = st_arch_exact(arch);
	size_t i;

	for (i = 0; i < NARCH; i++)
		if (arch_defs[i].karch && !strcmp(arch_defs[i].karch, exact))
			return &arch_defs[i];
	/* an alias (ppc, ppc64): the row of its arch/ */
	for (i = 0; i < NARCH; i++)
		if (arch_defs[i].karch && !strcmp(arch_defs[i].karch, st_arch_srcarch(arch)))
			return &arch_defs[i];
	return NULL;
}

const char *st_build_arch_of_make(const char *arch)
{
	const struct arch_def *d;
	size_t i;

	for (i = 0; i < NARCH; i++)
		if (!strcmp(arch, arch_defs[i].arch))
			return arch_defs[i].arch;
	d = def_of_make(arch);
	return d ? d->arch : NULL;
}

unsigned int st_build_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

/* A data dir must hold the three things a variant build reads. */
static bool has_data(const char *dir)
{
	static const char *const need[] = { "kconfig/Kconfig", "defconfigs", "lib/slab" };
	char p[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(need); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, need[i]);
		if (access(p, R_OK))
			return false;
	}
	return true;
}

int st_build_datadir(char *buf, size_t len, struct st_error *e)
{
	const char *env = getenv("SLUBTINY_DATADIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		if (!has_data(env))
			return st_err(e, ENOENT, env, "not a slubtiny data directory "
				      "(needs kconfig/Kconfig, defconfigs/, lib/slab/)");
		snprintf(buf, len, "%s", env);
		return 0;
	}
	/* Installed: <prefix>/bin/slubtiny next to <prefix>/share/slubtiny. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/../share/slubtiny", exe);
			if (has_data(buf))
				return 0;
		}
	}
	snprintf(buf, len, "%s", ST_SOURCE_ROOT);
	if (has_data(buf))
		return 0;
	return st_err(e, ENOENT, ST_SOURCE_ROOT, "allocator sources not found; "
		      "set SLUBTINY_DATADIR to a source tree or install slubtiny");
}

/*
 * The cache under $XDG_CACHE_HOME or ~/.cache in @buf: made private, or
 * refused (its name in @refused) and a fresh mkdtemp one in @buf instead.
 */
static int private_cache(char *buf, size_t len, char *refused, size_t rlen,
			 struct st_error *e)
{
	const char *tmp = getenv("TMPDIR");
	char *slash = strrchr(buf, '/');
	int ret;

	/* the parent (~/.cache) as mkdir -p makes it; the cache itself 0700 */
	if (slash && slash != buf) {
		*slash = 0;
		ret = st_mkdir_p(buf);
		*slash = '/';
		if (ret)
			return st_err(e, -ret, buf, "cannot create: %s", strerror(-ret));
	}
	ret = st_private_dir(buf);
	if (!ret)
		return 0;
	if (ret != -EPERM && ret != -ENOTDIR)
		return st_err(e, -ret, buf, "cannot use as build directory: %s", strerror(-ret));
	/* someone else's, open to others or a symlink: later runs would trust it */
	if (refused)
		snprintf(refused, rlen, "%s", buf);
	if (st_bufprintf(buf, len, "%s/slubtiny-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp"))
		return st_err(e, ENAMETOOLONG, NULL, "build directory name too long");
	if (!mkdtemp(buf))
		return st_err(e, errno, buf, "cannot create: %s", strerror(errno));
	return 0;
}

int st_build_default_dir(char *buf, size_t len, char *refused, size_t rlen,
			 struct st_error *e)
{
	const char *env = getenv("SLUBTINY_BUILDDIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int ret;

	if (refused && rlen)
		*refused = 0;
	if (env && *env)
		return st_bufprintf(buf, len, "%s", env) ?
		       st_err(e, ENAMETOOLONG, env, "name too long") : 0;
	if (xdg && *xdg)
		ret = st_bufprintf(buf, len, "%s/slubtiny", xdg);
	else if (home && *home)
		ret = st_bufprintf(buf, len, "%s/.cache/slubtiny", home);
	else
		return st_err(e, ENOENT, NULL, "no build directory: none of SLUBTINY_BUILDDIR, "
			      "XDG_CACHE_HOME and HOME is set");
	if (ret)
		return st_err(e, ENAMETOOLONG, NULL, "build directory name too long");
	return private_cache(buf, len, refused, rlen, e);
}

static bool in_path(const char *name)
{
	char buf[PATH_MAX];

	return st_find_exe(name, buf, sizeof(buf));
}

/*
 * What the probes found, remembered in <builddir>/toolchains.cache so that
 * a warm run spawns no compiler at all. An entry is keyed by the compiler
 * words and the identity (device, inode, size, mtime) of the executable
 * they resolve to: an upgraded compiler is a new file, hence a new probe.
 * One line per entry: key, libc flag, version line, tab-separated.
 */
struct tc_cache {
	char *path;		/* NULL: no caching */
	char **lines;
	size_t n;
	bool dirty;
};

static void cache_load(struct tc_cache *c, const char *builddir)
{
	char line[4096];
	FILE *f;

	memset(c, 0, sizeof(*c));
	if (!builddir || asprintf(&c->path, "%s/toolchains.cache", builddir) < 0) {
		c->path = NULL;
		return;
	}
	f = fopen(c->path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char **nl = realloc(c->lines, (c->n + 1) * sizeof(*nl));

		if (!nl)
			break;
		c->lines = nl;
		line[strcspn(line, "\n")] = '\0';
		c->lines[c->n] = strdup(line);
		if (c->lines[c->n])
			c->n++;
	}
	fclose(f);
}

/* Write the cache back if it changed; a failure only costs probes next time. */
static void cache_save(struct tc_cache *c)
{
	char *buf = NULL;
	size_t i, len;
	FILE *f;

	if (c->path && c->dirty && (f = open_memstream(&buf, &len))) {
		for (i = 0; i < c->n; i++)
			fprintf(f, "%s\n", c->lines[i]);
		if (!fclose(f))
			st_write_file(c->path, buf, len, 0666);
		free(buf);
	}
	st_strv_free(c->lines, c->n);
	free(c->path);
}

/* "words\tdev:ino:size:mtime" of @t's compiler, or -errno. */
static int cache_key(const struct st_toolchain *t, char *key, size_t len)
{
	char exe[PATH_MAX];
	struct stat st;
	size_t i, off = 0;

	if (!st_find_exe(t->cc[0], exe, sizeof(exe)) || stat(exe, &st))
		return -ENOENT;
	for (i = 0; t->cc[i]; i++)
		off += snprintf(key + off, off < len ? len - off : 0, "%s%s", i ? " " : "", t->cc[i]);
	off += snprintf(key + off, off < len ? len - off : 0, "\t%lu:%lu:%lld:%lld.%09ld",
			(unsigned long)st.st_dev, (unsigned long)st.st_ino, (long long)st.st_size,
			(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	return off < len ? 0 : -ENAMETOOLONG;
}

/* The cached line for @key: sets *libc and returns the version, or NULL. */
static const char *cache_get(const struct tc_cache *c, const char *key, bool *libc)
{
	size_t i, l = strlen(key);

	for (i = 0; i < c->n; i++) {
		const char *x = c->lines[i];

		if (strncmp(x, key, l) || x[l] != '\t' || (x[l + 1] != '0' && x[l + 1] != '1') ||
		    x[l + 2] != '\t')
			continue;
		*libc = x[l + 1] == '1';
		return x + l + 3;
	}
	return NULL;
}

static void cache_put(struct tc_cache *c, const char *key, bool libc, const char *version)
{
	char **nl, *line;

	if (!c->path || asprintf(&line, "%s\t%d\t%s", key, libc, version) < 0)
		return;
	nl = realloc(c->lines, (c->n + 1) * sizeof(*nl));
	if (!nl) {
		free(line);
		return;
	}
	c->lines = nl;
	c->lines[c->n++] = line;
	c->dirty = true;
}

/* $CC as make would run it: NULL when unset or blank (make's default then). */
static const char *cc_given(const char *cc)
{
	return cc && cc[strspn(cc, " \t\n")] ? cc : NULL;
}

static void tc_clear(struct st_toolchain *t)
{
	size_t i;

	free(t->arch);
	free(t->prefix);
	free(t->pkg);
	for (i = 0; t->cc && t->cc[i]; i++)
		free(t->cc[i]);
	free(t->cc);
	free(t->version);
	free(t->reason);
	free(t->cflags);
	memset(t, 0, sizeof(*t));
}

void st_toolchains_free(struct st_toolchain *tcs, size_t n)
{
	size_t i;

	for (i = 0; tcs && i < n; i++)
		tc_clear(&tcs[i]);
	free(tcs);
}

static void no_libc(struct st_toolchain *t)
{
	t->found = false;
	if (asprintf(&t->reason, "%s has no C library headers (lib/slab needs "
		     "libc; install %s)", t->cc[0], t->pkg ? t->pkg : "its libc") < 0)
		t->reason = NULL;
}

/*
 * lib/slab is hosted C: it includes libc headers. A cross compiler without
 * its libc (Debian installs libc6-dev-<arch>-cross only as a recommendation,
 * or1k-elf needs libnewlib-dev) cannot build it; say so up front, with the
 * package, rather than failing every job.
 */
static int probe_libc(struct st_toolchain *t)
{
	static const char test[] = "#include <errno.h>\n#include <stdlib.h>\nint x;\n";
	char **argv, **flags;
	struct st_child c;
	size_t n, m, i;
	int ret;

	/* The host compiler's libc comes with the build's own dependencies. */
	if (!t->prefix || !*t->prefix || t->freestanding)
		return 0;
	/* The arch's own flags say where its C library is (newlib for or1k). */
	flags = st_split_words(t->cflags ? t->cflags : "");
	for (n = 0; t->cc[n]; n++)
		;
	for (m = 0; flags && flags[m]; m++)
		;
	argv = calloc(n + m + 5, sizeof(*argv));
	if (!argv) {
		st_free_words(flags);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		argv[i] = t->cc[i];
	for (i = 0; i < m; i++)
		argv[n + i] = flags[i];
	argv[n + m] = "-fsyntax-only";
	argv[n + m + 1] = "-xc";
	argv[n + m + 2] = "-";
	ret = st_spawn(&c, argv, NULL, NULL, ST_SPAWN_STDIN | ST_SPAWN_QUIET);
	free(argv);
	st_free_words(flags);
	if (ret)
		return ret;
	if (write(c.in_fd, test, sizeof(test) - 1) < 0)
		ret = -errno;
	ret = st_child_wait(&c);
	if (ret < 0)
		return ret;
	if (ret)
		no_libc(t);
	return 0;
}

/* Ask the compiler who it is; a compiler that cannot say is not usable. */
static int probe_run(struct st_toolchain *t)
{
	char *out = NULL, *nl;
	char **argv;
	size_t n, i;
	int ret;

	for (n = 0; t->cc[n]; n++)
		;
	argv = calloc(n + 2, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		argv[i] = t->cc[i];
	argv[n] = "--version";
	ret = st_run(argv, NULL, NULL, &out, NULL, ST_SPAWN_QUIET);
	free(argv);
	if (ret < 0 && ret != -ENOENT) {
		free(out);
		return ret;
	}
	if (ret || !out || !*out) {
		free(out);
		t->found = false;
		if (asprintf(&t->reason, "%s does not run; install %s", t->cc[0], t->pkg) < 0)
			t->reason = NULL;
		return 0;
	}
	nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	t->version = out;
	t->found = true;
	return probe_libc(t);
}

/* probe_run(), or what an earlier run found for the very same compiler. */
static int probe(struct st_toolchain *t, struct tc_cache *c)
{
	char key[PATH_MAX + 256];
	const char *v;
	bool libc;
	int ret;

	if (cache_key(t, key, sizeof(key)))
		return probe_run(t);
	v = cache_get(c, key, &libc);
	/*
	 * A missing C library is not remembered: installing it (libnewlib-dev)
	 * changes the answer without touching the compiler.
	 */
	if (v && (libc || t->freestanding)) {
		t->version = strdup(v);
		if (!t->version)
			return -ENOMEM;
		t->found = true;
		return 0;
	}
	ret = probe_run(t);
	/* Only a compiler that ran is remembered; a failing one is probed again. */
	if (!ret && t->version && !t->freestanding)
		cache_put(c, key, t->found, t->version);
	return ret;
}

/* The arch a CROSS_COMPILE prefix builds for: the table entry, else its first word. */
static char *arch_of_prefix(const char *prefix, const char **pkg, const char **cflags)
{
	size_t i;
	const char *dash;

	*pkg = "";
	*cflags = NULL;
	for (i = 0; i < NARCH; i++) {
		if (!strcmp(prefix, arch_defs[i].prefix)) {
			*pkg = arch_defs[i].pkg;
			*cflags = arch_defs[i].cflags;
			return strdup(arch_defs[i].arch);
		}
	}
	dash = strchr(prefix, '-');
	return strndup(prefix, dash ? (size_t)(dash - prefix) : strlen(prefix));
}

static const struct arch_def *host_def(void)
{
	return def_of_make(st_arch_host_machine());
}

/* Fill @t for @d; the host arch uses plain gcc (or $CC). */
static int fill(struct st_toolchain *t, const struct arch_def *d, bool host,
		const struct st_build_opts *o, struct tc_cache *c)
{
	const char *cc = host ? o->cc : NULL;
	char buf[256];

	t->arch = strdup(d->arch);
	t->prefix = strdup(host ? "" : d->prefix);
	t->pkg = strdup(host ? "gcc" : d->pkg);
	t->cflags = strdup(d->cflags ? d->cflags : "");
	t->freestanding = o->freestanding;
	if (!t->arch || !t->prefix || !t->pkg || !t->cflags)
		return -ENOMEM;
	if (cc_given(cc))
		snprintf(buf, sizeof(buf), "%s", cc);
	else
		snprintf(buf, sizeof(buf), "%sgcc", t->prefix);
	t->cc = st_split_words(buf);
	if (!t->cc)
		return -ENOMEM;
	if (!in_path(t->cc[0])) {
		if (asprintf(&t->reason, "%s not found; install %s", t->cc[0], t->pkg) < 0)
			return -ENOMEM;
		return 0;
	}
	return probe(t, c);
}

/* CROSS_COMPILE given: exactly one toolchain, named by the prefix. */
static int cross_only(const struct st_build_opts *o, struct st_toolchain **out, size_t *n,
		      struct tc_cache *c, struct st_error *e)
{
	struct st_toolchain *t = calloc(1, sizeof(*t));
	const char *pkg, *cflags;
	char buf[256];
	int ret;

	if (!t)
		return st_err(e, ENOMEM, NULL, "out of memory");
	t->arch = arch_of_prefix(o->cross_compile, &pkg, &cflags);
	t->cflags = strdup(cflags ? cflags : "");
	t->prefix = strdup(o->cross_compile);
	t->pkg = strdup(*pkg ? pkg : "a cross compiler");
	t->freestanding = o->freestanding;
	snprintf(buf, sizeof(buf), "%sgcc", o->cross_compile);
	t->cc = st_split_words(cc_given(o->cc) ? o->cc : buf);
	if (!t->arch || !t->prefix || !t->pkg || !t->cc || !t->cflags) {
		st_toolchains_free(t, 1);
		return st_err(e, ENOMEM, NULL, "out of memory");
	}
	if (o->narches && (o->narches != 1 || strcmp(o->arches[0], t->arch))) {
		ret = st_err(e, EINVAL, NULL, "CROSS_COMPILE=%s builds %s only",
			     o->cross_compile, t->arch);
		st_toolchains_free(t, 1);
		return ret;
	}
	if (!in_path(t->cc[0])) {
		if (asprintf(&t->reason, "%s not found; install %s", t->cc[0], t->pkg) < 0)
			t->reason = NULL;
	} else {
		ret = probe(t, c);
		if (ret) {
			st_toolchains_free(t, 1);
			return st_err(e, ret, t->cc[0], "%s", strerror(-ret));
		}
	}
	*out = t;
	*n = 1;
	return 0;
}

static bool wanted(const struct st_build_opts *o, const char *arch)
{
	size_t i;

	if (!o->arches || !o->narches)
		return true;
	for (i = 0; i < o->narches; i++)
		if (!strcmp(o->arches[i], arch))
			return true;
	return false;
}

static int check_arch_names(const struct st_build_opts *o, struct st_error *e)
{
	size_t i, j;

	for (i = 0; o->arches && i < o->narches; i++) {
		for (j = 0; j < NARCH; j++)
			if (!strcmp(o->arches[i], arch_defs[j].arch))
				break;
		if (j == NARCH)
			return st_err(e, EINVAL, NULL, "unknown arch '%s'", o->arches[i]);
	}
	return 0;
}

static int discover(const struct st_build_opts *o, struct st_toolchain **out, size_t *n,
		    struct tc_cache *c, struct st_error *e)
{
	const struct arch_def *host = host_def();
	struct st_toolchain *tcs;
	size_t i, k = 0;
	int ret;

	if (o->cross_compile && *o->cross_compile)
		return cross_only(o, out, n, c, e);
	ret = check_arch_names(o, e);
	if (ret)
		return ret;
	tcs = calloc(NARCH, sizeof(*tcs));
	if (!tcs)
		return st_err(e, ENOMEM, NULL, "out of memory");
	/* The host first: it is the arch most readers care about. */
	if (host && wanted(o, host->arch)) {
		ret = fill(&tcs[k++], host, true, o, c);
		if (ret)
			goto fail;
	}
	for (i = 0; i < NARCH; i++) {
		if (&arch_defs[i] == host || !wanted(o, arch_defs[i].arch))
			continue;
		ret = fill(&tcs[k++], &arch_defs[i], false, o, c);
		if (ret)
			goto fail;
	}
	*out = tcs;
	*n = k;
	return 0;
fail:
	st_toolchains_free(tcs, k);
	return st_err(e, ret, NULL, "toolchain discovery: %s", strerror(-ret));
}

int st_build_toolchains(const struct st_build_opts *o, struct st_toolchain **out,
			size_t *n, struct st_error *e)
{
	struct tc_cache c;
	int ret;

	cache_load(&c, o->builddir);
	ret = discover(o, out, n, &c, e);
	cache_save(&c);
	return ret;
}

int st_build_find_toolchain(const char *make_arch, const char *builddir,
			    struct st_toolchain **out, struct st_error *e)
{
	const char *arch = st_build_arch_of_make(make_arch);
	struct st_build_opts o = {
		.builddir = builddir, .arches = &arch, .narches = 1, .freestanding = true,
	};
	size_t n;
	int ret;

	if (!arch)
		return -ENOENT;
	ret = st_build_toolchains(&o, out, &n, e);
	if (!ret && n != 1) {
		st_toolchains_free(*out, n);
		*out = NULL;
		return st_err(e, ENOENT, NULL, "no toolchain for ARCH=%s", make_arch);
	}
	return ret;
}
