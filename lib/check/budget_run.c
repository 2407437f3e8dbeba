// SPDX-License-Identifier: GPL-2.0-only
/*
 * Measure what a budget file names: objects through lib/elf + lib/sizes
 * (binutils `size` Berkeley numbers), allocator variants through lib/build
 * (built or found up to date in the build directory), then judge them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "elf/elf.h"
#include "sizes/sections.h"

int st_budget_measure(struct st_budget_sizes *s, const char *path,
		      struct st_error *err)
{
	struct st_elf_file *f = NULL;
	struct st_size_result res = { 0 };
	int ret;

	ret = st_elf_open(&f, path, err);
	if (ret)
		return ret;
	ret = st_size_compute(&f, 1, &res, err);
	if (!ret) {
		s->v[ST_BF_TEXT] = res.text;
		s->v[ST_BF_DATA] = res.data;
		s->v[ST_BF_BSS] = res.bss;
		s->v[ST_BF_TOTAL] = res.text + res.data + res.bss;
		st_size_free(&res);
	}
	st_elf_close(f);
	return ret;
}

static int check_object(struct st_check_result *r, const struct st_budget *b,
			const struct st_budget_entry *e, struct st_error *err)
{
	struct st_budget_sizes cur, base;
	int ret;

	ret = st_budget_measure(&cur, e->object, err);
	if (!ret && e->baseline)
		ret = st_budget_measure(&base, e->baseline, err);
	if (ret)
		return ret;
	return st_budget_judge(r, b, e, e->object, &cur, e->baseline ? &base : NULL);
}

/* The built unit of @variant for @arch, or NULL. */
static const struct st_build_unit *find_unit(const struct st_build_result *br,
					     const char *variant, const char *arch)
{
	size_t i;

	for (i = 0; i < br->nunits; i++)
		if (!strcmp(br->units[i].variant, variant) &&
		    !strcmp(br->units[i].arch, arch))
			return &br->units[i];
	return NULL;
}

static const struct st_variant *find_variant(const struct st_variant *v, size_t n,
					     const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* Build (or find up to date) @e's variant and baseline, then judge per arch. */
static int check_variant(struct st_check_result *r, const struct st_budget *b,
			 const struct st_budget_entry *e, const char *builddir,
			 struct st_error *err)
{
	char datadir[4096];
	struct st_variant *all = NULL, want[2];
	struct st_build_opts bo = { 0 };
	struct st_build_result *br = NULL;
	const struct st_variant *v;
	size_t nall = 0, i;
	const char *arches[1];
	int ret;

	ret = st_build_datadir(datadir, sizeof(datadir), err);
	if (!ret)
		ret = st_build_variants(datadir, &all, &nall, err);
	if (ret)
		return ret;
	v = find_variant(all, nall, e->variant);
	if (!v) {
		ret = st_err(err, ENOENT, b->path, "unknown variant '%s'", e->variant);
		goto out;
	}
	want[0] = *v;
	bo.nvariants = 1;
	if (e->baseline) {
		v = find_variant(all, nall, e->baseline);
		if (!v) {
			ret = st_err(err, ENOENT, b->path, "unknown baseline variant '%s'",
				     e->baseline);
			goto out;
		}
		want[bo.nvariants++] = *v;
	}
	bo.datadir = datadir;
	bo.builddir = builddir;
	bo.variants = want;
	if (e->arch) {
		arches[0] = e->arch;
		bo.arches = arches;
		bo.narches = 1;
	}
	ret = st_build_run(&bo, &br, err);
	if (ret)
		goto out;
	for (i = 0; i < br->nunits && !ret; i++) {
		const struct st_build_unit *u = &br->units[i], *bu;
		struct st_budget_sizes cur, base;
		char what[256];

		if (strcmp(u->variant, e->variant))
			continue;
		if (!u->ok) {
			ret = st_err(err, EIO, b->path, "variant %s for %s did not build: %s",
				     u->variant, u->arch, u->error ? u->error : "?");
			break;
		}
		bu = e->baseline ? find_unit(br, e->baseline, u->arch) : NULL;
		if (e->baseline && (!bu || !bu->ok)) {
			ret = st_err(err, EIO, b->path, "baseline %s for %s did not build",
				     e->baseline, u->arch);
			break;
		}
		ret = st_budget_measure(&cur, u->object, err);
		if (!ret && bu)
			ret = st_budget_measure(&base, bu->object, err);
		if (ret)
			break;
		snprintf(what, sizeof(what), "variant %s (%s)", u->variant, u->arch);
		ret = st_budget_judge(r, b, e, what, &cur, bu ? &base : NULL);
	}
	if (!ret && e->arch && !find_unit(br, e->variant, e->arch))
		ret = st_err(err, ENOENT, b->path, "no toolchain for arch '%s'", e->arch);
out:
	st_build_result_free(br);
	st_build_variants_free(all, nall);
	return ret;
}

int st_budget_check(struct st_check_result *r, const struct st_budget *b,
		    const char *builddir, struct st_error *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < b->nr && !ret; i++) {
		if (b->e[i].object)
			ret = check_object(r, b, &b->e[i], err);
		else
			ret = check_variant(r, b, &b->e[i], builddir, err);
	}
	return ret;
}

int st_check_budgets(struct st_check_result *r, const char *budget_path,
		     const char *text, const char *builddir, struct st_error *err)
{
	struct st_budget b;
	int ret;

	if (text)
		ret = st_budget_parse(&b, text, strlen(text), budget_path, err);
	else
		ret = st_budget_load(&b, budget_path, err);
	if (!ret)
		ret = st_budget_check(r, &b, builddir, err);
	st_budget_free(&b);
	return ret;
}
