// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the parsers of `slubtiny check` that read user text: suppression
 * comments (line by line, and through a whole defconfig so that the
 * per-line bookkeeping runs), .slubtiny.json and the budget file. The first
 * byte picks the parser.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check/check.h"
#include "common/error.h"
#include "defconfig/defconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_defconfig(const char *buf, size_t len)
{
	struct st_check_result r;
	struct st_check_opts o;
	struct st_defconfig *dc;
	const char *p = buf, *end = buf + len, *nl;
	struct st_supp s;

	/* every line on its own, without a terminating NUL */
	while (p < end) {
		nl = memchr(p, '\n', end - p);
		st_check_parse_suppression(&s, p, (nl ? nl : end) - p);
		p = nl ? nl + 1 : end;
	}
	if (st_defconfig_parse(&dc, buf, len, "fuzz_defconfig", NULL))
		return;
	st_check_result_init(&r);
	st_check_opts_init(&o);
	st_check_defconfig(&r, dc, "fuzz_defconfig", &o);
	st_check_apply_suppressions(&r, 0, dc);
	st_check_sort(&r);
	st_check_result_free(&r);
	st_defconfig_free(dc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_error e = { 0 };
	struct st_check_config c;
	struct st_budget b;

	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		one_defconfig((const char *)data + 1, size - 1);
		break;
	case 1:
		st_check_config_parse(&c, (const char *)data + 1, size - 1, "fuzz/.slubtiny.json", &e);
		st_check_config_free(&c);
		break;
	case 2:
		st_budget_parse(&b, (const char *)data + 1, size - 1, "fuzz/budget.json", &e);
		st_budget_free(&b);
		break;
	}
	return 0;
}
