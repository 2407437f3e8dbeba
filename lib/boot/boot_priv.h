/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_BOOT_PRIV_H
#define ST_BOOT_PRIV_H
/*
 * What the files of lib/boot share, in the order a boot uses them: the
 * machines (arch.c), the init and its initramfs (init.c), one QEMU run
 * (qemu.c), the console log (console.c), the results kept in the cache
 * (results.c); run.c strings them together. Not for other modules.
 */
#include <stdbool.h>
#include <stddef.h>

#include "boot/boot.h"

#define BOOT_BEGIN "=== slubtiny-boot begin ==="
#define BOOT_END "=== slubtiny-boot end ==="
#define CONSOLE_LOG "slubtiny-console.log"
#define RESULT_NAME "slubtiny-boot.json"
#define LATEST_NAME "boot-latest.json"
/* Without an accelerator named: seconds for KVM to show the kernel's banner before TCG is used. */
#define KVM_BANNER_S 20

struct st_error;

/* A QEMU machine footprint boot knows. */
struct boot_arch {
	const char *arch, *qemu, *package, *machine, *target, *file, *console;
	const char *const *config;
	const char *const *nommu_config;	/* NULL: no no-MMU boot */
};

/* What the configuration starts from (see arch.c). */
struct boot_profile {
	const char *name, *flavour, *fragment;
};

/* arch.c */
const struct boot_arch *st_boot_find_arch(const char *arch);
/* NULL: "minimal" */
const struct boot_profile *st_boot_find_profile(const char *name);
/* The defconfig or a fragment of @o switches MMU off. */
bool st_boot_nommu(const struct st_boot_opts *o, const char *arch);
/*
 * The lines @a adds (its no-MMU ones with @nommu) as the tree in @srctree
 * spells them, into @out (at most @max - 1 and a NULL).
 */
void st_boot_arch_config(const struct boot_arch *a, bool nommu, const char *srctree,
			 const char **out, size_t max);

/* init.c: the init (ELF, or FLAT for no MMU) and the initramfs holding it. */
int st_boot_compile_init(const struct st_boot_opts *o, const char *cross, const char *tmp,
			 bool nommu, char **bin, size_t *len, struct st_error *e);
int st_boot_make_initramfs(const char *init, size_t init_len, const char *busybox,
			   const char *path, struct st_error *e);

/* qemu.c */
double st_boot_now(void);
bool st_boot_kvm_usable(void);
/*
 * Boot @it with @initrd; -ETIME when KVM (@banner_s != 0) showed no
 * kernel banner in time, so that TCG can be tried.
 */
int st_boot_one(const struct boot_arch *a, struct st_boot_item *it, const char *initrd,
		const struct st_boot_result *r, unsigned int timeout, bool kvm,
		unsigned int banner_s);

/* console.c: the last lines of @log, indented, for an error. */
char *st_boot_log_tail(const char *log, size_t len);

/* results.c: keep @it's result next to its image and as the latest of its variant. */
int st_boot_save_result(const struct st_boot_result *r, const struct st_boot_item *it,
			const char *builddir);

#endif
