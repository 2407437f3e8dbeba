// SPDX-License-Identifier: GPL-2.0-only
/* slubtiny size: binutils size without binutils. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/error.h"
#include "elf/elf.h"
#include "sizes/sections.h"
#include "st_config.h"

enum { OPT_RADIX = ST_OPT_ID, OPT_COMMON, OPT_TARGET };

const struct st_opt st_size_opts[] = {
	{ NULL, 'A', 'A', NULL, "SysV format: one line per section" },
	{ NULL, 'B', 'B', NULL, "Berkeley format (the default): text, data, bss per file" },
	{ NULL, 'G', 'G', NULL, "GNU format" },
	{ "format", 0, ST_OPT_FORMAT, "{text|json|berkeley|sysv|gnu}",
	  "output format: text (Berkeley's, the default), json, or binutils' by name" },
	{ NULL, 'd', 'd', NULL, "sizes in decimal (the default)" },
	{ NULL, 'o', 'o', NULL, "sizes in octal" },
	{ NULL, 'x', 'x', NULL, "sizes in hexadecimal" },
	{ "radix", 0, OPT_RADIX, "{8|10|16}", "the radix by number" },
	{ "common", 0, OPT_COMMON, NULL, "count common symbols in bss" },
	{ "totals", 't', 't', NULL, "add a TOTALS line (Berkeley and GNU formats)" },
	{ NULL, 'f', 'f', NULL, "ignored, as by GNU size" },
	{ "target", 0, OPT_TARGET, "BFDNAME", "an ELF target is accepted and ignored (read as it is)" },
	{ "version", 'V', 'V', NULL, "print the version and exit" },
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
	p_err("--format is text, json, berkeley, sysv or gnu, not '%s'", s);
	return -1;
}

static int parse_radix(const char *s, int *radix)
{
	if (!strcmp(s, "8") || !strcmp(s, "10") || !strcmp(s, "16")) {
		*radix = atoi(s);
		return 0;
	}
	p_err("invalid radix: %s (8, 10 or 16)", s);
	return -1;
}

/*
 * GNU size's exit status for a FILE it could not size: 3 when the file or a
 * member is in no format it knows, 2 for a malformed archive, 1 when the
 * file cannot be read at all.
 */
static int bad_file_status(int err)
{
	if (err == -ENOEXEC)
		return 3;
	if (err == -EBADMSG)
		return 2;
	return 1;
}

/* Print the members that were skipped; true if any was. */
static bool print_warnings(const struct st_elf_file *f)
{
	size_t j;

	for (j = 0; f && j < f->nwarnings; j++)
		p_err("%s", f->warnings[j]);
	return f && f->nwarnings;
}

/* --target=BFDNAME names an ELF target ("elf32-i386", "elf64-little"), or is absent. */
static bool elf_target(const char *target)
{
	return !target || !strncmp(target, "elf32-", 6) || !strncmp(target, "elf64-", 6);
}

/* The options into @so; ST_EXIT_* to return at once (help, version, a bad option), else -1. */
static int size_parse(int argc, char **argv, struct st_size_opts *so, const char **target)
{
	bool version = false;
	int c;

	while ((c = st_getopt(argc, argv, "size", st_size_opts)) >= 0) {
		switch (c) {
		case 'A':
			so->format = ST_SIZE_SYSV;
			break;
		case 'B':
			so->format = ST_SIZE_BERKELEY;
			break;
		case 'G':
			so->format = ST_SIZE_GNU;
			break;
		case ST_OPT_FORMAT:
			if (parse_format(optarg, &so->format))
				return ST_EXIT_ERROR;
			break;
		case 'd':
			so->radix = 10;
			break;
		case 'o':
			so->radix = 8;
			break;
		case 'x':
			so->radix = 16;
			break;
		case OPT_RADIX:
			if (parse_radix(optarg, &so->radix))
				return ST_EXIT_ERROR;
			break;
		case OPT_COMMON:
			so->common = true;
			break;
		case 't':
			so->totals = true;
			break;
		case 'f':
			break;	/* ignored, as by binutils */
		case OPT_TARGET:
			*target = optarg;
			break;
		case 'V':
			version = true;
			break;
		}
	}
	if (c != ST_OPT_DONE)
		return c == ST_OPT_HELP ? ST_EXIT_OK : ST_EXIT_ERROR;
	/* binutils: the version, whatever else was asked */
	if (version) {
		printf("slubtiny %s\n", ST_VERSION);
		return ST_EXIT_OK;
	}
	/* -t is for the Berkeley and GNU layouts only */
	if (so->format == ST_SIZE_SYSV)
		so->totals = false;
	return -1;
}

/*
 * Open @n @paths into @files (*@good of them opened). As GNU size: a FILE
 * that cannot be read is reported and the others are printed; *@status is
 * that of the last bad FILE. 0, or -ENOMEM (in @e).
 */
static int size_open(char **paths, int n, const char *target, const struct st_size_opts *so,
		     struct st_elf_file **files, int *good, int *status, struct st_error *e)
{
	int i, ret;

	for (i = 0, *good = 0; i < n; i++) {
		/*
		 * BFD finds an ELF file's format whichever ELF target is named;
		 * a target that is not ELF, slubtiny cannot read: as binutils
		 * with a name it does not know, each FILE is an error (1).
		 */
		if (!elf_target(target)) {
			p_err("%s: invalid bfd target '%s' (only ELF is read)", paths[i], target);
			*status = 1;
			continue;
		}
		ret = st_elf_open_flags(&files[*good], paths[i],
					ST_ELF_KEEP_GOING | (so->common ? 0 : ST_ELF_NO_SYMBOLS), e);
		if (ret == -ENOMEM)
			return ret;
		if (ret) {
			p_lib_err(e, NULL, ret);
			*status = bad_file_status(ret);
			st_error_clear(e);
		}
		if (print_warnings(files[*good]))
			*status = 3;
		if (files[*good])
			(*good)++;
	}
	return 0;
}

int cmd_size(int argc, char **argv)
{
	static char *aout[] = { "a.out" };
	struct st_size_opts so = { .format = ST_SIZE_BERKELEY, .radix = 10 };
	struct st_render_opts ro;
	struct st_elf_file **files;
	struct st_size_result res;
	struct st_error e = { 0 };
	char **paths;
	const char *target = NULL;
	int i, n, good = 0, status = ST_EXIT_OK, ret;

	ret = size_parse(argc, argv, &so, &target);
	if (ret >= 0)
		return ret;
	n = argc - optind;
	paths = argv + optind;
	if (n < 1) {
		/* like binutils: no FILE means a.out */
		n = 1;
		paths = aout;
	}
	files = calloc(n, sizeof(*files));
	if (!files) {
		p_err("out of memory");
		return ST_EXIT_ERROR;
	}
	ret = size_open(paths, n, target, &so, files, &good, &status, &e);
	if (ret)
		goto out;
	ret = st_size_compute_opts(files, good, &so, &res, &e);
	if (ret)
		goto out;
	ro = st_render_opts(st_out.json ? ST_FORMAT_JSON : ST_FORMAT_TEXT);
	st_out.json_done = st_out.json;
	if (st_out.json && !res.nobjs && status)
		st_json_error_document();
	else
		ret = st_size_render(stdout, &res, &ro);
	st_size_free(&res);
out:
	if (ret == -ENOMEM)
		p_lib_err(&e, NULL, ret);
	for (i = 0; i < good; i++)
		st_elf_close(files[i]);
	free(files);
	return ret ? ST_EXIT_ERROR : status;
}
