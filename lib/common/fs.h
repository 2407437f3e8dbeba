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

/*
 * The whole of the regular file @path, NUL-terminated, for the caller to
 * free (*@len, if not NULL, its length); NULL with errno set. For files the
 * program made itself or was pointed at, up to 1 GiB.
 */
char *st_read_text(const char *path, size_t *len);

/*
 * Is @path, every symlink of it resolved, @root or below it? @root is a
 * resolved directory (realpath()). 1 when it is, 0 when it is elsewhere;
 * a @path that does not exist is judged by its resolved directory (0 when
 * that is elsewhere), and -errno when that cannot be resolved either.
 */
int st_path_within(const char *path, const char *root);

/* mkdir -p @path (mode 0777 before the umask): 0 or -errno. */
int st_mkdir_p(const char *path);

/*
 * A directory only we can write, for a cache whose contents later runs
 * trust: @path is made 0700 when missing; an existing one must be a
 * directory (not a symlink) owned by the effective uid and writable by no
 * one else; 0755 of an older slubtiny is closed to 0700. 0, -ENOTDIR (not
 * a directory, or a symlink), -EPERM (someone else's or group/world
 * writable), or another -errno.
 */
int st_private_dir(const char *path);

/*
 * A new temporary file beside @path for writing (O_EXCL | O_NOFOLLOW, so a
 * name planted in advance, a symlink above all, is never opened): its name
 * into @tmp (@len bytes), "<path>.tmp.<pid>.<n>". The descriptor, or
 * -errno.
 */
int st_tmp_open(const char *path, char *tmp, size_t len, mode_t mode);

/*
 * Write a file the program makes (a cache entry, a stamp, a result) so that
 * a reader never sees half of it: @len bytes of @data to a temporary file
 * beside @path (st_tmp_open()), fsync, rename over @path. 0 or -errno; on error @path is
 * as it was. A user's own file is edited in place only by lib/defconfig's
 * writer, which keeps its owner, mode and attributes and refuses a file
 * changed meanwhile: this one keeps nothing of an old @path.
 */
int st_write_file(const char *path, const void *data, size_t len, mode_t mode);

/*
 * Flush @f and say whether everything written to it got out: 0, or
 * -errno (-EIO when the stream only has its error flag). A printer's last
 * word, so that a full disk or a closed pipe is not a silent success.
 */
int st_stream_status(FILE *f);

#endif
