// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/defconfig: byte-exact round trip of odd inputs, line
 * classification, diagnostics, edits and the atomic writer. TAP output.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/error.h"
#include "defconfig/defconfig.h"

#include "../../tap.h"

static struct st_defconfig *parse(const char *s, size_t len)
{
	struct st_defconfig *dc;

	if (st_defconfig_parse(&dc, s, len, "t", NULL)) {
		printf("Bail out! parse failed\n");
		exit(1);
	}
	return dc;
}

static bool renders_as(const struct st_defconfig *dc, const char *s, size_t len)
{
	char *buf;
	size_t n;
	bool same;

	if (st_defconfig_render(dc, &buf, &n))
		return false;
	same = n == len && !memcmp(buf, s, len);
	free(buf);
	return same;
}

static void test_roundtrip(void)
{
	static const struct { const char *s; size_t len; } in[] = {
#define S(x) { x, sizeof(x) - 1 }
		S(""), S("\n"), S("\n\n"), S("a"), S("a\n"), S("a\r\n"), S("a\r"),
		S("\r\n\r\n"), S("\r"), S("CONFIG_A=y\r\nCONFIG_B=m"),
		S("# CONFIG_A is not set\n\t \n#x\r\nCONFIG_S=\"a\\\"b\"\n"),
		S("x\0y\nCONFIG_A=y\n"), S("\x01\x02\xff\xfe\n\x7f"),
		S("CONFIG_=y\nCONFIG_A\nCONFIG_B=\n=y\n"), S("a\rb\n"),
#undef S
	};
	char *big;
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct st_defconfig *dc = parse(in[i].s, in[i].len);

		ok(renders_as(dc, in[i].s, in[i].len), "round trip of input %zu", i);
		st_defconfig_free(dc);
	}
	big = malloc(ST_DC_MAX_LINE + 10);
	memset(big, 'A', ST_DC_MAX_LINE + 10);
	big[ST_DC_MAX_LINE + 9] = '\n';
	{
		struct st_defconfig *dc = parse(big, ST_DC_MAX_LINE + 10);

		ok(renders_as(dc, big, ST_DC_MAX_LINE + 10), "round trip of a 64 KiB+ line");
		ok(dc->nr_errors == 1 && dc->diags[0].kind == ST_DC_D_LONG,
		   "a line over 64 KiB is an error");
		st_defconfig_free(dc);
	}
	free(big);
}

static void test_classify(void)
{
	static const char s[] =
		"CONFIG_A=y\n"			/* 1 */
		"# CONFIG_B is not set\n"	/* 2 */
		"# a comment\n"			/* 3 */
		"\n"				/* 4 */
		"CONFIG_S=\"x y\"\n"		/* 5 */
		"CONFIG_I=-12\n"		/* 6 */
		"CONFIG_H=0x1f\n"		/* 7 */
		"garbage\n"			/* 8 */
		"# CONFIG_C is not set  \r\n"	/* 9 */
		"CONFIG_M=m   \n"		/* 10 */
		"#CONFIG_D is not set\n";	/* 11 */
	struct st_defconfig *dc = parse(s, sizeof(s) - 1);
	const struct st_dc_line *l = dc->lines;

	ok(dc->nr_lines == 11, "11 lines");
	ok(l[0].kind == ST_DC_ASSIGN && !strcmp(l[0].sym, "A") && !strcmp(l[0].val, "y") &&
	   l[0].vtype == ST_DC_V_TRISTATE, "assignment");
	ok(l[1].kind == ST_DC_NOT_SET && !strcmp(l[1].sym, "B") && !strcmp(l[1].val, "n"),
	   "is not set");
	ok(l[2].kind == ST_DC_COMMENT && l[3].kind == ST_DC_BLANK, "comment, blank");
	ok(l[4].vtype == ST_DC_V_STRING && !strcmp(l[4].val, "\"x y\""), "string value");
	ok(l[5].vtype == ST_DC_V_INT && l[6].vtype == ST_DC_V_HEX, "int and hex values");
	ok(l[7].kind == ST_DC_OTHER, "garbage is kept as other");
	ok(l[8].kind == ST_DC_NOT_SET && !strcmp(l[8].eol, "\r\n"), "CRLF is not set line");
	ok(l[9].kind == ST_DC_ASSIGN && !strcmp(l[9].val, "m"), "trailing blanks not in value");
	ok(l[10].kind == ST_DC_COMMENT, "'#CONFIG_D is not set' is only a comment");
	ok(st_defconfig_find(dc, "C") == 8 && st_defconfig_find(dc, "Z") == -1, "find");
	ok(dc->nr_diags == 1 && dc->diags[0].line == 8 &&
	   dc->diags[0].kind == ST_DC_D_UNEXPECTED && dc->nr_errors == 0,
	   "only the garbage line is diagnosed");
	st_defconfig_free(dc);
}

