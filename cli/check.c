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
#include <unistd.h>

#include "check/check.h"
#include "cli.h"
#include "common/error.h"
#include "linux/linux.h"
#include "migrate/migrate.h"

enum {
	OPT_SRCTREE = ST_OPT_ID, OPT_ARCH, OPT_FIX, OPT_BUDGET, OPT_SELECT,
	OPT_IGNORE, OPT_CONFIG, OPT_NO_CONFIG, OPT_BUILDDIR, OPT_LIST_RULES, OPT_BASELINE,
	OPT_SHARD, OPT_ALLOW_EMPTY, OPT_SKIP_NON_KERNEL, OPT_TARGET, OPT_UNTRUSTED_SETTINGS,
	OPT_CROSS,
};

const struct st_opt st_check_opts[] = {
	{ "srctree", 0, OPT_SRCTREE, "DIR", "also verify with this kernel tree's Kconfig (more rules)" },
	{ "target", 0, OPT_TARGET, "VERSION", "judge for this kernel, e.g. 4.14 (default: the tree's, else what the build system gives, else the newest)" },
	{ "arch", 0, OPT_ARCH, "ARCH", "ARCH for Kconfig (default: $ARCH, else the arch/ARCH/configs/ path)" },
	{ "cross-compile", 0, OPT_CROSS, "PREFIX", "CROSS_COMPILE for Kconfig's compiler tests (default: $CROSS_COMPILE)" },
	ST_OPT_ROW_FORMAT("{text|json|github|sarif}"),
	{ "fix", 0, OPT_FIX, NULL, "rewrite the files with migrate's rules where that verifies" },
	{ "baseline", 0, OPT_BASELINE, "REV", "only findings the files did not have at git revision REV (auto: what a change brings, see check.md; none: all)" },
	{ "budget", 0, OPT_BUDGET, "FILE", "check the size budgets in this JSON file" },
	{ "builddir", 0, OPT_BUILDDIR, "DIR", "where the built variants are, for variant budgets" },
	{ "select", 0, OPT_SELECT, "RULE,...", "run only these rules" },
	{ "ignore", 0, OPT_IGNORE, "RULE,...", "do not run these rules" },
	{ "config", 0, OPT_CONFIG, "FILE", "read options from FILE instead of .slubtiny.json" },
	{ "no-config", 0, OPT_NO_CONFIG, NULL, "do not read .slubtiny.json" },
	{ "untrusted-settings", 0, OPT_UNTRUSTED_SETTINGS, NULL, "take nothing that runs programs (\"srctree\") from .slubtiny.json, e.g. when linting a pull request" },
	{ "shard", 0, OPT_SHARD, "K/N", ST_OPT_SHARD_HELP },
	{ "allow-empty", 0, OPT_ALLOW_EMPTY, NULL, "a DIR without kernel configs is no error (exit 0)" },
	{ "skip-non-kernel", 0, OPT_SKIP_NON_KERNEL, NULL, "leave out FILEs whose content is no kernel config (as a DIR walk does)" },
	{ "list-rules", 0, OPT_LIST_RULES, NULL, "print the rule ids with what each finds, then exit" },
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	ST_OPT_ROW_VERBOSE,
	ST_OPT_END,
};

const struct st_example st_check_examples[] = {
	{ "slubtiny check arch/arm/configs/", "lint every defconfig below the directory" },
	{ "slubtiny check --srctree ~/linux --format github configs/board_defconfig",
	  "also ask the tree's Kconfig; annotations for GitHub Actions" },
	{ "slubtiny check --ignore hardening-notice --format sarif . > check.sarif",
	  "a whole repository as SARIF 2.1.0" },
	{ NULL, NULL },
};

