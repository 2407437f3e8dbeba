// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "common/error.h"
#include "st_config.h"

struct st_out st_out;

void st_out_init(void)
{
	const char *nc = getenv("NO_COLOR");
	bool tty = isatty(STDOUT_FILENO);

	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	long n;

	st_out.pretty = tty;
	st_out.color = tty && !(nc && *nc);
	/*
	 * Text fits a terminal: $COLUMNS (as ls(1) reads it), else the
	 * terminal's own width, else 80. Not on a pipe or a file.
	 */
	st_out.columns = 0;
	if (!tty)
		return;
	st_out.columns = 80;
	if (cols && *cols) {
		n = strtol(cols, NULL, 10);
		if (n >= 40 && n <= 1000) {
			st_out.columns = (unsigned int)n;
			return;
		}
	}
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40 && ws.ws_col <= 1000)
		st_out.columns = ws.ws_col;
}

FILE *st_out_open(const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		p_err("%s: %s", path, strerror(errno));
	return f;
}

int st_out_close(FILE *f, const char *path, int err)
{
	if (fclose(f) && !err)
		err = -errno;
	if (err) {
		p_err("%s: write error: %s", path, strerror(-err));
		return -1;
	}
	return 0;
}

/* The first error of the run, for st_json_error_document(). */
static char first_err[1024], first_err_file[512];

void p_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("slubtiny: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (!first_err[0]) {
		va_start(ap, fmt);
		vsnprintf(first_err, sizeof(first_err), fmt, ap);
		va_end(ap);
	}
}

void st_record_error(const char *msg)
{
	if (!first_err[0])
		snprintf(first_err, sizeof(first_err), "%s", msg);
}

void st_json_error_document(void)
{
	cJSON *root = cJSON_CreateObject(), *e;
	char *s = NULL;

	if (root && cJSON_AddStringToObject(root, "version", ST_VERSION) &&
	    (e = cJSON_AddObjectToObject(root, "error")) &&
	    (first_err_file[0] ? cJSON_AddStringToObject(e, "file", first_err_file)
			       : cJSON_AddNullToObject(e, "file")) &&
	    cJSON_AddStringToObject(e, "message", first_err[0] ? first_err : "error"))
		s = st_out.pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (s)
		printf("%s\n", s);
	cJSON_free(s);
	st_out.json_done = true;
}

void p_lib_err(const struct st_error *e, const char *file, int err)
{
	bool first = !first_err[0];

	if (e && e->code) {
		if (e->file[0])
			p_err("%s: %s", e->file, e->msg);
		else
			p_err("%s", e->msg);
	} else if (file) {
		p_err("%s: %s", file, strerror(err < 0 ? -err : err));
	} else {
		p_err("%s", strerror(err < 0 ? -err : err));
	}
	/* In the JSON error: the file on its own, the message without it. */
	if (first && e && e->code && e->file[0]) {
		snprintf(first_err_file, sizeof(first_err_file), "%s", e->file);
		snprintf(first_err, sizeof(first_err), "%s", e->msg);
	} else if (first && !(e && e->code) && file) {
		snprintf(first_err_file, sizeof(first_err_file), "%s", file);
		snprintf(first_err, sizeof(first_err), "%s", strerror(err < 0 ? -err : err));
	}
}

const struct cmd *st_find_cmd(const char *name)
{
	const struct cmd *c;

	for (c = st_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void st_usage(FILE *f, const char *name)
{
	const struct st_example *ex;
	const struct cmd *c;
	const char *sp = strchr(name, ' ');
	char base[32];

	snprintf(base, sizeof(base), "%.*s", (int)(sp ? sp - name : (long)strlen(name)), name);
	c = st_find_cmd(base);
	if (!c)
		return;
	fprintf(f, "Usage: slubtiny %s%s%s%s\n\n%c%s.\n", c->name, c->opts ? " [OPTIONS]" : "",
		c->usage[0] ? " " : "", c->usage,
		c->help[0] >= 'a' && c->help[0] <= 'z' ? c->help[0] - 'a' + 'A' : c->help[0],
		c->help + 1);
	if (c->opts) {
		fputc('\n', f);
		st_opt_print_help(f, c->opts);
	}
	if (!strcmp(c->name, "footprint")) {
		fputs("\nUsage: slubtiny footprint gen [OPTIONS] SHAPE (boot, net or fs)\n\n"
		      "Write a generated trace on stdout.\n\n", f);
		st_opt_print_help(f, st_footprint_gen_opts);
	}
	if (c->more_help) {
		fputc('\n', f);
		c->more_help(f);
	}
	if (c->examples && c->examples[0].cmd) {
		fputs("\nExamples:\n", f);
		for (ex = c->examples; ex->cmd; ex++)
			fprintf(f, "  %s\n      %s\n", ex->cmd, ex->what);
	}
}

struct st_progress {
	pthread_mutex_t lock;
	struct timespec start;
	double delay;		/* seconds before the line appears */
	const char *what;
	int width;		/* of the line drawn, 0 when none */
};

struct st_progress *st_progress_new(const char *what)
{
	const char *env = getenv("SLUBTINY_PROGRESS_DELAY");
	struct st_progress *p;
	char *end;

	if (!isatty(STDERR_FILENO) || st_out.verbosity < 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	/* A quick run draws nothing: only after a second, unless told otherwise. */
	p->delay = 1.0;
	if (env && *env) {
		double d = strtod(env, &end);

		if (!*end && d >= 0 && d <= 3600)
			p->delay = d;
	}
	pthread_mutex_init(&p->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->what = what;
	return p;
}

void st_progress_update(void *progress, size_t done, size_t total, const char *item)
{
	struct st_progress *p = progress;
	struct timespec now;
	int n;

	if (!p)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec - p->start.tv_sec + (now.tv_nsec - p->start.tv_nsec) / 1e9 < p->delay)
		return;
	pthread_mutex_lock(&p->lock);
	/* One terminal line: at most 79 columns, the file name cut at its start. */
	n = fprintf(stderr, "\r%s: %zu/%zu %.*s", p->what, done, total, 50,
		    strlen(item) > 50 ? item + strlen(item) - 50 : item) - 1;
	if (n < p->width)
		fprintf(stderr, "%*s", p->width - n, "");
	if (n > p->width)
		p->width = n;
	fflush(stderr);
	pthread_mutex_unlock(&p->lock);
}

void st_progress_hide(struct st_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->width) {
		fprintf(stderr, "\r%*s\r", p->width, "");
		fflush(stderr);
		p->width = 0;
	}
	pthread_mutex_unlock(&p->lock);
}

void st_progress_end(struct st_progress *p)
{
	if (!p)
		return;
	st_progress_hide(p);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int st_cli_arch(const char *cmd, const char *opt, const char *cfg, const char **arch,
		enum st_arch_from *from)
{
	const char *env = getenv("ARCH");

	if (opt) {
		*arch = opt;
		*from = ST_ARCH_FROM_OPTION;
	} else if (env && *env) {
		*arch = env;
		*from = ST_ARCH_FROM_ENV;
	} else if (cfg) {
		*arch = cfg;
		*from = ST_ARCH_FROM_CONFIG;
	} else {
		*arch = NULL;
		*from = ST_ARCH_FROM_PATH;
		return 0;
	}
	if (st_arch_known(*arch))
		return 0;
	p_err("%s: unknown ARCH '%s' (from %s; an ARCH as for make: arm, sh, x86_64, ...)",
	      cmd, *arch, *from == ST_ARCH_FROM_ENV ? "the environment" : st_arch_from_name(*from));
	return -EINVAL;
}
