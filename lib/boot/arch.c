// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machines footprint boot boots: the QEMU board of each arch, what
 * its configuration adds to the user's, and the profiles the configuration
 * starts from.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "boot_priv.h"

/*
 * What a boot needs on top of tinyconfig: the kernel's messages and a
 * console on the first serial port, an initramfs, /proc, and ELF binaries
 * for the init. SYSFS too: without it SLUB has no SLUB_DEBUG, hence no
 * /proc/slabinfo, and a booted board has it. Only "=y" lines: the user's
 * own choices stay.
 */
static const char *const x86_config[] = {
	"CONFIG_64BIT=y", "CONFIG_PRINTK=y", "CONFIG_TTY=y", "CONFIG_SERIAL_8250=y",
	"CONFIG_SERIAL_8250_CONSOLE=y", "CONFIG_BLK_DEV_INITRD=y", "CONFIG_PROC_FS=y",
	"CONFIG_SYSFS=y", "CONFIG_BINFMT_ELF=y", NULL,
};

/*
 * QEMU's arm virt board: an ARMv7 multiplatform kernel (tinyconfig has no
 * MMU on arm) with the PL011 console.
 */
static const char *const arm_config[] = {
	"CONFIG_MMU=y", "CONFIG_ARCH_MULTI_V7=y", "CONFIG_ARCH_VIRT=y", "CONFIG_PRINTK=y",
	"CONFIG_TTY=y", "CONFIG_SERIAL_AMBA_PL011=y", "CONFIG_SERIAL_AMBA_PL011_CONSOLE=y",
	"CONFIG_BLK_DEV_INITRD=y", "CONFIG_PROC_FS=y", "CONFIG_SYSFS=y", "CONFIG_BINFMT_ELF=y",
	NULL,
};

/*
 * QEMU's riscv64 virt board under OpenSBI (QEMU's default firmware): an
 * MMU kernel with the 8250 console found in the device tree. The board's
 * symbol is SOC_VIRT in older trees such as 6.1 (see st_boot_arch_config()).
 */
static const char *const riscv_config[] = {
	"CONFIG_ARCH_VIRT=y", "CONFIG_PRINTK=y", "CONFIG_TTY=y", "CONFIG_SERIAL_8250=y",
	"CONFIG_SERIAL_8250_CONSOLE=y", "CONFIG_SERIAL_OF_PLATFORM=y", "CONFIG_BLK_DEV_INITRD=y",
	"CONFIG_PROC_FS=y", "CONFIG_SYSFS=y", "CONFIG_BINFMT_ELF=y", NULL,
};

/*
 * The same board without an MMU (nommu_virt_defconfig, the K210 class): the
 * kernel runs in M-mode with no firmware under it (QEMU's -bios none), and
 * runs FLAT binaries, not ELF.
 */
static const char *const riscv_nommu_config[] = {
	"CONFIG_ARCH_VIRT=y", "CONFIG_PRINTK=y", "CONFIG_TTY=y", "CONFIG_SERIAL_8250=y",
	"CONFIG_SERIAL_8250_CONSOLE=y", "CONFIG_SERIAL_OF_PLATFORM=y", "CONFIG_BLK_DEV_INITRD=y",
	"CONFIG_PROC_FS=y", "CONFIG_SYSFS=y", "CONFIG_BINFMT_FLAT=y", NULL,
};

static const struct boot_arch boot_arches[] = {
	{ "x86_64", "qemu-system-x86_64", "qemu-system-x86", NULL, "bzImage",
	  "arch/x86/boot/bzImage", "ttyS0", x86_config },
	{ "arm", "qemu-system-arm", "qemu-system-arm", "virt", "zImage", "arch/arm/boot/zImage",
	  "ttyAMA0", arm_config },
	{ "riscv", "qemu-system-riscv64", "qemu-system-misc", "virt", "Image",
	  "arch/riscv/boot/Image", "ttyS0", riscv_config,
	  riscv_nommu_config },
};

/*
 * The boot profiles: the configuration every variant starts from is the
 * user's defconfig, then (kvm-guest) the tree's own kernel/configs fragment
 * that `make tinyconfig kvm_guest.config` merges, then the arch's lines
 * above. Each profile builds into its own tree (<variant>-<flavour>).
 */
