// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/error.h"

struct st_out st_out;

void st_out_init(void)
{
	const char *nc = getenv("NO_COLOR");
	bool tty = isatty(STDOUT_FILENO);

	st_out.pretty = tty;
	st_out.color = tty && !(nc && *nc);
}

void p_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("slubtiny: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void p_lib_err(const struct st_error *e, const char *file, int err)
{
	if (e && e->code) {
		if (e->file[0])
			p_err("%s: %s", e->file, e->msg);
		else
			p_err("%s", e->msg);
		return;
	}
	if (file)
		p_err("%s: %s", file, strerror(err < 0 ? -err : err));
	else
		p_err("%s", strerror(err < 0 ? -err : err));
}

void st_usage(FILE *f, const char *name)
{
	const struct cmd *c;

	for (c = st_commands; c->name; c++) {
		if (strcmp(c->name, name))
			continue;
		fprintf(f, "Usage: slubtiny %s %s\n\n%s\n", c->name, c->usage, c->help);
		return;
	}
}

bool st_wants_help(int argc, char **argv, const char *name)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			st_usage(stdout, name);
			return true;
		}
	}
	return false;
}
