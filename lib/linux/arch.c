// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ARCH registry: make's ARCH names and their SRCARCH (the top-level
 * Makefile's rule), `uname -m` (scripts/subarch.include's), um, OpenWrt's
 * and Buildroot's arch names, Yocto's TARGET_ARCH and machine tunes; and the
 * one rule for which source of ARCH wins.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "common/array.h"
#include "linux/arch.h"

/*
 * Every arch/ of Linux 6.1 to 7.3, then the ARCH names kbuild maps to one
 * of them (the top-level Makefile's "SRCARCH := x86" lines), then names
 * kbuild no longer takes that slubtiny always has (arch/ppc went in
 * 2.6.27, arm26 in 2.6.23; sparc32's SRCARCH line is gone by 6.12).
 */
static const struct st_arch arches[] = {
	{ "alpha", "alpha" },
	{ "arc", "arc" },
	{ "arm", "arm" },
	{ "arm64", "arm64", "aarch64 aarch64_be arm64" },
	{ "csky", "csky" },
	{ "hexagon", "hexagon" },
	{ "ia64", "ia64", "ia64", { 6, 7 } },
	{ "loongarch", "loongarch" },
	{ "m68k", "m68k" },
	{ "microblaze", "microblaze" },
	{ "mips", "mips" },
	{ "nios2", "nios2" },
	{ "openrisc", "openrisc" },
	{ "parisc", "parisc" },
	{ "powerpc", "powerpc" },
	{ "riscv", "riscv" },
	{ "s390", "s390" },
	{ "sh", "sh" },
	{ "sparc", "sparc" },
	{ "um", "um" },
	{ "x86", "x86" },
	{ "xtensa", "xtensa" },
	/* kbuild's aliases */
	{ "i386", "x86", "i386 i486 i586 i686" },
	{ "x86_64", "x86", "x86_64", .srcarch_default = true },
	{ "sparc64", "sparc", "sparc64 sun4u" },
	{ "parisc64", "parisc", "parisc64" },
	{ "sh64", "sh" },
	/* taken before, kept */
	{ "sparc32", "sparc", NULL, { 0, 0 }, true },
	{ "ppc", "powerpc", NULL, { 0, 0 }, true },
	{ "ppc64", "powerpc", NULL, { 0, 0 }, true },
	{ "arm26", "arm", NULL, { 0, 0 }, true },
};

const struct st_arch *st_arch_all(size_t *n)
{
	*n = ARRAY_SIZE(arches);
	return arches;
}