/* Rule ids and what each finds (check --help and --list-rules). */
void st_check_more_help(FILE *f)
{
	static const char *const level[] = { "note", "warning", "error" };
	int i;

	fputs("Rules (ids for --select, --ignore and '# slubtiny: ignore[RULE]';\n"
	      "what each finds: 'slubtiny check --list-rules'):\n", f);
	for (i = 0; i < ST_RULE_COUNT; i++)
		fprintf(f, "  %-24s %s%s%s%s%s%s\n", st_check_rules[i].id,
			level[st_check_rules[i].level],
			st_check_rules[i].error_when ? " (error: " : "",
			st_check_rules[i].error_when ? st_check_rules[i].error_when : "",
			st_check_rules[i].error_when ? ")" : "",
			st_check_rules[i].needs_tree ? ", in full with --srctree" : "",
			st_check_rules[i].fixable ? ", --fix repairs it" : "");
}

static void list_rules(void)
{
	int i;

	for (i = 0; i < ST_RULE_COUNT; i++)
		printf("%s\n  %s\n  fix: %s\n", st_check_rules[i].id, st_check_rules[i].summary,
		       st_check_rules[i].help);
}

/*
 * One line per file of a build system's stack: what it was merged over and
 * what decided its ARCH and kernel; -v adds where each came from.
 */
static void stack_note(const struct st_check_stack *s, bool verbose)
{
	char *d;

	/* a file no stack of its build system has: said with -v only */
	if (s->l.kind == ST_LAYOUT_PLAIN && !verbose)
		return;
	d = st_layout_describe(&s->l, s->arch_used, s->version_used, s->unread, verbose);
	if (!d)
		return;
	fprintf(stderr, "%s: note: %s", s->file, d);
	if (s->nr_in_base)
		fprintf(stderr, "; %zu finding%s on base lines not shown", s->nr_in_base,
			s->nr_in_base == 1 ? "" : "s");
	fputc('\n', stderr);
	free(d);
}

struct args {
	const char *srctree, *arch, *budget, *builddir, *config, *baseline, *target;
	const char *cross_compile;
	bool fix, no_config, has_select, list_rules, allow_empty, skip_non_kernel;
	bool untrusted_settings;
	unsigned int shard_k, shard_n;
	bool select[ST_RULE_COUNT], ignore[ST_RULE_COUNT];
};

static int parse_args(struct args *a, int argc, char **argv)
{
	struct st_error e = { 0 };
	int c;

	while ((c = st_getopt(argc, argv, "check", st_check_opts)) >= 0) {
		switch (c) {
		case OPT_LIST_RULES: a->list_rules = true; break;
		case OPT_SRCTREE: a->srctree = optarg; break;
		case OPT_TARGET: a->target = optarg; break;
		case OPT_ARCH: a->arch = optarg; break;
		case OPT_CROSS: a->cross_compile = optarg; break;
		case OPT_FIX: a->fix = true; break;
		case OPT_BUDGET: a->budget = optarg; break;
		case OPT_BUILDDIR: a->builddir = optarg; break;
		case OPT_CONFIG: a->config = optarg; break;
		case OPT_NO_CONFIG: a->no_config = true; break;
		case OPT_UNTRUSTED_SETTINGS: a->untrusted_settings = true; break;
		case OPT_ALLOW_EMPTY: a->allow_empty = true; break;
		case OPT_SKIP_NON_KERNEL: a->skip_non_kernel = true; break;
		case OPT_BASELINE: a->baseline = optarg; break;
		case OPT_SHARD:
			if (st_parse_shard(optarg, &a->shard_k, &a->shard_n))
				return -EINVAL;
			break;
		case OPT_SELECT:
			a->has_select = true;
			if (st_check_rule_list(a->select, optarg, &e))
				goto bad_rule;
			break;
		case OPT_IGNORE:
			if (st_check_rule_list(a->ignore, optarg, &e))
				goto bad_rule;
			break;
		}
	}
	if (c == ST_OPT_HELP)
		return 1;
	if (c == ST_OPT_FAIL)
		return -EINVAL;
	return 0;
bad_rule:
	p_err("%s", e.msg);
	return -EINVAL;
}

/*
 * The command line wins over .slubtiny.json; ignore lists add up. $ARCH
 * (as make reads it) comes after --arch and the file's "arch", and after
 * each file's build system and path (st_arch_decide()).
 */
