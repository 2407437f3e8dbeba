// SPDX-License-Identifier: GPL-2.0-only
/*
 * The client side of kconfig/st_kconfig.py: one helper process per (tree,
 * arch), JSON lines over its stdin/stdout.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "st_config.h"
#include "common/array.h"
#include "common/error.h"
#include "common/spawn.h"
#include "kconfig/kconfig_priv.h"
#include "linux/arch.h"

#define HELPER_NAME	"st_kconfig.py"
#define MAX_REPLY	(256u << 20)	/* a whole .config is ~1 MiB */

struct st_kconfig {
	struct st_child child;
	char *rbuf;		/* bytes read from the helper, not yet used */
	size_t rlen, rcap;
	long next_id;
	bool broken;		/* the pipe is out of step: refuse more calls */
	char *describe;
	char *version;
};

/* Is @path (with a '/') or a PATH entry named @path executable? */
static bool executable(const char *path)
{
	char buf[PATH_MAX];

	return st_find_exe(path, buf, sizeof(buf));
}

/*
 * $SLUBTINY_PYTHON, then Debian's /usr/bin/python3 (where
 * python3-kconfiglib lives even when another python3 is first on PATH),
 * then the interpreter meson found.
 */
static const char *pick_python(const struct st_kc_opts *o)
{
	const char *p = o->python;

	if (p && *p)
		return p;
	p = getenv("SLUBTINY_PYTHON");
	if (p && *p)
		return p;
	if (access("/usr/bin/python3", X_OK) == 0)
		return "/usr/bin/python3";
	return ST_PYTHON;
}

/*
 * $SLUBTINY_KCONFIG_HELPER, then the installed copy next to the program
 * (<prefix>/share/slubtiny/kconfig/, see lib/build/meson.build), then the
 * source tree. @buf holds the installed path when that one is used.
 */
static const char *pick_helper(const struct st_kc_opts *o, char *buf,
			       size_t len)
{
	const char *p = o->helper;
	ssize_t n;
	char *slash;

	if (p && *p)
		return p;
	p = getenv("SLUBTINY_KCONFIG_HELPER");
	if (p && *p)
		return p;
	n = readlink("/proc/self/exe", buf, len - 1);
	if (n > 0) {
		buf[n] = '\0';
		slash = strrchr(buf, '/');
		if (slash && (size_t)(slash - buf) + 40 < len) {
			strcpy(slash, "/../share/slubtiny/kconfig/" HELPER_NAME);
			if (access(buf, R_OK) == 0)
				return buf;
		}
	}
	return ST_SOURCE_ROOT "/kconfig/" HELPER_NAME;
}

/* Write all of @buf; a dead helper is -EPIPE, not a SIGPIPE for us. */
static int write_all(int fd, const char *buf, size_t len)
{
	sigset_t pipe_set, old;
	struct timespec zero = { 0, 0 };
	ssize_t n;
	int err = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		buf += n;
		len -= n;
	}
	/* Consume the SIGPIPE we caused before unblocking, unless one was
	 * already pending for someone else. */
	if (err == -EPIPE && !sigismember(&old, SIGPIPE))
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

