// SPDX-License-Identifier: GPL-2.0-only
/*
 * Renderers of a struct st_size_diff: the exact text of bloat-o-meter, and
 * JSON. They only format; st_size_diff() computed everything.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "sizes/size_diff.h"
#include "st_config.h"

/*
 * Python pads "%-40s" by code points: the bytes that start a character,
 * that is all but the UTF-8 continuation bytes (10xxxxxx), counted a word
 * at a time over the @len bytes of @s.
 */
static size_t text_width(const char *s, size_t len)
{
	const uint64_t high = 0x8080808080808080ull;
	size_t w = len, i;
	uint64_t x;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&x, s + i, 8);
		w -= __builtin_popcountll(x & ~(x << 1) & high);
	}
	for (; i < len; i++)
		w -= ((unsigned char)s[i] & 0xc0) == 0x80;
	return w;
}

static void put_padded(FILE *f, const char *s, size_t width)
{
	static const char blanks[] = "                                        ";
	size_t len = strlen(s), w;

	fwrite(s, 1, len, f);
	/* a code point is at most 4 bytes: a long name needs no width */
	if (len >= 4 * width)
		return;
	w = text_width(s, len);
	if (w < width)
		fwrite(blanks, 1, width - w, f);
}

/* " %7s" of a number, or of "-" when @have is false, into @p; returns the end. */
static char *col7(char *p, bool have, st_sd_int v, bool plus)
{
	char num[48];
	size_t l;

	if (!have) {
		strcpy(num, "-");
	} else {
		num[0] = '+';
		st_sd_int_str(num + (plus && v > 0), v);
	}
	l = strlen(num);
	*p++ = ' ';
	for (; l < 7; l++)
		*p++ = ' ';
	strcpy(p, num);
	return p + strlen(num);
}

static void print_table(FILE *f, const struct st_sd_table *t)
{
	char a[48], b[48], d[48], u[48], n[48];
	st_sd_int pct_num = t->new_total - t->old_total;
	double pct = 0;
	size_t i;

	fprintf(f, "add/remove: %lu/%lu grow/shrink: %lu/%lu up/down: %s/%s (%s)\n",
		t->add, t->remove, t->grow, t->shrink, st_sd_int_str(u, t->up),
		st_sd_int_str(d, -t->down), st_sd_int_str(n, t->up - t->down));
	put_padded(f, t->title, 40);
	fprintf(f, " %7s %7s %7s\n", "old", "new", "delta");
	for (i = 0; i < t->nrows; i++) {
		const struct st_sd_row *r = &t->rows[i];
		char line[320], *p = line;
		size_t len;

		/* the rows are in delta order, their names anywhere in memory */
		if (i + 8 < t->nrows)
			__builtin_prefetch(t->rows[i + 8].name);
		len = strlen(r->name);
		if (len <= 160) {
			/* the whole line in one buffer, one fwrite() */
			size_t w = len < 160 ? text_width(r->name, len) : 40;

			memcpy(p, r->name, len);
			p += len;
			for (; w < 40; w++)
				*p++ = ' ';
		} else {
			put_padded(f, r->name, 40);
		}
		p = col7(p, r->in_old, r->old_size, false);
		p = col7(p, r->in_new, r->new_size, false);
		p = col7(p, true, r->delta, true);
		*p++ = '\n';
		fwrite(line, 1, p - line, f);
	}
	/* Python: (ntot - otot) * 100.0 / otot, each int converted to a double */
	if (t->old_total)
		pct = (double)pct_num * 100.0 / (double)t->old_total;
	fprintf(f, "Total: Before=%s, After=%s, chg %+.2f%%\n",
		st_sd_int_str(a, t->old_total), st_sd_int_str(b, t->new_total), pct);
}

static int print_text(FILE *f, const struct st_size_diff *res)
{
	size_t i;

	for (i = 0; i < res->ntables; i++)
		print_table(f, &res->tables[i]);
	return ferror(f) ? -EIO : 0;
}

static const char *mode_name(enum st_sd_mode m)
{
	switch (m) {
	case ST_SD_CATEGORIES:
		return "categories";
	case ST_SD_DATA:
		return "data";
	case ST_SD_TEXT:
		return "text";
	default:
		return "default";
	}
}

static cJSON *num(st_sd_int v)
{
	return cJSON_CreateNumber((double)v);
}

static cJSON *table_json(const struct st_sd_table *t)
{
	cJSON *o = cJSON_CreateObject(), *rows, *tot;
	size_t i;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "class", t->title);
	cJSON_AddStringToObject(o, "types", t->letters);
	cJSON_AddNumberToObject(o, "add", t->add);
	cJSON_AddNumberToObject(o, "remove", t->remove);
	cJSON_AddNumberToObject(o, "grow", t->grow);
	cJSON_AddNumberToObject(o, "shrink", t->shrink);
	cJSON_AddItemToObject(o, "up", num(t->up));
	cJSON_AddItemToObject(o, "down", num(-t->down));
	cJSON_AddItemToObject(o, "net", num(t->up - t->down));
	rows = cJSON_AddArrayToObject(o, "symbols");
	tot = cJSON_AddObjectToObject(o, "total");
	if (!rows || !tot) {
		cJSON_Delete(o);
		return NULL;
	}
	for (i = 0; i < t->nrows; i++) {
		const struct st_sd_row *r = &t->rows[i];
		cJSON *s = cJSON_CreateObject();
		char types[16];

		if (!s) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddItemToArray(rows, s);
		cJSON_AddStringToObject(s, "name", r->name);
		cJSON_AddStringToObject(s, "type", st_sd_row_types(r, types));
		cJSON_AddItemToObject(s, "old", r->in_old ? num(r->old_size) : cJSON_CreateNull());
		cJSON_AddItemToObject(s, "new", r->in_new ? num(r->new_size) : cJSON_CreateNull());
		cJSON_AddItemToObject(s, "delta", num(r->delta));
	}
	cJSON_AddItemToObject(tot, "before", num(t->old_total));
	cJSON_AddItemToObject(tot, "after", num(t->new_total));
	cJSON_AddNumberToObject(tot, "change_percent", t->old_total ?
		(double)(t->new_total - t->old_total) * 100.0 / (double)t->old_total : 0.0);
	return o;
}

cJSON *st_size_diff_to_json(const struct st_size_diff *res)
{
	cJSON *root = cJSON_CreateObject(), *tabs;
	size_t i;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "version", ST_VERSION);
	cJSON_AddStringToObject(root, "old", res->oldname ? res->oldname : "");
	cJSON_AddStringToObject(root, "new", res->newname ? res->newname : "");
	cJSON_AddStringToObject(root, "mode", mode_name(res->mode));
	cJSON_AddBoolToObject(root, "changed", st_size_diff_changed(res));
	tabs = cJSON_AddArrayToObject(root, "tables");
	for (i = 0; tabs && i < res->ntables; i++) {
		cJSON *t = table_json(&res->tables[i]);

		if (!t) {
			tabs = NULL;
			break;
		}
		cJSON_AddItemToArray(tabs, t);
	}
	if (!tabs) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int st_size_diff_render(FILE *f, const struct st_size_diff *res, const struct st_render_opts *o)
{
	switch (o->format) {
	case ST_FORMAT_TEXT:
		return print_text(f, res);
	case ST_FORMAT_JSON:
		return st_json_print(f, st_size_diff_to_json(res), o->pretty);
	default:
		return -ENOTSUP;
	}
}
