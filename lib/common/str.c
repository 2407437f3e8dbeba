// SPDX-License-Identifier: GPL-2.0-only
/* Formatted strings and paths, and text escaped for the XML renderers. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/str.h"

char *st_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static int vbufprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int st_pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vbufprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	return ret;
}

int st_bufprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vbufprintf(buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

void st_free_words(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void st_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

char **st_split_words(const char *s)
{
	/* n words need at least 2n - 1 characters */
	char **v = calloc(strlen(s) / 2 + 2, sizeof(*v));
	size_t n = 0;
	const char *w;

	if (!v)
		return NULL;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		w = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		v[n] = strndup(w, s - w);
		if (!v[n++]) {
			st_free_words(v);
			return NULL;
		}
	}
	return v;
}

void st_xml_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			putc((unsigned char)*s < ' ' ? '?' : *s, f);
		}
	}
}
