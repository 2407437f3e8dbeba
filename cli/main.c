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
	  "[--in-place | --check] [--json] [--srctree DIR] [--arch ARCH] [--cross-compile PREFIX] "
	  "[--target VERSION] [--fix-deps] [--no-verify] [--force] [--all] FILE|DIR..." },
	{ "check", cmd_check, "lint defconfigs and size budgets (pre-commit / CI gate)",
	  "[--srctree DIR] [--arch ARCH] [--format {text|json|github|sarif}] [--json] [--fix] "
	  "[--budget FILE] [--builddir DIR] [--select RULE,...] [--ignore RULE,...] "
	  "[--config FILE | --no-config] [--baseline {REV|none}] [FILE|DIR...]" },
	{ "size-diff", cmd_size_diff, "compare symbol sizes of two ELF files (bloat-o-meter compatible)",
	  "[-c | -d | -t] [-p PREFIX] [--json] [--exit-code] OLD NEW" },
	{ "size", cmd_size, "list section sizes of ELF files (binutils size compatible)",
	  "[-A | -B | -G | --format={berkeley|sysv|gnu}] [-d | -o | -x | --radix={8|10|16}] "
	  "[--common] [-t] [--json] [FILE...]" },
	{ "build", cmd_build, "build the bundled allocator variants for each architecture",
	  "[--variant V]... [--arch A]... [-j N] [--builddir DIR] [--json]" },
	{ "report", cmd_report, "size table and diffs of every allocator variant and architecture",
	  "[--baseline VARIANT] [--variant V]... [--arch A]... [-j N] [--builddir DIR] "
	  "[--json | --markdown] [--html FILE] [--attribute] [--objects NAME=PATH...] "
	  "[--merge SHARD.json...]" },
	{ "kernel", cmd_kernel, "build and measure each slab allocator on your own kernel tree",
	  "--srctree DIR [--defconfig FILE|TARGET] [--arch A]... [--cross-compile [A=]PREFIX]... "
	  "[--variant V]... [--baseline V] [--objects | --vmlinux] [-j N] [--builddir DIR] "
	  "[--shard K/N] [--json | --markdown] [--html FILE]" },
	{ "footprint", cmd_footprint, "replay allocation traces on each variant: pages held and speed",
	  "[gen SHAPE [--binary] [--seed N] [--scale N]] [--variant V]... [--trace FILE]... "
	  "[--threads N] [--time-ms MS] [--json] [--svg FILE]" },
	{ "help", NULL, "show help for a command", "[COMMAND]" },
	{ NULL, NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: slubtiny [--version] [--help] COMMAND [ARGS]\n\nCommands:\n");
	for (c = st_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->help);
	fprintf(f, "\nRun 'slubtiny COMMAND --help' for the options of a command.\n"
		   "Exit status: 0 clean, 1 findings, 2 error.\n");
}

static const struct cmd *find_cmd(const char *name)
{
	const struct cmd *c;

	for (c = st_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static int do_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		usage(stdout);
		return ST_EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		p_err("unknown command '%s'", argv[1]);
		return ST_EXIT_ERROR;
	}
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
	c = find_cmd(argv[1]);
	if (!c) {
		p_err("unknown command '%s'; see 'slubtiny --help'", argv[1]);
		return ST_EXIT_ERROR;
	}
	if (!c->fn)
		return finish_stdout(do_help(argc - 1, argv + 1));
	return finish_stdout(c->fn(argc - 1, argv + 1));
}
