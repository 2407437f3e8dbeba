// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny: migrate kernel configurations off SLOB/SLAB and measure what the
 * slab allocator variants cost. Subcommands are one table; the help listing
 * and the man page test are generated from it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "st_config.h"

const struct cmd st_commands[] = {
	{ "migrate", cmd_migrate, "rewrite SLOB/SLAB-era defconfigs and verify them against Kconfig",
	  "FILE|DIR|-...", st_migrate_opts, st_migrate_examples, st_migrate_more_help },
	{ "check", cmd_check, "lint defconfigs and size budgets (pre-commit / CI gate)",
	  "[FILE|DIR|-...]", st_check_opts, st_check_examples, st_check_more_help },
	{ "size-diff", cmd_size_diff, "compare symbol sizes of two ELF files (bloat-o-meter compatible)",
	  "OLD NEW", st_size_diff_opts, st_size_diff_examples, NULL },
	{ "size", cmd_size, "list section sizes of ELF files (binutils size compatible)",
	  "[FILE...]", st_size_opts, st_size_examples, NULL },
	{ "build", cmd_build, "build the bundled allocator variants for each architecture",
	  "", st_build_opts, st_build_examples, NULL },
	{ "report", cmd_report, "size table and diffs of every allocator variant and architecture",
	  "[NAME=PATH...]", st_report_opts, st_report_examples, NULL },
	{ "kernel", cmd_kernel, "build and measure each slab allocator on your own kernel tree",
	  "", st_kernel_opts, st_kernel_examples, NULL },
	{ "footprint", cmd_footprint, "replay allocation traces on each variant: pages held and speed",
	  "", st_footprint_opts, st_footprint_examples, NULL, st_footprint_cmds },
	{ "help", NULL, "show help for a command", "[COMMAND]", NULL, NULL, NULL },
	{ "completion", cmd_completion, "print a shell completion script generated from this table",
	  "{bash|zsh}", NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: slubtiny [--version] [--help] COMMAND [ARGS]\n\nCommands:\n");
	for (c = st_commands; c->name; c++)
		fprintf(f, "  %-11s %s\n", c->name, c->help);
	fprintf(f, "\nRun 'slubtiny COMMAND --help' for the options of a command.\n"
		   "Exit status: 0 clean, 1 findings, 2 error.\n");
}

/* The command closest to a mistyped @name, or NULL. */
static const char *st_cmd_suggest(const char *name)
{
	static struct st_opt rows[32];
	size_t i;

	for (i = 0; i < 31 && st_commands[i].name; i++)
		rows[i] = (struct st_opt){ st_commands[i].name, 0, 0, NULL, NULL };
	return st_opt_suggest(rows, name);
}

/*
 * "unknown command 'x' (did you mean 'y'?)", or for a word starting with '-'
 * "unknown option '--x' (did you mean '--version'?)", and the --help hint.
 */
static int unknown(const char *word)
{
	static const struct st_opt top[] = {
		{ "version", 'V', 'V', NULL, "" },
		ST_OPT_END,
	};
	const char *s;

	if (word[0] == '-') {
		s = word[1] == '-' ? st_opt_suggest(top, word + 2) : NULL;
		p_err("unknown option '%s'%s%s%s; see 'slubtiny --help'", word,
		      s ? " (did you mean '--" : "", s ? s : "", s ? "'?)" : "");
	} else {
		s = st_cmd_suggest(word);
		p_err("unknown command '%s'%s%s%s; see 'slubtiny --help'", word,
		      s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
	}
	return ST_EXIT_ERROR;
}

static int do_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		usage(stdout);
		return ST_EXIT_OK;
	}
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		st_usage(stdout, "help");
		return ST_EXIT_OK;
	}
	c = st_find_cmd(argv[1]);
	if (!c)
		return unknown(argv[1]);
	st_usage(stdout, c->name);
	return ST_EXIT_OK;
}

/* A full disk or a closed pipe is an error, not silence (git does the same). */
static int finish_stdout(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			p_err("write error on stdout: %s", strerror(errno));
		return ST_EXIT_ERROR;
	}
	return ret;
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	int ret;

	st_out_init();
	if (argc < 2) {
		usage(stderr);
		return ST_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("slubtiny %s\n", ST_VERSION);
		return finish_stdout(ST_EXIT_OK);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish_stdout(ST_EXIT_OK);
	}
	c = st_find_cmd(argv[1]);
	if (!c)
		return unknown(argv[1]);
	st_out.cmd = c->name;
	if (!c->fn)
		return finish_stdout(do_help(argc - 1, argv + 1));
	ret = c->fn(argc - 1, argv + 1);
	if (st_fit_end()) {
		if (errno != EPIPE)
			p_err("write error on stdout: %s", strerror(errno));
		return ST_EXIT_ERROR;
	}
	if (ret == ST_EXIT_ERROR && st_out.json && !st_out.json_done)
		st_json_error_document();
	return finish_stdout(ret);
}
