// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny footprint: option parsing only; lib/footprint does the work.
 *
 *	footprint gen SHAPE [--binary] [--seed N] [--scale N]
 *	footprint [--variant V]... [--trace FILE]... [--threads N]
 *		  [--time-ms MS] [--json] [--svg FILE]
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/error.h"
#include "footprint/footprint.h"

/* Parse a decimal number in [min, max]; false if it is not one. */
static bool parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno && *v >= min && *v <= max;
}

enum { OPT_BINARY = ST_OPT_ID, OPT_SEED, OPT_SCALE, OPT_VARIANT, OPT_TRACE, OPT_THREADS,
       OPT_TIME_MS, OPT_SVG };

const struct st_opt st_footprint_opts[] = {
	{ "variant", 0, OPT_VARIANT, "V", "replay on this variant only; repeatable (default: all)" },
	{ "trace", 0, OPT_TRACE, "TRACE", "replay this trace file; repeatable (default: the generated shapes)" },
	{ "threads", 0, OPT_THREADS, "N", "replay on N threads (1-64)" },
	{ "time-ms", 0, OPT_TIME_MS, "MS", "time each speed measurement for MS milliseconds (default 300)" },
	{ "svg", 0, OPT_SVG, "FILE", "also write the pages-held chart as SVG" },
	ST_OPT_ROW_JSON,
	ST_OPT_END,
};

const struct st_opt st_footprint_gen_opts[] = {
	{ "binary", 0, OPT_BINARY, NULL, "write the binary trace format (not to a terminal)" },
	{ "seed", 0, OPT_SEED, "N", "random seed (default 1)" },
	{ "scale", 0, OPT_SCALE, "N", "multiply the trace length by N (1-100)" },
	ST_OPT_END,
};

const struct st_example st_footprint_examples[] = {
	{ "slubtiny footprint", "pages held and speed of every variant on the built-in trace shapes" },
	{ "slubtiny footprint gen boot --seed 7 > boot.trace",
	  "write a trace of a generated boot-like workload" },
	{ "slubtiny footprint --trace boot.trace --variant slub --variant slub_tiny",
	  "replay that trace on two variants" },
	{ NULL, NULL },
};

static int do_gen(int argc, char **argv)
{
	unsigned long seed = 1, scale = 1;
	struct st_error e = { 0 };
	bool binary = false;
	int c, err;

	while ((c = st_getopt(argc, argv, "footprint gen", st_footprint_gen_opts)) >= 0) {
		switch (c) {
		case OPT_BINARY:
			binary = true;
			break;
		case OPT_SEED:
			if (!parse_uint(optarg, 0, ~0ul, &seed))
				goto bad;
			break;
		case OPT_SCALE:
			if (!parse_uint(optarg, 1, 100, &scale))
				goto bad;
			break;
		}
	}
	if (c != ST_OPT_DONE)
		return c == ST_OPT_HELP ? ST_EXIT_OK : ST_EXIT_ERROR;
	if (optind != argc - 1) {
		p_err("footprint gen: expected one SHAPE; see 'slubtiny footprint --help'");
		return ST_EXIT_ERROR;
	}
	if (binary && isatty(STDOUT_FILENO)) {
		p_err("footprint gen: not writing a binary trace to a terminal");
		return ST_EXIT_ERROR;
	}
	err = st_fp_generate(argv[optind], seed, scale, binary, stdout, &e);
	if (err) {
		p_lib_err(&e, argv[optind], err);
		return ST_EXIT_ERROR;
	}
	return ST_EXIT_OK;
bad:
	p_err("footprint gen: bad number '%s'", optarg);
	return ST_EXIT_ERROR;
}

struct fp_args {
	char **variants, **traces;
	size_t nr_variants, nr_traces;
	unsigned long threads, time_ms;
	const char *svg;
};

static int push(char ***v, size_t *n, char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

static int parse_args(int argc, char **argv, struct fp_args *a)
{
	int c;

	a->time_ms = 300;
	while ((c = st_getopt(argc, argv, "footprint", st_footprint_opts)) >= 0) {
		switch (c) {
		case OPT_VARIANT:
			if (push(&a->variants, &a->nr_variants, optarg))
				return -ENOMEM;
			break;
		case OPT_TRACE:
			if (push(&a->traces, &a->nr_traces, optarg))
				return -ENOMEM;
			break;
		case OPT_THREADS:
			if (!parse_uint(optarg, 1, 64, &a->threads))
				goto bad;
			break;
		case OPT_TIME_MS:
			if (!parse_uint(optarg, 1, 600000, &a->time_ms))
				goto bad;
			break;
		case OPT_SVG:
			a->svg = optarg;
			break;
		}
	}
	if (c == ST_OPT_HELP)
		return 1;
	if (c == ST_OPT_FAIL)
		return -EINVAL;
	if (optind != argc) {
		p_err("footprint: unexpected argument '%s'; see 'slubtiny footprint --help'",
		      argv[optind]);
		return -EINVAL;
	}
	return 0;
bad:
	p_err("footprint: bad number '%s' for %s", optarg, argv[optind - 1]);
	return -EINVAL;
}

static int write_svg(const struct st_fp_report *r, const char *path)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		p_err("%s: %s", path, strerror(errno));
		return ST_EXIT_ERROR;
	}
	err = st_fp_render_svg(r, f);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		p_err("%s: write error: %s", path, strerror(-err));
		return ST_EXIT_ERROR;
	}
	return ST_EXIT_OK;
}

static int print_json(const struct st_fp_report *r)
{
	cJSON *root = st_fp_render_json(r);
	char *s = root ? (st_out.pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root)) : NULL;

	cJSON_Delete(root);
	if (!s) {
		p_err("footprint: %s", strerror(ENOMEM));
		return ST_EXIT_ERROR;
	}
	puts(s);
	cJSON_free(s);
	return ST_EXIT_OK;
}

int cmd_footprint(int argc, char **argv)
{
	struct fp_args a = { 0 };
	struct st_fp_report r = { 0 };
	struct st_error e = { 0 };
	int err, ret;

	if (argc > 1 && !strcmp(argv[1], "gen"))
		return do_gen(argc - 1, argv + 1);
	err = parse_args(argc, argv, &a);
	if (err) {
		ret = err > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
		goto out;
	}
	st_fit_output(!st_out.json, true);
	if (!err)
		err = st_fp_measure(&r, st_fp_replay_dir(), a.variants, a.traces, a.nr_traces,
				    a.threads, a.time_ms, &e);
	if (err) {
		p_lib_err(&e, "footprint", err);
		ret = ST_EXIT_ERROR;
		goto out;
	}
	ret = st_out.json ? print_json(&r) : (st_fp_render_text(&r, stdout), ST_EXIT_OK);
	st_out.json_done = st_out.json;
	/*
	 * How the model compares with the kernel (r.failed, the JSON's
	 * expectations_hold) is a benchmark's verdict, not a finding about
	 * the user's input: a run that succeeded exits 0.
	 */
	if (ret == ST_EXIT_OK && a.svg)
		ret = write_svg(&r, a.svg);
out:
	st_fp_report_free(&r);
	free(a.variants);
	free(a.traces);
	return ret;
}
