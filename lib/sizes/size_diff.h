/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_SIZE_DIFF_H
#define ST_SIZE_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/render.h"

struct cJSON;

struct st_elf_file;
struct st_error;

/*
 * The semantics of Linux 6.12 scripts/bloat-o-meter over the symbols that
 * `nm --size-sort` would list: per table, the symbols whose nm letter is in
 * the table's set are summed by name (after dropping every ".NUMBER" and a
 * few generated names) and compared. Computation only; the printers below
 * render a result and never compute.
 */
enum st_sd_mode {
	ST_SD_DEFAULT,	/* one table "Function" over tTdDbBrRvVwW */
	ST_SD_CATEGORIES,	/* -c: Function tTwW, Data dDbBvV, RO Data rR */
	ST_SD_DATA,	/* -d: Data dDbBrRvV */
	ST_SD_TEXT,	/* -t: Function tTwW */
};

/* Deltas and totals of 64-bit sizes need more than 64 bits. */
typedef __int128 st_sd_int;

struct st_sd_row {
	st_sd_int delta;	/* new - old, a missing side counting 0 */
	const char *name;	/* after .NUMBER folding: into the ELF files or the result */
	uint64_t old_size;	/* valid when in_old */
	uint64_t new_size;	/* valid when in_new */
	uint32_t hash;
	uint16_t letters;	/* bit i: nm letter ST_SD_LETTERS[i] seen, either file */
	bool in_old, in_new;
};

/* Every letter bloat-o-meter can count, in the order st_sd_row_types() lists them. */
#define ST_SD_LETTERS "tTdDbBrRvVwW"

/* The distinct nm letters of a row as a string ("tT"); @buf >= 13 bytes. */
char *st_sd_row_types(const struct st_sd_row *r, char *buf);

struct st_sd_table {
	const char *title;	/* "Function", "Data", "RO Data" */
	const char *letters;	/* the nm letters counted */
	unsigned long add, remove, grow, shrink;
	st_sd_int up, down;	/* bytes, both >= 0; printed as up/-down */
	st_sd_int old_total, new_total;
	struct st_sd_row *rows;	/* delta != 0 only, in bloat-o-meter's order */
	size_t nrows;
};

struct st_size_diff {
	enum st_sd_mode mode;
	struct st_sd_table tables[3];
	size_t ntables;
	void *priv;		/* name storage */
	/* What the JSON calls the two inputs (the caller's to set; "" if not). */
	const char *oldname, *newname;
};

/*
 * Fills @res (caller-owned struct); free with st_size_diff_free(). Row
 * names may point into @oldf and @newf: keep them open while using @res.
 * Sizes summed under one name must fit in 64 bits (-EOVERFLOW otherwise).
 */
int st_size_diff(const struct st_elf_file *oldf, const struct st_elf_file *newf,
		 enum st_sd_mode mode, struct st_size_diff *res, struct st_error *e);
void st_size_diff_free(struct st_size_diff *res);

/*
 * The same in steps, for inputs too large to hold: begin (@hint: expected
 * number of sized symbols, 0 if unknown), feed every object of OLD then of
 * NEW (@path for messages), end. With @copy_names the names are copied
 * into the result, so each object may be freed once fed. On error @res is
 * freed by end, or must be freed with st_size_diff_free() after a failed
 * feed.
 */
int st_size_diff_begin(struct st_size_diff *res, enum st_sd_mode mode, size_t hint,
			bool copy_names, struct st_error *e);
struct st_elf_obj;
int st_size_diff_feed(struct st_size_diff *res, const struct st_elf_obj *o, bool new,
		      const char *path, struct st_error *e);
/*
 * Move what was fed into @from (begun with the same mode) into @into and
 * free @from: OLD and NEW may be fed into two results concurrently, one
 * per thread, and joined before st_size_diff_end(@into).
 */
int st_size_diff_absorb(struct st_size_diff *into, struct st_size_diff *from,
			struct st_error *e);
int st_size_diff_end(struct st_size_diff *res, struct st_error *e);
/* True when some table's totals differ (for --exit-code). */
bool st_size_diff_changed(const struct st_size_diff *res);

/*
 * Text byte-identical to bloat-o-meter's stdout, or one JSON object
 * (schema in README.md "size-diff and size"; common/render.h).
 */
int st_size_diff_render(FILE *f, const struct st_size_diff *res, const struct st_render_opts *o);
struct cJSON *st_size_diff_to_json(const struct st_size_diff *res);

/* Decimal rendering of an st_sd_int into @buf (>= 42 bytes); returns buf. */
char *st_sd_int_str(char *buf, st_sd_int v);

#endif
