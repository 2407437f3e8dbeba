/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_CLI_H
#define ST_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct st_error;

/* Exit codes of every command. */
enum {
	ST_EXIT_OK = 0,
	ST_EXIT_FINDINGS = 1,
	ST_EXIT_ERROR = 2,
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;	/* one line, for the generated listing */
	const char *usage;	/* the synopsis after "slubtiny NAME " */
};

extern const struct cmd st_commands[];

/* Output settings shared by all commands. */
struct st_out {
	bool json;
	bool pretty;	/* pretty JSON: on a TTY or with -p */
	bool color;	/* on a TTY, unless NO_COLOR is set */
};
extern struct st_out st_out;

void st_out_init(void);

/* "slubtiny: msg" on stderr (printf-checked, lowercase, no trailing newline). */
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a library error: "slubtiny: FILE: msg" or strerror(-err). */
void p_lib_err(const struct st_error *e, const char *file, int err);

/* Print the usage of @name to @f (from the command table). */
void st_usage(FILE *f, const char *name);
/* Handle -h/--help: print usage and return true. */
bool st_wants_help(int argc, char **argv, const char *name);

int cmd_size_diff(int argc, char **argv);
int cmd_size(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_footprint(int argc, char **argv);
int cmd_kernel(int argc, char **argv);

struct st_report;
/* Print a report as text, Markdown or JSON (st_out.json), and HTML to @html. */
int kernel_render(const struct st_report *r, bool markdown, const char *html);

#endif
