// SPDX-License-Identifier: GPL-2.0-only
/*
 * st_flat_wrap(): the header fs/binfmt_flat.c reads (include/linux/flat.h:
 * big-endian 32-bit words after the "bFLT" magic), the loaded bytes right
 * after it, and sizes the header cannot hold refused.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/flat.h"
#include "../../tap.h"

static uint32_t word(const char *f, int i)
{
	const unsigned char *p = (const unsigned char *)f + 4 * i;

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int main(void)
{
	char code[100], *f = NULL;
	size_t len = 0, i;
	int ret;

	for (i = 0; i < sizeof(code); i++)
		code[i] = (char)(i * 7 + 1);
	ret = st_flat_wrap(code, sizeof(code), 65536, 8192, &f, &len);
	ok(ret == 0, "wraps 100 bytes");
	if (ret)
		goto out;
	ok(!memcmp(f, "bFLT", 4), "magic");
	ok(word(f, 1) == 4, "version 4 (%u)", word(f, 1));
	ok(word(f, 2) == 64, "entry: the first byte after the header (%u)", word(f, 2));
	/* 64 + 100 = 164, aligned to 0x20: 192 */
	ok(word(f, 3) == 192 && word(f, 4) == 192, "data_start = data_end = 192 (%u %u)",
	   word(f, 3), word(f, 4));
	ok(word(f, 5) == 192 + 65536, "bss_end after 64 KiB of bss (%u)", word(f, 5));
	ok(word(f, 6) == 8192, "stack size (%u)", word(f, 6));
	ok(word(f, 7) == 192, "reloc_start at the end of the data (%u)", word(f, 7));
	ok(word(f, 8) == 0, "no relocations (%u)", word(f, 8));
	ok(word(f, 9) == 1, "FLAT_FLAG_RAM only (%u)", word(f, 9));
	ok(len == 192, "file as long as data_start (%zu)", len);
	ok(!memcmp(f + 64, code, sizeof(code)), "code right after the header");
	for (i = 64 + sizeof(code); i < len && !f[i]; i++)
		;
	ok(i == len, "zero padding to the data alignment");
	free(f);
	f = NULL;
	ok(st_flat_wrap(code, sizeof(code), UINT32_MAX, 0, &f, &len) == -EINVAL && !f,
	   "bss past 4 GiB refused");
	ok(st_flat_wrap(code, (size_t)UINT32_MAX, 0, 0, &f, &len) == -EINVAL && !f,
	   "code past 4 GiB refused");
	ok(st_flat_wrap(code, 0, 0, 0, &f, &len) == 0 && len == 64, "empty code: the header");
out:
	free(f);
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
