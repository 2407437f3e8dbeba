// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text that fits a terminal: stdout and stderr replaced by streams that
 * wrap each line at st_out.columns, at a blank where there is one, with a
 * four-column indent for the continuation. Colour escapes take no width,
 * a UTF-8 sequence one column. Used by the commands whose output is prose
 * or a report, on a terminal only: size and size-diff keep the exact
 * format of the tools they replace, and pipes and files get whole lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define INDENT 4

struct fit {
	FILE *real;
	FILE *orig;		/* the stdio stream it replaced */
	unsigned int cols;
	char *line;
	size_t len, cap;
};

/* Bytes of @s (length @n) that fit in @cols columns, and where a blank lets it break. */
static size_t fit_prefix(const char *s, size_t n, unsigned int cols, size_t *blank)
{
	unsigned int w = 0;
	size_t i = 0;

	*blank = 0;
	while (i < n) {
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			i += 2;
			while (i < n && !(s[i] >= '@' && s[i] <= '~'))
				i++;
			i++;
			continue;
		}
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (w == cols)
				break;
			w++;
		}
		if (s[i] == ' ')
			*blank = i;
		i++;
	}
	return i > n ? n : i;
}

/* One whole line (without its newline) to the real stream, wrapped. */
static int emit(struct fit *f, const char *s, size_t n, const char *end)
{
	unsigned int cols = f->cols;
	size_t cut, blank;
	int first = 1;

	for (;;) {
		cut = fit_prefix(s, n, cols, &blank);
		if (cut < n && blank > 0)
			cut = blank;
		if (fwrite(s, 1, cut, f->real) != cut)
			return -1;
		while (cut < n && s[cut] == ' ')
			cut++;
		s += cut;
		n -= cut;
		if (!n)
			break;
		if (fprintf(f->real, "\n%*s", INDENT, "") < 0)
			return -1;
		if (first) {
			cols -= INDENT;
			first = 0;
		}
	}
	return fputs(end, f->real) == EOF ? -1 : 0;
}

static ssize_t fit_write(void *cookie, const char *buf, size_t size)
{
	struct fit *f = cookie;
	const char *nl;
	char *nb;
	size_t i = 0, k;

	/* A progress line ("\r...") goes out as it is, at once. */
	if (memchr(buf, '\r', size)) {
		if (f->len && fwrite(f->line, 1, f->len, f->real) != f->len)
			return -1;
		f->len = 0;
		if (fwrite(buf, 1, size, f->real) != size || fflush(f->real))
			return -1;
		return size;
	}
	while (i < size) {
		nl = memchr(buf + i, '\n', size - i);
		k = nl ? (size_t)(nl - (buf + i)) : size - i;
		if (f->len + k > f->cap) {
			nb = realloc(f->line, f->len + k + 256);
			if (!nb)
				return -1;
			f->line = nb;
			f->cap = f->len + k + 256;
		}
		memcpy(f->line + f->len, buf + i, k);
		f->len += k;
		i += k;
		if (!nl)
			break;
		i++;
		if (emit(f, f->line, f->len, "\n"))
			return -1;
		f->len = 0;
	}
	if (fflush(f->real))
		return -1;
	return size;
}

/* The rest of a last line without a newline, then the real stream closed. */
static int fit_close(void *cookie)
{
	struct fit *f = cookie;
	int ret = 0;

	if (f->len && emit(f, f->line, f->len, ""))
		ret = -1;
	if (fclose(f->real))
		ret = -1;
	free(f->line);
	free(f);
	return ret;
}

/* @which (stdout or stderr, fd @fd) through a fitting stream. */
static FILE *fit_stream(FILE *which, int fd, unsigned int cols)
{
	static const cookie_io_functions_t io = { .write = fit_write, .close = fit_close };
	struct fit *f = calloc(1, sizeof(*f));
	FILE *out;
	int nfd;

	if (!f)
		return which;
	nfd = dup(fd);
	f->real = nfd >= 0 ? fdopen(nfd, "w") : NULL;
	if (!f->real) {
		if (nfd >= 0)
			close(nfd);
		free(f);
		return which;
	}
	f->cols = cols;
	f->orig = which;
	out = fopencookie(f, "w", io);
	if (!out) {
		fclose(f->real);
		free(f);
		return which;
	}
	fflush(which);
	setvbuf(out, NULL, which == stderr ? _IONBF : _IOLBF, 0);
	return out;
}

static FILE *orig_stdout, *orig_stderr;

void st_fit_output(bool out, bool err)
{
	if (orig_stdout || orig_stderr)
		return;
	orig_stdout = stdout;
	orig_stderr = stderr;
	if (out && st_out.columns)
		stdout = fit_stream(stdout, STDOUT_FILENO, st_out.columns);
	if (err && isatty(STDERR_FILENO))
		stderr = fit_stream(stderr, STDERR_FILENO, st_out.columns ? st_out.columns : 80);
}

int st_fit_end(void)
{
	int ret = 0;

	if (orig_stdout && stdout != orig_stdout) {
		if (fflush(stdout) || ferror(stdout))
			ret = -1;
		if (fclose(stdout))
			ret = -1;
		stdout = orig_stdout;
	}
	if (orig_stderr && stderr != orig_stderr) {
		fclose(stderr);
		stderr = orig_stderr;
	}
	orig_stdout = orig_stderr = NULL;
	return ret;
}