static const struct st_dc_diag *diag_at(const struct st_defconfig *dc, int line)
{
	size_t i;

	for (i = 0; i < dc->nr_diags; i++)
		if (dc->diags[i].line == line)
			return &dc->diags[i];
	return NULL;
}

static void test_diags(void)
{
	static const char s[] =
		"CONFIG_A=y\n"		/* 1 */
		"CONFIG_A-B=y\n"	/* 2 bad symbol */
		"CONFIG_C\n"		/* 3 no = */
		"CONFIG_D=\n"		/* 4 no value */
		"CONFIG_E=yes\n"	/* 5 bad value */
		"CONFIG_A=y\n"		/* 6 duplicate */
		"# CONFIG_A is not set\n" /* 7 conflict */
		"x\0y\n"		/* 8 NUL */
		"\x1b[0m\n"		/* 9 control */
		"CONFIG_F=\"unterminated\n"; /* 10 bad value */
	struct st_defconfig *dc = parse(s, sizeof(s) - 1);
	const struct st_dc_diag *d;

	d = diag_at(dc, 2);
	ok(d && d->kind == ST_DC_D_BADSYM && d->sev == ST_DC_WARNING, "invalid symbol name");
	d = diag_at(dc, 3);
	ok(d && d->kind == ST_DC_D_NOEQ, "CONFIG_ line without '='");
	d = diag_at(dc, 4);
	ok(d && d->kind == ST_DC_D_NOVALUE && !strcmp(d->sym, "D"), "'=' without value");
	d = diag_at(dc, 5);
	ok(d && d->kind == ST_DC_D_BADVALUE, "bad value");
	d = diag_at(dc, 6);
	ok(d && d->kind == ST_DC_D_DUPLICATE && d->other_line == 1 && !strcmp(d->sym, "A"),
	   "duplicate");
	d = diag_at(dc, 7);
	ok(d && d->kind == ST_DC_D_CONFLICT && d->other_line == 6, "conflict");
	d = diag_at(dc, 8);
	ok(d && d->kind == ST_DC_D_NUL && d->sev == ST_DC_ERROR, "NUL byte is an error");
	d = diag_at(dc, 9);
	ok(d && d->kind == ST_DC_D_BINARY && d->sev == ST_DC_ERROR, "control char is an error");
	d = diag_at(dc, 10);
	ok(d && d->kind == ST_DC_D_BADVALUE, "unterminated string");
	ok(dc->nr_errors == 2, "two errors");
	ok(renders_as(dc, s, sizeof(s) - 1), "all of it round trips");
	st_defconfig_free(dc);
}

