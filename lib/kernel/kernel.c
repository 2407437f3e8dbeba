// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user's kernel tree as a build target: allocator variants from its
 * Kconfig, configurations resolved by its own make, out-of-tree builds of
 * the slab objects through the job pool, cached by a stamp per work item.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "build/build.h"
#include "build/pool.h"
#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/stamp.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "kconfig/kconfig.h"
#include "kernel/kernel.h"
#include "migrate/migrate.h"
#include "report/report.h"

/* Bump when what a stamp means changes: old stamps then never match. */
#define STAMP_FORMAT "slubtiny-kernel-1"
#define STAMP_NAME ".slubtiny-stamp"
#define LOCK_NAME ".slubtiny-lock"
#define LOG_NAME "slubtiny-make.log"
#define ARCHIVE_NAME "slubtiny-slab.a"
#define LOG_TAIL_LINES 15

/* The allocator symbols a variant may have to clear. */
static const char *const alloc_syms[] = {
	"SLAB", "SLAB_DEPRECATED", "SLOB", "SLOB_DEPRECATED", "SLUB", "SLUB_TINY", NULL,
};

/*
 * The variants in report column order. @choice lists the choice member
 * that selects it, newest name first: the first one the tree offers with a
 * prompt is used. @object is its allocator source (mm/<object>.c).
 */
static const struct kvariant {
	const char *name;
	const char *choice[2];
	const char *object;
	bool tiny, expert;
} kvariants[] = {
	{ "slub", { "SLUB", NULL }, "slub", false, false },
	{ "slub_tiny", { "SLUB", NULL }, "slub", true, true },
	{ "slab", { "SLAB_DEPRECATED", "SLAB" }, "slab", false, false },
	{ "slob", { "SLOB_DEPRECATED", "SLOB" }, "slob", false, true },
};
#define NKVARIANTS (ARRAY_SIZE(kvariants))

const char *const *st_kernel_variants(void)
{
	static const char *names[NKVARIANTS + 1];
	size_t i;

	for (i = 0; i < NKVARIANTS; i++)
		names[i] = kvariants[i].name;
	return names;
}

static int skip_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Every entry of @dir (not recursive), in name order. */
static void hash_dir(struct st_hash *h, const char *dir)
{
	struct dirent **ents;
	char path[PATH_MAX];
	int n, i;

	n = scandir(dir, &ents, skip_dot, alphasort);
	if (n < 0) {
		st_hash_str(h, dir);
		return;
	}
	for (i = 0; i < n; i++) {
		st_pathf(path, "%s/%s", dir, ents[i]->d_name);
		st_hash_stat(h, path);
		free(ents[i]);
	}
	free(ents);
}

/* The source arch directory of a make ARCH. */
static const char *srcarch(const char *arch)
{
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "i386") || !strcmp(arch, "x86"))
		return "x86";
	if (!strcmp(arch, "sparc64") || !strcmp(arch, "sparc32"))
		return "sparc";
	if (!strcmp(arch, "parisc64"))
		return "parisc";
	if (!strcmp(arch, "sh64"))
		return "sh";
	return arch;
}

/*
 * What the tree looks like to the allocator objects of @arch: the top
 * Makefile, mm/, the config fragments, include/linux/ and the arch's asm
 * headers (name, size, mtime: a few thousand stat() calls), and a git
 * checkout's HEAD and index. An edit elsewhere is noticed by make once the
 * stamp does not match for another reason.
 */
static void hash_tree(struct st_hash *h, const char *src, const char *arch)
{
	static const char *const files[] = {
		"Makefile", "init/Kconfig", "include/linux/slab.h", "include/linux/slub_def.h",
		"include/linux/slab_def.h", "include/linux/mm_types.h", ".git/HEAD", ".git/index",
		NULL,
	};
	static const char *const dirs[] = { "mm", "kernel/configs", "include/linux", NULL };
	char path[PATH_MAX];
	size_t i;

	st_hash_str(h, src);
	for (i = 0; files[i]; i++) {
		st_pathf(path, "%s/%s", src, files[i]);
		st_hash_stat(h, path);
	}
	for (i = 0; dirs[i]; i++) {
		st_pathf(path, "%s/%s", src, dirs[i]);
		hash_dir(h, path);
	}
	st_pathf(path, "%s/arch/%s/configs", src, srcarch(arch));
	hash_dir(h, path);
	st_pathf(path, "%s/arch/%s/Kconfig", src, srcarch(arch));
	st_hash_stat(h, path);
	st_pathf(path, "%s/arch/%s/include/asm", src, srcarch(arch));
	hash_dir(h, path);
}


/*
 * The cache holds objects later runs report without rebuilding: another
 * user who could create or write it first would choose what we report.
 * An existing one must be ours and 0700.
 */
static int private_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	/*
	 * Ours and writable by us alone (an older slubtiny made it 0755): no
	 * one else can have put anything in it, so closing it is safe.
	 */
	if ((st.st_mode & 07777) != 0700 && chmod(path, 0700))
		return -EPERM;
	return 0;
}

int st_kernel_default_dir(char *buf, size_t len)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *tmp = getenv("TMPDIR");
	char top[PATH_MAX];
	int n, ret;

	if (x && *x == '/')
		n = snprintf(top, sizeof(top), "%s/slubtiny", x);
	else if (home && *home == '/')
		n = snprintf(top, sizeof(top), "%s/.cache/slubtiny", home);
	else
		n = snprintf(top, sizeof(top), "%s/slubtiny-XXXXXX",
			     tmp && *tmp == '/' ? tmp : "/tmp");
	if (n < 0 || (size_t)n >= sizeof(top) || (size_t)n + 8 >= len)
		return -ENAMETOOLONG;
	/* No home: a fresh private directory, never a name someone can guess. */
	if (!(x && *x == '/') && !(home && *home == '/')) {
		if (!mkdtemp(top))
			return -errno;
		snprintf(buf, len, "%s/kernel", top);
		return 0;
	}
	snprintf(buf, len, "%s/kernel", top);
	*strrchr(top, '/') = 0;
	ret = st_mkdir_p(top);
	top[strlen(top)] = '/';
	if (ret) {
		snprintf(buf, len, "%s", top);
		return ret;
	}
	ret = private_dir(top);
	if (ret)
		snprintf(buf, len, "%s", top);
	return ret;
}

/* @len bytes of @text to @path, never half of them (st_write_file). */
static int write_text(const char *path, const char *text, size_t len, struct st_error *e)
{
	int ret = st_write_file(path, text, len, 0666);

	return ret ? st_err(e, -ret, path, "cannot write: %s", strerror(-ret)) : 0;
}

