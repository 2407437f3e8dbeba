// SPDX-License-Identifier: GPL-2.0-only
/*
 * Yocto: a kernel recipe (recipes-kernel/linux/NAME.bb or .bbappend) lists in
 * SRC_URI a defconfig and .cfg fragments as file:// entries, found below the
 * recipe's directory (files/, the recipe's name, a machine's subdirectory).
 * kernel-yocto merges the fragments over the defconfig (or the in-tree
 * KBUILD_DEFCONFIG) in their order. The kernel version is the recipe's
 * (linux-yocto_6.6.bb, LINUX_VERSION). No ARCH: TARGET_ARCH and tunes are
 * not make's ARCH.
 *
 * A layer for several machines says which entries are whose with overrides:
 * SRC_URI:append:<machine> (SRC_URI_append_<machine> before Yocto 3.4) and
 * KBUILD_DEFCONFIG:<machine>. A file is judged for one machine: the one
 * whose subdirectory holds it, else the override of the line that lists it;
 * with that machine's entries and the ones of no override, never another
 * machine's. A file of no machine gets the entries of no override.
 * SRC_URI:remove (under an override: for that machine) takes whole words
 * out, after everything else, as BitBake does.
 *
 * Files are read only inside the recipe's layer (the directory up with
 * conf/layer.conf, else the one holding recipes-*): a file:// entry or a
 * require that leaves it ("../../..", a symlink out) is named, not read.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/str.h"
#include "layout_priv.h"
#include "linux/arch.h"
#include "linux/linux.h"

#define MAX_URIS 64
#define MAX_DEFCONFIGS 16
#define MAX_EXTRA 8

struct recipe {
	char *uri[MAX_URIS];	/* file:// names, in order */
	char *word[MAX_URIS];	/* and each whole word, "file://NAME;PARAMS" */
	char *cond[MAX_URIS];	/* the machine override each is under, or NULL */
	/*
	 * How each was listed: SRC_URI = / += (PLAIN), SRC_URI:<override> =
	 * (SET: replaces the whole value for that override, += lines
	 * included), :append / :prepend (APPEND: added to what is left).
	 */
	enum { PLAIN, SET, APPEND } kind[MAX_URIS];
	size_t n;
	char *rm[MAX_URIS];	/* the words of SRC_URI:remove statements */
	char *rm_cond[MAX_URIS];	/* and their overrides */
	size_t nr_rm;
	char *kdef[MAX_DEFCONFIGS];	/* KBUILD_DEFCONFIG values, the last one wins */
	char *kdef_cond[MAX_DEFCONFIGS];
	size_t nr_kdef;
	char *version, *version_why;	/* of no override (or the recipe's name) */
	/* LINUX_VERSION:<override> = "6.12.5": per machine */
	char *ov_version[MAX_DEFCONFIGS], *ov_version_why[MAX_DEFCONFIGS];
	char *ov_version_cond[MAX_DEFCONFIGS];
	size_t nr_ov_version;
	char *compat;		/* COMPATIBLE_MACHINE when it names one machine */
	const struct st_layout_trees *trees;	/* the layer, what may be read */
	const char *top;	/* its directory */
	char *outside[MAX_URIS];	/* includes out of it, not read */
	size_t nr_outside;
	bool not_default;	/* DEFAULT_PREFERENCE = "-1" */
	/* NAME[:override] = "x.inc": for a "require ${NAME}" */
	char *incvar[MAX_EXTRA], *incvar_cond[MAX_EXTRA], *incvar_val[MAX_EXTRA];
	size_t nr_incvar;
	const char *force_cond;	/* the override an included file is read under */
	/* FILESEXTRAPATHS below the recipe's directory ("linux-starfive", "${PN}") */
	char *extra[MAX_EXTRA];
	size_t nr_extra;
};

static void recipe_free(struct recipe *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->uri[i]);
		free(r->word[i]);
		free(r->cond[i]);
	}
	for (i = 0; i < r->nr_rm; i++) {
		free(r->rm[i]);
		free(r->rm_cond[i]);
	}
	for (i = 0; i < r->nr_kdef; i++) {
		free(r->kdef[i]);
		free(r->kdef_cond[i]);
	}
	for (i = 0; i < r->nr_outside; i++)
		free(r->outside[i]);
	free(r->version);
	free(r->version_why);
	for (i = 0; i < r->nr_ov_version; i++) {
		free(r->ov_version[i]);
		free(r->ov_version_why[i]);
		free(r->ov_version_cond[i]);
	}
	free(r->compat);
	for (i = 0; i < r->nr_extra; i++)
		free(r->extra[i]);
	for (i = 0; i < r->nr_incvar; i++) {
		free(r->incvar[i]);
		free(r->incvar_cond[i]);
		free(r->incvar_val[i]);
	}
	memset(r, 0, sizeof(*r));
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n > k && !strcmp(s + n - k, suf);
}

/* The quoted value after the first '=' of @line, malloc'ed, or NULL. */
static char *quoted(const char *line)
{
	const char *p = strchr(line, '='), *e;

	if (!p || !(p = strchr(p, '"')) || !(e = strchr(p + 1, '"')))
		return NULL;
	return strndup(p + 1, e - p - 1);
}

#define MAX_OVERRIDES 8

