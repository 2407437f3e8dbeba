// SPDX-License-Identifier: GPL-2.0-only
/*
 * Turning the helper's JSON replies into results. The helper is our own
 * code, but its replies are still input: every field is type-checked and a
 * malformed reply is an error, never a crash (tests/fuzz/kconfig).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/array.h"
#include "common/error.h"
#include "common/str.h"
#include "kconfig/kconfig_priv.h"

static const char *const kind_names[] = {
	[ST_KC_INEFFECTIVE] = "ineffective",
	[ST_KC_UNKNOWN] = "unknown",
};

static const char *const cause_names[] = {
	[ST_KC_CAUSE_DEPENDS] = "depends",
	[ST_KC_CAUSE_SELECT] = "select",
	[ST_KC_CAUSE_IMPLY] = "imply",
	[ST_KC_CAUSE_CHOICE] = "choice",
	[ST_KC_CAUSE_RANGE] = "range",
	[ST_KC_CAUSE_NO_PROMPT] = "no_prompt",
	[ST_KC_CAUSE_UNKNOWN] = "unknown",
	[ST_KC_CAUSE_INVALID] = "invalid",
	[ST_KC_CAUSE_MODULES] = "modules",
	[ST_KC_CAUSE_OTHER] = "other",
};

const char *st_kc_kind_name(enum st_kc_kind kind)
{
	if ((unsigned int)kind >= ARRAY_SIZE(kind_names))
		return "?";
	return kind_names[kind];
}

const char *st_kc_cause_name(enum st_kc_cause cause)
{
	if ((unsigned int)cause >= ARRAY_SIZE(cause_names))
		return "?";
	return cause_names[cause];
}

static int lookup(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

/* A copy of string member @key; NULL member or JSON null gives NULL. */
static int dup_str(const cJSON *obj, const char *key, bool required, char **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!it || cJSON_IsNull(it))
		return required ? -EPROTO : 0;
	if (!cJSON_IsString(it) || !it->valuestring)
		return -EPROTO;
	*out = strdup(it->valuestring);
	return *out ? 0 : -ENOMEM;
}

/* An integer member within [lo, hi]; missing gives @def. */
static int get_int(const cJSON *obj, const char *key, long lo, long hi,
		   long def, long *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	double d;

	*out = def;
	if (!it)
		return 0;
	if (!cJSON_IsNumber(it))
		return -EPROTO;
	d = it->valuedouble;
	if (!(d >= lo && d <= hi) || d != (double)(long)d)
		return -EPROTO;
	*out = (long)d;
	return 0;
}

static int parse_finding(const cJSON *o, struct st_kc_finding *f)
{
	char *s = NULL;
	long line;
	int err, k;

	if (!cJSON_IsObject(o))
		return -EPROTO;
	err = get_int(o, "line", 0, 1L << 30, 0, &line);
	if (err)
		return err;
	f->line = line;
	if ((err = dup_str(o, "symbol", true, &f->sym)) ||
	    (err = dup_str(o, "requested", true, &f->requested)) ||
	    (err = dup_str(o, "actual", false, &f->actual)) ||
	    (err = dup_str(o, "message", true, &f->message)) ||
	    (err = dup_str(o, "detail", false, &f->detail)) ||
	    (err = dup_str(o, "fix", false, &f->fix)))
		return err;
	if (!f->detail && !(f->detail = strdup("")))
		return -ENOMEM;
	err = dup_str(o, "kind", true, &s);
	if (err)
		return err;
	k = lookup(kind_names, ARRAY_SIZE(kind_names), s);
	free(s);
	if (k < 0)
		return -EPROTO;
	f->kind = k;
	err = dup_str(o, "cause", true, &s);
	if (err)
		return err;
	k = lookup(cause_names, ARRAY_SIZE(cause_names), s);
	free(s);
	/* A cause this client does not know yet is still a finding. */
	f->cause = k < 0 ? ST_KC_CAUSE_OTHER : k;
	return 0;
}

/*
 * The entries of an optional array member: *@v gets room for each, of
 * @size bytes, zeroed (NULL for none or no member). 0, -EPROTO when @arr
 * is no array, -ENOMEM.
 */
static int array_room(const cJSON *arr, size_t size, void **v)
{
	int n;

	*v = NULL;
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return -EPROTO;
	n = cJSON_GetArraySize(arr);
	if (!n)
		return 0;
	*v = calloc(n, size);
	return *v ? 0 : -ENOMEM;
}