/* The value of "# KEY value" in a stamp, malloc'd, or NULL. */
static char *stamp_field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, "# ", 2) && !strncmp(p + 2, key, kl) && p[2 + kl] == ' ') {
			const char *v = p + 3 + kl, *end = strchr(v, '\n');

			return strndup(v, end ? (size_t)(end - v) : strlen(v));
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

struct item;

struct run {
	const struct st_kernel_opts *o;
	char src[PATH_MAX];
	char builddir[PATH_MAX];
	char treedir[64];	/* <basename>-<hash> */
	struct st_kver kver;
	bool is_file;
	char *defconfig_text;	/* the file's bytes when is_file */
	struct st_defconfig **frags;	/* the parsed --config fragments */
	char **frag_texts;		/* and their bytes, for the cache key */
	struct st_pool pool;
	struct item *items;
	size_t nitems;
	struct timespec t0;
	int lock_fd;		/* held for the whole run, see lock_builddir() */
	char *cc_ver;		/* hash_cc_version() of CROSS_COMPILE cc_cross */
	char *cc_cross;
	/* The tree identity of the last arch asked for (items come arch by arch). */
	char tree_arch[64];
	char tree_hex[ST_HASH_HEX];
	struct st_kernel_result *res;
};

struct item {
	struct run *run;
	struct st_kernel_item *out;
	const struct kvariant *kv;
	const char *choice;	/* the choice symbol offered by the tree */
	bool has_tiny;		/* the tree knows SLUB_TINY */
	const char *cross;	/* CROSS_COMPILE or NULL */
	struct st_kernel_cc cc;	/* CC of its make, and the compiler behind a wrapper */
	char *cc_version;	/* first line of the compiler's --version, or NULL */
	unsigned int index;
	char key[ST_HASH_HEX];
	char objects[3][32];	/* relative to O */
	size_t nobjects;
	char *config_text;	/* the configuration given to olddefconfig */
	struct st_job *jcfg, *jold, *jbuild;
};

/* hash_tree() of @arch as hex, computed once per arch in a row. */
static const char *tree_id(struct run *r, const char *arch)
{
	struct st_hash h;

	if (strcmp(r->tree_arch, arch)) {
		st_hash_init(&h);
		hash_tree(&h, r->src, arch);
		st_hash_hex(&h, r->tree_hex);
		snprintf(r->tree_arch, sizeof(r->tree_arch), "%s", arch);
	}
	return r->tree_hex;
}

static double elapsed(const struct run *r)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - r->t0.tv_sec) + (t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

static void progress(struct item *it, const char *step)
{
	struct st_kernel_progress p = {
		.item = it->out->name,
		.step = step,
		.elapsed = elapsed(it->run),
		.index = it->index,
		.total = it->run->nitems,
	};

	if (it->run->o->progress)
		it->run->o->progress(it->run->o->progress_ctx, &p);
}

const char *st_kernel_cross(const struct st_kernel_opts *o, const char *arch)
{
	const char *plain = NULL;
	size_t i, al = strlen(arch);

	for (i = 0; i < o->ncross; i++) {
		const char *c = o->cross[i], *eq = strchr(c, '=');

		if (!eq)
			plain = c;
		else if ((size_t)(eq - c) == al && !strncmp(c, arch, al))
			return eq + 1;
	}
	return plain && *plain ? plain : NULL;
}

static const char *host_arch(void)
{
	static struct utsname u;

	if (uname(&u))
		return "x86_64";
	if (!strcmp(u.machine, "aarch64"))
		return "arm64";
	if (!strncmp(u.machine, "arm", 3))
		return "arm";
	if (!strncmp(u.machine, "ppc", 3))
		return "powerpc";
	if (!strncmp(u.machine, "riscv", 5))
		return "riscv";
	if (u.machine[0] == 'i' && !strcmp(u.machine + 2, "86"))
		return "i386";
	return u.machine;
}

const char *st_kernel_host_arch(void)
{
	return host_arch();
}

/* argv of `make -C src O=dir ARCH=.. [CROSS_COMPILE=..] [CC=..] [-jN] targets...`. */
static char **make_argv(struct item *it, const char *const *targets, bool jobs)
{
	const struct st_kernel_opts *o = it->run->o;
	char **argv = calloc(16 + 4, sizeof(*argv));
	size_t n = 0, i;

	if (!argv)
		return NULL;
	/* make's output goes to the item's log, appended per step. */
	argv[n++] = strdup("sh");
	argv[n++] = strdup("-c");
	argv[n++] = strdup("exec \"$@\" >>\"$0\" 2>&1");
	argv[n++] = st_asprintf("%s/" LOG_NAME, it->out->dir);
	argv[n++] = strdup("make");
	argv[n++] = st_asprintf("-C%s", it->run->src);
	argv[n++] = st_asprintf("O=%s", it->out->dir);
	argv[n++] = st_asprintf("ARCH=%s", it->out->arch);
	if (it->cross)
		argv[n++] = st_asprintf("CROSS_COMPILE=%s", it->cross);
	if (it->cc.make_cc)
		argv[n++] = st_asprintf("CC=%s", it->cc.make_cc);
	/*
	 * kbuild puts `$(CC) --version` into CONFIG_CC_VERSION_TEXT and the
	 * kernel's banner; distcc runs gcc as x86_64-linux-gnu-gcc and says
	 * so. The compiler's own line keeps a wrapped build the local one.
	 */
	if (it->cc.wrapper && it->cc_version && *it->cc_version)
		argv[n++] = st_asprintf("CC_VERSION_TEXT=%s", it->cc_version);
	if (o->hostcc)
		argv[n++] = st_asprintf("HOSTCC=%s", o->hostcc);
	if (jobs && !o->jobserver)
		argv[n++] = st_asprintf("-j%u", o->jobs ? o->jobs : st_build_cpus());
	for (i = 0; targets[i] && n < 19; i++)
		argv[n++] = strdup(targets[i]);
	for (i = 0; i < n; i++) {
		if (!argv[i]) {
			while (n--)
				free(argv[n]);
			free(argv);
			return NULL;
		}
	}
	return argv;
}

/*
 * The last LOG_TAIL_LINES lines of the item's make log, indented, after a
 * line naming the log; or "; make log PATH is empty" (or missing) when
 * make said nothing, so the error stays one line. NULL without memory.
 */
static char *log_tail(const struct item *it)
{
	char path[PATH_MAX], *text, *p, *out, *d;
	size_t len, nl = 0;
	int lines = 0, n;

	st_pathf(path, "%s/" LOG_NAME, it->out->dir);
	text = st_read_text(path, NULL);
	p = text ? text + strlen(text) : NULL;
	while (p && p > text && p[-1] == '\n')
		*--p = 0;
	if (!p || p == text) {
		free(text);
		return st_asprintf("; make log %s is %s", path, p ? "empty" : "missing");
	}
	while (p > text && lines < LOG_TAIL_LINES)
		if (*--p == '\n')
			lines++;
	if (*p == '\n')
		p++;
	for (d = p; *d; d++)
		nl += *d == '\n';
	/* Every newline of the tail gains four spaces of indent. */
	n = snprintf(NULL, 0, "\n  make log (%s), last lines:\n    ", path);
	len = (size_t)n + strlen(p) + 4 * nl + 1;
	out = malloc(len);
	if (out) {
		d = out + sprintf(out, "\n  make log (%s), last lines:\n    ", path);
		for (; *p; p++) {
			*d++ = *p;
			if (*p == '\n') {
				memcpy(d, "    ", 4);
				d += 4;
			}
		}
		*d = 0;
	}
	free(text);
	return out;
}

static void item_fail(struct item *it, struct st_job *j, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void item_fail(struct item *it, struct st_job *j, const char *fmt, ...)
{
	char buf[1024], *tail;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tail = log_tail(it);
	/* st_job_fail() cuts at 1 KiB: the log tail is longer. */
	if (!j->error)
		j->error = st_asprintf("%s: %s%s", it->out->name, buf, tail ? tail : "");
	free(tail);
}

/*
 * Who built a cached item: the stamp's cc and wrapper. A stamp older than
 * those lines had the same compiler (it is in the key) and no wrapper in
 * the key's view; it is taken as a plain build by that compiler.
 */
static void stamp_cc(struct item *it, const char *text)
{
	char *cc = stamp_field(text, "cc"), *w = stamp_field(text, "wrapper");

	free(it->out->cc);
	free(it->out->cc_wrapper);
	it->out->cc = cc ? cc : strdup(it->cc.compiler);
	it->out->cc_wrapper = w && strcmp(w, "-") ? w : NULL;
	if (it->out->cc_wrapper != w)
		free(w);
}

/* The stamp matches and every object is there: nothing to do. */
static bool item_cached(struct item *it)
{
	char path[PATH_MAX], *text, *key, *cfg, *res;
	struct st_hash h;
	char hex[ST_HASH_HEX];
	size_t i;
	bool ok = false;

	st_pathf(path, "%s/" STAMP_NAME, it->out->dir);
	text = st_read_text(path, NULL);
	if (!text)
		return false;
	key = stamp_field(text, "key");
	cfg = stamp_field(text, "config");
	res = stamp_field(text, "resolved");
	if (!key || !cfg || !res || strcmp(key, it->key))
		goto out;
	/* The resolved .config is still the one that was built. */
	st_hash_init(&h);
	st_pathf(path, "%s/.config", it->out->dir);
	if (st_hash_file(&h, path))
		goto out;
	st_hash_hex(&h, hex);
	if (strcmp(hex, cfg))
		goto out;
	for (i = 0; i < it->nobjects; i++) {
		st_pathf(path, "%s/%s", it->out->dir, it->objects[i]);
		if (access(path, R_OK))
			goto out;
	}
	free(it->out->resolved);
	it->out->resolved = res;
	res = NULL;
	stamp_cc(it, text);
	ok = true;
out:
	free(res);
	free(cfg);
	free(key);
	free(text);
	return ok;
}

static int cfg_prepare(struct st_job *j)
{
	struct item *it = j->data;
	char path[PATH_MAX];
	const char *targets[] = { it->run->o->defconfig, NULL };
	int ret;

	if (item_cached(it)) {
		it->out->cached = true;
		it->run->res->ncached++;
		progress(it, "cached");
		return ST_JOB_UPTODATE;
	}
	/* From here on the item is not built until a new stamp says so. */
	st_pathf(path, "%s/" STAMP_NAME, it->out->dir);
	if (unlink(path) && errno != ENOENT)
		return -errno;
	ret = st_mkdir_p(it->out->dir);
	if (ret)
		return ret;
	st_pathf(path, "%s/" LOG_NAME, it->out->dir);
	if (truncate(path, 0) && errno != ENOENT)
		return -errno;
	if (it->run->is_file)
		return ST_JOB_UPTODATE;
	progress(it, it->run->o->defconfig);
	j->argv = make_argv(it, targets, false);
	return j->argv ? ST_JOB_RUN : -ENOMEM;
}

static int cfg_finish(struct st_job *j, int status)
{
	struct item *it = j->data;

	if (status)
		item_fail(it, j, "make %s failed (exit status %d)", it->run->o->defconfig, status);
	return status ? -EIO : 0;
}

/* Drop every line of @sym; 0 or -ENOMEM. */
static int drop_sym(struct st_defconfig *dc, const char *sym)
{
	long i;
	int ret;

	while ((i = st_defconfig_find(dc, sym)) >= 0) {
		ret = st_defconfig_delete(dc, i);
		if (ret)
			return ret;
	}
	return 0;
}

static int append(struct st_defconfig *dc, const char *text)
{
	return st_defconfig_insert(dc, dc->nr_lines, text);
}

int st_kernel_merge_fragment(struct st_defconfig *dc, const struct st_defconfig *frag)
{
	const struct st_dc_line *l;
	size_t i;
	int ret = 0;

	/* first every symbol the fragment sets goes, then the fragment follows */
	for (i = 0; !ret && i < frag->nr_lines; i++) {
		l = &frag->lines[i];
		if (l->kind == ST_DC_ASSIGN || l->kind == ST_DC_NOT_SET)
			ret = drop_sym(dc, l->sym);
	}
	/* an empty line before each fragment, as merge_config.sh writes */
	if (!ret)
		ret = append(dc, "");
	for (i = 0; !ret && i < frag->nr_lines; i++)
		ret = append(dc, frag->lines[i].text);
	return ret;
}

/*
 * The configuration of @it: the user's file migrated to the tree's version
 * (or the .config the make target wrote), with the allocator lines set.
 */
static int make_config(struct item *it, struct st_defconfig **out, struct st_error *e)
{
	struct st_defconfig *base = NULL, *dc = NULL;
	struct st_migration m;
	char path[PATH_MAX], line[128];
	size_t i;
	int ret;

	memset(&m, 0, sizeof(m));
	if (it->run->is_file) {
		ret = st_defconfig_parse(&base, it->run->defconfig_text,
					 strlen(it->run->defconfig_text), it->run->o->defconfig, e);
		if (ret)
			return ret;
		if (base->nr_errors) {
			st_defconfig_free(base);
			return st_err(e, EINVAL, it->run->o->defconfig, "%s",
				      base->nr_diags ? base->diags[0].msg : "not a defconfig");
		}
		ret = st_migrate(base, it->run->kver, &m);
		st_defconfig_free(base);
		if (ret)
			return st_err(e, -ret, NULL, "out of memory");
		dc = m.after;
		m.after = NULL;
		st_migration_release(&m);
	} else {
		st_pathf(path, "%s/.config", it->out->dir);
		ret = st_defconfig_load(&dc, path, e);
		if (ret)
			return ret;
	}
	ret = 0;
	for (i = 0; !ret && i < it->run->o->nfragments; i++)
		ret = st_kernel_merge_fragment(dc, it->run->frags[i]);
	for (i = 0; !ret && alloc_syms[i]; i++)
		ret = drop_sym(dc, alloc_syms[i]);
	if (!ret && it->kv->expert) {
		ret = drop_sym(dc, "EXPERT");
		if (!ret)
			ret = append(dc, "CONFIG_EXPERT=y");
	}
	snprintf(line, sizeof(line), "CONFIG_%s=y", it->choice);
	if (!ret)
		ret = append(dc, line);
	if (!ret && it->kv->tiny)
		ret = append(dc, "CONFIG_SLUB_TINY=y");
	else if (!ret && it->has_tiny && !strcmp(it->choice, "SLUB"))
		ret = append(dc, "# CONFIG_SLUB_TINY is not set");
	for (i = 0; !ret && it->run->o->extra && it->run->o->extra[i]; i++) {
		const char *x = it->run->o->extra[i], *eq = strchr(x, '=');
		char sym[128];

		if (strncmp(x, "CONFIG_", 7) || !eq || eq - x - 7 >= (long)sizeof(sym)) {
			st_defconfig_free(dc);
			return st_err(e, EINVAL, NULL, "bad configuration line '%s'", x);
		}
		snprintf(sym, sizeof(sym), "%.*s", (int)(eq - x - 7), x + 7);
		ret = drop_sym(dc, sym);
		if (!ret)
			ret = append(dc, x);
	}
	if (ret) {
		st_defconfig_free(dc);
		return st_err(e, -ret, NULL, "out of memory");
	}
	*out = dc;
	return 0;
}

static int old_prepare(struct st_job *j)
{
	struct item *it = j->data;
	const char *targets[] = { "olddefconfig", NULL };
	struct st_defconfig *dc = NULL;
	struct st_error e = { 0 };
	char path[PATH_MAX];
	size_t len;
	int ret;

	if (it->out->cached)
		return ST_JOB_UPTODATE;
	ret = make_config(it, &dc, &e);
	if (!ret) {
		ret = st_defconfig_render(dc, &it->config_text, &len);
		st_pathf(path, "%s/.config", it->out->dir);
		if (!ret)
			ret = write_text(path, it->config_text, len, &e);
		st_defconfig_free(dc);
	}
	if (ret) {
		/* e.g. the config target's make wrote no .config: name the file. */
		st_job_fail(j, "%s: %s%s%s", it->out->name, e.code ? e.file : "",
			    e.code && e.file[0] ? ": " : "", e.code ? e.msg : strerror(-ret));
		return ret;
	}
	progress(it, "olddefconfig");
	j->argv = make_argv(it, targets, false);
	return j->argv ? ST_JOB_RUN : -ENOMEM;
}

/* Kconfig's word on why @sym=y did not take effect in @it's configuration. */
static char *explain(struct item *it, const char *sym)
{
	struct st_kc_opts ko = {
		.srctree = it->run->src,
		.arch = it->out->arch,
		.cross_compile = it->cross,
		.python = it->run->o->python,
	};
	struct st_kc_assign *as = NULL;
	struct st_defconfig *dc = NULL;
	struct st_kc_result *res = NULL;
	struct st_kconfig *kc = NULL;
	struct st_error e = { 0 };
	char *msg = NULL;
	size_t i, n = 0;

	if (st_defconfig_parse(&dc, it->config_text, strlen(it->config_text), "config", &e))
		goto out;
	as = calloc(dc->nr_lines + 1, sizeof(*as));
	if (!as)
		goto out;
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (l->kind != ST_DC_ASSIGN && l->kind != ST_DC_NOT_SET)
			continue;
		as[n].sym = l->sym;
		as[n].val = l->kind == ST_DC_ASSIGN ? l->val : NULL;
		as[n].line = i + 1;
		n++;
	}
	if (st_kconfig_open(&ko, &kc, &e) ||
	    st_kconfig_verify(kc, as, n, ST_KC_DEFCONFIG, false, &res, &e))
		goto out;
	for (i = 0; i < res->nr_findings; i++) {
		if (!strcmp(res->findings[i].sym, sym)) {
			msg = st_asprintf("%s%s%s", res->findings[i].message,
					  *res->findings[i].detail ? "; " : "",
					  res->findings[i].detail);
			break;
		}
	}
out:
	if (!msg && e.code)
		msg = st_asprintf("(Kconfig helper: %s)", e.msg);
	st_kc_result_free(res);
	st_kconfig_close(kc);
	free(as);
	st_defconfig_free(dc);
	return msg;
}

/*
 * The resolved allocator: the variant's choice is y (and SLUB_TINY as the
 * variant wants). Fills it->out->resolved with every CONFIG_SL[AOU]B* set.
 */
static int check_resolved(struct item *it, struct st_job *j)
{
	struct st_defconfig *dc;
	struct st_error e = { 0 };
	char path[PATH_MAX], *buf, *p;
	const char *bad = NULL, *want = "y";
	char xsym[128];
	size_t i, len = 1;
	long k;

	st_pathf(path, "%s/.config", it->out->dir);
	if (st_defconfig_load(&dc, path, &e)) {
		st_job_fail(j, "%s: %s: %s", it->out->name, path, e.msg);
		return -EIO;
	}
	k = st_defconfig_find(dc, it->choice);
	if (k < 0 || strcmp(dc->lines[k].val, "y"))
		bad = it->choice;
	k = st_defconfig_find(dc, "SLUB_TINY");
	if (!bad && it->kv->tiny && (k < 0 || strcmp(dc->lines[k].val, "y")))
		bad = "SLUB_TINY";
	if (!bad && !it->kv->tiny && k >= 0 && !strcmp(dc->lines[k].val, "y")) {
		bad = "SLUB_TINY";
		want = "n";
	}
	for (i = 0; !bad && it->run->o->extra && it->run->o->extra[i]; i++) {
		const char *x = it->run->o->extra[i] + 7, *eq = strchr(x, '=');

		snprintf(xsym, sizeof(xsym), "%.*s", (int)(eq - x), x);
		k = st_defconfig_find(dc, xsym);
		if (k < 0 || dc->lines[k].kind != ST_DC_ASSIGN || strcmp(dc->lines[k].val, eq + 1)) {
			bad = xsym;
			want = eq + 1;
		}
	}
	for (i = 0; i < dc->nr_lines; i++)
		if (dc->lines[i].kind == ST_DC_ASSIGN && !strncmp(dc->lines[i].sym, "SL", 2))
			len += strlen(dc->lines[i].text) + 1;
	buf = p = malloc(len);
	if (buf) {
		*p = 0;
		for (i = 0; i < dc->nr_lines; i++) {
			const struct st_dc_line *l = &dc->lines[i];
			const char *s = l->sym;

			if (l->kind != ST_DC_ASSIGN || strncmp(s, "SL", 2) ||
			    (s[2] != 'A' && s[2] != 'O' && s[2] != 'U') || s[3] != 'B')
				continue;
			p += sprintf(p, "%s%s=%s", p == buf ? "" : " ", s, l->val);
		}
	}
	free(it->out->resolved);
	it->out->resolved = buf;
	st_defconfig_free(dc);
	if (!buf)
		return -ENOMEM;
	if (bad) {
		char *why = explain(it, bad);

		st_job_fail(j, "%s: CONFIG_%s=%s did not take effect after make olddefconfig: %s",
			    it->out->name, bad, want,
			    why ? why : "Kconfig gives no reason");
		free(why);
		return -EINVAL;
	}
	return 0;
}

static int old_finish(struct st_job *j, int status)
{
	struct item *it = j->data;

	if (status) {
		item_fail(it, j, "make olddefconfig failed (exit status %d)", status);
		return -EIO;
	}
	return check_resolved(it, j);
}

static int build_prepare(struct st_job *j)
{
	struct item *it = j->data;
	const char *targets[5] = { NULL };
	size_t i;

	if (it->out->cached)
		return ST_JOB_UPTODATE;
	for (i = 0; i < it->nobjects; i++)
		targets[i] = it->objects[i];
	if (it->run->o->image_target)
		targets[0] = it->run->o->image_target;
	progress(it, "build");
	j->argv = make_argv(it, targets, true);
	return j->argv ? ST_JOB_RUN : -ENOMEM;
}

/* The slab objects of @it in one thin archive: one file per cell for the report. */
static int make_archive(struct item *it)
{
	char *argv[8] = { NULL };
	size_t i, n = 0;
	char path[PATH_MAX];
	int ret;

	st_pathf(path, "%s/" ARCHIVE_NAME, it->out->dir);
	unlink(path);
	argv[n++] = "ar";
	argv[n++] = "cDPrST";
	argv[n++] = ARCHIVE_NAME;
	for (i = 0; i < it->nobjects; i++)
		argv[n++] = it->objects[i];
	ret = st_run(argv, NULL, it->out->dir, NULL, NULL, ST_SPAWN_QUIET);
	return ret < 0 ? ret : ret ? -EIO : 0;
}

static int build_finish(struct st_job *j, int status)
{
	struct item *it = j->data;
	struct st_error e = { 0 };
	char path[PATH_MAX], hex[ST_HASH_HEX], *stamp;
	struct st_hash h;
	size_t i;
	int ret;

	if (status) {
		item_fail(it, j, "make %s%s failed (exit status %d)", it->objects[0],
			  it->nobjects > 1 ? " ..." : "", status);
		return -EIO;
	}
	for (i = 0; i < it->nobjects; i++) {
		st_pathf(path, "%s/%s", it->out->dir, it->objects[i]);
		if (access(path, R_OK)) {
			item_fail(it, j, "make did not produce %s", it->objects[i]);
			return -ENOENT;
		}
	}
	if (!it->run->o->vmlinux && !it->run->o->image_target && make_archive(it)) {
		st_job_fail(j, "%s: ar failed to make %s/" ARCHIVE_NAME, it->out->name,
			    it->out->dir);
		return -EIO;
	}
	st_hash_init(&h);
	st_pathf(path, "%s/.config", it->out->dir);
	ret = st_hash_file(&h, path);
	if (ret)
		return ret;
	st_hash_hex(&h, hex);
	stamp = st_asprintf("# " STAMP_FORMAT "\n# key %s\n# config %s\n# resolved %s\n"
			    "# cc %s\n# wrapper %s\n", it->key, hex,
			    it->out->resolved ? it->out->resolved : "", it->cc.cc,
			    it->cc.wrapper ? it->cc.wrapper : "-");
	if (!stamp)
		return -ENOMEM;
	st_pathf(path, "%s/" STAMP_NAME, it->out->dir);
	ret = write_text(path, stamp, strlen(stamp), &e);
	free(stamp);
	if (ret) {
		st_job_fail(j, "%s: %s%s%s", it->out->name, e.file, e.file[0] ? ": " : "", e.msg);
		return ret;
	}
	progress(it, "done");
	return 0;
}

/*
 * The first line of the compiler's --version, hashed: the same CC name
 * after an upgrade makes different objects. The compiler is run once per
 * CROSS_COMPILE in a row (items come arch by arch); a missing one hashes
 * as nothing, and make then reports it.
 */
static void hash_cc_version(struct item *it, struct st_hash *h)
{
	struct run *r = it->run;
	char *cmd, *out = NULL, *nl;
	char *argv[] = { "sh", "-c", "LC_ALL=C $1 --version", "sh", NULL, NULL };

	if (r->cc_ver && !strcmp(r->cc_cross ? r->cc_cross : "", it->cross ? it->cross : "")) {
		st_hash_str(h, r->cc_ver);
		it->cc_version = strdup(r->cc_ver);
		return;
	}
	/* the compiler behind a wrapper: `distcc --version` is distcc's */
	cmd = strdup(it->cc.compiler);
	if (!cmd)
		return;
	argv[4] = cmd;
	if (st_run(argv, NULL, NULL, &out, NULL, ST_SPAWN_QUIET) != 0) {
		free(out);
		out = strdup("");
	}
	free(cmd);
	if (!out)
		return;
	nl = strchr(out, '\n');
	if (nl)
		*nl = 0;
	/* as kbuild: no '#' (make would take the rest for a comment) */
	for (nl = out; (nl = strchr(nl, '#'));)
		memmove(nl, nl + 1, strlen(nl));
	free(r->cc_ver);
	free(r->cc_cross);
	r->cc_ver = out;
	r->cc_cross = strdup(it->cross ? it->cross : "");
	st_hash_str(h, r->cc_ver);
	it->cc_version = strdup(r->cc_ver);
}

/* Everything the item's result depends on, before anything is run. */
static void item_key(struct item *it)
{
	const struct st_kernel_opts *o = it->run->o;
	static const char *const env[] = { "LLVM", "KCFLAGS", "KCPPFLAGS", "KBUILD_BUILD_USER",
					   "KBUILD_BUILD_HOST", "KBUILD_BUILD_TIMESTAMP", NULL };
	struct st_hash h;
	size_t i;

	st_hash_init(&h);
	st_hash_str(&h, STAMP_FORMAT);
	st_hash_str(&h, tree_id(it->run, it->out->arch));
	st_hash_str(&h, it->out->arch);
	st_hash_str(&h, it->cross);
	/*
	 * The compiler, not the wrapper that runs it: a distcc build and a
	 * local one are the same objects. kbuild's default compiler hashes as
	 * no CC at all, as before wrappers were told apart.
	 */
	st_hash_str(&h, it->cc.is_default ? NULL : it->cc.compiler);
	st_hash_str(&h, o->hostcc);
	hash_cc_version(it, &h);
	for (i = 0; env[i]; i++)
		st_hash_str(&h, getenv(env[i]));
	st_hash_str(&h, it->run->is_file ? "file" : "target");
	st_hash_str(&h, it->run->is_file ? it->run->defconfig_text : o->defconfig);
	st_hash_str(&h, it->kv->name);
	st_hash_str(&h, it->choice);
	st_hash_str(&h, o->vmlinux ? "vmlinux" : "objects");
	/* Only when set: the keys of plain builds stay what they were. */
	if (o->image_target)
		st_hash_str(&h, o->image_target);
	if (o->flavour)
		st_hash_str(&h, o->flavour);
	for (i = 0; o->extra && o->extra[i]; i++)
		st_hash_str(&h, o->extra[i]);
	for (i = 0; i < o->nfragments; i++)
		st_hash_str(&h, it->run->frag_texts[i]);
	for (i = 0; i < it->nobjects; i++)
		st_hash_str(&h, it->objects[i]);
	st_hash_hex(&h, it->key);
}

/*
 * The variants @arch's Kconfig offers: which choice symbols exist with a
 * prompt, asked from the Kconfig helper once, then kept next to the builds
 * under a key of the tree's identity (starting the helper costs seconds).
 * @choices[v] is set to the symbol of kvariants[v], or NULL.
 */
static int offered(struct run *r, const char *arch, const char *cross,
		   const char *choices[NKVARIANTS], bool *has_tiny, struct st_error *e)
{
	static const char *const probe[] = {
		"EXPERT", "SLAB", "SLAB_DEPRECATED", "SLOB", "SLOB_DEPRECATED", "SLUB", "SLUB_TINY",
	};
	struct st_kc_opts ko = {
		.srctree = r->src, .arch = arch, .cross_compile = cross, .python = r->o->python,
	};
	struct st_kc_assign as[ARRAY_SIZE(probe)] = { { 0 } };
	bool usable[ARRAY_SIZE(probe)];
	struct st_kc_result *res = NULL;
	struct st_kconfig *kc = NULL;
	char path[PATH_MAX], hex[ST_HASH_HEX], *text, *key, *list = NULL;
	struct st_hash h;
	size_t i, k, v;
	int ret;

	st_hash_init(&h);
	st_hash_str(&h, STAMP_FORMAT);
	st_hash_str(&h, tree_id(r, arch));
	st_hash_str(&h, cross);
	st_hash_hex(&h, hex);
	st_pathf(path, "%s/%s/%s/.slubtiny-variants", r->builddir, r->treedir, arch);
	text = st_read_text(path, NULL);
	key = text ? stamp_field(text, "key") : NULL;
	if (key && !strcmp(key, hex))
		list = stamp_field(text, "symbols");
	free(key);
	free(text);
	if (!list) {
		for (i = 0; i < ARRAY_SIZE(probe); i++) {
			as[i].sym = probe[i];
			as[i].val = "y";
			as[i].line = i + 1;
			usable[i] = true;
		}
		ret = st_kconfig_open(&ko, &kc, e);
		if (!ret)
			ret = st_kconfig_verify(kc, as, i, ST_KC_DEFCONFIG, false, &res, e);
		st_kconfig_close(kc);
		if (ret)
			return ret;
		for (k = 0; k < res->nr_findings; k++) {
			const struct st_kc_finding *f = &res->findings[k];

			if (f->kind != ST_KC_UNKNOWN && f->cause != ST_KC_CAUSE_NO_PROMPT)
				continue;
			for (i = 0; i < ARRAY_SIZE(probe); i++)
				if (!strcmp(probe[i], f->sym))
					usable[i] = false;
		}
		st_kc_result_free(res);
		list = calloc(1, 128);
		if (!list)
			return st_err(e, ENOMEM, NULL, "out of memory");
		for (i = 1; i < ARRAY_SIZE(probe); i++)
			if (usable[i])
				sprintf(list + strlen(list), "%s%s", *list ? "," : "", probe[i]);
		text = st_asprintf("# " STAMP_FORMAT "\n# key %s\n# symbols %s\n", hex, list);
		st_pathf(path, "%s/%s/%s", r->builddir, r->treedir, arch);
		ret = text ? st_mkdir_p(path) : -ENOMEM;
		st_pathf(path, "%s/%s/%s/.slubtiny-variants", r->builddir,
			    r->treedir, arch);
		if (!ret)
			ret = write_text(path, text, strlen(text), e);
		free(text);
		if (ret) {
			free(list);
			return e->code ? ret : st_err(e, -ret, path, "%s", strerror(-ret));
		}
	}
	/* A comma-separated list: look each name up with its delimiters. */
	for (v = 0; v < NKVARIANTS; v++) {
		choices[v] = NULL;
		for (k = 0; k < 2 && kvariants[v].choice[k] && !choices[v]; k++) {
			const char *s = kvariants[v].choice[k], *p = list;
			size_t sl = strlen(s);

			while ((p = strstr(p, s))) {
				if ((p == list || p[-1] == ',') && (p[sl] == ',' || !p[sl])) {
					choices[v] = s;
					break;
				}
				p += sl;
			}
		}
	}
	*has_tiny = strstr(list, "SLUB_TINY") != NULL;
	if (!*has_tiny)
		choices[1] = NULL;	/* slub_tiny */
	free(list);
	return 0;
}

static bool wanted(const struct st_kernel_opts *o, const char *name)
{
	size_t i;

	if (!o->nvariants)
		return true;
	for (i = 0; i < o->nvariants; i++)
		if (!strcmp(o->variants[i], name))
			return true;
	return false;
}

static int push(char ***v, size_t *n, const char *s)
{
	char **nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(s);
	return nv[(*n)++] ? 0 : -ENOMEM;
}

void st_kernel_result_free(struct st_kernel_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nitems; i++) {
		struct st_kernel_item *it = &r->items[i];

		free(it->arch);
		free(it->variant);
		free(it->name);
		free(it->dir);
		free(it->object);
		free(it->resolved);
		free(it->error);
		free(it->cc);
		free(it->cc_wrapper);
	}
	free(r->items);
	for (i = 0; i < r->nvariants; i++)
		free(r->variants[i]);
	free(r->variants);
	for (i = 0; i < r->narches; i++)
		free(r->arches[i]);
	free(r->arches);
	free(r->tree);
	free(r->baseline);
	free(r);
}

