// SPDX-License-Identifier: GPL-2.0-only
/* slubtiny size-diff: bloat-o-meter without nm. */
#include <getopt.h>
#include <stdlib.h>

#include "cli.h"
#include "common/error.h"
#include "elf/elf.h"
#include "sizes/size_diff.h"

struct feed {
	struct st_size_diff *res;
	bool new;
	struct st_error *e;
};

/* Each object goes into the diff as it is read, and is then freed. */
static int feed(const struct st_elf_file *f, const struct st_elf_obj *o, void *ctx)
{
	struct feed *fd = ctx;

	return st_size_diff_feed(fd->res, o, fd->new, f->path, fd->e);
}

static void print_warnings(const struct st_elf_file *f)
{
	size_t i;

	for (i = 0; f && i < f->nwarnings; i++)
		p_err("%s", f->warnings[i]);
}

int cmd_size_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "exit-code", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum st_sd_mode mode = ST_SD_DEFAULT;
	struct st_elf_file *oldf = NULL, *newf = NULL;
	struct st_size_diff res;
	struct st_error e = { 0 };
	bool exit_code = false;
	int c, nmodes = 0, ret;

	if (st_wants_help(argc, argv, "size-diff"))
		return ST_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "cdtp:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			mode = ST_SD_CATEGORIES, nmodes++;
			break;
		case 'd':
			mode = ST_SD_DATA, nmodes++;
			break;
		case 't':
			mode = ST_SD_TEXT, nmodes++;
			break;
		case 'p':
			break;	/* cross prefix for nm: nothing to run here */
		case 'j':
			st_out.json = true;
			break;
		case 'x':
			exit_code = true;
			break;
		default:
			p_err("size-diff: unknown option '%s'; see 'slubtiny size-diff --help'", argv[optind - 1]);
			return ST_EXIT_ERROR;
		}
	}
	if (nmodes > 1) {
		p_err("size-diff: -c, -d and -t are mutually exclusive");
		return ST_EXIT_ERROR;
	}
	if (argc - optind != 2) {
		p_err("size-diff: expected OLD and NEW files; see 'slubtiny size-diff --help'");
		return ST_EXIT_ERROR;
	}
	/* names are copied into the result: memory follows the symbol count */
	ret = st_size_diff_begin(&res, mode, 0, true, &e);
	if (!ret) {
		struct feed fo = { &res, false, &e }, fn = { &res, true, &e };

		ret = st_elf_scan(&oldf, argv[optind], 0, feed, &fo, &e);
		if (!ret)
			ret = st_elf_scan(&newf, argv[optind + 1], 0, feed, &fn, &e);
		if (!ret)
			ret = st_size_diff_end(&res, &e);
		else
			st_size_diff_free(&res);
	}
	/* members that are not ELF: nm warns and bloat-o-meter compares the rest */
	print_warnings(oldf);
	print_warnings(newf);
	if (ret) {
		p_lib_err(&e, NULL, ret);
		st_elf_close(oldf);
		st_elf_close(newf);
		return ST_EXIT_ERROR;
	}
	if (st_out.json)
		ret = st_size_diff_print_json(stdout, &res, argv[optind], argv[optind + 1], st_out.pretty);
	else
		ret = st_size_diff_print_text(stdout, &res);
	c = exit_code && st_size_diff_changed(&res) ? ST_EXIT_FINDINGS : ST_EXIT_OK;
	st_size_diff_free(&res);
	st_elf_close(oldf);
	st_elf_close(newf);
	return ret ? ST_EXIT_ERROR : c;
}