static int parse_findings(const cJSON *arr, struct st_kc_result *r)
{
	const cJSON *it;
	void *v;
	int err;

	err = array_room(arr, sizeof(*r->findings), &v);
	if (err || !v)
		return err;
	r->findings = v;
	cJSON_ArrayForEach(it, arr) {
		/* Count first: a failed entry is freed with the result. */
		err = parse_finding(it, &r->findings[r->nr_findings++]);
		if (err)
			return err;
	}
	return 0;
}

static int parse_sym(const cJSON *o, struct st_kc_sym *s)
{
	const cJSON *name = cJSON_GetArrayItem(o, 0);
	const cJSON *val = cJSON_GetArrayItem(o, 1);
	const cJSON *type = cJSON_GetArrayItem(o, 2);

	if (!cJSON_IsArray(o) || !cJSON_IsString(name) || !cJSON_IsString(val) ||
	    !cJSON_IsString(type) || !name->valuestring || !val->valuestring ||
	    !type->valuestring || !strchr("bthis", type->valuestring[0]) ||
	    !type->valuestring[0])
		return -EPROTO;
	s->type = type->valuestring[0];
	s->name = strdup(name->valuestring);
	s->value = strdup(val->valuestring);
	return s->name && s->value ? 0 : -ENOMEM;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct st_kc_sym *x = *(const struct st_kc_sym *const *)a;
	const struct st_kc_sym *y = *(const struct st_kc_sym *const *)b;

	return strcmp(x->name, y->name);
}

static int parse_config(const cJSON *arr, struct st_kc_result *r)
{
	const cJSON *it;
	void *v;
	size_t i;
	int err;

	err = array_room(arr, sizeof(*r->config), &v);
	if (err || !v)
		return err;
	r->config = v;
	err = array_room(arr, sizeof(*r->by_name), &v);
	if (err)
		return err;
	r->by_name = v;
	cJSON_ArrayForEach(it, arr) {
		err = parse_sym(it, &r->config[r->nr_config++]);
		if (err)
			return err;
	}
	for (i = 0; i < r->nr_config; i++)
		r->by_name[i] = &r->config[i];
	qsort(r->by_name, r->nr_config, sizeof(*r->by_name), cmp_sym);
	return 0;
}

/* "op": "set" (or none), "drop" or "keep"; drop and keep name a line. */
static int parse_fix_op(const cJSON *o, struct st_kc_fix *f)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, "op");

	f->op = ST_KC_FIX_SET;
	if (!it)
		return 0;
	if (!cJSON_IsString(it) || !it->valuestring)
		return -EPROTO;
	if (!strcmp(it->valuestring, "drop"))
		f->op = ST_KC_FIX_DROP;
	else if (!strcmp(it->valuestring, "keep"))
		f->op = ST_KC_FIX_KEEP;
	else if (strcmp(it->valuestring, "set"))
		return -EPROTO;
	return f->op != ST_KC_FIX_SET && f->replace_line <= 0 ? -EPROTO : 0;
}

static int parse_fix(const cJSON *o, struct st_kc_fix *f)
{
	long v;
	int err;

	if (!cJSON_IsObject(o))
		return -EPROTO;
	if ((err = dup_str(o, "sym", true, &f->sym)) ||
	    (err = dup_str(o, "val", true, &f->val)) ||
	    (err = dup_str(o, "line_text", true, &f->line_text)) ||
	    (err = dup_str(o, "reason", false, &f->reason)))
		return err;
	if ((err = get_int(o, "replace_line", 0, 1L << 30, 0, &v)))
		return err;
	f->replace_line = v;
	if ((err = get_int(o, "after_line", 0, 1L << 30, 0, &v)))
		return err;
	f->after_line = v;
	if ((err = get_int(o, "order", -1, 1L << 30, -1, &v)))
		return err;
	f->order = v;
	if ((err = parse_fix_op(o, f)))
		return err;
	if (!f->reason && !(f->reason = strdup("")))
		return -ENOMEM;
	return 0;
}

static int parse_fixes(const cJSON *arr, struct st_kc_result *r)
{
	const cJSON *it;
	void *v;
	int err;

	err = array_room(arr, sizeof(*r->fixes), &v);
	if (err || !v)
		return err;
	r->fixes = v;
	cJSON_ArrayForEach(it, arr) {
		err = parse_fix(it, &r->fixes[r->nr_fixes++]);
		if (err)
			return err;
	}
	return 0;
}

