/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_JSON_H
#define ST_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/*
 * Print @root to @f, on one line or indented (@pretty), with a newline, and
 * delete it. NULL @root stands for a tree that could not be built. Returns
 * 0, -ENOMEM, or -EIO when @f reports a write error: every --json output
 * goes through here.
 */
int st_json_print(FILE *f, cJSON *root, bool pretty);

/*
 * st_json_print() of a document with one long array, without holding it:
 * @root has st_json_stream_mark() where the array goes; its @n elements
 * are made by @item (NULL: no memory) one at a time, printed and deleted.
 * The bytes are those of st_json_print() of the whole tree. A check with
 * a hundred thousand findings held ten times their size as cJSON nodes.
 */
cJSON *st_json_stream_mark(void);
int st_json_print_stream(FILE *f, cJSON *root, size_t n,
			 cJSON *(*item)(const void *ctx, size_t i), const void *ctx,
			 bool pretty);

/* Add @s to @o under @key, or null when @s is NULL: the item, NULL without memory. */
cJSON *st_json_add_str_or_null(cJSON *o, const char *key, const char *s);

#endif
