// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny migrate: options, then lib/migrate does the work; this file only
 * prints (text on stdout/stderr, or one JSON document) and picks the exit
 * status.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "cli.h"
#include "common/diag.h"
#include "common/error.h"
#include "common/json.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "layout/discover.h"
#include "linux/linux.h"
#include "migrate/migrate.h"

enum { OPT_SRCTREE = ST_OPT_ID, OPT_ARCH, OPT_CROSS, OPT_TARGET, OPT_FIX_DEPS,
       OPT_NO_VERIFY, OPT_NO_PIN, OPT_FORCE, OPT_IN_PLACE, OPT_CHECK, OPT_ALL, OPT_SHARD,
       OPT_ALLOW_EMPTY, OPT_SKIP_NON_KERNEL, OPT_FIX, OPT_CONFIG, OPT_NO_CONFIG,
       OPT_UNTRUSTED_SETTINGS };

const struct st_opt st_migrate_opts[] = {
	{ "in-place", 0, OPT_IN_PLACE, NULL, "write each file back (atomic; a file that does not verify is kept)" },
	{ "check", 0, OPT_CHECK, NULL, "write nothing; exit 1 if a file needs a change or has a finding" },
	{ "srctree", 0, OPT_SRCTREE, "DIR", "verify with this kernel tree's Kconfig (default: bundled model)" },
	{ "arch", 0, OPT_ARCH, "ARCH", "ARCH for Kconfig (default: $ARCH, else the arch/ARCH/configs/ path)" },
	{ "cross-compile", 0, OPT_CROSS, "PREFIX", "CROSS_COMPILE for Kconfig's compiler tests (default: $CROSS_COMPILE)" },
	{ "target", 0, OPT_TARGET, "VERSION", "target kernel, e.g. 6.12 (default: the tree's, else the build system's for each file, else the newest)" },
	{ "fix-deps", 0, OPT_FIX_DEPS, NULL, "add what the result needs to take effect (e.g. CONFIG_EXPERT=y)" },
	{ "fix", 0, OPT_FIX, NULL, "--fix-deps --in-place: write the fix check --fix writes" },
	{ "no-pin", 0, OPT_NO_PIN, NULL, "with --fix-deps: let options change as a side effect (no lines keep them)" },
	{ "no-verify", 0, OPT_NO_VERIFY, NULL, "apply the rules only; do not ask Kconfig" },
	{ "force", 0, OPT_FORCE, NULL, "with --in-place: write even a file that does not verify" },
	{ "shard", 0, OPT_SHARD, "K/N", ST_OPT_SHARD_HELP },
	{ "all", 0, OPT_ALL, NULL, "also list the findings the input already had, and every option that changes as scripts/diffconfig shows it" },
	{ "config", 0, OPT_CONFIG, "FILE", "read \"srctree\", \"arch\" and \"arches\" from FILE instead of .slubtiny.json (as check)" },
	{ "no-config", 0, OPT_NO_CONFIG, NULL, "do not read .slubtiny.json" },
	{ "untrusted-settings", 0, OPT_UNTRUSTED_SETTINGS, NULL, "take no \"srctree\" from .slubtiny.json (its Kconfig runs programs)" },
	{ "allow-empty", 0, OPT_ALLOW_EMPTY, NULL, "a DIR without kernel configs is no error (exit 0)" },
	{ "skip-non-kernel", 0, OPT_SKIP_NON_KERNEL, NULL, "leave out FILEs whose content is no kernel config (as a DIR walk does)" },
	ST_OPT_ROW_FORMAT("{text|json}"),
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	{ "verbose", 'v', ST_OPT_VERBOSE, NULL, "print more: whole cause chains, and the findings --all lists" },
	ST_OPT_END,
};

const struct st_example st_migrate_examples[] = {
	{ "slubtiny migrate arch/arm/configs/foo_defconfig",
	  "show the change as a diff, verified with the bundled Kconfig model" },
	{ "slubtiny migrate --srctree ~/linux --arch arm --in-place board_defconfig",
	  "rewrite the file, verified with that tree's own Kconfig" },
	{ "slubtiny migrate --check --json configs/", "CI: every defconfig below configs/, one JSON document" },
	{ NULL, NULL },
};

