/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_FS_H
#define ST_FS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

struct st_error;

/*
 * Open @path read-only and refuse anything but a regular file. The open is
 * non-blocking so that a FIFO nobody writes to is refused instead of
 * hanging; the returned descriptor is blocking again. @st, if not NULL,
 * receives the file's status. Returns 0 and the descriptor in *@fdp, or
 * -errno with @e naming @path.
 */
int st_open_regular(const char *path, int *fdp, struct stat *st, struct st_error *e);

/* st_open_regular() as a stdio stream ("re"); NULL with errno set. */
FILE *st_fopen_regular(const char *path);

/*
 * Read the whole regular file @path into a NUL-terminated buffer the caller
 * frees. Files over @max bytes are refused. @st, if not NULL, receives the
 * file's status as of the open.
 */
int st_read_file(const char *path, char **buf, size_t *len, size_t max,
		 struct stat *st, struct st_error *e);

#endif
