// SPDX-License-Identifier: GPL-2.0-only
/*
 * footprint --boot: build each variant's kernel image with lib/kernel, boot
 * it in QEMU with a one-program initramfs and keep what the kernel says of
 * its own memory (see boot.h).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "build/build.h"
#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "elf/elf.h"
#include "kernel/flat.h"
#include "kernel/boot.h"

#define BOOT_BEGIN "=== slubtiny-boot begin ==="
#define BOOT_END "=== slubtiny-boot end ==="
#define CONSOLE_LOG "slubtiny-console.log"
#define RESULT_NAME "slubtiny-boot.json"
#define LATEST_NAME "boot-latest.json"
#define TAIL_LINES 20
/* After the end marker: time for QEMU to power off before it is killed. */
#define GRACE_MS 1000
/* Without --accel: seconds for KVM to show the kernel's banner before TCG is used. */
#define KVM_BANNER_S 20
/* --cmdline: what fits in the generic COMMAND_LINE_SIZE (512) beside "console=... panic=-1". */
#define CMDLINE_MAX 448
/* Stack of a no-MMU init: it keeps its buffer in .bss and nests three calls deep. */
#define FLAT_STACK 8192

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
 * symbol is SOC_VIRT in older trees such as 6.1 (see st_boot_run()).
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

static const struct boot_arch {
	const char *arch, *qemu, *package, *machine, *target, *file, *console;
	const char *cross;	/* Debian's cross compiler when no --cross-compile names one */
	const char *const *config;
	const char *const *nommu_config;	/* NULL: no no-MMU boot */
} boot_arches[] = {
	{ "x86_64", "qemu-system-x86_64", "qemu-system-x86", NULL, "bzImage",
	  "arch/x86/boot/bzImage", "ttyS0", "x86_64-linux-gnu-", x86_config },
	{ "arm", "qemu-system-arm", "qemu-system-arm", "virt", "zImage", "arch/arm/boot/zImage",
	  "ttyAMA0", "arm-linux-gnueabi-", arm_config },
	{ "riscv", "qemu-system-riscv64", "qemu-system-misc", "virt", "Image",
	  "arch/riscv/boot/Image", "ttyS0", "riscv64-linux-gnu-", riscv_config,
	  riscv_nommu_config },
};

/*
 * The boot profiles: the configuration every variant starts from is the
 * user's defconfig, then (kvm-guest) the tree's own kernel/configs fragment
 * that `make tinyconfig kvm_guest.config` merges, then the arch's lines
 * above. Each profile builds into its own tree (<variant>-<flavour>).
 */
static const struct boot_profile {
	const char *name, *flavour, *fragment;
} boot_profiles[] = {
	{ "minimal", "boot", NULL },
	{ "kvm-guest", "boot-kvm-guest", "kernel/configs/kvm_guest.config" },
};

static const struct boot_arch *boot_arch(const char *arch)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(boot_arches); i++)
		if (!strcmp(boot_arches[i].arch, arch))
			return &boot_arches[i];
	return NULL;
}

const char *const *st_boot_config(const char *arch)
{
	const struct boot_arch *a = boot_arch(arch);

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

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static const struct boot_profile *boot_profile(const char *name)
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

/* ---- the console log ----------------------------------------------- */

/* The line at @p (up to '\n', without '\r'), its length in *n; the next line in *next. */
static const char *line_at(const char *p, const char *end, size_t *n, const char **next)
{
	const char *nl = memchr(p, '\n', end - p);
	const char *e = nl ? nl : end;

	*next = nl ? nl + 1 : end;
	while (e > p && e[-1] == '\r')
		e--;
	*n = e - p;
	return p;
}

static bool line_is(const char *l, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(l, s, n);
}

/* A marker line; the kernel may have printed on the same line before it. */
static const char *find_marker(const char *p, const char *end, const char *marker)
{
	size_t ml = strlen(marker), n;
	const char *l, *next;

	while (p < end) {
		l = line_at(p, end, &n, &next);
		if (n >= ml && !memcmp(l + n - ml, marker, ml))
			return next;
		p = next;
	}
	return NULL;
}

/* A number at the start of @s (after blanks); false when there is none. */
static bool number(const char *s, size_t n, double *v, size_t *used)
{
	char tmp[64], *end;
	size_t i = 0, k;

	while (i < n && s[i] == ' ')
		i++;
	for (k = 0; i + k < n && k < sizeof(tmp) - 1 &&
		    ((s[i + k] >= '0' && s[i + k] <= '9') || s[i + k] == '.'); k++)
		tmp[k] = s[i + k];
	if (!k)
		return false;
	tmp[k] = 0;
	*v = strtod(tmp, &end);
	if (*end)
		return false;
	if (used)
		*used = i + k;
	return true;
}

static void meminfo_line(struct st_boot_figures *f, const char *l, size_t n, unsigned int *seen)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal:", offsetof(struct st_boot_figures, memtotal_kb) },
		{ "MemFree:", offsetof(struct st_boot_figures, memfree_kb) },
		{ "Slab:", offsetof(struct st_boot_figures, slab_kb) },
		{ "SReclaimable:", offsetof(struct st_boot_figures, sreclaimable_kb) },
		{ "SUnreclaim:", offsetof(struct st_boot_figures, sunreclaim_kb) },
	};
	size_t i, kl;
	double v;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		kl = strlen(keys[i].key);
		if (n > kl && !memcmp(l, keys[i].key, kl) && number(l + kl, n - kl, &v, NULL)) {
			*(double *)((char *)f + keys[i].off) = v;
			*seen |= 1u << i;
		}
	}
}

