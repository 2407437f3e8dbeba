// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny report: build what is needed, then the size table, the diffs
 * against the baseline and, with --attribute, what each option costs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "build_opts.h"
#include "cli.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "report/report.h"

enum {
	OPT_BASELINE = OPT_FIRST_FREE,
	OPT_HTML,
	OPT_ATTRIBUTE,
	OPT_OBJECTS,
	OPT_MERGE,
	OPT_MIXED,
};

const struct st_opt st_report_opts[] = {
	{ "baseline", 0, OPT_BASELINE, "VARIANT", "compare against this variant (default: slub)" },
	BUILD_OPT_ROWS,
	ST_OPT_ROW_FORMAT("{text|json|markdown|html}"),
	ST_OPT_ROW_MARKDOWN,
	{ "html", 0, OPT_HTML, "FILE", "also write a self-contained HTML page with charts" },
	{ "attribute", 0, OPT_ATTRIBUTE, NULL, "rank the options that make the variants differ by cost" },
	{ "objects", 0, OPT_OBJECTS, NULL, "report on NAME=PATH ELF files instead (the first is the baseline)" },
	{ "mixed-arch", 0, OPT_MIXED, NULL, "with --objects: compare files of different machines" },
	{ "merge", 0, OPT_MERGE, NULL, "merge the SHARD.json files of 'slubtiny kernel --shard' into one report" },
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	ST_OPT_END,
};

const struct st_example st_report_examples[] = {
	{ "slubtiny report", "what SLUB_TINY and the other variants cost, per arch" },
	{ "slubtiny report --objects old=linux-6.1/mm/slub.o new=linux-6.12/mm/slub.o",
	  "the same table over two builds of a kernel object" },
	{ "slubtiny report --merge shard1.json shard2.json", "one report from the shards of a kernel run" },
	{ NULL, NULL },
};

struct report_args {
	struct build_args b;
	const char *baseline;
	const char *html;
	bool attribute;
	bool objects;
	bool merge;
	bool mixed;
};

static int parse(struct report_args *ra, int argc, char **argv)
{
	int opt;

	while ((opt = st_getopt(argc, argv, "report", st_report_opts)) >= 0) {
		switch (opt) {
		case OPT_BASELINE:
			ra->baseline = optarg;
			break;
		case OPT_HTML:
			ra->html = optarg;
			break;
		case OPT_ATTRIBUTE:
			ra->attribute = true;
			break;
		case OPT_OBJECTS:
			ra->objects = true;
			break;
		case OPT_MERGE:
			ra->merge = true;
			break;
		case OPT_MIXED:
			ra->mixed = true;
			break;
		default:
			if (build_args_opt(&ra->b, opt, optarg) != 1)
				return -1;
		}
	}
	if (opt == ST_OPT_HELP)
		return 1;
	if (opt == ST_OPT_FAIL)
		return -1;
	if (ra->merge && (ra->objects || ra->attribute)) {
		p_err("--merge takes only the JSON files of `slubtiny kernel --shard`");
		return -1;
	}
	if (ra->merge && optind == argc) {
		p_err("--merge needs the JSON files of the shards");
		return -1;
	}
	if (!ra->objects && !ra->merge && optind < argc) {
		p_err("unexpected argument '%s' (NAME=PATH needs --objects)", argv[optind]);
		return -1;
	}
	if (ra->objects && argc - optind < 2) {
		p_err("--objects needs at least two NAME=PATH arguments");
		return -1;
	}
	if (ra->mixed && !ra->objects) {
		p_err("--mixed-arch is for --objects");
		return -1;
	}
	if (ra->objects && ra->attribute) {
		p_err("--attribute works on the bundled variants, not on --objects");
		return -1;
	}
	return 0;
}

/* NAME=PATH, or a bare PATH named after itself. */
static int objects_report(struct st_report **r, const struct report_args *ra,
			  int argc, char **argv, struct st_error *e)
{
	size_t n = argc - optind, i;
	const char **names = calloc(n, sizeof(*names)), **paths = calloc(n, sizeof(*paths));
	char **own = calloc(n, sizeof(*own));
	int ret = -ENOMEM;

	if (!names || !paths || !own)
		goto out;
	for (i = 0; i < n; i++) {
		const char *a = argv[optind + i], *eq = strchr(a, '=');

		if (eq && eq > a) {
			own[i] = strndup(a, eq - a);
			if (!own[i])
				goto out;
			names[i] = own[i];
			paths[i] = eq + 1;
		} else {
			names[i] = paths[i] = a;
		}
	}
	ret = st_report_from_objects(r, names, paths, n, ra->baseline, ra->mixed, e);
	/* the library says what differs, the command how to go on */
	if (ret == -EXDEV) {
		size_t l = strlen(e->msg);

		snprintf(e->msg + l, sizeof(e->msg) - l, " (--mixed-arch compares them anyway)");
	}
out:
	st_strv_free(own, n);
	free(names);
	free(paths);
	return ret;
}

/* Read every shard's JSON and merge them into the unsharded report. */
static int merge_report(struct st_report **r, int argc, char **argv, struct st_error *e)
{
	size_t n = argc - optind, i;
	char **texts = calloc(n, sizeof(*texts));
	int ret = 0;

	if (!texts)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		size_t len;

		ret = st_read_file(argv[optind + i], &texts[i], &len, SIZE_MAX - 1,
				   NULL, e);
	}
	if (!ret)
		ret = st_report_merge(r, (const char *const *)texts,
				      (const char *const *)argv + optind, n, e);
	st_strv_free(texts, n);
	return ret;
}

