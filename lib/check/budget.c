// SPDX-License-Identifier: GPL-2.0-only
/*
 * Size budgets: a JSON file of limits on objects or on built allocator
 * variants, absolute (max) or relative to a baseline (growth). A blown
 * limit is a size-budget finding that names both numbers.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "common/fs.h"

const char *const st_budget_field_names[ST_BF_COUNT] = {
	[ST_BF_TEXT] = "text", [ST_BF_DATA] = "data", [ST_BF_BSS] = "bss",
	[ST_BF_TOTAL] = "total",
};

static int field_of(const char *name)
{
	int i;

	for (i = 0; i < ST_BF_COUNT; i++)
		if (!strcmp(name, st_budget_field_names[i]))
			return i;
	return -1;
}

/* 123 (bytes) or "12%" / "12.5%" (percent, only where @pct_ok). */
static int parse_limit(struct st_budget_limit *l, const cJSON *v, bool pct_ok)
{
	char *end;

	if (cJSON_IsNumber(v)) {
		if (!isfinite(v->valuedouble) || v->valuedouble < 0)
			return -EINVAL;
		l->value = v->valuedouble;
		l->set = true;
		return 0;
	}
	if (!pct_ok || !cJSON_IsString(v))
		return -EINVAL;
	l->value = strtod(v->valuestring, &end);
	if (end == v->valuestring || strcmp(end, "%") || !isfinite(l->value) ||
	    l->value < 0)
		return -EINVAL;
	l->percent = true;
	l->set = true;
	return 0;
}

static int parse_limits(struct st_budget_limit *lim, const cJSON *o, bool pct_ok,
			const char *key, const char *path, size_t idx,
			struct st_error *err)
{
	const cJSON *v;
	int f;

	if (!cJSON_IsObject(o))
		return st_err(err, EINVAL, path, "budget %zu: \"%s\" must be an object", idx, key);
	cJSON_ArrayForEach(v, o) {
		f = field_of(v->string);
		if (f < 0)
			return st_err(err, EINVAL, path,
				      "budget %zu: \"%s\": unknown size \"%s\" (text, data, bss, total)",
				      idx, key, v->string);
		if (parse_limit(&lim[f], v, pct_ok))
			return st_err(err, EINVAL, path,
				      "budget %zu: \"%s\".%s must be a number of bytes >= 0%s",
				      idx, key, v->string, pct_ok ? " or a string \"P%\"" : "");
	}
	return 0;
}

static int entry_string(char **out, const cJSON *v, const char *key, bool is_path,
			const char *path, size_t idx, struct st_error *err)
{
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return st_err(err, EINVAL, path, "budget %zu: \"%s\" must be a non-empty string",
			      idx, key);
	free(*out);	/* a key given twice: the last one wins */
	*out = is_path ? st_check_resolve(path, v->valuestring) : strdup(v->valuestring);
	return *out ? 0 : st_err(err, ENOMEM, path, "out of memory");
}

static int parse_entry(struct st_budget_entry *e, const cJSON *o, const char *path,
		       size_t idx, struct st_error *err)
{
	const cJSON *v;
	bool has_limit = false;
	int ret = 0;

	if (!cJSON_IsObject(o))
		return st_err(err, EINVAL, path, "budget %zu must be an object", idx);
	cJSON_ArrayForEach(v, o) {
		const char *k = v->string;

		if (!strcmp(k, "object"))
			ret = entry_string(&e->object, v, k, true, path, idx, err);
		else if (!strcmp(k, "variant"))
			ret = entry_string(&e->variant, v, k, false, path, idx, err);
		else if (!strcmp(k, "arch"))
			ret = entry_string(&e->arch, v, k, false, path, idx, err);
		else if (!strcmp(k, "baseline"))
			ret = entry_string(&e->baseline, v, k, false, path, idx, err);
		else if (!strcmp(k, "max"))
			ret = parse_limits(e->max, v, false, k, path, idx, err);
		else if (!strcmp(k, "growth"))
			ret = parse_limits(e->growth, v, true, k, path, idx, err);
		else
			ret = st_err(err, EINVAL, path, "budget %zu: unknown key \"%s\"", idx, k);
		if (ret)
			return ret;
	}
	if (!e->object == !e->variant)
		return st_err(err, EINVAL, path,
			      "budget %zu: needs exactly one of \"object\" and \"variant\"", idx);
	if (e->arch && !e->variant)
		return st_err(err, EINVAL, path, "budget %zu: \"arch\" goes with \"variant\"", idx);
	for (int f = 0; f < ST_BF_COUNT; f++)
		has_limit |= e->max[f].set || e->growth[f].set;
	if (!has_limit)
		return st_err(err, EINVAL, path, "budget %zu: no \"max\" or \"growth\" limit", idx);
	for (int f = 0; f < ST_BF_COUNT; f++)
		if (e->growth[f].set && !e->baseline)
			return st_err(err, EINVAL, path,
				      "budget %zu: \"growth\" needs a \"baseline\"", idx);
	/* an object's baseline is a path too */
	if (e->object && e->baseline) {
		char *b = st_check_resolve(path, e->baseline);

		if (!b)
			return st_err(err, ENOMEM, path, "out of memory");
		free(e->baseline);
		e->baseline = b;
	}
	return 0;
}

