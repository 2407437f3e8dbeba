// SPDX-License-Identifier: GPL-2.0-only
/*
 * What became of one migrated file, as text diagnostics or a JSON object.
 * The text is gcc's diagnostic form (common/diag.h), what check prints
 * too; the diff itself is the file's new content, not a report, and the
 * caller prints it where it wants (stdout).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/diag.h"
#include "common/json.h"
#include "defconfig/defconfig.h"
#include "kconfig/kconfig.h"
#include "layout/layout.h"
#include "migrate.h"
#include "st_config.h"

/* Where the text goes and how: the stream, its colour and verbosity. */
struct out {
	FILE *f;
	bool color, quiet, verbose;
	int err;	/* the first write error */
};

/*
 * One diagnostic "FILE:LINE:1: LEVEL: MSG [RULE]"; @line 0 is about the
 * whole file, @rule may be NULL.
 */
static void __attribute__((format(printf, 6, 7)))
diag(struct out *o, enum st_diag_level level, const char *path, int line,
     const char *rule, const char *fmt, ...)
{
	const struct st_diag d = {
		.level = level, .file = path, .line = line, .col = 1, .rule = rule,
	};
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = st_diag_vprint(o->f, o->color, &d, fmt, ap);
	va_end(ap);
	if (ret && !o->err)
		o->err = ret;
}

static void note(struct out *o, const char *path, int line, const char *text, int len)
{
	diag(o, ST_DIAG_NOTE, path, line, NULL, "%.*s", len, text);
}

/*
 * A finding's cause chain "a\nb\n...\nfix: F" as note lines. Verbose: every
 * line; by default only the root cause (the last line before the fix) and
 * the fix, once: not at all when the root already says it. With @fix_deps
 * (--fix-deps was not given and would write it), the fix's line ends with
 * " (--fix-deps adds it)".
 */
static void print_notes(struct out *o, const char *path, int line, const char *text,
			bool fix_deps)
{
	const char *p = text, *nl, *root = NULL, *fix = NULL, *hint = "";
	int root_len = 0, len, fix_len = 0;

	while (p && *p) {
		nl = strchr(p, '\n');
		len = nl ? (int)(nl - p) : (int)strlen(p);
		if (!strncmp(p, "fix: ", 5)) {
			fix = p;
			fix_len = len;
		} else {
			root = p;
			root_len = len;
			if (o->verbose)
				note(o, path, line, p, len);
		}
		p = nl ? nl + 1 : NULL;
	}
	/* without --fix-deps, where it would write the fix: say so */
	if (fix && fix_deps)
		hint = " (--fix-deps adds it)";
	if (!o->verbose && root && fix && memmem(root, root_len, fix + 5, fix_len - 5)) {
		/* the root already says the fix */
		diag(o, ST_DIAG_NOTE, path, line, NULL, "%.*s%s", root_len, root, hint);
		return;
	}
	if (!o->verbose && root)
		note(o, path, line, root, root_len);
	if (fix)
		diag(o, ST_DIAG_NOTE, path, line, NULL, "%.*s%s", fix_len, fix, hint);
}

/*
 * One line numbering per output: the file as it is on disk after the
 * action shown. Written in place: the migrated file's lines; else the
 * file stays as it is, so the input's lines.
 */
static int finding_line(const struct st_mig_outcome *r, const struct st_mig_finding *x)
{
	return r->written_lines ? x->line : x->in_line;
}

static int change_line(const struct st_mig_outcome *r, const struct st_mig_change *c)
{
	return r->written_lines ? c->out_line : c->line;
}

static int input_line(void *f, int line)
{
	return st_mig_file_in_line(f, line);
}

/*
 * A fix's or a refusal's note, whose "line N" name lines of the migrated
 * file: as they are with it written, else the input's (into @buf).
 */
