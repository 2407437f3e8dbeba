// SPDX-License-Identifier: GPL-2.0-only
/*
 * Renderers of a check result: a small table of printers, one per format,
 * over the same struct (as kconfig's confdata.c does for its outputs). They
 * compute nothing. JSON and SARIF are built as cJSON trees.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "common/array.h"
#include "common/diag.h"
#include "common/stamp.h"
#include "st_config.h"
#include "common/json.h"

/* the key of SARIF's partialFingerprints: a new way to compute them is a new version */
#define SARIF_FINGERPRINT	"slubtinyFinding/v1"
#define SARIF_SRCROOT		"%SRCROOT%"

#define SARIF_SCHEMA \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

static const char *const level_gcc[] = {
	[ST_LEVEL_NOTE] = "note", [ST_LEVEL_WARNING] = "warning", [ST_LEVEL_ERROR] = "error",
};
static const enum st_diag_level diag_level[] = {
	[ST_LEVEL_NOTE] = ST_DIAG_NOTE, [ST_LEVEL_WARNING] = ST_DIAG_WARNING,
	[ST_LEVEL_ERROR] = ST_DIAG_ERROR,
};
static const char *const level_github[] = {
	[ST_LEVEL_NOTE] = "notice", [ST_LEVEL_WARNING] = "warning", [ST_LEVEL_ERROR] = "error",
};
static const char *const level_sarif[] = {
	[ST_LEVEL_NOTE] = "note", [ST_LEVEL_WARNING] = "warning", [ST_LEVEL_ERROR] = "error",
};

/* -v: each cause of the chain as "FILE:LINE:COL: note: because: CAUSE". */
static void print_chain(FILE *f, const struct st_check_finding *x, bool color)
{
	const struct st_diag d = {
		.level = ST_DIAG_NOTE, .file = x->file, .line = x->line, .col = x->col,
	};
	const char *p, *nl;
	int len;

	for (p = x->chain; p && *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		len = (int)(nl - p);
		if (!len || !strncmp(p, "fix:", 4))
			continue;
		st_diag_print(f, color, &d, "because: %.*s", len, p);
	}
}

/*
 * gcc's form (common/diag.h): FILE:LINE:COL: warning: msg [rule], then
 * "FILE:LINE:COL: note: fix: hint".
 */
static int render_text(FILE *f, const struct st_check_result *r, bool pretty, bool color)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct st_check_finding *x = &r->f[i];
		struct st_diag d = {
			.level = diag_level[x->level], .file = x->file, .line = x->line,
			.col = x->col, .rule = st_check_rules[x->rule].id,
		};

		if (r->quiet && x->level == ST_LEVEL_NOTE)
			continue;
		st_diag_print(f, color, &d, "%s", x->msg);
		if (r->verbose)
			print_chain(f, x, color);
		d.level = ST_DIAG_NOTE;
		d.rule = NULL;
		if (x->hint && !r->quiet)
			st_diag_print(f, color, &d, "fix: %s", x->hint);
	}
	return 0;
}

/* Workflow command escaping: data escapes %, CR, LF; properties also : and ,. */
static void gh_escape(FILE *f, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", f); break;
		case '\r': fputs("%0D", f); break;
		case '\n': fputs("%0A", f); break;
		case ':': fputs(property ? "%3A" : ":", f); break;
		case ',': fputs(property ? "%2C" : ",", f); break;
		default: fputc(*s, f);
		}
	}
}

static int render_github(FILE *f, const struct st_check_result *r, bool pretty, bool color)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct st_check_finding *x = &r->f[i];

		fprintf(f, "::%s file=", level_github[x->level]);
		gh_escape(f, x->file, true);
		if (x->line)
			fprintf(f, ",line=%d,col=%d", x->line, x->col);
		fputs(",title=", f);
		gh_escape(f, st_check_rules[x->rule].id, true);
		fputs("::", f);
		gh_escape(f, x->msg, false);
		fputs(" [", f);
		gh_escape(f, st_check_rules[x->rule].id, false);
		fputc(']', f);
		if (x->hint) {
			fputs("%0Afix: ", f);
			gh_escape(f, x->hint, false);
		}
		fputc('\n', f);
	}
	for (i = 0; i < r->nr_errors; i++) {
		fputs("::error file=", f);
		gh_escape(f, r->errors[i].file, true);
		fputs("::", f);
		gh_escape(f, r->errors[i].msg, false);
		fputc('\n', f);
	}
	return 0;
}