/* "name active num objsize perslab pagesperslab : tunables ... : slabdata active num ..." */
static int slabinfo_line(struct st_boot_figures *f, const char *l, size_t n)
{
	double v[5], slabs = 0;
	const char *p, *end = l + n, *sd;
	struct st_boot_cache *c;
	size_t k, used, nl;

	if (!n || *l == '#' || (n > 9 && !memcmp(l, "slabinfo ", 9)))
		return 0;
	for (nl = 0; nl < n && l[nl] != ' '; nl++)
		;
	p = l + nl;
	for (k = 0; k < 5; k++) {
		if (!number(p, end - p, &v[k], &used))
			return 0;
		p += used;
	}
	sd = NULL;
	for (; p + 10 <= end; p++)
		if (!memcmp(p, ": slabdata", 10)) {
			sd = p + 10;
			break;
		}
	if (!sd || !number(sd, end - sd, &slabs, &used) ||
	    !number(sd + used, end - sd - used, &slabs, NULL))
		return 0;
	c = realloc(f->caches, (f->ncaches + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	f->caches = c;
	c = &f->caches[f->ncaches];
	c->name = strndup(l, nl);
	if (!c->name)
		return -ENOMEM;
	f->ncaches++;
	c->objs = v[1];
	c->objsize = v[2];
	c->pagesperslab = v[4];
	c->slabs = slabs;
	c->kb = slabs * v[4] * 4;
	return 0;
}

static int by_kb(const void *a, const void *b)
{
	const struct st_boot_cache *x = a, *y = b;

	if (x->kb != y->kb)
		return x->kb < y->kb ? 1 : -1;
	return strcmp(x->name, y->name);
}

void st_boot_figures_free(struct st_boot_figures *f)
{
	size_t i;

	for (i = 0; i < f->ncaches; i++)
		free(f->caches[i].name);
	free(f->caches);
	memset(f, 0, sizeof(*f));
}

int st_boot_parse(const char *log, size_t len, struct st_boot_figures *f)
{
	const char *end = log + len, *p, *stop, *l, *next;
	enum { NONE, UPTIME, MEMINFO, SLABINFO } sect = NONE;
	unsigned int seen = 0;
	size_t n;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	p = find_marker(log, end, BOOT_BEGIN);
	if (!p)
		return -ENOENT;
	for (stop = p; stop < end; stop = next) {
		l = line_at(stop, end, &n, &next);
		if (line_is(l, n, BOOT_END))
			break;
	}
	if (stop >= end)
		return -EPIPE;
	for (; p < stop && !ret; p = next) {
		l = line_at(p, stop, &n, &next);
		if (n >= 4 && !memcmp(l, "--- ", 4)) {
			sect = line_is(l, n, "--- /proc/uptime") ? UPTIME :
			       line_is(l, n, "--- /proc/meminfo") ? MEMINFO :
			       line_is(l, n, "--- /proc/slabinfo") ? SLABINFO : NONE;
			if (line_is(l, n, "--- idle"))
				f->idle = true;
			if (sect == SLABINFO)
				f->has_slabinfo = true;
			continue;
		}
		if (sect == UPTIME)
			number(l, n, &f->uptime_s, NULL);
		else if (sect == MEMINFO)
			meminfo_line(f, l, n, &seen);
		else if (sect == SLABINFO)
			ret = slabinfo_line(f, l, n);
	}
	if (!ret && (seen & 0x6) != 0x6)
		ret = -EINVAL;
	if (ret) {
		st_boot_figures_free(f);
		return ret;
	}
	if (f->ncaches)
		qsort(f->caches, f->ncaches, sizeof(*f->caches), by_kb);
	return 0;
}

/* The last TAIL_LINES lines of @log, each indented. */
static char *tail(const char *log, size_t len)
{
	const char *p = log + len;
	int lines = 0;
	char *out, *d;

	while (p > log && (p[-1] == '\n' || p[-1] == '\r'))
		p--;
	len = p - log;
	while (p > log && lines < TAIL_LINES)
		if (*--p == '\n')
			lines++;
	if (*p == '\n')
		p++;
	out = malloc((log + len - p) * 2 + 8);
	if (!out)
		return NULL;
	d = out;
	*d++ = ' ';
	*d++ = ' ';
	*d++ = ' ';
	*d++ = ' ';
	for (; p < log + len; p++) {
		if (*p == '\r')
			continue;
		*d++ = (*p >= ' ' || *p == '\n' || *p == '\t') ? *p : '?';
		if (*p == '\n') {
			memcpy(d, "    ", 4);
			d += 4;
		}
	}
	*d = 0;
	return out;
}

/* ---- the init and its initramfs -------------------------------------- */

/*
 * The linker script of a no-MMU init: code, read-only data and data in one
 * loaded block at @base, .bss right after it at FLAT's data alignment, no
 * small-data pointer (the init never sets gp).
 */
static int write_flat_script(const char *path, unsigned long base)
{
	char text[512];
	int n;

	n = snprintf(text, sizeof(text),
		     "ENTRY(_start)\nSECTIONS\n{\n\t. = 0x%lx;\n"
		     "\t.text : { *(.text.start) *(.text .text.*) *(.rodata .rodata.*)\n"
		     "\t\t*(.srodata .srodata.*) *(.data .data.*) *(.sdata .sdata.*) }\n"
		     "\t. = ALIGN(0x20);\n"
		     "\t.bss (NOLOAD) : { *(.sbss .sbss.*) *(.bss .bss.*) *(COMMON) }\n"
		     "\t/DISCARD/ : { *(.comment) *(.note .note.*) *(.eh_frame*) "
		     "*(.riscv.attributes) }\n}\n", base);
	return st_write_file(path, text, (size_t)n, 0644);
}

/* Run @argv (a compiler or objcopy); its output into @e on failure. */
static int run_tool(char **argv, const char *src, const char *what, struct st_error *e)
{
	char *log = NULL;
	int ret = st_run(argv, NULL, NULL, &log, NULL, 0);

	if (ret)
		ret = st_err(e, ret < 0 ? -ret : EIO, src, "%s failed to %s%s%s", argv[3], what,
			     log && *log ? ": " : "", log ? log : "");
	free(log);
	return ret;
}

/*
 * @cc compiles the init into @out; for a no-MMU kernel (@flat_base != 0)
 * linked at @flat_base with the script beside @out.
 */
static int cc_init(const char *cc, const char *src, const char *out, unsigned long flat_base,
		   struct st_error *e)
{
	char script[PATH_MAX], tflag[PATH_MAX + 4];
	char *argv[32];
	size_t n = 0;
	int ret;

	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = "exec $0 \"$@\" 2>&1";
	argv[n++] = (char *)cc;
	argv[n++] = "-static";
	argv[n++] = "-nostdlib";
	argv[n++] = "-ffreestanding";
	argv[n++] = "-fno-pie";
	argv[n++] = "-no-pie";
	argv[n++] = "-fno-stack-protector";
	argv[n++] = "-fno-asynchronous-unwind-tables";
	argv[n++] = "-Os";
	argv[n++] = "-Wl,--build-id=none";
	if (flat_base) {
		/* pc-relative addressing only: the code runs wherever it is loaded */
		st_pathf(script, "%s.ld", out);
		ret = write_flat_script(script, flat_base);
		if (ret)
			return st_err(e, -ret, script, "%s", strerror(-ret));
		snprintf(tflag, sizeof(tflag), "-T%s", script);
		argv[n++] = "-mcmodel=medany";
		argv[n++] = "-mno-relax";
		argv[n++] = "-fno-jump-tables";
		argv[n++] = "-Wl,--no-relax";
		argv[n++] = tflag;
	}
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	argv[n++] = (char *)src;
	argv[n] = NULL;
	return run_tool(argv, src, "compile the boot init", e);
}

/* The loaded bytes of @elf (objcopy -O binary) and its .bss size. */
static int flat_bytes(const char *objcopy, const char *elf, char **bin, size_t *len,
		      uint64_t *bss, struct st_error *e)
{
	char out[PATH_MAX];
	char *argv[] = { "sh", "-c", "exec $0 \"$@\" 2>&1", (char *)objcopy, "-O", "binary",
			 (char *)elf, out, NULL };
	struct st_elf_file *f = NULL;
	size_t i;
	int ret;

	st_pathf(out, "%s.bin", elf);
	ret = run_tool(argv, elf, "copy the boot init's bytes", e);
	if (ret)
		return ret;
	*bin = st_read_text(out, len);
	unlink(out);
	if (!*bin)
		return st_err(e, errno, out, "%s", strerror(errno));
	ret = st_elf_open_flags(&f, elf, ST_ELF_NO_SYMBOLS, e);
	if (ret)
		return ret;
	*bss = 0;
	for (i = 0; f->nobjs && i < f->objs[0].nsecs; i++)
		if (f->objs[0].secs[i].name && !strcmp(f->objs[0].secs[i].name, ".bss"))
			*bss = f->objs[0].secs[i].size;
	st_elf_close(f);
	return 0;
}

/*
 * A FLAT init for a no-MMU kernel. binfmt_flat applies relocations the
 * init has none of, so it must not need any: linked at two addresses, its
 * bytes must be the same (every address is pc-relative), else the
 * compiler made something this loader cannot place.
 */
static int flat_init(const char *cc, const char *cross, const char *src, const char *tmp,
		     char **bin, size_t *len, struct st_error *e)
{
	char elf[PATH_MAX], elf2[PATH_MAX], *objcopy, *b2 = NULL;
	size_t l2 = 0;
	uint64_t bss = 0, bss2 = 0;
	int ret;

	objcopy = st_asprintf("%sobjcopy", cross ? cross : "");
	if (!objcopy)
		return st_err(e, ENOMEM, NULL, "out of memory");
	st_pathf(elf, "%s/init.elf", tmp);
	st_pathf(elf2, "%s/init2.elf", tmp);
	ret = cc_init(cc, src, elf, ST_FLAT_HDR_SIZE, e);
	if (!ret)
		ret = cc_init(cc, src, elf2, ST_FLAT_HDR_SIZE + 0x10000, e);
	if (!ret)
		ret = flat_bytes(objcopy, elf, bin, len, &bss, e);
	if (!ret)
		ret = flat_bytes(objcopy, elf2, &b2, &l2, &bss2, e);
	if (!ret && (l2 != *len || memcmp(b2, *bin, l2)))
		ret = st_err(e, ENOEXEC, src, "%s made a boot init that is not position "
			     "independent: a no-MMU kernel cannot load it as a FLAT binary", cc);
	if (!ret) {
		char *f = NULL;
		size_t fl = 0;

		ret = st_flat_wrap(*bin, *len, bss, FLAT_STACK, &f, &fl);
		if (ret)
			ret = st_err(e, -ret, src, "cannot make a FLAT binary: %s",
				     strerror(-ret));
		free(*bin);
		*bin = f;
		*len = fl;
	}
	if (ret) {
		free(*bin);
		*bin = NULL;
	}
	unlink(elf);
	unlink(elf2);
	strcat(elf, ".ld");
	unlink(elf);
	strcat(elf2, ".ld");
	unlink(elf2);
	free(b2);
	free(objcopy);
	return ret;
}

/*
 * The init, built with the kernel's compiler ($CC, else CROSS_COMPILE +
 * gcc): a static ELF, or for a no-MMU kernel (@nommu) a FLAT binary.
 */
static int compile_init(const struct st_boot_opts *o, const char *cross, const char *tmp,
			bool nommu, char **bin, size_t *len, struct st_error *e)
{
	char datadir[PATH_MAX], src[PATH_MAX], out[PATH_MAX], *cc;
	struct st_kernel_cc kcc;
	int ret;

	if (o->datadir)
		st_pathf(datadir, "%s", o->datadir);
	else if ((ret = st_build_datadir(datadir, sizeof(datadir), e)))
		return ret;
	st_pathf(src, "%s/lib/kernel/boot-init.c", datadir);
	st_pathf(out, "%s/init", tmp);
	if (access(src, R_OK))
		return st_err(e, errno, src, "the boot init's source: %s", strerror(errno));
	/* one small file, compiled and linked: not worth a wrapper */
	ret = st_kernel_cc(&o->k, cross, &kcc);
	if (ret == -EINVAL)
		return st_err(e, EINVAL, NULL, "CC='%s' already runs through another compiler "
			      "wrapper than --cc-wrapper %s", o->k.cc ? o->k.cc : "",
			      o->k.cc_wrapper);
	cc = ret ? NULL : strdup(kcc.compiler);
	st_kernel_cc_release(&kcc);
	if (!cc)
		return st_err(e, ENOMEM, NULL, "out of memory");
	if (nommu) {
		ret = flat_init(cc, cross, src, tmp, bin, len, e);
		goto out;
	}
	ret = cc_init(cc, src, out, 0, e);
	if (ret)
		goto out;
	*bin = st_read_text(out, len);
	if (!*bin)
		ret = st_err(e, errno, out, "%s", strerror(errno));
out:
	free(cc);
	return ret;
}

#define MAX_ENTS 1024

/*
 * The applet names of busybox's --list-full right in the directories
 * below, as pointers into @list (NUL-terminated in place).
 */
static size_t applet_links(char *list, const char *const *dirs, size_t nr_dirs,
			   const char **links, size_t max)
{
	size_t n = 0, i;
	char *p, *nl;

	for (p = list; *p && n < max; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		for (i = 0; i < nr_dirs; i++) {
			size_t dl = strlen(dirs[i]);

			if (!strncmp(p, dirs[i], dl) && p[dl] == '/' && p[dl + 1] &&
			    !strchr(p + dl + 1, '/'))
				break;
		}
		if (i < nr_dirs && strcmp(p, "bin/busybox"))
			links[n++] = p;
	}
	return n;
}

/*
 * The init, and with @busybox the busybox binary in bin/ with a hard link
 * per applet in bin/, sbin/, usr/bin/ and usr/sbin/ (its --list-full), as
 * `busybox --install` makes them. Not symlinks: on the rootfs each symlink
 * is an inode in a reclaimable slab cache and a page of page cache, about
 * 200 kB of Slab: and 1 MB of MemFree for Debian's busybox, none of it the
 * allocator's doing.
 */
static int make_initramfs(const char *init, size_t init_len, const char *busybox,
			  const char *path, struct st_error *e)
{
	static const char *const dirs[] = { "bin", "sbin", "usr", "usr/bin", "usr/sbin" };
	struct st_cpio_entry *ents = calloc(16, sizeof(*ents));
	const char **links = calloc(MAX_ENTS, sizeof(*links));
	char *bb = NULL, *list = NULL, *cpio;
	size_t n = 0, len, i;
	int ret;

	if (!ents || !links) {
		ret = st_err(e, ENOMEM, NULL, "out of memory");
		goto out;
	}
	ents[n++] = (struct st_cpio_entry){ .name = "dev", .mode = S_IFDIR | 0755 };
	ents[n++] = (struct st_cpio_entry){ .name = "dev/console", .mode = S_IFCHR | 0600,
					    .rmajor = 5, .rminor = 1 };
	ents[n++] = (struct st_cpio_entry){ .name = "proc", .mode = S_IFDIR | 0755 };
	ents[n++] = (struct st_cpio_entry){ .name = "init", .mode = S_IFREG | 0755,
					    .data = init, .size = init_len };
	if (busybox) {
		char *argv[] = { (char *)busybox, "--list-full", NULL };

		bb = st_read_text(busybox, &len);
		if (!bb) {
			ret = st_err(e, errno, busybox, "%s", strerror(errno));
			goto out;
		}
		ret = st_run(argv, NULL, NULL, &list, NULL, ST_SPAWN_QUIET);
		if (ret || !list || !*list) {
			ret = st_err(e, ret < 0 ? -ret : ENOEXEC, busybox,
				     "'--list-full' failed: not a busybox of this machine's arch");
			goto out;
		}
		for (i = 0; i < ARRAY_SIZE(dirs); i++)
			ents[n++] = (struct st_cpio_entry){ .name = dirs[i],
							    .mode = S_IFDIR | 0755 };
		ents[n++] = (struct st_cpio_entry){
			.name = "bin/busybox", .mode = S_IFREG | 0755, .data = bb, .size = len,
			.links = links,
			.nr_links = applet_links(list, dirs, ARRAY_SIZE(dirs),
						 links, MAX_ENTS),
		};
	}
	ret = st_cpio_build(ents, n, &cpio, &len);
	if (ret) {
		ret = st_err(e, -ret, path, "cannot make the initramfs: %s", strerror(-ret));
		goto out;
	}
	ret = st_write_file(path, cpio, len, 0644);
	free(cpio);
	if (ret)
		ret = st_err(e, -ret, path, "%s", strerror(-ret));
out:
	free(list);
	free(bb);
	free(links);
	free(ents);
	return ret;
}

/* ---- one boot ------------------------------------------------------ */

static bool kvm_usable(void)
{
	return !access("/dev/kvm", R_OK | W_OK);
}

#define PANIC "Kernel panic - not syncing"

/* The console line around @hit, without its printk time stamp. */
static char *console_line(const char *log, const char *hit)
{
	const char *b, *e, *p;

	for (b = hit; b > log && b[-1] != '\n'; b--)
		;
	e = hit + strcspn(hit, "\r\n");
	if (*b == '[' && (p = memchr(b, ']', (size_t)(e - b))))
		for (b = p + 1; *b == ' '; b++)
			;
	return strndup(b, (size_t)(e - b));
}

/*
 * What the kernel said when it ran out of memory before the init printed
 * its figures: the first console line with one of these, or NULL. Each is
 * the kernel's own wording (the OOM killer, the page allocator, binfmt_flat,
 * the exec of init with -ENOMEM).
 */
static char *oom_reason(const char *log)
{
	static const char *const marks[] = {
		"Out of memory", "out of memory", "page allocation failure",
		"Unable to allocate RAM", "(error -12)", "Initramfs unpacking failed",
	};
	const char *hit = NULL, *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		p = strstr(log, marks[i]);
		if (p && (!hit || p < hit))
			hit = p;
	}
	return hit ? console_line(log, hit) : NULL;
}

/*
 * Why a boot stopped before the figures, when that is a result: the
 * kernel ran out of memory, or (a --mem series, where the smallest sizes
 * are expected not to boot) it panicked; NULL otherwise.
 */
static char *stop_reason(const struct st_boot_result *r, struct st_boot_item *it,
			 const char *log, bool panicked)
{
	char *why = oom_reason(log);
	const char *p;

	it->out_of_memory = why != NULL;
	if (why)
		return why;
	if (panicked && r->nmems > 1 && (p = strstr(log, PANIC)))
		return console_line(log, p);
	return NULL;
}

/*
 * Boot @it's image with @initrd, read the console until the end marker (or
 * the time limit: then the process group is killed), keep the log.
 */
static int boot_one(const struct boot_arch *a, struct st_boot_item *it, const char *initrd,
		    const struct st_boot_result *r, unsigned int timeout, bool kvm,
		    unsigned int banner_s)
{
	char mem_s[16], cpus_s[16], path[PATH_MAX];
	char *argv[32], *log = NULL, *nl, *t, *append;
	size_t n = 0, len = 0, cap = 0;
	double t0, deadline, seen_end = 0, seen_panic = 0;
	struct st_child c;
	bool timed_out = false, no_banner = false;
	struct pollfd pfd;
	int ret, status;

	it->accel = kvm ? "kvm" : "tcg";
	snprintf(mem_s, sizeof(mem_s), "%u", it->mem_mb);
	snprintf(cpus_s, sizeof(cpus_s), "%u", r->cpus);
	append = st_asprintf("console=%s panic=-1%s%s", a->console, *r->cmdline ? " " : "",
			     r->cmdline);
	if (!append)
		return -ENOMEM;
	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = "exec \"$@\" </dev/null 2>&1";
	argv[n++] = "sh";
	argv[n++] = (char *)a->qemu;
	argv[n++] = "-nographic";
	argv[n++] = "-no-reboot";
	if (a->machine) {
		argv[n++] = "-M";
		argv[n++] = (char *)a->machine;
	}
	if (r->nommu) {
		/* M-mode: the kernel is the firmware */
		argv[n++] = "-bios";
		argv[n++] = "none";
	}
	argv[n++] = "-m";
	argv[n++] = mem_s;
	argv[n++] = "-smp";
	argv[n++] = cpus_s;
	argv[n++] = "-accel";
	argv[n++] = kvm ? "kvm" : "tcg";
	argv[n++] = "-kernel";
	argv[n++] = it->image;
	argv[n++] = "-initrd";
	argv[n++] = (char *)initrd;
	argv[n++] = "-append";
	argv[n++] = append;
	argv[n] = NULL;
	t0 = now_s();
	deadline = t0 + timeout;
	ret = st_spawn(&c, argv, NULL, NULL, ST_SPAWN_STDOUT | ST_SPAWN_PGRP);
	free(append);
	if (ret) {
		it->error = st_asprintf("%s: cannot start %s: %s", it->name, a->qemu,
					strerror(-ret));
		return ret;
	}
	pfd.fd = c.out_fd;
	pfd.events = POLLIN;
	for (;;) {
		double stop = seen_end ? seen_end : seen_panic;
		double left = (stop ? stop + GRACE_MS / 1e3 : deadline) - now_s();
		ssize_t got;

		/* A KVM that starts no kernel (seen nested): give up early, TCG is tried. */
		if (banner_s && !seen_end && now_s() - t0 > banner_s &&
		    !(log && strstr(log, "Linux version"))) {
			no_banner = true;
			kill(-c.pid, SIGKILL);
			break;
		}
		if (banner_s && left > 1)
			left = 1;
		if (left <= 0) {
			timed_out = !seen_end;
			kill(-c.pid, SIGKILL);
			break;
		}
		ret = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			continue;
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(log, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				kill(-c.pid, SIGKILL);
				st_child_wait(&c);
				free(log);
				it->error = st_asprintf("%s: out of memory", it->name);
				return -ENOMEM;
			}
			log = nb;
		}
		got = read(c.out_fd, log + len, 4096);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += got;
		log[len] = 0;
		if (!seen_end && (strstr(log, BOOT_END "\n") || strstr(log, BOOT_END "\r\n"))) {
			seen_end = now_s();
			it->boot_s = seen_end - t0;
		}
		/* A kernel without panic=-1 (a forced command line) hangs after it. */
		if (!seen_end && !seen_panic && strstr(log, PANIC))
			seen_panic = now_s();
	}
	status = st_child_wait(&c);
	if (no_banner) {
		free(log);
		return -ETIME;
	}
	if (!log) {
		log = strdup("");
		if (!log)
			return -ENOMEM;
	}
	if (r->nmems > 1)
		st_pathf(path, "%s/slubtiny-console-%uM.log", it->dir, it->mem_mb);
	else
		st_pathf(path, "%s/" CONSOLE_LOG, it->dir);
	st_write_file(path, log, len, 0644);
	ret = seen_end ? st_boot_parse(log, len, &it->fig) : -ENOENT;
	if (ret && !seen_end && (it->stopped = stop_reason(r, it, log, seen_panic))) {
		it->boot_s = now_s() - t0;
		ret = 0;
	}
	if (ret && seen_panic)
		timed_out = false;
	if (ret) {
		t = tail(log, len);
		nl = len ? "" : " (no output)";
		if (seen_panic && !seen_end)
			it->error = st_asprintf("%s: the kernel panicked before the end marker; "
						"console log %s, last lines:\n%s", it->name, path,
						t ? t : "");
		else if (timed_out)
			it->error = st_asprintf("%s: the boot did not reach the end marker "
						"within %u s (%s killed); console log %s%s, "
						"last lines:\n%s",
						it->name, timeout, a->qemu, path, nl, t ? t : "");
		else if (!seen_end)
			it->error = st_asprintf("%s: %s exited (status %d) before the end marker; "
						"console log %s%s, last lines:\n%s", it->name,
						a->qemu, status, path, nl, t ? t : "");
		else
			it->error = st_asprintf("%s: the console log %s has no %s between the "
						"markers, last lines:\n%s", it->name, path,
						ret == -EINVAL ? "Slab: and MemFree:" : "figures",
						t ? t : "");
		free(t);
		ret = -EIO;
	}
	free(log);
	return ret;
}

