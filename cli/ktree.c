// SPDX-License-Identifier: GPL-2.0-only
/* The kernel-tree options shared by `kernel` and `footprint boot` (ktree.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ktree.h"

static const char *env_or_null(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/*
 * The compiler each arch's builds use, said before they start:
 * "arm: using arm-linux-gnueabi-gcc (CROSS_COMPILE=arm-linux-gnueabi-)".
 */
static void toolchain_note(void *ctx, const char *arch, const struct st_kernel_tc *tc)
{
	(void)ctx;
	switch (tc->from) {
	case ST_KERNEL_TC_GIVEN:
		p_note("%s: using %s (CROSS_COMPILE=%s, as given)", arch, tc->cc, tc->cross);
		break;
	case ST_KERNEL_TC_FOUND:
		p_note("%s: using %s (CROSS_COMPILE=%s)", arch, tc->cc, tc->cross);
		break;
	case ST_KERNEL_TC_HOST:
		p_note("%s: using %s (the host's arch: no CROSS_COMPILE)", arch, tc->cc);
		break;
	case ST_KERNEL_TC_CC:
		p_note("%s: using %s (as $CC or $LLVM says; no cross compiler found)", arch,
		       tc->cc);
		break;
	}
}

void st_ktree_init(struct st_ktree_args *k)
{
	const char *mf = getenv("MAKEFLAGS");

	memset(k, 0, sizeof(*k));
	k->o.arches = k->arches;
	k->o.cross = k->cross;
	k->o.variants = k->variants;
	k->o.fragments = k->fragments;
	k->o.toolchain = toolchain_note;
	/* MAKEFLAGS of a make -jN that runs us: its jobserver is ours to join. */
	k->o.jobserver = mf && (strstr(mf, "--jobserver-auth=") || strstr(mf, "--jobserver-fds="));
	k->o.cc = env_or_null("CC");
	k->o.hostcc = env_or_null("HOSTCC");
	k->o.python = env_or_null("SLUBTINY_PYTHON");
}

static int add_arg(const char **v, size_t *n, const char *arg, const char *opt)
{
	if (*n == ST_KTREE_MAX) {
		p_err("too many %s options (at most %d)", opt, ST_KTREE_MAX);
		return -1;
	}
	v[(*n)++] = arg;
	return 0;
}

int st_ktree_opt(struct st_ktree_args *k, int id, const char *arg)
{
	struct st_kernel_opts *o = &k->o;

	switch (id) {
	case ST_KTREE_SRCTREE:
		o->srctree = arg;
		return 0;
	case ST_KTREE_DEFCONFIG:
		o->defconfig = arg;
		return 0;
	case ST_KTREE_CONFIG:
		return add_arg(k->fragments, &o->nfragments, arg, "--config");
	case ST_KTREE_ARCH:
		return add_arg(k->arches, &o->narches, arg, "--arch");
	case ST_KTREE_CROSS:
		return add_arg(k->cross, &o->ncross, arg, "--cross-compile");
	case ST_KTREE_VARIANT:
		return add_arg(k->variants, &o->nvariants, arg, "--variant");
	case ST_KTREE_BUILDDIR:
		o->builddir = arg;
		return 0;
	case ST_KTREE_JOBS:
		return st_parse_jobs(arg, &o->jobs);
	case ST_KTREE_CC_WRAPPER:
		return st_parse_cc_wrapper(arg, &o->cc_wrapper);
	}
	return 1;
}

int st_ktree_finish(struct st_ktree_args *k)
{
	struct st_kernel_opts *o = &k->o;
	struct st_arch_sources given = { 0 };
	struct st_arch_choice c;
	const char *cc;
	size_t i;

	if (!o->srctree) {
		p_err("--srctree DIR is required");
		return -1;
	}
	/*
	 * As make: --arch, else $ARCH, else the host (as exactly as uname
	 * says it: x86_64, not x86). Each --arch is weighed against $ARCH.
	 */
	given.s[ST_ARCH_FROM_HOST].arch = st_arch_host_machine();
	if (st_cli_arch(o->narches ? o->arches[0] : NULL, NULL, &given))
		return -1;
	for (i = 0; i < (o->narches ? o->narches : 1); i++) {
		given.s[ST_ARCH_FROM_OPTION].arch = o->narches ? o->arches[i] : NULL;
		st_arch_decide(&given, &c);
		st_arch_warn(&c);
		/* the host's stays lib/kernel's default: no ARCH= for make */
		if (!o->narches && c.from == ST_ARCH_FROM_ENV)
			k->arches[o->narches++] = given.s[ST_ARCH_FROM_ENV].arch;
		/* an ARCH the command line did not say is said (each item names it too) */
		if (c.from != ST_ARCH_FROM_OPTION)
			p_note("ARCH=%s (from %s)", c.arch, st_arch_from_name(c.from));
	}
	cc = getenv("CROSS_COMPILE");
	if (!o->ncross && cc && *cc)
		k->cross[o->ncross++] = cc;
	return 0;
}
