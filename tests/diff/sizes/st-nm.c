// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test helper: print what lib/elf makes of a file in the layout of GNU nm,
 * so tests/diff/sizes can compare it with the real nm line by line.
 *   st-nm --size-sort FILE   like `nm --size-sort FILE` (order: by size, name)
 *   st-nm FILE               "letter name" for each symbol plain nm lists
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "elf/elf.h"

static const struct st_elf_obj *cur;

static int by_size(const void *a, const void *b)
{
	const struct st_sym *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void list(const struct st_elf_file *f, const struct st_elf_obj *o, int sized)
{
	struct st_sym *v = malloc((o->nsyms + 1) * sizeof(*v));
	int w = o->elfclass == 2 ? 16 : 8;
	size_t i, n = 0;

	cur = o;
	for (i = 0; i < o->nsyms; i++)
		if (o->syms[i].flags & (sized ? ST_SYM_SIZED : ST_SYM_NM))
			v[n++] = o->syms[i];
	if (sized)
		qsort(v, n, sizeof(*v), by_size);
	if (f->archive)
		printf("\n%s:\n", o->name);
	for (i = 0; i < n; i++) {
		if (sized)
			printf("%0*llx %c %s\n", w, (unsigned long long)v[i].size, v[i].type, v[i].name);
		else
			printf("%c %s\n", v[i].type, v[i].name);
	}
	free(v);
}

int main(int argc, char **argv)
{
	struct st_error e = { 0 };
	struct st_elf_file *f;
	int sized = argc > 2 && !strcmp(argv[1], "--size-sort");
	size_t i;

	if (argc < 2 || st_elf_open(&f, argv[argc - 1], &e)) {
		fprintf(stderr, "st-nm: %s: %s\n", e.file, e.msg);
		return 2;
	}
	for (i = 0; i < f->nobjs; i++)
		list(f, &f->objs[i], sized);
	st_elf_close(f);
	return 0;
}
