// SPDX-License-Identifier: GPL-2.0-only
/*
 * merge-tool BASE FRAGMENT...: BASE with the fragments merged in order by
 * st_kernel_merge_fragment() (what `slubtiny kernel --config` does), on
 * stdout. The test compares it with the kernel's merge_config.sh -m.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "defconfig/defconfig.h"
#include "kernel/kernel.h"

int main(int argc, char **argv)
{
	struct st_defconfig *dc, *frag;
	struct st_error e = { 0 };
	char *out;
	size_t len;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: merge-tool BASE FRAGMENT...\n");
		return 2;
	}
	if (st_defconfig_load(&dc, argv[1], &e)) {
		fprintf(stderr, "merge-tool: %s: %s\n", argv[1], e.msg);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (st_defconfig_load(&frag, argv[i], &e)) {
			fprintf(stderr, "merge-tool: %s: %s\n", argv[i], e.msg);
			return 2;
		}
		if (st_kernel_merge_fragment(dc, frag)) {
			fprintf(stderr, "merge-tool: out of memory\n");
			return 2;
		}
		st_defconfig_free(frag);
	}
	if (st_defconfig_render(dc, &out, &len))
		return 2;
	fwrite(out, 1, len, stdout);
	free(out);
	st_defconfig_free(dc);
	return 0;
}