static int parse_refused(const cJSON *arr, struct st_kc_result *r)
{
	const cJSON *it;
	void *v;
	int err;

	err = array_room(arr, sizeof(*r->refused), &v);
	if (err || !v)
		return err;
	r->refused = v;
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsString(it) || !it->valuestring)
			return -EPROTO;
		r->refused[r->nr_refused] = strdup(it->valuestring);
		if (!r->refused[r->nr_refused++])
			return -ENOMEM;
	}
	return 0;
}

int st_kc_reply_tree(const char *buf, size_t len, cJSON **out,
		     struct st_error *err)
{
	const cJSON *ok, *msg;
	cJSON *root;

	*out = NULL;
	root = cJSON_ParseWithLength(buf, len);
	if (!root || !cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return st_err(err, EPROTO, "st_kconfig.py",
			      "malformed reply from the Kconfig helper");
	}
	ok = cJSON_GetObjectItemCaseSensitive(root, "ok");
	if (!cJSON_IsBool(ok)) {
		cJSON_Delete(root);
		return st_err(err, EPROTO, "st_kconfig.py",
			      "reply from the Kconfig helper without \"ok\"");
	}
	if (cJSON_IsFalse(ok)) {
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(root, "code");
		/* The helper names the errno when it is not a plain failure. */
		int e = cJSON_IsString(code) && code->valuestring &&
			!strcmp(code->valuestring, "EINVAL") ? EINVAL : EIO;

		msg = cJSON_GetObjectItemCaseSensitive(root, "error");
		st_err(err, e, "", "%s", cJSON_IsString(msg) && msg->valuestring &&
		       msg->valuestring[0] ? msg->valuestring :
		       "the Kconfig helper failed");
		cJSON_Delete(root);
		return -e;
	}
	*out = root;
	return 0;
}

int st_kc_reply_parse(const char *buf, size_t len, struct st_kc_result **res,
		      struct st_error *err)
{
	struct st_kc_result *r;
	cJSON *root;
	long iter;
	int ret;

	ret = st_kc_reply_tree(buf, len, &root, err);
	if (ret)
		return ret;
	r = calloc(1, sizeof(*r));
	if (!r) {
		cJSON_Delete(root);
		return -ENOMEM;
	}
	ret = parse_findings(cJSON_GetObjectItemCaseSensitive(root, "findings"), r);
	if (!ret)
		ret = parse_config(cJSON_GetObjectItemCaseSensitive(root, "config"), r);
	if (!ret)
		ret = parse_fixes(cJSON_GetObjectItemCaseSensitive(root, "fixes"), r);
	if (!ret)
		ret = parse_refused(cJSON_GetObjectItemCaseSensitive(root, "refused"), r);
	if (!ret)
		ret = get_int(root, "iterations", 0, 1000, 0, &iter);
	cJSON_Delete(root);
	if (ret) {
		st_kc_result_free(r);
		if (ret == -ENOMEM)
			return ret;
		return st_err(err, EPROTO, "st_kconfig.py",
			      "malformed reply from the Kconfig helper");
	}
	r->iterations = iter;
	*res = r;
	return 0;
}

const char *st_kc_result_value(const struct st_kc_result *res, const char *sym)
{
	struct st_kc_sym key = { .name = (char *)sym }, *kp = &key, **hit;

	if (!res || !res->nr_config)
		return NULL;
	hit = bsearch(&kp, res->by_name, res->nr_config, sizeof(*res->by_name),
		      cmp_sym);
	return hit ? (*hit)->value : NULL;
}

void st_kc_result_free(struct st_kc_result *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->nr_findings; i++) {
		struct st_kc_finding *f = &res->findings[i];

		free(f->sym);
		free(f->requested);
		free(f->actual);
		free(f->message);
		free(f->detail);
		free(f->fix);
	}
	for (i = 0; i < res->nr_config; i++) {
		free(res->config[i].name);
		free(res->config[i].value);
	}
	for (i = 0; i < res->nr_fixes; i++) {
		free(res->fixes[i].sym);
		free(res->fixes[i].val);
		free(res->fixes[i].line_text);
		free(res->fixes[i].reason);
	}
	free(res->findings);
	free(res->config);
	free(res->by_name);
	free(res->fixes);
	st_strv_free(res->refused, res->nr_refused);
	free(res);
}
