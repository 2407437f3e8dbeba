// SPDX-License-Identifier: GPL-2.0-only
/*
 * The allocator variants of a kernel tree: the table of them, which ones
 * the tree's Kconfig offers for an arch, which ones were asked for.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/stamp.h"
#include "common/str.h"
#include "kconfig/kconfig.h"
#include "kernel_priv.h"

/* The variants in report column order (see struct kvariant). */
const struct kvariant st_kernel_kvariants[] = {
	{ "slub", { "SLUB", NULL }, "slub", false, false },
	{ "slub_tiny", { "SLUB", NULL }, "slub", true, true },
	{ "slab", { "SLAB_DEPRECATED", "SLAB" }, "slab", false, false },
	{ "slob", { "SLOB_DEPRECATED", "SLOB" }, "slob", false, true },
};
_Static_assert(ARRAY_SIZE(st_kernel_kvariants) == NKVARIANTS, "NKVARIANTS counts the table");

const char *const *st_kernel_variants(void)
{
	static const char *names[NKVARIANTS + 1];
	size_t i;

	for (i = 0; i < NKVARIANTS; i++)
		names[i] = st_kernel_kvariants[i].name;
	return names;
}

/*
 * The variants @arch's Kconfig offers: which choice symbols exist with a
 * prompt, asked from the Kconfig helper once, then kept next to the builds
 * under a key of the tree's identity (starting the helper costs seconds).
 * @choices[v] is set to the symbol of st_kernel_kvariants[v], or NULL.
 */
int st_kernel_offered(struct run *r, const char *arch, const char *cross,
		      const char *choices[NKVARIANTS], bool *has_tiny, struct st_error *e)
{
	static const char *const probe[] = {
		"EXPERT", "SLAB", "SLAB_DEPRECATED", "SLOB", "SLOB_DEPRECATED", "SLUB", "SLUB_TINY",
	};
	struct st_kc_opts ko = {
		.srctree = r->src, .arch = arch, .cross_compile = cross, .python = r->o->python,
	};
	struct st_kc_assign as[ARRAY_SIZE(probe)] = { { 0 } };
	bool usable[ARRAY_SIZE(probe)];
	struct st_kc_result *res = NULL;
	struct st_kconfig *kc = NULL;
	char path[PATH_MAX], hex[ST_HASH_HEX], *text, *key, *list = NULL;
	struct st_hash h;
	size_t i, k, v;
	int ret;

	st_hash_init(&h);
	st_hash_str(&h, STAMP_FORMAT);
	st_hash_str(&h, st_kernel_tree_id(r, arch));
	st_hash_str(&h, cross);
	st_hash_hex(&h, hex);
	st_pathf(path, "%s/%s/%s/.slubtiny-variants", r->builddir, r->treedir, arch);
	text = st_read_text(path, NULL);
	key = text ? st_kernel_stamp_field(text, "key") : NULL;
	if (key && !strcmp(key, hex))
		list = st_kernel_stamp_field(text, "symbols");
	free(key);
	free(text);
	if (!list) {
		for (i = 0; i < ARRAY_SIZE(probe); i++) {
			as[i].sym = probe[i];
			as[i].val = "y";
			as[i].line = i + 1;
			usable[i] = true;
		}
		ret = st_kconfig_open(&ko, &kc, e);
		if (!ret)
			ret = st_kconfig_verify(kc, as, i, ST_KC_DEFCONFIG, false, &res, e);
		st_kconfig_close(kc);
		if (ret)
			return ret;
		for (k = 0; k < res->nr_findings; k++) {
			const struct st_kc_finding *f = &res->findings[k];

			if (f->kind != ST_KC_UNKNOWN && f->cause != ST_KC_CAUSE_NO_PROMPT)
				continue;
			for (i = 0; i < ARRAY_SIZE(probe); i++)
				if (!strcmp(probe[i], f->sym))
					usable[i] = false;
		}
		st_kc_result_free(res);
		list = calloc(1, 128);
		if (!list)
			return st_err(e, ENOMEM, NULL, "out of memory");
		for (i = 1; i < ARRAY_SIZE(probe); i++)
			if (usable[i])
				sprintf(list + strlen(list), "%s%s", *list ? "," : "", probe[i]);
		text = st_asprintf("# " STAMP_FORMAT "\n# key %s\n# symbols %s\n", hex, list);
		st_pathf(path, "%s/%s/%s", r->builddir, r->treedir, arch);
		ret = text ? st_mkdir_p(path) : -ENOMEM;
		st_pathf(path, "%s/%s/%s/.slubtiny-variants", r->builddir,
			    r->treedir, arch);
		if (!ret)
			ret = st_kernel_write_text(path, text, strlen(text), e);
		free(text);
		if (ret) {
			free(list);
			return e->code ? ret : st_err(e, -ret, path, "%s", strerror(-ret));
		}
	}
	/* A comma-separated list: look each name up with its delimiters. */
	for (v = 0; v < NKVARIANTS; v++) {
		choices[v] = NULL;
		for (k = 0; k < 2 && st_kernel_kvariants[v].choice[k] && !choices[v]; k++) {
			const char *s = st_kernel_kvariants[v].choice[k], *p = list;
			size_t sl = strlen(s);

			while ((p = strstr(p, s))) {
				if ((p == list || p[-1] == ',') && (p[sl] == ',' || !p[sl])) {
					choices[v] = s;
					break;
				}
				p += sl;
			}
		}
	}
	*has_tiny = strstr(list, "SLUB_TINY") != NULL;
	if (!*has_tiny)
		choices[1] = NULL;	/* slub_tiny */
	free(list);
	return 0;
}

bool st_kernel_wanted(const struct st_kernel_opts *o, const char *name)
{
	size_t i;

	if (!o->nvariants)
		return true;
	for (i = 0; i < o->nvariants; i++)
		if (!strcmp(o->variants[i], name))
			return true;
	return false;
}