static int merge_config(struct st_check_run_opts *o, const struct args *a,
			const struct st_check_config *cfg)
{
	const bool *sel = a->has_select ? a->select : cfg->has_select ? cfg->select : NULL;
	int i;

	for (i = 0; i < ST_RULE_COUNT; i++) {
		o->rules.enabled[i] = sel ? sel[i] : true;
		if (a->ignore[i] || cfg->ignore[i])
			o->rules.enabled[i] = false;
	}
	o->srctree = st_cli_settings_srctree(a->srctree, cfg, a->untrusted_settings);
	if (st_cli_arch(a->arch, cfg->arch, &o->arch))
		return -EINVAL;
	o->budget = a->budget ? a->budget : cfg->budget;
	if (!o->budget && cfg->budgets) {
		o->budgets = cfg->budgets;
		o->budgets_path = cfg->path;
	}
	o->builddir = a->builddir;
	o->fix = a->fix;
	/* as make, and as migrate: $CROSS_COMPILE unless told */
	o->cross_compile = a->cross_compile;
	if (!o->cross_compile) {
		const char *cc = getenv("CROSS_COMPILE");

		o->cross_compile = cc && *cc ? cc : NULL;
	}
	/* "none": no baseline, every finding */
	o->baseline = a->baseline && strcmp(a->baseline, "none") ? a->baseline : NULL;
	return 0;
}

/*
 * What --baseline auto chose, into @label (for "the files had it at ...",
 * "" for none) and one line on stderr (not with -q).
 */
static void say_baseline(const struct st_baseline *b, char *label, size_t len)
{
	char why[600];

	label[0] = why[0] = '\0';
	switch (b->from) {
	case ST_BASELINE_FROM_REF:
		snprintf(label, len, "pre-commit's from-ref %s", b->ref);
		break;
	case ST_BASELINE_FROM_MERGE_BASE:
		snprintf(label, len, "the merge base of pre-commit's from-ref %s and to-ref %s",
			 b->ref, b->ref2);
		break;
	case ST_BASELINE_STAGED:
		snprintf(label, len, "HEAD");
		p_note("baseline: HEAD (auto: uncommitted changes, a commit in progress)");
		return;
	case ST_BASELINE_MERGE_BASE:
		snprintf(label, len, "the merge base of HEAD and %s", b->ref);
		break;
	case ST_BASELINE_ON_DEFAULT:
		snprintf(why, sizeof(why), "HEAD is on the default branch %s", b->ref);
		break;
	case ST_BASELINE_NO_DEFAULT:
		snprintf(why, sizeof(why), "no default branch: no origin/HEAD, origin/main, "
			 "origin/master, main or master");
		break;
	case ST_BASELINE_NO_HISTORY:
		snprintf(why, sizeof(why), "HEAD shares no history with %s", b->ref);
		break;
	case ST_BASELINE_NO_COMMIT:
		snprintf(why, sizeof(why), "no commit yet");
		break;
	case ST_BASELINE_NO_GIT:
		snprintf(why, sizeof(why), "not in a git work tree");
		break;
	}
	if (why[0])
		p_note("baseline: none, every finding counts (auto: %s)", why);
	else	/* a hash as git abbreviates it in a log line: enough to find it */
		p_note("baseline: %.12s, %s (auto)", b->rev, label);
}

/*
 * --baseline auto, decided where the first FILE or DIR is, into o->baseline
 * (NULL: none); @label names it for the end of the run. An error is said
 * (in --format json too) and returns -1.
 */
static int auto_baseline(struct st_check_run_opts *o, struct st_baseline *b,
			 const char *first, enum st_format fmt, char *label, size_t len)
{
	struct st_error e = { 0 };

	if (st_check_baseline_auto(b, first, getenv("PRE_COMMIT_FROM_REF"),
				   getenv("PRE_COMMIT_TO_REF"), &e)) {
		p_err("%s", e.msg);
		st_check_render_error(stdout, fmt, NULL, e.msg, st_out.pretty);
		st_out.json_done = true;
		return -1;
	}
	say_baseline(b, label, len);
	o->baseline = b->rev[0] ? b->rev : NULL;
	return 0;
}