/*
 * The machine a file is judged for and the overrides BitBake gives it:
 * MACHINE itself, and the MACHINEOVERRIDES its conf/machine/NAME.conf
 * puts before it (milkv-duo256m.conf: MACHINEOVERRIDES =. "milkv-duo:").
 */
struct machine {
	const char *name;		/* NULL: none in particular */
	char *ov[MAX_OVERRIDES];	/* lowest priority first */
	size_t n;
	/*
	 * Its TARGET_ARCH (aarch64, arm, riscv64...), from the tune its conf
	 * requires, or the arch directory a file is in; FILESOVERRIDES has
	 * it, so files/arm/defconfig is the defconfig of every arm machine.
	 */
	const char *tarch;
	char why[PATH_MAX + 300];	/* "FILE:LINE: require ..." */
};

static void machine_free(struct machine *m)
{
	while (m->n)
		free(m->ov[--m->n]);
}


/*
 * How strongly an override @cond applies to @m: -1 not at all, 0 for no
 * override, then the MACHINEOVERRIDES in order, the machine's own name
 * highest (a later override wins in BitBake).
 */
static int cond_rank(const char *cond, const struct machine *m)
{
	size_t i;

	if (!cond)
		return 0;
	if (!m->name)
		return -1;
	if (!strcmp(cond, m->name))
		return MAX_OVERRIDES + 1;
	for (i = m->n; i--;)
		if (!strcmp(cond, m->ov[i]))
			return (int)i + 1;
	return -1;
}

static bool applies(const char *cond, const struct machine *m)
{
	return cond_rank(cond, m) >= 0;
}

/* The overrides of "MACHINEOVERRIDES =. "a:b:"" (or :prepend) into @m. */
static int add_overrides(struct machine *m, const char *line)
{
	char *v = quoted(line), *tok, *save = NULL;
	char *ov[MAX_OVERRIDES];
	size_t n = 0, i;

	if (!v)
		return 0;
	for (tok = strtok_r(v, ":", &save); tok && n < MAX_OVERRIDES;
	     tok = strtok_r(NULL, ":", &save))
		if (tok[0] && !strchr(tok, '$') && strcmp(tok, m->name))
			ov[n++] = tok;
	/* prepended: below the ones already read */
	for (i = 0; i < n && m->n < MAX_OVERRIDES; i++) {
		memmove(m->ov + i + 1, m->ov + i, (m->n - i) * sizeof(*m->ov));
		if (!(m->ov[i] = strdup(ov[i]))) {
			memmove(m->ov + i, m->ov + i + 1, (m->n - i) * sizeof(*m->ov));
			free(v);
			return -ENOMEM;
		}
		m->n++;
	}
	free(v);
	return 0;
}

/* SOC_FAMILY = "a:b" (soc-family.inc puts it in MACHINEOVERRIDES, above the rest) */
static int add_soc_family(struct machine *m, const char *line)
{
	char *v = quoted(line), *tok, *save = NULL;
	int ret = 0;

	for (tok = v ? strtok_r(v, ":", &save) : NULL; tok && !ret && m->n < MAX_OVERRIDES;
	     tok = strtok_r(NULL, ":", &save))
		if (tok[0] && !strchr(tok, '$') && !(m->ov[m->n++] = strdup(tok))) {
			m->n--;
			ret = -ENOMEM;
		}
	free(v);
	return ret;
}

static int read_machine_conf(struct machine *m, const char *top, const char *path, int depth);

/*
 * "require X" of machine conf @path (line @n): its tune's TARGET_ARCH,
 * then X itself when it is in the layer: BBPATH-relative (X has a '/',
 * conf/machine/include/sun7i.inc), else beside @path (milkv-duo.conf).
 */
static int machine_require(struct machine *m, const char *top, const char *path,
			   const char *x, int n, int depth)
{
	const char *slash = strrchr(path, '/'), *t = st_arch_yocto_tune(x);
	char p[PATH_MAX];

	if (t && !m->tarch) {
		m->tarch = t;
		snprintf(m->why, sizeof(m->why), "%s:%d: require %s", path, n, x);
	}
	if (strchr(x, '/') ? st_pathf(p, "%s/%s", top, x) :
	    st_pathf(p, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, x))
		return 0;
	return read_machine_conf(m, top, p, depth + 1);
}

/*
 * Machine conf @path of the layer @top: its MACHINEOVERRIDES and SOC_FAMILY,
 * its tune, and those of what it requires from the layer. Not found, not
 * readable: none of them.
 */
static int read_machine_conf(struct machine *m, const char *top, const char *path, int depth)
{
	char line[512], inc[256];
	const char *q;
	size_t k;
	int ret = 0, n = 0;
	FILE *f;

	if (depth > 4 || !(f = st_fopen_regular(path)))
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		n++;
		if (!strncmp(line, "MACHINEOVERRIDES", 16) &&
		    (strstr(line, "=.") || strstr(line, ":prepend")))
			ret = add_overrides(m, line);
		else if (!strncmp(line, "SOC_FAMILY", 10) && strchr(" \t?=", line[10]))
			ret = add_soc_family(m, line);
		else if (!strncmp(line, "require ", 8) || !strncmp(line, "include ", 8)) {
			q = line + 8 + strspn(line + 8, " \t");
			k = strcspn(q, " \t\n");
			if (k && k < sizeof(inc) && !memchr(q, '$', k)) {
				snprintf(inc, sizeof(inc), "%.*s", (int)k, q);
				ret = machine_require(m, top, path, inc, n, depth);
			}
		}
	}
	fclose(f);
	return ret;
}

