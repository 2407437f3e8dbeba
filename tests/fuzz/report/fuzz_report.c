// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz `slubtiny report --merge`: the input is up to four shard reports
 * (JSON) separated by 0xff bytes; a merged report is then rendered in every
 * format, so that hostile figures reach the renderers too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/error.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SHARDS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[MAX_SHARDS] = { "a.json", "b.json", "c.json", "d.json" };
	static const enum st_format formats[] = { ST_FORMAT_TEXT, ST_FORMAT_MARKDOWN,
						  ST_FORMAT_JSON, ST_FORMAT_HTML };
	char *texts[MAX_SHARDS] = { NULL };
	struct st_error e = { 0 };
	struct st_report *r = NULL;
	const uint8_t *p = data, *end = data + size, *sep;
	size_t n = 0, i;
	FILE *null;

	while (n < MAX_SHARDS && p <= end) {
		sep = memchr(p, 0xff, end - p);
		if (!sep)
			sep = end;
		texts[n] = malloc(sep - p + 1);
		if (!texts[n])
			goto out;
		memcpy(texts[n], p, sep - p);
		texts[n++][sep - p] = 0;
		p = sep + 1;
	}
	if (st_report_merge(&r, (const char *const *)texts, names, n, &e))
		goto out;
	null = fopen("/dev/null", "w");
	for (i = 0; null && i < ARRAY_SIZE(formats); i++) {
		struct st_render_opts o = { .format = formats[i], .pretty = true };

		st_report_render(null, r, &o);
	}
	if (null)
		fclose(null);
	st_report_free(r);
out:
	for (i = 0; i < n; i++)
		free(texts[i]);
	return 0;
}