const struct st_arch *st_arch_lookup(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(arches); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

bool st_arch_known(const char *arch)
{
	return st_arch_lookup(arch) != NULL;
}

const char *st_arch_srcarch(const char *arch)
{
	const struct st_arch *a = st_arch_lookup(arch);

	return a ? a->srcarch : arch;
}

const char *st_arch_exact(const char *arch)
{
	const struct st_arch *a = st_arch_lookup(arch);
	size_t i;

	for (i = 0; a && i < ARRAY_SIZE(arches); i++)
		if (arches[i].srcarch_default && !strcmp(arches[i].srcarch, a->name))
			return arches[i].name;
	return arch;
}

bool st_arch_same(const char *a, const char *b)
{
	return a && b && !strcmp(st_arch_srcarch(a), st_arch_srcarch(b));
}

/* `uname -m` */

/*
 * scripts/subarch.include's sed script, in its order. Each @pat is a sed
 * regex of literals, '.', one "[...]" class and a final ".*"; @unless is
 * its "/^arm64$/!" guard (the whole name, when it is that, is kept).
 */
static const struct {
	const char *pat, *to, *unless;
} subarch_sed[] = {
	{ "i.86", "x86" }, { "x86_64", "x86" }, { "sun4u", "sparc64" },
	{ "arm.*", "arm", "arm64" }, { "sa110", "arm" }, { "s390x", "s390" },
	{ "ppc.*", "powerpc" }, { "mips.*", "mips" }, { "sh[234].*", "sh" },
	{ "aarch64.*", "arm64" }, { "riscv.*", "riscv" }, { "loongarch.*", "loongarch" },
};

/* The length of @pat (see subarch_sed) matched at @s, or -1. */
static long match_at(const char *s, const char *pat)
{
	const char *p = pat, *q = s, *end;

	while (*p) {
		if (p[0] == '.' && p[1] == '*' && !p[2])
			return (long)(q - s) + (long)strlen(q);
		if (!*q)
			return -1;
		if (*p == '[') {
			end = strchr(p, ']');
			if (!end || !memchr(p + 1, *q, end - p - 1))
				return -1;
			p = end + 1;
		} else {
			if (*p != '.' && *p != *q)
				return -1;
			p++;
		}
		q++;
	}
	return q - s;
}

/* sed's s/@pat/@to/ on @buf (the first match only). */
static void sed_sub(char *buf, size_t size, const char *pat, const char *to)
{
	char out[128];
	size_t i;
	long n;

	for (i = 0; buf[i]; i++) {
		n = match_at(buf + i, pat);
		if (n < 0)
			continue;
		snprintf(out, sizeof(out), "%.*s%s%s", (int)i, buf, to, buf + i + n);
		snprintf(buf, size, "%s", out);
		return;
	}
}

const char *st_arch_subarch(const char *machine)
{
	const struct st_arch *a;
	char buf[128];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", machine);
	for (i = 0; i < ARRAY_SIZE(subarch_sed); i++)
		if (!subarch_sed[i].unless || strcmp(buf, subarch_sed[i].unless))
			sed_sub(buf, sizeof(buf), subarch_sed[i].pat, subarch_sed[i].to);
	a = st_arch_lookup(buf);
	return a ? a->name : NULL;
}

/* @word is one of the blank-separated words of @list. */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; p && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

const char *st_arch_of_machine(const char *machine)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].machines && in_list(arches[i].machines, machine))
			return arches[i].name;
	return st_arch_subarch(machine);
}

static char host_sub[sizeof(((struct utsname *)0)->machine)];
static char host_exact[sizeof(host_sub)];

/* Both host names; a machine the registry lacks is make's ARCH as it is. */
static void host_init(void)
{
	struct utsname u;
	const char *a;

	if (uname(&u))
		snprintf(u.machine, sizeof(u.machine), "x86_64");
	a = st_arch_subarch(u.machine);
	snprintf(host_sub, sizeof(host_sub), "%s", a ? a : u.machine);
	a = st_arch_of_machine(u.machine);
	snprintf(host_exact, sizeof(host_exact), "%s", a ? a : u.machine);
}

static pthread_once_t host_once = PTHREAD_ONCE_INIT;

const char *st_arch_host(void)
{
	pthread_once(&host_once, host_init);
	return host_sub;
}

const char *st_arch_host_machine(void)
{
	pthread_once(&host_once, host_init);
	return host_exact;
}

bool st_arch_um_runs_on(const char *arch)
{
	/* arch/um/Makefile: HEADER_ARCH x86 for SUBARCH x86, x86_64, i386 */
	return st_arch_same(arch, "x86");
}

/* Build systems */

/* OpenWrt targets whose ARCH is not their toolchain's. */
static const struct {
	const char *target, *sub, *arch;
} openwrt_targets[] = {
	{ "uml", NULL, "um" },
	{ "armsr", "armv7", "arm" },
	{ "armsr", "armv8", "arm64" },
};

const char *st_arch_of_openwrt_target(const char *target, const char *sub)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(openwrt_targets); i++)
		if (!strcmp(openwrt_targets[i].target, target) &&
		    (!openwrt_targets[i].sub || (sub && !strcmp(openwrt_targets[i].sub, sub))))
			return openwrt_targets[i].arch;
	return NULL;
}

enum { OPENWRT = 1, BUILDROOT = 2, BOTH = OPENWRT | BUILDROOT };

/*
 * The toolchain's arch names of OpenWrt's ARCH:= and Buildroot's BR2_<arch>
 * (GNU triplets' first word, mostly), as make's ARCH: SRCARCH names, as
 * OpenWrt's LINUX_KARCH and Buildroot's BR2_LINUX_KERNEL_ARCH give them.
 */
