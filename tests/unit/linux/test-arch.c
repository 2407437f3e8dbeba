// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/linux's ARCH registry: every arch/ maps to a SRCARCH, `uname -m` as
 * scripts/subarch.include has it, the build systems' names, round trips,
 * and the one rule for which source of ARCH wins.
 *
 * With a kernel tree as argument (tests/unit/linux/arch-tree.sh): every
 * arch/<a>/Kconfig of it is a registry row of SRCARCH <a>, and so is every
 * "SRCARCH := " alias of its top-level Makefile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "linux/arch.h"
#include "../../tap.h"

static int streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* arch/ of Linux 6.1 to 7.3 (ia64 until 6.6) */
static const char *const arch_dirs[] = {
	"alpha", "arc", "arm", "arm64", "csky", "hexagon", "ia64", "loongarch",
	"m68k", "microblaze", "mips", "nios2", "openrisc", "parisc", "powerpc",
	"riscv", "s390", "sh", "sparc", "um", "x86", "xtensa",
};

static void test_srcarch(void)
{
	const struct st_arch *all;
	size_t i, n, bad = 0;

	for (i = 0; i < sizeof(arch_dirs) / sizeof(arch_dirs[0]); i++) {
		const struct st_arch *a = st_arch_lookup(arch_dirs[i]);

		if (!a || !streq(a->srcarch, arch_dirs[i]) || a->historic) {
			ok(0, "arch/%s is its own SRCARCH", arch_dirs[i]);
			bad++;
		}
	}
	ok(!bad, "every arch/ of 6.1-7.3 is a row of its own SRCARCH");
	all = st_arch_all(&n);
	for (i = 0, bad = 0; i < n; i++) {
		const struct st_arch *s = st_arch_lookup(all[i].srcarch);

		if (!s || !streq(s->srcarch, s->name)) {
			ok(0, "%s: SRCARCH %s is no arch/ row", all[i].name, all[i].srcarch);
			bad++;
		}
		if (st_arch_lookup(all[i].name) != &all[i] ||
		    !streq(st_arch_srcarch(all[i].name), all[i].srcarch) ||
		    !st_arch_same(all[i].name, all[i].srcarch)) {
			ok(0, "%s does not round-trip", all[i].name);
			bad++;
		}
	}
	ok(!bad && n >= 22, "each of the %zu rows maps to an arch/ and round-trips", n);
	ok(streq(st_arch_srcarch("i386"), "x86") && streq(st_arch_srcarch("x86_64"), "x86") &&
	   streq(st_arch_srcarch("sparc64"), "sparc") && streq(st_arch_srcarch("parisc64"), "parisc") &&
	   streq(st_arch_srcarch("sh64"), "sh") && streq(st_arch_srcarch("um"), "um"),
	   "the top-level Makefile's SRCARCH lines");
	ok(streq(st_arch_srcarch("nope"), "nope") && !st_arch_lookup("nope") &&
	   !st_arch_known("") && !st_arch_known("aarch64") && !st_arch_known("ARM") &&
	   !st_arch_lookup(NULL), "other names are no ARCH; their SRCARCH is themselves");
	ok(st_arch_lookup("ia64")->removed.major == 6 && st_arch_lookup("ia64")->removed.minor == 7 &&
	   !st_arch_lookup("x86")->removed.major, "ia64 left in 6.7");
	ok(st_arch_same("x86", "x86_64") && st_arch_same("i386", "x86_64") &&
	   !st_arch_same("arm", "arm64") && !st_arch_same("um", "x86") && !st_arch_same(NULL, "x86"),
	   "x86, i386 and x86_64 are one arch/; arm and arm64 are two");
	ok(streq(st_arch_exact("x86"), "x86_64") && streq(st_arch_exact("x86_64"), "x86_64") &&
	   streq(st_arch_exact("i386"), "i386") && streq(st_arch_exact("sparc"), "sparc") &&
	   streq(st_arch_exact("nope"), "nope"), "ARCH=x86 builds x86_64");
}

