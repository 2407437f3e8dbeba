// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option rows of cli/opt.h turned into getopt_long tables, help text and
 * errors. One command runs per process, so the built tables are static.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kernel/kernel.h"
#include "opt.h"

#define MAX_OPTS 64

static const struct st_opt *built_for;
static struct option longs[MAX_OPTS + 2];
static char shorts[3 * MAX_OPTS + 4];

static void build(const struct st_opt *opts)
{
	size_t nl = 0, ns = 0;
	const struct st_opt *o;

	/* ':' first: a missing argument is told apart from an unknown option. */
	shorts[ns++] = ':';
	for (o = opts; (o->name || o->shrt) && nl < MAX_OPTS; o++) {
		if (o->name) {
			longs[nl].name = o->name;
			longs[nl].has_arg = o->arg ? required_argument : no_argument;
			longs[nl].flag = NULL;
			longs[nl].val = o->id;
			nl++;
		}
		if (o->shrt) {
			shorts[ns++] = (char)o->shrt;
			if (o->arg)
				shorts[ns++] = ':';
		}
	}
	longs[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[nl] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns++] = 'h';
	shorts[ns] = '\0';
	built_for = opts;
	optind = 0;
}

static size_t min3(size_t a, size_t b, size_t c)
{
	return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/* Edit distance of @a and @b, a swap of neighbours counting one (names are short). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[64][64];

	if (la > 63 || lb > 63)
		return (size_t)-1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + (a[i - 1] != b[j - 1]));
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

/* How far @word is from option @name: 0 for a prefix of two letters or more. */
static size_t how_far(const char *word, const char *name)
{
	size_t wl = strlen(word);

	if (wl >= 2 && !strncmp(name, word, wl))
		return 0;
	return distance(word, name);
}

const char *st_opt_suggest(const struct st_opt *opts, const char *word)
{
	const struct st_opt *o;
	const char *best = "help";
	size_t d, bestd = how_far(word, "help"), wl = strlen(word);

	for (o = opts; o->name || o->shrt; o++) {
		if (!o->name)
			continue;
		d = how_far(word, o->name);
		if (d < bestd) {
			bestd = d;
			best = o->name;
		}
	}
	/* At most two edits, and fewer than half the word. */
	return bestd <= 2 && bestd * 2 < wl ? best : NULL;
}

static const struct st_opt *row_of(const struct st_opt *opts, int id)
{
	const struct st_opt *o;

	for (o = opts; o->name || o->shrt; o++)
		if (o->id == id)
			return o;
	return NULL;
}

static const char *arg_of(const struct st_opt *opts, int id)
{
	const struct st_opt *o = row_of(opts, id);

	return o ? o->arg : NULL;
}

static void bad_option(const char *cmd, const struct st_opt *opts, const char *text, int missing)
{
	char word[64], msg[512];
	const char *s, *eq, *arg = missing ? arg_of(opts, missing) : NULL;
	int n;

	if (missing) {
		n = snprintf(msg, sizeof(msg), "option '%s' needs an argument%s%s%s", text,
			     arg ? " (" : "", arg ? arg : "", arg ? ")" : "");
	} else {
		n = snprintf(msg, sizeof(msg), "unknown option '%s'", text);
		if (text[0] == '-' && text[1] == '-' && n > 0 && n < (int)sizeof(msg)) {
			eq = strchr(text, '=');
			snprintf(word, sizeof(word), "%.*s",
				 (int)(eq ? eq - text - 2 : (long)strlen(text) - 2), text + 2);
			s = st_opt_suggest(opts, word);
			if (s)
				snprintf(msg + n, sizeof(msg) - n, " (did you mean '--%s'?)", s);
		}
	}
	st_record_error(msg);
	p_err("%s; see 'slubtiny %s --help'", msg, cmd);
}

/* The option being handled, as typed ("--threads", "-j"), for st_opt_number(). */
static char cur_opt[64];

unsigned long st_optnum;

static int number(const char *s, unsigned long min, unsigned long max, unsigned long *out,
		  const char *what);

/*
 * @arg is one of the words of @choices ("kvm|tcg"); else say so:
 * "--accel is kvm or tcg, not 'x'", "--f is a, b or c, not 'x'".
 */
static int choice(const char *choices, const char *arg)
{
	char msg[256], words[128];
	const char *p, *bar;
	size_t n = 0, len = 0, al = strlen(arg);
	int k = 0;

	/* "{a|b}" (a --format row's placeholder) is "a|b" */
	if (choices[0] == '{') {
		snprintf(words, sizeof(words), "%.*s", (int)strcspn(choices + 1, "}"),
			 choices + 1);
		choices = words;
	}
	for (p = choices; ; p = bar + 1) {
		bar = strchr(p, '|');
		len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == al && !strncmp(p, arg, al))
			return 0;
		if (!bar)
			break;
		k++;
	}
	n = snprintf(msg, sizeof(msg), "%s is ", cur_opt);
	for (p = choices; n < sizeof(msg); p = bar + 1, k--) {
		bar = strchr(p, '|');
		len = bar ? (size_t)(bar - p) : strlen(p);
		n += snprintf(msg + n, sizeof(msg) - n, "%.*s%s", (int)len, p,
			      k > 1 ? ", " : k == 1 ? " or " : "");
		if (!bar)
			break;
	}
	p_err("%s, not '%s'", msg, arg);
	return -1;
}

