/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_REPORT_H
#define ST_REPORT_H

/*
 * lib/report: the numbers of the main job. A report is a table of cells,
 * one per (variant, arch), each with its object's `size` figures and its
 * bloat-o-meter diff against the baseline variant of the same arch, plus
 * the arches that were skipped and, optionally, what each Kconfig option
 * costs (the attribution). Numbers only: lib/sizes computes them, the
 * renderers below print them and compute nothing.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/render.h"
#include "sizes/size_diff.h"

struct cJSON;

struct st_error;
struct st_build_opts;
struct st_build_result;

struct st_report_cell {
	char *variant;
	char *arch;
	char *object;		/* NULL: not built (see error) */
	char *error;
	uint64_t text, data, bss, total;	/* binutils `size` (Berkeley) */
	int64_t delta_text, delta_data, delta_bss, delta_total;	/* vs baseline */
	bool has_base;		/* the baseline exists for this arch */
	bool has_diff;		/* diff is filled (not for the baseline itself) */
	struct st_size_diff diff;	/* bloat-o-meter default mode, baseline -> this */
	char *names;		/* the diff rows' names (copied: the ELF files are closed) */
	size_t nrows_all;	/* merged from JSON: rows of the diff (only the top ones kept) */
	char *resolved;		/* kernel: the resolved allocator options, or NULL */
	/* kernel: the compiler command that built it and its wrapper ("distcc"), or NULL */
	char *cc, *cc_wrapper;
	bool aux;		/* kernel shard: built only as the baseline of the diffs */
};

struct st_report_skip {
	char *arch;
	char *reason;
	char *package;
};

/* One Kconfig option toggled in the baseline, towards another variant. */
struct st_report_attr {
	char *option;		/* without CONFIG_ */
	char *from, *to;	/* values in the baseline and in the target ("n" for unset) */
	char *towards;		/* the variants that have the target value, comma-separated */
	char *arch;
	bool applied;		/* Kconfig kept the value (else: dependencies overrode it) */
	char *resolved;		/* what Kconfig made of it when !applied */
	char *changed;		/* other options the toggle changed, comma-separated, or "" */
	char *with;		/* "EXPERT=y": the other toggle it needed to take effect, or NULL;
				 * the cost is then (both toggled) minus (only that one) */
	bool built;
	char *error;		/* when !built */
	int64_t text, data, bss, total;	/* cost: toggled minus baseline */
};

/* An option whose resolved value differs between the variants (their .config files). */
struct st_report_option {
	char *option;		/* without CONFIG_ */
	char **values;		/* per variant, column order: as resolved, "n" when unset;
				 * NULL when that variant has no resolved config */
};

/* What a report measured: said in the first lines of every format. */
enum st_report_subject {
	ST_REPORT_BUNDLED,	/* slubtiny's own user-space allocator, lib/slab (report) */
	ST_REPORT_KERNEL,	/* a kernel tree's objects, built by its make (kernel) */
	ST_REPORT_OBJECTS,	/* the ELF files given (report --objects) */
};

struct st_report {
	enum st_report_subject subject;
	char *defconfig;	/* kernel: the defconfig file or make target, or NULL */
	char *measured;		/* kernel: the objects ("vmlinux"); NULL: slab_common + allocator */
	char **compilers;	/* per arch (row order): what built it ("gcc"), or NULL */
	char *baseline;
	char **variants;	/* column order: baseline first */
	size_t nvariants;
	char **arches;		/* row order: as built (host first) */
	size_t narches;
	struct st_report_cell *cells;	/* [v * narches + a] */
	struct st_report_skip *skipped;
	size_t nskipped;
	struct st_report_attr *attrs;	/* ranked: largest |total| first */
	size_t nattrs;
	struct st_report_option *options;	/* in .config order (baseline's first) */
	size_t noptions;
	bool objects;		/* made from --objects, not from a build */
	unsigned int top;	/* symbol rows the renderers show per diff */
	char *tree;		/* kernel: "linux-6.12.57"; NULL for the bundled allocator */
};

/* One cell given by its caller (lib/kernel): an object, or why there is none. */
struct st_report_input {
	const char *variant;
	const char *arch;
	const char *object;	/* NULL: failed */
	const char *error;
	const char *resolved;	/* may be NULL */
	const char *cc, *cc_wrapper;	/* may be NULL */
	bool aux;
};

#define ST_REPORT_TOP 10

/* The cell of @variant on @arch, or NULL. */
struct st_report_cell *st_report_cell(const struct st_report *r, size_t v, size_t a);

/*
 * A report over a finished build: every ok unit becomes a cell; a unit that
 * failed becomes a cell without object; toolchains not found become skipped
 * arches. @baseline must be one of the variants. Free with st_report_free().
 */
int st_report_from_build(struct st_report **out, const struct st_build_result *b,
			 const char *baseline, struct st_error *e);

/*
 * A report over given ELF files (relocatable objects, archives, ...):
 * @names[i] is the variant name of @paths[i], all on one arch named after
 * the files' machine (ELF e_machine and class). Files of different machines
 * are an error (-EXDEV) unless @mixed; then the arch is their names joined
 * by '+'.
 * @baseline NULL means names[0].
 */
int st_report_from_objects(struct st_report **out, const char *const *names,
			   const char *const *paths, size_t n, const char *baseline,
			   bool mixed, struct st_error *e);

/*
 * Attribution: for every option whose resolved value differs between the
 * baseline and another variant, build the baseline with that one option
 * set to the other variant's value (resolved by Kconfig, so dependencies
 * stay valid) on @arches (NULL: every arch of the report; each must be one
 * of them), and record the size change. Uses @o for the build (datadir,
 * builddir, jobs, toolchains); @b is the build the report came from (for
 * the resolved .config files).
 */
int st_report_attribute(struct st_report *r, const struct st_build_opts *o,
			const struct st_build_result *b, const char *const *arches,
			size_t narches, struct st_error *e);

/*
 * A report over given cells: columns @variants, rows @arches (in that
 * order; @baseline must be one of the variants), each cell from @in or
 * "not built" when absent. @tree names the kernel tree.
 */
int st_report_from_cells(struct st_report **out, const char *tree,
			 const char *const *variants, size_t nvariants,
			 const char *const *arches, size_t narches, const char *baseline,
			 const struct st_report_input *in, size_t n, struct st_error *e);

/*
 * Merge the JSON reports of `slubtiny kernel --shard K/N` (@texts[i] read
 * from @names[i]) into the report of the unsharded run.
 */
int st_report_merge(struct st_report **out, const char *const *texts,
		    const char *const *names, size_t n, struct st_error *e);

void st_report_free(struct st_report *r);

/*
 * The @top rows of @t with the largest |delta| (ties: bloat-o-meter's
 * order), kept in bloat-o-meter's order (growth first, largest shrink
 * last), as a malloc'd array of row copies sharing the names. @top 0: all.
 * NULL with *n = 0 on ENOMEM or an empty table.
 */
struct st_sd_row *st_report_top(const struct st_sd_table *t, unsigned int top, size_t *n);

/*
 * One sentence saying what @r measured (the first line of every format,
 * "measured"."summary" in JSON) into @buf, truncated to @len.
 */
const char *st_report_summary(const struct st_report *r, char *buf, size_t len);

/* Text, Markdown, JSON and a self-contained HTML page (common/render.h). */
int st_report_render(FILE *f, const struct st_report *r, const struct st_render_opts *o);
struct cJSON *st_report_to_json(const struct st_report *r);

#endif
