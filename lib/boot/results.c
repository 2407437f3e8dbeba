// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results kept in the cache: each boot's JSON next to its image, the
 * latest figure per variant in <builddir>/boot-latest.json (what
 * `footprint` reads back), and the run's JSON, built from the same items.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fs.h"
#include "common/json.h"
#include "common/str.h"
#include "kernel/kernel.h"
#include "boot_priv.h"

static cJSON *caches_json(const struct st_boot_figures *f)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < f->ncaches; i++) {
		const struct st_boot_cache *c = &f->caches[i];

		o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		if (!o || !cJSON_AddStringToObject(o, "name", c->name) ||
		    !cJSON_AddNumberToObject(o, "kb", c->kb) ||
		    !cJSON_AddNumberToObject(o, "slabs", c->slabs) ||
		    !cJSON_AddNumberToObject(o, "pages_per_slab", c->pagesperslab) ||
		    !cJSON_AddNumberToObject(o, "objects", c->objs) ||
		    !cJSON_AddNumberToObject(o, "object_size", c->objsize)) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

static cJSON *item_json(const struct st_boot_result *r, const struct st_boot_item *it)
{
	cJSON *o = cJSON_CreateObject();
	const struct st_boot_figures *f = &it->fig;

	if (!o || !cJSON_AddStringToObject(o, "variant", it->variant) ||
	    !cJSON_AddStringToObject(o, "arch", it->arch) ||
	    !cJSON_AddStringToObject(o, "tree", r->tree) ||
	    !cJSON_AddStringToObject(o, "defconfig", r->defconfig) ||
	    !cJSON_AddNumberToObject(o, "mem_mb", it->mem_mb) ||
	    !cJSON_AddNumberToObject(o, "cpus", r->cpus) ||
	    !cJSON_AddBoolToObject(o, "mmu", !r->nommu) ||
	    !cJSON_AddStringToObject(o, "cmdline", r->cmdline) ||
	    !cJSON_AddStringToObject(o, "boot_config", r->profile) ||
	    !cJSON_AddStringToObject(o, "image", it->image) ||
	    !st_json_add_str_or_null(o, "stopped", it->stopped) ||
	    !cJSON_AddBoolToObject(o, "out_of_memory", it->out_of_memory) ||
	    !cJSON_AddStringToObject(o, "resolved", it->resolved ? it->resolved : "") ||
	    !cJSON_AddStringToObject(o, "cc", it->cc ? it->cc : "") ||
	    !st_json_add_str_or_null(o, "cc_wrapper", it->cc_wrapper) ||
	    !cJSON_AddStringToObject(o, "accel", it->accel ? it->accel : "") ||
	    !cJSON_AddBoolToObject(o, "kvm_failed", it->kvm_failed) ||
	    !cJSON_AddBoolToObject(o, "build_cached", it->build_cached) ||
	    !cJSON_AddNumberToObject(o, "boot_s", it->boot_s) ||
	    !cJSON_AddNumberToObject(o, "uptime_s", f->uptime_s) ||
	    !cJSON_AddBoolToObject(o, "idle", f->idle) ||
	    !cJSON_AddNumberToObject(o, "slab_kb", f->slab_kb) ||
	    !cJSON_AddNumberToObject(o, "sreclaimable_kb", f->sreclaimable_kb) ||
	    !cJSON_AddNumberToObject(o, "sunreclaim_kb", f->sunreclaim_kb) ||
	    !cJSON_AddNumberToObject(o, "memfree_kb", f->memfree_kb) ||
	    !cJSON_AddNumberToObject(o, "memtotal_kb", f->memtotal_kb) ||
	    !cJSON_AddBoolToObject(o, "slabinfo", f->has_slabinfo) ||
	    !cJSON_AddItemToObject(o, "caches", caches_json(f))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *st_boot_to_json(const struct st_boot_result *r)
{
	cJSON *root = cJSON_CreateObject(), *res, *fail, *x;
	size_t i;

	if (!root || !cJSON_AddStringToObject(root, "tree", r->tree) ||
	    !cJSON_AddStringToObject(root, "defconfig", r->defconfig) ||
	    !cJSON_AddNumberToObject(root, "mem_mb", r->mem_mb) ||
	    !cJSON_AddNumberToObject(root, "cpus", r->cpus) ||
	    !cJSON_AddStringToObject(root, "cmdline", r->cmdline) ||
	    !cJSON_AddStringToObject(root, "boot_config", r->profile) ||
	    !(res = cJSON_AddArrayToObject(root, "results")) ||
	    !(fail = cJSON_AddArrayToObject(root, "failures")) ||
	    !(x = cJSON_AddArrayToObject(root, "ratios")))
		goto fail;
	for (i = 0; i < r->nratios; i++) {
		const struct st_boot_ratio *q = &r->ratios[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(x, o);
		if (!o || !cJSON_AddStringToObject(o, "num", q->num) ||
		    !cJSON_AddStringToObject(o, "den", q->den) ||
		    !cJSON_AddNumberToObject(o, "kernel", q->kernel) ||
		    !(q->replay ? cJSON_AddNumberToObject(o, "replay", q->replay) :
				  cJSON_AddNullToObject(o, "replay")))
			goto fail;
	}
	for (i = 0; i < r->nitems; i++) {
		const struct st_boot_item *it = &r->items[i];
		cJSON *o;

		if (it->error) {
			o = cJSON_CreateObject();
			cJSON_AddItemToArray(fail, o);
			if (!o || !cJSON_AddStringToObject(o, "variant", it->variant) ||
			    !cJSON_AddStringToObject(o, "arch", it->arch) ||
			    !cJSON_AddStringToObject(o, "error", it->error))
				goto fail;
			continue;
		}
		o = item_json(r, it);
		if (!o)
			goto fail;
		cJSON_AddItemToArray(res, o);
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

int st_boot_save_result(const struct st_boot_result *r, const struct st_boot_item *it,
			const char *builddir)
{
	char path[PATH_MAX], *s, *text;
	cJSON *j = item_json(r, it), *root = NULL, *v;
	int ret = -ENOMEM;

	if (!j)
		return -ENOMEM;
	s = cJSON_Print(j);
	if (s) {
		st_pathf(path, "%s/" RESULT_NAME, it->dir);
		ret = st_write_file(path, s, strlen(s), 0644);
		cJSON_free(s);
	}
	if (ret) {
		cJSON_Delete(j);
		return ret;
	}
	/* boot-latest.json: { "variants": { "slub": {...}, ... } } */
	st_pathf(path, "%s/" LATEST_NAME, builddir);
	text = st_read_text(path, NULL);
	root = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!cJSON_IsObject(root) || !cJSON_IsObject(cJSON_GetObjectItem(root, "variants"))) {
		cJSON_Delete(root);
		root = cJSON_CreateObject();
		if (!root || !cJSON_AddObjectToObject(root, "variants")) {
			cJSON_Delete(root);
			cJSON_Delete(j);
			return -ENOMEM;
		}
	}
	v = cJSON_GetObjectItem(root, "variants");
	cJSON_DeleteItemFromObject(v, it->variant);
	cJSON_DeleteItemFromObject(j, "caches");
	cJSON_AddItemToObject(v, it->variant, j);
	s = cJSON_Print(root);
	ret = s ? st_write_file(path, s, strlen(s), 0644) : -ENOMEM;
	cJSON_free(s);
	cJSON_Delete(root);
	return ret;
}

void st_boot_latest_free(struct st_boot_latest *l, size_t n)
{
	size_t i;

	for (i = 0; l && i < n; i++) {
		free(l[i].variant);
		free(l[i].tree);
		free(l[i].arch);
		free(l[i].defconfig);
		free(l[i].cmdline);
		free(l[i].profile);
	}
	free(l);
}

static char *jstr(const cJSON *o, const char *key)
{
	const cJSON *s = cJSON_GetObjectItem(o, key);

	return cJSON_IsString(s) ? strdup(s->valuestring) : NULL;
}

int st_boot_latest_parse(const char *text, struct st_boot_latest **out, size_t *n)
{
	cJSON *root = cJSON_Parse(text), *v, *x;
	struct st_boot_latest *l = NULL;
	size_t k = 0, cap;
	int ret = 0;

	*out = NULL;
	*n = 0;
	v = cJSON_GetObjectItem(root, "variants");
	if (!cJSON_IsObject(v)) {
		cJSON_Delete(root);
		return -EINVAL;
	}
	cap = cJSON_GetArraySize(v);
	l = calloc(cap + 1, sizeof(*l));
	if (!l) {
		cJSON_Delete(root);
		return -ENOMEM;
	}
	cJSON_ArrayForEach(x, v) {
		const cJSON *slab = cJSON_GetObjectItem(x, "slab_kb");
		const cJSON *mem = cJSON_GetObjectItem(x, "mem_mb");
		const cJSON *cpus = cJSON_GetObjectItem(x, "cpus");

		if (k == cap || !x->string || !cJSON_IsNumber(slab) || !cJSON_IsNumber(mem) ||
		    !cJSON_IsNumber(cpus) || slab->valuedouble <= 0 || slab->valuedouble > 1e12 ||
		    mem->valuedouble < 0 || mem->valuedouble > 1e7 || cpus->valuedouble < 0 ||
		    cpus->valuedouble > 1e5) {
			ret = -EINVAL;
			break;
		}
		l[k].variant = strdup(x->string);
		l[k].tree = jstr(x, "tree");
		l[k].arch = jstr(x, "arch");
		l[k].defconfig = jstr(x, "defconfig");
		/* results kept before --cmdline existed have none */
		l[k].cmdline = cJSON_GetObjectItem(x, "cmdline") ? jstr(x, "cmdline") : strdup("");
		l[k].profile = cJSON_GetObjectItem(x, "boot_config") ? jstr(x, "boot_config") :
								     strdup("minimal");
		l[k].mem_mb = mem->valuedouble;
		l[k].cpus = cpus->valuedouble;
		l[k].slab_kb = slab->valuedouble;
		k++;
		if (!l[k - 1].variant || !l[k - 1].tree || !l[k - 1].arch || !l[k - 1].defconfig ||
		    !l[k - 1].cmdline || !l[k - 1].profile) {
			ret = -EINVAL;
			break;
		}
	}
	cJSON_Delete(root);
	if (ret) {
		st_boot_latest_free(l, k);
		return ret;
	}
	*out = l;
	*n = k;
	return 0;
}

int st_boot_latest_load(const char *builddir, struct st_boot_latest **out, size_t *n,
			struct st_error *e)
{
	char dir[PATH_MAX], path[PATH_MAX], *text;
	int ret;

	*out = NULL;
	*n = 0;
	if (builddir)
		st_pathf(dir, "%s", builddir);
	else if (st_kernel_default_dir(dir, sizeof(dir)))
		return 0;
	st_pathf(path, "%s/" LATEST_NAME, dir);
	text = st_read_text(path, NULL);
	if (!text)
		return errno == ENOENT ? 0 : st_err(e, errno, path, "%s", strerror(errno));
	ret = st_boot_latest_parse(text, out, n);
	free(text);
	if (ret)
		return st_err(e, -ret, path, "%s", ret == -EINVAL ? "not a boot result file" :
			      strerror(-ret));
	return 0;
}
