/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_CLI_H
#define ST_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "common/render.h"
#include "opt.h"
#include "kconfig/kconfig.h"
#include "linux/arch.h"

struct st_error;

/* Exit codes of every command. */
enum {
	ST_EXIT_OK = 0,
	ST_EXIT_FINDINGS = 1,
	ST_EXIT_ERROR = 2,
};

/* A line of a command's "Examples:" in --help and in the man page. */
struct st_example {
	const char *cmd;	/* the command line, starting with "slubtiny" */
	const char *what;	/* what it does, one line */
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;	/* one line, for the generated listing */
	const char *usage;	/* the operands after "slubtiny NAME [OPTIONS] " */
	const struct st_opt *opts;		/* its options (cli/opt.h) */
	const struct st_example *examples;	/* ends with { NULL } */
	void (*more_help)(FILE *f);		/* extra help text, or NULL */
	/*
	 * Its own commands ("footprint gen"), each with its options, or
	 * NULL. The first is what runs when no command word follows.
	 */
	const struct cmd *subs;
};

extern const struct cmd st_commands[];

/* Output settings shared by all commands. */
struct st_out {
	enum st_format format;	/* --format (text by default) */
	bool format_set;	/* a --format, --json or --markdown was given */
	bool json;	/* format is ST_FORMAT_JSON */
	bool pretty;	/* pretty JSON: on a TTY or with -p */
	bool color;	/* on a TTY, unless NO_COLOR is set */
	bool err_color;	/* diagnostics: stderr is a TTY, NO_COLOR unset */
	int verbosity;	/* -1 with -q, 0 by default, 1 and up with -v */
	unsigned int columns;	/* text width: 80 on a TTY (or $COLUMNS), 0 = unlimited */
	bool json_done;	/* the command's JSON document is on stdout */
	const char *cmd;	/* the running command ("footprint gen"), or NULL */
};
extern struct st_out st_out;

void st_out_init(void);

/*
 * The one error printer: "slubtiny: CMD: msg" on stderr, CMD being
 * st_out.cmd (just "slubtiny: msg" before a command runs). Printf-checked,
 * lowercase, no trailing newline. A message that already starts with the
 * command's name ("check: ...") does not get it twice.
 */
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * An output file (--html, --svg): st_out_open() says why it cannot be
 * opened and returns NULL; st_out_close() closes it, takes the renderer's
 * result (0 or -errno) and says what failed: 0, or -1 once said.
 */
FILE *st_out_open(const char *path);
int st_out_close(FILE *f, const char *path, int err);
/* Print a library error: "slubtiny: CMD: FILE: msg", or strerror(-err). */
void p_lib_err(const struct st_error *e, const char *file, int err);
/*
 * With --json, a command that fails before printing its document still puts
 * one on stdout: {"version", "error": {"file", "message"}} from the first
 * error printed. main() calls this when a command returns ST_EXIT_ERROR.
 */
void st_json_error_document(void);
/*
 * What a command that takes --arch was told about ARCH, into @given: @opt
 * (--arch's value or NULL), @cfg (a project config's, or NULL), $ARCH as
 * make reads it. Each file's own sources come after them
 * (st_arch_of_file()); a command without files decides over these and the
 * host (st_arch_decide()). An unknown ARCH, of the one told that wins, is
 * said on stderr naming it and where it came from: -EINVAL.
 */
int st_cli_arch(const char *opt, const char *cfg, struct st_arch_sources *given);

/*
 * The settings file of check and migrate into @cfg (zeroed when there is
 * none): @config (--config) if given, else none with @no_config
 * (--no-config), else .slubtiny.json found from the current directory
 * (st_check_config_find()). A file found but refused is said even without
 * -v, since a gate may have lost its settings; -v names the file used. An
 * unreadable or invalid file is an error naming it: -errno.
 */
struct st_check_config;
int st_cli_settings(struct st_check_config *cfg, const char *config, bool no_config);
/*
 * The kernel tree to use: --srctree's @opt, else the settings' "srctree",
 * except with @untrusted (--untrusted-settings) or SLUBTINY_UNTRUSTED_SETTINGS
 * set and not "0", which a note names.
 */
const char *st_cli_settings_srctree(const char *opt, const struct st_check_config *cfg,
				    bool untrusted);
/*
 * Text mode, unless -q: "slubtiny: CMD: msg" on stderr, for what the run
 * found or decided (not an error: never the JSON error document's).
 */
void p_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Each source @c's decision overruled (c->conflicts), on stderr, once per
 * text a run: "slubtiny: CMD: warning: ARCH=x86 from the environment
 * contradicts arch/arm/configs/ in the path; using arm" (the words are
 * st_arch_conflict_text()'s), also with -q and --json.
 */
