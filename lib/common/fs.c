// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening the files slubtiny reads. Every input path may be a FIFO, a
 * device or a directory by mistake (or by malice); a blocking open() of a
 * FIFO waits for a writer forever, so all readers come through here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"

/* Why @mode is not read, as the end of "slubtiny: FILE: ..." */
static const char *not_regular(mode_t mode)
{
	if (S_ISDIR(mode))
		return "is a directory, not a regular file";
	if (S_ISFIFO(mode))
		return "is a FIFO, not a regular file";
	if (S_ISSOCK(mode))
		return "is a socket, not a regular file";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "is a device, not a regular file";
	return "not a regular file";
}

int st_open_regular(const char *path, int *fdp, struct stat *stp, struct st_error *e)
{
	struct stat st;
	int fd, fl, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return st_err(e, errno, path, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0) {
		err = errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return st_err(e, S_ISDIR(st.st_mode) ? EISDIR : EINVAL, path, "%s",
			      not_regular(st.st_mode));
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		err = errno;
		goto fail;
	}
	if (stp)
		*stp = st;
	*fdp = fd;
	return 0;
fail:
	close(fd);
	return st_err(e, err, path, "%s", strerror(err));
}

/* @real (resolved) is @root or below it. */
static bool below_root(const char *real, const char *root)
{
	size_t n = strlen(root);

	if (n == 1 && root[0] == '/')
		return true;
	return !strncmp(real, root, n) && (real[n] == '/' || !real[n]);
}

int st_path_within(const char *path, const char *root)
{
	char real[PATH_MAX], dir[PATH_MAX];
	const char *slash;

	if (realpath(path, real))
		return below_root(real, root);
	if (errno != ENOENT)
		return -errno;
	/* a missing file: where its directory is (no ".." after it) */
	slash = strrchr(path, '/');
	if (slash && (!strcmp(slash + 1, "..") || !strcmp(slash + 1, ".")))
		return -ENOENT;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path),
			  path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	if (!realpath(dir, real))
		return -errno;
	return below_root(real, root);
}

FILE *st_fopen_regular(const char *path)
{
	struct st_error e = { 0 };
	FILE *f;
	int fd;

	if (st_open_regular(path, &fd, NULL, &e)) {
		errno = e.code;
		return NULL;
	}
	f = fdopen(fd, "re");
	if (!f) {
		e.code = errno;
		close(fd);
		errno = e.code;
	}
	return f;
}

int st_read_file(const char *path, char **buf, size_t *len, size_t max,
		 struct stat *stp, struct st_error *e)
{
	struct stat st;
	size_t got = 0;
	ssize_t n;
	char *b;
	int fd, ret;

	ret = st_open_regular(path, &fd, &st, e);
	if (ret)
		return ret;
	if ((size_t)st.st_size > max) {
		ret = st_err(e, EFBIG, path, "file too large (over %zu bytes)", max);
		goto out;
	}
	b = malloc(st.st_size + 1);
	if (!b) {
		ret = st_err(e, ENOMEM, path, "out of memory");
		goto out;
	}
	/* Read what is there; a file that grows meanwhile is read to st_size. */
	while (got < (size_t)st.st_size) {
		n = read(fd, b + got, st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = st_err(e, errno, path, "read error: %s", strerror(errno));
			free(b);
			goto out;
		}
		if (!n)
			break;
		got += n;
	}
	b[got] = '\0';
	if (stp)
		*stp = st;
	*buf = b;
	*len = got;
out:
	close(fd);
	return ret;
}

char *st_read_text(const char *path, size_t *len)
{
	struct st_error e = { 0 };
	size_t n;
	char *buf;
	int ret = st_read_file(path, &buf, &n, 1UL << 30, NULL, &e);

	if (ret) {
		errno = -ret;
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

int st_mkdir_p(const char *path)
{
	char buf[PATH_MAX], *p;

	if (st_pathf(buf, "%s", path))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

int st_private_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	/*
	 * Ours and writable by us alone (an older slubtiny made it 0755): no
	 * one else can have put anything in it, so closing it is safe.
	 */
	if ((st.st_mode & 07777) != 0700 && chmod(path, 0700))
		return -EPERM;
	return 0;
}

int st_tmp_open(const char *path, char *tmp, size_t len, mode_t mode)
{
	static atomic_uint seq;
	unsigned int i;
	int fd;

	for (i = 0; i < 64; i++) {
		if (st_bufprintf(tmp, len, "%s.tmp.%ld.%u", path, (long)getpid(),
				 atomic_fetch_add(&seq, 1)))
			return -ENAMETOOLONG;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		/* a name someone made first, a symlink above all: the next one */
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int st_write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	const char *p = data;
	ssize_t w;
	int fd, ret = 0;

	/* beside @path, so the rename stays on one file system */
	fd = st_tmp_open(path, tmp, sizeof(tmp), mode);
	if (fd < 0)
		return fd;
	while (len) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		p += w;
		len -= w;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int st_stream_status(FILE *f)
{
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}
