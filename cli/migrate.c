// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny migrate: options, then lib/migrate does the work; this file only
 * prints (text on stdout/stderr, or one JSON document) and picks the exit
 * status.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "common/error.h"
#include "defconfig/defconfig.h"
#include "migrate/migrate.h"

enum { OPT_SRCTREE = 256, OPT_ARCH, OPT_CROSS, OPT_TARGET, OPT_FIX_DEPS,
       OPT_NO_VERIFY, OPT_FORCE, OPT_IN_PLACE, OPT_CHECK, OPT_JSON };

static const struct option long_opts[] = {
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "srctree", required_argument, NULL, OPT_SRCTREE },
	{ "arch", required_argument, NULL, OPT_ARCH },
	{ "cross-compile", required_argument, NULL, OPT_CROSS },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "fix-deps", no_argument, NULL, OPT_FIX_DEPS },
	{ "no-verify", no_argument, NULL, OPT_NO_VERIFY },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct run {
	struct st_mig_opts opts;
	bool in_place, check, force;
	int status;		/* worst exit status so far */
	cJSON *files;		/* JSON mode: the "files" array */
	char *described[16];	/* verification bases already announced */
};

static void worse(struct run *r, int status)
{
	if (status > r->status)
		r->status = status;
}

/* Text mode: what the verification was done against, once per basis. */
static void announce(struct run *r, const struct st_mig_file *f)
{
	size_t i;

	if (!f->verified_with)
		return;
	for (i = 0; i < 16 && r->described[i]; i++)
		if (!strcmp(r->described[i], f->verified_with))
			return;
	if (i < 16)
		r->described[i] = strdup(f->verified_with);
	fprintf(stderr, "slubtiny: verified against %s\n", f->verified_with);
}

/* "a\nb" as "FILE:LINE: note: a" and "FILE:LINE: note: b". */
static void print_notes(const char *path, int line, const char *text)
{
	const char *p = text, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		fprintf(stderr, "%s:%d: note: %.*s\n", path, line,
			(int)(nl ? nl - p : (long)strlen(p)), p);
		p = nl ? nl + 1 : NULL;
	}
}

static void print_text(struct run *r, const struct st_mig_file *f)
{
	size_t i;

	announce(r, f);
	if (!r->in_place)
		fputs(f->diff, stdout);
	for (i = 0; i < f->m.nr_changes; i++)
		fprintf(stderr, "%s:%d: note: [%s] %s\n", f->path, f->m.changes[i].line,
			f->m.changes[i].rule, f->m.changes[i].msg);
	for (i = 0; i < f->m.nr_findings; i++) {
		const struct st_mig_finding *x = &f->m.findings[i];

		fprintf(stderr, "%s:%d: warning: %s [%s]\n", f->path, x->line, x->message,
			x->kind);
		print_notes(f->path, x->line, x->detail);
	}
	for (i = 0; i < f->nr_collateral; i++)
		fprintf(stderr, "%s: note: collateral: %s%s: %s -> %s\n", f->path, ST_DC_PREFIX,
			f->collateral[i].sym,
			f->collateral[i].old ? f->collateral[i].old : "(undefined)",
			f->collateral[i].new ? f->collateral[i].new : "(undefined)");
}

static cJSON *json_str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *json_findings(const struct st_mig_file *f)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < f->m.nr_findings; i++) {
		const struct st_mig_finding *x = &f->m.findings[i];

		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddNumberToObject(o, "line", x->line) ||
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
		    !cJSON_AddItemToObject(o, "old", json_str_or_null(f->collateral[i].old)) ||
		    !cJSON_AddItemToObject(o, "new", json_str_or_null(f->collateral[i].new))) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *json_changes(const struct st_mig_file *f)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < f->m.nr_changes; i++) {
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddNumberToObject(o, "line", f->m.changes[i].line) ||
		    !cJSON_AddStringToObject(o, "rule", f->m.changes[i].rule) ||
		    !cJSON_AddStringToObject(o, "message", f->m.changes[i].msg)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static int add_json(struct run *r, const struct st_mig_file *f, bool written)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddItemToArray(r->files, o) ||
	    !cJSON_AddStringToObject(o, "path", f->path) ||
	    !cJSON_AddBoolToObject(o, "changed", f->m.changed) ||
	    !cJSON_AddStringToObject(o, "diff", f->diff ? f->diff : "") ||
	    !cJSON_AddItemToObject(o, "findings", json_findings(f)) ||
	    !cJSON_AddItemToObject(o, "collateral", json_collateral(f)) ||
	    !cJSON_AddItemToObject(o, "changes", json_changes(f)) ||
	    !cJSON_AddBoolToObject(o, "written", written) ||
	    !cJSON_AddItemToObject(o, "verified_with", json_str_or_null(f->verified_with)))
		return -ENOMEM;
	return 0;
}

/* A file we could not process: an error line, and a JSON entry saying so. */
static void file_error(struct run *r, const char *path, const struct st_error *e, int err)
{
	cJSON *o;
	char msg[1100];

	p_lib_err(e, path, err);
	worse(r, ST_EXIT_ERROR);
	if (!r->files)
		return;
	if (e && e->code)
		snprintf(msg, sizeof(msg), "%s", e->msg);
	else
		snprintf(msg, sizeof(msg), "%s", strerror(err < 0 ? -err : err));
	o = cJSON_CreateObject();
	if (o && cJSON_AddItemToArray(r->files, o)) {
		cJSON_AddStringToObject(o, "path", path);
		cJSON_AddStringToObject(o, "error", msg);
	}
}

