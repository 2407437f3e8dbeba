// SPDX-License-Identifier: GPL-2.0-only
/*
 * binutils size: computation and its two text layouts plus JSON.
 */
#include <cjson/cJSON.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/json.h"
#include "elf/elf.h"
#include "sizes/sections.h"
#include "st_config.h"

bool st_size_sysv_listed(const struct st_section *s)
{
	return (s->flags & ST_SEC_BFD) && !(s->flags & ST_SEC_NOFLAGS);
}

/*
 * Allocated sections only: code is text; in the Berkeley layout read-only
 * sections are text too; the rest is data when it has contents, else bss.
 */
static void split(struct st_size_obj *so, enum st_size_format fmt)
{
	const struct st_elf_obj *o = so->obj;
	size_t i;

	for (i = 0; i < o->nsecs; i++) {
		const struct st_section *s = &o->secs[i];

		if (!(s->flags & ST_SEC_BFD) || !(s->flags & ST_SEC_ALLOC))
			continue;
		if ((s->flags & ST_SEC_CODE) ||
		    (fmt == ST_SIZE_BERKELEY && (s->flags & ST_SEC_READONLY)))
			so->text += s->size;
		else if (s->flags & ST_SEC_CONTENTS)
			so->data += s->size;
		else
			so->bss += s->size;
	}
}

/*
 * --common: the sizes of common symbols, counted only in relocatable
 * objects that have symbols (binutils skips executables and shared
 * objects). Sums wrap as binutils' 64-bit counters do.
 */
static uint64_t common_size(const struct st_elf_obj *o)
{
	uint64_t n = 0;
	size_t i;

	if (o->etype == ET_EXEC || o->etype == ET_DYN || !o->has_symtab)
		return 0;
	for (i = 0; i < o->nsyms; i++)
		if ((o->syms[i].flags & ST_SYM_COMMON) && o->syms[i].stt != STT_SECTION)
			n += o->syms[i].size;
	return n;
}

int st_size_compute_opts(struct st_elf_file *const *files, size_t nfiles,
			 const struct st_size_opts *o, struct st_size_result *res,
			 struct st_error *e)
{
	size_t i, j, n = 0;

	memset(res, 0, sizeof(*res));
	res->opts = *o;
	for (i = 0; i < nfiles; i++)
		n += files[i]->nobjs;
	res->objs = calloc(n ? n : 1, sizeof(*res->objs));
	if (!res->objs)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; i < nfiles; i++) {
		for (j = 0; j < files[i]->nobjs; j++) {
			struct st_size_obj *so = &res->objs[res->nobjs++];

			so->obj = &files[i]->objs[j];
			so->name = so->obj->name;
			so->archive = files[i]->archive ? files[i]->path : NULL;
			split(so, o->format);
			if (o->common) {
				so->common = common_size(so->obj);
				so->bss += so->common;
			}
			res->text += so->text;
			res->data += so->data;
			res->bss += so->bss;
		}
	}
	return 0;
}

int st_size_compute(struct st_elf_file *const *files, size_t nfiles,
		    struct st_size_result *res, struct st_error *e)
{
	static const struct st_size_opts o = { .format = ST_SIZE_BERKELEY, .radix = 10 };

	return st_size_compute_opts(files, nfiles, &o, res, e);
}

void st_size_free(struct st_size_result *res)
{
	if (!res)
		return;
	free(res->objs);
	memset(res, 0, sizeof(*res));
}

/* A number as size prints it in @radix: 123, 0173 or 0x7b. */
static int fmt_num(char *buf, size_t n, int radix, uint64_t v)
{
	if (radix == 8)
		return snprintf(buf, n, "0%" PRIo64, v);
	if (radix == 16)
		return snprintf(buf, n, "0x%" PRIx64, v);
	return snprintf(buf, n, "%" PRIu64, v);
}

static void put_num(FILE *f, int width, int radix, uint64_t v)
{
	char buf[32];

	fmt_num(buf, sizeof(buf), radix, v);
	fprintf(f, "%*s", width, buf);
}

static void line(FILE *f, const struct st_size_opts *o, uint64_t t, uint64_t d, uint64_t b)
{
	uint64_t tot = t + d + b;

	if (o->format == ST_SIZE_GNU) {
		put_num(f, 10, o->radix, t);
		putc(' ', f);
		put_num(f, 10, o->radix, d);
		putc(' ', f);
		put_num(f, 10, o->radix, b);
		putc(' ', f);
		put_num(f, 10, o->radix, tot);
		putc(' ', f);
		return;
	}
	put_num(f, 7, o->radix, t);
	putc('\t', f);
	put_num(f, 7, o->radix, d);
	putc('\t', f);
	put_num(f, 7, o->radix, b);
	/* the sum in octal or decimal, without prefix, then always hex */
	if (o->radix == 8)
		fprintf(f, "\t%7" PRIo64 "\t%7" PRIx64 "\t", tot, tot);
	else
		fprintf(f, "\t%7" PRIu64 "\t%7" PRIx64 "\t", tot, tot);
}

static void print_bsd_gnu(FILE *f, const struct st_size_result *res, const struct st_size_opts *o)
{
	size_t i;

	for (i = 0; i < res->nobjs; i++) {
		const struct st_size_obj *so = &res->objs[i];

		if (i == 0 && o->format == ST_SIZE_GNU)
			fputs("      text       data        bss      total filename\n", f);
		else if (i == 0)
			fprintf(f, "   text\t   data\t    bss\t    %s\t    hex\tfilename\n",
				o->radix == 8 ? "oct" : "dec");
		line(f, o, so->text, so->data, so->bss);
		fputs(so->name, f);
		if (so->archive)
			fprintf(f, " (ex %s)", so->archive);
		putc('\n', f);
	}
	if (o->totals) {
		line(f, o, res->text, res->data, res->bss);
		fputs("(TOTALS)\n", f);
	}
}

