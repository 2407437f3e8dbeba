// SPDX-License-Identifier: GPL-2.0-only
/* slubtiny size: binutils size without binutils. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/error.h"
#include "elf/elf.h"
#include "sizes/sections.h"

enum { OPT_FORMAT = ST_OPT_ID, OPT_RADIX, OPT_COMMON };

const struct st_opt st_size_opts[] = {
	{ NULL, 'A', 'A', NULL, "SysV format: one line per section" },
	{ NULL, 'B', 'B', NULL, "Berkeley format (the default): text, data, bss per file" },
	{ NULL, 'G', 'G', NULL, "GNU format" },
	{ "format", 0, OPT_FORMAT, "{berkeley|sysv|gnu}", "the format by name" },
	{ NULL, 'd', 'd', NULL, "sizes in decimal (the default)" },
	{ NULL, 'o', 'o', NULL, "sizes in octal" },
	{ NULL, 'x', 'x', NULL, "sizes in hexadecimal" },
	{ "radix", 0, OPT_RADIX, "{8|10|16}", "the radix by number" },
	{ "common", 0, OPT_COMMON, NULL, "count common symbols in bss" },
	{ "totals", 't', 't', NULL, "add a TOTALS line (Berkeley and GNU formats)" },
	{ NULL, 'f', 'f', NULL, "ignored, as by GNU size" },
	ST_OPT_ROW_JSON,
	ST_OPT_END,
};

const struct st_example st_size_examples[] = {
	{ "slubtiny size vmlinux mm/slub.o", "text, data, bss of each file, as GNU size prints them" },
	{ "slubtiny size -A mm/slub.o", "every section with its size and address" },
	{ NULL, NULL },
};

/* --format=WORD: binutils looks at the first letter only. */
static int parse_format(const char *s, enum st_size_format *fmt)
{
	switch (s[0]) {
	case 'B':
	case 'b':
		*fmt = ST_SIZE_BERKELEY;
		return 0;
	case 'S':
	case 's':
		*fmt = ST_SIZE_SYSV;
		return 0;
	case 'G':
	case 'g':
		*fmt = ST_SIZE_GNU;
		return 0;
	}
	p_err("size: invalid argument to --format: %s (berkeley, sysv or gnu)", s);
	return -1;
}

static int parse_radix(const char *s, int *radix)
{
	if (!strcmp(s, "8") || !strcmp(s, "10") || !strcmp(s, "16")) {
		*radix = atoi(s);
		return 0;
	}
	p_err("size: invalid radix: %s (8, 10 or 16)", s);
	return -1;
}

/* Print what was skipped (non-ELF archive members); true if anything was. */
static bool print_warnings(struct st_elf_file **files, int n)
{
	bool any = false;
	size_t j;
	int i;

	for (i = 0; i < n; i++) {
		for (j = 0; files[i] && j < files[i]->nwarnings; j++) {
			p_err("%s", files[i]->warnings[j]);
			any = true;
		}
	}
	return any;
}

int cmd_size(int argc, char **argv)
{
	static char *aout[] = { "a.out" };
	struct st_size_opts so = { .format = ST_SIZE_BERKELEY, .radix = 10 };
	struct st_elf_file **files;
	struct st_size_result res;
	struct st_error e = { 0 };
	char **paths;
	bool skipped;
	int c, i, n, ret = 0;

	while ((c = st_getopt(argc, argv, "size", st_size_opts)) >= 0) {
		switch (c) {
		case 'A':
			so.format = ST_SIZE_SYSV;
			break;
		case 'B':
			so.format = ST_SIZE_BERKELEY;
			break;
		case 'G':
			so.format = ST_SIZE_GNU;
			break;
		case OPT_FORMAT:
			if (parse_format(optarg, &so.format))
				return ST_EXIT_ERROR;
			break;
		case 'd':
			so.radix = 10;
			break;
		case 'o':
			so.radix = 8;
			break;
		case 'x':
			so.radix = 16;
			break;
		case OPT_RADIX:
			if (parse_radix(optarg, &so.radix))
				return ST_EXIT_ERROR;
			break;
		case OPT_COMMON:
			so.common = true;
			break;
		case 't':
			so.totals = true;
			break;
		case 'f':
			break;	/* ignored, as by binutils */

		}
	}
	if (c != ST_OPT_DONE)
		return c == ST_OPT_HELP ? ST_EXIT_OK : ST_EXIT_ERROR;
	/* -t is for the Berkeley and GNU layouts only */
	if (so.format == ST_SIZE_SYSV)
		so.totals = false;
	n = argc - optind;
	paths = argv + optind;
	if (n < 1) {
		/* like binutils: no FILE means a.out */
		n = 1;
		paths = aout;
	}
	files = calloc(n, sizeof(*files));
	if (!files) {
		p_err("size: out of memory");
		return ST_EXIT_ERROR;
	}
	/* Read everything first: an error must not leave half a table on stdout. */
	for (i = 0; i < n && !ret; i++)
		ret = st_elf_open_flags(&files[i], paths[i], so.common ? 0 : ST_ELF_NO_SYMBOLS, &e);
	if (!ret)
		ret = st_size_compute_opts(files, n, &so, &res, &e);
	skipped = print_warnings(files, n);
	if (ret) {
		p_lib_err(&e, NULL, ret);
	} else {
		st_out.json_done = st_out.json;
		if (st_out.json)
			ret = st_size_print_json(stdout, &res, st_out.pretty);
		else
			ret = st_size_print(stdout, &res, &so);
		st_size_free(&res);
	}
	for (i = 0; i < n; i++)
		st_elf_close(files[i]);
	free(files);
	if (ret)
		return ST_EXIT_ERROR;
	/* GNU size exits non-zero after skipping a member it could not read */
	return skipped ? ST_EXIT_FINDINGS : ST_EXIT_OK;
}