static void test_edits(void)
{
	static const char s[] = "A\r\nCONFIG_X=y\r\nC";
	struct st_defconfig *dc = parse(s, sizeof(s) - 1);

	ok(!strcmp(st_defconfig_eol(dc), "\r\n"), "CRLF file");
	ok(!st_defconfig_replace(dc, 1, "CONFIG_Y=m") && dc->lines[1].kind == ST_DC_ASSIGN &&
	   !strcmp(dc->lines[1].sym, "Y") && dc->lines[1].modified && dc->lines[1].lineno == 2,
	   "replace reclassifies");
	ok(renders_as(dc, "A\r\nCONFIG_Y=m\r\nC", 16), "replace keeps the CRLF");
	ok(!st_defconfig_insert(dc, 3, "D"), "append");
	ok(renders_as(dc, "A\r\nCONFIG_Y=m\r\nC\r\nD", 19),
	   "appending keeps the missing final newline at the end");
	ok(!st_defconfig_insert(dc, 0, "# CONFIG_Z is not set") &&
	   dc->lines[0].kind == ST_DC_NOT_SET && dc->lines[0].lineno == 0, "insert first");
	ok(!st_defconfig_delete(dc, 4), "delete last");
	ok(renders_as(dc, "# CONFIG_Z is not set\r\nA\r\nCONFIG_Y=m\r\nC", 39),
	   "deleting the last line keeps the missing final newline");
	ok(st_defconfig_insert(dc, 0, "a\nb") == -EINVAL && st_defconfig_delete(dc, 99) == -EINVAL,
	   "bad edits are refused");
	st_defconfig_free(dc);
}

/* Atomic writer. */
static char tmpdir[] = "/tmp/st-dc-XXXXXX";

static void put(const char *path, const char *s, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s) || close(fd)) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	chmod(path, mode);
}

