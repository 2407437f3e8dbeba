// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the client's parsing of kconfig/st_kconfig.py's JSON
 * replies (the bytes of one reply line). Whatever the bytes, the parser
 * must return a result or an error, and a result must be usable.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "kconfig/kconfig_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_kc_result *r = NULL;
	struct st_error e = { 0 };
	size_t i, n = 0;

	if (st_kc_reply_parse((const char *)data, size, &r, &e)) {
		/* An error always says something. */
		if (!e.msg[0] && e.code)
			abort();
		return 0;
	}
	for (i = 0; i < r->nr_findings; i++)
		n += strlen(r->findings[i].sym) + strlen(r->findings[i].message) +
		     strlen(r->findings[i].detail) +
		     strlen(st_kc_kind_name(r->findings[i].kind)) +
		     strlen(st_kc_cause_name(r->findings[i].cause));
	for (i = 0; i < r->nr_config; i++)
		if (st_kc_result_value(r, r->config[i].name) == NULL)
			abort();	/* every entry can be looked up */
	for (i = 0; i < r->nr_fixes; i++)
		n += strlen(r->fixes[i].line_text) + strlen(r->fixes[i].reason);
	st_kc_result_free(r);
	return n == (size_t)-1;
}