static const char *fix_note(const struct st_mig_outcome *r, const char *text, char *buf,
			    size_t size)
{
	if (r->written_lines)
		return text;
	return st_mig_map_lines(buf, size, text, input_line, (void *)r->file);
}

static void print_finding(struct out *o, const struct st_mig_outcome *r,
			  const struct st_mig_finding *x)
{
	const char *path = r->file->path;
	int line = finding_line(r, x);
	char tag[64];

	snprintf(tag, sizeof(tag), "%s%s", st_mig_finding_rule(x),
		 x->pre_existing ? ", pre-existing" : "");
	diag(o, ST_DIAG_WARNING, path, line, tag, "%s", x->message);
	if (!o->quiet)
		print_notes(o, path, line, x->detail, r->file->fix_deps_would);
}

/* A file of a build system's stack: one note on what it was merged over. */
static void print_stack(struct out *o, const struct st_mig_outcome *r)
{
	const struct st_mig_file *f = r->file;
	char *d;

	/* a file no stack of its build system has: said with -v only */
	if ((f->layout.kind == ST_LAYOUT_PLAIN && (!f->layout.unplaced || !o->verbose)) ||
	    o->quiet)
		return;
	d = st_layout_describe(&f->layout, f->arch_from == ST_ARCH_FROM_LAYOUT,
			       f->target_from_layout,
			       st_layout_unread(r->tree, f->arch_from != ST_ARCH_FROM_HOST),
			       o->verbose);
	if (!d) {
		o->err = o->err ? o->err : -ENOMEM;
		return;
	}
	if (f->nr_in_base)
		diag(o, ST_DIAG_NOTE, f->path, 0, NULL, "%s; %zu finding%s on base lines not shown",
		     d, f->nr_in_base, f->nr_in_base == 1 ? "" : "s");
	else
		diag(o, ST_DIAG_NOTE, f->path, 0, NULL, "%s", d);
	free(d);
}

/*
 * The options whose resolved value changes though no line of the file names
 * them (collateral): counted, then in scripts/diffconfig's form, as it
 * orders them: removed ("-SYM old"), changed (" SYM old -> new"), added
 * ("+SYM new"), each by name. Also when quiet: they change what is built.
 * What diffconfig shows besides (the options the changed lines set, those
 * that only appear or vanish as n) is counted in the header; with @all
 * (--all) the list is diffconfig's whole.
 */
static void print_side_effects(struct out *o, const struct st_mig_file *f, bool all, bool tree)
{
	const struct st_collateral *c = all ? f->changed_all : f->collateral;
	size_t i, n = all ? f->nr_changed_all : f->nr_collateral;
	size_t nd = f->nr_set_by_lines, nn = f->nr_only_n;
	char left[192] = "", by[64] = "", only[64] = "";

	if (!f->nr_collateral && !(all && n))
		return;
	if (nd)
		snprintf(by, sizeof(by), "%zu set by the changed lines", nd);
	if (nn)
		snprintf(only, sizeof(only), "%zu that only appear or vanish as n", nn);
	if (nd || nn)
		snprintf(left, sizeof(left), " (not listed: %s%s%s; --all lists them too)", by,
			 nd && nn ? ", " : "", only);
	if (all)
		diag(o, ST_DIAG_NOTE, f->path, 0, NULL, "%zu option%s change%s as scripts/diffconfig "
		     "shows them (%zu as a side effect, %zu set by the changed lines, %zu only "
		     "appearing or vanishing as n):", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
		     f->nr_collateral, nd, nn);
	else
		diag(o, ST_DIAG_NOTE, f->path, 0, NULL, "%zu option%s change%s as a side effect%s:",
		     n, n == 1 ? "" : "s", n == 1 ? "s" : "", left);
	for (i = 0; i < n; i++)
		if (!c[i].new)
			fprintf(o->f, "-%s %s\n", c[i].sym, c[i].old);
	for (i = 0; i < n; i++)
		if (c[i].old && c[i].new)
			fprintf(o->f, " %s %s -> %s\n", c[i].sym, c[i].old, c[i].new);
	for (i = 0; i < n; i++)
		if (!c[i].old)
			fprintf(o->f, "+%s %s\n", c[i].sym, c[i].new);
	/* a model knows the slab options only: the real list is longer */
	if (!tree)
		diag(o, ST_DIAG_NOTE, f->path, 0, NULL, "%s", st_mig_model_side_effects);
}

