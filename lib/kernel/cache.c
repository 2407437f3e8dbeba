// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build cache: its directory (private, one run at a time) and the
 * stamps of content hashes that let a run skip make for an item whose
 * inputs did not change.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/stamp.h"
#include "common/str.h"
#include "kernel_priv.h"
#include "linux/arch.h"

#define LOCK_NAME ".slubtiny-lock"

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
	/* it holds objects later runs report without rebuilding */
	ret = st_private_dir(top);
	if (ret)
		snprintf(buf, len, "%s", top);
	return ret;
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

/*
 * One run at a time per build directory: two runs with different configs
 * in one item directory report and stamp each other's objects. The lock
 * file's descriptor is deliberately not close-on-exec: make and every
 * compiler below it inherit it, so the lock stays held until the last
 * process of a build is gone, even one orphaned by a kill -9 of slubtiny,
 * and a rerun cannot stamp objects an orphan is still writing.
 */
int st_kernel_lock_builddir(struct run *r, struct st_error *e)
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

/* @len bytes of @text to @path, never half of them (st_write_file). */
int st_kernel_write_text(const char *path, const char *text, size_t len, struct st_error *e)
{
	int ret = st_write_file(path, text, len, 0666);

	return ret ? st_err(e, -ret, path, "cannot write: %s", strerror(-ret)) : 0;
}

/* The value of "# KEY value" in a stamp, malloc'd, or NULL. */
char *st_kernel_stamp_field(const char *text, const char *key)
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
	st_pathf(path, "%s/arch/%s/configs", src, st_arch_srcarch(arch));
	hash_dir(h, path);
	st_pathf(path, "%s/arch/%s/Kconfig", src, st_arch_srcarch(arch));
	st_hash_stat(h, path);
	st_pathf(path, "%s/arch/%s/include/asm", src, st_arch_srcarch(arch));
	hash_dir(h, path);
}

/* hash_tree() of @arch as hex, computed once per arch in a row. */
const char *st_kernel_tree_id(struct run *r, const char *arch)
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

/*
 * Who built a cached item: the stamp's cc and wrapper. A stamp older than
 * those lines had the same compiler (it is in the key) and no wrapper in
 * the key's view; it is taken as a plain build by that compiler.
 */
static void stamp_cc(struct item *it, const char *text)
{
	char *cc = st_kernel_stamp_field(text, "cc"), *w = st_kernel_stamp_field(text, "wrapper");

	free(it->out->cc);
	free(it->out->cc_wrapper);
	it->out->cc = cc ? cc : strdup(it->cc.compiler);
	it->out->cc_wrapper = w && strcmp(w, "-") ? w : NULL;
	if (it->out->cc_wrapper != w)
		free(w);
}

/* The stamp matches and every object is there: nothing to do. */
bool st_kernel_item_cached(struct item *it)
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
	key = st_kernel_stamp_field(text, "key");
	cfg = st_kernel_stamp_field(text, "config");
	res = st_kernel_stamp_field(text, "resolved");
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
void st_kernel_item_key(struct item *it)
{
	const struct st_kernel_opts *o = it->run->o;
	static const char *const env[] = { "LLVM", "KCFLAGS", "KCPPFLAGS", "KBUILD_BUILD_USER",
					   "KBUILD_BUILD_HOST", "KBUILD_BUILD_TIMESTAMP", NULL };
	struct st_hash h;
	size_t i;

	st_hash_init(&h);
	st_hash_str(&h, STAMP_FORMAT);
	st_hash_str(&h, st_kernel_tree_id(it->run, it->out->arch));
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
