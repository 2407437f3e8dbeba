/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_ERROR_H
#define ST_ERROR_H

/*
 * Library functions return 0 or -errno and never print. When they have more
 * to say than an errno, they fill a struct st_error that the caller owns;
 * the CLI prints it as "slubtiny: FILE: msg".
 */
struct st_error {
	int code;		/* positive errno, 0 when unset */
	char file[512];		/* the object the message is about, may be "" */
	char msg[512];
};

/* Record an error about @file and return -@code, for "return st_err(...)". */
int st_err(struct st_error *e, int code, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

void st_error_clear(struct st_error *e);

#endif
