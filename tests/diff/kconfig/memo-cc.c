// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compiler of the tests' conf runs, remembered (tests/diff/kconfig/
 * common.sh, st_ref): every `make ARCH=A NAME_defconfig` evaluates the same
 * Kconfig $(cc-option), $(as-instr) and $(shell,$(CC) ...) probes, and the
 * arch Makefile's cc-option calls, about eighty compiler runs a conf run,
 * most of its time, with the same answers for every board of an arch.
 *
 *   make CC=memo-cc ...     (ST_MEMO_REAL: the compiler it stands for, gcc)
 *
 * With ST_MEMO_DIR set, an answer (exit status, stdout, stderr and the file
 * -o names) is kept there under a hash of: the file ST_MEMO_DIR/.id (the
 * toolchain's versions, written by the caller), ST_MEMO_REAL, the arguments
 * with the probes' per-process names (".tmp_PID") and the output's name
 * made one, stdin's bytes when an argument is "-", and the bytes of each
 * argument that names a regular file. What else could change an answer
 * (the environment, the working directory) is the same for every probe of
 * a conf run; the kconfig-memo test compares conf's .config with and
 * without it. A run that makes dependency files (-M...) or that a signal
 * ended is never kept. ST_MEMO_LOG=FILE appends each missed command there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* the argument vector main() makes, reachable to the end */
static char **keep;

struct hash {
	uint64_t a, b;
};

/* two FNV-1a lanes of different bases: a 128-bit name for an answer */
static void hash_bytes(struct hash *h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		h->a = (h->a ^ *s) * 0x100000001b3ULL;
		h->b = (h->b ^ *s++) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
	}
}

static bool hash_file(struct hash *h, const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		hash_bytes(h, buf, n);
	close(fd);
	return n == 0;
}

/* @arg with every ".tmp_DIGITS" as ".tmp_N" (Kconfig's cc-option dirs) */
static void hash_arg(struct hash *h, const char *arg)
{
	const char *p = arg, *q;

	while ((q = strstr(p, ".tmp_"))) {
		hash_bytes(h, p, q + 5 - p);
		p = q + 5;
		while (*p >= '0' && *p <= '9')
			p++;
		hash_bytes(h, "N", 1);
	}
	hash_bytes(h, p, strlen(p) + 1);
}

/* @a @b into @dst of @n bytes; "" where it does not fit (not used then) */
static void join(char *dst, size_t n, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + lb >= n) {
		dst[0] = '\0';
		return;
	}
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb + 1);
}

/* Copy file @from to fd @to (whole), or false. */
static bool copy_to_fd(const char *from, int to)
{
	char buf[65536];
	ssize_t n, w, off;
	int fd = open(from, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += w) {
			w = write(to, buf + off, n - off);
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w <= 0) {
				close(fd);
				return false;
			}
		}
	}
	close(fd);
	return n == 0;
}

static bool copy_file(const char *from, const char *to)
{
	int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok;

	if (fd < 0)
		return false;
	ok = copy_to_fd(from, fd);
	return close(fd) == 0 && ok;
}

static int replay(const char *base, const char *out)
{
	char p[4096];
	FILE *f;
	int rc;

	join(p, sizeof(p), base, ".rc");
	f = fopen(p, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &rc) != 1)
		rc = -1;
	fclose(f);
	if (rc < 0)
		return -1;
	join(p, sizeof(p), base, ".o");
	if (out && access(p, F_OK) == 0 && !copy_file(p, out))
		return -1;
	join(p, sizeof(p), base, ".out");
	if (!copy_to_fd(p, 1))
		return -1;
	join(p, sizeof(p), base, ".err");
	copy_to_fd(p, 2);
	return rc;
}