static void sysv_one(FILE *f, const struct st_size_obj *so, const struct st_size_opts *o)
{
	const struct st_elf_obj *obj = so->obj;
	uint64_t total = 0, maxvma = 0;
	int namelen = 0, sizelen, vmalen;
	char buf[32];
	size_t i;

	for (i = 0; i < obj->nsecs; i++) {
		const struct st_section *s = &obj->secs[i];
		int l;

		if (!st_size_sysv_listed(s))
			continue;
		l = (int)strlen(s->name);
		if (l > namelen)
			namelen = l;
		total += s->size;
		if (s->addr > maxvma)
			maxvma = s->addr;
	}
	if (o->common) {
		total += so->common;
		if (namelen < 5)
			namelen = 5;	/* "*COM*" */
	}
	vmalen = fmt_num(buf, sizeof(buf), o->radix, maxvma);
	if (vmalen < 4)
		vmalen = 4;
	sizelen = fmt_num(buf, sizeof(buf), o->radix, total);
	if (sizelen < 4)
		sizelen = 4;
	fprintf(f, "%s  ", so->name);
	if (so->archive)
		fprintf(f, " (ex %s)", so->archive);
	fprintf(f, ":\n%-*s   %*s   %*s\n", namelen, "section", sizelen, "size", vmalen, "addr");
	for (i = 0; i < obj->nsecs; i++) {
		const struct st_section *s = &obj->secs[i];

		if (!st_size_sysv_listed(s))
			continue;
		fprintf(f, "%-*s   ", namelen, s->name);
		put_num(f, sizelen, o->radix, s->size);
		fputs("   ", f);
		put_num(f, vmalen, o->radix, s->addr);
		putc('\n', f);
	}
	if (o->common) {
		fprintf(f, "%-*s   ", namelen, "*COM*");
		put_num(f, sizelen, o->radix, so->common);
		fputs("   ", f);
		put_num(f, vmalen, o->radix, 0);
		putc('\n', f);
	}
	fprintf(f, "%-*s   ", namelen, "Total");
	put_num(f, sizelen, o->radix, total);
	fputs("\n\n\n", f);
}

static int print_text(FILE *f, const struct st_size_result *res)
{
	const struct st_size_opts *o = &res->opts;
	size_t i;

	if (o->format == ST_SIZE_SYSV) {
		for (i = 0; i < res->nobjs; i++)
			sysv_one(f, &res->objs[i], o);
	} else {
		print_bsd_gnu(f, res, o);
	}
	return ferror(f) ? -EIO : 0;
}

static cJSON *obj_json(const struct st_size_obj *so)
{
	const struct st_elf_obj *o = so->obj;
	cJSON *j = cJSON_CreateObject(), *secs;
	size_t i;

	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "name", so->name);
	if (so->archive)
		cJSON_AddStringToObject(j, "archive", so->archive);
	else
		cJSON_AddNullToObject(j, "archive");
	cJSON_AddNumberToObject(j, "text", (double)so->text);
	cJSON_AddNumberToObject(j, "data", (double)so->data);
	cJSON_AddNumberToObject(j, "bss", (double)so->bss);
	cJSON_AddNumberToObject(j, "total", (double)(so->text + so->data + so->bss));
	secs = cJSON_AddArrayToObject(j, "sections");
	for (i = 0; secs && i < o->nsecs; i++) {
		const struct st_section *s = &o->secs[i];
		cJSON *sj;

		if (!st_size_sysv_listed(s))
			continue;
		sj = cJSON_CreateObject();
		if (!sj) {
			secs = NULL;
			break;
		}
		cJSON_AddItemToArray(secs, sj);
		cJSON_AddStringToObject(sj, "name", s->name);
		cJSON_AddNumberToObject(sj, "size", (double)s->size);
		cJSON_AddNumberToObject(sj, "addr", (double)s->addr);
	}
	if (!secs) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

cJSON *st_size_to_json(const struct st_size_result *res)
{
	cJSON *root = cJSON_CreateObject(), *objs, *tot;
	size_t i;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "version", ST_VERSION);
	objs = cJSON_AddArrayToObject(root, "objects");
	tot = cJSON_AddObjectToObject(root, "totals");
	for (i = 0; objs && i < res->nobjs; i++) {
		cJSON *o = obj_json(&res->objs[i]);

		if (!o) {
			objs = NULL;
			break;
		}
		cJSON_AddItemToArray(objs, o);
	}
	if (tot) {
		cJSON_AddNumberToObject(tot, "text", (double)res->text);
		cJSON_AddNumberToObject(tot, "data", (double)res->data);
		cJSON_AddNumberToObject(tot, "bss", (double)res->bss);
		cJSON_AddNumberToObject(tot, "total", (double)(res->text + res->data + res->bss));
	}
	if (!objs || !tot) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int st_size_render(FILE *f, const struct st_size_result *res, const struct st_render_opts *o)
{
	switch (o->format) {
	case ST_FORMAT_TEXT:
		return print_text(f, res);
	case ST_FORMAT_JSON:
		return st_json_print(f, st_size_to_json(res), o->pretty);
	default:
		return -ENOTSUP;
	}
}
