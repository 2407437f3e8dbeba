// SPDX-License-Identifier: GPL-2.0-only
/*
 * The project's only in-place writer: temp file in the same directory,
 * fsync, rename, fsync the directory. A crash at any point leaves either the
 * old or the new file, never a mix, and an error leaves the old one alone.
 *
 * Nothing of the old file is lost: the temp file gets its owner, group,
 * mode and extended attributes (POSIX ACLs included) before the rename; an
 * edit made meanwhile by someone else makes us refuse; every signal that
 * would end the process removes the temp file first; a file with other
 * hard links, or anything but a regular file, is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "defconfig/defconfig.h"

#define ACL_ACCESS	"system.posix_acl_access"

/* The target: resolved, opened and write-locked for the whole write. */
struct target {
	char real[PATH_MAX];
	char dir[PATH_MAX];
	struct stat st;
	int fd;
};

/*
 * The temp file a signal handler must remove. One write at a time (the
 * mutex), so one static path: the handler may only unlink() and raise().
 */
static pthread_mutex_t tmp_mutex = PTHREAD_MUTEX_INITIALIZER;
static char tmp_path[PATH_MAX + 16];
static volatile sig_atomic_t tmp_armed;
static struct sigaction tmp_old[NSIG], xfsz_old;
static bool tmp_caught[NSIG];

static void on_signal(int sig)
{
	if (tmp_armed)
		unlink(tmp_path);
	tmp_armed = 0;
	/* The old disposition (the default: die of the signal) gets it next. */
	sigaction(sig, &tmp_old[sig], NULL);
	raise(sig);
}

static void block_signals(bool block)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	for (sig = 1; sig < NSIG; sig++)
		if (tmp_caught[sig])
			sigaddset(&set, sig);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/*
 * Catch every signal that would end us and is not ignored (nohup's SIGHUP
 * stays ignored): SIGQUIT, SIGALRM, SIGPIPE, SIGUSR1... as well as SIGINT,
 * SIGTERM and SIGHUP must take the temp file with them. Ignore SIGXFSZ:
 * past `ulimit -f`, write() fails with EFBIG and the error names the file,
 * instead of a silent death.
 */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal }, ign = { .sa_handler = SIG_IGN };
	int sig;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	for (sig = 1; sig < NSIG; sig++) {
		tmp_caught[sig] = false;
		/* glibc keeps two real-time signals for itself: EINVAL */
		if (!st_signal_kills(sig) || sigaction(sig, NULL, &tmp_old[sig]) < 0 ||
		    tmp_old[sig].sa_handler == SIG_IGN)
			continue;
		tmp_caught[sig] = !sigaction(sig, &sa, NULL);
	}
	sigaction(SIGXFSZ, &ign, &xfsz_old);
}

static void release_signals(void)
{
	int sig;

	sigaction(SIGXFSZ, &xfsz_old, NULL);
	for (sig = 1; sig < NSIG; sig++)
		if (tmp_caught[sig])
			sigaction(sig, &tmp_old[sig], NULL);
}

