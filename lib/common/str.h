/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_STR_H
#define ST_STR_H

#include <stddef.h>
#include <stdio.h>

/* A formatted string the caller frees; NULL when out of memory. */
char *st_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A formatted path into @buf of PATH_MAX bytes: 0, or -ENAMETOOLONG when it
 * does not fit (@buf then holds a cut path that fails to open later).
 */
int st_pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Like st_pathf() into @buf of @len bytes: 0, or -ENAMETOOLONG when the
 * text was cut.
 */
int st_bufprintf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * @s split at blanks (spaces, tabs) into a NULL-terminated vector of
 * malloc'd words, as a shell splits an unquoted $CC: empty for a blank @s,
 * NULL when out of memory. Freed by st_free_words().
 */
char **st_split_words(const char *s);
void st_free_words(char **v);

/* A counted vector of malloc'd strings: free the @n of @v, then @v (NULL is fine). */
void st_strv_free(char **v, size_t n);

/*
 * Write @s to @f escaped for HTML and XML text and attribute values (SVG
 * too); control characters, which XML 1.0 forbids, become '?'. NULL writes
 * nothing. Names from a build may hold anything.
 */
void st_xml_escape(FILE *f, const char *s);

#endif