static void test_uname(void)
{
	/* `uname -m` -> scripts/subarch.include's SUBARCH (6.12), and the exact ARCH */
	static const struct { const char *m, *sub, *exact; } cases[] = {
		{ "x86_64", "x86", "x86_64" }, { "i686", "x86", "i386" }, { "i386", "x86", "i386" },
		{ "i586", "x86", "i386" }, { "armv7l", "arm", "arm" }, { "armv5tel", "arm", "arm" },
		{ "arm64", "arm64", "arm64" }, { "aarch64", "arm64", "arm64" },
		{ "aarch64_be", "arm64", "arm64" }, { "sa110", "arm", "arm" },
		{ "s390x", "s390", "s390" }, { "ppc64le", "powerpc", "powerpc" },
		{ "ppc", "powerpc", "powerpc" }, { "mips64", "mips", "mips" }, { "mips", "mips", "mips" },
		{ "sh4a", "sh", "sh" }, { "sh3", "sh", "sh" }, { "riscv64", "riscv", "riscv" },
		{ "loongarch64", "loongarch", "loongarch" }, { "sun4u", "sparc64", "sparc64" },
		{ "sparc64", "sparc64", "sparc64" }, { "parisc64", "parisc64", "parisc64" },
		{ "parisc", "parisc", "parisc" }, { "alpha", "alpha", "alpha" },
		{ "m68k", "m68k", "m68k" }, { "openrisc", "openrisc", "openrisc" },
		{ "xtensa", "xtensa", "xtensa" }, { "nope", NULL, NULL },
	};
	size_t i, bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = st_arch_subarch(cases[i].m), *e = st_arch_of_machine(cases[i].m);

		if ((cases[i].sub ? !streq(s, cases[i].sub) : s != NULL) ||
		    (cases[i].exact ? !streq(e, cases[i].exact) : e != NULL) ||
		    (s && !st_arch_same(s, e))) {
			ok(0, "uname %s: SUBARCH %s, exact %s", cases[i].m, s ? s : "(null)",
			   e ? e : "(null)");
			bad++;
		}
	}
	ok(!bad, "uname -m as subarch.include says, the exact ARCH of the same arch/");
}

static void test_host(void)
{
	struct utsname u;
	const char *h = st_arch_host(), *m = st_arch_host_machine();

	ok(st_arch_known(h) && st_arch_known(m), "host arch '%s' ('%s' exactly) is a make ARCH",
	   h, m);
	ok(st_arch_same(h, m), "the host's SUBARCH and exact ARCH agree");
	if (!uname(&u) && !strcmp(u.machine, "x86_64"))
		ok(streq(h, "x86") && streq(m, "x86_64"), "x86_64 host: SUBARCH x86, exactly x86_64");
	ok(st_arch_host() == h && st_arch_host_machine() == m, "the host is computed once");
	ok(st_arch_um_runs_on("x86_64") && st_arch_um_runs_on("i386") && st_arch_um_runs_on("x86") &&
	   !st_arch_um_runs_on("arm64"), "um runs over SUBARCH x86 only");
}

static void test_build_systems(void)
{
	ok(streq(st_arch_of_openwrt_target("uml", NULL), "um") &&
	   streq(st_arch_of_openwrt_target("armsr", "armv7"), "arm") &&
	   streq(st_arch_of_openwrt_target("armsr", "armv8"), "arm64") &&
	   !st_arch_of_openwrt_target("armsr", NULL) && !st_arch_of_openwrt_target("ramips", "mt76x8"),
	   "OpenWrt targets that decide their ARCH: uml, armsr");
	ok(streq(st_arch_of_openwrt("mipsel"), "mips") && streq(st_arch_of_openwrt("aarch64"), "arm64") &&
	   streq(st_arch_of_openwrt("i386"), "x86") && streq(st_arch_of_openwrt("x86_64"), "x86") &&
	   streq(st_arch_of_openwrt("or1k"), "openrisc") && !st_arch_of_openwrt("arcle") &&
	   !st_arch_of_openwrt("nope") && !st_arch_of_openwrt(NULL), "OpenWrt's ARCH:=");
	ok(streq(st_arch_of_buildroot("arm"), "arm") && streq(st_arch_of_buildroot("aarch64_be"), "arm64") &&
	   streq(st_arch_of_buildroot("arcle"), "arc") && streq(st_arch_of_buildroot("powerpc64le"), "powerpc") &&
	   streq(st_arch_of_buildroot("s390x"), "s390") && !st_arch_of_buildroot("nope"),
	   "Buildroot's BR2_<arch>");
	ok(streq(st_arch_yocto_tune("conf/machine/include/arm/armv7a/tune-cortexa7.inc"), "arm") &&
	   streq(st_arch_yocto_tune("conf/machine/include/arm/armv8a/tune-cortexa53.inc"), "aarch64") &&
	   streq(st_arch_yocto_tune("conf/machine/include/tune-cortexa53.inc"), "aarch64") &&
	   streq(st_arch_yocto_tune("conf/machine/include/riscv/tune-riscv64.inc"), "riscv64") &&
	   !st_arch_yocto_tune("conf/machine/include/x86/tune-core2.inc") &&
	   !st_arch_yocto_tune("conf/machine/include/sunxi.inc"),
	   "Yocto: the TARGET_ARCH of a machine's tune");
	ok(streq(st_arch_of_machine(st_arch_yocto_target("aarch64")), "arm64") &&
	   streq(st_arch_of_machine(st_arch_yocto_target("arm")), "arm") &&
	   streq(st_arch_of_machine(st_arch_yocto_target("riscv64")), "riscv") &&
	   streq(st_arch_of_machine(st_arch_yocto_target("i686")), "i386") &&
	   !st_arch_yocto_target("bananapi") && !st_arch_yocto_target("armv7"),
	   "Yocto: TARGET_ARCH names and their make ARCH");
}

