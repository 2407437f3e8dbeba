// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: what footprint --boot parses. A QEMU console log (the
 * figures between the markers) and the boot-latest.json of a cache that
 * footprint reads back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_boot_figures f;
	struct st_boot_latest *l;
	char *text;
	size_t n, i;

	if (!st_boot_parse((const char *)data, size, &f)) {
		for (i = 1; i < f.ncaches; i++)
			if (f.caches[i].kb > f.caches[i - 1].kb)
				abort();
		st_boot_figures_free(&f);
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (!st_boot_latest_parse(text, &l, &n))
		st_boot_latest_free(l, n);
	free(text);
	return 0;
}