static const char help_notes[] =
"\n"
"Findings are judged against the input resolved with the same Kconfig:\n"
"an introduced finding is one the migration or a fix caused (a line it\n"
"wrote, or a line that took effect before and no longer does); the others\n"
"are pre-existing, summed up in one line per file (--all lists them).\n"
"Only introduced findings make the exit status 1, stop --in-place from\n"
"writing and fail --check. The options whose value changes as a side\n"
"effect are listed after them, in scripts/diffconfig's form, also with -q\n"
"(--all lists all that diffconfig shows: also the options the changed\n"
"lines set, and those that only appear or vanish as n).\n"
"\n"
"The settings check reads (.slubtiny.json, see 'slubtiny check --help')\n"
"give migrate its kernel tree and each file's ARCH, so both judge a file\n"
"the same way; the rule selections and budgets there are check's alone.\n"
"\n"
"Line numbers are those of the file on disk after the action shown: with\n"
"--in-place the migrated file, otherwise the file as it is (a line the\n"
"migration adds gets the number of the input line it replaces or follows).\n";

void st_migrate_more_help(FILE *f)
{
	fputs(help_notes + 1, f);
}

struct run {
	struct st_mig_opts opts;
	const char *arch_opt;	/* --arch */
	const char *srctree_opt;	/* --srctree */
	const char *config;	/* --config */
	bool no_config, untrusted_settings;
	struct st_check_config cfg;	/* .slubtiny.json: "srctree", "arch", "arches" */
	bool in_place, check, force;
	bool all;		/* list pre-existing findings (--all, -v) */
	bool diffconfig;	/* list all the options that change (--all) */
	unsigned int shard_k, shard_n;	/* --shard K/N, or 0 */
	struct st_discover_opts discover;	/* --allow-empty, --skip-non-kernel */
	struct st_arch_tally archs;	/* text: said after the files */
	int status;		/* worst exit status so far */
	cJSON *files;		/* JSON mode: the "files" array */
	char *described[16];	/* verification bases already announced */
	size_t nr_fixed, nr_fixed_files;	/* fix lines written */
};

static void worse(struct run *r, int status)
{
	if (status > r->status)
		r->status = status;
}

/* Text: what the verification was done against, once per basis. */
static void announce(struct run *r, const struct st_mig_file *f)
{
	char line[1200];
	size_t i;

	st_mig_file_basis(f, r->opts.srctree != NULL, line, sizeof(line));
	if (!line[0])
		return;
	for (i = 0; i < 16 && r->described[i]; i++)
		if (!strcmp(r->described[i], line))
			return;
	if (i < 16)
		r->described[i] = strdup(line);
	fprintf(stderr, "slubtiny: verified against %s\n", line);
}

static struct st_mig_outcome outcome(const struct run *r, const struct st_mig_file *f,
				     bool written)
{
	return (struct st_mig_outcome){
		.file = f, .written = written, .written_lines = r->in_place,
		.all = r->all, .diffconfig = r->diffconfig, .tree = r->opts.srctree != NULL,
	};
}

/* Text: the diff on stdout, then the file's diagnostics on stderr. */
static void print_text(struct run *r, const struct st_mig_file *f, bool written)
{
	struct st_mig_outcome o = outcome(r, f, written);
	struct st_render_opts ro = st_render_opts(ST_FORMAT_TEXT);

	if (st_out.verbosity >= 0)
		announce(r, f);
	if (!r->in_place)
		fputs(f->diff, stdout);
	/* The notes after the diff also when both go to one pipe. */
	fflush(stdout);
	ro.color = st_out.err_color;
	st_mig_outcome_render(stderr, &o, &ro);
}

static int add_json(struct run *r, const struct st_mig_file *f, bool written)
{
	struct st_mig_outcome o = outcome(r, f, written);
	cJSON *j = st_mig_outcome_to_json(&o);

	if (!j || !cJSON_AddItemToArray(r->files, j)) {
		cJSON_Delete(j);
		return -ENOMEM;
	}
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
	o = st_mig_error_to_json(path, msg);
	if (o && !cJSON_AddItemToArray(r->files, o))
		cJSON_Delete(o);
}

