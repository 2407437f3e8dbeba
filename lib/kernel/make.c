// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running make for a work item: its command line, its log, the progress
 * callback, the build job of the slab objects (or vmlinux) and their
 * archive, and the arch and CROSS_COMPILE make is given.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build/build.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/stamp.h"
#include "common/str.h"
#include "kernel_priv.h"

#define LOG_TAIL_LINES 15

static double elapsed(const struct run *r)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - r->t0.tv_sec) + (t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

void st_kernel_progress(struct item *it, const char *step)
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

/* argv of `make -C src O=dir ARCH=.. [CROSS_COMPILE=..] [CC=..] [-jN] targets...`. */
char **st_kernel_make_argv(struct item *it, const char *const *targets, bool jobs)
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

void st_kernel_item_fail(struct item *it, struct st_job *j, const char *fmt, ...)
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

int st_kernel_build_prepare(struct st_job *j)
{
	struct item *it = j->data;
	const char *targets[5] = { NULL };
	size_t i;

	if (it->out->cached)
		return ST_JOB_UPTODATE;
	if (st_kernel_seed(it) < 0)
		return -ENOMEM;
	for (i = 0; i < it->nobjects; i++)
		targets[i] = it->objects[i];
	if (it->run->o->image_target)
		targets[0] = it->run->o->image_target;
	st_kernel_progress(it, "build");
	j->argv = st_kernel_make_argv(it, targets, true);
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

int st_kernel_build_finish(struct st_job *j, int status)
{
	struct item *it = j->data;
	struct st_error e = { 0 };
	char path[PATH_MAX], hex[ST_HASH_HEX], *stamp;
	struct st_hash h;
	size_t i;
	int ret;

	if (status) {
		st_kernel_item_fail(it, j, "make %s%s failed (exit status %d)",
				    it->objects[0], it->nobjects > 1 ? " ..." : "", status);
		return -EIO;
	}
	for (i = 0; i < it->nobjects; i++) {
		st_pathf(path, "%s/%s", it->out->dir, it->objects[i]);
		if (access(path, R_OK)) {
			st_kernel_item_fail(it, j, "make did not produce %s", it->objects[i]);
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
	ret = st_kernel_write_text(path, stamp, strlen(stamp), &e);
	free(stamp);
	if (ret) {
		st_job_fail(j, "%s: %s%s%s", it->out->name, e.file, e.file[0] ? ": " : "", e.msg);
		return ret;
	}
	st_kernel_progress(it, "done");
	return 0;
}