static int write_html(const struct st_report *r, const char *path)
{
	struct st_render_opts o = st_render_opts(ST_FORMAT_HTML);
	FILE *f = st_out_open(path);

	return f && !st_out_close(f, path, st_report_render(f, r, &o)) ? ST_EXIT_OK
								 : ST_EXIT_ERROR;
}

/* Print @r as asked; `slubtiny kernel` prints its report through here too. */
int report_render(const struct st_report *r, const char *html)
{
	struct st_render_opts o;
	int ret;

	if (html && write_html(r, html))
		return ST_EXIT_ERROR;
	o = st_render_opts(st_out.format);
	st_out.json_done = st_out.json;
	ret = st_report_render(stdout, r, &o);
	if (ret == -ENOMEM) {
		p_err("out of memory");
		return ST_EXIT_ERROR;
	}
	/* A write error on stdout is reported by main(). */
	return ST_EXIT_OK;
}

/*
 * The unit that makes the whole report an error, or NULL: a failure on the
 * host compiler, or the first failure when nothing at all was built. (A
 * cross arch whose compiles fail is listed as skipped with the error.)
 */
static const struct st_build_unit *fatal_unit(const struct st_build_result *res)
{
	const struct st_build_unit *first = NULL;
	size_t i, t, nok = 0;

	for (i = 0; i < res->nunits; i++) {
		const struct st_build_unit *u = &res->units[i];

		if (u->ok) {
			nok++;
			continue;
		}
		if (!first)
			first = u;
		for (t = 0; t < res->ntcs; t++)
			if (res->tcs[t].found && !res->tcs[t].prefix[0] &&
			    !strcmp(res->tcs[t].arch, u->arch))
				return u;
	}
	return nok ? NULL : first;
}

/*
 * The compiles ran quiet: build the failed unit @u once more with the
 * compiler's stderr on ours, so the error shows the compiler's message.
 */
static void show_compiler_errors(const struct report_args *ra, const struct st_build_unit *u)
{
	struct st_build_opts o = ra->b.o;
	struct st_build_result *res = NULL;
	struct st_variant *vs = NULL;
	struct st_error e = { 0 };
	const char *arches[] = { u->arch };
	size_t n = 0, i;

	if (st_build_variants(ra->b.datadir, &vs, &n, &e))
		return;
	for (i = 0; i < n; i++)
		if (!strcmp(vs[i].name, u->variant))
			break;
	if (i < n) {
		o.variants = &vs[i];
		o.nvariants = 1;
		o.arches = arches;
		o.narches = 1;
		o.jobs = 1;
		o.quiet = false;
		o.progress = NULL;
		if (!st_build_run(&o, &res, &e))
			st_build_result_free(res);
	}
	st_build_variants_free(vs, n);
}

/* Build the variants (nothing is rebuilt when up to date) and make the report. */
static int build_report(struct st_report **r, struct st_build_result **res,
			struct report_args *ra, struct st_error *e)
{
	const char *py = getenv("SLUBTINY_PYTHON");
	const struct st_build_unit *bad;
	int ret;

	ra->b.o.quiet = true;
	if (py && *py)
		ra->b.o.python = py;
	ret = st_build_run(&ra->b.o, res, e);
	build_progress_end(&ra->b);
	if (ret)
		return ret;
	if (!(*res)->nunits)
		return st_err(e, ENOENT, NULL, "no usable compiler%s%s", (*res)->ntcs ? ": " : "",
			      (*res)->ntcs && (*res)->tcs[0].reason ? (*res)->tcs[0].reason : "");
	bad = fatal_unit(*res);
	if (bad) {
		show_compiler_errors(ra, bad);
		return st_err(e, EIO, NULL, "%s: %s", bad->variant, bad->error);
	}
	ret = st_report_from_build(r, *res, ra->baseline, e);
	if (ret || !ra->attribute)
		return ret;
	/*
	 * Attribution is a build per option and arch: without --arch it is
	 * measured on the first arch (the host) only.
	 */
	if (ra->b.o.narches)
		ret = st_report_attribute(*r, &ra->b.o, *res, NULL, 0, e);
	else
		ret = st_report_attribute(*r, &ra->b.o, *res,
					  (const char *const *)(*r)->arches,
					  (*r)->narches ? 1 : 0, e);
	build_progress_end(&ra->b);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_args ra = { .baseline = NULL };
	struct st_build_result *res = NULL;
	struct st_report *r = NULL;
	struct st_error e = { 0 };
	int ret, status = ST_EXIT_ERROR;

	build_args_init(&ra.b, "report");
	ret = parse(&ra, argc, argv);
	if (ret)
		return ret > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
	st_fit_output(st_out.format == ST_FORMAT_TEXT, true);
	if (ra.merge) {
		ret = merge_report(&r, argc, argv, &e);
	} else if (ra.objects) {
		ret = objects_report(&r, &ra, argc, argv, &e);
	} else {
		if (!ra.baseline)
			ra.baseline = "slub";
		status = build_args_finish(&ra.b);
		if (status)
			goto out;
		ret = build_report(&r, &res, &ra, &e);
	}
	if (ret) {
		p_lib_err(&e, NULL, ret);
		status = ST_EXIT_ERROR;
		goto out;
	}
	status = report_render(r, ra.html);
out:
	st_report_free(r);
	st_build_result_free(res);
	build_args_free(&ra.b);
	return status;
}