/* Read one reply line; *line points into kc->rbuf until the next call. */
static int read_line(struct st_kconfig *kc, char **line, size_t *len)
{
	char *nl, *nbuf;
	ssize_t n;

	for (;;) {
		nl = kc->rlen ? memchr(kc->rbuf, '\n', kc->rlen) : NULL;
		if (nl) {
			*nl = '\0';
			*line = kc->rbuf;
			*len = nl - kc->rbuf;
			return 0;
		}
		if (kc->rlen + 1 >= kc->rcap) {
			if (kc->rcap >= MAX_REPLY)
				return -E2BIG;
			nbuf = realloc(kc->rbuf, kc->rcap ? kc->rcap * 2 : 65536);
			if (!nbuf)
				return -ENOMEM;
			kc->rbuf = nbuf;
			kc->rcap = kc->rcap ? kc->rcap * 2 : 65536;
		}
		n = read(kc->child.out_fd, kc->rbuf + kc->rlen,
			 kc->rcap - kc->rlen - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		kc->rlen += n;
	}
}

/* Forget the line returned by the last read_line(). */
static void consume_line(struct st_kconfig *kc, size_t len)
{
	size_t used = len + 1;

	memmove(kc->rbuf, kc->rbuf + used, kc->rlen - used);
	kc->rlen -= used;
}

/* The helper is gone: reap it and say how it ended. */
static int helper_died(struct st_kconfig *kc, struct st_error *err)
{
	int status = st_child_wait(&kc->child);

	kc->broken = true;
	if (status == 127)
		return st_err(err, ENOENT, HELPER_NAME,
			      "cannot run the Kconfig helper (python interpreter "
			      "or script missing; set SLUBTINY_PYTHON)");
	return st_err(err, EIO, HELPER_NAME,
		      "the Kconfig helper exited unexpectedly (status %d)", status);
}

/*
 * Send @req (consumed) and return the raw reply line in *line, *len (valid
 * until the next transaction).
 */
static int transact(struct st_kconfig *kc, cJSON *req, char **line,
		    size_t *len, struct st_error *err)
{
	char *text, *framed;
	size_t tlen;
	int ret;

	if (kc->broken)
		return st_err(err, EIO, HELPER_NAME,
			      "the Kconfig helper is no longer usable");
	if (!cJSON_AddNumberToObject(req, "id", ++kc->next_id)) {
		cJSON_Delete(req);
		return -ENOMEM;
	}
	text = cJSON_PrintUnformatted(req);
	cJSON_Delete(req);
	if (!text)
		return -ENOMEM;
	tlen = strlen(text);
	framed = malloc(tlen + 2);
	if (!framed) {
		cJSON_free(text);
		return -ENOMEM;
	}
	memcpy(framed, text, tlen);
	framed[tlen] = '\n';
	cJSON_free(text);
	ret = write_all(kc->child.in_fd, framed, tlen + 1);
	free(framed);
	if (ret == -EPIPE)
		return helper_died(kc, err);
	if (ret)
		return st_err(err, -ret, HELPER_NAME, "cannot write to the helper");
	ret = read_line(kc, line, len);
	if (ret == -EPIPE)
		return helper_died(kc, err);
	if (ret) {
		kc->broken = true;
		return st_err(err, -ret, HELPER_NAME,
			      "cannot read from the Kconfig helper");
	}
	return 0;
}

static int spawn_helper(struct st_kconfig *kc, const struct st_kc_opts *o,
			struct st_error *err)
{
	char buf[4096];
	const char *py = pick_python(o), *helper = pick_helper(o, buf, sizeof(buf));
	char *argv[] = { (char *)py, (char *)helper, "serve", NULL };

	if (!executable(py))
		return st_err(err, ENOENT, py,
			      "python interpreter not found (set SLUBTINY_PYTHON "
			      "to one that has Kconfiglib)");
	if (access(helper, R_OK) != 0)
		return st_err(err, errno, helper, "cannot read the Kconfig helper");
	/* The helper's stderr carries nothing the protocol needs. */
	if (st_spawn(&kc->child, argv, NULL, NULL,
		     ST_SPAWN_STDIN | ST_SPAWN_STDOUT | ST_SPAWN_QUIET))
		return st_err(err, errno ? errno : EIO, py, "cannot start");
	return 0;
}

static int load_request(const struct st_kc_opts *o, cJSON **out)
{
	cJSON *req = cJSON_CreateObject();

	*out = req;
	if (!req || !cJSON_AddStringToObject(req, "op", "load"))
		return -ENOMEM;
	if (o->srctree && !cJSON_AddStringToObject(req, "srctree", o->srctree))
		return -ENOMEM;
	if (o->target && !cJSON_AddStringToObject(req, "target", o->target))
		return -ENOMEM;
	if (o->arch && !cJSON_AddStringToObject(req, "arch", o->arch))
		return -ENOMEM;
	/* the registry's SRCARCH and SUBARCH, so the helper keeps no table */
	if (!cJSON_AddStringToObject(req, "srcarch",
				     st_arch_srcarch(o->arch ? o->arch : st_arch_host())) ||
	    !cJSON_AddStringToObject(req, "subarch", st_arch_host()))
		return -ENOMEM;
	if (o->cross_compile &&
	    !cJSON_AddStringToObject(req, "cross_compile", o->cross_compile))
		return -ENOMEM;
	return 0;
}

static int load_tree(struct st_kconfig *kc, const struct st_kc_opts *o,
		     struct st_error *err)
{
	const cJSON *d, *v;
	cJSON *req, *root;
	char *line;
	size_t len;
	int ret;

	ret = load_request(o, &req);
	if (ret) {
		cJSON_Delete(req);
		return ret;
	}
	ret = transact(kc, req, &line, &len, err);
	if (ret)
		return ret;
	ret = st_kc_reply_tree(line, len, &root, err);
	consume_line(kc, len);
	if (ret == -EIO || ret == -EINVAL) {
		/* The helper's message names the tree or the missing module. */
		if (err && !err->file[0])
			snprintf(err->file, sizeof(err->file), "%s",
				 o->srctree ? o->srctree : HELPER_NAME);
		return ret == -EINVAL ? ret : -ENOENT;
	}
	if (ret)
		return ret;
	d = cJSON_GetObjectItemCaseSensitive(root, "describe");
	v = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (cJSON_IsString(d) && cJSON_IsString(v)) {
		kc->describe = strdup(d->valuestring);
		kc->version = strdup(v->valuestring);
	}
	cJSON_Delete(root);
	if (!kc->describe || !kc->version)
		return st_err(err, EPROTO, HELPER_NAME, "malformed load reply");
	return 0;
}

int st_kconfig_open(const struct st_kc_opts *opts, struct st_kconfig **out,
		    struct st_error *err)
{
	struct st_kconfig *kc;
	int ret;

	*out = NULL;
	kc = calloc(1, sizeof(*kc));
	if (!kc)
		return -ENOMEM;
	kc->child.pid = -1;
	kc->child.in_fd = kc->child.out_fd = -1;
	ret = spawn_helper(kc, opts, err);
	if (!ret)
		ret = load_tree(kc, opts, err);
	if (ret) {
		st_kconfig_close(kc);
		return ret;
	}
	*out = kc;
	return 0;
}

const char *st_kconfig_describe(const struct st_kconfig *kc)
{
	return kc->describe;
}

const char *st_kconfig_version(const struct st_kconfig *kc)
{
	return kc->version;
}

/* The request's "assign" array, or NULL without memory. */
static cJSON *assign_array(const struct st_kc_assign *a, size_t n)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	if (!arr)
		return NULL;
	for (i = 0; i < n; i++) {
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o)) {
			cJSON_Delete(o);
			goto fail;
		}
		/* From here on @o belongs to @arr. */
		if (!cJSON_AddStringToObject(o, "sym", a[i].sym) ||
		    !(a[i].val ? cJSON_AddStringToObject(o, "val", a[i].val) :
				 cJSON_AddNullToObject(o, "val")) ||
		    !cJSON_AddNumberToObject(o, "line", a[i].line) ||
		    (a[i].fix_target && !cJSON_AddTrueToObject(o, "fix")))
			goto fail;
	}
	return arr;