/* The cause chain as an array of its lines, or null. */
static cJSON *json_chain(const char *chain)
{
	cJSON *a, *s;
	const char *p, *nl;
	char *line;

	if (!chain)
		return cJSON_CreateNull();
	a = cJSON_CreateArray();
	for (p = chain; a && *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		if (p == nl)
			continue;
		line = strndup(p, nl - p);
		s = line ? cJSON_CreateString(line) : NULL;
		free(line);
		if (!s || !cJSON_AddItemToArray(a, s)) {
			cJSON_Delete(s);
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static cJSON *json_finding(const struct st_check_finding *x)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	if (!cJSON_AddStringToObject(o, "file", x->file) ||
	    !cJSON_AddNumberToObject(o, "line", x->line) ||
	    !cJSON_AddNumberToObject(o, "column", x->col) ||
	    !cJSON_AddStringToObject(o, "rule", st_check_rules[x->rule].id) ||
	    !cJSON_AddStringToObject(o, "level", level_gcc[x->level]) ||
	    !(x->sym ? cJSON_AddStringToObject(o, "symbol", x->sym)
		     : cJSON_AddNullToObject(o, "symbol")) ||
	    !cJSON_AddStringToObject(o, "message", x->msg) ||
	    !cJSON_AddItemToObject(o, "chain", json_chain(x->chain)) ||
	    !(x->hint ? cJSON_AddStringToObject(o, "hint", x->hint)
		      : cJSON_AddNullToObject(o, "hint")) ||
	    !cJSON_AddBoolToObject(o, "fixable", st_check_rules[x->rule].fixable)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* "files": each file with its ARCH and how that was decided. */
static cJSON *json_archs(const struct st_check_result *r)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < r->nr_archs; i++) {
		const struct st_check_arch *a = &r->archs[i];

		o = cJSON_CreateObject();
		if (!o || !cJSON_AddStringToObject(o, "file", a->file) ||
		    !cJSON_AddStringToObject(o, "arch", a->arch) ||
		    !cJSON_AddStringToObject(o, "arch_from", st_arch_from_name(a->from)) ||
		    !(a->why[0] ? cJSON_AddStringToObject(o, "arch_why", a->why)
				: cJSON_AddNullToObject(o, "arch_why"))) {
			cJSON_Delete(o);
			cJSON_Delete(arr);
			return NULL;
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* The ARCH every file was judged for, decided the same way; NULL: none, or several. */
static const struct st_check_arch *one_arch(const struct st_check_result *r)
{
	size_t i;

	for (i = 1; i < r->nr_archs; i++)
		if (strcmp(r->archs[i].arch, r->archs[0].arch) || r->archs[i].from != r->archs[0].from)
			return NULL;
	return r->nr_archs ? &r->archs[0] : NULL;
}

static int cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct st_check_stack *)a)->file,
		      ((const struct st_check_stack *)b)->file);
}

/*
 * The document; with @stream, the findings array is st_json_stream_mark()
 * for st_json_print_stream() to fill.
 */
static cJSON *check_json(const struct st_check_result *r, bool stream)
{
	cJSON *root = cJSON_CreateObject(), *arr = NULL, *by, *it;
	size_t counts[ST_RULE_COUNT] = { 0 };
	const struct st_check_arch *one = one_arch(r);
	size_t i;

	if (!root || !cJSON_AddStringToObject(root, "version", ST_VERSION) ||
	    !(it = cJSON_AddObjectToObject(root, "arch")) ||
	    !(one ? cJSON_AddStringToObject(it, "name", one->arch)
		  : cJSON_AddNullToObject(it, "name")) ||
	    !(one ? cJSON_AddStringToObject(it, "from", st_arch_from_name(one->from))
		  : cJSON_AddNullToObject(it, "from"))) {
		cJSON_Delete(root);
		return NULL;
	}
	if (!cJSON_AddItemToObject(root, "files", json_archs(r)))
		goto oom;
	if (stream) {
		if (!cJSON_AddItemToObject(root, "findings", st_json_stream_mark()))
			goto oom;
	} else {
		arr = cJSON_AddArrayToObject(root, "findings");
		if (!arr)
			goto oom;
	}
	for (i = 0; i < r->nr; i++) {
		if (!stream) {
			it = json_finding(&r->f[i]);
			if (!it)
				goto oom;
			cJSON_AddItemToArray(arr, it);
		}
		counts[r->f[i].rule]++;
	}
	/* files not checked: present only when there are some */
	if (r->nr_errors && !(arr = cJSON_AddArrayToObject(root, "errors")))
		goto oom;
	for (i = 0; i < r->nr_errors; i++) {
		if (!(it = cJSON_CreateObject()) || !cJSON_AddItemToArray(arr, it) ||
		    !cJSON_AddStringToObject(it, "file", r->errors[i].file) ||
		    !cJSON_AddStringToObject(it, "message", r->errors[i].msg))
			goto oom;
	}
	/* --fix: what was written and what it changes, as migrate says it */
	if (r->fixes && !cJSON_AddItemToObject(root, "fixes", cJSON_Duplicate(r->fixes, true)))
		goto oom;
	it = cJSON_AddObjectToObject(root, "summary");
	if (!it ||
	    !cJSON_AddNumberToObject(it, "files", r->nr_files) ||
	    !cJSON_AddNumberToObject(it, "looked_at", r->nr_looked) ||
	    !cJSON_AddNumberToObject(it, "not_kernel_configs", r->nr_skipped) ||
	    !cJSON_AddNumberToObject(it, "findings", r->nr) ||
	    !cJSON_AddNumberToObject(it, "failing", st_check_nr_failing(r)) ||
	    !cJSON_AddNumberToObject(it, "suppressed", r->nr_suppressed) ||
	    !cJSON_AddNumberToObject(it, "fixed", r->nr_fixed) ||
	    !(by = cJSON_AddObjectToObject(it, "by_rule")))
		goto oom;
	for (i = 0; i < ST_RULE_COUNT; i++)
		if (counts[i] && !cJSON_AddNumberToObject(by, st_check_rules[i].id, counts[i]))
			goto oom;
	/* only when a file belongs to a build system's stack (not one it has not) */
	for (i = 0; i < r->nr_stacks && r->stacks[i].l.kind == ST_LAYOUT_PLAIN; i++)
		;
	if (i < r->nr_stacks) {
		qsort(r->stacks, r->nr_stacks, sizeof(*r->stacks), cmp_stack);
		arr = cJSON_AddArrayToObject(root, "stacks");
		for (i = 0; arr && i < r->nr_stacks; i++)
			if (r->stacks[i].l.kind != ST_LAYOUT_PLAIN &&
			    !cJSON_AddItemToArray(arr, st_layout_to_json(&r->stacks[i].l,
				r->stacks[i].file, r->stacks[i].arch_used,
				r->stacks[i].version_used, r->stacks[i].nr_in_base)))
				arr = NULL;
		if (!arr)
			goto oom;
	}
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

cJSON *st_check_to_json(const struct st_check_result *r)
{
	return check_json(r, false);
}

static cJSON *json_finding_at(const void *ctx, size_t i)
{
	return json_finding(&((const struct st_check_result *)ctx)->f[i]);
}

/* The findings one at a time: the whole tree is ten times their size. */
static int render_json(FILE *f, const struct st_check_result *r, bool pretty, bool color)
{
	return st_json_print_stream(f, check_json(r, true), r->nr, json_finding_at, r,
				    pretty);
}

static cJSON *text_obj(const char *text)
{
	cJSON *o = cJSON_CreateObject();

	if (o && !cJSON_AddStringToObject(o, "text", text)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Add @o under @key of @parent; false (and @o freed) on failure. */
static bool add_obj(cJSON *parent, const char *key, cJSON *o)
{
	if (!o)
		return false;
	if (!cJSON_AddItemToObject(parent, key, o)) {
		cJSON_Delete(o);
		return false;
	}
	return true;
}

static cJSON *sarif_rule(int i)
{
	const struct st_check_rule *rule = &st_check_rules[i];
	cJSON *o = cJSON_CreateObject(), *cfg;

	if (!o)
		return NULL;
	if (!cJSON_AddStringToObject(o, "id", rule->id) ||
	    !add_obj(o, "shortDescription", text_obj(rule->summary)) ||
	    !add_obj(o, "help", text_obj(rule->help)) ||
	    !(cfg = cJSON_AddObjectToObject(o, "defaultConfiguration")) ||
	    !cJSON_AddStringToObject(cfg, "level", level_sarif[rule->level])) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/*
 * A URI for @path: a relative reference for a relative path, a file:// URI
 * for an absolute one; percent-encode all but unreserved chars and '/'.
 */
static char *uri_encode(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(3 * strlen(path) + 8), *p = out;
	const unsigned char *s;

	if (!out)
		return NULL;
	if (path[0] == '/')
		p += sprintf(p, "file://");
	for (s = (const unsigned char *)path; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("-._~/", *s)) {
			*p++ = *s;
		} else {
			*p++ = '%';
			*p++ = hex[*s >> 4];
			*p++ = hex[*s & 15];
		}
	}
	*p = '\0';
	return out;
}

/*
 * @path relative to @root when it lies under it (an absolute path given on
 * the command line), else @path itself: what the fingerprint hashes, so
 * that it does not depend on where the tree is checked out.
 */
static const char *under_root(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (path[0] != '/' || !n || strncmp(path, root, n))
		return path;
	if (n == 1 && root[0] == '/')
		return path[1] ? path + 1 : path;
	return path[n] == '/' && path[n + 1] ? path + n + 1 : path;
}

/*
 * What identifies a finding across commits: its rule, its file, its
 * symbol and the text of its line, not the line's number (lines move).
 * Findings alike in all of these are told apart by their order
 * (":1", ":2", as GitHub's own primaryLocationLineHash does).
 */
struct fingerprint {
	struct st_hash h;
	size_t idx, nth;
};

static int fp_cmp(const void *a, const void *b)
{
	const struct fingerprint *x = a, *y = b;

	if (x->h.a != y->h.a)
		return x->h.a < y->h.a ? -1 : 1;
	if (x->h.b != y->h.b)
		return x->h.b < y->h.b ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int fp_idx_cmp(const void *a, const void *b)
{
	const struct fingerprint *x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* One fingerprint a finding of @r, in @r's order; NULL when out of memory. */
static struct fingerprint *fingerprints(const struct st_check_result *r)
{
	struct fingerprint *fp = malloc((r->nr + 1) * sizeof(*fp));
	size_t i;

	if (!fp)
		return NULL;
	for (i = 0; i < r->nr; i++) {
		const struct st_check_finding *x = &r->f[i];

		st_hash_init(&fp[i].h);
		st_hash_str(&fp[i].h, st_check_rules[x->rule].id);
		st_hash_str(&fp[i].h, under_root(x->file, r->srcroot));
		st_hash_str(&fp[i].h, x->sym);
		st_hash_str(&fp[i].h, x->text);
		fp[i].idx = i;
	}
	qsort(fp, r->nr, sizeof(*fp), fp_cmp);
	for (i = 0; i < r->nr; i++)
		fp[i].nth = i && !memcmp(&fp[i].h, &fp[i - 1].h, sizeof(fp[i].h)) ?
			    fp[i - 1].nth + 1 : 1;
	qsort(fp, r->nr, sizeof(*fp), fp_idx_cmp);
	return fp;
}

static bool add_fingerprint(cJSON *o, const struct fingerprint *fp)
{
	char hex[ST_HASH_HEX], val[ST_HASH_HEX + 24];
	cJSON *p = cJSON_AddObjectToObject(o, "partialFingerprints");

	st_hash_hex(&fp->h, hex);
	snprintf(val, sizeof(val), "%s:%zu", hex, fp->nth);
	return p && cJSON_AddStringToObject(p, SARIF_FINGERPRINT, val);
}

/*
 * The physical location of @x: a relative path as a URI relative to
 * %SRCROOT%, an absolute one as a file:// URI, as given.
 */
static bool add_location(cJSON *loc, const struct st_check_finding *x)
{
	const char *path = x->file;
	cJSON *phys, *art, *reg;
	char *uri = uri_encode(path);
	bool ok;

	ok = uri && (phys = cJSON_AddObjectToObject(loc, "physicalLocation")) &&
	     (art = cJSON_AddObjectToObject(phys, "artifactLocation")) &&
	     cJSON_AddStringToObject(art, "uri", uri) &&
	     (path[0] == '/' || cJSON_AddStringToObject(art, "uriBaseId", SARIF_SRCROOT));
	free(uri);
	if (!ok || !x->line)
		return ok;
	return (reg = cJSON_AddObjectToObject(phys, "region")) &&
	       cJSON_AddNumberToObject(reg, "startLine", x->line) &&
	       cJSON_AddNumberToObject(reg, "startColumn", x->col);
}

static cJSON *sarif_result(const struct st_check_finding *x, const struct fingerprint *fp)
{
	cJSON *o = cJSON_CreateObject(), *locs, *loc;
	char *msg = NULL;

	if (!o)
		goto fail;
	if (x->hint && asprintf(&msg, "%s (fix: %s)", x->msg, x->hint) < 0)
		msg = NULL;
	if (!cJSON_AddStringToObject(o, "ruleId", st_check_rules[x->rule].id) ||
	    !cJSON_AddNumberToObject(o, "ruleIndex", x->rule) ||
	    !cJSON_AddStringToObject(o, "level", level_sarif[x->level]) ||
	    !add_obj(o, "message", text_obj(msg ? msg : x->msg)) ||
	    !(locs = cJSON_AddArrayToObject(o, "locations")) ||
	    !(loc = cJSON_CreateObject()))
		goto fail;
	cJSON_AddItemToArray(locs, loc);
	if (!add_location(loc, x) || !add_fingerprint(o, fp))
		goto fail;
	free(msg);
	return o;
fail:
	free(msg);
	cJSON_Delete(o);
	return NULL;
}

/* run.originalUriBaseIds: %SRCROOT% as a file:// URI ending in '/'. */
static bool add_srcroot(cJSON *run, const char *root)
{
	cJSON *ids, *base;
	char *uri, *dir;
	bool ok;

	if (!root || root[0] != '/')
		return true;
	if (asprintf(&dir, "%s%s", root, root[strlen(root) - 1] == '/' ? "" : "/") < 0)
		return false;
	uri = uri_encode(dir);
	ok = uri && (ids = cJSON_AddObjectToObject(run, "originalUriBaseIds")) &&
	     (base = cJSON_AddObjectToObject(ids, SARIF_SRCROOT)) &&
	     cJSON_AddStringToObject(base, "uri", uri);
	free(uri);
	free(dir);
	return ok;
}

/* The files not checked, as the failed invocation's notifications. */
static bool sarif_notes(cJSON *run, const struct st_check_result *r)
{
	cJSON *invs, *inv, *notes, *n;
	char *text;
	size_t i;

	if (!(invs = cJSON_AddArrayToObject(run, "invocations")) ||
	    !(inv = cJSON_CreateObject()) || !cJSON_AddItemToArray(invs, inv) ||
	    !cJSON_AddBoolToObject(inv, "executionSuccessful", 0) ||
	    !cJSON_AddNumberToObject(inv, "exitCode", 2) ||
	    !(notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications")))
		return false;
	for (i = 0; i < r->nr_errors; i++) {
		if (asprintf(&text, "%s: %s", r->errors[i].file, r->errors[i].msg) < 0)
			return false;
		if (!(n = cJSON_CreateObject()) || !cJSON_AddItemToArray(notes, n) ||
		    !cJSON_AddStringToObject(n, "level", "error") ||
		    !add_obj(n, "message", text_obj(text))) {
			free(text);
			return false;
		}
		free(text);
	}
	return true;
}

static int render_sarif(FILE *f, const struct st_check_result *r, bool pretty, bool color)
{
	cJSON *root = cJSON_CreateObject(), *runs, *run, *tool, *drv, *rules, *res, *it;
	struct fingerprint *fp = fingerprints(r);
	size_t i;

	if (!root || !fp)
		goto oom;
	if (!cJSON_AddStringToObject(root, "$schema", SARIF_SCHEMA) ||
	    !cJSON_AddStringToObject(root, "version", "2.1.0") ||
	    !(runs = cJSON_AddArrayToObject(root, "runs")) ||
	    !(run = cJSON_CreateObject()))
		goto oom;
	cJSON_AddItemToArray(runs, run);
	if (!(tool = cJSON_AddObjectToObject(run, "tool")) ||
	    !(drv = cJSON_AddObjectToObject(tool, "driver")) ||
	    !cJSON_AddStringToObject(drv, "name", "slubtiny") ||
	    !cJSON_AddStringToObject(drv, "version", ST_VERSION) ||
	    !(rules = cJSON_AddArrayToObject(drv, "rules")))
		goto oom;
	for (i = 0; i < ST_RULE_COUNT; i++) {
		it = sarif_rule(i);
		if (!it)
			goto oom;
		cJSON_AddItemToArray(rules, it);
	}
	if (!add_srcroot(run, r->srcroot) || !(res = cJSON_AddArrayToObject(run, "results")))
		goto oom;
	for (i = 0; i < r->nr; i++) {
		it = sarif_result(&r->f[i], &fp[i]);
		if (!it)
			goto oom;
		cJSON_AddItemToArray(res, it);
	}
	if (r->nr_errors && !sarif_notes(run, r))
		goto oom;
	free(fp);
	return st_json_print(f, root, pretty);
oom:
	free(fp);
	cJSON_Delete(root);
	return -ENOMEM;
}

typedef int (*render_fn)(FILE *f, const struct st_check_result *r, bool pretty, bool color);

static const render_fn renderers[] = {
	[ST_FORMAT_TEXT] = render_text,
	[ST_FORMAT_JSON] = render_json,
	[ST_FORMAT_GITHUB] = render_github,
	[ST_FORMAT_SARIF] = render_sarif,
};

int st_check_render(FILE *f, const struct st_check_result *r, const struct st_render_opts *o)
{
	int ret;

	if ((unsigned int)o->format >= ARRAY_SIZE(renderers) || !renderers[o->format])
		return -ENOTSUP;
	ret = renderers[o->format](f, r, o->pretty, o->color);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

static cJSON *json_error(const char *file, const char *msg)
{
	cJSON *root = cJSON_CreateObject(), *e;

	if (!root || !cJSON_AddStringToObject(root, "version", ST_VERSION) ||
	    !(e = cJSON_AddObjectToObject(root, "error")) ||
	    !(file ? cJSON_AddStringToObject(e, "file", file) : cJSON_AddNullToObject(e, "file")) ||
	    !cJSON_AddStringToObject(e, "message", msg)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

static cJSON *sarif_error(const char *file, const char *msg)
{
	cJSON *root = cJSON_CreateObject(), *runs, *run, *drv, *inv, *invs, *notes, *n;
	char *text = NULL;

	if (!root || asprintf(&text, "%s%s%s", file ? file : "", file ? ": " : "", msg) < 0)
		goto fail;
	if (!cJSON_AddStringToObject(root, "$schema", SARIF_SCHEMA) ||
	    !cJSON_AddStringToObject(root, "version", "2.1.0") ||
	    !(runs = cJSON_AddArrayToObject(root, "runs")) ||
	    !(run = cJSON_CreateObject()) || !cJSON_AddItemToArray(runs, run) ||
	    !(drv = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver")) ||
	    !cJSON_AddStringToObject(drv, "name", "slubtiny") ||
	    !cJSON_AddStringToObject(drv, "version", ST_VERSION) ||
	    !(invs = cJSON_AddArrayToObject(run, "invocations")) ||
	    !(inv = cJSON_CreateObject()) || !cJSON_AddItemToArray(invs, inv) ||
	    !cJSON_AddBoolToObject(inv, "executionSuccessful", 0) ||
	    !cJSON_AddNumberToObject(inv, "exitCode", 2) ||
	    !(notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications")) ||
	    !(n = cJSON_CreateObject()) || !cJSON_AddItemToArray(notes, n) ||
	    !cJSON_AddStringToObject(n, "level", "error") ||
	    !add_obj(n, "message", text_obj(text)) ||
	    !cJSON_AddArrayToObject(run, "results"))
		goto fail;
	free(text);
	return root;
fail:
	free(text);
	cJSON_Delete(root);
	return NULL;
}

int st_check_render_error(FILE *f, enum st_format fmt, const char *file,
			  const char *msg, bool pretty)
{
	switch (fmt) {
	case ST_FORMAT_JSON:
		return st_json_print(f, json_error(file, msg), pretty);
	case ST_FORMAT_SARIF:
		return st_json_print(f, sarif_error(file, msg), pretty);
	case ST_FORMAT_GITHUB:
		fputs("::error ", f);
		if (file) {
			fputs("file=", f);
			gh_escape(f, file, true);
		}
		fputs("::", f);
		gh_escape(f, msg, false);
		fputc('\n', f);
		return ferror(f) ? -EIO : 0;
	default:
		return 0;
	}
}
