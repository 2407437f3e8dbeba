// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-repository configuration file, .slubtiny.json. Parsed with cJSON;
 * strict on purpose: an unknown key or rule id is an error, because a typo
 * in a CI gate's configuration must not quietly turn a rule off.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "common/fs.h"
#include "kconfig/kconfig.h"

char *st_check_resolve(const char *base_file, const char *rel)
{
	const char *slash;
	char *out;

	if (rel[0] == '/' || !base_file || !(slash = strrchr(base_file, '/')))
		return strdup(rel);
	if (asprintf(&out, "%.*s/%s", (int)(slash - base_file), base_file, rel) < 0)
		return NULL;
	return out;
}

/* Fill @set from a JSON array of rule ids. */
static int rule_array(bool set[ST_RULE_COUNT], const cJSON *a, const char *key,
		      const char *path, struct st_error *err)
{
	const cJSON *it;
	int rule;

	if (!cJSON_IsArray(a))
		return st_err(err, EINVAL, path, "\"%s\" must be an array of rule ids", key);
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it))
			return st_err(err, EINVAL, path, "\"%s\" must be an array of rule ids", key);
		rule = st_check_rule_find(it->valuestring, strlen(it->valuestring));
		if (rule < 0)
			return st_err(err, EINVAL, path, "\"%s\": unknown rule '%s'",
				      key, it->valuestring);
		set[rule] = true;
	}
	return 0;
}

static int string_key(char **out, const cJSON *v, const char *key, bool is_path,
		      const char *path, struct st_error *err)
{
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return st_err(err, EINVAL, path, "\"%s\" must be a non-empty string", key);
	free(*out);
	*out = is_path ? st_check_resolve(path, v->valuestring) : strdup(v->valuestring);
	if (!*out)
		return st_err(err, ENOMEM, path, "out of memory");
	return 0;
}

/* Keep "budgets" as the text of a budget file; it is parsed when used. */
static int inline_budgets(struct st_check_config *c, const cJSON *v,
			  struct st_error *err)
{
	cJSON *doc, *copy;

	if (!cJSON_IsArray(v))
		return st_err(err, EINVAL, c->path, "\"budgets\" must be an array");
	doc = cJSON_CreateObject();
	copy = cJSON_Duplicate(v, 1);
	if (!doc || !copy || !cJSON_AddItemToObject(doc, "budgets", copy)) {
		cJSON_Delete(copy);
		cJSON_Delete(doc);
		return st_err(err, ENOMEM, c->path, "out of memory");
	}
	free(c->budgets);
	c->budgets = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	return c->budgets ? 0 : st_err(err, ENOMEM, c->path, "out of memory");
}

/* One "ignores" entry; all three keys checked, a reason required. */
static int ignore_entry(struct st_check_ignore *ig, const cJSON *o, const char *path,
			struct st_error *err)
{
	const cJSON *v;
	bool has_rules = false;
	int i, ret;

	if (!cJSON_IsObject(o))
		return st_err(err, EINVAL, path, "\"ignores\" entries must be objects");
	cJSON_ArrayForEach(v, o) {
		if (!strcmp(v->string, "files")) {
			ret = string_key(&ig->glob, v, "ignores: files", false, path, err);
		} else if (!strcmp(v->string, "reason")) {
			ret = string_key(&ig->reason, v, "ignores: reason", false, path, err);
		} else if (!strcmp(v->string, "rules")) {
			has_rules = true;
			ret = rule_array(ig->rules, v, "ignores: rules", path, err);
		} else {
			ret = st_err(err, EINVAL, path, "\"ignores\": unknown key \"%s\"", v->string);
		}
		if (ret)
			return ret;
	}
	if (!ig->glob)
		return st_err(err, EINVAL, path, "\"ignores\": an entry without \"files\"");
	if (!ig->reason)
		return st_err(err, EINVAL, path, "\"ignores\": \"%s\" has no \"reason\"", ig->glob);
	for (i = 0; !has_rules && i < ST_RULE_COUNT; i++)
		ig->rules[i] = true;
	return 0;
}

/* One "arches" entry: "files" and a known "arch", nothing else. */
static int arch_entry(struct st_check_arch_map *m, const cJSON *o, const char *path,
		      struct st_error *err)
{
	const cJSON *v;
	int ret;

