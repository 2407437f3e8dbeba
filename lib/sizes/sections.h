/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_SIZES_SECTIONS_H
#define ST_SIZES_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/render.h"

struct cJSON;

struct st_elf_file;
struct st_elf_obj;
struct st_section;
struct st_error;

/*
 * GNU size 2.40 over lib/elf section arrays: the Berkeley split (allocated
 * code or read-only -> text, other allocated contents -> data, the rest
 * -> bss) and the SysV list. Pointers point into the st_elf_files, which
 * must stay open while the result is used.
 */
enum st_size_format {
	ST_SIZE_BERKELEY,	/* size -B: read-only data counts as text */
	ST_SIZE_SYSV,		/* size -A: one line per section */
	ST_SIZE_GNU,		/* size -G: text is code only */
};

/* What `size` was asked for: -A/-B/-G, -o/-d/-x, --common, -t. */
struct st_size_opts {
	enum st_size_format format;
	int radix;		/* 8, 10 or 16 */
	bool common;		/* --common: *COM* symbols count as bss */
	bool totals;		/* -t (not for sysv) */
};

struct st_size_obj {
	const char *name;	/* object or member name as size prints it */
	const char *archive;	/* archive path for members, else NULL */
	uint64_t text, data, bss;	/* bss includes common when asked */
	uint64_t common;	/* sizes of *COM* symbols, with --common only */
	const struct st_elf_obj *obj;
};

struct st_size_result {
	struct st_size_obj *objs;
	size_t nobjs;
	uint64_t text, data, bss;	/* totals over all objects */
	struct st_size_opts opts;	/* computed with, and printed with */
};

/*
 * Split each object's allocated sections the way @o->format does; with
 * @o->common the objects must have been read with their symbols.
 */
int st_size_compute_opts(struct st_elf_file *const *files, size_t nfiles,
			 const struct st_size_opts *o, struct st_size_result *res,
			 struct st_error *e);
/* Berkeley, no --common. */
int st_size_compute(struct st_elf_file *const *files, size_t nfiles,
		    struct st_size_result *res, struct st_error *e);
void st_size_free(struct st_size_result *res);
/* Whether `size -A` lists the section. */
bool st_size_sysv_listed(const struct st_section *s);

/*
 * Text byte-identical to GNU size 2.40 with the options @res was computed
 * with (res->opts), or the JSON of every object and the totals
 * (common/render.h).
 */
int st_size_render(FILE *f, const struct st_size_result *res, const struct st_render_opts *o);
struct cJSON *st_size_to_json(const struct st_size_result *res);

#endif