/* Parser errors: print every diagnostic, touch nothing. */
static void parse_errors(struct run *r, const struct st_mig_file *f)
{
	const struct st_defconfig *dc = f->before;
	struct st_mig_outcome o = outcome(r, f, false);
	struct st_render_opts ro = st_render_opts(ST_FORMAT_TEXT);
	struct st_error e = { 0 };
	size_t i;

	/* NUL bytes: binary data (an ELF, an image), one error, not one per "line". */
	for (i = 0; i < dc->nr_diags; i++) {
		if (dc->diags[i].kind != ST_DC_D_NUL)
			continue;
		st_err(&e, EINVAL, dc->name, "not a defconfig (binary data on line %d); left unchanged",
		       dc->diags[i].line);
		file_error(r, dc->name, &e, EINVAL);
		return;
	}
	/* the parser's diagnostics, also in JSON mode: gcc's form on stderr */
	ro.color = st_out.err_color;
	ro.quiet = false;
	st_mig_outcome_render(stderr, &o, &ro);
	st_err(&e, EINVAL, dc->name, "not a defconfig (%zu error%s); left unchanged",
	       f->nr_errors, f->nr_errors == 1 ? "" : "s");
	file_error(r, dc->name, &e, EINVAL);
}

/* A symlinked defconfig is followed: say so (the arch is the path's). */
static void announce_symlink(const char *path)
{
	const struct st_diag note = { .level = ST_DIAG_NOTE, .file = path };
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	st_diag_print(stderr, st_out.err_color, &note, "a symlink to %s; following it", target);
}

/* --in-place on "-": the migrated file goes to standard output. */
static int write_stdout(const struct st_mig_file *f)
{
	size_t len;
	char *buf;
	int ret;

	ret = st_defconfig_render(f->m.after, &buf, &len);
	if (ret)
		return ret;
	if (fwrite(buf, 1, len, stdout) != len)
		ret = -EIO;
	free(buf);
	return ret;
}

/*
 * One file, with the ARCH an "arches" entry of the settings gives it when
 * one matches (the decision check makes), else the session's own.
 */
static int file_as(struct run *r, struct st_mig_session *s, const char *path,
		   struct st_mig_file *f, struct st_error *e)
{
	struct st_arch_sources given = r->opts.arch;
	struct st_arch_choice choice;
	char why[96];

	if (!st_check_config_arch(&r->cfg, path, &given, why, sizeof(why)))
		return st_mig_session_file(s, path, f, e);
	st_arch_of_file(path, NULL, &given, &choice);
	return st_mig_session_file_as(s, path, &choice, f, e);
}

/* @within: the directory a walk found @path in, which its write stays in */
static void do_file(struct run *r, struct st_mig_session *s, const char *path,
		    const char *within)
{
	struct st_cfg_verdict v;
	struct st_error e = { 0 };
	struct st_mig_file f;
	bool written = false;
	size_t i;
	int ret;

	if (strcmp(path, "-"))
		announce_symlink(path);
	if (st_cfg_not_kernel(path, &v)) {
		/* named: a walk leaves such files out */
		st_err(&e, EINVAL, path, "%s", v.why);
		file_error(r, path, &e, -EINVAL);
		return;
	}
	ret = file_as(r, s, path, &f, &e);
	if (ret) {
		file_error(r, path, &e, ret);
		goto out;
	}
	if (f.arch[0]) {
		st_arch_warn(&f.arch_choice);
		st_arch_tally_add(&r->archs, f.path, f.arch, f.arch_from, f.arch_why);
	}
	if (f.nr_errors) {
		parse_errors(r, &f);
		goto out;
	}
	/* the findings the input already had are not the migration's */
	if (st_migration_nr_introduced(&f.m))
		worse(r, ST_EXIT_FINDINGS);
	if (r->check && f.m.changed)
		worse(r, ST_EXIT_FINDINGS);
	if (r->in_place && f.m.changed) {
		if (st_mig_file_failed(&f) && !r->force) {
			p_err("%s: not written: the migration leaves options without "
			      "effect (see the warnings; %s--force writes anyway)",
			      f.path, r->opts.fix_deps ? "" : "--fix-deps may help, ");
			worse(r, ST_EXIT_FINDINGS);
		} else {
			ret = strcmp(path, "-") ? st_mig_file_write(&f, within, &e) : write_stdout(&f);
			if (ret)
				file_error(r, path, &e, ret);
			written = !ret;
		}
	}
	for (i = 0; written && i < f.m.nr_changes; i++)
		r->nr_fixed += f.m.changes[i].text[0] != '\0';
	if (written && i && f.m.changes[i - 1].text[0])
		r->nr_fixed_files++;
	if (r->files) {
		if (add_json(r, &f, written))
			file_error(r, path, NULL, -ENOMEM);
	} else {
		print_text(r, &f, written);
	}
out:
	st_mig_file_release(&f);
}