/* The error of st_kernel_default_dir() @ret, which left the path in @dir. */
int st_kernel_default_dir_err(const char *dir, int ret, struct st_error *e)
{
	if (ret == -ENAMETOOLONG)
		return st_err(e, ENAMETOOLONG, NULL, "cache directory name too long");
	if (ret == -EPERM)
		return st_err(e, EPERM, dir, "cache directory is not private (want owner %u, "
			      "mode 0700): not used", (unsigned int)geteuid());
	return st_err(e, -ret, dir, "cannot use as cache directory: %s", strerror(-ret));
}
#define default_dir_err st_kernel_default_dir_err

/*
 * One run at a time per build directory: two runs with different configs
 * in one item directory report and stamp each other's objects. The lock
 * file's descriptor is deliberately not close-on-exec: make and every
 * compiler below it inherit it, so the lock stays held until the last
 * process of a build is gone, even one orphaned by a kill -9 of slubtiny,
 * and a rerun cannot stamp objects an orphan is still writing.
 */
static int lock_builddir(struct run *r, struct st_error *e)
{
	char path[PATH_MAX];

	if (st_pathf(path, "%s/" LOCK_NAME, r->builddir))
		return st_err(e, ENAMETOOLONG, r->builddir, "name too long");
	r->lock_fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
	if (r->lock_fd < 0)
		return st_err(e, errno, path, "cannot open lock file: %s", strerror(errno));
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno == EWOULDBLOCK)
		return st_err(e, EBUSY, r->builddir, "build directory in use by another "
			      "slubtiny kernel run (or a build left running by one)");
	return st_err(e, errno, path, "cannot lock: %s", strerror(errno));
}

