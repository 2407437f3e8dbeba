/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_BOOT_FLAT_H
#define ST_BOOT_FLAT_H

#include <stddef.h>

/* The header a FLAT (bFLT, version 4) executable starts with. */
#define ST_FLAT_HDR_SIZE	64

/*
 * Wrap @len bytes of position-independent code and data, linked to run at
 * file offset ST_FLAT_HDR_SIZE with its entry point there, into a FLAT
 * executable a no-MMU kernel's binfmt_flat loads whole into RAM: no
 * relocations, @bss zeroed bytes after the loaded ones, @stack bytes of
 * stack. *@out (malloc'd, *@outlen bytes) on 0; -EINVAL when a size does
 * not fit the header's 32-bit fields, -ENOMEM.
 */
int st_flat_wrap(const void *code, size_t len, size_t bss, size_t stack, char **out,
		 size_t *outlen);

#endif
