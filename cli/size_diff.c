// SPDX-License-Identifier: GPL-2.0-only
/* slubtiny size-diff: bloat-o-meter without nm. */
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "common/error.h"
#include "elf/elf.h"
#include "sizes/size_diff.h"

/* One input of the diff, read in its own thread into its own result. */
struct side {
	const char *path;
	bool new;
	struct st_size_diff res;
	struct st_elf_file *f;
	struct st_error e;
	int ret;
};

/* Each object goes into the side's result as it is read, and is then freed. */
static int feed(const struct st_elf_file *f, const struct st_elf_obj *o, void *ctx)
{
	struct side *s = ctx;

	return st_size_diff_feed(&s->res, o, s->new, f->path, &s->e);
}

static void *scan(void *arg)
{
	struct side *s = arg;

	s->ret = st_elf_scan(&s->f, s->path, ST_ELF_SIZED_ONLY | ST_ELF_WARN_NO_SYMBOLS, feed, s,
			     &s->e);
	return NULL;
}

/*
 * Read OLD and NEW at the same time (the archives of a kernel or of LLVM
 * take most of the run to read), names copied so that each object can be
 * freed once counted; then join NEW's counts into OLD's.
 */
static int diff_files(struct side *old, struct side *new, enum st_sd_mode mode,
		      struct st_error *e)
{
	pthread_t t;
	bool threaded;
	int ret;

	ret = st_size_diff_begin(&old->res, mode, 0, true, &old->e);
	if (ret) {
		*e = old->e;
		return ret;
	}
	ret = st_size_diff_begin(&new->res, mode, 0, true, &new->e);
	if (ret) {
		*e = new->e;
		st_size_diff_free(&old->res);
		return ret;
	}
	threaded = !pthread_create(&t, NULL, scan, new);
	scan(old);
	if (threaded)
		pthread_join(t, NULL);
	else
		scan(new);
	ret = old->ret ? old->ret : new->ret;
	if (ret) {
		*e = old->ret ? old->e : new->e;
		st_size_diff_free(&old->res);
		st_size_diff_free(&new->res);
		return ret;
	}
	ret = st_size_diff_absorb(&old->res, &new->res, e);
	if (!ret)
		ret = st_size_diff_end(&old->res, e);
	else
		st_size_diff_free(&old->res);
	return ret;
}

static void print_warnings(const struct st_elf_file *f)
{
	size_t i;

	for (i = 0; f && i < f->nwarnings; i++)
		p_err("%s", f->warnings[i]);
}

const struct st_opt st_size_diff_opts[] = {
	{ NULL, 'c', 'c', NULL, "one table per class: functions, data, read-only data" },
	{ NULL, 'd', 'd', NULL, "data symbols only" },
	{ NULL, 't', 't', NULL, "function (text) symbols only" },
	{ NULL, 'p', 'p', "PREFIX", "nm prefix, as bloat-o-meter takes it (ignored: no nm is run)" },
	{ "exit-code", 0, 'x', NULL, "exit 1 when the totals differ" },
	ST_OPT_ROW_FORMAT("{text|json}"),
	ST_OPT_ROW_JSON,
	ST_OPT_END,
};

const struct st_example st_size_diff_examples[] = {
	{ "slubtiny size-diff old/vmlinux new/vmlinux", "what grew and shrank, as bloat-o-meter prints it" },
	{ "slubtiny size-diff -c old/mm/slub.o new/mm/slub.o", "the same, one table per symbol class" },
	{ NULL, NULL },
};

int cmd_size_diff(int argc, char **argv)
{
	static char outbuf[1 << 16];
	enum st_sd_mode mode = ST_SD_DEFAULT;
	struct st_elf_file *oldf = NULL, *newf = NULL;
	struct side old = { 0 }, new = { 0 };
	struct st_size_diff res;
	struct st_render_opts ro;
	struct st_error e = { 0 };
	bool exit_code = false;
	int c, nmodes = 0, ret;

	while ((c = st_getopt(argc, argv, "size-diff", st_size_diff_opts)) >= 0) {
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
		case 'x':
			exit_code = true;
			break;
		}
	}
	if (c != ST_OPT_DONE)
		return c == ST_OPT_HELP ? ST_EXIT_OK : ST_EXIT_ERROR;
	if (nmodes > 1) {
		p_err("-c, -d and -t are mutually exclusive");
		return ST_EXIT_ERROR;
	}
	if (argc - optind != 2) {
		p_err("expected OLD and NEW files; see 'slubtiny size-diff --help'");
		return ST_EXIT_ERROR;
	}
	old.path = argv[optind];
	new.path = argv[optind + 1];
	new.new = true;
	ret = diff_files(&old, &new, mode, &e);
	oldf = old.f;
	newf = new.f;
	res = old.res;
	if (ret) {
		/* bad input is one line: the other file's warnings would bury it */
		p_lib_err(&e, NULL, ret);
		st_elf_close(oldf);
		st_elf_close(newf);
		return ST_EXIT_ERROR;
	}
	/*
	 * Members that are not ELF, objects without symbols: nm warns and
	 * bloat-o-meter compares the rest.
	 */
	print_warnings(oldf);
	print_warnings(newf);
	/*
	 * Thousands of rows: written in large pieces, not in st_blksize ones
	 * (glibc ignores the size without a buffer; this one outlives stdout).
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	st_out.json_done = st_out.json;
	res.oldname = argv[optind];
	res.newname = argv[optind + 1];
	ro = st_render_opts(st_out.json ? ST_FORMAT_JSON : ST_FORMAT_TEXT);
	ret = st_size_diff_render(stdout, &res, &ro);
	c = exit_code && st_size_diff_changed(&res) ? ST_EXIT_FINDINGS : ST_EXIT_OK;
	st_size_diff_free(&res);
	st_elf_close(oldf);
	st_elf_close(newf);
	return ret ? ST_EXIT_ERROR : c;
}