/* A decision over @opt, @layout, @path, @env, @sym (NULL: says nothing). */
static void decide(const char *opt, const char *layout, const char *path, const char *env,
		   const char *sym, struct st_arch_choice *c)
{
	struct st_arch_sources s = { 0 };

	s.s[ST_ARCH_FROM_OPTION].arch = opt;
	s.s[ST_ARCH_FROM_LAYOUT] = (struct st_arch_source){ layout, "Makefile:3: ARCH:=mipsel" };
	s.s[ST_ARCH_FROM_PATH] = (struct st_arch_source){ path, path ? "arch/arm/configs/" : NULL };
	s.s[ST_ARCH_FROM_ENV].arch = env;
	s.s[ST_ARCH_FROM_SYMBOLS] = (struct st_arch_source){ sym, "CONFIG_ARCH_AT91" };
	s.s[ST_ARCH_FROM_HOST].arch = "x86";
	st_arch_decide(&s, c);
}

static void test_decide(void)
{
	struct st_arch_choice c;
	char buf[256];

	decide("sh", "mips", "arm", "x86", "arm", &c);
	ok(streq(c.arch, "sh") && c.from == ST_ARCH_FROM_OPTION &&
	   c.conflicts == (1u << ST_ARCH_FROM_LAYOUT | 1u << ST_ARCH_FROM_PATH | 1u << ST_ARCH_FROM_ENV),
	   "--arch beats all, and each other word is a conflict (%#x)", c.conflicts);
	decide(NULL, "mips", "arm", "x86", NULL, &c);
	ok(streq(c.arch, "mips") && c.from == ST_ARCH_FROM_LAYOUT && streq(c.why, "Makefile:3: ARCH:=mipsel") &&
	   c.conflicts == (1u << ST_ARCH_FROM_PATH | 1u << ST_ARCH_FROM_ENV),
	   "the build system beats the path and $ARCH");
	decide(NULL, NULL, "arm", "x86", NULL, &c);
	ok(streq(c.arch, "arm") && c.from == ST_ARCH_FROM_PATH && c.conflicts == 1u << ST_ARCH_FROM_ENV,
	   "the path beats $ARCH");
	st_arch_conflict_text(&c, ST_ARCH_FROM_ENV, buf, sizeof(buf));
	ok(streq(buf, "ARCH=x86 from the environment contradicts arch/arm/configs/ in the path; "
		 "using arm"), "the conflict in words: %s", buf);
	decide(NULL, "mips", NULL, "x86", NULL, &c);
	st_arch_conflict_text(&c, ST_ARCH_FROM_ENV, buf, sizeof(buf));
	ok(streq(buf, "ARCH=x86 from the environment contradicts the build system's ARCH=mips "
		 "from Makefile:3: ARCH:=mipsel; using mips"), "the build system's in words: %s", buf);
	decide("arm", NULL, NULL, "x86", NULL, &c);
	st_arch_conflict_text(&c, ST_ARCH_FROM_ENV, buf, sizeof(buf));
	ok(streq(buf, "ARCH=x86 from the environment contradicts ARCH=arm from --arch; using arm"),
	   "--arch's in words: %s", buf);
	decide(NULL, NULL, NULL, "arm", "mips", &c);
	ok(streq(c.arch, "arm") && c.from == ST_ARCH_FROM_ENV && !c.conflicts,
	   "$ARCH beats the symbols, which contradict nothing");
	decide(NULL, NULL, NULL, NULL, "arm", &c);
	ok(streq(c.arch, "arm") && c.from == ST_ARCH_FROM_SYMBOLS && streq(c.why, "CONFIG_ARCH_AT91"),
	   "the symbols beat the host");
	decide(NULL, NULL, NULL, "arm64", NULL, &c);
	ok(streq(c.arch, "arm64") && c.from == ST_ARCH_FROM_ENV && !c.conflicts,
	   "$ARCH beats the host, without a conflict");
	decide(NULL, NULL, NULL, NULL, NULL, &c);
	ok(streq(c.arch, "x86") && c.from == ST_ARCH_FROM_HOST && !c.conflicts, "else the host");
	decide("x86_64", NULL, "x86", "i386", NULL, &c);
	ok(streq(c.arch, "x86_64") && !c.conflicts, "x86_64, x86 and i386 agree");
	{
		struct st_arch_sources s = { 0 };

		st_arch_decide(&s, &c);
		ok(c.from == ST_ARCH_FROM_HOST && streq(c.arch, st_arch_host()),
		   "the host's is st_arch_host() when not given");
	}
	ok(streq(st_arch_from_name(ST_ARCH_FROM_OPTION), "--arch") &&
	   streq(st_arch_from_name(ST_ARCH_FROM_CONFIG), ".slubtiny.json") &&
	   streq(st_arch_from_name(ST_ARCH_FROM_LAYOUT), "build system") &&
	   streq(st_arch_from_name(ST_ARCH_FROM_PATH), "path") &&
	   streq(st_arch_from_name(ST_ARCH_FROM_ENV), "$ARCH") &&
	   streq(st_arch_from_name(ST_ARCH_FROM_SYMBOLS), "symbols") &&
	   streq(st_arch_from_name(ST_ARCH_FROM_HOST), "host"), "the sources' names");
}