/*
 * The machine @name of the layer @top: conf/machine/NAME.conf read. A name
 * that is a TARGET_ARCH (files/arm/defconfig) is that arch, no machine.
 */
static int machine_load(struct machine *m, const char *top, const char *name)
{
	char p[PATH_MAX];

	memset(m, 0, sizeof(*m));
	m->name = name;
	if (!name)
		return 0;
	if ((m->tarch = st_arch_yocto_target(name))) {
		snprintf(m->why, sizeof(m->why), "TARGET_ARCH %s (its override or directory)", name);
		return 0;
	}
	if (strchr(name, '/') || st_pathf(p, "%s/conf/machine/%s.conf", top, name))
		return 0;
	/* an override that is a SoC family (k1, sun7i): its include, by convention */
	if (access(p, F_OK) && st_pathf(p, "%s/conf/machine/include/%s.inc", top, name))
		return 0;
	return read_machine_conf(m, top, p, 0);
}

/* A word of a ":remove" statement, under the override @cond. */
static int add_removed(struct recipe *r, const char *word, size_t len, const char *cond)
{
	if (r->nr_rm == MAX_URIS)
		return 0;
	if (!(r->rm[r->nr_rm] = strndup(word, len)) ||
	    (cond && !(r->rm_cond[r->nr_rm] = strdup(cond)))) {
		free(r->rm[r->nr_rm]);
		return -ENOMEM;
	}
	r->nr_rm++;
	return 0;
}

/*
 * Every "file://NAME" of @line (NAME up to ';', a quote or a blank) into
 * @r, under the override @cond; the words of a ":remove" statement (@drop)
 * into its removals instead.
 */
static int add_uris(struct recipe *r, const char *line, const char *cond, bool drop,
		    bool op)
{
	const char *p = line, *e, *w, *start;
	int ret;

	while ((p = strstr(p, "file://"))) {
		start = p;
		p += 7;
		e = p + strcspn(p, " \t\"';\\\n");
		w = start + strcspn(start, " \t\"'\\\n");
		if (drop) {
			ret = add_removed(r, start, w - start, cond);
			if (ret)
				return ret;
		} else if (e > p && r->n < MAX_URIS) {
			/* in a file required under an override: for that override */
			if (!cond && r->force_cond) {
				cond = r->force_cond;
				op = true;
			}
			r->kind[r->n] = op ? APPEND : cond ? SET : PLAIN;
			if (!(r->uri[r->n] = strndup(p, e - p)) ||
			    !(r->word[r->n] = strndup(start, w - start)) ||
			    (cond && !(r->cond[r->n] = strdup(cond)))) {
				r->n++;		/* freed with the recipe */
				return -ENOMEM;
			}
			r->n++;
		}
		p = w;
	}
	return 0;
}

/*
 * Entry @i is taken out for @machine (NULL: none in particular): BitBake
 * applies ":remove" last, to whole words, whatever the order of the
 * statements; one under an override only for that machine.
 */
static bool removed(const struct recipe *r, size_t i, const struct machine *m)
{
	size_t k;

	for (k = 0; k < r->nr_rm; k++)
		if (!strcmp(r->rm[k], r->word[i]) && applies(r->rm_cond[k], m))
			return true;
	return false;
}

/*
 * The override a statement's variable name carries: "board" of
 * SRC_URI:append:board, KBUILD_DEFCONFIG:board and the old SRC_URI_append_board,
 * into @cond (NULL for none); *@drop for a :remove. @var: the variable.
 */
static int statement_cond_op(const char *line, const char *var, char **cond, bool *drop,
			     bool *op)
{
	static const char *const ops[] = { "append", "prepend", "remove" };
	size_t vl = strlen(var), n, k, i;
	const char *p, *end;
	char sep;

	*cond = NULL;
	*drop = false;
	*op = false;
	/* the name with its overrides: up to a blank or the operator */
	n = strcspn(line, " \t=+?.");
	if (n <= vl || strncmp(line, var, vl) || (line[vl] != ':' && line[vl] != '_'))
		return 0;
	sep = line[vl];
	end = line + n;
	for (p = line + vl + 1; p < end; p += k + 1) {
		const char *e = memchr(p, sep, (size_t)(end - p));

		k = (size_t)((e ? e : end) - p);
		for (i = 0; i < ARRAY_SIZE(ops); i++)
			if (k == strlen(ops[i]) && !strncmp(p, ops[i], k))
				break;
		if (i == 2)
			*drop = true;
		if (i < ARRAY_SIZE(ops))
			*op = true;
		if (i < ARRAY_SIZE(ops) || !k)
			continue;
		free(*cond);
		if (!(*cond = strndup(p, k)))
			return -ENOMEM;
	}
	return 0;
}

static int statement_cond(const char *line, const char *var, char **cond, bool *drop)
{
	bool op;

	return statement_cond_op(line, var, cond, drop, &op);
}

static int add_kdef(struct recipe *r, const char *line)
{
	char *cond, *v;
	bool drop;
	int ret = statement_cond(line, "KBUILD_DEFCONFIG", &cond, &drop);

	if (ret || drop || r->nr_kdef == MAX_DEFCONFIGS || !(v = quoted(line))) {
		free(cond);
		return ret;
	}
	r->kdef[r->nr_kdef] = v;
	r->kdef_cond[r->nr_kdef++] = cond;
	return 0;
}

