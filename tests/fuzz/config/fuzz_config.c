// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the .slubtiny.json parser on its own (fuzz-check reaches it only
 * through one input in three): the whole input is the settings file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "common/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_error e = { 0 };
	struct st_check_config c;
	int err;

	err = st_check_config_parse(&c, (const char *)data, size, "fuzz/.slubtiny.json", &e);
	/* every refusal names the file */
	if (err && (!e.code || strncmp(e.file, "fuzz/", 5)))
		abort();
	st_check_config_free(&c);
	return 0;
}