/* Every arch/<a>/Kconfig and "ifeq ($(ARCH),X) SRCARCH := Y" of @tree. */
static void test_tree(const char *tree)
{
	char path[4096], line[512], alias[64] = "", src[64];
	struct dirent *de;
	size_t n = 0, bad = 0;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), "%s/arch", tree);
	d = opendir(path);
	ok(d != NULL, "%s readable", path);
	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/arch/%s/Kconfig", tree, de->d_name);
		if (de->d_name[0] == '.' || access(path, R_OK))
			continue;
		n++;
		if (!streq(st_arch_srcarch(de->d_name), de->d_name) || !st_arch_known(de->d_name)) {
			ok(0, "arch/%s of the tree is no registry SRCARCH", de->d_name);
			bad++;
		}
	}
	if (d)
		closedir(d);
	ok(n >= 20 && !bad, "the registry covers the tree's %zu arch/", n);
	snprintf(path, sizeof(path), "%s/Makefile", tree);
	f = fopen(path, "r");
	n = bad = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "ifeq ($(ARCH),%63[^)])", alias) == 1)
			continue;
		if (alias[0] && sscanf(line, " SRCARCH := %63s", src) == 1) {
			n++;
			if (!streq(st_arch_srcarch(alias), src)) {
				ok(0, "ARCH=%s: the tree's SRCARCH is %s, the registry's %s", alias, src,
				   st_arch_srcarch(alias));
				bad++;
			}
		}
		alias[0] = '\0';
	}
	if (f)
		fclose(f);
	ok(f && n >= 4 && !bad, "the tree's %zu SRCARCH aliases are the registry's", n);
}

int main(int argc, char **argv)
{
	test_srcarch();
	test_uname();
	test_host();
	test_build_systems();
	test_decide();
	if (argc > 1)
		test_tree(argv[1]);
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
