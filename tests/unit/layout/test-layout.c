// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/layout: which stack a file of fixtures/layout belongs
 * to, its parts in merge order, ARCH and kernel version with their sources,
 * and the files no reader claims. TAP output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "layout/layout.h"

#include "../../tap.h"

static bool eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The parts of @l joined by " + ", the owned one starred. */
static const char *parts(const struct st_layout *l)
{
	static char buf[1024];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < l->nr_parts; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s%s", i ? " + " : "",
			      l->parts[i].path, l->parts[i].owned ? "*" : "");
	return buf;
}

/*
 * @path (relative to fixtures/layout/@tree) gives kind @kind, @want parts,
 * @arch from @arch_why, @ver from @ver_why, @base.
 */
static void expect(const char *tree, const char *path, enum st_layout_kind kind,
		   const char *want, const char *arch, const char *arch_why,
		   const char *ver, const char *ver_why, const char *base)
{
	struct st_error e = { 0 };
	struct st_layout l;
	int ret;

	if (chdir(tree)) {
		ok(0, "%s: chdir %s", path, tree);
		return;
	}
	ret = st_layout_of(path, &l, &e);
	ok(!ret, "%s: read (%s)", path, e.msg);
	if (!ret) {
		ok(l.kind == kind, "%s: %s", path, st_layout_kind_name(l.kind));
		ok(eq(parts(&l), want), "%s: parts %s", path, parts(&l));
		ok(eq(l.arch, arch) && eq(l.arch_why, arch_why), "%s: arch %s from %s", path,
		   l.arch, l.arch_why);
		ok(eq(l.version, ver) && eq(l.version_why, ver_why), "%s: version %s from %s",
		   path, l.version, l.version_why);
		ok(eq(l.base_defconfig, base), "%s: base %s", path, l.base_defconfig);
	}
	st_layout_release(&l);
	if (chdir(".."))
		ok(0, "chdir ..");
}

static void openwrt(void)
{
	const char *w = "target/linux/ramips/Makefile:4: ARCH:=mipsel";

	expect("openwrt", "target/linux/ramips/mt76x8/config-6.6", ST_LAYOUT_OPENWRT,
	       "target/linux/generic/config-6.6 + target/linux/ramips/config-6.6 + "
	       "target/linux/ramips/mt76x8/config-6.6*", "mips", w, "6.6",
	       "file name config-6.6", NULL);
	expect("openwrt", "target/linux/ramips/config-6.6", ST_LAYOUT_OPENWRT,
	       "target/linux/generic/config-6.6 + target/linux/ramips/config-6.6*",
	       "mips", w, "6.6", "file name config-6.6", NULL);
	/* generic is the base of every target: alone, no ARCH */
	expect("openwrt", "target/linux/generic/config-6.6", ST_LAYOUT_OPENWRT,
	       "target/linux/generic/config-6.6*", NULL, NULL, "6.6",
	       "file name config-6.6", NULL);
	/* config-default: the target's KERNEL_PATCHVER; no generic 4.14 here */
	expect("openwrt", "target/linux/ath79/tiny/config-default", ST_LAYOUT_OPENWRT,
	       "target/linux/ath79/config-4.14 + target/linux/ath79/tiny/config-default*",
	       "mips", "target/linux/ath79/tiny/target.mk:2: ARCH:=mips", "4.14",
	       "target/linux/ath79/Makefile:5: KERNEL_PATCHVER:=4.14", NULL);
	/* not a kernel config of a target */
	expect("openwrt", "target/linux/ramips/Makefile", ST_LAYOUT_PLAIN,
	       "target/linux/ramips/Makefile*", NULL, NULL, NULL, NULL, NULL);
	expect("openwrt", "./target/linux/ramips/mt76x8/target.mk", ST_LAYOUT_PLAIN,
	       "./target/linux/ramips/mt76x8/target.mk*", NULL, NULL, NULL, NULL, NULL);
}

