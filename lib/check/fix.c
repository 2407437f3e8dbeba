// SPDX-License-Identifier: GPL-2.0-only
/*
 * --fix: migrate's rewrite (lib/migrate), verified with Kconfig (against the
 * tree, or migrate's bundled model without one), with the missing enabling
 * options added (--fix-deps), written by lib/defconfig's atomic writer.
 * A rewrite whose allocator lines still do not take effect is not written.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/array.h"
#include "common/diag.h"
#include "common/error.h"
#include "layout/discover.h"
#include "migrate/migrate.h"

/* Did the allocator the migration chose take effect? */
static bool verified(const struct st_mig_file *f)
{
	size_t i;

	for (i = 0; i < f->m.nr_findings; i++) {
		const struct st_mig_finding *x = &f->m.findings[i];

		if (strcmp(x->kind, "ineffective") && strcmp(x->kind, "unknown"))
			continue;
		if (!strcmp(x->symbol, "SLUB") || !strcmp(x->symbol, "SLUB_TINY"))
			return false;
	}
	return true;
}

/*
 * A gcc-form note "FILE:LINE:COL: note: fixed: MSG [RULE]" (common/diag.h)
 * for every change of a written file, kept for the CLI to print.
 */
static int record(struct st_check_result *r, const struct st_mig_file *f)
{
	char **v = realloc(r->fixed, (r->nr_fixed_msgs + f->m.nr_changes + 1) * sizeof(*v));
	size_t i, len;
	FILE *m;

	if (!v)
		return -ENOMEM;
	r->fixed = v;
	for (i = 0; i < f->m.nr_changes; i++) {
		const struct st_mig_change *c = &f->m.changes[i];
		const struct st_diag d = {
			.level = ST_DIAG_NOTE, .file = f->path, .line = c->out_line,
			.rule = c->rule,
		};
		char *s = NULL;

		m = open_memstream(&s, &len);
		if (!m)
			return -ENOMEM;
		st_diag_print(m, false, &d, "fixed: %s", c->msg);
		if (fclose(m) || !s || !len) {
			free(s);
			return -ENOMEM;
		}
		s[len - 1] = '\0';	/* the newline: the CLI prints the lines */
		v[r->nr_fixed_msgs++] = s;
		r->nr_fixed_lines++;
	}
	return 0;
}

