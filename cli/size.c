// SPDX-License-Identifier: GPL-2.0-only
/* slubtiny size: binutils size without binutils. */
#include <getopt.h>
#include <stdlib.h>

#include "cli.h"
#include "common/error.h"
#include "elf/elf.h"
#include "sizes/sections.h"

int cmd_size(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "totals", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct st_elf_file **files;
	struct st_size_result res;
	struct st_error e = { 0 };
	bool sysv = false, totals = false;
	int c, i, n, ret = 0;

	if (st_wants_help(argc, argv, "size"))
		return ST_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "At", opts, NULL)) != -1) {
		switch (c) {
		case 'A':
			sysv = true;
			break;
		case 't':
			totals = true;
			break;
		case 'j':
			st_out.json = true;
			break;
		default:
			p_err("size: unknown option '%s'; see 'slubtiny size --help'", argv[optind - 1]);
			return ST_EXIT_ERROR;
		}
	}
	n = argc - optind;
	if (n < 1) {
		p_err("size: expected at least one FILE; see 'slubtiny size --help'");
		return ST_EXIT_ERROR;
	}
	files = calloc(n, sizeof(*files));
	if (!files) {
		p_err("size: out of memory");
		return ST_EXIT_ERROR;
	}
	/* Read everything first: an error must not leave half a table on stdout. */
	for (i = 0; i < n && !ret; i++)
		ret = st_elf_open(&files[i], argv[optind + i], &e);
	if (!ret)
		ret = st_size_compute(files, n, &res, &e);
	if (ret) {
		p_lib_err(&e, NULL, ret);
	} else {
		if (st_out.json)
			ret = st_size_print_json(stdout, &res, st_out.pretty);
		else if (sysv)
			ret = st_size_print_sysv(stdout, &res);
		else
			ret = st_size_print_berkeley(stdout, &res, totals);
		st_size_free(&res);
	}
	for (i = 0; i < n; i++)
		st_elf_close(files[i]);
	free(files);
	return ret ? ST_EXIT_ERROR : ST_EXIT_OK;
}
