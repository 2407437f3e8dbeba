/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_DIAG_H
#define ST_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * The one diagnostic form of every command, gcc's (what editors and CI
 * annotate, and what kconfig's confdata.c prints):
 *
 *	FILE:LINE:COL: LEVEL: MESSAGE [RULE]
 *
 * ":LINE:COL" only for a diagnostic about a line, " [RULE]" only with a
 * rule. Never wrapped. A renderer: the library computes nothing here and
 * the CLI decides the stream (stderr, where gcc puts them) and the colour.
 */
enum st_diag_level {
	ST_DIAG_NOTE,
	ST_DIAG_WARNING,
	ST_DIAG_ERROR,
};

struct st_diag {
	enum st_diag_level level;
	const char *file;	/* as given: editors jump to it */
	int line;		/* 1-based; 0: about the whole file */
	int col;		/* 1-based; 0 is taken as 1 when @line is set */
	const char *rule;	/* the rule id, or NULL */
};

/*
 * Print one diagnostic, @fmt being the message, to @f. With @color, gcc's
 * colours: the location bold, "warning:" magenta, "error:" red, "note:"
 * cyan, the rule tag in the level's colour. 0, or -EIO when @f failed.
 */
int st_diag_print(FILE *f, bool color, const struct st_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int st_diag_vprint(FILE *f, bool color, const struct st_diag *d, const char *fmt,
		   va_list ap) __attribute__((format(printf, 4, 0)));

#endif