	if (!cJSON_IsObject(o))
		return st_err(err, EINVAL, path, "\"arches\" entries must be objects");
	cJSON_ArrayForEach(v, o) {
		if (!strcmp(v->string, "files"))
			ret = string_key(&m->glob, v, "arches: files", false, path, err);
		else if (!strcmp(v->string, "arch"))
			ret = string_key(&m->arch, v, "arches: arch", false, path, err);
		else
			ret = st_err(err, EINVAL, path, "\"arches\": unknown key \"%s\"", v->string);
		if (ret)
			return ret;
	}
	if (!m->glob || !m->arch)
		return st_err(err, EINVAL, path, "\"arches\": an entry needs \"files\" and \"arch\"");
	if (!st_arch_known(m->arch))
		return st_err(err, EINVAL, path, "\"arches\": unknown arch '%s' for \"%s\"",
			      m->arch, m->glob);
	return 0;
}

static int arches(struct st_check_config *c, const cJSON *v, struct st_error *err)
{
	const cJSON *o;
	int n, ret;

	if (!cJSON_IsArray(v))
		return st_err(err, EINVAL, c->path, "\"arches\" must be an array");
	n = cJSON_GetArraySize(v);
	c->arches = calloc(n ? n : 1, sizeof(*c->arches));
	if (!c->arches)
		return st_err(err, ENOMEM, c->path, "out of memory");
	cJSON_ArrayForEach(o, v) {
		ret = arch_entry(&c->arches[c->nr_arches++], o, c->path, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int ignores(struct st_check_config *c, const cJSON *v, struct st_error *err)
{
	const cJSON *o;
	int n, ret;

	if (!cJSON_IsArray(v))
		return st_err(err, EINVAL, c->path, "\"ignores\" must be an array");
	n = cJSON_GetArraySize(v);
	c->ignores = calloc(n ? n : 1, sizeof(*c->ignores));
	if (!c->ignores)
		return st_err(err, ENOMEM, c->path, "out of memory");
	cJSON_ArrayForEach(o, v) {
		ret = ignore_entry(&c->ignores[c->nr_ignores++], o, c->path, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* The 1-based line of @at in @buf. */
static int line_of(const char *buf, const char *at)
{
	int line = 1;

	for (; buf < at; buf++)
		line += *buf == '\n';
	return line;
}

int st_check_config_parse(struct st_check_config *c, const char *buf, size_t len,
			  const char *path, struct st_error *err)
{
	const char *end;
	const cJSON *v;
	cJSON *root;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	c->path = strdup(path ? path : ST_CHECK_CONFIG_NAME);
	if (!c->path)
		return st_err(err, ENOMEM, path, "out of memory");
	root = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (!root)
		return st_err(err, EINVAL, c->path, "not valid JSON");
	if (!cJSON_IsObject(root)) {
		ret = st_err(err, EINVAL, c->path, "must hold one JSON object");
		goto out;
	}
	/* what follows the object would be ignored: a merge gone wrong */
	while (end < buf + len && strchr(" \t\r\n", *end) && *end)
		end++;
	if (end < buf + len) {
		ret = st_err(err, EINVAL, c->path,
			     "trailing content after the JSON object (line %d)",
			     line_of(buf, end));
		goto out;
	}
	cJSON_ArrayForEach(v, root) {
		const char *k = v->string;

		if (!strcmp(k, "select")) {
			c->has_select = true;
			ret = rule_array(c->select, v, k, c->path, err);
		} else if (!strcmp(k, "ignore")) {
			ret = rule_array(c->ignore, v, k, c->path, err);
		} else if (!strcmp(k, "srctree")) {
			ret = string_key(&c->srctree, v, k, true, c->path, err);
		} else if (!strcmp(k, "arch")) {
			ret = string_key(&c->arch, v, k, false, c->path, err);
			/* it becomes a path (arch/ARCH/Kconfig): no "../.." */
			if (!ret && !st_arch_known(c->arch))
				ret = st_err(err, EINVAL, c->path, "\"arch\": unknown arch '%s'",
					     c->arch);
		} else if (!strcmp(k, "budget")) {
			ret = string_key(&c->budget, v, k, true, c->path, err);
		} else if (!strcmp(k, "budgets")) {
			ret = inline_budgets(c, v, err);
		} else if (!strcmp(k, "arches")) {
			ret = c->arches ? st_err(err, EINVAL, c->path, "\"arches\" given twice")
					: arches(c, v, err);
		} else if (!strcmp(k, "ignores")) {
			ret = c->ignores ? st_err(err, EINVAL, c->path, "\"ignores\" given twice")
					 : ignores(c, v, err);
		} else {
			ret = st_err(err, EINVAL, c->path, "unknown key \"%s\"", k);
		}
		if (ret)
			break;
	}
	if (!ret && c->budget && c->budgets)
		ret = st_err(err, EINVAL, c->path, "\"budget\" and \"budgets\": give one of them");
out:
	cJSON_Delete(root);
	return ret;
}

int st_check_config_load(struct st_check_config *c, const char *path,
			 struct st_error *err)
{
	char *buf;
	size_t len;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = st_read_file(path, &buf, &len, 1 << 20, NULL, err);
	if (ret)
		return ret;
	ret = st_check_config_parse(c, buf, len, path, err);
	free(buf);
	return ret;
}

/* @dir followed by @up "/.." steps and @name, as short as it gets. */
static char *relative(const char *dir, int up, const char *name)
{
	char buf[PATH_MAX];
	size_t n = 0;
	int i;

	if (strcmp(dir, "."))
		n = snprintf(buf, sizeof(buf), "%s/", dir);
	for (i = 0; i < up && n < sizeof(buf) - 4; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "../");
	snprintf(buf + n, sizeof(buf) - n, "%s", name);
	return strdup(buf);
}

/*
 * Whether a settings file found by the search may be read: it and its
 * directory belong to us (or root), and nobody else may write to the
 * directory. A sticky bit is no excuse: in /tmp anyone may plant the file.
 * Returns NULL or why not.
 */
static const char *untrusted(const struct stat *dst, const char *file)
{
	uid_t me = geteuid();
	struct stat fst;

	if (dst->st_uid != me && dst->st_uid != 0)
		return "its directory belongs to another user";
	if (dst->st_mode & S_IWOTH)
		return "its directory is writable by everyone";
	if (lstat(file, &fst) < 0)
		return strerror(errno);
	if (fst.st_uid != me && fst.st_uid != 0)
		return "it belongs to another user";
	return NULL;
}

int st_check_config_find(const char *dir, char **path, struct st_error *refused)
{
	char cur[PATH_MAX], probe[PATH_MAX + 32], home[PATH_MAX];
	const char *h = getenv("HOME"), *why;
	struct stat st, parent;
	char *slash;
	int up = 0;

	*path = NULL;
	if (!realpath(dir, cur))
		return -errno;
	if (!h || !realpath(h, home))
		home[0] = '\0';
	if (stat(cur, &st) < 0)
		return -errno;
	for (;; up++) {
		const char *c = strcmp(cur, "/") ? cur : "";

		snprintf(probe, sizeof(probe), "%s/%s", c, ST_CHECK_CONFIG_NAME);
		if (access(probe, F_OK) == 0) {
			why = untrusted(&st, probe);
			if (why) {
				st_err(refused, EPERM, probe, "%s", why);
				return 0;
			}
			/* relative, so that findings name it the way the user would */
			*path = relative(dir, up, ST_CHECK_CONFIG_NAME);
			return *path ? 0 : -ENOMEM;
		}
		/* like git: the top of the repository, $HOME, /, a mount point */
		snprintf(probe, sizeof(probe), "%s/.git", c);
		if (access(probe, F_OK) == 0 || !strcmp(cur, "/") || !strcmp(cur, home))
			return 0;
		slash = strrchr(cur, '/');
		if (slash == cur)
			cur[1] = '\0';
		else
			*slash = '\0';
		if (stat(cur, &parent) < 0 || parent.st_dev != st.st_dev)
			return 0;
		st = parent;
	}
}

void st_check_config_free(struct st_check_config *c)
{
	size_t i;

	if (!c)
		return;

	for (i = 0; i < c->nr_ignores; i++) {
		free(c->ignores[i].glob);
		free(c->ignores[i].reason);
	}
	free(c->ignores);
	for (i = 0; i < c->nr_arches; i++) {
		free(c->arches[i].glob);
		free(c->arches[i].arch);
	}
	free(c->arches);
	free(c->path);
	free(c->srctree);
	free(c->arch);
	free(c->budget);
	cJSON_free(c->budgets);
	memset(c, 0, sizeof(*c));
}
