// SPDX-License-Identifier: GPL-2.0-only
/*
 * kc-tool: drive lib/kconfig from shell tests (unit, differential, bench).
 *
 *   kc-tool [--srctree DIR | --target VER] [--arch ARCH] [--cross-compile P]
 *           [--tiny] [--fix-deps] [--detail] [--config-dir DIR]
 *           [--fixed-dir DIR] FILE...
 *
 * One helper for all FILEs. Per finding one tab-separated line on stdout:
 *   F FILE LINE SYMBOL KIND CAUSE REQUESTED ACTUAL MESSAGE FIX
 * (--detail adds "D FILE LINE TEXT" lines), per fix (--fix-deps):
 *   X FILE REPLACE_LINE AFTER_LINE LINE_TEXT REASON
 * --config-dir writes DIR/FILE.config (with '/' in FILE as '%'): the
 * resolved configuration in .config syntax; --fixed-dir writes DIR/BASENAME: the file with the fixes
 * applied. Exit 0 without findings, 1 with, 2 on error.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "defconfig/defconfig.h"
#include "kconfig/kconfig.h"

struct tool {
	struct st_kconfig *kc;
	enum st_kc_mode mode;
	bool fix, detail;
	const char *config_dir, *fixed_dir;
};

static void put_field(const char *s)
{
	/* Fields are tab-separated: no tab or newline inside one. */
	for (; s && *s; s++)
		putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

static void print_finding(const char *file, const struct st_kc_finding *f,
			  bool detail)
{
	const char *p, *nl;

	printf("F\t%s\t%d\t%s\t%s\t%s\t", file, f->line, f->sym,
	       st_kc_kind_name(f->kind), st_kc_cause_name(f->cause));
	put_field(f->requested);
	putchar('\t');
	put_field(f->actual ? f->actual : "-");
	putchar('\t');
	put_field(f->message);
	putchar('\t');
	put_field(f->fix ? f->fix : "-");
	putchar('\n');
	for (p = f->detail; detail && p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		printf("D\t%s\t%d\t%.*s\n", file, f->line,
		       (int)(nl ? nl - p : (long)strlen(p)), p);
		if (!nl)
			break;
	}
}

static void conf_escape(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', o);
		fputc(*s, o);
	}
}

static int write_config(const char *dir, const char *file,
			const struct st_kc_result *r)
{
	const struct st_kc_sym *s;
	char path[4096], *p;
	FILE *o;
	size_t i;

	/* DIR/FILE.config with FILE's '/' as '%': unique per input path. */
	snprintf(path, sizeof(path), "%s/%s.config", dir, file);
	for (p = path + strlen(dir) + 1; *p; p++)
		if (*p == '/')
			*p = '%';
	o = fopen(path, "w");
	if (!o)
		return -errno;
	for (i = 0; i < r->nr_config; i++) {
		s = &r->config[i];
		if ((s->type == 'b' || s->type == 't') && !strcmp(s->value, "n")) {
			fprintf(o, "# CONFIG_%s is not set\n", s->name);
		} else if (s->type == 's') {
			fprintf(o, "CONFIG_%s=\"", s->name);
			conf_escape(o, s->value);
			fputs("\"\n", o);
		} else {
			fprintf(o, "CONFIG_%s=%s\n", s->name, s->value);
		}
	}
	return fclose(o) ? -errno : 0;
}

/* dc->lines index of 1-based parsed line @line, or -1. */
static long line_index(const struct st_defconfig *dc, int line)
{
	size_t i;

	for (i = 0; i < dc->nr_lines; i++)
		if (dc->lines[i].lineno == line)
			return i;
	return -1;
}

static int write_fixed(const char *dir, const char *file,
		       struct st_defconfig *dc, const struct st_kc_result *r)
{
	char path[4096], *copy, *buf;
	size_t i, len;
	long idx;
	FILE *o;
	int err;