/* --target: a version, and one the bundled models know unless a tree judges it. */
static int check_target(const char *target, const char *srctree, bool verify)
{
	struct st_kver v;

	if (st_kver_parse(target, &v)) {
		p_err("invalid --target '%s' (want e.g. 6.12)", target);
		return -1;
	}
	if (!srctree && verify && st_kver_cmp(v, st_kver_oldest_model) < 0) {
		p_err("--target %d.%d is older than the bundled Kconfig models (linux %d.%d to "
		      "%d.%d); give --srctree with that kernel, or --no-verify", v.major, v.minor,
		      st_kver_oldest_model.major, st_kver_oldest_model.minor,
		      st_kver_newest.major, st_kver_newest.minor);
		return -1;
	}
	if (!srctree && st_kver_cmp(v, st_kver_newest) > 0) {
		p_err("--target %d.%d is newer than the newest kernel slubtiny knows (%d.%d); "
		      "give --srctree with that kernel", v.major, v.minor, st_kver_newest.major,
		      st_kver_newest.minor);
		return -1;
	}
	return 0;
}

static int parse_opts(struct run *r, int argc, char **argv)
{
	int c;

	r->opts.verify = true;
	while ((c = st_getopt(argc, argv, "migrate", st_migrate_opts)) >= 0) {
		switch (c) {
		case OPT_IN_PLACE: r->in_place = true; break;
		case OPT_CHECK: r->check = true; break;
		case OPT_SRCTREE: r->srctree_opt = optarg; break;
		case OPT_ARCH: r->arch_opt = optarg; break;
		case OPT_CROSS: r->opts.cross_compile = optarg; break;
		case OPT_TARGET: r->opts.target = optarg; break;
		case OPT_FIX_DEPS: r->opts.fix_deps = true; break;
		/* check's name for the same fix, written */
		case OPT_FIX: r->opts.fix_deps = r->in_place = true; break;
		case OPT_NO_VERIFY: r->opts.verify = false; break;
		case OPT_NO_PIN: r->opts.no_pin = true; break;
		case OPT_FORCE: r->force = true; break;
		case OPT_ALL: r->all = r->diffconfig = true; break;
		case OPT_ALLOW_EMPTY: r->discover.allow_empty = true; break;
		case OPT_SKIP_NON_KERNEL: r->discover.skip_foreign = true; break;
		case OPT_CONFIG: r->config = optarg; break;
		case OPT_NO_CONFIG: r->no_config = true; break;
		case OPT_UNTRUSTED_SETTINGS: r->untrusted_settings = true; break;
		case OPT_SHARD:
			if (st_parse_shard(optarg, &r->shard_k, &r->shard_n))
				return -EINVAL;
			break;
		}
	}
	if (c == ST_OPT_HELP)
		return 1;
	if (c == ST_OPT_FAIL)
		return -EINVAL;
	if (st_out.verbosity > 0)
		r->all = true;
	for (c = optind; c < argc; c++)
		if (!strcmp(argv[c], "-") && r->in_place && st_out.json) {
			p_err("--in-place - writes the file on stdout: not with --json");
			return -EINVAL;
		}
	if (r->in_place && r->check) {
		p_err("--in-place and --check exclude each other");
		return -EINVAL;
	}
	if (r->opts.fix_deps && !r->opts.verify) {
		p_err("--fix-deps needs the verification (drop --no-verify)");
		return -EINVAL;
	}
	if (optind >= argc) {
		p_err("no FILE or DIR given; see 'slubtiny migrate --help'");
		return -EINVAL;
	}
	/* check's settings: the same tree and ARCH for a file at both doors */
	if (st_cli_settings(&r->cfg, r->config, r->no_config))
		return -EINVAL;
	r->opts.srctree = st_cli_settings_srctree(r->srctree_opt, &r->cfg,
						  r->untrusted_settings);
	if (r->opts.target && check_target(r->opts.target, r->opts.srctree, r->opts.verify))
		return -EINVAL;
	/* as make: $ARCH and $CROSS_COMPILE unless the options say otherwise */
	if (st_cli_arch(r->arch_opt, r->cfg.arch, &r->opts.arch))
		return -EINVAL;
	if (!r->opts.cross_compile) {
		const char *cc = getenv("CROSS_COMPILE");

		r->opts.cross_compile = cc && *cc ? cc : NULL;
	}
	return 0;
}

