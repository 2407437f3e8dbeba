// SPDX-License-Identifier: GPL-2.0-only
/*
 * A variant's first build starts from a sibling's finished one. The
 * variants of one run differ in a handful of symbols; kbuild records which
 * symbols each object reads (fixdep), so an object directory copied from a
 * sibling and given this variant's .config rebuilds only what those
 * symbols reach, as after any config change in one object directory:
 * kbuild's prepare step and objtool at least, and every object that does
 * not read the allocator's symbols (on 6.12 tinyconfig x86_64 the SLUB_TINY
 * image after SLUB's compiles 452 of 646 files: slab.h reads SLUB_TINY).
 *
 * Whatever goes wrong here leaves the item as it was: it builds from
 * scratch, as without a sibling.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/pool.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/str.h"
#include "kernel_priv.h"

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The last item before @it of its arch and compiler whose build is done. */
static const struct item *seed_source(const struct item *it)
{
	const struct run *r = it->run;
	const struct item *best = NULL;
	size_t i;

	for (i = 0; i < r->nitems; i++) {
		const struct item *s = &r->items[i];

		if (s->index >= it->index)
			break;
		if (s->jbuild->state != ST_JOB_DONE || s->out->error)
			continue;
		if (strcmp(s->out->arch, it->out->arch) || !same(s->cross, it->cross) ||
		    !same(s->cc.cc, it->cc.cc) || !same(s->cc.wrapper, it->cc.wrapper))
			continue;
		best = s;
	}
	return best;
}

static int run_quiet(char *const argv[])
{
	int ret = st_run(argv, NULL, NULL, NULL, NULL, ST_SPAWN_QUIET | ST_SPAWN_DEATHSIG);

	return ret < 0 ? ret : ret ? -EIO : 0;
}

static int rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", "--", (char *)path, NULL };

	return run_quiet(argv);
}

/*
 * Drop what slubtiny keeps in an object directory (stamp, logs, archive,
 * boot results: all named [.]slubtiny-*): they describe the sibling.
 */
static int drop_bookkeeping(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp = opendir(dir);
	int ret = 0;

	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		if (strncmp(d->d_name, "slubtiny-", 9) && strncmp(d->d_name, ".slubtiny-", 10))
			continue;
		st_pathf(path, "%s/%s", dir, d->d_name);
		if (unlink(path) && errno != ENOENT) {
			ret = -errno;
			break;
		}
	}
	closedir(dp);
	return ret;
}

/* Copy @name from @from to @to (absent in @from: nothing, unless @must). */
static int carry(const char *from, const char *to, const char *name, bool must)
{
	char src[PATH_MAX], dst[PATH_MAX], *buf;
	size_t len;
	struct st_error e = { 0 };
	int ret;

	st_pathf(src, "%s/%s", from, name);
	st_pathf(dst, "%s/%s", to, name);
	buf = st_read_text(src, &len);
	if (!buf)
		return errno == ENOENT && !must ? 0 : -errno;
	ret = st_kernel_write_text(dst, buf, len, &e);
	free(buf);
	return ret;
}

/* @from followed by a character that cannot continue a path component */
static bool at_prefix(const char *p, const char *from, size_t n)
{
	return !strncmp(p, from, n) && (p[n] == '/' || !p[n] || strchr(" \t\n:\"')", p[n]));
}

/*
 * Rewrite the absolute @from into @to in the command file @path, keeping
 * its mtime: make compares the recorded command with the one it would run.
 */
