// SPDX-License-Identifier: GPL-2.0-only
/*
 * The classifier of discovery (kernel config or another program's) and the
 * arch-only symbol table, on cut-down files of each kind a tree holds.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "layout/discover.h"

#include "../../tap.h"

static enum st_cfg_kind kind_of(const char *text, struct st_cfg_verdict *v)
{
	st_cfg_classify_buf(text, strlen(text), v);
	return v->kind;
}

static void test_classify(void)
{
	static const struct {
		const char *what, *text;
		enum st_cfg_kind kind;
		unsigned int line;
	} cases[] = {
		{ "a defconfig", "# comment\nCONFIG_SLOB=y\n# CONFIG_SLUB is not set\n"
		  "CONFIG_LOG_BUF_SHIFT=14\nCONFIG_CMDLINE=\"console=ttyS0\"\n", ST_CFG_KERNEL, 0 },
		{ "a fragment of one line", "CONFIG_SLAB=y", ST_CFG_KERNEL, 0 },
		{ "CRLF lines", "CONFIG_SLAB=y\r\n# CONFIG_SLUB is not set\r\n", ST_CFG_KERNEL, 0 },
		{ "BR2_ defconfig", "BR2_arm=y\nBR2_LINUX_KERNEL=y\n", ST_CFG_BUILDROOT, 1 },
		{ "BR2_ after comments", "# toolchain\n\nBR2_TOOLCHAIN_EXTERNAL=y\n",
		  ST_CFG_BUILDROOT, 3 },
		{ "UCI", "config defaults\n\toption input ACCEPT\n", ST_CFG_SYNTAX, 1 },
		{ "fw_env.config", "# dev offset\n/dev/mtd1 0x0 0x20000 0x20000\n", ST_CFG_SYNTAX, 2 },
		{ "uClibc", "DO_C99_MATH=y\nUCLIBC_HAS_IPV6=y\n", ST_CFG_SYNTAX, 1 },
		{ "hostapd", "CONFIG_DRIVER_NL80211=y\nCONFIG_LIBNL32=y\nCONFIG_TLS=internal\n"
		  "CONFIG_IEEE80211W=y\n", ST_CFG_FOREIGN, 0 },
		{ "U-Boot defconfig", "CONFIG_ARM=y\nCONFIG_ARCH_AT91=y\nCONFIG_TEXT_BASE=0x1\n",
		  ST_CFG_UBOOT, 3 },
		{ "U-Boot fragment", "CONFIG_CMD_MMC=y\n", ST_CFG_UBOOT, 1 },
		{ "BusyBox by header", "#\n# Busybox version: 1.36.1\n#\nCONFIG_DESKTOP=y\n",
		  ST_CFG_BUSYBOX, 2 },
		{ "BusyBox by symbol", "CONFIG_FEATURE_EDITING=y\n", ST_CFG_BUSYBOX, 1 },
		{ "comments only", "# nothing\n\n", ST_CFG_EMPTY, 0 },
		{ "empty", "", ST_CFG_EMPTY, 0 },
		{ "\"is not set\" with two blanks is a comment", "#  CONFIG_X is not set\n",
		  ST_CFG_EMPTY, 0 },
		{ "CONFIG_ without =", "CONFIG_SLAB y\n", ST_CFG_SYNTAX, 1 },
		/* conf reads a comment after blanks as a comment too */
		{ "an indented comment", " # stray\n\t# another\nCONFIG_SLAB=y\n", ST_CFG_KERNEL, 0 },
	};
	struct st_cfg_verdict v;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum st_cfg_kind k = kind_of(cases[i].text, &v);

		ok(k == cases[i].kind && v.line == cases[i].line, "classify: %s (kind %d line %u: %s)",
		   cases[i].what, k, v.line, v.why);
	}
	kind_of("BR2_arm=y\n", &v);
	ok(!strcmp(v.why, "line 1 sets BR2_arm: a Buildroot config, not a kernel config"),
	   "BR2_ why: %s", v.why);
	kind_of("CONFIG_SLAB=y\nCONFIG_NOT_A_KERNEL_SYMBOL_XYZ=y\nCONFIG_NOR_THIS_ONE_ABC=y\n", &v);
	ok(v.kind == ST_CFG_FOREIGN && v.nr_syms == 3 && v.nr_known == 1,
	   "mostly unknown symbols: foreign (%zu of %zu known)", v.nr_known, v.nr_syms);
	ok(v.nr_slab == 1, "an allocator symbol is counted (%zu)", v.nr_slab);
}

