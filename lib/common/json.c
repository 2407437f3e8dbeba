// SPDX-License-Identifier: GPL-2.0-only
/* The one printer of the JSON documents the commands write. */
#include <errno.h>

#include "common/json.h"

cJSON *st_json_add_str_or_null(cJSON *o, const char *key, const char *s)
{
	return s ? cJSON_AddStringToObject(o, key, s) : cJSON_AddNullToObject(o, key);
}

int st_json_print(FILE *f, cJSON *root, bool pretty)
{
	char *s = NULL;
	int ret = 0;

	if (root)
		s = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!s)
		return -ENOMEM;
	if (fputs(s, f) == EOF || putc('\n', f) == EOF || ferror(f))
		ret = -EIO;
	cJSON_free(s);
	return ret;
}
