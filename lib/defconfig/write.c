// SPDX-License-Identifier: GPL-2.0-only
/*
 * The project's only in-place writer: temp file in the same directory,
 * fsync, rename, fsync the directory. A crash at any point leaves either the
 * old or the new file, never a mix, and an error leaves the old one alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "defconfig/defconfig.h"

static int write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)	/* some filesystems can't */
		ret = -errno;
	close(fd);
	return ret;
}

/* The file we were given must be the one we read: same inode, size, mtime. */
static bool changed_since_read(const struct stat *now, const struct stat *then)
{
	return now->st_dev != then->st_dev || now->st_ino != then->st_ino ||
	       now->st_size != then->st_size ||
	       now->st_mtim.tv_sec != then->st_mtim.tv_sec ||
	       now->st_mtim.tv_nsec != then->st_mtim.tv_nsec;
}

/* Checks before anything is created; fills *st with the target's stat. */
static int check_target(const char *path, const char *real,
			const struct st_defconfig *dc, struct stat *st,
			struct st_error *err)
{
	if (dc->nr_errors)
		return st_err(err, EINVAL, path, "refusing to write a file with errors");
	if (stat(real, st) < 0)
		return st_err(err, errno, path, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st->st_mode))
		return st_err(err, EINVAL, path, "not a regular file");
	if (access(real, W_OK) < 0)
		return st_err(err, errno, path, "not writable: %s", strerror(errno));
	if (dc->have_stat && changed_since_read(st, &dc->st))
		return st_err(err, EAGAIN, path, "changed since it was read; not overwriting");
	return 0;
}

int st_defconfig_write_atomic(const char *path, const struct st_defconfig *dc,
			      struct st_error *err)
{
	char real[PATH_MAX], tmp[PATH_MAX + 16], dirbuf[PATH_MAX];
	char *buf = NULL, *dir, *base;
	struct stat st;
	size_t len;
	int fd = -1, ret;

	if (!realpath(path, real))
		return st_err(err, errno, path, "cannot resolve: %s", strerror(errno));
	ret = check_target(path, real, dc, &st, err);
	if (ret)
		return ret;
	if (st_defconfig_render(dc, &buf, &len))
		return st_err(err, ENOMEM, path, "out of memory");

	snprintf(dirbuf, sizeof(dirbuf), "%s", real);
	dir = dirname(dirbuf);
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >= (int)sizeof(tmp)) {
		ret = st_err(err, ENAMETOOLONG, path, "path too long");
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = st_err(err, errno, path, "cannot create a temporary file in %s: %s",
			     dir, strerror(errno));
		goto out;
	}
	/* Owner first: fchown may clear set-id bits that fchmod then restores. */
	if (geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid) < 0) {
		ret = st_err(err, errno, path, "cannot keep the owner: %s", strerror(errno));
		goto out_unlink;
	}
	if (fchmod(fd, st.st_mode & 07777) < 0) {
		ret = st_err(err, errno, path, "cannot keep the mode: %s", strerror(errno));
		goto out_unlink;
	}
	ret = write_all(fd, buf, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (ret) {
		ret = st_err(err, -ret, path, "write error: %s", strerror(-ret));
		goto out_unlink;
	}
	if (close(fd) < 0) {
		fd = -1;
		ret = st_err(err, errno, path, "write error: %s", strerror(errno));
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, real) < 0) {
		ret = st_err(err, errno, path, "cannot rename into place: %s", strerror(errno));
		goto out_unlink;
	}
	ret = fsync_dir(dir);
	if (ret)
		ret = st_err(err, -ret, path, "written, but cannot sync %s: %s",
			     dir, strerror(-ret));
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(buf);
	return ret;
}