static int rebase_cmd(const char *path, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), len, hits = 0, n = 0;
	char *text, *out, *p;
	struct stat st;
	int ret;

	if (stat(path, &st))
		return -errno;
	text = st_read_text(path, &len);
	if (!text)
		return -errno;
	/* the same scan as the rewrite below, so that the count is its count */
	for (p = text; *p;) {
		if (at_prefix(p, from, nf)) {
			hits++;
			p += nf;
		} else {
			p++;
		}
	}
	if (!hits) {
		free(text);
		return 0;
	}
	out = malloc(len + hits * (nt > nf ? nt - nf : 0) + 1);
	if (!out) {
		free(text);
		return -ENOMEM;
	}
	for (p = text; *p;) {
		if (at_prefix(p, from, nf)) {
			memcpy(out + n, to, nt);
			n += nt;
			p += nf;
		} else {
			out[n++] = *p++;
		}
	}
	ret = st_write_file(path, out, n, st.st_mode & 07777);
	if (!ret) {
		struct timespec ts[2] = { st.st_atim, st.st_mtim };

		if (utimensat(AT_FDCWD, path, ts, 0))
			ret = -errno;
	}
	free(out);
	free(text);
	return ret;
}

/*
 * kbuild's own command files name objects relative to the object
 * directory, but the tools it builds on the way (objtool, under tools/)
 * record absolute paths: left as the sibling's, make rebuilds objtool, and
 * then every object that objtool checks. Their .*.cmd files get this
 * directory's path.
 */
static int rebase_tools(const char *dir, const char *from, const char *to)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp = opendir(dir);
	int ret = 0;

	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	while (!ret && (d = readdir(dp))) {
		size_t n = strlen(d->d_name);
		unsigned char type;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (st_pathf(path, "%s/%s", dir, d->d_name)) {
			ret = -ENAMETOOLONG;
			break;
		}
		type = d->d_type;
		if (type == DT_UNKNOWN) {	/* a filesystem without d_type */
			struct stat st;

			if (lstat(path, &st)) {
				ret = -errno;
				break;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_DIR)
			ret = rebase_tools(path, from, to);
		else if (type == DT_REG && d->d_name[0] == '.' && n > 4 &&
			 !strcmp(d->d_name + n - 4, ".cmd"))
			ret = rebase_cmd(path, from, to);
	}
	closedir(dp);
	return ret;
}

/* @tmp (a copy of the sibling) takes the place of @dir, keeping @dir's config and log. */
static int swap_in(const char *dir, const char *tmp, const char *sibling)
{
	char old[PATH_MAX], tools[PATH_MAX];
	int ret;

	if (st_pathf(tools, "%s/tools", tmp) || st_pathf(old, "%s.old", dir))
		return -ENAMETOOLONG;
	ret = rebase_tools(tools, sibling, dir);
	if (!ret)
		ret = drop_bookkeeping(tmp);
	if (!ret)
		ret = carry(dir, tmp, ".config", true);
	if (!ret)
		ret = carry(dir, tmp, LOG_NAME, false);
	if (ret)
		return ret;
	if (rm_rf(old) || rename(dir, old))
		return -EIO;
	if (rename(tmp, dir)) {
		ret = -errno;
		rename(old, dir);
		return ret;
	}
	rm_rf(old);
	return 0;
}

int st_kernel_seed(struct item *it)
{
	const struct item *s;
	char path[PATH_MAX], tmp[PATH_MAX], *from, *msg;
	int ret;

	/*
	 * Built before (kbuild's prepare made bounds.h; the config targets
	 * write autoconf.h already): kbuild goes on from its own state.
	 */
	st_pathf(path, "%s/include/generated/bounds.h", it->out->dir);
	if (!access(path, F_OK))
		return 0;
	s = seed_source(it);
	if (!s)
		return 0;
	if (st_pathf(tmp, "%s.seed", it->out->dir))
		return 0;
	from = st_asprintf("%s/.", s->out->dir);
	if (!from)
		return -ENOMEM;
	{
		char *argv[] = { "cp", "-a", "--", from, tmp, NULL };

		ret = rm_rf(tmp);
		if (!ret)
			ret = run_quiet(argv);
	}
	free(from);
	if (!ret)
		ret = swap_in(it->out->dir, tmp, s->out->dir);
	if (ret) {
		rm_rf(tmp);
		return 0;
	}
	msg = st_asprintf("build from %s's objects", s->out->variant);
	st_kernel_progress(it, msg ? msg : "build from a sibling's objects");
	free(msg);
	return 1;
}
