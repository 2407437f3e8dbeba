// SPDX-License-Identifier: GPL-2.0-only
/* Formatted strings and paths, and text escaped for the XML renderers. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

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

int st_pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
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