/* ---- results kept in the cache --------------------------------------- */

static cJSON *caches_json(const struct st_boot_figures *f)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < f->ncaches; i++) {
		const struct st_boot_cache *c = &f->caches[i];

		o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		if (!o || !cJSON_AddStringToObject(o, "name", c->name) ||
		    !cJSON_AddNumberToObject(o, "kb", c->kb) ||
		    !cJSON_AddNumberToObject(o, "slabs", c->slabs) ||
		    !cJSON_AddNumberToObject(o, "pages_per_slab", c->pagesperslab) ||
		    !cJSON_AddNumberToObject(o, "objects", c->objs) ||
		    !cJSON_AddNumberToObject(o, "object_size", c->objsize)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *item_json(const struct st_boot_result *r, const struct st_boot_item *it)
{
	cJSON *o = cJSON_CreateObject();
	const struct st_boot_figures *f = &it->fig;

	if (!o || !cJSON_AddStringToObject(o, "variant", it->variant) ||
	    !cJSON_AddStringToObject(o, "arch", it->arch) ||
	    !cJSON_AddStringToObject(o, "tree", r->tree) ||
	    !cJSON_AddStringToObject(o, "defconfig", r->defconfig) ||
	    !cJSON_AddNumberToObject(o, "mem_mb", it->mem_mb) ||
	    !cJSON_AddNumberToObject(o, "cpus", r->cpus) ||
	    !cJSON_AddBoolToObject(o, "mmu", !r->nommu) ||
	    !cJSON_AddStringToObject(o, "cmdline", r->cmdline) ||
	    !cJSON_AddStringToObject(o, "boot_config", r->profile) ||
	    !cJSON_AddStringToObject(o, "image", it->image) ||
	    !(it->stopped ? cJSON_AddStringToObject(o, "stopped", it->stopped) :
			    cJSON_AddNullToObject(o, "stopped")) ||
	    !cJSON_AddBoolToObject(o, "out_of_memory", it->out_of_memory) ||
	    !cJSON_AddStringToObject(o, "resolved", it->resolved ? it->resolved : "") ||
	    !cJSON_AddStringToObject(o, "cc", it->cc ? it->cc : "") ||
	    !(it->cc_wrapper ? cJSON_AddStringToObject(o, "cc_wrapper", it->cc_wrapper) :
			       cJSON_AddNullToObject(o, "cc_wrapper")) ||
	    !cJSON_AddStringToObject(o, "accel", it->accel ? it->accel : "") ||
	    !cJSON_AddBoolToObject(o, "kvm_failed", it->kvm_failed) ||
	    !cJSON_AddBoolToObject(o, "build_cached", it->build_cached) ||
	    !cJSON_AddNumberToObject(o, "boot_s", it->boot_s) ||
	    !cJSON_AddNumberToObject(o, "uptime_s", f->uptime_s) ||
	    !cJSON_AddBoolToObject(o, "idle", f->idle) ||
	    !cJSON_AddNumberToObject(o, "slab_kb", f->slab_kb) ||
	    !cJSON_AddNumberToObject(o, "sreclaimable_kb", f->sreclaimable_kb) ||
	    !cJSON_AddNumberToObject(o, "sunreclaim_kb", f->sunreclaim_kb) ||
	    !cJSON_AddNumberToObject(o, "memfree_kb", f->memfree_kb) ||
	    !cJSON_AddNumberToObject(o, "memtotal_kb", f->memtotal_kb) ||
	    !cJSON_AddBoolToObject(o, "slabinfo", f->has_slabinfo) ||
	    !cJSON_AddItemToObject(o, "caches", caches_json(f))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *st_boot_render_json(const struct st_boot_result *r)
{
	cJSON *root = cJSON_CreateObject(), *res, *fail, *x;
	size_t i;

	if (!root || !cJSON_AddStringToObject(root, "tree", r->tree) ||
	    !cJSON_AddStringToObject(root, "defconfig", r->defconfig) ||
	    !cJSON_AddNumberToObject(root, "mem_mb", r->mem_mb) ||
	    !cJSON_AddNumberToObject(root, "cpus", r->cpus) ||
	    !cJSON_AddStringToObject(root, "cmdline", r->cmdline) ||
	    !cJSON_AddStringToObject(root, "boot_config", r->profile) ||
	    !(res = cJSON_AddArrayToObject(root, "results")) ||
	    !(fail = cJSON_AddArrayToObject(root, "failures")) ||
	    !(x = cJSON_AddArrayToObject(root, "ratios")))
		goto fail;
	for (i = 0; i < r->nratios; i++) {
		const struct st_boot_ratio *q = &r->ratios[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(x, o);
		if (!o || !cJSON_AddStringToObject(o, "num", q->num) ||
		    !cJSON_AddStringToObject(o, "den", q->den) ||
		    !cJSON_AddNumberToObject(o, "kernel", q->kernel) ||
		    !(q->replay ? cJSON_AddNumberToObject(o, "replay", q->replay) :
				  cJSON_AddNullToObject(o, "replay")))
			goto fail;
	}
	for (i = 0; i < r->nitems; i++) {
		const struct st_boot_item *it = &r->items[i];
		cJSON *o;

		if (it->error) {
			o = cJSON_CreateObject();
			cJSON_AddItemToArray(fail, o);
			if (!o || !cJSON_AddStringToObject(o, "variant", it->variant) ||
			    !cJSON_AddStringToObject(o, "arch", it->arch) ||
			    !cJSON_AddStringToObject(o, "error", it->error))
				goto fail;
			continue;
		}
		o = item_json(r, it);
		if (!o)
			goto fail;
		cJSON_AddItemToArray(res, o);
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

/* Keep @it's result next to its image and as the latest of its variant. */
static int save_result(const struct st_boot_opts *o, const struct st_boot_result *r,
		       const struct st_boot_item *it, const char *builddir)
{
	char path[PATH_MAX], *s, *text;
	cJSON *j = item_json(r, it), *root = NULL, *v;
	int ret = -ENOMEM;

	(void)o;
	if (!j)
		return -ENOMEM;
	s = cJSON_Print(j);
	if (s) {
		st_pathf(path, "%s/" RESULT_NAME, it->dir);
		ret = st_write_file(path, s, strlen(s), 0644);
		cJSON_free(s);
	}
	if (ret) {
		cJSON_Delete(j);
		return ret;
	}
	/* boot-latest.json: { "variants": { "slub": {...}, ... } } */
	st_pathf(path, "%s/" LATEST_NAME, builddir);
	text = st_read_text(path, NULL);
	root = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!cJSON_IsObject(root) || !cJSON_IsObject(cJSON_GetObjectItem(root, "variants"))) {
		cJSON_Delete(root);
		root = cJSON_CreateObject();
		if (!root || !cJSON_AddObjectToObject(root, "variants")) {
			cJSON_Delete(root);
			cJSON_Delete(j);
			return -ENOMEM;
		}
	}
	v = cJSON_GetObjectItem(root, "variants");
	cJSON_DeleteItemFromObject(v, it->variant);
	cJSON_DeleteItemFromObject(j, "caches");
	cJSON_AddItemToObject(v, it->variant, j);
	s = cJSON_Print(root);
	ret = s ? st_write_file(path, s, strlen(s), 0644) : -ENOMEM;
	cJSON_free(s);
	cJSON_Delete(root);
	return ret;
}

void st_boot_latest_free(struct st_boot_latest *l, size_t n)
{
	size_t i;

	for (i = 0; l && i < n; i++) {
		free(l[i].variant);
		free(l[i].tree);
		free(l[i].arch);
		free(l[i].defconfig);
		free(l[i].cmdline);
		free(l[i].profile);
	}
	free(l);
}

static char *jstr(const cJSON *o, const char *key)
{
	const cJSON *s = cJSON_GetObjectItem(o, key);

	return cJSON_IsString(s) ? strdup(s->valuestring) : NULL;
}

int st_boot_latest_parse(const char *text, struct st_boot_latest **out, size_t *n)
{
	cJSON *root = cJSON_Parse(text), *v, *x;
	struct st_boot_latest *l = NULL;
	size_t k = 0, cap;
	int ret = 0;

	*out = NULL;
	*n = 0;
	v = cJSON_GetObjectItem(root, "variants");
	if (!cJSON_IsObject(v)) {
		cJSON_Delete(root);
		return -EINVAL;
	}
	cap = cJSON_GetArraySize(v);
	l = calloc(cap + 1, sizeof(*l));
	if (!l) {
		cJSON_Delete(root);
		return -ENOMEM;
	}
	cJSON_ArrayForEach(x, v) {
		const cJSON *slab = cJSON_GetObjectItem(x, "slab_kb");
		const cJSON *mem = cJSON_GetObjectItem(x, "mem_mb");
		const cJSON *cpus = cJSON_GetObjectItem(x, "cpus");

		if (k == cap || !x->string || !cJSON_IsNumber(slab) || !cJSON_IsNumber(mem) ||
		    !cJSON_IsNumber(cpus) || slab->valuedouble <= 0 || slab->valuedouble > 1e12 ||
		    mem->valuedouble < 0 || mem->valuedouble > 1e7 || cpus->valuedouble < 0 ||
		    cpus->valuedouble > 1e5) {
			ret = -EINVAL;
			break;
		}
		l[k].variant = strdup(x->string);
		l[k].tree = jstr(x, "tree");
		l[k].arch = jstr(x, "arch");
		l[k].defconfig = jstr(x, "defconfig");
		/* results kept before --cmdline existed have none */
		l[k].cmdline = cJSON_GetObjectItem(x, "cmdline") ? jstr(x, "cmdline") : strdup("");
		l[k].profile = cJSON_GetObjectItem(x, "boot_config") ? jstr(x, "boot_config") :
								     strdup("minimal");
		l[k].mem_mb = mem->valuedouble;
		l[k].cpus = cpus->valuedouble;
		l[k].slab_kb = slab->valuedouble;
		k++;
		if (!l[k - 1].variant || !l[k - 1].tree || !l[k - 1].arch || !l[k - 1].defconfig ||
		    !l[k - 1].cmdline || !l[k - 1].profile) {
			ret = -EINVAL;
			break;
		}
	}
	cJSON_Delete(root);
	if (ret) {
		st_boot_latest_free(l, k);
		return ret;
	}
	*out = l;
	*n = k;
	return 0;
}

int st_boot_latest_load(const char *builddir, struct st_boot_latest **out, size_t *n,
			struct st_error *e)
{
	char dir[PATH_MAX], path[PATH_MAX], *text;
	int ret;

	*out = NULL;
	*n = 0;
	if (builddir)
		st_pathf(dir, "%s", builddir);
	else if (st_kernel_default_dir(dir, sizeof(dir)))
		return 0;
	st_pathf(path, "%s/" LATEST_NAME, dir);
	text = st_read_text(path, NULL);
	if (!text)
		return errno == ENOENT ? 0 : st_err(e, errno, path, "%s", strerror(errno));
	ret = st_boot_latest_parse(text, out, n);
	free(text);
	if (ret)
		return st_err(e, -ret, path, "%s", ret == -EINVAL ? "not a boot result file" :
			      strerror(-ret));
	return 0;
}

/* ---- the run ------------------------------------------------------- */

void st_boot_result_free(struct st_boot_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nitems; i++) {
		struct st_boot_item *it = &r->items[i];

		free(it->arch);
		free(it->variant);
		free(it->name);
		free(it->image);
		free(it->dir);
		free(it->resolved);
		free(it->cc);
		free(it->cc_wrapper);
		free(it->error);
		free(it->stopped);
		st_boot_figures_free(&it->fig);
	}
	free(r->items);
	free(r->tree);
	free(r->defconfig);
	free(r->cmdline);
	free(r);
}

static int rm_tree(const char *dir)
{
	char path[PATH_MAX];

	st_pathf(path, "%s/init", dir);
	unlink(path);
	st_pathf(path, "%s/initramfs.cpio", dir);
	unlink(path);
	return rmdir(dir);
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
static bool boot_nommu(const struct st_boot_opts *o, const char *arch)
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

int st_boot_run(const struct st_boot_opts *o, struct st_boot_result **out, struct st_error *e)
{
	struct st_kernel_opts ko = o->k;
	struct st_kernel_result *k = NULL;
	struct st_boot_result *r;
	const struct boot_arch *a;
	const struct boot_profile *prof = boot_profile(o->profile);
	const char *arch, *extra[24], *frags[ST_BOOT_MAX_FRAGMENTS + 1], *cross[2];
	unsigned int timeout = o->timeout_s ? o->timeout_s : 300;
	bool kvm = o->accel ? !strcmp(o->accel, "kvm") : kvm_usable(), nommu;
	const char *const *config;
	char builddir[PATH_MAX], tmp[PATH_MAX], initrd[PATH_MAX], frag[PATH_MAX], *init = NULL;
	char cross_arg[64];
	size_t i, init_len = 0;
	int ret;

	if (ko.narches > 1)
		return st_err(e, EINVAL, NULL, "footprint --boot: one --arch at a time");
	arch = ko.narches ? ko.arches[0] : "x86_64";
	a = boot_arch(arch);
	if (!a)
		return st_err(e, ENOTSUP, NULL, "footprint --boot: no QEMU machine for ARCH=%s "
			      "(boots x86_64, arm, riscv)", arch);
	if (!prof)
		return st_err(e, EINVAL, NULL, "footprint --boot: unknown --boot-config '%s' "
			      "(minimal, kvm-guest)", o->profile);
	if (strcmp(a->arch, "x86_64")) {
		/* TCG only: QEMU emulates another arch */
		if (o->accel && !strcmp(o->accel, "kvm"))
			return st_err(e, EINVAL, NULL, "footprint --boot: no KVM for ARCH=%s on "
				      "this machine; use --accel tcg", arch);
		kvm = false;
	}
	nommu = boot_nommu(o, a->arch);
	if (nommu && !a->nommu_config)
		return st_err(e, ENOTSUP, NULL, "footprint --boot: no QEMU machine for ARCH=%s "
			      "without an MMU (riscv has one)", arch);
	config = nommu ? a->nommu_config : a->config;
	ko.arches = &a->arch;
	ko.narches = 1;
	ko.image_target = a->target;
	ko.image_file = a->file;
	for (i = 0; config[i] && i < ARRAY_SIZE(extra) - 1; i++) {
		extra[i] = config[i];
		/* riscv's virt board was SOC_VIRT before 6.5 */
		if (!strcmp(a->arch, "riscv") && !strcmp(extra[i], "CONFIG_ARCH_VIRT=y") &&
		    !kconfig_defines(o->k.srctree, "arch/riscv/Kconfig.socs", "ARCH_VIRT"))
			extra[i] = "CONFIG_SOC_VIRT=y";
	}
	extra[i] = NULL;
	ko.extra = extra;
	ko.flavour = prof->flavour;
	if (prof->fragment) {
		if (o->k.nfragments > ST_BOOT_MAX_FRAGMENTS - 1)
			return st_err(e, E2BIG, NULL, "footprint --boot: too many --config fragments");
		if (st_pathf(frag, "%s/%s", o->k.srctree, prof->fragment))
			return st_err(e, ENAMETOOLONG, o->k.srctree, "path too long");
		if (access(frag, R_OK))
			return st_err(e, errno, frag, "--boot-config %s: this tree has no %s: %s",
				      prof->name, prof->fragment, strerror(errno));
		frags[0] = frag;
		for (i = 0; i < o->k.nfragments; i++)
			frags[i + 1] = o->k.fragments[i];
		ko.fragments = frags;
		ko.nfragments = o->k.nfragments + 1;
	}
	/* Debian's cross compiler when none is named for this arch (and not building on it) */
	if (!st_kernel_cross(&o->k, a->arch) && strcmp(a->arch, st_kernel_host_arch())) {
		snprintf(cross_arg, sizeof(cross_arg), "%s", a->cross);
		cross[0] = cross_arg;
		cross[1] = NULL;
		ko.cross = cross;
		ko.ncross = 1;
	}
	ko.vmlinux = false;
	ko.shard_n = 0;
	if (ko.builddir)
		st_pathf(builddir, "%s", ko.builddir);
	else if ((ret = st_kernel_default_dir(builddir, sizeof(builddir))))
		return st_kernel_default_dir_err(builddir, ret, e);
	ko.builddir = builddir;
	/* Before the builds: a missing QEMU or compiler is found in a second. */
	if (access("/dev/null", R_OK))
		return st_err(e, errno, "/dev/null", "%s", strerror(errno));
	{
		char *argv[] = { (char *)a->qemu, "--version", NULL }, *ver = NULL;

		/* its output collected: stdout is the report's */
		ret = st_run(argv, NULL, NULL, &ver, NULL, ST_SPAWN_QUIET);
		free(ver);
		if (ret)
			return st_err(e, ENOENT, NULL, "%s not found (Debian package %s)",
				      a->qemu, a->package);
	}
	if (o->cmdline) {
		const char *c;

		for (c = o->cmdline; *c; c++)
			if ((unsigned char)*c < ' ' || *c == 0x7f)
				return st_err(e, EINVAL, NULL, "--cmdline: a control character "
					      "at byte %zu", (size_t)(c - o->cmdline) + 1);
		if (c - o->cmdline > CMDLINE_MAX)
			return st_err(e, EINVAL, NULL, "--cmdline: longer than %d bytes",
				      CMDLINE_MAX);
	}
	if (o->accel && strcmp(o->accel, "kvm") && strcmp(o->accel, "tcg"))
		return st_err(e, EINVAL, NULL, "unknown accelerator '%s' (kvm, tcg)", o->accel);
	ret = mkdir(builddir, 0777);
	if (ret && errno != EEXIST && errno != ENOENT)
		return st_err(e, errno, builddir, "cannot create: %s", strerror(errno));
	st_pathf(tmp, "%s/tmp-boot-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		    "/tmp");
	if (!mkdtemp(tmp))
		return st_err(e, errno, tmp, "cannot create: %s", strerror(errno));
	st_pathf(initrd, "%s/initramfs.cpio", tmp);
	ret = compile_init(o, st_kernel_cross(&ko, a->arch), tmp, nommu, &init, &init_len, e);
	if (!ret)
		ret = make_initramfs(init, init_len, o->busybox, initrd, e);
	free(init);
	if (!ret)
		ret = st_kernel_run(&ko, &k, e);
	if (ret) {
		rm_tree(tmp);
		return ret;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		goto nomem;
	*out = r;
	r->tree = strdup(k->tree);
	r->defconfig = strdup(o->k.defconfig ? o->k.defconfig : "defconfig");
	r->cmdline = strdup(o->cmdline ? o->cmdline : "");
	r->profile = prof->name;
	r->mem_mb = o->nmems ? o->mems[0] : o->mem_mb ? o->mem_mb : 32;
	r->nommu = nommu;
	r->cpus = o->cpus ? o->cpus : 1;
	r->nmems = o->nmems ? o->nmems : 1;
	r->items = calloc(k->nitems * r->nmems + 1, sizeof(*r->items));
	if (!r->tree || !r->defconfig || !r->cmdline || !r->items)
		goto nomem;
	for (i = 0; i < k->nitems * r->nmems; i++) {
		const struct st_kernel_item *ki = &k->items[i / r->nmems];
		struct st_boot_item *it = &r->items[r->nitems++];
		struct st_kernel_progress p = { .item = ki->name, .index = i + 1,
						.total = k->nitems * r->nmems };
		double t0 = now_s();

		it->mem_mb = o->nmems ? o->mems[i % r->nmems] : r->mem_mb;
		it->arch = strdup(ki->arch);
		it->variant = strdup(ki->variant);
		it->name = r->nmems > 1 ? st_asprintf("%s, %u MB", ki->name, it->mem_mb) :
					  strdup(ki->name);
		it->dir = strdup(ki->dir);
		it->build_cached = ki->cached;
		it->resolved = ki->resolved ? strdup(ki->resolved) : NULL;
		it->cc = ki->cc ? strdup(ki->cc) : NULL;
		it->cc_wrapper = ki->cc_wrapper ? strdup(ki->cc_wrapper) : NULL;
		if (!it->arch || !it->variant || !it->name || !it->dir ||
		    (ki->cc && !it->cc) || (ki->cc_wrapper && !it->cc_wrapper))
			goto nomem;
		if (ki->error) {
			it->error = strdup(ki->error);
			r->nfailed++;
			continue;
		}
		it->image = strdup(ki->object);
		if (!it->image)
			goto nomem;
		p.step = "boot";
		if (o->k.progress)
			o->k.progress(o->k.progress_ctx, &p);
		ret = boot_one(a, it, initrd, r, timeout, kvm, o->accel ? 0 : KVM_BANNER_S);
		if (ret == -ETIME) {
			/* KVM started nothing: TCG from now on. */
			kvm = false;
			it->kvm_failed = true;
			ret = boot_one(a, it, initrd, r, timeout, false, 0);
		}
		if (ret == -ENOMEM && !it->error)
			goto nomem;
		if (ret) {
			r->nfailed++;
			p.step = "boot failed";
		} else if (it->stopped) {
			/* a result, not a failure; no figures to keep as the latest */
			p.step = it->out_of_memory ? "out of memory" : "did not boot";
		} else {
			p.step = "booted";
			ret = save_result(o, r, it, builddir);
			if (ret) {
				it->error = st_asprintf("%s: cannot keep the result under %s: %s",
							it->name, it->dir, strerror(-ret));
				r->nfailed++;
			}
		}
		p.elapsed = now_s() - t0;
		if (o->k.progress)
			o->k.progress(o->k.progress_ctx, &p);
	}
	st_kernel_result_free(k);
	rm_tree(tmp);
	return 0;
nomem:
	st_kernel_result_free(k);
	st_boot_result_free(r);
	*out = NULL;
	rm_tree(tmp);
	return st_err(e, ENOMEM, NULL, "out of memory");
}

unsigned int st_boot_smallest(const struct st_boot_result *r, const char *variant)
{
	unsigned int best = 0;
	size_t i;

	for (i = 0; i < r->nitems; i++) {
		const struct st_boot_item *it = &r->items[i];

		if (it->error || it->stopped || strcmp(it->variant, variant))
			continue;
		if (!best || it->mem_mb < best)
			best = it->mem_mb;
	}
	return best;
}

void st_boot_ratios(struct st_boot_result *r, const char *const *variants,
		    const unsigned long *peak, size_t n)
{
	static const char *const pairs[][2] = {
		{ "slub_tiny", "slub" }, { "slob", "slub_tiny" }, { "slob", "slub" },
	};
	const struct st_boot_item *a, *b;
	size_t i, k;

	r->nratios = 0;
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct st_boot_ratio *q = &r->ratios[r->nratios];
		unsigned long pa = 0, pb = 0;

		a = b = NULL;
		for (k = 0; k < r->nitems; k++) {
			if (r->items[k].error || r->items[k].stopped || r->items[k].mem_mb != r->mem_mb)
				continue;
			if (!strcmp(r->items[k].variant, pairs[i][0]))
				a = &r->items[k];
			if (!strcmp(r->items[k].variant, pairs[i][1]))
				b = &r->items[k];
		}
		if (!a || !b || !b->fig.slab_kb)
			continue;
		for (k = 0; k < n; k++) {
			if (!strcmp(variants[k], pairs[i][0]))
				pa = peak[k];
			if (!strcmp(variants[k], pairs[i][1]))
				pb = peak[k];
		}
		q->num = pairs[i][0];
		q->den = pairs[i][1];
		q->kernel = a->fig.slab_kb / b->fig.slab_kb;
		q->replay = pa && pb ? (double)pa / pb : 0;
		r->nratios++;
	}
}