/* Run @argv with stdin @in (or ours), stdout and stderr into @tmp.{out,err}. */
static int run(char **argv, const char *in, const char *tmp)
{
	char o[4096], e[4096];
	int st;
	pid_t pid;

	join(o, sizeof(o), tmp, ".out");
	join(e, sizeof(e), tmp, ".err");
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fi = in ? open(in, O_RDONLY) : 0;

		if (fo < 0 || fe < 0 || fi < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0 ||
		    (in && dup2(fi, 0) < 0))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("ST_MEMO_DIR"), *out = NULL;
	char base[4096], tmp[4096], in[4096], p[4096], q[4096];
	struct hash h = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL };
	bool stdin_arg = false;
	struct stat st;
	int i, status, rc;

	const char *real = getenv("ST_MEMO_REAL");
	char **nv;

	/* argv as "memo-cc REAL ARGS..." from here on (kept: no leak report) */
	nv = keep = malloc((argc + 2) * sizeof(*nv));
	if (!nv)
		return 127;
	nv[0] = argv[0];
	nv[1] = (char *)(real && *real ? real : "gcc");
	for (i = 1; i <= argc; i++)
		nv[i + 1] = argv[i];
	argv = nv;
	argc++;
	for (i = 2; i < argc; i++) {
		if (!strncmp(argv[i], "-M", 2) || !strncmp(argv[i], "-Wp,-M", 6))
			dir = NULL;
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[i + 1];
		else if (!strncmp(argv[i], "-o", 2) && argv[i][2])
			out = argv[i] + 2;
		if (!strcmp(argv[i], "-"))
			stdin_arg = true;
	}
	if (!dir || !*dir) {
		execvp(argv[1], argv + 1);
		return 127;
	}
	if (out && (!strcmp(out, "-") || !strcmp(out, "/dev/null")))
		out = NULL;

	/* a directory too long for the names below: no memo */
	if (strlen(dir) > 2048)
		goto real;
	join(p, sizeof(p), dir, "/.id");
	if (!hash_file(&h, p))
		goto real;
	snprintf(tmp, sizeof(tmp), "%.2048s/.tmp-%d", dir, (int)getpid());
	in[0] = '\0';
	if (stdin_arg) {
		int fd;

		join(in, sizeof(in), tmp, ".in");
		fd = open(in, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || !copy_to_fd("/dev/stdin", fd) || close(fd))
			goto real_in;
		if (!hash_file(&h, in))
			goto real_in;
	}
	for (i = 1; i < argc; i++) {
		/* where the output goes is not what it is (mktemp names) */
		if (out && (argv[i] == out || argv[i] + 2 == out)) {
			hash_arg(&h, argv[i] == out ? "OUT" : "-oOUT");
			continue;
		}
		hash_arg(&h, argv[i]);
		if ((!out || strcmp(argv[i], out)) && strcmp(argv[i], "-") &&
		    stat(argv[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    !hash_file(&h, argv[i]))
			goto real_in;
	}
	snprintf(base, sizeof(base), "%.2048s/%016llx%016llx", dir,
		 (unsigned long long)h.a, (unsigned long long)h.b);
	rc = replay(base, out);
	if (rc >= 0) {
		if (in[0])
			unlink(in);
		return rc;
	}

	if (getenv("ST_MEMO_LOG")) {
		FILE *lf = fopen(getenv("ST_MEMO_LOG"), "ae");

		for (i = 1; lf && i < argc; i++)
			fprintf(lf, "%s%s", argv[i], i + 1 < argc ? " " : "\n");
		if (lf)
			fclose(lf);
	}
	status = run(argv + 1, in[0] ? in : NULL, tmp);
	if (in[0])
		unlink(in);
	join(p, sizeof(p), tmp, ".out");
	join(q, sizeof(q), tmp, ".err");
	if (status < 0 || !WIFEXITED(status)) {
		copy_to_fd(p, 1);
		copy_to_fd(q, 2);
		unlink(p);
		unlink(q);
		return status < 0 ? 127 : 128 + WTERMSIG(status);
	}
	rc = WEXITSTATUS(status);
	copy_to_fd(p, 1);
	copy_to_fd(q, 2);
	/* the answer lands whole: .rc, which marks it, last */
	{
		char d[4096], r[4096];
		FILE *f;
		bool ok = true;

		join(d, sizeof(d), tmp, ".o");
		if (out && access(out, F_OK) == 0)
			ok = copy_file(out, d);
		join(r, sizeof(r), base, ".out");
		ok = ok && !rename(p, r);
		join(r, sizeof(r), base, ".err");
		ok = ok && !rename(q, r);
		join(r, sizeof(r), base, ".o");
		if (ok && out && access(d, F_OK) == 0)
			ok = !rename(d, r);
		join(d, sizeof(d), tmp, ".rc");
		f = ok ? fopen(d, "we") : NULL;
		if (f) {
			ok = fprintf(f, "%d\n", rc) > 0;
			ok = !fclose(f) && ok;
			join(r, sizeof(r), base, ".rc");
			if (ok)
				rename(d, r);
		}
		unlink(p);
		unlink(q);
		unlink(d);
		join(d, sizeof(d), tmp, ".o");
		unlink(d);
	}
	return rc;

real_in:
	if (in[0]) {
		/* stdin was read: the compiler gets the copy */
		int fd = open(in, O_RDONLY);

		unlink(in);
		if (fd < 0 || dup2(fd, 0) < 0)
			return 127;
	}
real:
	execvp(argv[1], argv + 1);
	return 127;
}
