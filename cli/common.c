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

#include "check/check.h"
#include "cli.h"
#include "common/array.h"
#include "common/error.h"
#include "common/json.h"
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
	st_out.err_color = isatty(STDERR_FILENO) && !(nc && *nc);
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

/* "slubtiny: CMD: @msg" (before a command is known: "slubtiny: @msg"). */
static void print_err(const char *msg)
{
	fflush(stdout);
	if (st_out.cmd)
		fprintf(stderr, "slubtiny: %s: %s\n", st_out.cmd, msg);
	else
		fprintf(stderr, "slubtiny: %s\n", msg);
	if (!first_err[0])
		snprintf(first_err, sizeof(first_err), "%s", msg);
}

void p_err(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_err(msg);
}

void p_note(const char *fmt, ...)
{
	va_list ap;

	if (st_out.verbosity < 0)
		return;
	fflush(stdout);
	if (st_out.cmd)
		fprintf(stderr, "slubtiny: %s: ", st_out.cmd);
	else
		fputs("slubtiny: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void st_arch_warn(const struct st_arch_choice *c)
{
	static char said[32][256];
	static size_t nsaid;
	char text[256];
	unsigned int i;
	size_t k;

	for (i = 0; i < ST_ARCH_FROM_NR; i++) {
		if (!(c->conflicts & (1u << i)))
			continue;
		st_arch_conflict_text(c, i, text, sizeof(text));
		for (k = 0; k < nsaid && strcmp(said[k], text); k++)
			;
		if (k < nsaid)
			continue;
		if (nsaid < ARRAY_SIZE(said))
			snprintf(said[nsaid++], sizeof(said[0]), "%s", text);
		fflush(stdout);
		fprintf(stderr, "slubtiny: %s%swarning: %s\n", st_out.cmd ? st_out.cmd : "",
			st_out.cmd ? ": " : "", text);
	}
}

void st_arch_tally_add(struct st_arch_tally *t, const char *file, const char *arch,
		       enum st_arch_from from, const char *why)
{
	size_t i;

	for (i = 0; i < t->ng; i++) {
		if (t->g[i].from != from || strcmp(t->g[i].arch, arch))
			continue;
		if (strcmp(t->g[i].why, why ? why : ""))
			t->g[i].why[0] = '\0';
		t->g[i].n++;
		return;
	}
	if (t->ng == ARRAY_SIZE(t->g)) {
		t->dropped++;
		return;
	}
	snprintf(t->g[i].arch, sizeof(t->g[i].arch), "%s", arch);
	snprintf(t->g[i].why, sizeof(t->g[i].why), "%s", why ? why : "");
	snprintf(t->g[i].file, sizeof(t->g[i].file), "%s", file);
	t->g[i].from = from;
	t->g[i].n = 1;
	t->ng++;
}

/* "ARCH=arm (from symbols: CONFIG_ARCH_AT91)" of group @i into @buf. */
static void arch_group(const struct st_arch_tally *t, size_t i, char *buf, size_t size)
{
	snprintf(buf, size, "ARCH=%s (from %s%s%s)", t->g[i].arch,
		 st_arch_from_name(t->g[i].from), t->g[i].why[0] ? ": " : "", t->g[i].why);
}

void st_say_found(size_t checked, size_t looked, size_t skipped,
		  const struct st_arch_tally *t)
{
	char counts[128] = "", arch[200] = "";
	size_t i;

	if (looked)
		snprintf(counts, sizeof(counts), " (%zu file%s looked at, %zu not kernel configs)",
			 looked, looked == 1 ? "" : "s", skipped);
	/* one ARCH for all: said on the same line */
	if (t->ng == 1 && !t->dropped) {
		arch[0] = ',';
		arch[1] = ' ';
		arch_group(t, 0, arch + 2, sizeof(arch) - 2);
	}
	p_note("checked %zu kernel config%s%s%s", checked, checked == 1 ? "" : "s", counts,
	       arch);
	for (i = 0; !arch[0] && i < t->ng; i++) {
		arch_group(t, i, arch, sizeof(arch));
		if (t->g[i].n == 1)
			p_note("%s for %s", arch, t->g[i].file);
		else
			p_note("%s for %zu files", arch, t->g[i].n);
		arch[0] = '\0';
	}
	if (t->dropped)
		p_note("ARCH=... (others) for %zu more files", t->dropped);
}

void st_say_skipped(char *const *paths, char *const *why, size_t n)
{
	size_t i;

	for (i = 0; paths && why && i < n; i++)
		p_note("skipped %s: %s", paths[i], why[i]);
}

void st_record_error(const char *msg)
{
	if (!first_err[0])
		snprintf(first_err, sizeof(first_err), "%s", msg);
}

void st_json_error_document(void)
{
	cJSON *root = cJSON_CreateObject(), *e;

	/* Nothing more can be said when even this fails: stdout stays empty. */
	if (root && cJSON_AddStringToObject(root, "version", ST_VERSION) &&
	    (e = cJSON_AddObjectToObject(root, "error")) &&
	    (first_err_file[0] ? cJSON_AddStringToObject(e, "file", first_err_file)
			       : cJSON_AddNullToObject(e, "file")) &&
	    cJSON_AddStringToObject(e, "message", first_err[0] ? first_err : "error"))
		st_json_print(stdout, root, st_out.pretty);
	else
		cJSON_Delete(root);
	st_out.json_done = true;
}

void p_lib_err(const struct st_error *e, const char *file, int err)
{
	bool first = !first_err[0];
	const char *why = strerror(err < 0 ? -err : err);
	char msg[2048];

	if (e && e->code && e->file[0])
		snprintf(msg, sizeof(msg), "%s: %s", e->file, e->msg);
	else if (e && e->code)
		snprintf(msg, sizeof(msg), "%s", e->msg);
	else if (file)
		snprintf(msg, sizeof(msg), "%s: %s", file, why);
	else
		snprintf(msg, sizeof(msg), "%s", why);
	print_err(msg);
	/* In the JSON error: the file on its own, the message without it. */
	if (first && e && e->code && e->file[0]) {
		snprintf(first_err_file, sizeof(first_err_file), "%s", e->file);
		snprintf(first_err, sizeof(first_err), "%s", e->msg);
	} else if (first && !(e && e->code) && file) {
		snprintf(first_err_file, sizeof(first_err_file), "%s", file);
		snprintf(first_err, sizeof(first_err), "%s", why);
	}
}

struct st_render_opts st_render_opts(enum st_format format)
{
	return (struct st_render_opts){
		.format = format,
		.pretty = st_out.pretty,
		.color = st_out.color,
		.verbose = st_out.verbosity > 0,
		.quiet = st_out.verbosity < 0,
	};
}

const struct cmd *st_find_cmd(const char *name)
{
	const struct cmd *c;

	for (c = st_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* "Usage: slubtiny CMD [OPTIONS] OPERANDS"; @lead "Usage:" or "   or:". */
static void usage_line(FILE *f, const char *lead, const char *cmd, const struct cmd *c)
{
	fprintf(f, "%s slubtiny %s%s%s%s\n", lead, cmd, c->opts ? " [OPTIONS]" : "",
		c->usage[0] ? " " : "", c->usage);
}

/* @help as a sentence: capital first letter, full stop. */
static void sentence(FILE *f, const char *help)
{
	fprintf(f, "\n%c%s.\n", help[0] >= 'a' && help[0] <= 'z' ? help[0] - 'a' + 'A' : help[0],
		help + 1);
}

/* The examples of @c whose command line starts with "slubtiny @prefix" (NULL: all). */
static void examples(FILE *f, const struct cmd *c, const char *prefix)
{
	const struct st_example *ex;
	char want[64];
	size_t wl;
	bool said = false;

	wl = (size_t)snprintf(want, sizeof(want), "slubtiny %s", prefix ? prefix : "");
	for (ex = c->examples; ex && ex->cmd; ex++) {
		if (prefix && (strncmp(ex->cmd, want, wl) || (ex->cmd[wl] && ex->cmd[wl] != ' ')))
			continue;
		if (!said)
			fputs("\nExamples:\n", f);
		said = true;
		fprintf(f, "  %s\n      %s\n", ex->cmd, ex->what);
	}
}

/* A command with commands of its own: each one's usage and options. */
static void usage_subs(FILE *f, const struct cmd *c)
{
	const struct cmd *s;
	char cmd[64], title[80];

	for (s = c->subs; s->name; s++) {
		snprintf(cmd, sizeof(cmd), s == c->subs ? "%s [%s]" : "%s %s", c->name, s->name);
		usage_line(f, s == c->subs ? "Usage:" : "   or:", cmd, s);
	}
	sentence(f, c->help);
	fputs("\nCommands:\n", f);
	for (s = c->subs; s->name; s++)
		fprintf(f, "  %-8s %s\n", s->name, s->help);
	for (s = c->subs; s->name; s++) {
		snprintf(title, sizeof(title), s == c->subs ? "\nOptions of %s [%s]" :
			 "\nOptions of %s %s", c->name, s->name);
		st_opt_print_help(f, title, s->opts);
	}
}

void st_usage(FILE *f, const char *name)
{
	const struct cmd *c, *s = NULL;
	const char *sp = strchr(name, ' ');
	char base[32];

	snprintf(base, sizeof(base), "%.*s", (int)(sp ? sp - name : (long)strlen(name)), name);
	c = st_find_cmd(base);
	if (!c)
		return;
	for (s = sp ? c->subs : NULL; s && s->name && strcmp(s->name, sp + 1); s++)
		;
	if (s && s->name) {
		/* one command of @c's: its own usage, options and examples */
		usage_line(f, "Usage:", name, s);
		sentence(f, s->help);
		fputc('\n', f);
		st_opt_print_help(f, NULL, s->opts);
		examples(f, c, name);
		return;
	}
	if (c->subs) {
		usage_subs(f, c);
	} else {
		usage_line(f, "Usage:", c->name, c);
		sentence(f, c->help);
		if (c->opts) {
			fputc('\n', f);
			st_opt_print_help(f, NULL, c->opts);
		}
	}
	if (c->more_help) {
		fputc('\n', f);
		c->more_help(f);
	}
	examples(f, c, NULL);
}

struct st_progress {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t ticker;
	bool has_ticker;
	bool stop;
	struct timespec start;
	double delay;		/* seconds before the terminal line appears */
	double interval;	/* seconds between log lines */
	double last;		/* when the last log line was printed (run seconds) */
	const char *what;
	bool log;		/* whole lines (not a terminal, or ST_PROGRESS_STEPS) */
	bool steps;		/* ST_PROGRESS_STEPS: every update is a line */
	bool idle;		/* hidden: no repeated lines until the next update */
	char state[256];	/* "[done/total] item" of the last update, "" before one */
	int width;		/* of the terminal line drawn, 0 when none */
};

/* A number of seconds from @name, else @def. */
static double env_seconds(const char *name, double def)
{
	const char *env = getenv(name);
	char *end;
	double d;

	if (!env || !*env)
		return def;
	d = strtod(env, &end);
	return !*end && d >= 0 && d <= 3600 ? d : def;
}

static double run_seconds(const struct st_progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - p->start.tv_sec + (now.tv_nsec - p->start.tv_nsec) / 1e9;
}

/* One whole line of the current state; with p->lock held. */
static void log_line(struct st_progress *p, double t)
{
	fprintf(stderr, "slubtiny: %s: %s (%.1f s)\n", p->what, p->state, t);
	fflush(stderr);
	p->last = t;
}

/*
 * The ticker thread of a log: every interval without a line, the state
 * once more, so that a long step (a compile, a make) still shows it runs.
 */
static void *tick(void *arg)
{
	struct st_progress *p = arg;
	struct timespec until;
	double t, next;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		t = run_seconds(p);
		next = p->last + p->interval;
		if (t >= next) {
			if (p->state[0] && !p->idle)
				log_line(p, t);
			else
				p->last = t;
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &until);
		next -= t;
		until.tv_sec += (time_t)next;
		until.tv_nsec += (long)((next - (time_t)next) * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->wake, &p->lock, &until);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct st_progress *st_progress_open(const char *what, unsigned int flags)
{
	bool tty = isatty(STDERR_FILENO);
	struct st_progress *p;

	if (st_out.verbosity < 0 || (!tty && !(flags & (ST_PROGRESS_LOG | ST_PROGRESS_STEPS))))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	/* A quick run draws nothing: only after a second, unless told otherwise. */
	p->delay = env_seconds("SLUBTINY_PROGRESS_DELAY", 1.0);
	/* A log gets a line every few seconds; at most ten a second. */
	p->interval = env_seconds("SLUBTINY_PROGRESS_INTERVAL", 5.0);
	if (p->interval < 0.1)
		p->interval = 0.1;
	p->steps = flags & ST_PROGRESS_STEPS;
	p->log = !tty || p->steps;
	p->what = what;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	if (p->log)
		p->has_ticker = !pthread_create(&p->ticker, NULL, tick, p);
	return p;
}

struct st_progress *st_progress_new(const char *what)
{
	return st_progress_open(what, 0);
}

void st_progress_update(void *progress, size_t done, size_t total, const char *item)
{
	struct st_progress *p = progress;
	double t;
	int n;

	if (!p)
		return;
	t = run_seconds(p);
	if (!p->log && t < p->delay)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->log) {
		snprintf(p->state, sizeof(p->state), "[%zu/%zu] %s", done, total, item);
		p->idle = false;
		if (p->steps)
			log_line(p, t);
		pthread_mutex_unlock(&p->lock);
		return;
	}
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
	p->idle = true;
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
	if (p->has_ticker) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->wake);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->ticker, NULL);
	}
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int st_cli_arch(const char *opt, const char *cfg, struct st_arch_sources *given)
{
	const char *env = getenv("ARCH");
	const struct st_arch_source *s;
	unsigned int i;

	given->s[ST_ARCH_FROM_OPTION].arch = opt;
	given->s[ST_ARCH_FROM_CONFIG].arch = cfg;
	/* an empty ARCH (ARCH= on a command line) is no ARCH, as for make */
	given->s[ST_ARCH_FROM_ENV].arch = env && *env ? env : NULL;
	for (i = 0; i < ST_ARCH_FROM_NR && !given->s[i].arch; i++)
		;
	if (i == ST_ARCH_FROM_NR)
		return 0;
	s = &given->s[i];
	if (st_arch_known(s->arch))
		return 0;
	p_err("unknown ARCH '%s' (from %s; an ARCH as for make: arm, sh, x86_64, ...)",
	      s->arch, i == ST_ARCH_FROM_ENV ? "the environment" : st_arch_from_name(i));
	return -EINVAL;
}

int st_cli_settings(struct st_check_config *cfg, const char *config, bool no_config)
{
	struct st_error e = { 0 };
	char *found = NULL;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (!config && no_config) {
		if (st_out.verbosity > 0)
			p_note("settings: none (--no-config)");
		return 0;
	}
	if (!config) {
		if (st_check_config_find(".", &found, &e) || !found) {
			/* said even without -v: a gate may have lost its settings */
			if (e.code)
				p_note("settings: none (%s not read: %s; name it with --config to use it)",
				       e.file, e.msg);
			else if (st_out.verbosity > 0)
				p_note("settings: none (no %s found)", ST_CHECK_CONFIG_NAME);
			return 0;
		}
	}
	ret = st_check_config_load(cfg, config ? config : found, &e);
	if (ret)
		p_lib_err(&e, config ? config : found, ret);
	else if (st_out.verbosity > 0)
		p_note("settings: %s", config ? config : found);
	free(found);
	return ret;
}

const char *st_cli_settings_srctree(const char *opt, const struct st_check_config *cfg,
				    bool untrusted)
{
	const char *env = getenv("SLUBTINY_UNTRUSTED_SETTINGS");

	if (opt || !cfg->srctree)
		return opt;
	/*
	 * A tree's Kconfig runs $(shell,...): with settings from the change
	 * under review, only the command line may name one.
	 */
	if (untrusted || (env && *env && strcmp(env, "0"))) {
		p_note("%s: \"srctree\" not used (untrusted settings); give --srctree DIR",
		       cfg->path);
		return NULL;
	}
	return cfg->srctree;
}
