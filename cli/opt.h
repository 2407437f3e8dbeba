/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_CLI_OPT_H
#define ST_CLI_OPT_H

/*
 * One table row per option: {long, short, id, ARG, help} and, for an
 * argument st_getopt() checks itself, its type. From the rows come the
 * getopt_long tables, the "Options:" part of --help, the unknown-option
 * error with its "did you mean", the errors of a bad number or choice,
 * shell completion and the man page test. Adding an option to a command is
 * adding a row and a case for its id.
 */
#include <stdbool.h>
#include <stdio.h>

/* What st_getopt() checks an option's argument to be before returning its id. */
enum st_opt_type {
	ST_OPT_TEXT,	/* anything (the command checks it, if at all) */
	ST_OPT_NUM,	/* a decimal number in [min, max], in st_optnum */
	ST_OPT_CHOICE,	/* one of the words of its "a|b|c" placeholder */
};

struct st_opt {
	const char *name;	/* long name without "--", or NULL */
	int shrt;		/* short letter, or 0 */
	int id;			/* what st_getopt() returns for it */
	const char *arg;	/* placeholder of its argument ("DIR"), or NULL */
	const char *help;	/* one line, lowercase, no full stop */
	enum st_opt_type type;
	unsigned long min, max;	/* ST_OPT_NUM */
};

/* The value of the ST_OPT_NUM option st_getopt() has just returned. */
extern unsigned long st_optnum;

/* Ids for options without a letter start here (above any character). */
#define ST_OPT_ID 0x100

/* Ids shared by every command that lists the option. */
enum {
	ST_OPT_JSON = 0x80,
	ST_OPT_FORMAT = 0x81,
	ST_OPT_MARKDOWN = 0x82,
	ST_OPT_QUIET = 'q',
	ST_OPT_VERBOSE = 'v',
};

#define ST_OPT_ROW_JSON	   { "json", 0, ST_OPT_JSON, NULL, "same as --format json: one JSON document on stdout (errors too)" }
#define ST_OPT_ROW_MARKDOWN { "markdown", 0, ST_OPT_MARKDOWN, NULL, "same as --format markdown" }
/*
 * --format NAME, NAME one of @names ("{text|json|sarif}"), the formats the
 * command prints: st_getopt() checks it and sets st_out.format (and
 * st_out.json). The same names everywhere: text, json, markdown, html,
 * svg, github, sarif (st_format_name()).
 */
#define ST_OPT_ROW_FORMAT(names) \
	{ "format", 0, ST_OPT_FORMAT, names, "output format (default: text)", ST_OPT_CHOICE }
#define ST_OPT_ROW_QUIET   { "quiet", 'q', ST_OPT_QUIET, NULL, "print only warnings and errors on stderr" }
#define ST_OPT_ROW_VERBOSE { "verbose", 'v', ST_OPT_VERBOSE, NULL, "print more (whole cause chains, every note)" }
#define ST_OPT_END	   { NULL, 0, 0, NULL, NULL }

/* What st_getopt() returns besides option ids. */
enum {
	ST_OPT_DONE = -1,	/* no more options: argv[optind] is the first operand */
	ST_OPT_FAIL = -2,	/* a usage error, printed: exit 2 */
	ST_OPT_HELP = -3,	/* --help was given and printed: exit 0 */
};

/*
 * Next option of @argv for command @cmd (a name in st_commands, or "footprint
 * gen"), parsed against @opts. -h/--help is always accepted. The common
 * options (--format, --json, --markdown, -q, -v) set st_out themselves when
 * they are in @opts and are not returned; a --format row of type
 * ST_OPT_TEXT (size's binutils names) returns the words that are not an
 * st_format's name. Two different formats are an error. A long option
 * must be spelled out: an abbreviation ("--srctre") is an unknown option,
 * as a typo is. Errors are printed in one
 * style:
 *   slubtiny: CMD: unknown option '--x' (did you mean '--y'?); see 'slubtiny CMD --help'
 * A typed row's argument is checked before its id is returned, the error
 * naming the option ("--threads '0': not a number from 1 to 64", "--accel
 * is kvm or tcg, not 'x'"): ST_OPT_FAIL.
 * optarg and optind as with getopt_long(). Start each parse with optind = 0
 * (done for you on the first call for a new @opts). Sets st_out.cmd to @cmd.
 */
int st_getopt(int argc, char **argv, const char *cmd, const struct st_opt *opts);

/* "text", "json", ... of @f; st_format_parse(): the format named @name, or -1. */
const char *st_format_name(int f);
int st_format_parse(const char *name);

/* Print "@title:" ("Options" for NULL) and a line per option of @opts (wrapped to 80 columns). */
void st_opt_print_help(FILE *f, const char *title, const struct st_opt *opts);

/* The long option of @opts closest to @word (for "did you mean"), or NULL. */
const char *st_opt_suggest(const struct st_opt *opts, const char *word);

/*
 * The argument @s of the option just returned by st_getopt() as a decimal
 * number in [@min, @max]. On error print one line naming the option and the
 * range ("slubtiny: CMD: --threads '0': not a number from 1 to 64") and
 * return -1.
 */
int st_opt_number(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/* Parse a job count: a number 1-1024, or 0 for all online CPUs (errors as above). */
int st_parse_jobs(const char *s, unsigned int *out);

/*
 * Parse --shard K/N (1 <= K <= N <= 65536) into *k and *n. On error print
 * one line "slubtiny: CMD: --shard 'S': ..." and return -1.
 */
int st_parse_shard(const char *s, unsigned int *k, unsigned int *n);

/*
 * Parse --cc-wrapper W (one of st_kernel_cc_wrapper_choices()) into *out,
 * a static string. On error print one line and return -1.
 */
int st_parse_cc_wrapper(const char *s, const char **out);

#define ST_OPT_SHARD_HELP "only the K-th of N parts of the files (sorted by path, every N-th)"

#endif
