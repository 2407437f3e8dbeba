// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"

int st_err(struct st_error *e, int code, const char *file, const char *fmt, ...)
{
	va_list ap;

	if (code < 0)
		code = -code;
	if (!e)
		return -code;
	/* Keep the first, innermost error: it is the most precise one. */
	if (e->code)
		return -code;
	e->code = code ? code : 1;
	snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -code;
}

void st_error_clear(struct st_error *e)
{
	if (e)
		memset(e, 0, sizeof(*e));
}
