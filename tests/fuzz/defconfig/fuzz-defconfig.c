// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the defconfig parser: whatever the bytes, parsing must not
 * crash, rendering must give the input back, and edits driven by the input
 * followed by a diff must not crash either.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "defconfig/defconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void edits(struct st_defconfig *dc, const uint8_t *data, size_t size)
{
	struct st_defconfig *nw;
	char *d;
	size_t len, i;

	if (st_defconfig_dup(&nw, dc))
		return;
	/* The first bytes pick edits; positions wrap around the line count. */
	for (i = 0; i < size && i < 8; i++) {
		size_t at = nw->nr_lines ? data[i] % (nw->nr_lines + 1) : 0;

		switch (data[i] & 3) {
		case 0:
			st_defconfig_insert(nw, at, "CONFIG_SLUB_TINY=y");
			break;
		case 1:
			if (at < nw->nr_lines)
				st_defconfig_replace(nw, at, "# CONFIG_SLUB is not set");
			break;
		case 2:
			if (at < nw->nr_lines)
				st_defconfig_delete(nw, at);
			break;
		default:
			st_defconfig_find(nw, "SLOB");
		}
	}
	if (!st_defconfig_diff(dc, nw, "f", &d, &len))
		free(d);
	st_defconfig_free(nw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_defconfig *dc;
	char *out;
	size_t len;

	if (st_defconfig_parse(&dc, (const char *)data, size, "fuzz", NULL))
		return 0;
	if (!st_defconfig_render(dc, &out, &len)) {
		if (len != size || memcmp(out, data, size))
			abort();	/* the model lost bytes */
		free(out);
	}
	edits(dc, data, size);
	st_defconfig_free(dc);
	return 0;
}