const char st_mig_model_side_effects[] =
	"these are the side effects within the bundled slab Kconfig model only; "
	"--srctree DIR lists every option that changes";

int st_mig_side_effects_render(FILE *f, const struct st_mig_outcome *r,
			       const struct st_render_opts *ro)
{
	struct out o = { .f = f, .color = ro->color, .quiet = ro->quiet, .verbose = ro->verbose };

	if (!r->file->nr_errors)
		print_side_effects(&o, r->file, r->diffconfig, r->tree);
	return o.err;
}

/* The changes made (or proposed), and the fixes --fix-deps would not write. */
static void print_changes(struct out *o, const struct st_mig_outcome *r)
{
	const struct st_mig_file *f = r->file;
	char buf[1024];
	size_t i;

	for (i = 0; !o->quiet && i < f->m.nr_changes; i++) {
		const struct st_mig_change *c = &f->m.changes[i];
		const char *msg = c->text[0] ? fix_note(r, c->msg, buf, sizeof(buf)) : c->msg;

		/* a fix written to disk is reported as linters with autofix do */
		if (r->written && c->text[0])
			diag(o, ST_DIAG_NOTE, f->path, change_line(r, c), c->rule, "fixed: %s",
			     msg);
		else
			diag(o, ST_DIAG_NOTE, f->path, change_line(r, c), c->rule, "%s", msg);
	}
	for (i = 0; !o->quiet && i < f->nr_refused; i++)
		diag(o, ST_DIAG_NOTE, f->path, 0, "fix-deps", "%s",
		     fix_note(r, f->refused[i], buf, sizeof(buf)));
}

/* What the migration brought first; what the input had after, or counted. */
static void print_findings(struct out *o, const struct st_mig_outcome *r)
{
	const struct st_mig_file *f = r->file;
	size_t i, nr_pre = 0;

	for (i = 0; i < f->m.nr_findings; i++) {
		if (f->m.findings[i].pre_existing)
			nr_pre++;
		else
			print_finding(o, r, &f->m.findings[i]);
	}
	for (i = 0; r->all && i < f->m.nr_findings; i++)
		if (f->m.findings[i].pre_existing)
			print_finding(o, r, &f->m.findings[i]);
	if (nr_pre && !r->all && !o->quiet)
		diag(o, ST_DIAG_NOTE, f->path, 0, NULL, "%zu pre-existing finding%s: the file had %s "
		     "before the migration (--all lists %s)", nr_pre,
		     nr_pre == 1 ? "" : "s", nr_pre == 1 ? "it" : "them",
		     nr_pre == 1 ? "it" : "them");
}

/* A file that did not parse: the parser's own diagnostics. */
static void print_parse_errors(struct out *o, const struct st_mig_file *f)
{
	const struct st_defconfig *dc = f->before;
	size_t i;

	for (i = 0; i < dc->nr_diags; i++)
		diag(o, dc->diags[i].sev == ST_DC_ERROR ? ST_DIAG_ERROR : ST_DIAG_WARNING,
		     dc->name, dc->diags[i].line, NULL, "%s", dc->diags[i].msg);
}

static int render_text(FILE *f, const struct st_mig_outcome *r, const struct st_render_opts *ro)
{
	struct out o = {
		.f = f, .color = ro->color, .quiet = ro->quiet, .verbose = ro->verbose,
	};

	if (r->file->nr_errors) {
		print_parse_errors(&o, r->file);
		return o.err;
	}
	print_changes(&o, r);
	print_findings(&o, r);
	print_side_effects(&o, r->file, r->diffconfig, r->tree);
	print_stack(&o, r);
	return o.err;
}

