// SPDX-License-Identifier: GPL-2.0-only
/*
 * The init of a boot and its initramfs: boot-init.c compiled with the
 * kernel's own compiler (a FLAT binary for a no-MMU kernel), packed into a
 * newc cpio with /dev/console, /proc and optionally a static busybox.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/build.h"
#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/str.h"
#include "elf/elf.h"
#include "kernel/kernel.h"
#include "boot/flat.h"
#include "boot_priv.h"

/* Stack of a no-MMU init: it keeps its buffer in .bss and nests three calls deep. */
#define FLAT_STACK 8192

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
int st_boot_compile_init(const struct st_boot_opts *o, const char *cross, const char *tmp,
			bool nommu, char **bin, size_t *len, struct st_error *e)
{
	char datadir[PATH_MAX], src[PATH_MAX], out[PATH_MAX], *cc;
	struct st_kernel_cc kcc;
	int ret;

	if (o->datadir)
		st_pathf(datadir, "%s", o->datadir);
	else if ((ret = st_build_datadir(datadir, sizeof(datadir), e)))
		return ret;
	st_pathf(src, "%s/lib/boot/boot-init.c", datadir);
	st_pathf(out, "%s/init", tmp);
	if (access(src, R_OK))
		return st_err(e, errno, src, "the boot init's source: %s", strerror(errno));
	/* one small file, compiled and linked: not worth a wrapper */
	ret = st_kernel_cc(&o->k, cross, &kcc);
	if (ret == -EINVAL)
		return st_err(e, EINVAL, NULL, "CC='%s' already runs through a compiler wrapper "
			      "other than %s", o->k.cc ? o->k.cc : "",
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
int st_boot_make_initramfs(const char *init, size_t init_len, const char *busybox,
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