static void test_symbols(void)
{
	static const char *const kernel[] = {
		"SLUB", "SLUB_TINY", "SLAB", "EXPERT", "ARCH_AT91", "CPU_MIPS32_R2", "X86_64",
		"MODULES", "PRINTK", "EMBEDDED",
	};
	static const char *const other[] = {
		"BR2_arm", "CMD_MMC", "FEATURE_EDITING", "HAVE_DOT_CONFIG", "DRIVER_NL80211",
		"SYS_TEXT_BASE", "ENV_IS_IN_MMC", "DEFAULT_DEVICE_TREE",
	};
	size_t i, miss = 0;

	for (i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		ok(st_cfg_kernel_symbol(kernel[i], strlen(kernel[i])), "kernel symbol %s", kernel[i]);
	/* a Bloom filter: a few false yes are allowed, not many */
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		miss += st_cfg_kernel_symbol(other[i], strlen(other[i]));
	ok(miss <= 1, "other programs' symbols are no kernel's (%zu false yes)", miss);
}

static void test_arch_table(void)
{
	static const struct {
		const char *sym, *arch;
	} cases[] = {
		{ "ARCH_AT91", "arm" }, { "ARCH_MULTI_V7", "arm" }, { "CPU_MIPS32_R2", "mips" },
		{ "SOC_SAMA5D3", "arm" }, { "X86_64", NULL /* x86 and um define it */ },
		{ "SLUB", NULL }, { "ARCH_AT9", NULL }, { "ARCH_AT91X", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *a = st_cfg_symbol_arch(cases[i].sym, strlen(cases[i].sym));

		ok(cases[i].arch ? a && !strcmp(a, cases[i].arch) : !a, "arch of %s: %s",
		   cases[i].sym, a ? a : "none");
	}
}

static void test_arch_of(void)
{
	static const char mb[] = "CONFIG_XILINX_MICROBLAZE0_FAMILY=\"kintexu\"\n"
				 "CONFIG_XILINX_MICROBLAZE0_USE_FPU=1\n";
	char arch[32], sym[64];
	const char *yocto = "CONFIG_SLOB=y\n# CONFIG_ARCH_MULTI_V5 is not set\n"
			    "CONFIG_ARCH_MULTI_V7=y\nCONFIG_ARCH_AT91=y\nCONFIG_SOC_SAMA5D3=y\n";
	const char *mips = "CONFIG_CPU_MIPS32_R2=y\nCONFIG_SOC_MT7620=y\n";

	ok(st_cfg_arch_of_buf(yocto, strlen(yocto), arch, sizeof(arch), sym, sizeof(sym)) == 1 &&
	   !strcmp(arch, "arm") && !strcmp(sym, "CONFIG_ARCH_MULTI_V7"),
	   "a SAMA5 defconfig is arm, by its first enabled arm symbol (%s)", sym);
	ok(st_cfg_arch_of_buf(mips, strlen(mips), arch, sizeof(arch), sym, sizeof(sym)) == 1 &&
	   !strcmp(arch, "mips"), "an MT7620 fragment is mips");
	ok(st_cfg_arch_of_buf("CONFIG_SLOB=y\n", 14, arch, sizeof(arch), sym, sizeof(sym)) == 0,
	   "no arch-only symbol: nothing said");
	ok(st_cfg_arch_of_buf("# CONFIG_ARCH_AT91 is not set\n", 30, arch, sizeof(arch), sym,
			      sizeof(sym)) == 0, "a symbol that is not set says nothing");
	ok(st_cfg_arch_of_buf("CONFIG_ARCH_AT91=y\nCONFIG_CPU_MIPS32_R2=y\n", 41, arch,
			      sizeof(arch), sym, sizeof(sym)) == 0, "a tie says nothing");
	/* meta-xilinx's microblaze_generic.cfg: symbols set to values, not y */
	ok(st_cfg_arch_of_buf(mb, strlen(mb), arch, sizeof(arch), sym, sizeof(sym)) == 1 &&
	   !strcmp(arch, "microblaze") && !strcmp(sym, "CONFIG_XILINX_MICROBLAZE0_USE_FPU"),
	   "a symbol set to a value counts: %s", arch);
	ok(st_cfg_arch_of_buf("CONFIG_XILINX_MICROBLAZE0_USE_FPU=n\n", 36, arch, sizeof(arch),
			      sym, sizeof(sym)) == 0, "one set to n says nothing");
}

static void test_decide(void)
{
	struct st_arch_sources given = { 0 };
	struct st_arch_choice c;

	given.s[ST_ARCH_FROM_OPTION].arch = "arm";
	st_arch_of_file("arch/sh/configs/a_defconfig", NULL, &given, &c);
	ok(!strcmp(c.arch, "arm") && c.from == ST_ARCH_FROM_OPTION &&
	   c.conflicts == 1u << ST_ARCH_FROM_PATH && !strcmp(c.said[ST_ARCH_FROM_PATH].arch, "sh"),
	   "--arch wins over the path, which it contradicts");
	st_arch_of_file("x/arch/sh/configs/a_defconfig", NULL, NULL, &c);
	ok(!strcmp(c.arch, "sh") && c.from == ST_ARCH_FROM_PATH &&
	   !strcmp(c.why, "arch/sh/configs/"), "the path (%s)", c.why);
	given.s[ST_ARCH_FROM_OPTION].arch = NULL;
	given.s[ST_ARCH_FROM_ENV].arch = "x86_64";
	st_arch_of_file("x/kernel/configs/tiny.config", NULL, &given, &c);
	ok(!strcmp(c.arch, "x86") && c.from == ST_ARCH_FROM_PATH && !c.conflicts,
	   "kernel/configs/ is x86's, which $ARCH x86_64 agrees with");
	st_arch_of_file("/nonexistent/defconfig", NULL, NULL, &c);
	ok(c.from == ST_ARCH_FROM_HOST && !strcmp(c.arch, st_arch_host()),
	   "an unreadable file: the host");
}

int main(void)
{
	test_classify();
	test_symbols();
	test_arch_table();
	test_arch_of();
	test_decide();
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