static const struct {
	const char *name, *arch;
	unsigned int in;
} toolchain_names[] = {
	{ "mipsel", "mips", BOTH }, { "mips64", "mips", BOTH }, { "mips64el", "mips", BOTH },
	{ "aarch64", "arm64", BOTH }, { "aarch64_be", "arm64", BOTH }, { "armeb", "arm", BOTH },
	{ "i386", "x86", BOTH }, { "i486", "x86", BOTH }, { "i586", "x86", BOTH },
	{ "i686", "x86", BOTH }, { "x86_64", "x86", BOTH }, { "powerpc64", "powerpc", BOTH },
	{ "ppc", "powerpc", BOTH }, { "riscv64", "riscv", BOTH }, { "riscv32", "riscv", BOTH },
	{ "loongarch64", "loongarch", BOTH }, { "arc", "arc", BOTH }, { "arm", "arm", BOTH },
	{ "mips", "mips", BOTH }, { "powerpc", "powerpc", BOTH }, { "riscv", "riscv", BOTH },
	{ "m68k", "m68k", BOTH }, { "sh", "sh", BOTH }, { "sh4", "sh", BOTH },
	{ "xtensa", "xtensa", BOTH }, { "sparc", "sparc", BOTH },
	{ "microblaze", "microblaze", BOTH }, { "nios2", "nios2", BOTH },
	{ "openrisc", "openrisc", BOTH }, { "or1k", "openrisc", BOTH }, { "s390x", "s390", BOTH },
	{ "csky", "csky", BOTH }, { "x86", "x86", BOTH }, { "arm64", "arm64", BOTH },
	{ "powerpc64le", "powerpc", BOTH }, { "microblazeel", "microblaze", BOTH },
	{ "microblazebe", "microblaze", BOTH }, { "sparc64", "sparc", BOTH },
	{ "mips64r6", "mips", BOTH },
	/* Buildroot's ARC is BR2_arcle or BR2_arceb */
	{ "arcle", "arc", BUILDROOT }, { "arceb", "arc", BUILDROOT },
};

/* make's ARCH of toolchain arch @name as build system @in spells it, or NULL. */
static const char *toolchain_arch(const char *name, unsigned int in)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(toolchain_names); i++)
		if ((toolchain_names[i].in & in) && !strcmp(toolchain_names[i].name, name))
			return toolchain_names[i].arch;
	return NULL;
}

const char *st_arch_of_openwrt(const char *arch_var)
{
	return toolchain_arch(arch_var, OPENWRT);
}

const char *st_arch_of_buildroot(const char *sym)
{
	return toolchain_arch(sym, BUILDROOT);
}

/* Yocto's TARGET_ARCH names (FILESOVERRIDES' first entry). */
static const char *const target_arches[] = {
	"aarch64", "aarch64_be", "arm", "armeb", "riscv64", "riscv32", "x86_64", "i586",
	"i686", "mips", "mipsel", "mips64", "mips64el", "powerpc", "powerpc64",
	"powerpc64le", "microblaze", "microblazeel", "loongarch64",
};

const char *st_arch_yocto_target(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(target_arches); i++)
		if (!strcmp(target_arches[i], name))
			return target_arches[i];
	return NULL;
}

const char *st_arch_yocto_tune(const char *inc)
{
	static const struct { const char *part, *arch; } tunes[] = {
		{ "/arm/armv8", "aarch64" }, { "/arm/armv9", "aarch64" },
		{ "/arm/arch-armv8", "aarch64" }, { "/arm/arch-armv9", "aarch64" },
		{ "tune-cortexa53", "aarch64" }, { "tune-cortexa55", "aarch64" },
		{ "tune-cortexa57", "aarch64" }, { "tune-cortexa72", "aarch64" },
		{ "tune-cortexa73", "aarch64" }, { "tune-cortexa76", "aarch64" },
		{ "tune-neoverse", "aarch64" },
		{ "/arm/", "arm" }, { "tune-cortexa", "arm" }, { "tune-arm", "arm" },
		{ "tune-xscale", "arm" }, { "tune-strongarm", "arm" },
		{ "riscv64", "riscv64" }, { "riscv32", "riscv32" },
		/* tune-riscv.inc: 64 bits unless DEFAULTTUNE says riscv32 */
		{ "/riscv/", "riscv64" },
		{ "tune-x86-64", "x86_64" }, { "tune-corei7", "x86_64" },
		{ "/mips/", "mips" }, { "tune-mips", "mips" },
		{ "tune-ppc", "powerpc" }, { "/powerpc/", "powerpc" },
		{ "tune-microblaze", "microblaze" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tunes); i++)
		if (strstr(inc, tunes[i].part))
			return tunes[i].arch;
	return NULL;
}

