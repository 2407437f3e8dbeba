// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny build: compile the allocator variants for every architecture.
 * Also the option handling that `report` shares (build_opts.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/build.h"
#include "build_opts.h"
#include "cli.h"
#include "common/error.h"

void build_args_init(struct build_args *b, const char *cmd)
{
	memset(b, 0, sizeof(*b));
	b->cmd = cmd;
}

int build_args_opt(struct build_args *b, int opt, const char *arg)
{
	switch (opt) {
	case OPT_VARIANT:
		if (b->nvariant_names == BUILD_MAX_ARGS) {
			p_err("too many --variant options");
			return -1;
		}
		b->variant_names[b->nvariant_names++] = arg;
		return 1;
	case OPT_ARCH:
		if (b->o.narches == BUILD_MAX_ARGS) {
			p_err("too many --arch options");
			return -1;
		}
		b->arches[b->o.narches++] = arg;
		return 1;
	case 'j':
		if (st_parse_jobs(arg, &b->o.jobs))
			return -1;
		return 1;
	case OPT_BUILDDIR:
		snprintf(b->builddir, sizeof(b->builddir), "%s", arg);
		return 1;
	}
	return 0;
}

/* Say that variant @name is not one of @b's, and list those that are. */
static void unknown_variant(struct build_args *b, const char *name, const char *defconfig)
{
	struct st_error e = { 0 };
	struct st_variant *v = NULL;
	char list[1024] = "";
	size_t n = 0, i, l = 0;

	if (!st_build_variants(b->datadir, &v, &n, &e))
		for (i = 0; i < n && l < sizeof(list); i++)
			l += snprintf(list + l, sizeof(list) - l, "%s, ", v[i].name);
	st_build_variants_free(v, n);
	p_err("%s: unknown variant (no %s); one of %sor a defconfig's path", name, defconfig,
	      list);
}

/* --variant NAME is defconfigs/NAME_defconfig; a path names a defconfig file. */
static int resolve_variant(struct build_args *b, struct st_variant *v, const char *name)
{
	const char *base = strrchr(name, '/');
	size_t l;

	if (!base) {
		v->name = strdup(name);
		if (asprintf((char **)&v->defconfig, "%s/defconfigs/%s_defconfig", b->datadir,
			     name) < 0)
			v->defconfig = NULL;
		if (v->defconfig && access(v->defconfig, R_OK)) {
			unknown_variant(b, name, v->defconfig);
			return -1;
		}
	} else {
		base++;
		l = strlen(base);
		if (l > 10 && !strcmp(base + l - 10, "_defconfig"))
			l -= 10;
		v->name = strndup(base, l);
		v->defconfig = strdup(name);
		if (v->defconfig && access(name, R_OK)) {
			p_err("%s: %s", name, strerror(errno));
			return -1;
		}
	}
	if (!v->name || !v->defconfig) {
		p_err("out of memory");
		return -1;
	}
	return 0;
}

/* The pool's progress: a terminal line, or a line every few seconds in a log. */
static void progress(void *ctx, const struct st_build_progress *p)
{
	struct build_args *b = ctx;

	st_progress_update(b->prog, p->done, p->total, p->what);
}

void build_progress_end(struct build_args *b)
{
	st_progress_hide(b->prog);
}

/* $ARCH=@env lost to --arch @opt: the warning of st_arch_warn(). */
static void arch_env_lost(const char *opt, const char *env)
{
	struct st_arch_choice c = { .from = ST_ARCH_FROM_OPTION,
				    .conflicts = 1u << ST_ARCH_FROM_ENV };

	snprintf(c.arch, sizeof(c.arch), "%s", opt);
	snprintf(c.said[ST_ARCH_FROM_OPTION].arch, sizeof(c.said[0].arch), "%s", opt);
	snprintf(c.said[ST_ARCH_FROM_ENV].arch, sizeof(c.said[0].arch), "%s", env);
	st_arch_warn(&c);
}

int build_args_finish(struct build_args *b)
{
	struct st_error e = { 0 };
	char refused[PATH_MAX] = "";
	const char *env;
	size_t i;
	int ret;

	ret = st_build_datadir(b->datadir, sizeof(b->datadir), &e);
	if (!ret && !b->builddir[0])
		ret = st_build_default_dir(b->builddir, sizeof(b->builddir), refused,
					   sizeof(refused), &e);
	if (ret) {
		p_lib_err(&e, NULL, ret);
		return ST_EXIT_ERROR;
	}
	if (*refused)
		p_note("%s: cache directory is not private (want a directory of owner %u, "
		       "mode 0700): using %s for this run", refused, (unsigned int)geteuid(),
		       b->builddir);
	b->o.datadir = b->datadir;
	b->o.builddir = b->builddir;
	/* as make: $ARCH unless --arch says otherwise */
	env = getenv("ARCH");
	if (!b->o.narches && env && *env) {
		b->arches[0] = st_build_arch_of_make(env);
		if (!b->arches[0]) {
			p_err("unknown ARCH '%s' (from the environment; the bundled build has "
			      "x86_64, i686, arm, aarch64, riscv64, mips, mipsel, powerpc, sh4, or1k)",
			      env);
			return ST_EXIT_ERROR;
		}
		b->o.narches = 1;
		if (st_out.verbosity >= 0)
			p_err("ARCH=%s (from $ARCH): building %s only", env, b->arches[0]);
	} else if (b->o.narches && env && *env) {
		const char *ba = st_build_arch_of_make(env);

		/* --arch wins over $ARCH: a contradiction is said, as for a file's */
		for (i = 0; i < b->o.narches && (!ba || strcmp(ba, b->arches[i])); i++)
			;
		if (i == b->o.narches)
			arch_env_lost(b->arches[0], env);
	}
	b->o.arches = b->o.narches ? b->arches : NULL;
	env = getenv("CC");
	b->o.cc = env && *env ? env : NULL;
	b->o.cflags = getenv("CFLAGS");
	env = getenv("CROSS_COMPILE");
	b->o.cross_compile = env && *env ? env : NULL;
	b->prog = st_progress_open(b->cmd, ST_PROGRESS_LOG);
	if (b->prog) {
		b->o.progress = progress;
		b->o.progress_ctx = b;
	}
	if (!b->nvariant_names)
		return 0;
	b->variants = calloc(b->nvariant_names, sizeof(*b->variants));
	if (!b->variants) {
		p_err("out of memory");
		return ST_EXIT_ERROR;
	}
	for (i = 0; i < b->nvariant_names; i++) {
		b->nvariants++;
		if (resolve_variant(b, &b->variants[i], b->variant_names[i]))
			return ST_EXIT_ERROR;
	}
	b->o.variants = b->variants;
	b->o.nvariants = b->nvariants;
	return 0;
}

void build_args_free(struct build_args *b)
{
	st_progress_end(b->prog);
	b->prog = NULL;
	st_build_variants_free(b->variants, b->nvariants);
	b->variants = NULL;
	b->nvariants = 0;
}

const struct st_opt st_build_opts[] = {
	BUILD_OPT_ROWS,
	ST_OPT_ROW_FORMAT("{text|json}"),
	ST_OPT_ROW_JSON,
	ST_OPT_ROW_QUIET,
	ST_OPT_END,
};

const struct st_example st_build_examples[] = {
	{ "slubtiny build", "every variant for the host and each cross compiler found" },
	{ "slubtiny build --variant slub_tiny --arch arm -j 0", "one variant for one arch, all CPUs" },
	{ NULL, NULL },
};

int cmd_build(int argc, char **argv)
{
	struct st_build_result *r = NULL;
	struct st_render_opts ro;
	struct st_error e = { 0 };
	struct build_args b;
	int opt, ret, status = ST_EXIT_OK;
	size_t i;

	build_args_init(&b, "build");
	while ((opt = st_getopt(argc, argv, "build", st_build_opts)) >= 0)
		if (build_args_opt(&b, opt, optarg) != 1)
			return ST_EXIT_ERROR;
	if (opt != ST_OPT_DONE)
		return opt == ST_OPT_HELP ? ST_EXIT_OK : ST_EXIT_ERROR;
	if (optind < argc) {
		p_err("unexpected argument '%s'", argv[optind]);
		return ST_EXIT_ERROR;
	}
	status = build_args_finish(&b);
	if (status)
		goto out;
	ret = st_build_run(&b.o, &r, &e);
	build_progress_end(&b);
	if (ret) {
		p_lib_err(&e, NULL, ret);
		status = ST_EXIT_ERROR;
		goto out;
	}
	if (!r->nunits) {
		p_err("no usable compiler%s%s", r->ntcs ? ": " : "",
		      r->ntcs && r->tcs[0].reason ? r->tcs[0].reason : "");
		status = ST_EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < r->nunits; i++) {
		if (!r->units[i].ok) {
			p_err("%s: %s", r->units[i].variant, r->units[i].error);
			status = ST_EXIT_ERROR;
		}
	}
	st_out.json_done = st_out.json;
	ro = st_render_opts(st_out.json ? ST_FORMAT_JSON : ST_FORMAT_TEXT);
	ret = st_build_render(stdout, r, &ro);
	/* a write error on stdout is main()'s to say */
	if (ret == -ENOMEM) {
		p_err("out of memory");
		status = ST_EXIT_ERROR;
	}
out:
	st_build_result_free(r);
	build_args_free(&b);
	return status;
}