int st_budget_parse(struct st_budget *b, const char *buf, size_t len,
		    const char *path, struct st_error *err)
{
	const cJSON *list, *v;
	cJSON *root;
	size_t n;
	int ret = 0;

	memset(b, 0, sizeof(*b));
	b->path = strdup(path ? path : "budget");
	if (!b->path)
		return st_err(err, ENOMEM, path, "out of memory");
	root = cJSON_ParseWithLength(buf, len);
	if (!root)
		return st_err(err, EINVAL, b->path, "not valid JSON");
	list = cJSON_GetObjectItemCaseSensitive(root, "budgets");
	if (!cJSON_IsObject(root) || !cJSON_IsArray(list)) {
		ret = st_err(err, EINVAL, b->path, "must be an object with a \"budgets\" array");
		goto out;
	}
	cJSON_ArrayForEach(v, root) {
		if (strcmp(v->string, "budgets")) {
			ret = st_err(err, EINVAL, b->path, "unknown key \"%s\"", v->string);
			goto out;
		}
	}
	n = cJSON_GetArraySize(list);
	b->e = calloc(n ? n : 1, sizeof(*b->e));
	if (!b->e) {
		ret = st_err(err, ENOMEM, b->path, "out of memory");
		goto out;
	}
	cJSON_ArrayForEach(v, list) {
		ret = parse_entry(&b->e[b->nr], v, b->path, b->nr + 1, err);
		b->nr++;
		if (ret)
			goto out;
	}
out:
	cJSON_Delete(root);
	return ret;
}

int st_budget_load(struct st_budget *b, const char *path, struct st_error *err)
{
	char *buf;
	size_t len;
	int ret;

	memset(b, 0, sizeof(*b));
	ret = st_read_file(path, &buf, &len, 1 << 20, NULL, err);
	if (ret)
		return ret;
	ret = st_budget_parse(b, buf, len, path, err);
	free(buf);
	return ret;
}

void st_budget_free(struct st_budget *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->nr; i++) {
		free(b->e[i].object);
		free(b->e[i].variant);
		free(b->e[i].arch);
		free(b->e[i].baseline);
	}
	free(b->e);
	free(b->path);
	memset(b, 0, sizeof(*b));
}

int st_budget_judge(struct st_check_result *r, const struct st_budget *b,
		    const struct st_budget_entry *e, const char *what,
		    const struct st_budget_sizes *cur,
		    const struct st_budget_sizes *base)
{
	int f, ret = 0;

	for (f = 0; f < ST_BF_COUNT && !ret; f++) {
		const char *name = st_budget_field_names[f];
		const struct st_budget_limit *g = &e->growth[f];
		uint64_t now = cur->v[f];

		if (e->max[f].set && (double)now > e->max[f].value)
			ret = st_check_add(r, ST_RULE_SIZE_BUDGET, b->path, 0, 0, NULL,
					   "shrink it or raise \"max\" in the budget file",
					   "%s: %s is %" PRIu64 " bytes, over its budget of %.0f bytes by %.0f",
					   what, name, now, e->max[f].value,
					   (double)now - e->max[f].value);
		if (ret || !g->set || !base)
			continue;
		{
			uint64_t was = base->v[f];
			double grew = (double)now - (double)was;
			double pct = was ? 100.0 * grew / (double)was : (grew > 0 ? INFINITY : 0);
			bool over = g->percent ? pct > g->value : grew > g->value;

			if (!over)
				continue;
			ret = st_check_add(r, ST_RULE_SIZE_BUDGET, b->path, 0, 0, NULL,
					   "shrink it or raise \"growth\" in the budget file",
					   "%s: %s grew from %" PRIu64 " to %" PRIu64 " bytes (+%.0f, +%.2f%%) vs %s, over the allowed growth of %.*f%s",
					   what, name, was, now, grew, pct, e->baseline,
					   g->percent ? 2 : 0, g->value, g->percent ? "%" : " bytes");
		}
	}
	return ret;
}