/*
 * Of @n values under the overrides @cond (NULL: none), the one @m takes:
 * its strongest override of rank @min or more, the later of a tie (as
 * BitBake's last assignment); @n when none applies.
 */
static size_t strongest(char *const *cond, size_t n, const struct machine *m, int min)
{
	size_t i, best = n;
	int rank, top = min;

	for (i = 0; i < n; i++) {
		rank = cond_rank(cond[i], m);
		if (rank >= top) {
			top = rank;
			best = i;
		}
	}
	return best;
}

/*
 * KBUILD_DEFCONFIG for @m: the value under its strongest override, else
 * the one of no override; NULL when none is set, "" when set empty (as
 * meta-riscv's linux-milkv-duo.bb does: no in-tree defconfig then).
 */
static const char *kbuild_defconfig(const struct recipe *r, const struct machine *m)
{
	size_t i = strongest(r->kdef_cond, r->nr_kdef, m, 0);

	return i < r->nr_kdef ? r->kdef[i] : NULL;
}

/*
 * kernel-yocto's find_sccs(): a SRC_URI file is a defconfig when its name
 * without the extension has "defconfig" in it (defconfig,
 * milkv-duo_defconfig), unless it is a .cfg or .scc fragment.
 */
static bool is_defconfig_uri(const char *uri)
{
	const char *b = strrchr(uri, '/'), *dot;
	size_t len;

	b = b ? b + 1 : uri;
	dot = strrchr(b, '.');
	if (dot && dot != b && (!strcmp(dot, ".cfg") || !strcmp(dot, ".scc")))
		return false;
	len = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	return memmem(b, len, "defconfig", 9) != NULL;
}


static int read_lines(const char *path, struct recipe *r, int depth);

/*
 * "require x.inc" / "include x.inc": the file next to @path, read in place
 * (a layer's machine entries are often in a shared .inc); a name with a
 * '/' is BBPATH-relative, looked for from the top of the recipe's layer
 * (require recipes-kernel/linux/linux-mainline-common.inc). A name with a
 * variable, or one out of the layer, is not read.
 */
static int read_included(const char *path, const char *line, struct recipe *r, int depth);

/*
 * "require ${NAME}" (meta-xilinx: LINUX_MB_INC:microblaze =
 * "linux-microblaze.inc"): each value the recipe gave NAME so far, read
 * under its override (what it lists is for that override only).
 */
static int read_var_included(const char *path, const char *name, size_t len,
			     struct recipe *r, int depth)
{
	const char *saved = r->force_cond;
	char line[PATH_MAX + 16];
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < r->nr_incvar; i++) {
		if (strlen(r->incvar[i]) != len || strncmp(r->incvar[i], name, len) ||
		    !r->incvar_val[i][0] || strchr(r->incvar_val[i], '$'))
			continue;
		snprintf(line, sizeof(line), "require %s", r->incvar_val[i]);
		r->force_cond = r->incvar_cond[i] ? r->incvar_cond[i] : saved;
		ret = read_included(path, line, r, depth);
		r->force_cond = saved;
	}
	return ret;
}

/* NAME[:override] = "x.inc" (a file a "require ${NAME}" may name). */
static int add_incvar(struct recipe *r, const char *line)
{
	size_t n = strcspn(line, " \t:=?+.");
	char *cond = NULL, *v, *name;
	bool drop;
	int ret;

	if (!n || r->nr_incvar == MAX_EXTRA || !(v = quoted(line)))
		return 0;
	if (!has_suffix(v, ".inc") && v[0]) {
		free(v);
		return 0;
	}
	name = strndup(line, n);
	ret = name ? statement_cond(line, name, &cond, &drop) : -ENOMEM;
	if (ret || drop) {
		free(name);
		free(v);
		free(cond);
		return ret;
	}
	r->incvar[r->nr_incvar] = name;
	r->incvar_cond[r->nr_incvar] = cond;
	r->incvar_val[r->nr_incvar++] = v;
	return 0;
}

static int read_included(const char *path, const char *line, struct recipe *r, int depth)
{
	const char *p = line + strcspn(line, " \t");
	const char *slash = strrchr(path, '/');
	char *inc;
	size_t n;
	int ret;

	p += strspn(p, " \t");
	n = strcspn(p, " \t\n");
	if (n > 3 && p[0] == '$' && p[1] == '{' && p[n - 1] == '}' && depth < 4)
		return read_var_included(path, p + 2, n - 3, r, depth);
	if (!n || memchr(p, '$', n) || depth >= 4)
		return 0;
	/* BBPATH-relative (recipes-kernel/linux/x.inc): from the layer's top */
	if (memchr(p, '/', n) && r->top) {
		if (asprintf(&inc, "%s/%.*s", r->top, (int)n, p) < 0)
			return -ENOMEM;
	} else if (asprintf(&inc, "%.*s%.*s", slash ? (int)(slash - path + 1) : 0, path,
			    (int)n, p) < 0) {
		return -ENOMEM;
	}
	if (!st_layout_inside(r->trees, inc)) {
		/* out of the layer: named, not read */
		if (r->nr_outside < MAX_URIS) {
			r->outside[r->nr_outside++] = inc;
			return 0;
		}
		free(inc);
		return 0;
	}
	ret = access(inc, R_OK) ? 0 : read_lines(inc, r, depth + 1);
	free(inc);
	return ret;
}

