// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny check: options, .slubtiny.json, then lib/check does the work and
 * one of its renderers prints the result.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "cli.h"
#include "common/error.h"

enum {
	OPT_SRCTREE = 256, OPT_ARCH, OPT_FORMAT, OPT_FIX, OPT_BUDGET, OPT_SELECT,
	OPT_IGNORE, OPT_CONFIG, OPT_NO_CONFIG, OPT_BUILDDIR, OPT_JSON, OPT_BASELINE,
};

static const struct option long_opts[] = {
	{ "srctree", required_argument, NULL, OPT_SRCTREE },
	{ "arch", required_argument, NULL, OPT_ARCH },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "fix", no_argument, NULL, OPT_FIX },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "builddir", required_argument, NULL, OPT_BUILDDIR },
	{ "select", required_argument, NULL, OPT_SELECT },
	{ "ignore", required_argument, NULL, OPT_IGNORE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *srctree, *arch, *format, *budget, *builddir, *config, *baseline;
	bool fix, no_config, has_select;
	bool select[ST_RULE_COUNT], ignore[ST_RULE_COUNT];
};

static int parse_args(struct args *a, int argc, char **argv)
{
	struct st_error e = { 0 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_SRCTREE: a->srctree = optarg; break;
		case OPT_ARCH: a->arch = optarg; break;
		case OPT_FORMAT: a->format = optarg; break;
		case OPT_JSON: a->format = "json"; break;
		case OPT_FIX: a->fix = true; break;
		case OPT_BUDGET: a->budget = optarg; break;
		case OPT_BUILDDIR: a->builddir = optarg; break;
		case OPT_CONFIG: a->config = optarg; break;
		case OPT_NO_CONFIG: a->no_config = true; break;
		case OPT_BASELINE: a->baseline = optarg; break;
		case OPT_SELECT:
			a->has_select = true;
			if (st_check_rule_list(a->select, optarg, &e))
				goto bad_rule;
			break;
		case OPT_IGNORE:
			if (st_check_rule_list(a->ignore, optarg, &e))
				goto bad_rule;
			break;
		default:
			st_usage(stderr, "check");
			return -EINVAL;
		}
	}
	return 0;
bad_rule:
	p_err("check: %s", e.msg);
	return -EINVAL;
}

/* The command line wins over .slubtiny.json; ignore lists add up. */
static void merge_config(struct st_check_run_opts *o, const struct args *a,
			 const struct st_check_config *cfg)
{
	const bool *sel = a->has_select ? a->select : cfg->has_select ? cfg->select : NULL;
	int i;

	for (i = 0; i < ST_RULE_COUNT; i++) {
		o->rules.enabled[i] = sel ? sel[i] : true;
		if (a->ignore[i] || cfg->ignore[i])
			o->rules.enabled[i] = false;
	}
	o->srctree = a->srctree ? a->srctree : cfg->srctree;
	o->arch = a->arch ? a->arch : cfg->arch;
	o->budget = a->budget ? a->budget : cfg->budget;
	if (!o->budget && cfg->budgets) {
		o->budgets = cfg->budgets;
		o->budgets_path = cfg->path;
	}
	o->builddir = a->builddir;
	o->fix = a->fix;
	/* "none": no baseline, every finding */
	o->baseline = a->baseline && strcmp(a->baseline, "none") ? a->baseline : NULL;
}

static int load_config(struct st_check_config *cfg, const struct args *a)
{
	struct st_error e = { 0 };
	char *found = NULL;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (!a->config && a->no_config)
		return 0;
	if (!a->config) {
		if (st_check_config_find(".", &found) || !found)
			return 0;
	}
	ret = st_check_config_load(cfg, a->config ? a->config : found, &e);
	if (ret)
		p_lib_err(&e, a->config ? a->config : found, ret);
	free(found);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct st_check_run_opts o = { 0 };
	struct st_check_result r;
	struct st_check_config cfg;
	enum st_check_format fmt = ST_FMT_TEXT;
	struct st_error e = { 0 };
	struct args a = { 0 };
	int ret, status;

	if (st_wants_help(argc, argv, "check")) {
		fputs("\n--baseline REV: resolve each file as it is in git revision REV too and\n"
		      "report only the findings it did not have there (same symbol, rule and\n"
		      "line); a file new since REV shows everything, --baseline none too.\n"
		      "The pre-commit hook runs check --baseline HEAD.\n"
		      "--fix: migrate's rewrite (and, with slub-tiny-deps selected, the\n"
		      "dependency fixes), each written line reported as FILE:LINE: fixed:.\n",
		      stdout);
		return ST_EXIT_OK;
	}
	if (parse_args(&a, argc, argv))
		return ST_EXIT_ERROR;
	if (a.format && st_check_format_parse(a.format, &fmt)) {
		p_err("check: unknown format '%s' (text, json, github, sarif)", a.format);
		return ST_EXIT_ERROR;
	}
	if (load_config(&cfg, &a)) {
		st_check_config_free(&cfg);
		return ST_EXIT_ERROR;
	}
	merge_config(&o, &a, &cfg);
	if (optind >= argc && !o.budget && !o.budgets) {
		st_usage(stderr, "check");
		st_check_config_free(&cfg);
		return ST_EXIT_ERROR;
	}
	st_check_result_init(&r);
	ret = st_check_run(&o, argv + optind, argc - optind, &r, &e);
	if (ret) {
		p_lib_err(&e, NULL, ret);
		st_check_render_error(stdout, fmt, e.code && e.file[0] ? e.file : NULL,
				      e.code ? e.msg : strerror(-ret), st_out.pretty);
		status = ST_EXIT_ERROR;
		goto out;
	}
	st_check_sort(&r);
	ret = st_check_render(stdout, &r, fmt, st_out.pretty, st_out.color && fmt == ST_FMT_TEXT);
	if (ret) {
		p_err("check: cannot write the result: %s", strerror(-ret));
		status = ST_EXIT_ERROR;
		goto out;
	}
	for (size_t i = 0; i < r.nr_fixed_msgs; i++)
		fprintf(stderr, "%s\n", r.fixed[i]);
	if (r.nr_fixed_lines)
		p_err("check: --fix: fixed %zu line%s in %zu file%s", r.nr_fixed_lines,
		      r.nr_fixed_lines == 1 ? "" : "s", r.nr_fixed, r.nr_fixed == 1 ? "" : "s");
	if (r.nr_baseline && fmt == ST_FMT_TEXT)
		p_err("check: %zu finding%s not shown: the files had %s at %s "
		      "(--baseline none shows all)", r.nr_baseline,
		      r.nr_baseline == 1 ? "" : "s", r.nr_baseline == 1 ? "it" : "them",
		      o.baseline);
	if (r.nr_fix_refused)
		p_err("check: --fix: %zu file(s) not rewritten: the migrated allocator would not take effect (see 'slubtiny migrate')",
		      r.nr_fix_refused);
	status = st_check_nr_failing(&r) ? ST_EXIT_FINDINGS : ST_EXIT_OK;
out:
	st_check_result_free(&r);
	st_check_config_free(&cfg);
	return status;
}
