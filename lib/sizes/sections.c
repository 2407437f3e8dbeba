// SPDX-License-Identifier: GPL-2.0-only
/*
 * binutils size: computation and its two text layouts plus JSON.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "elf/elf.h"
#include "sizes/sections.h"

bool st_size_sysv_listed(const struct st_section *s)
{
	return (s->flags & ST_SEC_BFD) && !(s->flags & ST_SEC_NOFLAGS);
}

static void berkeley(struct st_size_obj *so)
{
	const struct st_elf_obj *o = so->obj;
	size_t i;

	for (i = 0; i < o->nsecs; i++) {
		const struct st_section *s = &o->secs[i];

		if (!(s->flags & ST_SEC_BFD) || !(s->flags & ST_SEC_ALLOC))
			continue;
		if (s->flags & (ST_SEC_CODE | ST_SEC_READONLY))
			so->text += s->size;
		else if (s->flags & ST_SEC_CONTENTS)
			so->data += s->size;
		else
			so->bss += s->size;
	}
}

int st_size_compute(struct st_elf_file *const *files, size_t nfiles,
		    struct st_size_result *res, struct st_error *e)
{
	size_t i, j, n = 0;

	memset(res, 0, sizeof(*res));
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
			berkeley(so);
			res->text += so->text;
			res->data += so->data;
			res->bss += so->bss;
		}
	}
	return 0;
}

void st_size_free(struct st_size_result *res)
{
	if (!res)
		return;
	free(res->objs);
	memset(res, 0, sizeof(*res));
}

static void berkeley_line(FILE *f, uint64_t t, uint64_t d, uint64_t b)
{
	uint64_t tot = t + d + b;

	fprintf(f, "%7" PRIu64 "\t%7" PRIu64 "\t%7" PRIu64 "\t%7" PRIu64 "\t%7" PRIx64 "\t",
		t, d, b, tot, tot);
}

int st_size_print_berkeley(FILE *f, const struct st_size_result *res, bool totals)
{
	size_t i;

	for (i = 0; i < res->nobjs; i++) {
		const struct st_size_obj *so = &res->objs[i];

		if (i == 0)
			fputs("   text\t   data\t    bss\t    dec\t    hex\tfilename\n", f);
		berkeley_line(f, so->text, so->data, so->bss);
		fputs(so->name, f);
		if (so->archive)
			fprintf(f, " (ex %s)", so->archive);
		putc('\n', f);
	}
	if (totals) {
		berkeley_line(f, res->text, res->data, res->bss);
		fputs("(TOTALS)\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static void sysv_one(FILE *f, const struct st_size_obj *so)
{
	const struct st_elf_obj *o = so->obj;
	uint64_t total = 0, maxvma = 0;
	int namelen = 0, sizelen, vmalen;
	size_t i;

	for (i = 0; i < o->nsecs; i++) {
		const struct st_section *s = &o->secs[i];
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
	vmalen = digits(maxvma);
	if (vmalen < 4)
		vmalen = 4;
	sizelen = digits(total);
	if (sizelen < 4)
		sizelen = 4;
	fprintf(f, "%s  ", so->name);
	if (so->archive)
		fprintf(f, " (ex %s)", so->archive);
	fprintf(f, ":\n%-*s   %*s   %*s\n", namelen, "section", sizelen, "size", vmalen, "addr");
	for (i = 0; i < o->nsecs; i++) {
		const struct st_section *s = &o->secs[i];

		if (!st_size_sysv_listed(s))
			continue;
		fprintf(f, "%-*s   %*" PRIu64 "   %*" PRIu64 "\n", namelen, s->name,
			sizelen, s->size, vmalen, s->addr);
	}
	fprintf(f, "%-*s   %*" PRIu64 "\n\n\n", namelen, "Total", sizelen, total);
}

int st_size_print_sysv(FILE *f, const struct st_size_result *res)
{
	size_t i;

	for (i = 0; i < res->nobjs; i++)
		sysv_one(f, &res->objs[i]);
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

int st_size_print_json(FILE *f, const struct st_size_result *res, bool pretty)
{
	cJSON *root = cJSON_CreateObject(), *objs, *tot;
	char *s;
	size_t i;
	int ret = 0;

	if (!root)
		return -ENOMEM;
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
	s = (objs && tot) ? (pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root)) : NULL;
	cJSON_Delete(root);
	if (!s)
		return -ENOMEM;
	if (fputs(s, f) == EOF || putc('\n', f) == EOF)
		ret = -EIO;
	cJSON_free(s);
	return ret;
}
