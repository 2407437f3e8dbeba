// SPDX-License-Identifier: GPL-2.0-only
/*
 * FLAT executables for no-MMU kernels (fs/binfmt_flat.c): the boot init of
 * a K210-class riscv board. Debian has no elf2flt, and the init needs none
 * of its work: it is linked position independent with no relocations, so
 * the image is the header and the linked bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/flat.h"

#define FLAT_VERSION	4
#define FLAG_RAM	0x1	/* load the whole file into RAM (no XIP) */
/* binfmt_flat puts the data segment at this alignment after the text */
#define DATA_ALIGN	0x20

static void be32(char *p, uint32_t v)
{
	p[0] = (char)(v >> 24);
	p[1] = (char)(v >> 16);
	p[2] = (char)(v >> 8);
	p[3] = (char)v;
}

int st_flat_wrap(const void *code, size_t len, size_t bss, size_t stack, char **out,
		 size_t *outlen)
{
	size_t end, total;
	char *f;

	/*
	 * Everything is "text": the kernel copies [0, data_start) of the file
	 * and zeroes bss_end - data_end bytes right after, where the linker
	 * put .bss (aligned as data_start is).
	 */
	if (len > UINT32_MAX - ST_FLAT_HDR_SIZE - DATA_ALIGN)
		return -EINVAL;
	end = (ST_FLAT_HDR_SIZE + len + DATA_ALIGN - 1) & ~(size_t)(DATA_ALIGN - 1);
	if (bss > UINT32_MAX - end || stack > UINT32_MAX)
		return -EINVAL;
	total = end;
	f = calloc(1, total);
	if (!f)
		return -ENOMEM;
	memcpy(f, "bFLT", 4);
	be32(f + 4, FLAT_VERSION);
	be32(f + 8, ST_FLAT_HDR_SIZE);		/* entry */
	be32(f + 12, (uint32_t)end);		/* data_start */
	be32(f + 16, (uint32_t)end);		/* data_end */
	be32(f + 20, (uint32_t)(end + bss));	/* bss_end */
	be32(f + 24, (uint32_t)stack);
	be32(f + 28, (uint32_t)end);		/* reloc_start */
	be32(f + 32, 0);			/* reloc_count */
	be32(f + 36, FLAG_RAM);
	memcpy(f + ST_FLAT_HDR_SIZE, code, len);
	*out = f;
	*outlen = total;
	return 0;
}
