// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report model: cells of `size` figures and bloat-o-meter diffs, built
 * from a finished build or from files given by the user.
 */
#include <cjson/cJSON.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "common/error.h"
#include "common/str.h"
#include "defconfig/defconfig.h"
#include "elf/elf.h"
#include "report/report.h"
#include "sizes/sections.h"
#include "sizes/size_diff.h"

struct st_report_cell *st_report_cell(const struct st_report *r, size_t v, size_t a)
{
	if (v >= r->nvariants || a >= r->narches)
		return NULL;
	return &r->cells[v * r->narches + a];
}

static __int128 abs128(__int128 v)
{
	return v < 0 ? -v : v;
}

struct st_sd_row *st_report_top(const struct st_sd_table *t, unsigned int top, size_t *n)
{
	struct st_sd_row *out;
	bool *keep;
	size_t i, j, k = 0, want = top && top < t->nrows ? top : t->nrows;

	*n = 0;
	if (!want)
		return NULL;
	out = malloc(want * sizeof(*out));
	keep = calloc(t->nrows, sizeof(*keep));
	if (!out || !keep) {
		free(out);
		free(keep);
		return NULL;
	}
	/* want passes of selection: tables are small and top is 10. */
	for (j = 0; j < want; j++) {
		size_t best = t->nrows;

		for (i = 0; i < t->nrows; i++)
			if (!keep[i] && (best == t->nrows ||
					 abs128(t->rows[i].delta) > abs128(t->rows[best].delta)))
				best = i;
		keep[best] = true;
	}
	for (i = 0; i < t->nrows; i++)
		if (keep[i])
			out[k++] = t->rows[i];
	free(keep);
	*n = k;
	return out;
}

static void attr_clear(struct st_report_attr *a)
{
	free(a->option);
	free(a->from);
	free(a->to);
	free(a->towards);
	free(a->arch);
	free(a->resolved);
	free(a->changed);
	free(a->with);
	free(a->error);
}

void st_report_free(struct st_report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; r->cells && i < r->nvariants * r->narches; i++) {
		struct st_report_cell *c = &r->cells[i];

		free(c->variant);
		free(c->arch);
		free(c->object);
		free(c->error);
		if (c->has_diff)
			st_size_diff_free(&c->diff);
		free(c->names);
		free(c->resolved);
		free(c->cc);
		free(c->cc_wrapper);
	}
	free(r->cells);
	st_strv_free(r->variants, r->nvariants);
	st_strv_free(r->arches, r->narches);
	for (i = 0; i < r->nskipped; i++) {
		free(r->skipped[i].arch);
		free(r->skipped[i].reason);
		free(r->skipped[i].package);
	}
	free(r->skipped);
	for (i = 0; i < r->nattrs; i++)
		attr_clear(&r->attrs[i]);
	free(r->attrs);
	for (i = 0; i < r->noptions; i++) {
		for (size_t v = 0; r->options[i].values && v < r->nvariants; v++)
			free(r->options[i].values[v]);
		free(r->options[i].values);
		free(r->options[i].option);
	}
	free(r->options);
	for (i = 0; r->compilers && i < r->narches; i++)
		free(r->compilers[i]);
	free(r->compilers);
	free(r->defconfig);
	free(r->measured);
	free(r->baseline);
	free(r->tree);
	free(r);
}

/* Index of @s in @v, adding it when absent. -1 on ENOMEM. */
static long intern(char ***v, size_t *n, const char *s)
{
	char **nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return (long)i;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -1;
	return (long)(*n)++;
}

static long find(char **v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return (long)i;
	return -1;
}