static cJSON *json_findings(const struct st_mig_outcome *r)
{
	const struct st_mig_file *f = r->file;
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < f->m.nr_findings; i++) {
		const struct st_mig_finding *x = &f->m.findings[i];

		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddStringToObject(o, "file", f->path) ||
		    !cJSON_AddNumberToObject(o, "line", finding_line(r, x)) ||
		    !cJSON_AddNumberToObject(o, "column", 1) ||
		    !cJSON_AddStringToObject(o, "rule", st_mig_finding_rule(x)) ||
		    !cJSON_AddStringToObject(o, "level", "warning") ||
		    !cJSON_AddStringToObject(o, "origin", x->pre_existing ?
					     "pre-existing" : "introduced") ||
		    !cJSON_AddStringToObject(o, "symbol", x->symbol) ||
		    !cJSON_AddStringToObject(o, "kind", x->kind) ||
		    !cJSON_AddStringToObject(o, "requested", x->requested) ||
		    !cJSON_AddStringToObject(o, "actual", x->actual) ||
		    !cJSON_AddStringToObject(o, "cause", x->cause) ||
		    !cJSON_AddStringToObject(o, "message", x->message) ||
		    !cJSON_AddStringToObject(o, "detail", x->detail)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *json_collateral(const struct st_mig_file *f)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < f->nr_collateral; i++) {
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddStringToObject(o, "symbol", f->collateral[i].sym) ||
		    !st_json_add_str_or_null(o, "old", f->collateral[i].old) ||
		    !st_json_add_str_or_null(o, "new", f->collateral[i].new)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *json_changes(const struct st_mig_outcome *r)
{
	const struct st_mig_file *f = r->file;
	cJSON *arr = cJSON_CreateArray(), *o;
	char buf[1024];
	size_t i;

	for (i = 0; arr && i < f->m.nr_changes; i++) {
		const struct st_mig_change *c = &f->m.changes[i];

		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddNumberToObject(o, "line", change_line(r, c)) ||
		    !cJSON_AddStringToObject(o, "rule", c->rule) ||
		    !cJSON_AddStringToObject(o, "message", c->text[0] ?
					     fix_note(r, c->msg, buf, sizeof(buf)) : c->msg)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

/* The refusals, their lines numbered as the notes' (fix_note()). */
static cJSON *json_refused(const struct st_mig_outcome *r)
{
	const struct st_mig_file *f = r->file;
	cJSON *arr = cJSON_CreateArray();
	char buf[1024];
	size_t i;

	for (i = 0; arr && i < f->nr_refused; i++) {
		if (!cJSON_AddItemToArray(arr, cJSON_CreateString(
				fix_note(r, f->refused[i], buf, sizeof(buf))))) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *json_stack(const struct st_mig_file *f)
{
	return st_layout_to_json(&f->layout, f->path,
				 f->arch_from == ST_ARCH_FROM_LAYOUT,
				 f->target_from_layout, f->nr_in_base);
}

cJSON *st_mig_outcome_to_json(const struct st_mig_outcome *r)
{
	const struct st_mig_file *f = r->file;
	cJSON *o = cJSON_CreateObject();
	char target[16];

	/* the file's own: its build system's kernel where that was used */
	snprintf(target, sizeof(target), "%d.%d", f->target.major, f->target.minor);
	/* "path": the old name of "file", kept for one release */
	if (!o || !cJSON_AddStringToObject(o, "file", f->path) ||
	    !cJSON_AddStringToObject(o, "path", f->path) ||
	    !cJSON_AddBoolToObject(o, "changed", f->m.changed) ||
	    !cJSON_AddStringToObject(o, "diff", f->diff ? f->diff : "") ||
	    !cJSON_AddItemToObject(o, "findings", json_findings(r)) ||
	    !cJSON_AddItemToObject(o, "collateral", json_collateral(f)) ||
	    !cJSON_AddItemToObject(o, "changes", json_changes(r)) ||
	    !cJSON_AddItemToObject(o, "refused", json_refused(r)) ||
	    !cJSON_AddBoolToObject(o, "written", r->written) ||
	    !cJSON_AddStringToObject(o, "target", target) ||
	    !st_json_add_str_or_null(o, "verified_with", f->verified_with) ||
	    !st_json_add_str_or_null(o, "arch", f->arch[0] ? f->arch : NULL) ||
	    !st_json_add_str_or_null(o, "arch_from", f->arch[0] ?
				     st_arch_from_name(f->arch_from) : NULL) ||
	    !st_json_add_str_or_null(o, "arch_why", f->arch_why[0] ? f->arch_why : NULL) ||
	    (f->layout.kind != ST_LAYOUT_PLAIN &&
	     !cJSON_AddItemToObject(o, "stack", json_stack(f)))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *st_mig_error_to_json(const char *path, const char *msg)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddStringToObject(o, "file", path) ||
	    !cJSON_AddStringToObject(o, "path", path) ||
	    !cJSON_AddStringToObject(o, "message", msg) ||
	    !cJSON_AddStringToObject(o, "error", msg)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *st_mig_doc_new(struct st_kver target, bool written_lines,
		      const struct st_mig_counts *n, cJSON **files)
{
	cJSON *root = cJSON_CreateObject(), *sum;
	char tgt[32];

	snprintf(tgt, sizeof(tgt), "%d.%d", target.major, target.minor);
	if (!root || !cJSON_AddStringToObject(root, "version", ST_VERSION) ||
	    !cJSON_AddStringToObject(root, "target", tgt) ||
	    !cJSON_AddStringToObject(root, "lines", written_lines ? "written" : "input") ||
	    !(*files = cJSON_AddArrayToObject(root, "files")) ||
	    !(sum = cJSON_AddObjectToObject(root, "summary")) ||
	    !cJSON_AddNumberToObject(sum, "files", n->files) ||
	    !cJSON_AddNumberToObject(sum, "looked_at", n->looked_at) ||
	    !cJSON_AddNumberToObject(sum, "not_kernel_configs", n->not_kernel)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/*
 * What a file was verified against, as said once per basis: a tree's
 * "... (ARCH=arm)" also says where the ARCH came from. "" when it was not.
 */
void st_mig_file_basis(const struct st_mig_file *f, bool tree, char *buf, size_t len)
{
	const char *w = f->verified_with;
	size_t n;

	if (!w) {
		snprintf(buf, len, "%s", "");
		return;
	}
	n = strlen(w);
	if (tree && n && w[n - 1] == ')' && strstr(w, "(ARCH="))
		snprintf(buf, len, "%.*s from %s%s)", (int)(n - 1), w,
			 f->arch_from == ST_ARCH_FROM_OPTION || f->arch_from == ST_ARCH_FROM_ENV ||
			 f->arch_from == ST_ARCH_FROM_CONFIG ? "" : "the ",
			 st_arch_from_name(f->arch_from));
	else
		snprintf(buf, len, "%s", w);
}

static int render_json(FILE *f, const struct st_mig_outcome *r, const struct st_render_opts *ro)
{
	cJSON *o = st_mig_outcome_to_json(r);

	if (!o)
		return -ENOMEM;
	return st_json_print(f, o, ro->pretty);
}

int st_mig_outcome_render(FILE *f, const struct st_mig_outcome *r,
			  const struct st_render_opts *o)
{
	switch (o->format) {
	case ST_FORMAT_TEXT:
		return render_text(f, r, o);
	case ST_FORMAT_JSON:
		return render_json(f, r, o);
	default:
		return -ENOTSUP;
	}
}
