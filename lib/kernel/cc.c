// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C compiler of a kernel build and the wrapper in front of it
 * (distcc, icecc, ccache). make gets the wrapper in CC, as kbuild users
 * write it (make CC="distcc gcc"); the cache key and the compiler's
 * version see only the compiler behind it, because the wrapper runs that
 * same compiler on the same preprocessed source: a distcc build and a
 * local build of one configuration are the same objects.
 *
 * Which compiler an arch gets at all is lib/build's finder's answer, the
 * one `build` and `report` use (st_kernel_toolchain()).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/build.h"
#include "common/error.h"
#include "common/spawn.h"
#include "kernel/kernel.h"
#include "linux/arch.h"

static const char *const wrappers[] = { "distcc", "icecc", "ccache", NULL };
/* icecc is recognised but not offered: see doc/kernel.md, "Distributed builds". */
static const char *const choices[] = { "distcc", "ccache", NULL };

const char *const *st_kernel_cc_wrappers(void)
{
	return wrappers;
}

const char *const *st_kernel_cc_wrapper_choices(void)
{
	return choices;
}

static const char *known_wrapper(const char *name)
{
	size_t i;

	for (i = 0; wrappers[i]; i++)
		if (!strcmp(wrappers[i], name))
			return wrappers[i];
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * The wrapper @cmd really is: the program PATH (or @cmd's own path) finds,
 * links followed, when its name is a wrapper's (/usr/lib/distcc/gcc is a
 * link to distcc). NULL otherwise or when it is not found.
 */
static const char *resolves_to(const char *cmd)
{
	char path[PATH_MAX], real[PATH_MAX];

	if (!st_find_exe(cmd, path, sizeof(path)) || !realpath(path, real))
		return NULL;
	return known_wrapper(base_name(real));
}

/* kbuild's CC without CC=: ${CROSS_COMPILE}gcc, or clang as $LLVM says. */
static char *default_cc(const char *cross)
{
	const char *llvm = getenv("LLVM");
	char *s = NULL;
	int n;

	if (llvm && *llvm) {
		size_t l = strlen(llvm);

		if (llvm[l - 1] == '/')
			n = asprintf(&s, "%sclang", llvm);
		else if (llvm[0] == '-')
			n = asprintf(&s, "clang%s", llvm);
		else
			n = asprintf(&s, "clang");
	} else {
		n = asprintf(&s, "%sgcc", cross ? cross : "");
	}
	return n < 0 ? NULL : s;
}

void st_kernel_cc_release(struct st_kernel_cc *c)
{
	free(c->make_cc);
	free(c->cc);
	free(c->compiler);
	memset(c, 0, sizeof(*c));
}

/*
 * Split @cc into a wrapper and the compiler behind it: "distcc gcc" (the
 * first word is a wrapper), or one word that resolves to a wrapper (a
 * masquerade link, which runs the compiler of its own name).
 */
static int split_cc(const char *cc, const char **wrapper, char **compiler)
{
	size_t wl = strcspn(cc, " \t");
	const char *rest = cc + wl + strspn(cc + wl, " \t");
	char word[PATH_MAX];
	const char *w;

	*wrapper = NULL;
	if (wl >= sizeof(word))
		return (*compiler = strdup(cc)) ? 0 : -ENOMEM;
	memcpy(word, cc, wl);
	word[wl] = 0;
	w = known_wrapper(base_name(word));
	if (!w)
		w = resolves_to(word);
	if (w && *rest) {
		*wrapper = w;
		*compiler = strdup(rest);
	} else if (w && strcmp(base_name(word), w)) {
		/* /usr/lib/distcc/gcc: distcc running gcc */
		*wrapper = w;
		*compiler = strdup(base_name(word));
	} else {
		*compiler = strdup(cc);
	}
	return *compiler ? 0 : -ENOMEM;
}

int st_kernel_cc(const struct st_kernel_opts *o, const char *cross, struct st_kernel_cc *out)
{
	const char *w = NULL;
	char *def = NULL;
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (o->cc_wrapper && !known_wrapper(o->cc_wrapper))
		return -EINVAL;
	if (o->cc)
		ret = split_cc(o->cc, &w, &out->compiler);
	else if ((def = default_cc(cross)))
		ret = split_cc(def, &w, &out->compiler);
	if (ret)
		goto out;
	ret = -EINVAL;
	if (w && o->cc_wrapper && strcmp(w, o->cc_wrapper))
		goto out;
	ret = -ENOMEM;
	if (o->cc_wrapper && !w) {
		w = known_wrapper(o->cc_wrapper);
		if (asprintf(&out->make_cc, "%s %s", w, o->cc ? o->cc : def) < 0) {
			out->make_cc = NULL;
			goto out;
		}
	} else if (o->cc && !(out->make_cc = strdup(o->cc))) {
		goto out;
	}
	out->wrapper = w;
	if (!def)
		def = default_cc(cross);
	out->is_default = def && !strcmp(out->compiler, def);
	out->cc = strdup(out->make_cc ? out->make_cc : def);
	ret = out->cc ? 0 : -ENOMEM;
out:
	free(def);
	if (ret)
		st_kernel_cc_release(out);
	return ret;
}

void st_kernel_tc_release(struct st_kernel_tc *tc)
{
	free(tc->cross);
	free(tc->cc);
	memset(tc, 0, sizeof(*tc));
}

/* A cross arch without a usable compiler: what to install, or to set. */
static int no_compiler(const char *arch, const struct st_toolchain *t, struct st_error *e)
{
	if (!t)
		return st_err(e, ENOENT, NULL, "ARCH=%s: no cross compiler known for it; "
			      "set CROSS_COMPILE", arch);
	return st_err(e, ENOENT, NULL, "ARCH=%s: %s; or set CROSS_COMPILE", arch,
		      t->reason ? t->reason : "no cross compiler");
}

/* The CROSS_COMPILE of @arch when @o names none: see st_kernel_toolchain(). */
static int find_cross(const struct st_kernel_opts *o, const char *arch,
		      struct st_kernel_tc *out, struct st_error *e)
{
	const char *llvm = getenv("LLVM");
	struct st_toolchain *t = NULL;
	int ret;

	/* kbuild's SRCARCH: one tree and one compiler for i386 and x86_64 */
	if (st_arch_same(arch, st_arch_host_machine())) {
		out->from = ST_KERNEL_TC_HOST;
		return 0;
	}
	ret = st_build_find_toolchain(arch, NULL, &t, e);
	if (ret && ret != -ENOENT)
		return ret;
	if (!ret && t->found) {
		out->from = ST_KERNEL_TC_FOUND;
		out->cross = strdup(t->prefix);
		ret = out->cross ? 0 : st_err(e, ENOMEM, NULL, "out of memory");
	} else if (o->cc || (llvm && *llvm)) {
		out->from = ST_KERNEL_TC_CC;
		ret = 0;
	} else {
		ret = no_compiler(arch, t, e);
	}
	st_toolchains_free(t, t ? 1 : 0);
	return ret;
}

int st_kernel_toolchain(const struct st_kernel_opts *o, const char *arch,
			struct st_kernel_tc *out, struct st_error *e)
{
	const char *given = st_kernel_cross(o, arch);
	struct st_kernel_cc kcc;
	int ret;

	memset(out, 0, sizeof(*out));
	if (given) {
		out->from = ST_KERNEL_TC_GIVEN;
		out->cross = strdup(given);
		ret = out->cross ? 0 : st_err(e, ENOMEM, NULL, "out of memory");
	} else {
		ret = find_cross(o, arch, out, e);
	}
	if (ret)
		goto out;
	ret = st_kernel_cc(o, out->cross, &kcc);
	if (ret == -EINVAL)
		ret = st_err(e, EINVAL, NULL, "CC='%s' already runs through a compiler wrapper "
			     "other than %s", o->cc ? o->cc : "", o->cc_wrapper);
	else if (ret)
		ret = st_err(e, -ret, NULL, "%s", strerror(-ret));
	if (ret)
		goto out;
	out->cc = strdup(kcc.cc);
	st_kernel_cc_release(&kcc);
	if (!out->cc)
		ret = st_err(e, ENOMEM, NULL, "out of memory");
out:
	if (ret)
		st_kernel_tc_release(out);
	return ret;
}