/* What the run has to say after the findings, on stderr: one line each. */
static void say_after(const struct st_check_result *r, enum st_format fmt, bool files,
		      const char *baseline)
{
	/* each file that could not be checked: one line, after the findings */
	for (size_t i = 0; i < r->nr_errors; i++)
		p_err("%s: %s", r->errors[i].file, r->errors[i].msg);
	/* (budgets alone check no file: nothing to say) */
	if (fmt == ST_FORMAT_TEXT && files) {
		struct st_arch_tally t = { .ng = 0 };

		for (size_t i = 0; i < r->nr_archs; i++)
			st_arch_tally_add(&t, r->archs[i].file, r->archs[i].arch, r->archs[i].from,
					  r->archs[i].why);
		if (st_out.verbosity > 0)
			st_say_skipped(r->skipped, r->skipped_why, r->nr_skipped);
		st_say_found(r->nr_archs, r->nr_looked, r->nr_skipped, &t);
	}
	for (size_t i = 0; i < r->nr_fixed_msgs; i++)
		fprintf(stderr, "%s\n", r->fixed[i]);
	if (r->nr_fixed_lines)
		p_err("--fix: fixed %zu line%s in %zu file%s", r->nr_fixed_lines,
		      r->nr_fixed_lines == 1 ? "" : "s", r->nr_fixed, r->nr_fixed == 1 ? "" : "s");
	for (size_t i = 0; fmt == ST_FORMAT_TEXT && !r->quiet && i < r->nr_stacks; i++)
		stack_note(&r->stacks[i], st_out.verbosity > 0);
	if (r->nr_baseline && fmt == ST_FORMAT_TEXT)
		p_err("%zu finding%s not shown: the files had %s at %s "
		      "(--baseline none shows all)", r->nr_baseline,
		      r->nr_baseline == 1 ? "" : "s", r->nr_baseline == 1 ? "it" : "them",
		      baseline);
	/* said also in JSON and under -q: a gate judged less than usual */
	if (r->model_skipped)
		p_note("the bundled Kconfig model was not used (%s): ineffective-option and "
		       "unknown-symbol were not judged; --srctree judges them",
		       r->model_skipped);
	if (r->nr_fix_refused)
		p_err("--fix: %zu file(s) not rewritten: the migrated allocator would not take effect (see 'slubtiny migrate')",
		      r->nr_fix_refused);
}