static bool has(const char *path, const char *s)
{
	char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n == (ssize_t)strlen(s) && !memcmp(buf, s, n);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static int edit_and_write(const char *path, const char *line, struct st_error *e)
{
	struct st_defconfig *dc;
	int ret;

	ret = st_defconfig_load(&dc, path, e);
	if (ret)
		return ret;
	ret = st_defconfig_replace(dc, 0, line);
	if (!ret)
		ret = st_defconfig_write_atomic(path, dc, e);
	st_defconfig_free(dc);
	return ret;
}

/* In a child without root's powers, writing into a read-only place fails. */
static void test_unwritable(const char *sub, const char *f)
{
	struct st_error e = { 0 };
	struct passwd *pw;
	pid_t pid;
	int status, ret;

	pid = fork();
	if (!pid) {
		if (geteuid() == 0) {
			pw = getpwnam("nobody");
			if (!pw || setgid(pw->pw_gid) || setuid(pw->pw_uid))
				_exit(77);
		}
		ret = edit_and_write(f, "CONFIG_NEW=y", &e);
		_exit(ret == -EACCES ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		printf("ok %d # SKIP cannot drop root\n", ++nr_test);
		return;
	}
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && has(f, "CONFIG_OLD=y\n") &&
	   count_entries(sub) == 1, "%s: EACCES, original intact, no temp file", sub);
}

static void test_write(void)
{
	char f[300], sub[256], link[300], sub2[256], f2[300];
	struct st_defconfig *dc;
	struct st_error e = { 0 };
	struct stat st;
	struct rlimit rl;
	pid_t pid;
	int status, ret;

	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	snprintf(f, sizeof(f), "%s/a_defconfig", tmpdir);
	put(f, "CONFIG_OLD=y\n", 0640);
	ok(!edit_and_write(f, "CONFIG_NEW=y", &e) && has(f, "CONFIG_NEW=y\n"), "written");
	ok(!stat(f, &st) && (st.st_mode & 07777) == 0640, "mode 0640 kept");
	ok(count_entries(tmpdir) == 1, "no temp file left");
	chmod(f, 0604);
	ok(!edit_and_write(f, "CONFIG_X=y", &e) && !stat(f, &st) &&
	   (st.st_mode & 07777) == 0604, "mode 0604 kept");

	snprintf(link, sizeof(link), "%s/link", tmpdir);
	symlink("a_defconfig", link);
	ok(!edit_and_write(link, "CONFIG_L=y", &e) && !lstat(link, &st) &&
	   S_ISLNK(st.st_mode) && has(f, "CONFIG_L=y\n"), "through a symlink: link kept");
	unlink(link);

	/* The file changed between reading and writing: not overwritten. */
	ok(!st_defconfig_load(&dc, f, &e), "load");
	put(f, "CONFIG_OTHER_WRITER=y\n", 0604);
	st_defconfig_replace(dc, 0, "CONFIG_MINE=y");
	ok(st_defconfig_write_atomic(f, dc, &e) == -EAGAIN &&
	   has(f, "CONFIG_OTHER_WRITER=y\n"), "changed since read: refused");
	st_defconfig_free(dc);

	/* A model with errors is never written. */
	ok(!st_defconfig_parse(&dc, "x\0", 2, f, NULL), "parse binary");
	ok(st_defconfig_write_atomic(f, dc, &e) == -EINVAL &&
	   has(f, "CONFIG_OTHER_WRITER=y\n"), "errors: refused");
	st_defconfig_free(dc);

	/* Other hard links: refused, both names keep the text. */
	snprintf(f2, sizeof(f2), "%s/hard_link", tmpdir);
	if (linkat(AT_FDCWD, f, AT_FDCWD, f2, 0) < 0)
		printf("# link: %s\n", strerror(errno));
	st_error_clear(&e);
	ret = edit_and_write(f, "CONFIG_LINKED=y", &e);
	ok(ret == -EMLINK &&
	   has(f, "CONFIG_OTHER_WRITER=y\n") && has(f2, "CONFIG_OTHER_WRITER=y\n") &&
	   strstr(e.msg, "2 hard links"), "hard link: refused");
	unlink(f2);

	/* Extended attributes are kept (skipped where there are none). */
	if (setxattr(f, "user.slubtiny", "keep", 4, 0) < 0) {
		printf("ok %d # SKIP no user xattrs: %s\n", ++nr_test, strerror(errno));
	} else {
		char v[8] = "";

		ok(!edit_and_write(f, "CONFIG_X=y", &e) &&
		   getxattr(f, "user.slubtiny", v, sizeof(v)) == 4 && !memcmp(v, "keep", 4),
		   "user xattr kept");
	}

	/* A missing file is not created. */
	snprintf(f2, sizeof(f2), "%s/missing", tmpdir);
	ok(!st_defconfig_parse(&dc, "CONFIG_A=y\n", 11, f2, NULL) &&
	   st_defconfig_write_atomic(f2, dc, &e) == -ENOENT && access(f2, F_OK),
	   "missing file: refused, not created");
	st_defconfig_free(dc);

	/* A write that fails half way (file size limit): old file intact. */
	snprintf(sub, sizeof(sub), "%s/fsize", tmpdir);
	mkdir(sub, 0755);
	snprintf(f2, sizeof(f2), "%s/b_defconfig", sub);
	put(f2, "CONFIG_OLD=y\n", 0644);
	pid = fork();
	if (!pid) {
		signal(SIGXFSZ, SIG_IGN);
		rl.rlim_cur = rl.rlim_max = 4;
		setrlimit(RLIMIT_FSIZE, &rl);
		_exit(edit_and_write(f2, "CONFIG_LONGER_LINE=y", &e) == -EFBIG ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && !WEXITSTATUS(status) && has(f2, "CONFIG_OLD=y\n") &&
	   count_entries(sub) == 1, "failed write: EFBIG, original intact, no temp file");

	/* Read-only directory, read-only file. */
	snprintf(sub2, sizeof(sub2), "%s/rodir", tmpdir);
	mkdir(sub2, 0755);
	snprintf(f2, sizeof(f2), "%s/c_defconfig", sub2);
	put(f2, "CONFIG_OLD=y\n", 0666);
	chmod(sub2, 0555);
	test_unwritable(sub2, f2);
	chmod(sub2, 0755);
	chmod(tmpdir, 0755);
	put(f2, "CONFIG_OLD=y\n", 0444);
	test_unwritable(sub2, f2);
}

int main(void)
{
	test_roundtrip();
	test_classify();
	test_diags();
	test_edits();
	test_write();
	printf("1..%d\n", nr_test);
	if (fork() == 0)
		execlp("rm", "rm", "-rf", tmpdir, (char *)NULL);
	wait(NULL);
	return nr_fail ? 1 : 0;
}