/* Tree name, version and build directory of the run. */
static int setup_tree(struct run *r, struct st_error *e)
{
	const struct st_kernel_opts *o = r->o;
	char mk[PATH_MAX], line[256];
	int sub = 0, ret;
	const char *base;
	struct st_hash h;
	char hex[ST_HASH_HEX];
	FILE *f;

	if (!o->srctree || !realpath(o->srctree, r->src))
		return st_err(e, errno ? errno : EINVAL, o->srctree ? o->srctree : "",
			      "cannot use as kernel tree: %s", strerror(errno ? errno : EINVAL));
	ret = st_kver_of_tree(r->src, &r->kver, e);
	if (ret)
		return ret;
	st_pathf(mk, "%s/Makefile", r->src);
	f = fopen(mk, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SUBLEVEL = %d", &sub) == 1)
			break;
	if (f)
		fclose(f);
	r->res->tree = st_asprintf("linux-%d.%d.%d", r->kver.major, r->kver.minor, sub);
	if (!r->res->tree)
		return st_err(e, ENOMEM, NULL, "out of memory");
	base = strrchr(r->src, '/');
	base = base && base[1] ? base + 1 : "linux";
	st_hash_init(&h);
	st_hash_str(&h, r->src);
	st_hash_hex(&h, hex);
	snprintf(r->treedir, sizeof(r->treedir), "%.40s-%.8s", base, hex);
	if (o->builddir)
		snprintf(r->builddir, sizeof(r->builddir), "%s", o->builddir);
	else if ((ret = st_kernel_default_dir(r->builddir, sizeof(r->builddir))))
		return default_dir_err(r->builddir, ret, e);
	ret = st_mkdir_p(r->builddir);
	if (ret)
		return st_err(e, -ret, r->builddir, "cannot create: %s", strerror(-ret));
	if (!realpath(r->builddir, mk))
		return st_err(e, errno, r->builddir, "%s", strerror(errno));
	snprintf(r->builddir, sizeof(r->builddir), "%s", mk);
	ret = lock_builddir(r, e);
	if (ret)
		return ret;
	/* O= inside the source tree would write into it. */
	if (!strncmp(r->builddir, r->src, strlen(r->src)) &&
	    (r->builddir[strlen(r->src)] == '/' || !r->builddir[strlen(r->src)]))
		return st_err(e, EINVAL, r->builddir, "build directory is inside the kernel tree %s",
			      r->src);
	/* No make target starts with '.': ".config" is a file, even a missing one. */
	r->is_file = strchr(o->defconfig, '/') || o->defconfig[0] == '.' ||
		     !access(o->defconfig, F_OK);
	if (r->is_file) {
		r->defconfig_text = st_read_text(o->defconfig, NULL);
		if (!r->defconfig_text)
			return st_err(e, errno ? errno : EIO, o->defconfig, "cannot read: %s",
				      strerror(errno ? errno : EIO));
	} else if (!*o->defconfig || o->defconfig[0] == '-' || strchr(o->defconfig, '=')) {
		return st_err(e, EINVAL, NULL, "'%s' is neither a file nor a make config target",
			      o->defconfig);
	}
	if (o->nfragments) {
		r->frags = calloc(o->nfragments, sizeof(*r->frags));
		r->frag_texts = calloc(o->nfragments, sizeof(*r->frag_texts));
		if (!r->frags || !r->frag_texts)
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < o->nfragments; i++) {
		const char *frag = o->fragments[i];
		struct st_defconfig *dc;

		errno = 0;
		r->frag_texts[i] = st_read_text(frag, NULL);
		if (!r->frag_texts[i])
			return st_err(e, errno ? errno : EIO, frag, "cannot read: %s",
				      strerror(errno ? errno : EIO));
		ret = st_defconfig_parse(&dc, r->frag_texts[i], strlen(r->frag_texts[i]), frag, e);
		if (ret)
			return ret;
		r->frags[i] = dc;
		if (dc->nr_errors)
			return st_err(e, EINVAL, frag, "%s", dc->nr_diags ? dc->diags[0].msg :
				      "not a config fragment");
	}
	return 0;
}

/* One item: fill names and objects and add its three jobs. */
static int add_item(struct run *r, const char *arch, const char *cross, size_t v,
		    const char *choice, bool has_tiny, bool in_shard, struct st_error *e)
{
	struct st_kernel_result *res = r->res;
	struct st_kernel_item *ki = &res->items[res->nitems];
	struct item *it = &r->items[r->nitems];
	char path[PATH_MAX];
	int ret;

	memset(ki, 0, sizeof(*ki));
	it->run = r;
	it->out = ki;
	it->kv = &kvariants[v];
	it->choice = choice;
	it->has_tiny = has_tiny;
	it->cross = cross;
	ki->in_shard = in_shard;
	ki->arch = strdup(arch);
	ki->variant = strdup(kvariants[v].name);
	ki->name = st_asprintf("%s/%s/%s", res->tree, arch, kvariants[v].name);
	/*
	 * vmlinux and flavoured (boot image) builds keep their own trees:
	 * switching never drops the other's stamp.
	 */
	ki->dir = st_asprintf("%s/%s/%s/%s%s%s", r->builddir, r->treedir, arch, kvariants[v].name,
			      r->o->flavour ? "-" : r->o->vmlinux ? ".vmlinux" : "",
			      r->o->flavour ? r->o->flavour : "");
	res->nitems++;
	r->nitems++;
	it->index = r->nitems;
	if (!ki->arch || !ki->variant || !ki->name || !ki->dir)
		return st_err(e, ENOMEM, NULL, "out of memory");
	ret = st_kernel_cc(r->o, cross, &it->cc);
	if (ret == -EINVAL)
		return st_err(e, EINVAL, NULL, "CC='%s' already runs through a compiler wrapper "
			      "other than %s", r->o->cc ? r->o->cc : "",
			      r->o->cc_wrapper);
	if (ret)
		return st_err(e, -ret, NULL, "%s", strerror(-ret));
	if (r->o->image_target) {
		snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]), "%s",
			 r->o->image_file);
	} else if (r->o->vmlinux) {
		snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]), "vmlinux");
	} else {
		snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]), "mm/%s.o",
			 kvariants[v].object);
		st_pathf(path, "%s/mm/slab_common.c", r->src);
		if (!access(path, F_OK))
			snprintf(it->objects[it->nobjects++], sizeof(it->objects[0]),
				 "mm/slab_common.o");
	}
	item_key(it);
	it->jcfg = st_pool_job(&r->pool, ki->name);
	it->jold = st_pool_job(&r->pool, ki->name);
	it->jbuild = st_pool_job(&r->pool, ki->name);
	if (!it->jcfg || !it->jold || !it->jbuild ||
	    st_pool_depend(it->jold, it->jcfg) || st_pool_depend(it->jbuild, it->jold))
		return st_err(e, ENOMEM, NULL, "out of memory");
	it->jcfg->data = it->jold->data = it->jbuild->data = it;
	/* make dies with us; the lock covers what it started (lock_builddir()). */
	it->jcfg->flags = it->jold->flags = it->jbuild->flags = ST_SPAWN_DEATHSIG;
	it->jcfg->prepare = cfg_prepare;
	it->jcfg->finish = cfg_finish;
	it->jold->prepare = old_prepare;
	it->jold->finish = old_finish;
	it->jbuild->prepare = build_prepare;
	it->jbuild->finish = build_finish;
	return 0;
}