/*
 * COMPATIBLE_MACHINE of no override, kept when it names one machine (a
 * regular expression of several is no machine in particular).
 */
static int set_compat(struct recipe *r, const char *line)
{
	char *v = quoted(line);

	size_t n;

	if (!v)
		return 0;
	free(r->compat);
	r->compat = NULL;
	/* "(k1)": a regular expression of one name */
	n = strlen(v);
	if (n > 2 && v[0] == '(' && v[n - 1] == ')') {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
	if (v[0] && !v[strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-_")]) {
		r->compat = v;
		return 0;
	}
	free(v);
	return 0;
}

/*
 * FILESEXTRAPATHS =. "${THISDIR}/linux-starfive:" (or :prepend): the
 * directories below the recipe's that BitBake searches first for its
 * file:// entries. Others (absolute, another variable) are not read.
 */
static int add_extra(struct recipe *r, const char *line)
{
	static const char *const here[] = { "${THISDIR}", "${FILE_DIRNAME}" };
	char *v = quoted(line), *tok, *save = NULL;
	size_t i, k;
	int ret = 0;

	for (tok = v ? strtok_r(v, ":", &save) : NULL; tok && !ret && r->nr_extra < MAX_EXTRA;
	     tok = strtok_r(NULL, ":", &save)) {
		for (i = 0; i < ARRAY_SIZE(here); i++) {
			k = strlen(here[i]);
			if (strncmp(tok, here[i], k) || (tok[k] && tok[k] != '/'))
				continue;
			tok += k + (tok[k] == '/');
			if (!tok[0] || strstr(tok, "..") ||
			    (strchr(tok, '$') && strcmp(tok, "${PN}") && strcmp(tok, "${BPN}")))
				break;
			if (!(r->extra[r->nr_extra] = strdup(tok)))
				ret = -ENOMEM;
			else
				r->nr_extra++;
			break;
		}
	}
	free(v);
	return ret;
}

/*
 * LINUX_VERSION = "6.4.4" (@v, line @n of @path) into @r: of no override,
 * the last one wins; under an override (LINUX_VERSION:jh7110), kept for
 * the machines that have it.
 */
static int add_version(struct recipe *r, const char *path, int n, const char *line,
		       const char *v)
{
	size_t len = st_layout_version_len(v), k;
	char *cond, *why = NULL, *ver;
	bool drop;
	int ret = statement_cond(line, "LINUX_VERSION", &cond, &drop);

	if (ret || drop || !len) {
		free(cond);
		return ret;
	}
	ver = strndup(v, len);
	if (!ver || asprintf(&why, "%s:%d: LINUX_VERSION%s%s \"%s\"", path, n,
			     cond ? ":" : "", cond ? cond : "", v) < 0) {
		free(ver);
		free(cond);
		return -ENOMEM;
	}
	if (!cond) {
		free(r->version);
		free(r->version_why);
		r->version = ver;
		r->version_why = why;
		return 0;
	}
	k = r->nr_ov_version;
	if (k == MAX_DEFCONFIGS) {
		free(ver);
		free(why);
		free(cond);
		return 0;
	}
	r->ov_version[k] = ver;
	r->ov_version_why[k] = why;
	r->ov_version_cond[k] = cond;
	r->nr_ov_version++;
	return 0;
}

static int read_lines(const char *path, struct recipe *r, int depth)
{
	char line[1024], *v, *cond = NULL;
	bool cont = false, drop = false, op = false;
	size_t len;
	int n = 0, ret = 0;
	FILE *f = st_fopen_regular(path);

	if (!f)
		return 0;
	/*
	 * SRC_URI entries: every file:// of the recipe, under the override of
	 * the statement it is in (a continuation line is in the one before).
	 */
	while (!ret && fgets(line, sizeof(line), f)) {
		n++;
		/* a comment names no entry, whatever it quotes */
		if (!cont && line[strspn(line, " \t")] == '#')
			continue;
		if (!cont) {
			free(cond);
			ret = statement_cond_op(line, "SRC_URI", &cond, &drop, &op);
			if (!ret && (!strncmp(line, "require ", 8) ||
				     !strncmp(line, "include ", 8)))
				ret = read_included(path, line, r, depth);
		}
		len = strcspn(line, "\n");
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		cont = len && line[len - 1] == '\\';
		if (!ret)
			ret = add_uris(r, line, cond, drop, op);
		if (!ret && !strncmp(line, "KBUILD_DEFCONFIG", 16))
			ret = add_kdef(r, line);
		if (!ret && !cont && !strncmp(line, "COMPATIBLE_MACHINE", 18) &&
		    strchr(" \t?=", line[18]))
			ret = set_compat(r, line);
		if (!ret && !cont && !strncmp(line, "FILESEXTRAPATHS", 15))
			ret = add_extra(r, line);
		if (!ret && !cont && line[0] >= 'A' && line[0] <= 'Z' && strstr(line, ".inc\""))
			ret = add_incvar(r, line);
		if (!ret && !cont && !strncmp(line, "DEFAULT_PREFERENCE", 18) &&
		    strchr(" \t?=", line[18]) && (v = quoted(line))) {
			r->not_default = atoi(v) < 0;
			free(v);
		}
		/* LINUX_VERSION, not LINUX_VERSION_EXTENSION */
		if (!ret && !strncmp(line, "LINUX_VERSION", 13) && strchr(" \t?=:", line[13]) &&
		    (v = quoted(line))) {
			ret = add_version(r, path, n, line, v);
			free(v);
		}
	}
	fclose(f);
	free(cond);
	return ret;
}

static int read_recipe(const char *path, const char *name, struct recipe *r)
{
	const char *us = strchr(name, '_');
	size_t len;
	int ret = read_lines(path, r, 0);

	/* linux-yocto_6.6.bb */
	if (!ret && !r->version && us && (len = st_layout_version_len(us + 1))) {
		r->version = strndup(us + 1, len);
		if (asprintf(&r->version_why, "recipe name %s", name) < 0)
			ret = -ENOMEM;
	}
	return ret;
}

/* @dir/@sub/@ov/@uri (@ov may be NULL) when it is readable, malloc'ed. */
static char *try_uri(const char *dir, const char *sub, const char *ov, const char *uri)
{
	char *p;

	if (asprintf(&p, "%s/%s/%s%s%s", dir, sub, ov ? ov : "", ov ? "/" : "", uri) < 0)
		return NULL;
	if (!access(p, R_OK))
		return p;
	free(p);
	return NULL;
}

/*
 * Where @uri of recipe @r in @dir is, as BitBake's FILESPATH looks: in its
 * FILESEXTRAPATHS, files/, the recipe's PN, @dir; in each first under the
 * overrides of @m,
 * strongest first (the machine, its MACHINEOVERRIDES, its TARGET_ARCH).
 */
static char *find_uri(const char *dir, const char *pn, const struct recipe *r,
		      const char *uri, const struct machine *m)
{
	const char *sub[MAX_EXTRA + 3];
	char *p = NULL;
	size_t i, k, n = 0;

	/* FILESEXTRAPATHS first, the last one prepended first */
	for (i = r->nr_extra; i--;)
		sub[n++] = !strcmp(r->extra[i], "${PN}") || !strcmp(r->extra[i], "${BPN}") ?
			   pn : r->extra[i];
	sub[n++] = "files";
	sub[n++] = pn;
	sub[n++] = ".";
	for (i = 0; i < n && !p; i++) {
		if (m->name)
			p = try_uri(dir, sub[i], m->name, uri);
		for (k = m->n; !p && k--;)
			p = try_uri(dir, sub[i], m->ov[k], uri);
		if (!p && m->tarch && (!m->name || strcmp(m->tarch, m->name)))
			p = try_uri(dir, sub[i], m->tarch, uri);
		if (!p)
			p = try_uri(dir, sub[i], NULL, uri);
	}
	return p;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * The machine subdirectory @path is in (files/<machine>/x.cfg), or NULL:
 * the same names are looked up there first.
 */
static char *machine_of(const char *dir, const char *path)
{
	size_t n = strlen(dir);
	const char *rest, *s1, *s2;

	if (strncmp(path, dir, n) || path[n] != '/')
		return NULL;
	rest = path + n + 1;
	s1 = strchr(rest, '/');
	s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	if (!s2 || strchr(s2 + 1, '/'))
		return NULL;
	return strndup(s1 + 1, s2 - s1 - 1);
}

/* The LINUX_VERSION of @m's strongest override, else of none; NULL: none. */
static const char *version_of(const struct recipe *r, const struct machine *m,
			      const char **why)
{
	size_t i = strongest(r->ov_version_cond, r->nr_ov_version, m, 1);

	if (i == r->nr_ov_version) {
		*why = r->version_why;
		return r->version;
	}
	*why = r->ov_version_why[i];
	return r->ov_version[i];
}

/*
 * The strongest override of @m that SRC_URI is set under (SRC_URI:jh7110 =
 * "..."): 0 when none is, and the value of no override stands.
 */
static int set_rank(const struct recipe *r, const struct machine *m)
{
	int best = 0, rank;
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->kind[i] == SET && (rank = cond_rank(r->cond[i], m)) > best)
			best = rank;
	return best;
}

/* Entry @i is in SRC_URI's value for @m (@best: set_rank()). */
static bool entry_applies(const struct recipe *r, size_t i, const struct machine *m, int best)
{
	switch (r->kind[i]) {
	case APPEND:
		return applies(r->cond[i], m);
	case SET:
		return best && cond_rank(r->cond[i], m) == best;
	default:
		return !best;
	}
}

/*
 * Entry @i of @r as a part of @l, below the owned one. One the build would
 * look for in vain (a defconfig: the build's base) is named as not found.
 */
static int add_entry(struct st_layout *l, const char *dir, const char *pn,
		     const struct recipe *r, size_t i, const struct machine *m)
{
	char *p = find_uri(dir, pn, r, r->uri[i], m);
	int ret = p ? st_layout_confine(l, r->trees, p) : 0;

	if (ret > 0)
		ret = st_layout_add_part(l, p, false);
	else if (!p && is_defconfig_uri(r->uri[i]))
		ret = st_layout_add_not_found(l, "%s (SRC_URI, no file for %s%s%s%s)",
					      r->uri[i], m->name ? "machine " : "any machine",
					      m->name ? m->name : "",
					      m->tarch ? ", arch " : "", m->tarch ? m->tarch : "");
	free(p);
	return ret;
}

/* The SRC_URI entry of @r that is @path for @machine (NULL: any), or r->n. */
static size_t find_own(const char *dir, const char *pn, const struct recipe *r,
		       const char *path, const char *machine)
{
	struct machine probe = { 0 };
	size_t own;
	char *p;

	for (own = 0; own < r->n; own++) {
		probe.name = machine ? machine : r->cond[own];
		if ((machine && r->cond[own] && strcmp(r->cond[own], machine)) ||
		    removed(r, own, &probe))
			continue;
		p = find_uri(dir, pn, r, r->uri[own], &probe);
		if (p && same_file(p, path)) {
			free(p);
			break;
		}
		free(p);
	}
	return own;
}

/*
 * @path's stack as kernel-yocto merges it for the machine it is judged
 * for (its subdirectory's, else its SRC_URI line's override, else the one
 * COMPATIBLE_MACHINE names): the defconfig, then the .cfg fragments in
 * SRC_URI order up to @path. An in-tree KBUILD_DEFCONFIG wins over a
 * defconfig in SRC_URI, which the build then drops; without one (unset or
 * set empty) the SRC_URI defconfig is the base. A defconfig judged itself
 * is a base: nothing is below it.
 */
static int fill(struct st_layout *l, const char *dir, const char *top, const char *pn,
		const struct recipe *r, const char *path, const char *machine)
{
	struct machine m;
	const char *base;
	const char *version, *why;
	bool own_def;
	size_t i, own = find_own(dir, pn, r, path, machine);
	int ret, best;

	if (own == r->n)
		return 0;
	if (!machine)
		machine = r->cond[own] ? r->cond[own] : r->compat;
	ret = machine_load(&m, top, machine);
	best = set_rank(r, &m);
	base = kbuild_defconfig(r, &m);
	if (base && !base[0])
		base = NULL;
	own_def = is_defconfig_uri(r->uri[own]);
	for (i = 0; !ret && !own_def && !base && i < r->n; i++) {
		if (i != own && is_defconfig_uri(r->uri[i]) && entry_applies(r, i, &m, best) &&
		    !removed(r, i, &m))
			ret = add_entry(l, dir, pn, r, i, &m);
	}
	for (i = 0; ret >= 0 && !own_def && i < own; i++) {
		size_t len = strlen(r->uri[i]);

		if (len >= 4 && !strcmp(r->uri[i] + len - 4, ".cfg") &&
		    entry_applies(r, i, &m, best) && !removed(r, i, &m))
			ret = add_entry(l, dir, pn, r, i, &m);
	}
	for (i = 0; ret >= 0 && i < r->nr_outside; i++)
		ret = st_layout_confine(l, r->trees, r->outside[i]);
	if (ret >= 0)
		ret = st_layout_add_part(l, path, true);
	if (!ret && base && !own_def)
		ret = st_layout_set_base(l, base);
	/* make's ARCH for the machine's TARGET_ARCH (aarch64: arm64) */
	if (!ret && m.tarch && st_arch_of_machine(m.tarch))
		ret = st_layout_set_arch(l, st_arch_of_machine(m.tarch), "%s", m.why);
	if (!ret && (version = version_of(r, &m, &why)))
		ret = st_layout_set_version(l, version, "%s", why);
	if (!ret)
		l->kind = ST_LAYOUT_YOCTO;
	machine_free(&m);
	return ret ? ret : 1;
}

/*
 * The layer a recipe of @dir is in, into @out: the nearest directory up
 * (or ".") with conf/layer.conf, else the one holding the recipes-*
 * directory, else @dir.
 */
static void layer_of(const char *dir, char *out, size_t size)
{
	char p[PATH_MAX], *slash;
	const char *r, *rec = NULL;

	snprintf(out, size, "%s", dir);
	for (;;) {
		if (!st_pathf(p, "%s/conf/layer.conf", out) && !access(p, F_OK))
			return;
		slash = strrchr(out, '/');
		if (!slash || slash == out)
			break;
		*slash = '\0';
	}
	if (dir[0] != '/' && !access("conf/layer.conf", F_OK)) {
		snprintf(out, size, ".");
		return;
	}
	for (r = dir; (r = strstr(r, "recipes-")); r++)
		if (r == dir || r[-1] == '/')
			rec = r;
	if (!rec)
		snprintf(out, size, "%s", dir);
	else if (rec == dir)
		snprintf(out, size, ".");
	else if (rec == dir + 1)
		snprintf(out, size, "/");
	else
		snprintf(out, size, "%.*s", (int)(rec - dir - 1), dir);
}

/*
 * BitBake's rule: NAME.bbappend applies to NAME.bb, NAME%.bbappend to
 * every recipe whose name (without .bb) starts with NAME.
 */
static bool appends_to(const char *append, const char *recipe)
{
	size_t a = strlen(append) - strlen(".bbappend");
	size_t r = strlen(recipe) - strlen(".bb");

	if (a && append[a - 1] == '%')
		return a - 1 <= r && !strncmp(append, recipe, a - 1);
	return a == r && !strncmp(append, recipe, a);
}

static int recipe_filter(const struct dirent *de)
{
	return has_suffix(de->d_name, ".bb") || has_suffix(de->d_name, ".bbappend");
}

/*
 * Read recipe @name of @dir into @r, then (@name a .bb) every .bbappend of
 * @names that applies to it, in name order, as BitBake parses them. A file
 * that is a link out of the layer is not read.
 */
static int read_with_appends(const char *dir, const char *name, struct dirent **names,
			     int n, struct recipe *r)
{
	char *rp;
	int i, ret;

	if (asprintf(&rp, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	ret = st_layout_inside(r->trees, rp) ? read_recipe(rp, name, r) : 0;
	free(rp);
	for (i = 0; !ret && has_suffix(name, ".bb") && i < n; i++) {
		if (!has_suffix(names[i]->d_name, ".bbappend") ||
		    !appends_to(names[i]->d_name, name))
			continue;
		if (asprintf(&rp, "%s/%s", dir, names[i]->d_name) < 0)
			return -ENOMEM;
		if (st_layout_inside(r->trees, rp))
			ret = read_lines(rp, r, 0);
		free(rp);
	}
	return ret;
}

/* A .bbappend of @names that has its recipe among them. */
static bool has_recipe(const char *append, struct dirent **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (has_suffix(names[i]->d_name, ".bb") && appends_to(append, names[i]->d_name))
			return true;
	return false;
}

/* What makes BitBake build one recipe of several by default. */
struct pick {
	bool not_default;	/* DEFAULT_PREFERENCE = "-1" */
	/* NAME[:override] = "x.inc": for a "require ${NAME}" */
	char *incvar[MAX_EXTRA], *incvar_cond[MAX_EXTRA], *incvar_val[MAX_EXTRA];
	size_t nr_incvar;
	const char *force_cond;	/* the override an included file is read under */
	struct st_kver v;	/* its kernel, 0.0 when it says none */
};

/*
 * Recipe @r (its stack @c) is preferred over @best (when @have one): not
 * one that asks not to be the default, then the highest version (BitBake's
 * choice without PREFERRED_VERSION: meta-xilinx's linux-xlnx_2022.1.bb to
 * linux-xlnx_6.18.10-v2026.1.bb all list the same files); a tie goes to
 * the later name. @best is updated when it is.
 */
static bool preferred(const struct recipe *r, const struct st_layout *c, struct pick *best,
		      bool have)
{
	struct pick p = { .not_default = r->not_default };

	if (!c->version || st_kver_parse(c->version, &p.v))
		memset(&p.v, 0, sizeof(p.v));
	if (have && (p.not_default > best->not_default ||
		     (p.not_default == best->not_default && st_kver_cmp(p.v, best->v) < 0)))
		return false;
	*best = p;
	return true;
}

/*
 * Ask every recipe in @dir whether it lists @path (in name order, not the
 * directory's, which follows creation): each .bb with its .bbappends
 * merged, then the .bbappends of recipes elsewhere, alone. Of several
 * that list it, the one BitBake would build (preferred()).
 */
static int try_dir(const char *dir, const char *path, struct st_layout *l)
{
	struct st_layout_trees layer = { .n = 0 };
	struct recipe r = { 0 };
	char *pn, *machine = machine_of(dir, path), top[PATH_MAX];
	struct dirent **names = NULL;
	struct st_layout c;
	struct pick best = { 0 };
	bool found = false;
	const char *name;
	int ret = 0, n, i;

	n = scandir(dir, &names, recipe_filter, alphasort);
	if (n <= 0) {
		free(names);
		free(machine);
		return 0;
	}
	layer_of(dir, top, sizeof(top));
	ret = st_layout_trees_add(&layer, top);
	for (i = 0; !ret && i < n; i++) {
		name = names[i]->d_name;
		if (has_suffix(name, ".bbappend") && has_recipe(name, names, n))
			continue;
		r.trees = &layer;
		r.top = top;
		pn = strndup(name, strcspn(name, "_."));
		memset(&c, 0, sizeof(c));
		ret = pn ? read_with_appends(dir, name, names, n, &r) : -ENOMEM;
		if (!ret)
			ret = fill(&c, dir, top, pn, &r, path, machine);
		if (ret == 1 && preferred(&r, &c, &best, found)) {
			st_layout_release(l);
			*l = c;
			found = true;
		} else {
			st_layout_release(&c);
		}
		if (ret > 0)
			ret = 0;
		recipe_free(&r);
		free(pn);
	}
	if (!ret && found)
		ret = 1;
	if (ret <= 0)
		st_layout_release(l);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(machine);
	st_layout_trees_release(&layer);
	return ret;
}

int st_layout_yocto(const char *path, struct st_layout *l, struct st_error *err)
{
	char dir[PATH_MAX], *slash;
	int depth, ret = 0;

	if (!strstr(path, "recipes-kernel/") || snprintf(dir, sizeof(dir), "%s", path) >=
	    (int)sizeof(dir))
		return 0;
	/* the recipe sits up to three directories above its files */
	for (depth = 0; depth < 4 && !ret && (slash = strrchr(dir, '/')); depth++) {
		*slash = '\0';
		ret = try_dir(dir[0] ? dir : "/", path, l);
	}
	if (!ret && path[0] != '/' && !strchr(dir, '/'))
		ret = try_dir(".", path, l);
	if (ret < 0)
		return st_err(err, -ret, path, "%s", strerror(-ret));
	if (!ret)
		l->unplaced = "no recipe up to three directories above it lists it in SRC_URI";
	return ret;
}