void st_arch_warn(const struct st_arch_choice *c);

/*
 * The ARCHes a run judged its files for, grouped by ARCH and how it was
 * decided, said once per group after the run: "ARCH=arm (from symbols:
 * CONFIG_ARCH_AT91) for board/defconfig", "ARCH=arm (from the path) for 75
 * files".
 */
struct st_arch_tally {
	struct {
		char arch[32];
		enum st_arch_from from;
		char why[96];	/* "" when the files' differ */
		char file[256];	/* the first */
		size_t n;
	} g[32];
	size_t ng, dropped;
};
void st_arch_tally_add(struct st_arch_tally *t, const char *file, const char *arch,
		       enum st_arch_from from, const char *why);
/*
 * "checked 3 kernel configs (12 files looked at, 9 not kernel configs),
 * ARCH=arm (from path: arch/arm/configs/)"; with several ARCHes, one line
 * more for each.
 */
/* -v: each file a walk looked at and did not judge, and why. */
void st_say_skipped(char *const *paths, char *const *why, size_t n);
void st_say_found(size_t checked, size_t looked, size_t skipped,
		  const struct st_arch_tally *t);

/* Keep @msg as the run's error for that document, unless one is kept already. */
void st_record_error(const char *msg);

/*
 * Progress on stderr, never with -q. By default only on a terminal: a line
 * redrawn in place, once the run has taken SLUBTINY_PROGRESS_DELAY seconds
 * (default 1), cleared by st_progress_hide(). With ST_PROGRESS_LOG, also
 * on a pipe or a file (a CI log): there a whole line
 * "slubtiny: WHAT: [DONE/TOTAL] ITEM (SECONDS s)" every
 * SLUBTINY_PROGRESS_INTERVAL seconds (default 5) while the run goes on,
 * repeating the last state when nothing changed (a long compile or make).
 * With ST_PROGRESS_STEPS, on any stream, every update is such a line at
 * once, repeated every interval until the next one (for a few long steps).
 * st_progress_update() may be called from several threads; the repeats
 * come from a thread of the st_progress's own.
 */
enum {
	ST_PROGRESS_LOG = 1 << 0,
	ST_PROGRESS_STEPS = 1 << 1,
};
struct st_progress;
/* NULL (a valid st_progress that prints nothing) with -q or when nothing is drawn. */
struct st_progress *st_progress_open(const char *what, unsigned int flags);
/* st_progress_open(@what, 0): a terminal line only. */
struct st_progress *st_progress_new(const char *what);
void st_progress_update(void *progress, size_t done, size_t total, const char *item);
/*
 * Clear the line, if one is drawn, before other output; a log repeats
 * nothing until the next update. NULL is fine.
 */
void st_progress_hide(struct st_progress *p);
/* Clear the line (if one was drawn), stop and free. NULL is fine. */
void st_progress_end(struct st_progress *p);

/*
 * On a terminal, wrap stdout (@out) and stderr (@err) lines at st_out.columns
 * (cli/fit.c). For prose and reports, not for fixed formats or JSON.
 */
void st_fit_output(bool out, bool err);
/* Put the real streams back (before exit); -1 when writing stdout failed. */
int st_fit_end(void);

/* Print the help of @name to @f (from the command table). */
void st_usage(FILE *f, const char *name);
/* The command table entry of @name, or NULL. */
const struct cmd *st_find_cmd(const char *name);

/* Each command's option rows and examples (in cli/<command>.c). */
extern const struct st_opt st_migrate_opts[], st_check_opts[], st_size_diff_opts[],
	st_size_opts[], st_build_opts[], st_report_opts[], st_footprint_opts[],
	st_footprint_gen_opts[], st_footprint_boot_opts[], st_kernel_opts[];
extern const struct cmd st_footprint_cmds[];
extern const struct st_example st_migrate_examples[], st_check_examples[],
	st_size_diff_examples[], st_size_examples[], st_build_examples[],
	st_report_examples[], st_footprint_examples[], st_kernel_examples[];
void st_check_more_help(FILE *f);
void st_migrate_more_help(FILE *f);

int cmd_size_diff(int argc, char **argv);
int cmd_size(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_footprint(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_completion(int argc, char **argv);

/* How the command's result is printed in @format: st_out's pretty, colour and verbosity. */
struct st_render_opts st_render_opts(enum st_format format);

struct st_report;
/*
 * Print a report in st_out.format (text, JSON, Markdown or HTML) on stdout,
 * and HTML to @html too (cli/report.c; `kernel` reports through it as well).
 */
int report_render(const struct st_report *r, const char *html);

#endif