static void buildroot(void)
{
	expect("buildroot", "board/acme/tiny/tiny.fragment", ST_LAYOUT_BUILDROOT,
	       "board/acme/tiny/linux.config + board/acme/tiny/tiny.fragment*", "arm",
	       "configs/acme_tiny_defconfig:1: BR2_arm=y", "6.1",
	       "configs/acme_tiny_defconfig:6: BR2_LINUX_KERNEL_CUSTOM_VERSION_VALUE=\"6.1.55\"",
	       NULL);
	/* the fragments named after it are merged over it */
	expect("buildroot", "board/acme/tiny/linux.config", ST_LAYOUT_BUILDROOT,
	       "board/acme/tiny/linux.config* + board/acme/tiny/tiny.fragment", "arm",
	       "configs/acme_tiny_defconfig:1: BR2_arm=y", "6.1",
	       "configs/acme_tiny_defconfig:6: BR2_LINUX_KERNEL_CUSTOM_VERSION_VALUE=\"6.1.55\"",
	       NULL);
	/* over the kernel's own defconfig, under a fragment named after it */
	expect("buildroot", "board/acme/kdef/tiny.fragment", ST_LAYOUT_BUILDROOT,
	       "board/acme/kdef/size.fragment + board/acme/kdef/tiny.fragment* + "
	       "board/acme/kdef/expert.fragment", "arm",
	       "configs/acme_kdef_defconfig:1: BR2_arm=y", "6.12",
	       "configs/acme_kdef_defconfig:5: BR2_LINUX_KERNEL_CUSTOM_VERSION_VALUE=\"6.12.9\"",
	       "versatile_defconfig");
	/* Buildroot's own defconfig is no kernel config */
	expect("buildroot", "configs/acme_tiny_defconfig", ST_LAYOUT_PLAIN,
	       "configs/acme_tiny_defconfig*", NULL, NULL, NULL, NULL, NULL);
}

/* A defconfig naming a missing part below the file: an error naming both. */
static void buildroot_missing(void)
{
	struct st_error e = { 0 };
	struct st_layout l;
	int ret;

	if (chdir("buildroot")) {
		ok(0, "chdir buildroot");
		return;
	}
	ret = st_layout_of("board/acme/other/extra.fragment", &l, &e);
	ok(ret == -2 && eq(e.file, "board/acme/other/extra.fragment") &&
	   eq(e.msg, "configs/acme_other_defconfig:6 names board/acme/other/missing.fragment: "
		     "No such file or directory"), "missing fragment: %d %s: %s", ret, e.file,
	   e.msg);
	ok(l.nr_parts == 0 && !l.arch, "missing fragment: nothing left to release");
	st_layout_release(&l);
	if (chdir(".."))
		ok(0, "chdir ..");
}

static void yocto(void)
{
	const char *d = "meta-board/recipes-kernel/linux/files/";
	char want[512], own[256];

	snprintf(want, sizeof(want), "%sdefconfig + %stiny.cfg + %snet.cfg*", d, d, d);
	snprintf(own, sizeof(own), "%snet.cfg", d);
	expect("yocto", own, ST_LAYOUT_YOCTO, want, NULL, NULL, "6.6",
	       "recipe name linux-yocto_6.6.bbappend", NULL);
	snprintf(want, sizeof(want), "%sdefconfig*", d);
	snprintf(own, sizeof(own), "%sdefconfig", d);
	expect("yocto", own, ST_LAYOUT_YOCTO, want, NULL, NULL, "6.6",
	       "recipe name linux-yocto_6.6.bbappend", NULL);
	/* a recipe's file that SRC_URI does not list */
	expect("yocto", "meta-board/conf/layer.conf", ST_LAYOUT_PLAIN,
	       "meta-board/conf/layer.conf*", NULL, NULL, NULL, NULL, NULL);
}