/* The argument of typed row @o checked: -1 (said) when it is not what the row takes. */
static int check_typed(const struct st_opt *o, const char *arg)
{
	if (!o || !o->arg || !arg)
		return 0;
	switch (o->type) {
	case ST_OPT_NUM:
		return number(arg, o->min, o->max, &st_optnum, "");
	case ST_OPT_CHOICE:
		return choice(o->arg, arg);
	default:
		return 0;
	}
}

static const char *const format_names[] = {
	[ST_FORMAT_TEXT] = "text", [ST_FORMAT_JSON] = "json",
	[ST_FORMAT_MARKDOWN] = "markdown", [ST_FORMAT_HTML] = "html",
	[ST_FORMAT_SVG] = "svg", [ST_FORMAT_GITHUB] = "github",
	[ST_FORMAT_SARIF] = "sarif",
};

const char *st_format_name(int f)
{
	return f >= 0 && (size_t)f < sizeof(format_names) / sizeof(format_names[0]) ?
	       format_names[f] : "text";
}

int st_format_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (!strcmp(name, format_names[i]))
			return (int)i;
	return -1;
}

/*
 * Output format @f, asked for by @how ("--json"): one per run, whichever
 * spelling gave it; -1 (said) for a second, different one.
 */
static int set_format(int f, const char *how)
{
	/* "--format NAME": an option name and a format name, both short */
	static char first[128];

	if (st_out.format_set && st_out.format != (enum st_format)f) {
		p_err("%s and %s ask for two output formats; give one --format", first, how);
		return -1;
	}
	snprintf(first, sizeof(first), "%.100s", how);
	st_out.format = (enum st_format)f;
	st_out.format_set = true;
	st_out.json = f == ST_FORMAT_JSON;
	return 0;
}

/* @word is one of the words of placeholder @arg ("{a|b}"). */
static bool listed(const char *arg, const char *word)
{
	size_t wl = strlen(word);
	const char *p;

	for (p = arg; (p = strstr(p, word)); p += wl)
		if ((p == arg || strchr("{|", p[-1])) && strchr("|}", p[wl]))
			return true;
	return false;
}

/*
 * --format @arg of row @o: an st_format name sets it (0); a word for the
 * command itself (size's "sysv") returns 1; -1 when said to be wrong.
 */
static int format_option(const struct st_opt *o, const char *arg)
{
	char how[96];
	int f;

	if (o->type == ST_OPT_CHOICE && choice(o->arg, arg))
		return -1;
	f = st_format_parse(arg);
	if (f < 0)
		return 1;
	/* a format name the command has no printer for (size --format svg) */
	if (!listed(o->arg, arg))
		return choice(o->arg, arg) ? -1 : 1;
	snprintf(how, sizeof(how), "--format %s", arg);
	return set_format(f, how);
}

/*
 * True when long option @name was given in full in @text ("--name" or
 * "--name=..."). getopt_long() takes any unambiguous prefix; slubtiny does
 * not, so that "--srctre" is an error and not a seven-minute build.
 */
static bool spelled_out(const char *text, const char *name)
{
	size_t l = strlen(name);

	return text[0] == '-' && text[1] == '-' && !strncmp(text + 2, name, l) &&
	       (text[2 + l] == '\0' || text[2 + l] == '=');
}