fail:
	cJSON_Delete(arr);
	return NULL;
}

static cJSON *resolve_request(const char *op, const struct st_kc_assign *assigns,
			      size_t n, enum st_kc_mode mode, bool want_config)
{
	cJSON *req = cJSON_CreateObject(), *arr;

	if (!req ||
	    !cJSON_AddStringToObject(req, "op", op) ||
	    !cJSON_AddStringToObject(req, "mode", mode == ST_KC_TINYCONFIG ?
				     "tinyconfig" : "defconfig") ||
	    !cJSON_AddBoolToObject(req, "config", want_config))
		goto fail;
	arr = assign_array(assigns, n);
	if (!arr)
		goto fail;
	if (!cJSON_AddItemToObject(req, "assign", arr)) {
		cJSON_Delete(arr);
		goto fail;
	}
	return req;
fail:
	cJSON_Delete(req);
	return NULL;
}

static bool all_named(const struct st_kc_assign *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!a[i].sym)
			return false;
	return true;
}

/* One request of @op over @assigns (and, for "pin", the file before: @base). */
static int resolve_call(struct st_kconfig *kc, const char *op,
			const struct st_kc_assign *assigns, size_t n,
			const struct st_kc_assign *base, size_t nr_base,
			enum st_kc_mode mode, bool want_config,
			struct st_kc_result **res, struct st_error *err)
{
	cJSON *req, *arr;
	char *line;
	size_t len;
	int ret;

	*res = NULL;
	if (!all_named(assigns, n) || !all_named(base, nr_base))
		return st_err(err, EINVAL, "", "assignment without a symbol");
	req = resolve_request(op, assigns, n, mode, want_config);
	if (!req)
		return -ENOMEM;
	if (base) {
		arr = assign_array(base, nr_base);
		if (!arr || !cJSON_AddItemToObject(req, "base", arr)) {
			cJSON_Delete(arr);
			cJSON_Delete(req);
			return -ENOMEM;
		}
	}
	ret = transact(kc, req, &line, &len, err);
	if (ret)
		return ret;
	ret = st_kc_reply_parse(line, len, res, err);
	consume_line(kc, len);
	return ret;
}

int st_kconfig_verify(struct st_kconfig *kc, const struct st_kc_assign *assigns,
		      size_t n, enum st_kc_mode mode, bool want_config,
		      struct st_kc_result **res, struct st_error *err)
{
	return resolve_call(kc, "verify", assigns, n, NULL, 0, mode, want_config,
			    res, err);
}

int st_kconfig_fix_deps(struct st_kconfig *kc, const struct st_kc_assign *assigns,
			size_t n, enum st_kc_mode mode, bool want_config,
			struct st_kc_result **res, struct st_error *err)
{
	return resolve_call(kc, "fix_deps", assigns, n, NULL, 0, mode, want_config,
			    res, err);
}

int st_kconfig_pin(struct st_kconfig *kc, const struct st_kc_assign *assigns, size_t n,
		   const struct st_kc_assign *base, size_t nr_base, enum st_kc_mode mode,
		   struct st_kc_result **res, struct st_error *err)
{
	return resolve_call(kc, "pin", assigns, n, base, nr_base, mode, false, res, err);
}

void st_kconfig_close(struct st_kconfig *kc)
{
	static const char quit[] = "{\"op\":\"quit\"}\n";

	if (!kc)
		return;
	if (kc->child.pid > 0) {
		if (!kc->broken)
			write_all(kc->child.in_fd, quit, sizeof(quit) - 1);
		/* Closing stdin ends the helper's loop in any case. */
		st_child_wait(&kc->child);
	}
	free(kc->rbuf);
	free(kc->describe);
	free(kc->version);
	free(kc);
}
