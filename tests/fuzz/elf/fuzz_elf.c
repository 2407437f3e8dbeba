// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target over the ELF/ar reader and everything computed from it:
 * open the input as a file image, then run size (both layouts) and a
 * size-diff of the input against itself in every mode, printing into a
 * null stream so the renderers run too; then the same diff the way the
 * CLI makes it (two results with copied names, joined); then once more
 * the way the CLI reads files (st_elf_scan: sized symbols only, tables
 * used where they lie), which must fail exactly when the full read fails
 * and otherwise print the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "elf/elf.h"
#include "sizes/sections.h"
#include "sizes/size_diff.h"

static const struct st_render_opts text_opts = { .format = ST_FORMAT_TEXT };
static const struct st_render_opts json_opts = { .format = ST_FORMAT_JSON };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *null_out(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

struct scan_side {
	struct st_size_diff *res;
	bool new;
	struct st_error *e;
};

static int scan_feed(const struct st_elf_file *f, const struct st_elf_obj *o, void *ctx)
{
	struct scan_side *s = ctx;

	return st_size_diff_feed(s->res, o, s->new, f->path, s->e);
}

/* size-diff of @buf against itself through st_elf_scan_mem(), as text in *@text. */
static int scan_diff(const char *buf, size_t size, int m, char **text, size_t *len)
{
	struct st_size_diff a, b;
	struct st_error e = { 0 };
	struct st_elf_file *f;
	struct scan_side sa = { &a, false, &e }, sb = { &b, true, &e };
	FILE *mf;
	int ret;

	if (st_size_diff_begin(&a, m, 0, true, &e))
		return -1;
	if (st_size_diff_begin(&b, m, 0, true, &e)) {
		st_size_diff_free(&a);
		return -1;
	}
	ret = st_elf_scan_mem(&f, buf, size, "fuzz", ST_ELF_SIZED_ONLY, scan_feed, &sa, &e);
	st_elf_close(f);
	if (!ret) {
		ret = st_elf_scan_mem(&f, buf, size, "fuzz", ST_ELF_SIZED_ONLY, scan_feed, &sb, &e);
		st_elf_close(f);
	}
	if (ret) {
		if (!e.code || !e.msg[0])
			abort();
		st_size_diff_free(&a);
		st_size_diff_free(&b);
		return 1;
	}
	if (st_size_diff_absorb(&a, &b, &e) || st_size_diff_end(&a, &e))
		return -1;
	mf = open_memstream(text, len);
	if (!mf)
		abort();
	st_size_diff_render(mf, &a, &text_opts);
	fclose(mf);
	st_size_diff_free(&a);
	return 0;
}

/* The scan path against the full read: same failure, same output. */
static void check_scan(const char *buf, size_t size, const struct st_elf_file *f)
{
	int m;

	for (m = ST_SD_DEFAULT; m <= ST_SD_TEXT; m++) {
		struct st_error e = { 0 };
		struct st_size_diff sd;
		char *want = NULL, *got = NULL;
		size_t wlen = 0, glen = 0;
		FILE *mf;
		int ret = scan_diff(buf, size, m, &got, &glen);

		if (ret < 0)
			continue;	/* out of memory */
		if (!f) {
			if (ret == 0)
				abort();	/* read whole it fails, scanned it must fail too */
			continue;
		}
		if (st_size_diff(f, f, m, &sd, &e)) {
			free(got);
			continue;	/* sizes overflowing 64 bits: both fail */
		}
		if (ret)
			abort();
		mf = open_memstream(&want, &wlen);
		if (!mf)
			abort();
		st_size_diff_render(mf, &sd, &text_opts);
		fclose(mf);
		st_size_diff_free(&sd);
		if (wlen != glen || memcmp(want, got, wlen))
			abort();
		free(want);
		free(got);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_error e = { 0 };
	struct st_elf_file *f;
	struct st_size_result sr;
	struct st_size_diff sd;
	FILE *out = null_out();
	int m;
	/* the reader may be handed writable memory only: copy the input */
	char *buf = malloc(size ? size : 1);

	if (!buf || !out) {
		free(buf);
		return 0;
	}
	memcpy(buf, data, size);
	if (st_elf_open_mem(&f, buf, size, "fuzz", &e)) {
		/* an error must always say something */
		if (!e.code || !e.msg[0])
			abort();
		check_scan(buf, size, NULL);
		free(buf);
		return 0;
	}
	check_scan(buf, size, f);
	if (!st_size_compute(&f, 1, &sr, &e)) {
		sr.opts.totals = true;
		st_size_render(out, &sr, &text_opts);
		sr.opts.format = ST_SIZE_SYSV;
		sr.opts.totals = false;
		st_size_render(out, &sr, &text_opts);
		st_size_render(out, &sr, &json_opts);
		st_size_free(&sr);
	}
	for (m = ST_SD_DEFAULT; m <= ST_SD_TEXT; m++) {
		if (st_size_diff(f, f, m, &sd, &e))
			continue;
		if (st_size_diff_changed(&sd))
			abort();	/* a file never differs from itself */
		sd.oldname = "a";
		sd.newname = "b";
		st_size_diff_render(out, &sd, &text_opts);
		st_size_diff_render(out, &sd, &json_opts);
		st_size_diff_free(&sd);
	}
	/* the steps size-diff takes on files: two results, names copied, joined */
	for (m = ST_SD_DEFAULT; m <= ST_SD_TEXT; m++) {
		struct st_size_diff a, b;
		size_t i;
		int ret;

		if (st_size_diff_begin(&a, m, 0, true, &e))
			continue;
		if (st_size_diff_begin(&b, m, 0, true, &e)) {
			st_size_diff_free(&a);
			continue;
		}
		ret = 0;
		for (i = 0; !ret && i < f->nobjs; i++)
			ret = st_size_diff_feed(&a, &f->objs[i], false, "fuzz", &e);
		for (i = 0; !ret && i < f->nobjs; i++)
			ret = st_size_diff_feed(&b, &f->objs[i], true, "fuzz", &e);
		if (ret) {
			st_size_diff_free(&a);
			st_size_diff_free(&b);
			continue;
		}
		if (st_size_diff_absorb(&a, &b, &e)) {
			st_size_diff_free(&a);
			continue;
		}
		if (st_size_diff_end(&a, &e))
			continue;	/* end frees on failure */
		if (st_size_diff_changed(&a))
			abort();
		st_size_diff_render(out, &a, &text_opts);
		st_size_diff_free(&a);
	}
	st_elf_close(f);
	free(buf);
	return 0;
}