static int add_skip(struct st_report *r, const char *arch, const char *reason, const char *pkg)
{
	struct st_report_skip *ns = realloc(r->skipped, (r->nskipped + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	r->skipped = ns;
	ns = &ns[r->nskipped];
	ns->arch = strdup(arch);
	ns->reason = strdup(reason ? reason : "");
	ns->package = strdup(pkg ? pkg : "");
	r->nskipped++;
	return ns->arch && ns->reason && ns->package ? 0 : -ENOMEM;
}

/* Move the baseline to column 0 so every renderer shows it first. */
static int baseline_first(struct st_report *r, const char *baseline, struct st_error *e)
{
	long b = find(r->variants, r->nvariants, baseline);
	char *tmp;

	if (b < 0)
		return st_err(e, ENOENT, NULL, "baseline '%s' is not among the variants", baseline);
	tmp = r->variants[b];
	memmove(&r->variants[1], &r->variants[0], b * sizeof(*r->variants));
	r->variants[0] = tmp;
	r->baseline = strdup(baseline);
	return r->baseline ? 0 : st_err(e, ENOMEM, NULL, "out of memory");
}

/* Fill the `size` figures of @c from @f. */
static int size_cell(struct st_report_cell *c, struct st_elf_file *f, struct st_error *e)
{
	struct st_size_result sr;
	int ret;

	memset(&sr, 0, sizeof(sr));
	ret = st_size_compute(&f, 1, &sr, e);
	if (ret)
		return ret;
	c->text = sr.text;
	c->data = sr.data;
	c->bss = sr.bss;
	c->total = sr.text + sr.data + sr.bss;
	st_size_free(&sr);
	return 0;
}

/*
 * Symbol names of a diff point into the mapped ELF files; copy them into
 * one block owned by the cell so the files can be closed.
 */
static int keep_names(struct st_report_cell *c)
{
	size_t t, i, len = 0;
	char *p;

	for (t = 0; t < c->diff.ntables; t++)
		for (i = 0; i < c->diff.tables[t].nrows; i++)
			len += strlen(c->diff.tables[t].rows[i].name) + 1;
	c->names = p = malloc(len + 1);
	if (!p)
		return -ENOMEM;
	for (t = 0; t < c->diff.ntables; t++) {
		for (i = 0; i < c->diff.tables[t].nrows; i++) {
			struct st_sd_row *row = &c->diff.tables[t].rows[i];
			size_t l = strlen(row->name) + 1;

			memcpy(p, row->name, l);
			row->name = p;
			p += l;
		}
	}
	return 0;
}

/* Sizes and diffs of one arch's column of cells. */
static int compute_arch(struct st_report *r, size_t a, struct st_error *e)
{
	struct st_elf_file **files = calloc(r->nvariants, sizeof(*files));
	struct st_report_cell *base = st_report_cell(r, 0, a);
	size_t v;
	int ret = 0;

	if (!files)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (v = 0; v < r->nvariants && !ret; v++) {
		struct st_report_cell *c = st_report_cell(r, v, a);

		if (!c->object)
			continue;
		ret = st_elf_open(&files[v], c->object, e);
		if (!ret)
			ret = size_cell(c, files[v], e);
	}
	for (v = 0; v < r->nvariants && !ret; v++) {
		struct st_report_cell *c = st_report_cell(r, v, a);

		if (!files[0] || !files[v])
			continue;
		c->has_base = true;
		c->delta_text = (int64_t)(c->text - base->text);
		c->delta_data = (int64_t)(c->data - base->data);
		c->delta_bss = (int64_t)(c->bss - base->bss);
		c->delta_total = (int64_t)(c->total - base->total);
		if (!v)
			continue;
		ret = st_size_diff(files[0], files[v], ST_SD_DEFAULT, &c->diff, e);
		if (ret)
			break;
		c->has_diff = true;
		ret = keep_names(c);
		if (ret)
			st_err(e, ret, NULL, "out of memory");
	}
	for (v = 0; v < r->nvariants; v++)
		st_elf_close(files[v]);
	free(files);
	return ret;
}

static int compute(struct st_report *r, struct st_error *e)
{
	size_t a;
	int ret;

	for (a = 0; a < r->narches; a++) {
		ret = compute_arch(r, a, e);
		if (ret)
			return ret;
	}
	return 0;
}

/* A new report's last step: its figures, then *@out; freed on an error. */
static int finish(struct st_report *r, int ret, struct st_report **out, struct st_error *e)
{
	if (!ret)
		ret = compute(r, e);
	if (ret) {
		st_report_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

static int alloc_cells(struct st_report *r, struct st_error *e)
{
	size_t v, a;

	r->cells = calloc(r->nvariants * r->narches + 1, sizeof(*r->cells));
	r->compilers = calloc(r->narches + 1, sizeof(*r->compilers));
	if (!r->cells || !r->compilers)
		return st_err(e, ENOMEM, NULL, "out of memory");
	/* Given cells clear it: a cell nobody gives (another shard's) is not shown. */
	for (v = 0; r->tree && v < r->nvariants * r->narches; v++)
		r->cells[v].aux = true;
	for (v = 0; v < r->nvariants; v++) {
		for (a = 0; a < r->narches; a++) {
			struct st_report_cell *c = st_report_cell(r, v, a);

			c->variant = strdup(r->variants[v]);
			c->arch = strdup(r->arches[a]);
			if (!c->variant || !c->arch)
				return st_err(e, ENOMEM, NULL, "out of memory");
		}
	}
	return 0;
}

/* Each arch's compiler: the command of its first built cell that names one. */
static int compilers_from_cells(struct st_report *r, struct st_error *e)
{
	size_t a, v;

	for (a = 0; a < r->narches; a++) {
		for (v = 0; v < r->nvariants && !r->compilers[a]; v++) {
			const struct st_report_cell *c = st_report_cell(r, v, a);

			if (c->aux || !c->object || !c->cc)
				continue;
			r->compilers[a] = strdup(c->cc);
			if (!r->compilers[a])
				return st_err(e, ENOMEM, NULL, "out of memory");
		}
	}
	return 0;
}

/* Each arch's compiler from the build's toolchains: its words, as CC would hold them. */
static int compilers_from_build(struct st_report *r, const struct st_build_result *b,
				struct st_error *e)
{
	size_t a, i, w;
	char *s;

	for (a = 0; a < r->narches; a++) {
		for (i = 0; i < b->ntcs; i++) {
			const struct st_toolchain *t = &b->tcs[i];

			if (!t->found || !t->cc || strcmp(t->arch, r->arches[a]))
				continue;
			s = strdup(t->cc[0]);
			for (w = 1; s && t->cc[w]; w++) {
				char *n = st_asprintf("%s %s", s, t->cc[w]);

				free(s);
				s = n;
			}
			if (!s)
				return st_err(e, ENOMEM, NULL, "out of memory");
			r->compilers[a] = s;
			break;
		}
	}
	return 0;
}

/* An arch where nothing could be built is a skipped arch, not a column of holes. */
static bool arch_built(const struct st_build_result *b, const char *arch, const char **err)
{
	size_t i;

	*err = NULL;
	for (i = 0; i < b->nunits; i++) {
		if (strcmp(b->units[i].arch, arch))
			continue;
		if (b->units[i].ok)
			return true;
		if (!*err)
			*err = b->units[i].error;
	}
	return false;
}

static int names_from_build(struct st_report *r, const struct st_build_result *b,
			    struct st_error *e)
{
	const char *err;
	size_t i;

	for (i = 0; i < b->ntcs; i++) {
		const struct st_toolchain *t = &b->tcs[i];

		if (!t->found) {
			if (add_skip(r, t->arch, t->reason, t->pkg))
				return st_err(e, ENOMEM, NULL, "out of memory");
			continue;
		}
		/* The compiler is there: no package to suggest. */
		if (!arch_built(b, t->arch, &err)) {
			if (add_skip(r, t->arch, err ? err : "nothing built", NULL))
				return st_err(e, ENOMEM, NULL, "out of memory");
			continue;
		}
		if (intern(&r->arches, &r->narches, t->arch) < 0)
			return st_err(e, ENOMEM, NULL, "out of memory");
	}
	for (i = 0; i < b->nunits; i++)
		if (intern(&r->variants, &r->nvariants, b->units[i].variant) < 0)
			return st_err(e, ENOMEM, NULL, "out of memory");
	return 0;
}

/* The value of @sym in a resolved .config: as written, "n" when unset or absent. */
static const char *config_value(const struct st_defconfig *dc, const char *sym)
{
	long i = st_defconfig_find(dc, sym);

	return i < 0 ? "n" : dc->lines[i].val;
}

/* Does @sym have two values among the loaded configs @dc[0..n)? */
static bool differs(struct st_defconfig *const *dc, size_t n, const char *sym)
{
	const char *first = NULL;
	size_t v;

	for (v = 0; v < n; v++) {
		if (!dc[v])
			continue;
		if (!first)
			first = config_value(dc[v], sym);
		else if (strcmp(first, config_value(dc[v], sym)))
			return true;
	}
	return false;
}

/* Add option @sym with its value in each of @dc to r->options. */
static int add_option(struct st_report *r, struct st_defconfig *const *dc, const char *sym)
{
	struct st_report_option *o;
	size_t v;

	for (v = 0; v < r->noptions; v++)
		if (!strcmp(r->options[v].option, sym))
			return 0;
	o = realloc(r->options, (r->noptions + 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	r->options = o;
	o = &r->options[r->noptions++];
	o->option = strdup(sym);
	o->values = calloc(r->nvariants, sizeof(*o->values));
	if (!o->option || !o->values)
		return -ENOMEM;
	for (v = 0; v < r->nvariants; v++) {
		if (dc[v] && !(o->values[v] = strdup(config_value(dc[v], sym))))
			return -ENOMEM;
	}
	return 0;
}

/*
 * What each variant's defconfig turns on: the options whose value differs
 * between the variants' resolved .config files (one per variant: the
 * bundled Kconfig resolves the same on every arch). A config that cannot
 * be read leaves its variant out.
 */
static int options_from_build(struct st_report *r, const struct st_build_result *b,
			      struct st_error *e)
{
	struct st_defconfig **dc = calloc(r->nvariants, sizeof(*dc));
	size_t v, i;
	int ret = 0;

	if (!dc)
		return st_err(e, ENOMEM, NULL, "out of memory");
	for (v = 0; v < r->nvariants; v++) {
		for (i = 0; !dc[v] && i < b->nunits; i++) {
			if (!strcmp(b->units[i].variant, r->variants[v]) && b->units[i].config &&
			    st_defconfig_load(&dc[v], b->units[i].config, NULL))
				dc[v] = NULL;
		}
	}
	for (v = 0; !ret && v < r->nvariants; v++) {
		for (i = 0; !ret && dc[v] && i < dc[v]->nr_lines; i++) {
			const char *sym = dc[v]->lines[i].sym;

			if (sym && differs(dc, r->nvariants, sym))
				ret = add_option(r, dc, sym);
		}
	}
	for (v = 0; v < r->nvariants; v++)
		st_defconfig_free(dc[v]);
	free(dc);
	return ret ? st_err(e, -ret, NULL, "out of memory") : 0;
}

int st_report_from_build(struct st_report **out, const struct st_build_result *b,
			 const char *baseline, struct st_error *e)
{
	struct st_report *r = calloc(1, sizeof(*r));
	size_t i;
	int ret;

	if (!r)
		return st_err(e, ENOMEM, NULL, "out of memory");
	r->top = ST_REPORT_TOP;
	ret = names_from_build(r, b, e);
	if (!ret && r->nvariants)
		ret = baseline_first(r, baseline, e);
	if (!ret)
		ret = alloc_cells(r, e);
	for (i = 0; !ret && i < b->nunits; i++) {
		const struct st_build_unit *u = &b->units[i];
		long v = find(r->variants, r->nvariants, u->variant);
		long a = find(r->arches, r->narches, u->arch);
		struct st_report_cell *c;

		if (v < 0 || a < 0)
			continue;
		c = st_report_cell(r, v, a);
		if (u->ok)
			c->object = strdup(u->object);
		else
			c->error = strdup(u->error);
		if (!c->object && !c->error)
			ret = st_err(e, ENOMEM, NULL, "out of memory");
	}
	if (!ret)
		ret = compute(r, e);
	if (!ret)
		ret = options_from_build(r, b, e);
	if (!ret)
		ret = compilers_from_build(r, b, e);
	if (ret) {
		st_report_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

/* The arch name of an ELF machine, as lib/build names arches. */
static const char *machine_name(unsigned int m, unsigned int cls)
{
	switch (m) {
	case EM_X86_64:
		return "x86_64";
	case EM_386:
		return "i686";
	case EM_ARM:
		return "arm";
	case EM_AARCH64:
		return "aarch64";
	case EM_RISCV:
		return cls == ELFCLASS64 ? "riscv64" : "riscv32";
	case EM_MIPS:
		return "mips";
	case EM_PPC:
		return "powerpc";
	case EM_PPC64:
		return "powerpc64";
	case EM_SH:
		return "sh4";
	case EM_OPENRISC:
		return "or1k";
	default:
		return "elf";
	}
}

int st_report_from_objects(struct st_report **out, const char *const *names,
			   const char *const *paths, size_t n, const char *baseline,
			   bool mixed, struct st_error *e)
{
	struct st_report *r = calloc(1, sizeof(*r));
	struct st_elf_file *f = NULL;
	const char *first = NULL, *first_path = NULL, *m;
	char arch[256] = "elf";
	size_t i, l;
	int ret = 0;

	if (!r)
		return st_err(e, ENOMEM, NULL, "out of memory");
	r->top = ST_REPORT_TOP;
	r->objects = true;
	r->subject = ST_REPORT_OBJECTS;
	/* The arch of each file from its own header; unreadable ones fail later. */
	for (i = 0; i < n && !ret; i++) {
		f = NULL;
		if (st_elf_open(&f, paths[i], NULL) || !f->nobjs) {
			st_elf_close(f);
			continue;
		}
		m = machine_name(f->objs[0].machine, f->objs[0].elfclass);
		st_elf_close(f);
		if (!first) {
			first = m;
			first_path = paths[i];
			snprintf(arch, sizeof(arch), "%s", m);
		} else if (strcmp(m, first) && !strstr(arch, m)) {
			if (!mixed)
				ret = st_err(e, EXDEV, paths[i], "a %s file; %s is %s: "
					     "different machines", m, first_path, first);
			l = strlen(arch);
			snprintf(arch + l, sizeof(arch) - l, "+%s", m);
		}
	}
	for (i = 0; i < n && !ret; i++) {
		if (find(r->variants, r->nvariants, names[i]) >= 0)
			ret = st_err(e, EINVAL, NULL, "object name '%s' given twice", names[i]);
		else if (intern(&r->variants, &r->nvariants, names[i]) < 0)
			ret = st_err(e, ENOMEM, NULL, "out of memory");
	}
	if (!ret && intern(&r->arches, &r->narches, arch) < 0)
		ret = st_err(e, ENOMEM, NULL, "out of memory");
	if (!ret)
		ret = baseline_first(r, baseline ? baseline : names[0], e);
	if (!ret)
		ret = alloc_cells(r, e);
	for (i = 0; !ret && i < n; i++) {
		struct st_report_cell *c = st_report_cell(r, find(r->variants, r->nvariants,
								  names[i]), 0);

		c->object = strdup(paths[i]);
		if (!c->object)
			ret = st_err(e, ENOMEM, NULL, "out of memory");
	}
	return finish(r, ret, out, e);
}

int st_report_from_cells(struct st_report **out, const char *tree,
			 const char *const *variants, size_t nvariants,
			 const char *const *arches, size_t narches, const char *baseline,
			 const struct st_report_input *in, size_t n, struct st_error *e)
{
	struct st_report *r = calloc(1, sizeof(*r));
	size_t i;
	int ret = 0;

	if (!r)
		return st_err(e, ENOMEM, NULL, "out of memory");
	r->top = ST_REPORT_TOP;
	r->subject = tree ? ST_REPORT_KERNEL : ST_REPORT_BUNDLED;
	r->tree = tree ? strdup(tree) : NULL;
	if (tree && !r->tree)
		ret = st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; !ret && i < nvariants; i++)
		if (intern(&r->variants, &r->nvariants, variants[i]) < 0)
			ret = st_err(e, ENOMEM, NULL, "out of memory");
	for (i = 0; !ret && i < narches; i++)
		if (intern(&r->arches, &r->narches, arches[i]) < 0)
			ret = st_err(e, ENOMEM, NULL, "out of memory");
	if (!ret)
		ret = baseline_first(r, baseline, e);
	if (!ret)
		ret = alloc_cells(r, e);
	for (i = 0; !ret && i < n; i++) {
		long v = find(r->variants, r->nvariants, in[i].variant);
		long a = find(r->arches, r->narches, in[i].arch);
		struct st_report_cell *c;

		if (v < 0 || a < 0)
			continue;
		c = st_report_cell(r, v, a);
		c->aux = in[i].aux;
		c->object = in[i].object ? strdup(in[i].object) : NULL;
		c->error = in[i].error ? strdup(in[i].error) : NULL;
		c->resolved = in[i].resolved ? strdup(in[i].resolved) : NULL;
		c->cc = in[i].cc ? strdup(in[i].cc) : NULL;
		c->cc_wrapper = in[i].cc_wrapper ? strdup(in[i].cc_wrapper) : NULL;
		if ((in[i].object && !c->object) || (in[i].error && !c->error) ||
		    (in[i].resolved && !c->resolved) || (in[i].cc && !c->cc) ||
		    (in[i].cc_wrapper && !c->cc_wrapper))
			ret = st_err(e, ENOMEM, NULL, "out of memory");
	}
	if (!ret)
		ret = compilers_from_cells(r, e);
	return finish(r, ret, out, e);
}

/* Merging shard reports (JSON) back into one model. */

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A JSON number that is an integer a double holds exactly; false otherwise. */
static bool jint(const cJSON *o, const char *key, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	/* The range first: converting an out of range double is undefined. */
	if (!cJSON_IsNumber(v) || !(v->valuedouble <= 9007199254740992.0 &&
				    v->valuedouble >= -9007199254740992.0) ||
	    v->valuedouble != (double)(int64_t)v->valuedouble)
		return false;
	*out = (int64_t)v->valuedouble;
	return true;
}

static bool jsize(const cJSON *o, const char *key, uint64_t *out)
{
	int64_t v;

	if (!jint(o, key, &v) || v < 0)
		return false;
	*out = (uint64_t)v;
	return true;
}

static bool same_list(const cJSON *arr, char **v, size_t n)
{
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != n)
		return false;
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsString(it) || strcmp(it->valuestring, v[i++]))
			return false;
	}
	return true;
}

static int list_of(const cJSON *arr, char ***v, size_t *n)
{
	const cJSON *it;

	if (!cJSON_IsArray(arr) || !cJSON_GetArraySize(arr))
		return -EINVAL;
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsString(it) || find(*v, *n, it->valuestring) >= 0)
			return -EINVAL;
		if (intern(v, n, it->valuestring) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The "size_diff" of a result into @c: its summary and its top rows. */
static int merge_diff(struct st_report_cell *c, const cJSON *sd)
{
	static const char *const titles[][2] = {
		{ "Function", "tTdDbBrRvVwW" },
	};
	struct st_sd_table *t = &c->diff.tables[0];
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(sd, "top"), *row;
	const char *title = jstr(sd, "title");
	int64_t add, rem, grow, shrink, up, down, ot, nt, nsym;
	size_t len = 1, k = 0;
	char *p;

	if (!title || strcmp(title, titles[0][0]) || !cJSON_IsArray(rows) ||
	    !jint(sd, "add", &add) || !jint(sd, "remove", &rem) || !jint(sd, "grow", &grow) ||
	    !jint(sd, "shrink", &shrink) || !jint(sd, "up", &up) || !jint(sd, "down", &down) ||
	    !jint(sd, "old_total", &ot) || !jint(sd, "new_total", &nt) ||
	    !jint(sd, "symbols_changed", &nsym) || add < 0 || rem < 0 || grow < 0 ||
	    shrink < 0 || up < 0 || down > 0 || nsym < cJSON_GetArraySize(rows))
		return -EINVAL;
	c->diff.mode = ST_SD_DEFAULT;
	c->diff.ntables = 1;
	t->title = titles[0][0];
	t->letters = titles[0][1];
	t->add = add;
	t->remove = rem;
	t->grow = grow;
	t->shrink = shrink;
	t->up = up;
	t->down = -down;
	t->old_total = ot;
	t->new_total = nt;
	c->nrows_all = nsym;
	c->has_diff = true;
	cJSON_ArrayForEach(row, rows) {
		const char *name = jstr(row, "name");

		if (!name)
			return -EINVAL;
		len += strlen(name) + 1;
	}
	t->rows = calloc(cJSON_GetArraySize(rows) + 1, sizeof(*t->rows));
	c->names = p = malloc(len);
	if (!t->rows || !p)
		return -ENOMEM;
	cJSON_ArrayForEach(row, rows) {
		struct st_sd_row *r = &t->rows[k++];
		const char *name = jstr(row, "name");
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(row, "old");
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(row, "new");
		int64_t d;

		r->in_old = !cJSON_IsNull(o);
		r->in_new = !cJSON_IsNull(n);
		if (!jint(row, "delta", &d) || (r->in_old && !jsize(row, "old", &r->old_size)) ||
		    (r->in_new && !jsize(row, "new", &r->new_size)))
			return -EINVAL;
		r->delta = d;
		strcpy(p, name);
		r->name = p;
		p += strlen(name) + 1;
	}
	t->nrows = k;
	return 0;
}

/* One result of a shard into its cell (the first shard that has it wins). */
static int merge_result(struct st_report *r, const cJSON *res)
{
	const char *variant = jstr(res, "variant"), *arch = jstr(res, "arch");
	const char *object = jstr(res, "object"), *resolved = jstr(res, "resolved");
	const char *cc = jstr(res, "cc"), *wrapper = jstr(res, "cc_wrapper");
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(res, "size_diff");
	long v, a;
	struct st_report_cell *c;

	if (!variant || !arch || !object)
		return -EINVAL;
	v = find(r->variants, r->nvariants, variant);
	a = find(r->arches, r->narches, arch);
	if (v < 0 || a < 0)
		return -EINVAL;
	c = st_report_cell(r, v, a);
	if (!c->aux)
		return 0;
	c->aux = false;
	if (!jsize(res, "text", &c->text) || !jsize(res, "data", &c->data) ||
	    !jsize(res, "bss", &c->bss) || !jsize(res, "total", &c->total))
		return -EINVAL;
	c->object = strdup(object);
	c->resolved = resolved ? strdup(resolved) : NULL;
	c->cc = cc ? strdup(cc) : NULL;
	c->cc_wrapper = wrapper ? strdup(wrapper) : NULL;
	if (!c->object || (resolved && !c->resolved) || (cc && !c->cc) ||
	    (wrapper && !c->cc_wrapper))
		return -ENOMEM;
	return sd ? merge_diff(c, sd) : 0;
}

static int merge_skip(struct st_report *r, const cJSON *sk)
{
	const char *variant = jstr(sk, "variant"), *arch = jstr(sk, "arch");
	const char *reason = jstr(sk, "reason");
	struct st_report_cell *c;
	long v, a;
	size_t i;

	if (!arch || !reason)
		return -EINVAL;
	if (!variant) {
		for (i = 0; i < r->nskipped; i++)
			if (!strcmp(r->skipped[i].arch, arch))
				return 0;
		return add_skip(r, arch, reason, jstr(sk, "package"));
	}
	v = find(r->variants, r->nvariants, variant);
	a = find(r->arches, r->narches, arch);
	if (v < 0 || a < 0)
		return -EINVAL;
	c = st_report_cell(r, v, a);
	if (!c->aux)
		return 0;
	c->aux = false;
	c->error = strdup(reason);
	return c->error ? 0 : -ENOMEM;
}

/* The baseline's figures are in every merged cell; deltas follow from them. */
static void merge_deltas(struct st_report *r)
{
	size_t v, a;

	for (a = 0; a < r->narches; a++) {
		const struct st_report_cell *b = st_report_cell(r, 0, a);

		for (v = 0; v < r->nvariants; v++) {
			struct st_report_cell *c = st_report_cell(r, v, a);

			if (!b->object || !c->object)
				continue;
			c->has_base = true;
			c->delta_text = (int64_t)(c->text - b->text);
			c->delta_data = (int64_t)(c->data - b->data);
			c->delta_bss = (int64_t)(c->bss - b->bss);
			c->delta_total = (int64_t)(c->total - b->total);
		}
	}
}

/* A shard's "measured": its defconfig and objects (absent in older reports). */
static int merge_measured(struct st_report *r, const cJSON *root)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "measured");
	const char *dc = jstr(m, "defconfig"), *objs = jstr(m, "objects");

	if (dc && !(r->defconfig = strdup(dc)))
		return -ENOMEM;
	if (objs && !(r->measured = strdup(objs)))
		return -ENOMEM;
	return 0;
}

static int merge_one(struct st_report *r, const cJSON *root, bool first, struct st_error *e,
		     const char *name)
{
	const char *tree = jstr(root, "tree"), *baseline = jstr(root, "baseline");
	const cJSON *vs = cJSON_GetObjectItemCaseSensitive(root, "variants");
	const cJSON *as = cJSON_GetObjectItemCaseSensitive(root, "arches");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(root, "results");
	const cJSON *sk = cJSON_GetObjectItemCaseSensitive(root, "skipped");
	const cJSON *it;
	int ret;

	if (!tree || !baseline || !cJSON_IsArray(res) || !cJSON_IsArray(sk))
		return st_err(e, EINVAL, name, "not the JSON of `slubtiny kernel --json`");
	if (first) {
		r->subject = ST_REPORT_KERNEL;
		r->tree = strdup(tree);
		if (!r->tree || merge_measured(r, root))
			return st_err(e, ENOMEM, NULL, "out of memory");
		ret = list_of(vs, &r->variants, &r->nvariants);
		if (!ret)
			ret = list_of(as, &r->arches, &r->narches);
		if (ret == -ENOMEM)
			return st_err(e, ENOMEM, NULL, "out of memory");
		if (ret || strcmp(r->variants[0], baseline))
			return st_err(e, EINVAL, name, "bad \"variants\" or \"arches\" list");
		r->baseline = strdup(baseline);
		if (!r->baseline || alloc_cells(r, e))
			return st_err(e, ENOMEM, NULL, "out of memory");
	} else if (strcmp(tree, r->tree) || strcmp(baseline, r->baseline) ||
		   !same_list(vs, r->variants, r->nvariants) ||
		   !same_list(as, r->arches, r->narches)) {
		return st_err(e, EINVAL, name, "another run than the first report (tree %s, "
			      "baseline, variants or arches differ)", r->tree);
	}
	cJSON_ArrayForEach(it, res) {
		ret = merge_result(r, it);
		if (ret)
			return st_err(e, -ret, name, "%s", ret == -ENOMEM ? "out of memory" :
				      "malformed entry in \"results\"");
	}
	cJSON_ArrayForEach(it, sk) {
		ret = merge_skip(r, it);
		if (ret)
			return st_err(e, -ret, name, "%s", ret == -ENOMEM ? "out of memory" :
				      "malformed entry in \"skipped\"");
	}
	return 0;
}

int st_report_merge(struct st_report **out, const char *const *texts,
		    const char *const *names, size_t n, struct st_error *e)
{
	struct st_report *r = calloc(1, sizeof(*r));
	size_t i;
	int ret = 0;

	if (!r)
		return st_err(e, ENOMEM, NULL, "out of memory");
	r->top = ST_REPORT_TOP;
	for (i = 0; i < n && !ret; i++) {
		cJSON *root = cJSON_Parse(texts[i]);

		if (!cJSON_IsObject(root))
			ret = st_err(e, EINVAL, names[i], "not a JSON object");
		else
			ret = merge_one(r, root, !i, e, names[i]);
		cJSON_Delete(root);
	}
	if (!ret && !n)
		ret = st_err(e, EINVAL, NULL, "nothing to merge");
	for (i = 0; !ret && i < r->nvariants * r->narches; i++)
		if (r->cells[i].aux)
			ret = st_err(e, ENOENT, NULL, "no shard has %s on %s: a shard is missing",
				     r->cells[i].variant, r->cells[i].arch);
	if (ret) {
		st_report_free(r);
		return ret;
	}
	merge_deltas(r);
	ret = compilers_from_cells(r, e);
	if (ret) {
		st_report_free(r);
		return ret;
	}
	*out = r;
	return 0;
}