/* Which source wins */

const char *st_arch_from_name(enum st_arch_from from)
{
	static const char *const names[] = {
		[ST_ARCH_FROM_OPTION] = "--arch",
		[ST_ARCH_FROM_CONFIG] = ".slubtiny.json",
		[ST_ARCH_FROM_LAYOUT] = "build system",
		[ST_ARCH_FROM_PATH] = "path",
		[ST_ARCH_FROM_ENV] = "$ARCH",
		[ST_ARCH_FROM_SYMBOLS] = "symbols",
		[ST_ARCH_FROM_HOST] = "host",
	};

	return (unsigned int)from < ARRAY_SIZE(names) ? names[from] : "host";
}

void st_arch_decide(const struct st_arch_sources *src, struct st_arch_choice *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < ST_ARCH_FROM_NR; i++) {
		const struct st_arch_source *s = &src->s[i];

		if (!s->arch || !s->arch[0])
			continue;
		snprintf(c->said[i].arch, sizeof(c->said[i].arch), "%s", s->arch);
		snprintf(c->said[i].why, sizeof(c->said[i].why), "%s", s->why ? s->why : "");
	}
	if (!c->said[ST_ARCH_FROM_HOST].arch[0])
		snprintf(c->said[ST_ARCH_FROM_HOST].arch, sizeof(c->said[0].arch), "%s",
			 st_arch_host());
	for (i = 0; !c->said[i].arch[0]; i++)
		;
	c->from = i;
	memcpy(c->arch, c->said[i].arch, sizeof(c->arch));
	memcpy(c->why, c->said[i].why, sizeof(c->why));
	/* the guesses below $ARCH contradict nothing: they only fill a gap */
	for (i++; i <= ST_ARCH_FROM_ENV; i++)
		if (c->said[i].arch[0] && !st_arch_same(c->said[i].arch, c->arch))
			c->conflicts |= 1u << i;
}

/* What source @f of @c said, in words: "ARCH=x86 from the environment". */
static void source_text(const struct st_arch_choice *c, enum st_arch_from f,
			char *buf, size_t size)
{
	const char *a = c->said[f].arch, *why = c->said[f].why;
	const char *sep = why[0] ? " from " : "";

	switch (f) {
	case ST_ARCH_FROM_OPTION:
		snprintf(buf, size, "ARCH=%s from --arch", a);
		break;
	case ST_ARCH_FROM_CONFIG:
		snprintf(buf, size, "ARCH=%s from .slubtiny.json%s%s%s", a,
			 why[0] ? " (" : "", why, why[0] ? ")" : "");
		break;
	case ST_ARCH_FROM_LAYOUT:
		snprintf(buf, size, "the build system's ARCH=%s%s%s", a, sep, why);
		break;
	case ST_ARCH_FROM_PATH:
		if (why[0])
			snprintf(buf, size, "%s in the path", why);
		else
			snprintf(buf, size, "ARCH=%s from the path", a);
		break;
	case ST_ARCH_FROM_ENV:
		snprintf(buf, size, "ARCH=%s from the environment", a);
		break;
	case ST_ARCH_FROM_SYMBOLS:
		snprintf(buf, size, "ARCH=%s from symbols%s%s", a, why[0] ? " " : "", why);
		break;
	default:
		snprintf(buf, size, "the host's ARCH=%s", a);
		break;
	}
}

void st_arch_conflict_text(const struct st_arch_choice *c, enum st_arch_from loser,
			   char *buf, size_t size)
{
	char l[256], w[256];

	source_text(c, loser, l, sizeof(l));
	source_text(c, c->from, w, sizeof(w));
	snprintf(buf, size, "%s contradicts %s; using %s", l, w, c->arch);
}