int cmd_check(int argc, char **argv)
{
	struct st_check_run_opts o = { 0 };
	struct st_check_result r;
	struct st_check_config cfg;
	enum st_format fmt;
	struct st_render_opts ro;
	struct st_error e = { 0 };
	struct args a = { 0 };
	struct st_progress *prog;
	struct st_baseline bl = { .rev = "" };
	char label[600];
	char cwd[PATH_MAX];
	int ret, status;

	ret = parse_args(&a, argc, argv);
	if (ret)
		return ret > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
	fmt = st_out.format;
	if (a.list_rules) {
		list_rules();
		return ST_EXIT_OK;
	}
	if (st_cli_settings(&cfg, a.config, a.no_config)) {
		st_check_config_free(&cfg);
		return ST_EXIT_ERROR;
	}
	if (merge_config(&o, &a, &cfg)) {
		st_check_config_free(&cfg);
		return ST_EXIT_ERROR;
	}
	if (a.target) {
		struct st_kver v;

		if (st_kver_parse(a.target, &v)) {
			p_err("invalid --target '%s' (want e.g. 6.12)", a.target);
			st_check_config_free(&cfg);
			return ST_EXIT_ERROR;
		}
		o.rules.judge_major = o.rules.fix_major = v.major;
		o.rules.judge_minor = o.rules.fix_minor = v.minor;
	}
	o.shard_k = a.shard_k;
	o.shard_n = a.shard_n;
	o.allow_empty = a.allow_empty;
	o.skip_foreign = a.skip_non_kernel;
	o.config = &cfg;
	/* without a tree, the bundled model resolves what the rules cannot */
	o.model = !o.srctree;
	for (ret = optind; a.fix && ret < argc; ret++) {
		if (!strcmp(argv[ret], "-")) {
			p_err("--fix cannot rewrite standard input (use 'slubtiny migrate --in-place -')");
			st_check_config_free(&cfg);
			return ST_EXIT_ERROR;
		}
	}
	if (optind >= argc && !o.budget && !o.budgets) {
		p_err("no FILE or DIR given; see 'slubtiny check --help'");
		st_check_config_free(&cfg);
		return ST_EXIT_ERROR;
	}
	if (o.baseline && !strcmp(o.baseline, "auto") && optind < argc &&
	    auto_baseline(&o, &bl, argv[optind], fmt, label, sizeof(label))) {
		st_check_config_free(&cfg);
		return ST_EXIT_ERROR;
	}
	st_check_result_init(&r);
	r.srcroot = getcwd(cwd, sizeof(cwd));
	prog = st_progress_new("check");
	o.progress = st_progress_update;
	o.progress_ctx = prog;
	ret = st_check_run(&o, argv + optind, argc - optind, &r, &e);
	st_progress_end(prog);
	if (ret) {
		/* about no one file (an empty DIR, ...): the command's prefix */
		if (e.code && !e.file[0])
			p_err("%s", e.msg);
		else
			p_lib_err(&e, NULL, ret);
		st_check_render_error(stdout, fmt, e.code && e.file[0] ? e.file : NULL,
				      e.code ? e.msg : strerror(-ret), st_out.pretty);
		st_out.json_done = true;
		status = ST_EXIT_ERROR;
		goto out;
	}
	/* the ARCH conflicts of every file, judged or not: warnings first */
	for (size_t i = 0; i < r.nr_archs; i++)
		st_arch_warn(&r.archs[i].choice);
	/*
	 * Not one file could be judged (an ELF named alone, every stack
	 * broken): what a failed run prints, each file's error one line, the
	 * machine formats their error document.
	 */
	if (r.nr_errors && r.nr_errors >= r.nr_archs && !r.nr && !o.budget && !o.budgets) {
		st_check_sort(&r);	/* the errors by file, as after findings */
		for (size_t i = 0; i < r.nr_errors; i++)
			p_err("%s: %s", r.errors[i].file, r.errors[i].msg);
		st_check_render_error(stdout, fmt, r.errors[0].file, r.errors[0].msg,
				      st_out.pretty);
		st_out.json_done = true;
		status = ST_EXIT_ERROR;
		goto out;
	}
	st_check_apply_ignores(&r, &cfg);
	r.verbose = st_out.verbosity > 0;
	r.quiet = st_out.verbosity < 0;
	st_check_sort(&r);
	/*
	 * Text findings are diagnostics: on stderr, where gcc puts them, whole
	 * lines; the --format documents go to stdout.
	 */
	fflush(stdout);
	ro = st_render_opts(fmt);
	/* text goes to stderr: coloured when stderr is a terminal */
	ro.color = st_out.err_color && fmt == ST_FORMAT_TEXT;
	ret = st_check_render(fmt == ST_FORMAT_TEXT ? stderr : stdout, &r, &ro);
	st_out.json_done = true;
	if (ret) {
		p_err("cannot write the result: %s", strerror(-ret));
		status = ST_EXIT_ERROR;
		goto out;
	}
	say_after(&r, fmt, optind < argc, bl.rev[0] ? label : o.baseline);
	status = r.nr_errors || r.nr_not_kernel ? ST_EXIT_ERROR :
		 st_check_nr_failing(&r) ? ST_EXIT_FINDINGS : ST_EXIT_OK;
out:
	st_check_result_free(&r);
	st_check_config_free(&cfg);
	return status;
}
