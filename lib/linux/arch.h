/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lib/linux/arch.h: the ARCH registry and the rule for which source of
 * ARCH wins, kept once.
 *
 * Every ARCH name slubtiny reads (make's ARCH, `uname -m`, an OpenWrt
 * target or its ARCH:=, a Buildroot BR2_<arch>) is looked up here; other
 * modules keep per-arch rows of their own job (cross compilers, QEMU
 * machines) keyed by the names this registry gives, never a name map.
 */
#ifndef ST_LINUX_ARCH_H
#define ST_LINUX_ARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "linux/linux.h"

/* One ARCH make takes. */
struct st_arch {
	const char *name;	/* make's ARCH: "x86_64", "arm", "um" */
	const char *srcarch;	/* kbuild's SRCARCH, the arch/<srcarch>/ it builds */
	/*
	 * `uname -m` names of a machine that is exactly this ARCH, before
	 * scripts/subarch.include's rule ("i386 i486 i586 i686"), or NULL.
	 */
	const char *machines;
	/* The first release without arch/<srcarch>/ ({0, 0}: still there). */
	struct st_kver removed;
	/* Not kbuild's any more, still taken (ppc, arm26: arch/ppc/ is gone). */
	bool historic;
	/*
	 * What make's ARCH=<srcarch> builds when nothing says otherwise
	 * (x86_64: arch/x86/Kconfig's 64BIT defaults to ARCH != "i386").
	 */
	bool srcarch_default;
};

/* The registry's rows, in arch/ order; *n their number. */
const struct st_arch *st_arch_all(size_t *n);

/* The row of make's ARCH @name, or NULL. */
const struct st_arch *st_arch_lookup(const char *name);

/* @arch is an ARCH make accepts (SRCARCH names and their aliases). */
bool st_arch_known(const char *arch);

/* The SRCARCH of make's @arch (x86_64 -> x86, sparc64 -> sparc): static or @arch. */
const char *st_arch_srcarch(const char *arch);

/* @a and @b build the same arch/ (x86 and x86_64 agree; NULL agrees with nothing). */
bool st_arch_same(const char *a, const char *b);

/*
 * scripts/subarch.include: make's SUBARCH (its default ARCH) for a
 * machine @machine says `uname -m` of ("x86_64" -> "x86", "armv7l" ->
 * "arm", "aarch64" -> "arm64"). Static; NULL when the result is no ARCH
 * make knows.
 */
const char *st_arch_subarch(const char *machine);

/*
 * The ARCH naming @machine exactly ("x86_64" -> "x86_64", "i686" -> "i386"),
 * else its SUBARCH. Its SRCARCH is always the SUBARCH's. Static or NULL.
 */
const char *st_arch_of_machine(const char *machine);

/*
 * The exact ARCH make's @arch builds by default: x86 -> x86_64, others
 * themselves (sparc and parisc are 32-bit unless sparc64, parisc64). Static
 * or @arch.
 */
const char *st_arch_exact(const char *arch);

/* This machine's SUBARCH, the ARCH make builds without one: static. */
const char *st_arch_host(void);

/* This machine as an exact ARCH (x86_64, i386, arm64, ...): static. */
const char *st_arch_host_machine(void);

/*
 * ARCH=um runs on a host of @arch (arch/um builds over SUBARCH x86 only:
 * x86, i386, x86_64).
 */
bool st_arch_um_runs_on(const char *arch);

/*
 * OpenWrt: the ARCH of target/linux/@target (@sub its subtarget, or NULL)
 * when the target itself decides it (uml is um whatever its toolchain;
 * armsr's armv7 and armv8 subtargets), else NULL.
 */
const char *st_arch_of_openwrt_target(const char *target, const char *sub);

/* OpenWrt: make's ARCH of a target.mk's ARCH:= ("mipsel" -> "mips"), or NULL. */
const char *st_arch_of_openwrt(const char *arch_var);

/* Buildroot: make's ARCH of a BR2_<@sym>=y ("aarch64" -> "arm64"), or NULL. */
const char *st_arch_of_buildroot(const char *sym);

/*
 * Yocto: @name as one of its TARGET_ARCH names (aarch64, arm, riscv64,
 * x86_64...), or NULL; st_arch_of_machine() gives make's ARCH of one.
 */
const char *st_arch_yocto_target(const char *name);
/*
 * The TARGET_ARCH a machine's tune gives, from the path of the tune file
 * its conf requires: conf/machine/include/arm/armv7a/tune-cortexa7.inc
 * (oe-core 4.0 and later), tune-cortexa7.inc (before); NULL when the path
 * does not tell (x86's core2 tunes are 32 or 64 bits by DEFAULTTUNE).
 */
const char *st_arch_yocto_tune(const char *inc);

/* Where an ARCH came from, in the order they win: the first given decides. */
enum st_arch_from {
	ST_ARCH_FROM_OPTION,	/* --arch */
	ST_ARCH_FROM_CONFIG,	/* "arches" or "arch" of .slubtiny.json */
	ST_ARCH_FROM_LAYOUT,	/* the build system (OpenWrt's target Makefile, ...) */
	ST_ARCH_FROM_PATH,	/* arch/<arch>/configs/ in the file's path */
	ST_ARCH_FROM_ENV,	/* $ARCH */
	ST_ARCH_FROM_SYMBOLS,	/* symbols only that arch defines (ARCH_AT91) */
	ST_ARCH_FROM_HOST,	/* the host's, as make's SUBARCH */
	ST_ARCH_FROM_NR
};

/*
 * "--arch", ".slubtiny.json", "build system", "path", "$ARCH", "symbols",
 * "host" (JSON and text).
 */
const char *st_arch_from_name(enum st_arch_from from);

/* What one source says: @arch NULL when it says nothing; @why what decided. */
struct st_arch_source {
	const char *arch;
	const char *why;	/* "arch/arm/configs/", "CONFIG_ARCH_AT91", or NULL */
};

/* Every source of a decision, indexed by enum st_arch_from. */
struct st_arch_sources {
	struct st_arch_source s[ST_ARCH_FROM_NR];
};

/* The ARCH a file (or a command) is for, and how that was decided. */
struct st_arch_choice {
	char arch[32];		/* make's ARCH */
	enum st_arch_from from;
	char why[96];		/* what decided: "arch/arm/configs/", "" */
	/*
	 * The sources below @from that name another SRCARCH (bit 1 << from):
	 * the user's word or the file's place (--arch, .slubtiny.json, the
	 * build system, the path, $ARCH), never the symbols' or the host's
	 * guess. What each said is in @said.
	 */
	unsigned int conflicts;
	struct {
		char arch[32];
		char why[96];
	} said[ST_ARCH_FROM_NR];
};

/*
 * The one rule: the first source of @src in enum st_arch_from's order that
 * names an ARCH decides (--arch > .slubtiny.json > build system > path >
 * $ARCH > symbols > host); the host's is st_arch_host() when
 * @src->s[ST_ARCH_FROM_HOST] says nothing. Never fails.
 */
void st_arch_decide(const struct st_arch_sources *src, struct st_arch_choice *c);

/*
 * One conflict of @c (@loser, a bit of c->conflicts) in words, into @buf:
 * "ARCH=x86 from the environment contradicts arch/arm/configs/ in the
 * path; using arm". The text of every conflict warning.
 */
void st_arch_conflict_text(const struct st_arch_choice *c, enum st_arch_from loser,
			   char *buf, size_t size);

#endif
