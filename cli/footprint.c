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

static int do_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "binary", no_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 's' },
		{ "scale", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long seed = 1, scale = 1;
	struct st_error e = { 0 };
	bool binary = false;
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			binary = true;
			break;
		case 's':
			if (!parse_uint(optarg, 0, ~0ul, &seed))
				goto bad;
			break;
		case 'n':
			if (!parse_uint(optarg, 1, 100, &scale))
				goto bad;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
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
usage:
	st_usage(stderr, "footprint");
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
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "trace", required_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'T' },
		{ "time-ms", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "svg", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->time_ms = 300;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			if (push(&a->variants, &a->nr_variants, optarg))
				return -ENOMEM;
			break;
		case 't':
			if (push(&a->traces, &a->nr_traces, optarg))
				return -ENOMEM;
			break;
		case 'T':
			if (!parse_uint(optarg, 1, 64, &a->threads))
				return -EINVAL;
			break;
		case 'm':
			if (!parse_uint(optarg, 1, 600000, &a->time_ms))
				return -EINVAL;
			break;
		case 'j':
			st_out.json = true;
			break;
		case 's':
			a->svg = optarg;
			break;
		default:
			return -EINVAL;
		}
	}
	return optind == argc ? 0 : -EINVAL;
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

	if (st_wants_help(argc, argv, "footprint"))
		return ST_EXIT_OK;
	if (argc > 1 && !strcmp(argv[1], "gen"))
		return do_gen(argc - 1, argv + 1);
	err = parse_args(argc, argv, &a);
	if (err == -EINVAL) {
		st_usage(stderr, "footprint");
		ret = ST_EXIT_ERROR;
		goto out;
	}
	if (!err)
		err = st_fp_measure(&r, st_fp_replay_dir(), a.variants, a.traces, a.nr_traces,
				    a.threads, a.time_ms, &e);
	if (err) {
		p_lib_err(&e, "footprint", err);
		ret = ST_EXIT_ERROR;
		goto out;
	}
	ret = st_out.json ? print_json(&r) : (st_fp_render_text(&r, stdout), ST_EXIT_OK);
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