/* Parser errors: print every diagnostic, touch nothing. */
static void parse_errors(struct run *r, const struct st_mig_file *f)
{
	const struct st_defconfig *dc = f->before;
	struct st_error e = { 0 };
	size_t i;

	for (i = 0; i < dc->nr_diags; i++)
		fprintf(stderr, "%s:%d: %s: %s\n", dc->name, dc->diags[i].line,
			dc->diags[i].sev == ST_DC_ERROR ? "error" : "warning", dc->diags[i].msg);
	st_err(&e, EINVAL, dc->name, "not a defconfig (%zu error%s); left unchanged",
	       f->nr_errors, f->nr_errors == 1 ? "" : "s");
	file_error(r, dc->name, &e, EINVAL);
}

static void do_file(struct run *r, struct st_mig_session *s, const char *path)
{
	struct st_error e = { 0 };
	struct st_mig_file f;
	bool written = false;
	int ret;

	ret = st_mig_session_file(s, path, &f, &e);
	if (ret) {
		file_error(r, path, &e, ret);
		goto out;
	}
	if (f.nr_errors) {
		parse_errors(r, &f);
		goto out;
	}
	if (f.m.nr_findings)
		worse(r, ST_EXIT_FINDINGS);
	if (r->check && f.m.changed)
		worse(r, ST_EXIT_FINDINGS);
	if (r->in_place && f.m.changed) {
		if (st_mig_file_failed(&f) && !r->force) {
			p_err("%s: not written: the migrated file does not verify "
			      "(see the warnings; --fix-deps may help, --force writes anyway)",
			      f.path);
			worse(r, ST_EXIT_FINDINGS);
		} else {
			ret = st_mig_file_write(&f, &e);
			if (ret)
				file_error(r, path, &e, ret);
			written = !ret;
		}
	}
	if (r->files) {
		if (add_json(r, &f, written))
			file_error(r, path, NULL, -ENOMEM);
	} else {
		print_text(r, &f);
	}
out:
	st_mig_file_release(&f);
}

static int parse_opts(struct run *r, int argc, char **argv)
{
	int c;

	r->opts.verify = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_IN_PLACE: r->in_place = true; break;
		case OPT_CHECK: r->check = true; break;
		case OPT_JSON: st_out.json = true; break;
		case OPT_SRCTREE: r->opts.srctree = optarg; break;
		case OPT_ARCH: r->opts.arch = optarg; break;
		case OPT_CROSS: r->opts.cross_compile = optarg; break;
		case OPT_TARGET: r->opts.target = optarg; break;
		case OPT_FIX_DEPS: r->opts.fix_deps = true; break;
		case OPT_NO_VERIFY: r->opts.verify = false; break;
		case OPT_FORCE: r->force = true; break;
		default:
			st_usage(stderr, "migrate");
			return -EINVAL;
		}
	}
	if (r->in_place && r->check) {
		p_err("migrate: --in-place and --check exclude each other");
		return -EINVAL;
	}
	if (r->opts.fix_deps && !r->opts.verify) {
		p_err("migrate: --fix-deps needs the verification (drop --no-verify)");
		return -EINVAL;
	}
	if (optind >= argc) {
		p_err("migrate: no FILE or DIR given");
		st_usage(stderr, "migrate");
		return -EINVAL;
	}
	return 0;
}

static int print_json(cJSON *root)
{
	char *s = st_out.pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);

	if (!s)
		return -ENOMEM;
	fputs(s, stdout);
	fputc('\n', stdout);
	cJSON_free(s);
	return 0;
}

int cmd_migrate(int argc, char **argv)
{
	struct run r = { 0 };
	struct st_mig_session *s = NULL;
	struct st_error e = { 0 };
	cJSON *root = NULL;
	char **paths = NULL, tgt[16];
	size_t n = 0, i;
	int ret;

	if (st_wants_help(argc, argv, "migrate"))
		return ST_EXIT_OK;
	if (parse_opts(&r, argc, argv))
		return ST_EXIT_ERROR;
	ret = st_mig_session_new(&s, &r.opts, &e);
	if (!ret)
		ret = st_mig_expand_paths(argv + optind, argc - optind, &paths, &n, &e);
	if (ret) {
		p_lib_err(&e, NULL, ret);
		st_mig_session_free(s);
		return ST_EXIT_ERROR;
	}
	if (st_out.json) {
		root = cJSON_CreateObject();
		snprintf(tgt, sizeof(tgt), "%d.%d", st_mig_session_target(s).major,
			 st_mig_session_target(s).minor);
		if (!root || !cJSON_AddStringToObject(root, "target", tgt) ||
		    !(r.files = cJSON_AddArrayToObject(root, "files"))) {
			p_err("out of memory");
			r.status = ST_EXIT_ERROR;
			goto out;
		}
	}
	if (!n)
		p_err("warning: no *_defconfig or *.config files found");
	for (i = 0; i < n; i++)
		do_file(&r, s, paths[i]);
	if (root && print_json(root)) {
		p_err("out of memory");
		worse(&r, ST_EXIT_ERROR);
	}
out:
	cJSON_Delete(root);
	st_mig_paths_free(paths, n);
	st_mig_session_free(s);
	for (i = 0; i < 16; i++)
		free(r.described[i]);
	return r.status;
}