/*
 * One recipe for three machines: a fragment is judged with the entries of
 * no override and its own machine's, never another machine's, over its
 * machine's KBUILD_DEFCONFIG (new and pre-3.4 override syntax), all of
 * them in the .inc the recipe requires (which also sets
 * LINUX_VERSION_EXTENSION, not the version).
 */
static void yocto_machines(void)
{
	const char *d = "meta-multi/recipes-kernel/linux/files/";
	const char *ver = "meta-multi/recipes-kernel/linux/linux-custom_6.1.bb:6: "
			  "LINUX_VERSION \"6.1.55\"";
	char want[512], own[256];
	const char *m[][2] = {
		{ "a", "multi_v7_defconfig" },
		{ "b", "imx_v6_v7_defconfig" },
		{ "c", "multi_v7_defconfig" },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		snprintf(want, sizeof(want), "%scommon.cfg + %s%s.cfg*", d, d, m[i][0]);
		snprintf(own, sizeof(own), "%s%s.cfg", d, m[i][0]);
		expect("yocto", own, ST_LAYOUT_YOCTO, want, NULL, NULL, "6.1", ver, m[i][1]);
	}
	snprintf(want, sizeof(want), "%scommon.cfg*", d);
	snprintf(own, sizeof(own), "%scommon.cfg", d);
	expect("yocto", own, ST_LAYOUT_YOCTO, want, NULL, NULL, "6.1", ver, "multi_v7_defconfig");
}

/*
 * SRC_URI:remove takes whole words out, last, whatever the order: for every
 * machine, or under an override for that one; "file://old.cfg" is not the
 * listed word "file://old.cfg;subdir=x". A removed file is in no stack.
 */
static void yocto_remove(void)
{
	const char *d = "meta-remove/recipes-kernel/linux/files/";
	const char *ver = "recipe name linux-trim_6.6.bb";
	char want[512], own[256];

	snprintf(want, sizeof(want), "%sdefconfig + %sold.cfg + %sboard.cfg*", d, d, d);
	snprintf(own, sizeof(own), "%sboard.cfg", d);
	expect("yocto", own, ST_LAYOUT_YOCTO, want, NULL, NULL, "6.6", ver, NULL);
	snprintf(want, sizeof(want), "%sdefconfig + %sold.cfg + %sboard.cfg + %sb.cfg*",
		 d, d, d, d);
	snprintf(own, sizeof(own), "%sb.cfg", d);
	expect("yocto", own, ST_LAYOUT_YOCTO, want, NULL, NULL, "6.6", ver, NULL);
	snprintf(own, sizeof(own), "%sextra.cfg", d);
	snprintf(want, sizeof(want), "%s*", own);
	expect("yocto", own, ST_LAYOUT_PLAIN, want, NULL, NULL, NULL, NULL, NULL);
	snprintf(own, sizeof(own), "%scommon.cfg", d);
	snprintf(want, sizeof(want), "%s*", own);
	expect("yocto", own, ST_LAYOUT_PLAIN, want, NULL, NULL, NULL, NULL, NULL);
}

static void base_text(void)
{
	struct st_layout_base b = { 0 };
	const char *paths[] = { "generic/config-6.6" };
	char *t;

	b.path = paths;
	b.n = 1;
	t = st_layout_base_text(&b, "USB is not set in this file (line 1048584); "
				"EXPERT in this file (line 3)");
	ok(eq(t, "USB is not set in generic/config-6.6 (line 8); EXPERT in this file (line 3)"),
	   "base lines named by their file: %s", t);
	free(t);
}

int main(void)
{
	const char *src = getenv("ST_SRCDIR");
	char dir[4096];

	if (!src) {
		fprintf(stderr, "ST_SRCDIR not set\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/fixtures/layout", src);
	if (chdir(dir)) {
		perror(dir);
		return 2;
	}
	openwrt();
	buildroot();
	buildroot_missing();
	yocto();
	yocto_machines();
	yocto_remove();
	base_text();
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