static const struct boot_profile boot_profiles[] = {
	{ "minimal", "boot", NULL },
	{ "kvm-guest", "boot-kvm-guest", "kernel/configs/kvm_guest.config" },
};

const struct boot_arch *st_boot_find_arch(const char *arch)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(boot_arches); i++)
		if (!strcmp(boot_arches[i].arch, arch))
			return &boot_arches[i];
	return NULL;
}

const char *const *st_boot_config(const char *arch)
{
	const struct boot_arch *a = st_boot_find_arch(arch);

	return a ? a->config : NULL;
}

const char *const *st_boot_arches(void)
{
	static const char *names[ARRAY_SIZE(boot_arches) + 1];
	size_t i;

	for (i = 0; i + 1 < ARRAY_SIZE(names); i++)
		names[i] = boot_arches[i].arch;
	return names;
}

const struct boot_profile *st_boot_find_profile(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(boot_profiles); i++)
		if (!strcmp(boot_profiles[i].name, name ? name : "minimal"))
			return &boot_profiles[i];
	return NULL;
}

/* Whether Kconfig file @file of @srctree defines @sym ("config SYM" on a line of its own). */
static bool kconfig_defines(const char *srctree, const char *file, const char *sym)
{
	char path[PATH_MAX], want[128], *text, *p;
	size_t wl;
	bool found = false;

	if (st_pathf(path, "%s/%s", srctree, file))
		return false;
	text = st_read_text(path, NULL);
	if (!text)
		return false;
	wl = snprintf(want, sizeof(want), "config %s", sym);
	for (p = text; !found && (p = strstr(p, want)); p += wl)
		found = (p == text || p[-1] == '\n') && (p[wl] == '\n' || !p[wl]);
	free(text);
	return found;
}

void st_boot_arch_config(const struct boot_arch *a, bool nommu, const char *srctree,
			 const char **out, size_t max)
{
	const char *const *config = nommu ? a->nommu_config : a->config;
	size_t i;

	for (i = 0; config[i] && i < max - 1; i++) {
		out[i] = config[i];
		/* riscv's virt board was SOC_VIRT before 6.5 */
		if (!strcmp(a->arch, "riscv") && !strcmp(out[i], "CONFIG_ARCH_VIRT=y") &&
		    !kconfig_defines(srctree, "arch/riscv/Kconfig.socs", "ARCH_VIRT"))
			out[i] = "CONFIG_SOC_VIRT=y";
	}
	out[i] = NULL;
}

/*
 * Whether the last word on CONFIG_MMU in @path is "is not set". Unreadable
 * files say nothing here: the build reports them.
 */
static int mmu_in(const char *path, int mmu)
{
	struct st_defconfig *dc = NULL;
	struct st_error e = { 0 };
	size_t i;

	if (st_defconfig_load(&dc, path, &e))
		return mmu;
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (!l->sym || strcmp(l->sym, "MMU"))
			continue;
		if (l->kind == ST_DC_NOT_SET)
			mmu = 0;
		else if (l->kind == ST_DC_ASSIGN)
			mmu = !strcmp(l->val, "y");
	}
	st_defconfig_free(dc);
	return mmu;
}

/*
 * A no-MMU boot: the defconfig (a file, or the tree's
 * arch/ARCH/configs/NAME) or a --config fragment after it switches MMU off.
 * Decided before the build, as the boot lines depend on it.
 */
bool st_boot_nommu(const struct st_boot_opts *o, const char *arch)
{
	const char *d = o->k.defconfig;
	char path[PATH_MAX];
	int mmu = 1;
	size_t i;

	if (d && strchr(d, '/'))
		mmu = mmu_in(d, mmu);
	else if (d && !st_pathf(path, "%s/arch/%s/configs/%s", o->k.srctree, arch, d))
		mmu = mmu_in(path, mmu);
	for (i = 0; i < o->k.nfragments; i++)
		mmu = mmu_in(o->k.fragments[i], mmu);
	return !mmu;
}
