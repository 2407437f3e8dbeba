/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_SIZES_SECTIONS_H
#define ST_SIZES_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
struct st_size_obj {
	const char *name;	/* object or member name as size prints it */
	const char *archive;	/* archive path for members, else NULL */
	uint64_t text, data, bss;
	const struct st_elf_obj *obj;
};

struct st_size_result {
	struct st_size_obj *objs;
	size_t nobjs;
	uint64_t text, data, bss;	/* totals over all objects */
};

int st_size_compute(struct st_elf_file *const *files, size_t nfiles,
		    struct st_size_result *res, struct st_error *e);
void st_size_free(struct st_size_result *res);
/* Whether `size -A` lists the section. */
bool st_size_sysv_listed(const struct st_section *s);

/* Byte-identical to `size` (Berkeley, with -t the TOTALS line) and `size -A`. */
int st_size_print_berkeley(FILE *f, const struct st_size_result *res, bool totals);
int st_size_print_sysv(FILE *f, const struct st_size_result *res);
int st_size_print_json(FILE *f, const struct st_size_result *res, bool pretty);

#endif