/* The work items: arch x variant, in order; a shard keeps every N-th. */
static int plan(struct run *r, struct st_error *e)
{
	const struct st_kernel_opts *o = r->o;
	struct st_kernel_result *res = r->res;
	const char *host[] = { host_arch() };
	const char *const *arches = o->narches ? o->arches : host;
	size_t narches = o->narches ? o->narches : 1, a, v, k, nall = 0;
	const char *choices[8][NKVARIANTS];
	bool has_tiny[8];
	long base = -1;
	int ret;

	if (narches > 8)
		return st_err(e, E2BIG, NULL, "at most 8 arches per run");
	for (a = 0; a < narches; a++) {
		ret = offered(r, arches[a], st_kernel_cross(o, arches[a]), choices[a],
			      &has_tiny[a], e);
		if (ret)
			return ret;
		if (push(&res->arches, &res->narches, arches[a]))
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	for (k = 0; k < o->nvariants; k++) {
		for (v = 0; v < NKVARIANTS; v++)
			if (!strcmp(o->variants[k], kvariants[v].name))
				break;
		if (v == NKVARIANTS)
			return st_err(e, EINVAL, NULL,
				      "unknown variant '%s' (slub, slub_tiny, slab, slob)",
				      o->variants[k]);
		for (a = 0; a < narches; a++)
			if (!choices[a][v])
				return st_err(e, ENOENT, NULL,
					      "%s (ARCH=%s) does not offer variant '%s'",
					      o->srctree, arches[a], o->variants[k]);
	}
	/* Columns: the offered variants that were asked for, canonical order. */
	for (v = 0; v < NKVARIANTS; v++) {
		for (a = 0; a < narches; a++)
			if (choices[a][v] && wanted(o, kvariants[v].name))
				break;
		if (a == narches)
			continue;
		if (push(&res->variants, &res->nvariants, kvariants[v].name))
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	if (!res->nvariants)
		return st_err(e, ENOENT, NULL, "%s offers none of the variants asked for",
			      o->srctree);
	res->baseline = strdup(o->baseline ? o->baseline : res->variants[0]);
	if (!res->baseline)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (v = 0; v < NKVARIANTS; v++)
		if (!strcmp(kvariants[v].name, res->baseline))
			base = v;
	if (base < 0 || !wanted(o, res->baseline))
		return st_err(e, EINVAL, NULL, "baseline '%s' is not among the variants",
			      res->baseline);
	r->items = calloc(narches * NKVARIANTS, sizeof(*r->items));
	res->items = calloc(narches * NKVARIANTS, sizeof(*res->items));
	if (!r->items || !res->items)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (a = 0; a < narches; a++) {
		const char *cross = st_kernel_cross(o, arches[a]);
		bool need_base = false, have_base = false;

		for (v = 0; v < NKVARIANTS; v++) {
			bool mine;

			if (!choices[a][v] || !wanted(o, kvariants[v].name))
				continue;
			mine = !o->shard_n || nall % o->shard_n == o->shard_k - 1;
			nall++;
			if (!mine)
				continue;
			if ((long)v == base)
				have_base = true;
			else
				need_base = true;
			ret = add_item(r, arches[a], cross, v, choices[a][v], has_tiny[a], true,
				       e);
			if (ret)
				return ret;
		}
		/* A shard builds its arch's baseline too, for the diffs. */
		if (need_base && !have_base && choices[a][base]) {
			ret = add_item(r, arches[a], cross, base, choices[a][base], has_tiny[a],
				       false, e);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int st_kernel_run(const struct st_kernel_opts *o, struct st_kernel_result **out,
		  struct st_error *e)
{
	struct run r;
	size_t i;
	int ret;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.lock_fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &r.t0);
	r.res = calloc(1, sizeof(*r.res));
	if (!r.res)
		return st_err(e, ENOMEM, NULL, "out of memory");
	if (o->shard_n && (!o->shard_k || o->shard_k > o->shard_n)) {
		ret = st_err(e, EINVAL, NULL, "invalid shard %u/%u", o->shard_k, o->shard_n);
		goto out;
	}
	ret = setup_tree(&r, e);
	if (!ret)
		ret = plan(&r, e);
	if (ret)
		goto out;
	/* One make at a time: make's own -j (or the caller's jobserver) is the parallelism. */
	r.pool.max_running = 1;
	ret = st_pool_run(&r.pool, e);
	if (ret)
		goto out;
	for (i = 0; i < r.nitems; i++) {
		struct item *it = &r.items[i];
		struct st_job *failed = it->jbuild->state == ST_JOB_DONE ? NULL :
					it->jcfg->state == ST_JOB_FAILED ? it->jcfg :
					it->jold->state == ST_JOB_FAILED ? it->jold : it->jbuild;

		if (!it->out->cc) {
			it->out->cc = strdup(it->cc.cc);
			it->out->cc_wrapper = it->cc.wrapper ? strdup(it->cc.wrapper) : NULL;
			if (!it->out->cc || (it->cc.wrapper && !it->out->cc_wrapper)) {
				ret = st_err(e, ENOMEM, NULL, "out of memory");
				goto out;
			}
		}
		if (failed) {
			it->out->error = strdup(failed->error ? failed->error : "failed");
			r.res->nfailed++;
			progress(it, "failed");
		} else if (o->image_target) {
			it->out->object = st_asprintf("%s/%s", it->out->dir, o->image_file);
		} else if (o->vmlinux) {
			it->out->object = st_asprintf("%s/vmlinux", it->out->dir);
		} else {
			it->out->object = st_asprintf("%s/" ARCHIVE_NAME, it->out->dir);
		}
		if (!it->out->object && !it->out->error) {
			ret = st_err(e, ENOMEM, NULL, "out of memory");
			goto out;
		}
	}
out:
	for (i = 0; i < r.nitems; i++) {
		free(r.items[i].config_text);
		st_kernel_cc_release(&r.items[i].cc);
		free(r.items[i].cc_version);
	}
	free(r.items);
	free(r.defconfig_text);
	for (size_t fi = 0; fi < o->nfragments; fi++) {
		if (r.frags)
			st_defconfig_free(r.frags[fi]);
		if (r.frag_texts)
			free(r.frag_texts[fi]);
	}
	free(r.frags);
	free(r.frag_texts);
	st_pool_free(&r.pool);
	if (r.lock_fd >= 0)
		close(r.lock_fd);
	free(r.cc_ver);
	free(r.cc_cross);
	if (ret) {
		st_kernel_result_free(r.res);
		return ret;
	}
	*out = r.res;
	return 0;
}

int st_kernel_report(struct st_report **out, const struct st_kernel_result *k,
		     struct st_error *e)
{
	struct st_report_input *in = calloc(k->nitems + 1, sizeof(*in));
	size_t i;
	int ret;

	if (!in)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; i < k->nitems; i++) {
		in[i].variant = k->items[i].variant;
		in[i].arch = k->items[i].arch;
		in[i].object = k->items[i].object;
		in[i].error = k->items[i].error;
		in[i].resolved = k->items[i].resolved;
		in[i].cc = k->items[i].cc;
		in[i].cc_wrapper = k->items[i].cc_wrapper;
		in[i].aux = !k->items[i].in_shard;
	}
	ret = st_report_from_cells(out, k->tree, (const char *const *)k->variants, k->nvariants,
				   (const char *const *)k->arches, k->narches, k->baseline,
				   in, k->nitems, e);
	free(in);
	return ret;
}
