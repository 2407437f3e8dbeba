// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/sizes alone, over hand-made symbol and section arrays (no ELF): the
 * bloat-o-meter rules (letters per table, skipped names, .NUMBER folding,
 * sums over duplicates, counts, order) and the size Berkeley split. The
 * byte-exact layouts are proven against the real tools in tests/diff/sizes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "elf/elf.h"
#include "sizes/sections.h"
#include "sizes/size_diff.h"

#include "../../tap.h"

#define SYM(n, t, s) { .name = (n), .type = (t), .size = (s), .flags = ST_SYM_NM | ST_SYM_SIZED }

static struct st_sym old_syms[] = {
	SYM("same", 'T', 10),
	SYM("grow", 't', 10),
	SYM("shrink", 'T', 30),
	SYM("gone", 'd', 7),
	SYM("x.123.456", 'b', 1),	/* folds to x */
	SYM("x.9", 'b', 2),		/* folds to x: summed */
	SYM("a.1b.22.c", 'D', 5),	/* folds to ab.c */
	SYM("__mod_dev_table", 'D', 100),
	SYM("__se_sys_read", 'T', 100),
	SYM("__se_compat_sys_read", 'T', 100),
	SYM("__addressable_x", 'D', 100),
	SYM("linux_banner", 'R', 100),
	SYM("vermagic", 'R', 100),
	SYM("with:colon", 'T', 100),
	SYM("", 'T', 100),
	SYM("common", 'C', 100),
	SYM("unique", 'u', 100),
	SYM("ifunc", 'i', 100),
	SYM("abs", 'A', 100),
	SYM("tie_a", 'T', 1),
	SYM("tie_b", 'T', 1),
	SYM("ro", 'r', 4),
	SYM("wk", 'W', 4),
	SYM("wv", 'V', 4),
};

static struct st_sym new_syms[] = {
	SYM("same", 'T', 10),
	SYM("grow", 't', 15),
	SYM("shrink", 'T', 20),
	SYM("added", 'B', 9),
	SYM("x", 'b', 4),
	SYM("ab.c", 'D', 5),
	SYM("tie_a", 'T', 3),
	SYM("tie_b", 'T', 3),
	SYM("ro", 'R', 8),
	SYM("wk", 'W', 4),
	SYM("wv", 'V', 1),
	SYM("unsized", 'T', 0),
};

static struct st_elf_file mkfile(struct st_sym *syms, size_t n, struct st_elf_obj *o)
{
	struct st_elf_file f = { .path = "mem", .objs = o, .nobjs = 1 };
	size_t i;

	memset(o, 0, sizeof(*o));
	o->name = "mem";
	o->syms = syms;
	o->nsyms = n;
	for (i = 0; i < n; i++)
		if (!syms[i].size)
			syms[i].flags &= ~ST_SYM_SIZED;
	return f;
}