int cmd_migrate(int argc, char **argv)
{
	struct run r = { 0 };
	struct st_mig_session *s = NULL;
	struct st_error e = { 0 };
	cJSON *root = NULL;
	struct st_progress *prog;
	struct st_discovery d = { 0 };
	char **paths = NULL;
	size_t n = 0, i;
	int ret;

	ret = parse_opts(&r, argc, argv);
	if (ret) {
		st_check_config_free(&r.cfg);
		return ret > 0 ? ST_EXIT_OK : ST_EXIT_ERROR;
	}
	ret = st_mig_session_new(&s, &r.opts, &e);
	if (!ret)
		ret = st_discover(argv + optind, argc - optind, &r.discover, &d, &e);
	paths = d.paths;
	n = d.nr;
	d.paths = NULL;		/* ours now; @d keeps the directories walked */
	d.nr = 0;
	if (!ret && r.shard_n && st_mig_shard_paths(paths, &n, r.shard_k, r.shard_n))
		ret = st_err(&e, ENOMEM, NULL, "out of memory");
	if (ret) {
		/* about no one file (an empty DIR): the command's prefix */
		if (e.code && !e.file[0])
			p_err("%s", e.msg);
		else
			p_lib_err(&e, NULL, ret);
		st_strv_free(paths, n);
		st_discovery_release(&d);
		st_mig_session_free(s);
		st_check_config_free(&r.cfg);
		return ST_EXIT_ERROR;
	}
	if (st_mig_session_warning(s))
		p_err("warning: %s", st_mig_session_warning(s));
	if (st_out.json) {
		const struct st_mig_counts cnt = {
			.files = n, .looked_at = d.nr_looked, .not_kernel = d.nr_skipped,
		};

		root = st_mig_doc_new(st_mig_session_target(s), r.in_place, &cnt, &r.files);
		if (!root) {
			p_err("out of memory");
			r.status = ST_EXIT_ERROR;
			goto out;
		}
	}
	prog = n > 1 ? st_progress_new("migrate") : NULL;
	for (i = 0; i < n; i++) {
		st_progress_hide(prog);
		do_file(&r, s, paths[i], st_discovery_within(&d, paths[i]));
		st_progress_update(prog, i + 1, n, paths[i]);
	}
	st_progress_end(prog);
	/* an error's one line stays alone */
	if (!st_out.json && r.status < ST_EXIT_ERROR) {
		if (st_out.verbosity > 0)
			st_say_skipped(d.skipped, d.skipped_why, d.nr_skipped);
		st_say_found(n, d.nr_looked, d.nr_skipped, &r.archs);
	}
	if (r.nr_fixed && !st_out.json && st_out.verbosity >= 0)
		fprintf(stderr, "slubtiny: fixed %zu line%s in %zu file%s (--fix-deps)\n",
			r.nr_fixed, r.nr_fixed == 1 ? "" : "s", r.nr_fixed_files,
			r.nr_fixed_files == 1 ? "" : "s");
	if (root)
		st_out.json_done = true;
	if (root) {
		ret = st_json_print(stdout, root, st_out.pretty);
		root = NULL;
		if (ret) {
			p_err("%s", strerror(-ret));
			worse(&r, ST_EXIT_ERROR);
		}
	}
out:
	cJSON_Delete(root);
	st_strv_free(paths, n);
	st_discovery_release(&d);
	st_mig_session_free(s);
	for (i = 0; i < 16; i++)
		free(r.described[i]);
	st_check_config_free(&r.cfg);
	return r.status;
}