/* mkostemp() into tmp_path with no moment where a signal could leak it. */
static int tmp_create(const char *dir, const char *base)
{
	int fd, ret = 0;

	if (snprintf(tmp_path, sizeof(tmp_path), "%s/.%s.XXXXXX", dir, base) >=
	    (int)sizeof(tmp_path))
		return -ENAMETOOLONG;
	block_signals(true);
	fd = mkostemp(tmp_path, O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		ret = -errno;
	else
		tmp_armed = 1;
	block_signals(false);
	return ret ? ret : fd;
}

static void tmp_remove(void)
{
	block_signals(true);
	unlink(tmp_path);
	tmp_armed = 0;
	block_signals(false);
}

static int tmp_rename(const char *to)
{
	int ret = 0;

	block_signals(true);
	if (rename(tmp_path, to) < 0)
		ret = -errno;
	else
		tmp_armed = 0;
	block_signals(false);
	return ret;
}

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

unsigned long long st_defconfig_sum(const char *buf, size_t len)
{
	unsigned long long h = 14695981039346656037ULL;

	while (len--) {
		h ^= (unsigned char)*buf++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The sum of the first @size bytes of @fd; -EAGAIN if it has fewer. */
static int fd_sum(int fd, off_t size, unsigned long long *sum)
{
	char *buf = malloc(size + 1);
	off_t len = 0;
	ssize_t n;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (len < size) {
		n = pread(fd, buf + len, size - len, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n ? -errno : -EAGAIN;
			goto out;
		}
		len += n;
	}
	*sum = st_defconfig_sum(buf, len);
out:
	free(buf);
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

/*
 * True if resolving @path goes through a /proc link to an open file
 * (/dev/stdin, /dev/fd/N): the user named a descriptor, not the file the
 * shell happened to open for it.
 */
static bool through_fd_link(const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	if (fd >= 0) {
		close(fd);
		return false;
	}
	if (errno == ELOOP)
		return true;
	/* kernels before 5.6: the usual names */
	return !strncmp(path, "/dev/std", 8) || !strncmp(path, "/dev/fd/", 8) ||
	       !strncmp(path, "/proc/", 6);
}

/*
 * Resolve, check, open and lock @path; fills *t. With @within, the resolved
 * file must be in that directory (a resolved one).
 */
static int open_target(const char *path, const struct st_defconfig *dc, const char *within,
		       struct target *t, struct st_error *err)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char dirbuf[PATH_MAX];
	struct stat st;

	if (dc->nr_errors)
		return st_err(err, EINVAL, path, "refusing to write a file with errors");
	if (!realpath(path, t->real))
		return st_err(err, errno, path, "cannot resolve: %s", strerror(errno));
	/* a committed symlink must not take a write out of the tree walked */
	if (within && st_path_within(t->real, within) != 1)
		return st_err(err, EXDEV, path,
			      "resolves to %s, outside %s: not writing through a link that leaves "
			      "the directory walked (name the file itself to write it)",
			      t->real, within);
	if (through_fd_link(path))
		return st_err(err, EINVAL, path, "names an open file descriptor, not a file: not writing it");
	if (stat(t->real, &st) < 0)
		return st_err(err, errno, path, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return st_err(err, EINVAL, path, "not a regular file");
	t->fd = open(t->real, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (t->fd < 0)
		return st_err(err, errno, path, "not writable: %s", strerror(errno));
	if (fstat(t->fd, &t->st) < 0)
		return st_err(err, errno, path, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(t->st.st_mode) || t->st.st_ino != st.st_ino || t->st.st_dev != st.st_dev)
		return st_err(err, EAGAIN, path, "changed while slubtiny was working");
	if (t->st.st_nlink > 1)
		return st_err(err, EMLINK, path,
			      "has %ju hard links: not writing (the other names would keep the old text)",
			      (uintmax_t)t->st.st_nlink);
	if (dc->have_stat && changed_since_read(&t->st, &dc->st))
		return st_err(err, EAGAIN, path, "changed since it was read; not overwriting");
	/*
	 * Another slubtiny (or any fcntl-locking writer) keeps its hands off.
	 * Where there are no locks (ENOLCK: NFS without lockd) the check
	 * before the rename still guards against editors, which take none.
	 */
	if (fcntl(t->fd, F_OFD_SETLK, &fl) < 0 &&
	    (errno != EINVAL || fcntl(t->fd, F_SETLK, &fl) < 0) && errno != ENOLCK)
		return st_err(err, errno, path, "cannot lock: %s",
			      errno == EAGAIN || errno == EACCES ?
			      "another process is writing it" : strerror(errno));
	snprintf(dirbuf, sizeof(dirbuf), "%s", t->real);
	snprintf(t->dir, sizeof(t->dir), "%s", dirname(dirbuf));
	return 0;
}

/*
 * Copy the extended attributes of @from to @to (POSIX ACLs are
 * system.posix_acl_* ones); @to keeps no access ACL that @from lacks (one
 * inherited from the directory's default ACL). The failing name in @name.
 */
static int copy_xattrs(int from, int to, char *name, size_t size)
{
	char *list = NULL, *val = NULL, *old = NULL, *p;
	ssize_t llen, vlen, olen;
	bool acl = false;
	int ret = 0;

	snprintf(name, size, "(list)");
	llen = flistxattr(from, NULL, 0);
	if (llen < 0)
		return errno == ENOTSUP ? 0 : -errno;
	list = malloc(llen + 1);
	if (!list)
		return -ENOMEM;
	llen = flistxattr(from, list, llen);
	if (llen < 0) {
		ret = -errno;
		goto out;
	}
	for (p = list; p < list + llen; p += strlen(p) + 1) {
		snprintf(name, size, "%s", p);
		acl |= !strcmp(p, ACL_ACCESS);
		vlen = fgetxattr(from, p, NULL, 0);
		if (vlen < 0)
			goto err;
		free(val);
		free(old);
		val = malloc(vlen + 1);
		old = malloc(vlen + 1);
		if (!val || !old) {
			ret = -ENOMEM;
			goto out;
		}
		vlen = fgetxattr(from, p, val, vlen);
		if (vlen < 0)
			goto err;
		/* already right (a security label the kernel gave it) */
		olen = fgetxattr(to, p, old, vlen);
		if (olen == vlen && !memcmp(old, val, vlen))
			continue;
		if (fsetxattr(to, p, val, vlen, 0) < 0)
			goto err;
	}
	snprintf(name, size, ACL_ACCESS);
	if (!acl && fremovexattr(to, ACL_ACCESS) < 0 &&
	    errno != ENODATA && errno != ENOTSUP)
		goto err;
	goto out;
err:
	ret = -errno;
out:
	free(old);
	free(val);
	free(list);
	return ret;
}

/*
 * Give the temp file the target's owner, group, xattrs and mode. A user who
 * may not give the file away (EPERM) still succeeds when the temp file
 * already has the same owner and group; else we refuse, as the file would
 * change hands. The mode comes last: fchown clears set-id bits and a POSIX
 * ACL sets the group bits from its mask.
 */
static int keep_attrs(int fd, const struct target *t, const char *path,
		      struct st_error *err)
{
	const struct stat *st = &t->st;
	char name[256];
	struct stat now;
	int ret;

	if (fchown(fd, st->st_uid, st->st_gid) < 0 &&
	    (errno != EPERM || fstat(fd, &now) < 0 ||
	     now.st_uid != st->st_uid || now.st_gid != st->st_gid))
		return st_err(err, errno, path, "cannot keep owner %ju and group %ju: %s",
			      (uintmax_t)st->st_uid, (uintmax_t)st->st_gid,
			      strerror(errno));
	ret = copy_xattrs(t->fd, fd, name, sizeof(name));
	if (ret)
		return st_err(err, -ret, path, "cannot keep extended attribute %s: %s",
			      name, strerror(-ret));
	if (fchmod(fd, st->st_mode & 07777) < 0)
		return st_err(err, errno, path, "cannot keep the mode: %s", strerror(errno));
	return 0;
}

/*
 * Test-only hook (doc/testing.md): with ST_TEST_STOP_BEFORE_RENAME set, stop
 * here, the temp file written and the target locked, so that a test can
 * edit the file or send a signal in the window it means to test.
 */
static void test_stop(void)
{
	if (getenv("ST_TEST_STOP_BEFORE_RENAME"))
		raise(SIGSTOP);
}

/* Under the lock, just before the rename: is the file still what was read? */
static int recheck(const struct target *t, const struct st_defconfig *dc)
{
	const struct stat *then = dc->have_stat ? &dc->st : &t->st;
	struct stat now, named;
	unsigned long long sum = 0;	/* set by fd_sum() when it returns 0 */
	int ret;

	if (fstat(t->fd, &now) < 0 || stat(t->real, &named) < 0)
		return -EAGAIN;
	if (changed_since_read(&now, then) || changed_since_read(&named, then) ||
	    now.st_nlink != 1)
		return -EAGAIN;
	if (!dc->have_stat)
		return 0;
	ret = fd_sum(t->fd, now.st_size, &sum);
	if (ret)
		return ret;
	return sum == dc->sum ? 0 : -EAGAIN;
}

/* Write @buf to the temp file with the target's attributes, then rename. */
static int replace(const char *path, const struct st_defconfig *dc,
		   const struct target *t, const char *buf, size_t len,
		   struct st_error *err)
{
	const char *base = strrchr(t->real, '/');
	int fd, ret;

	base = base ? base + 1 : t->real;
	fd = tmp_create(t->dir, base);
	if (fd < 0)
		return st_err(err, -fd, path, "cannot create a temporary file in %s: %s",
			      t->dir, strerror(-fd));
	ret = keep_attrs(fd, t, path, err);
	if (ret)
		goto out_unlink;
	ret = write_all(fd, buf, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	fd = -1;
	if (ret) {
		ret = st_err(err, -ret, path, "write error: %s", strerror(-ret));
		goto out_unlink;
	}
	test_stop();
	ret = recheck(t, dc);
	if (ret) {
		ret = ret == -EAGAIN ?
		      st_err(err, EAGAIN, path, "changed while slubtiny was working") :
		      st_err(err, -ret, path, "cannot read it again: %s", strerror(-ret));
		goto out_unlink;
	}
	ret = tmp_rename(t->real);
	if (ret)
		ret = st_err(err, -ret, path, "cannot rename into place: %s", strerror(-ret));
	if (!ret)
		return 0;
out_unlink:
	if (fd >= 0)
		close(fd);
	tmp_remove();
	return ret;
}

int st_defconfig_write_atomic(const char *path, const struct st_defconfig *dc,
			      struct st_error *err)
{
	return st_defconfig_write_within(path, dc, NULL, err);
}

int st_defconfig_write_within(const char *path, const struct st_defconfig *dc,
			      const char *within, struct st_error *err)
{
	struct target t = { .fd = -1 };
	char *buf = NULL;
	size_t len;
	int ret;

	ret = open_target(path, dc, within, &t, err);
	if (ret)
		goto out;
	if (st_defconfig_render(dc, &buf, &len)) {
		ret = st_err(err, ENOMEM, path, "out of memory");
		goto out;
	}
	pthread_mutex_lock(&tmp_mutex);
	catch_signals();
	ret = replace(path, dc, &t, buf, len, err);
	release_signals();
	pthread_mutex_unlock(&tmp_mutex);
	if (ret)
		goto out;
	ret = fsync_dir(t.dir);
	if (ret)
		ret = st_err(err, -ret, path, "written, but cannot sync %s: %s",
			     t.dir, strerror(-ret));
out:
	if (t.fd >= 0)
		close(t.fd);	/* drops the lock */
	free(buf);
	return ret;
}
