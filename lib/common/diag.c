// SPDX-License-Identifier: GPL-2.0-only
/* gcc-form diagnostics (diag.h): one printer for check and migrate. */
#include <errno.h>
#include <stdlib.h>

#include "common/diag.h"

/* gcc's default GCC_COLORS: locus bold, warning magenta, error red, note cyan. */
#define SGR_BOLD	"\033[01m\033[K"
#define SGR_RESET	"\033[m\033[K"

static const char *const level_name[] = {
	[ST_DIAG_NOTE] = "note", [ST_DIAG_WARNING] = "warning", [ST_DIAG_ERROR] = "error",
};
static const char *const level_sgr[] = {
	[ST_DIAG_NOTE] = "\033[01;36m\033[K", [ST_DIAG_WARNING] = "\033[01;35m\033[K",
	[ST_DIAG_ERROR] = "\033[01;31m\033[K",
};

/* The diagnostic into @f, piece by piece. */
static void diag_put(FILE *f, bool color, const struct st_diag *d, const char *fmt, va_list ap)
{
	const char *on = color ? level_sgr[d->level] : "", *off = color ? SGR_RESET : "";

	fprintf(f, "%s%s", color ? SGR_BOLD : "", d->file);
	if (d->line > 0)
		fprintf(f, ":%d:%d", d->line, d->col > 0 ? d->col : 1);
	/* as gcc: the colour takes the blank after "warning:" too */
	fprintf(f, ":%s %s%s: %s", off, on, level_name[d->level], off);
	vfprintf(f, fmt, ap);
	if (d->rule)
		fprintf(f, " [%s%s%s]", on, d->rule, off);
	fputc('\n', f);
}

int st_diag_vprint(FILE *f, bool color, const struct st_diag *d, const char *fmt, va_list ap)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	/*
	 * One write per line: stderr is unbuffered, and six writes a line
	 * were most of the time of a file with a hundred thousand findings.
	 */
	if (!m) {
		diag_put(f, color, d, fmt, ap);
	} else {
		diag_put(m, color, d, fmt, ap);
		if (fclose(m) == 0)
			fwrite(buf, 1, len, f);
		free(buf);
	}
	return ferror(f) ? -EIO : 0;
}

int st_diag_print(FILE *f, bool color, const struct st_diag *d, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = st_diag_vprint(f, color, d, fmt, ap);
	va_end(ap);
	return ret;
}