int st_getopt(int argc, char **argv, const char *cmd, const struct st_opt *opts)
{
	char text[8];
	int c, prev, li, at;

	if (built_for != opts)
		build(opts);
	opterr = 0;
	st_out.cmd = cmd;
	for (;;) {
		prev = optind ? optind : 1;
		li = -1;
		c = getopt_long(argc, argv, shorts, longs, &li);
		/* The element just read (operands before it are skipped, not read). */
		at = optind - 1;
		if (optarg && at > 1 && optarg == argv[at])
			at--;
		if (li >= 0 && !spelled_out(argv[at], longs[li].name)) {
			bad_option(cmd, opts, argv[at], 0);
			return ST_OPT_FAIL;
		}
		if (li >= 0)
			snprintf(cur_opt, sizeof(cur_opt), "--%s", longs[li].name);
		else if (c > 0 && c < ST_OPT_ID)
			snprintf(cur_opt, sizeof(cur_opt), "-%c", c);
		switch (c) {
		case -1:
			return ST_OPT_DONE;
		case 'h':
			st_usage(stdout, cmd);
			return ST_OPT_HELP;
		case ST_OPT_JSON:
			if (set_format(ST_FORMAT_JSON, "--json"))
				return ST_OPT_FAIL;
			continue;
		case ST_OPT_MARKDOWN:
			if (set_format(ST_FORMAT_MARKDOWN, "--markdown"))
				return ST_OPT_FAIL;
			continue;
		case ST_OPT_FORMAT:
			li = format_option(row_of(opts, c), optarg);
			if (li < 0)
				return ST_OPT_FAIL;
			if (li > 0)
				return c;
			continue;
		case ST_OPT_QUIET:
			st_out.verbosity = -1;
			continue;
		case ST_OPT_VERBOSE:
			st_out.verbosity++;
			continue;
		case '?':
		case ':':
			/* A short letter inside a cluster (-Ax), or a whole argument. */
			if (optopt && optopt < ST_OPT_ID && (prev == optind || argv[at][1] != '-')) {
				snprintf(text, sizeof(text), "-%c", optopt);
				bad_option(cmd, opts, text, c == ':' ? optopt : 0);
			} else {
				bad_option(cmd, opts, argv[at], c == ':' ? optopt : 0);
			}
			return ST_OPT_FAIL;
		default:
			return check_typed(row_of(opts, c), optarg) ? ST_OPT_FAIL : c;
		}
	}
}

#define HELP_COL 24

/* @text from column @col on, wrapped at 80 columns with @col indent. */
static void print_wrapped(FILE *f, const char *text, int col)
{
	const char *p = text, *sp;
	int at = col, len;

	while (*p) {
		sp = strchr(p, ' ');
		len = sp ? (int)(sp - p) : (int)strlen(p);
		if (at > col && at + 1 + len > 79) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", len, p);
		at += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/* "  -j, --jobs N" padded to the help column, wrapped help after it. */
void st_opt_print_help(FILE *f, const char *title, const struct st_opt *opts)
{
	const struct st_opt *o;
	char lhs[64];
	int n;

	fprintf(f, "%s:\n", title ? title : "Options");
	for (o = opts; o->name || o->shrt; o++) {
		n = snprintf(lhs, sizeof(lhs), "  %s%c%s%s%s%s%s", o->shrt ? "-" : " ",
			     o->shrt ? o->shrt : ' ', o->shrt && o->name ? "," : " ",
			     o->name ? " --" : "", o->name ? o->name : "", o->arg ? " " : "",
			     o->arg ? o->arg : "");
		if (n > HELP_COL - 2)
			fprintf(f, "%s\n%*s", lhs, HELP_COL, "");
		else
			fprintf(f, "%-*s", HELP_COL, lhs);
		print_wrapped(f, o->help, HELP_COL);
	}
	fprintf(f, "%-*s%s\n", HELP_COL, "  -h, --help", "show this help");
}

/* Parse decimal @s in [@min, @max]; -1 (said, with @what after the range) if it is not one. */
static int number(const char *s, unsigned long min, unsigned long max, unsigned long *out,
		  const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max) {
		p_err("%s '%s': not a number from %lu to %lu%s", cur_opt, s, min, max, what);
		return -1;
	}
	*out = v;
	return 0;
}

int st_opt_number(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	return number(s, min, max, out, "");
}

int st_parse_jobs(const char *s, unsigned int *out)
{
	unsigned long v;

	if (number(s, 0, 1024, &v, " (0: all CPUs)"))
		return -1;
	if (!v) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		v = cpus < 1 ? 1 : cpus > 1024 ? 1024 : (unsigned long)cpus;
	}
	*out = (unsigned int)v;
	return 0;
}

int st_parse_shard(const char *s, unsigned int *k, unsigned int *n)
{
	unsigned long a, b;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		goto bad;
	a = strtoul(s, &end, 10);
	if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
		goto bad;
	b = strtoul(end + 1, &end, 10);
	if (errno || *end)
		goto bad;
	if (!b || b > 65536 || !a || a > b) {
		p_err("--shard '%s': K/N needs 1 <= K <= N <= 65536", s);
		return -1;
	}
	*k = (unsigned int)a;
	*n = (unsigned int)b;
	return 0;
bad:
	p_err("--shard '%s': not K/N (e.g. 1/4)", s);
	return -1;
}

int st_parse_cc_wrapper(const char *s, const char **out)
{
	const char *const *w = st_kernel_cc_wrapper_choices();
	size_t i;

	for (i = 0; w[i]; i++) {
		if (!strcmp(s, w[i])) {
			*out = w[i];
			return 0;
		}
	}
	if (!strcmp(s, "icecc"))
		p_err("--cc-wrapper icecc is not offered: run with CC='icecc gcc' or "
		      "PATH=/usr/lib/icecc/bin:$PATH (see doc/kernel.md)");
	else
		p_err("--cc-wrapper is distcc or ccache, not '%s'", s);
	return -1;
}