static const struct st_sd_row *row(const struct st_sd_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

static size_t index_of(const struct st_sd_table *t, const char *name)
{
	const struct st_sd_row *r = row(t, name);

	return r ? (size_t)(r - t->rows) : (size_t)-1;
}

static void check_default(const struct st_elf_file *a, const struct st_elf_file *b)
{
	struct st_size_diff d;
	struct st_error e = { 0 };
	const struct st_sd_table *t;
	const struct st_sd_row *r;
	char buf[64];

	ok(!st_size_diff(a, b, ST_SD_DEFAULT, &d, &e), "default diff computes");
	t = &d.tables[0];
	ok(d.ntables == 1 && !strcmp(t->title, "Function"), "one table titled Function");
	r = row(t, "x");
	ok(r && r->old_size == 3 && r->new_size == 4, "x.123.456 + x.9 fold and sum to x (3 -> 4)");
	ok(!row(t, "ab.c"), "a.1b.22.c folds to ab.c, unchanged, not listed");
	ok(!row(t, "__mod_dev_table") && !row(t, "__se_sys_read") && !row(t, "__se_compat_sys_read") &&
	   !row(t, "__addressable_x") && !row(t, "linux_banner") && !row(t, "vermagic"),
	   "generated kernel names skipped");
	ok(!row(t, "with:colon") && !row(t, ""), "names with ':' and empty names skipped");
	ok(!row(t, "common") && !row(t, "unique") && !row(t, "ifunc") && !row(t, "abs"),
	   "C, u, i, A never counted");
	ok(!row(t, "unsized"), "zero-sized symbols are not in nm --size-sort");
	r = row(t, "gone");
	ok(r && r->in_old && !r->in_new && r->delta == -7, "removed symbol");
	r = row(t, "added");
	ok(r && !r->in_old && r->in_new && r->delta == 9, "added symbol");
	ok(!row(t, "same") && !row(t, "wk"), "unchanged symbols are not rows");
	ok(t->add == 1 && t->remove == 1, "add/remove 1/1");
	/* grow: grow +5, x +1, tie_a +2, tie_b +2, ro +4; shrink: shrink -10, wv -3 */
	ok(t->grow == 5 && t->shrink == 2, "grow/shrink 5/2");
	ok(t->up == 9 + 5 + 1 + 2 + 2 + 4 && t->down == 7 + 10 + 3, "up/down");
	ok(index_of(t, "tie_b") + 1 == index_of(t, "tie_a"), "equal deltas: names in reverse order");
	ok(index_of(t, "added") == 0 && index_of(t, "shrink") == t->nrows - 1, "largest delta first");
	ok(t->old_total == 10 + 10 + 30 + 7 + 3 + 5 + 2 + 4 + 4 + 4, "old total");
	ok(st_size_diff_changed(&d), "totals differ");
	st_size_diff_free(&d);

	ok(!st_size_diff(a, b, ST_SD_CATEGORIES, &d, &e) && d.ntables == 3, "-c has three tables");
	ok(!strcmp(d.tables[2].title, "RO Data") && row(&d.tables[2], "ro") && !row(&d.tables[0], "ro"),
	   "r/R only in RO Data");
	ok(row(&d.tables[1], "wv") && !row(&d.tables[0], "wv"), "V in Data, not Function");
	st_size_diff_free(&d);
	ok(!st_size_diff(a, b, ST_SD_TEXT, &d, &e) && !row(&d.tables[0], "gone"), "-t: no data");
	st_size_diff_free(&d);
	ok(!st_size_diff(a, b, ST_SD_DATA, &d, &e) && row(&d.tables[0], "ro") && !row(&d.tables[0], "grow"),
	   "-d: data and rodata, no text");
	st_size_diff_free(&d);

	ok(!strcmp(st_sd_int_str(buf, (st_sd_int)1 << 70), "1180591620717411303424"), "128-bit sums print");
	ok(!strcmp(st_sd_int_str(buf, -42), "-42"), "negative numbers print");
}

static void check_text(void)
{
	static struct st_sym o[] = { SYM("é", 'T', 2) }, n[] = { SYM("é", 'T', 4) };
	struct st_elf_obj oo, no;
	struct st_elf_file a = mkfile(o, 1, &oo), b = mkfile(n, 1, &no);
	struct st_size_diff d;
	struct st_error e = { 0 };
	char out[4096] = "";
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");

	ok(f && !st_size_diff(&a, &b, ST_SD_DEFAULT, &d, &e), "utf-8 diff computes");
	st_size_diff_render(f, &d, &(struct st_render_opts){ .format = ST_FORMAT_TEXT });
	fclose(f);
	/* Python pads by code points: "é" + 39 blanks, then " %7s" */
	ok(strstr(out, "\nÃ©") == NULL && strstr(out, "\né                                       "
						   "       2       4      +2\n") != NULL,
	   "names are padded to 40 code points");
	st_size_diff_free(&d);
}

static void check_berkeley(void)
{
	struct st_section secs[] = {
		{ "", 0, 0, 0, 0 },
		{ ".text", 100, 0, 1, ST_SEC_BFD | ST_SEC_ALLOC | ST_SEC_CODE | ST_SEC_READONLY | ST_SEC_CONTENTS },
		{ ".rodata", 20, 0, 1, ST_SEC_BFD | ST_SEC_ALLOC | ST_SEC_READONLY | ST_SEC_CONTENTS },
		{ ".data", 8, 0, 1, ST_SEC_BFD | ST_SEC_ALLOC | ST_SEC_CONTENTS },
		{ ".bss", 16, 0, 8, ST_SEC_BFD | ST_SEC_ALLOC },
		{ ".comment", 30, 0, 1, ST_SEC_BFD | ST_SEC_READONLY | ST_SEC_CONTENTS },
		{ ".rela.text", 48, 0, 4, ST_SEC_READONLY | ST_SEC_CONTENTS },
		{ ".nothing", 4, 0, 8, ST_SEC_BFD | ST_SEC_NOFLAGS },
	};
	struct st_elf_obj o = { .name = "x.o", .secs = secs, .nsecs = 8 };
	struct st_elf_file f = { .path = "x.o", .objs = &o, .nobjs = 1 }, *fp = &f;
	struct st_size_result r;
	struct st_error e = { 0 };

	ok(!st_size_compute(&fp, 1, &r, &e), "size computes");
	ok(r.objs[0].text == 120 && r.objs[0].data == 8 && r.objs[0].bss == 16,
	   "Berkeley: code and read-only to text, contents to data, the rest to bss");
	ok(r.text == 120 && r.data == 8 && r.bss == 16, "totals");
	ok(st_size_sysv_listed(&secs[5]) && !st_size_sysv_listed(&secs[6]) && !st_size_sysv_listed(&secs[7]),
	   "SysV lists BFD sections that have flags");
	st_size_free(&r);
}

int main(void)
{
	struct st_elf_obj oo, no;
	struct st_elf_file a = mkfile(old_syms, sizeof(old_syms) / sizeof(old_syms[0]), &oo);
	struct st_elf_file b = mkfile(new_syms, sizeof(new_syms) / sizeof(new_syms[0]), &no);

	check_default(&a, &b);
	check_text();
	check_berkeley();
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
