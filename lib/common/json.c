// SPDX-License-Identifier: GPL-2.0-only
/* The one printer of the JSON documents the commands write. */
#include <errno.h>
#include <string.h>

#include "common/json.h"

/* cJSON escapes every control character: this byte is nowhere else. */
#define STREAM_MARK	"\x01"

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

cJSON *st_json_stream_mark(void)
{
	return cJSON_CreateRaw(STREAM_MARK);
}

/* @s, printed alone, as it prints @tabs levels deeper: a tab more a line. */
static int put_indented(FILE *f, const char *s, int tabs)
{
	const char *nl;
	int i;

	while ((nl = strchr(s, '\n'))) {
		if (fwrite(s, 1, nl - s + 1, f) != (size_t)(nl - s + 1))
			return -EIO;
		for (i = 0; i < tabs; i++)
			putc('\t', f);
		s = nl + 1;
	}
	return fputs(s, f) == EOF ? -EIO : 0;
}

int st_json_print_stream(FILE *f, cJSON *root, size_t n,
			 cJSON *(*item)(const void *ctx, size_t i), const void *ctx,
			 bool pretty)
{
	char *s = NULL, *mark, *e;
	const char *p;
	int ret = 0, tabs = 0;
	size_t i;

	if (root)
		s = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	mark = s ? strstr(s, STREAM_MARK) : NULL;
	if (!mark) {
		cJSON_free(s);
		return -ENOMEM;
	}
	/* the key's line: its tabs, and one more for the array's level */
	for (p = mark; p > s && p[-1] != '\n'; p--)
		;
	while (pretty && *p == '\t' && p < mark) {
		tabs++;
		p++;
	}
	if (fwrite(s, 1, mark - s, f) != (size_t)(mark - s) || putc('[', f) == EOF)
		ret = -EIO;
	for (i = 0; !ret && i < n; i++) {
		cJSON *it = item(ctx, i);

		e = it ? (pretty ? cJSON_Print(it) : cJSON_PrintUnformatted(it)) : NULL;
		cJSON_Delete(it);
		if (!e) {
			ret = -ENOMEM;
			break;
		}
		if (i && fputs(pretty ? ", " : ",", f) == EOF)
			ret = -EIO;
		if (!ret)
			ret = put_indented(f, e, pretty ? tabs + 1 : 0);
		cJSON_free(e);
	}
	if (!ret && (putc(']', f) == EOF || fputs(mark + strlen(STREAM_MARK), f) == EOF ||
		     putc('\n', f) == EOF || ferror(f)))
		ret = -EIO;
	cJSON_free(s);
	return ret;
}