	/* Backwards, so that earlier insert positions stay valid. */
	for (i = r->nr_fixes; i-- > 0;) {
		const struct st_kc_fix *f = &r->fixes[i];

		if (f->replace_line) {
			idx = line_index(dc, f->replace_line);
			err = idx < 0 ? -EINVAL :
			      st_defconfig_replace(dc, idx, f->line_text);
		} else {
			idx = f->after_line ? line_index(dc, f->after_line) : -1;
			if (f->after_line && idx < 0)
				return -EINVAL;
			err = st_defconfig_insert(dc, idx + 1, f->line_text);
		}
		if (err)
			return err;
	}
	err = st_defconfig_render(dc, &buf, &len);
	if (err)
		return err;
	copy = strdup(file);
	snprintf(path, sizeof(path), "%s/%s", dir, copy ? basename(copy) : "x");
	free(copy);
	o = fopen(path, "w");
	err = o ? 0 : -errno;
	if (o && (fwrite(buf, 1, len, o) != len || fclose(o)))
		err = -EIO;
	free(buf);
	return err;
}

static int do_file(struct tool *t, const char *file)
{
	struct st_defconfig *dc = NULL;
	struct st_kc_assign *as = NULL;
	struct st_kc_result *r = NULL;
	struct st_error e = { 0 };
	size_t i, n = 0;
	int err;

	err = st_defconfig_load(&dc, file, &e);
	if (err)
		goto out;
	as = calloc(dc->nr_lines + 1, sizeof(*as));
	if (!as) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < dc->nr_lines; i++) {
		const struct st_dc_line *l = &dc->lines[i];

		if (!l->sym || (l->kind != ST_DC_ASSIGN && l->kind != ST_DC_NOT_SET))
			continue;
		as[n].sym = l->sym;
		as[n].val = l->kind == ST_DC_NOT_SET ? NULL : l->val;
		as[n].line = l->lineno;
		n++;
	}
	err = (t->fix ? st_kconfig_fix_deps : st_kconfig_verify)(t->kc, as, n,
			t->mode, t->config_dir != NULL, &r, &e);
	if (err)
		goto out;
	for (i = 0; i < r->nr_findings; i++)
		print_finding(file, &r->findings[i], t->detail);
	for (i = 0; i < r->nr_fixes; i++)
		printf("X\t%s\t%d\t%d\t%s\t%s\n", file, r->fixes[i].replace_line,
		       r->fixes[i].after_line, r->fixes[i].line_text,
		       r->fixes[i].reason);
	if (t->config_dir)
		err = write_config(t->config_dir, file, r);
	if (!err && t->fixed_dir)
		err = write_fixed(t->fixed_dir, file, dc, r);
	if (!err)
		err = r->nr_findings ? 1 : 0;
out:
	if (err < 0)
		fprintf(stderr, "kc-tool: %s: %s\n", e.file[0] ? e.file : file,
			e.msg[0] ? e.msg : strerror(-err));
	st_kc_result_free(r);
	free(as);
	st_defconfig_free(dc);
	return err;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "srctree", required_argument, NULL, 's' },
		{ "target", required_argument, NULL, 'v' },
		{ "arch", required_argument, NULL, 'a' },
		{ "cross-compile", required_argument, NULL, 'c' },
		{ "tiny", no_argument, NULL, 't' },
		{ "fix-deps", no_argument, NULL, 'f' },
		{ "detail", no_argument, NULL, 'd' },
		{ "config-dir", required_argument, NULL, 'C' },
		{ "fixed-dir", required_argument, NULL, 'F' },
		{ 0 }
	};
	struct st_kc_opts o = { 0 };
	struct tool t = { .mode = ST_KC_DEFCONFIG };
	struct st_error e = { 0 };
	int c, i, err, ret = 0;

	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 's': o.srctree = optarg; break;
		case 'v': o.target = optarg; break;
		case 'a': o.arch = optarg; break;
		case 'c': o.cross_compile = optarg; break;
		case 't': t.mode = ST_KC_TINYCONFIG; break;
		case 'f': t.fix = true; break;
		case 'd': t.detail = true; break;
		case 'C': t.config_dir = optarg; break;
		case 'F': t.fixed_dir = optarg; break;
		default: return 2;
		}
	}
	err = st_kconfig_open(&o, &t.kc, &e);
	if (err) {
		fprintf(stderr, "kc-tool: %s%s%s\n", e.file, e.file[0] ? ": " : "",
			e.msg[0] ? e.msg : strerror(-err));
		return 2;
	}
	fprintf(stderr, "kc-tool: using %s\n", st_kconfig_describe(t.kc));
	for (i = optind; i < argc; i++) {
		err = do_file(&t, argv[i]);
		if (err < 0)
			ret = 2;
		else if (err > 0 && !ret)
			ret = 1;
	}
	st_kconfig_close(t.kc);
	return ret;
}