/* Keep one line for the CLI to print; NULL is out of memory. */
static int keep_msg(struct st_check_result *r, char *s)
{
	char **v;

	if (!s)
		return -ENOMEM;
	v = realloc(r->fixed, (r->nr_fixed_msgs + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	r->fixed = v;
	v[r->nr_fixed_msgs++] = s;
	return 0;
}

/*
 * A named file that is a symlink is written through: a note saying where,
 * as migrate says it (a walked one stays in its tree, see the writer).
 */
static int note_symlink(struct st_check_result *r, const char *path)
{
	const struct st_diag d = { .level = ST_DIAG_NOTE, .file = path };
	char target[PATH_MAX], *s = NULL;
	struct stat st;
	size_t len;
	ssize_t n;
	FILE *m;

	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return 0;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	m = open_memstream(&s, &len);
	if (!m)
		return -ENOMEM;
	st_diag_print(m, false, &d, "a symlink to %s; following it", target);
	if (fclose(m) || !s || !len) {
		free(s);
		return -ENOMEM;
	}
	s[len - 1] = '\0';
	return keep_msg(r, s);
}

/*
 * What migrate prints for @f after its notes: the options that change as a
 * side effect (and, without a tree, that the model knows only its own), one
 * printer for both doors. Kept as one message of lines for the CLI.
 */
static int record_side_effects(struct st_check_result *r, const struct st_mig_file *f,
			       bool tree)
{
	const struct st_mig_outcome out = {
		.file = f, .written = true, .written_lines = true, .tree = tree,
	};
	struct st_render_opts ro = { .format = ST_FORMAT_TEXT };
	char *s = NULL;
	size_t len;
	FILE *m;
	int ret;

	m = open_memstream(&s, &len);
	if (!m)
		return -ENOMEM;
	ret = st_mig_side_effects_render(m, &out, &ro);
	if (fclose(m) || ret || !s) {
		free(s);
		return -ENOMEM;
	}
	if (!len) {
		free(s);
		return 0;
	}
	s[len - 1] = '\0';	/* the last newline: the CLI prints the lines */
	return keep_msg(r, s);
}

/*
 * The same fix as JSON, for check's document: migrate's changes and side
 * effects of @f (migrate's own shape), and which resolution counted them.
 */
static int record_json(struct st_check_result *r, const struct st_mig_file *f, bool tree)
{
	const struct st_mig_outcome out = {
		.file = f, .written = true, .written_lines = true, .tree = tree,
	};
	cJSON *o = st_mig_outcome_to_json(&out), *x;
	static const char *const drop[] = {
		"path", "changed", "diff", "findings", "written", "arch", "arch_from",
		"arch_why", "stack",
	};
	size_t i;

	if (!o)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(drop); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(o, drop[i]);
	x = cJSON_DetachItemFromObjectCaseSensitive(o, "collateral");
	if (!x || !cJSON_AddItemToObject(o, "side_effects", x)) {
		cJSON_Delete(x);
		cJSON_Delete(o);
		return -ENOMEM;
	}
	if (!cJSON_AddStringToObject(o, "side_effects_scope", tree ? "tree" : "model") ||
	    (!r->fixes && !(r->fixes = cJSON_CreateArray())) ||
	    !cJSON_AddItemToArray(r->fixes, o)) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	return 0;
}

/*
 * @path could not be migrated (unreadable, a part of its stack missing, an
 * arch the tree lacks): an error of this file alone, which the check of it
 * does not repeat. -ENOMEM when even that cannot be kept.
 */
static int file_failed(struct st_check_result *r, const char *path, struct st_error *err)
{
	char msg[sizeof(err->msg) + PATH_MAX];
	int ret;

	if (err->code == ENOMEM)
		return -ENOMEM;
	if (err->file[0] && strcmp(err->file, path))
		snprintf(msg, sizeof(msg), "%s: %s", err->file, err->msg);
	else
		snprintf(msg, sizeof(msg), "%s", err->msg[0] ? err->msg : "cannot be migrated");
	ret = st_check_add_error(r, path, msg);
	st_error_clear(err);
	return ret;
}

/*
 * Write @f. A walked file resolving outside its walk's directory is this
 * file's error (exit 2), and the run goes on with the others.
 */
static int write_fixed(struct st_check_result *r, const struct st_discovery *d,
		       const struct st_mig_file *f, struct st_error *err)
{
	const char *within = st_discovery_within(d, f->path);
	int ret;

	if (!within && note_symlink(r, f->path))
		return st_err(err, ENOMEM, f->path, "out of memory");
	ret = st_mig_file_write(f, within, err);
	if (ret == -EXDEV && within) {
		ret = st_check_add_error(r, f->path, err->msg) ?
		      st_err(err, ENOMEM, f->path, "out of memory") : 1;
		if (ret == 1)
			st_error_clear(err);
		return ret;
	}
	return ret;
}

int st_check_fix(const struct st_check_run_opts *o, const struct st_discovery *d,
		 char **files, size_t n, struct st_check_result *r, struct st_error *err)
{
	struct st_mig_opts mo = {
		.srctree = o->srctree,
		.arch = o->arch,
		.cross_compile = o->cross_compile,
		.verify = true,
		/* --select / --ignore: only the fixes of the rules that run */
		.fix_deps = o->rules.enabled[ST_RULE_SLUB_TINY_DEPS],
	};
	struct st_mig_session *s;
	char target[24];
	size_t i;
	int ret;

	/* --target without a tree: migrate for that kernel, as the notes say */
	if (!o->srctree && o->rules.fix_major) {
		snprintf(target, sizeof(target), "%d.%d", o->rules.fix_major,
			 o->rules.fix_minor);
		mo.target = target;
	}
	if (!o->rules.enabled[ST_RULE_REMOVED_ALLOCATOR] &&
	    !o->rules.enabled[ST_RULE_REMOVED_OPTION])
		return 0;
	ret = st_mig_session_new(&s, &mo, err);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		struct st_mig_file f;
		const struct st_arch_choice *ac = NULL;

		/* the ARCH the check decided for the file, not a second guess */
		if (i < r->nr_archs && !strcmp(r->archs[i].file, files[i]))
			ac = &r->archs[i].choice;
		memset(&f, 0, sizeof(f));
		ret = st_mig_session_file_as(s, files[i], ac, &f, err);
		if (ret) {
			st_mig_file_release(&f);
			ret = file_failed(r, files[i], err);
			if (ret) {
				ret = st_err(err, ENOMEM, files[i], "out of memory");
				break;
			}
			continue;
		}
		if (!f.nr_errors && f.m.changed) {
			if (!f.verified || !verified(&f)) {
				r->nr_fix_refused++;
			} else {
				ret = write_fixed(r, d, &f, err);
				/* refused (changed meanwhile, hard links): this file's error */
				if (ret < 0 && ret != -ENOMEM && err->code != ENOMEM)
					ret = file_failed(r, files[i], err) ? -ENOMEM : 1;
				if (!ret)
					r->nr_fixed++;
				if (!ret && (record(r, &f) ||
					     record_side_effects(r, &f, o->srctree != NULL) ||
					     record_json(r, &f, o->srctree != NULL)))
					ret = st_err(err, ENOMEM, f.path, "out of memory");
				if (ret == 1)
					ret = 0;	/* not written, said */
			}
		}
		st_mig_file_release(&f);
		if (ret == -ENOMEM && !err->code)
			ret = st_err(err, ENOMEM, files[i], "out of memory");
		if (ret)
			break;
	}
	st_mig_session_free(s);
	return ret;
}
