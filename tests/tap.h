/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_TESTS_TAP_H
#define ST_TESTS_TAP_H
/*
 * The TAP helper of the unit tests (one copy): ok() prints one TAP line per
 * case and counts the failures; a test prints "1..nr_test" and exits
 * nr_fail != 0 at the end.
 */
#include <stdarg.h>
#include <stdio.h>

static int nr_test, nr_fail;

__attribute__((format(printf, 2, 3), unused))
static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	nr_test++;
	if (!cond)
		nr_fail++;
	printf("%sok %d - ", cond ? "" : "not ", nr_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#endif
