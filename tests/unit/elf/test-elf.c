// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/elf alone: hand-built ELF images (64-bit LE and 32-bit BE) with one
 * symbol per case, checking nm's class letter and the nm / --size-sort
 * visibility lib/elf derives; archives with GNU long names and BSD names;
 * and the refusals for out-of-range data. TAP output.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "elf/elf.h"

#include "../../tap.h"

/* ---- a minimal ELF writer ---- */

struct sec {
	const char *name;
	uint32_t type;
	uint64_t flags;
	uint32_t size;	/* for NOBITS or generated content */
	uint32_t link, info, entsize;
};

struct sym {
	const char *name;
	unsigned char bind, type;
	uint16_t shndx;
	uint64_t size;
};

struct img {
	unsigned char buf[8192];
	size_t len;
	int is64, be;
};

static void put(struct img *m, size_t off, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		m->buf[off + i] = m->be ? (uint8_t)(v >> (8 * (n - 1 - i))) : (uint8_t)(v >> (8 * i));
}

static size_t add_bytes(struct img *m, const void *p, size_t n)
{
	size_t off = (m->len + 7) & ~(size_t)7;

	memcpy(m->buf + off, p, n);
	m->len = off + n;
	return off;
}

/*
 * Sections: [0] null, user sections, then .symtab, .strtab, .shstrtab.
 * Returns the image length.
 */
static size_t build(struct img *m, int is64, int be, const struct sec *secs, int nsec,
		    const struct sym *syms, int nsym, uint16_t machine)
{
	size_t shstr_len = 1, str_len = 1, off[64], shoff, symoff, stroff, shstroff;
	char shstr[1024] = "", str[1024] = "";
	uint32_t shname[64], stname[64];
	int i, total = nsec + 4, es = is64 ? 24 : 16, shes = is64 ? 64 : 40;
	unsigned char zero[4096] = { 0 };

	memset(m, 0, sizeof(*m));
	m->is64 = is64;
	m->be = be;
	m->len = is64 ? 64 : 52;
	for (i = 0; i < nsec; i++) {
		shname[i + 1] = shstr_len;
		strcpy(shstr + shstr_len, secs[i].name);
		shstr_len += strlen(secs[i].name) + 1;
		off[i + 1] = secs[i].type == SHT_NOBITS ? 0 : add_bytes(m, zero, secs[i].size);
	}
	for (i = 0; i < nsym; i++) {
		stname[i] = str_len;
		strcpy(str + str_len, syms[i].name);
		str_len += strlen(syms[i].name) + 1;
	}
	symoff = add_bytes(m, zero, (size_t)es * (nsym + 1));
	for (i = 0; i < nsym; i++) {
		size_t s = symoff + (size_t)es * (i + 1);
		unsigned char info = (unsigned char)((syms[i].bind << 4) | syms[i].type);

		put(m, s, stname[i], 4);
		if (is64) {
			m->buf[s + 4] = info;
			put(m, s + 6, syms[i].shndx, 2);
			put(m, s + 16, syms[i].size, 8);
		} else {
			put(m, s + 8, syms[i].size, 4);
			m->buf[s + 12] = info;
			put(m, s + 14, syms[i].shndx, 2);
		}
	}
	stroff = add_bytes(m, str, str_len);
	shname[nsec + 1] = shstr_len;
	strcpy(shstr + shstr_len, ".symtab");
	shstr_len += 8;
	shname[nsec + 2] = shstr_len;
	strcpy(shstr + shstr_len, ".strtab");
	shstr_len += 8;
	shname[nsec + 3] = shstr_len;
	strcpy(shstr + shstr_len, ".shstrtab");
	shstr_len += 10;
	shstroff = add_bytes(m, shstr, shstr_len);
	shoff = add_bytes(m, zero, (size_t)shes * total);
	for (i = 1; i < total; i++) {
		size_t h = shoff + (size_t)shes * i;
		uint64_t type, flags = 0, o, size, link = 0, info = 0, ent = 0;

		if (i <= nsec) {
			type = secs[i - 1].type, flags = secs[i - 1].flags, o = off[i];
			size = secs[i - 1].size, link = secs[i - 1].link, info = secs[i - 1].info;
			ent = secs[i - 1].entsize;
			/* 0: a relocation's size in this class (Elf64_Rela 24, Elf32_Rela 12) */
			if (!ent && type == SHT_RELA)
				ent = is64 ? 24 : 12;
		} else if (i == nsec + 1) {
			type = SHT_SYMTAB, o = symoff, size = (uint64_t)es * (nsym + 1);
			link = nsec + 2, info = 1, ent = es;
		} else if (i == nsec + 2) {
			type = SHT_STRTAB, o = stroff, size = str_len;
		} else {
			type = SHT_STRTAB, o = shstroff, size = shstr_len;
		}
		put(m, h, shname[i], 4);
		put(m, h + 4, type, 4);
		if (is64) {
			put(m, h + 8, flags, 8);
			put(m, h + 24, o, 8);
			put(m, h + 32, size, 8);
			put(m, h + 40, link, 4);
			put(m, h + 44, info, 4);
			put(m, h + 56, ent, 8);
		} else {
			put(m, h + 8, flags, 4);
			put(m, h + 16, o, 4);
			put(m, h + 20, size, 4);
			put(m, h + 24, link, 4);
			put(m, h + 28, info, 4);
			put(m, h + 36, ent, 4);
		}
	}
	memcpy(m->buf, ELFMAG, SELFMAG);
	m->buf[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	m->buf[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
	m->buf[EI_VERSION] = EV_CURRENT;
	put(m, 16, ET_REL, 2);
	put(m, 18, machine, 2);
	put(m, 20, EV_CURRENT, 4);
	if (is64) {
		put(m, 40, shoff, 8);
		put(m, 52, 64, 2);
		put(m, 58, 64, 2);
		put(m, 60, total, 2);
		put(m, 62, total - 1, 2);
	} else {
		put(m, 32, shoff, 4);
		put(m, 40, 52, 2);
		put(m, 46, 40, 2);
		put(m, 48, total, 2);
		put(m, 50, total - 1, 2);
	}
	return m->len;
}

/* ---- the cases ---- */

static const struct sec secs[] = {
	{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 64, 0, 0, 0 },	/* 1 */
	{ ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 64, 0, 0, 0 },		/* 2 */
	{ ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 64, 0, 0, 0 },		/* 3 */
	{ ".rodata", SHT_PROGBITS, SHF_ALLOC, 64, 0, 0, 0 },			/* 4 */
	{ ".debug_info", SHT_PROGBITS, 0, 16, 0, 0, 0 },			/* 5 */
	{ ".note.x", SHT_PROGBITS, 0, 16, 0, 0, 0 },				/* 6 */
	{ ".wnote", SHT_PROGBITS, SHF_WRITE, 16, 0, 0, 0 },			/* 7 */
	{ ".pdata", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 16, 0, 0, 0 },		/* 8 */
	{ ".rela.text", SHT_RELA, SHF_INFO_LINK, 0, 11, 1, 0 },		/* 9: folded */
	{ ".tbss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE | SHF_TLS, 8, 0, 0, 0 },	/* 10 */
};

static const struct {
	struct sym s;
	char letter;
	int nm, sized;
} cases[] = {
	{ { "gfunc", STB_GLOBAL, STT_FUNC, 1, 8 }, 'T', 1, 1 },
	{ { "lfunc", STB_LOCAL, STT_FUNC, 1, 8 }, 't', 1, 1 },
	{ { "gdata", STB_GLOBAL, STT_OBJECT, 2, 4 }, 'D', 1, 1 },
	{ { "ldata", STB_LOCAL, STT_OBJECT, 2, 4 }, 'd', 1, 1 },
	{ { "gbss", STB_GLOBAL, STT_OBJECT, 3, 4 }, 'B', 1, 1 },
	{ { "lbss", STB_LOCAL, STT_OBJECT, 3, 4 }, 'b', 1, 1 },
	{ { "gro", STB_GLOBAL, STT_OBJECT, 4, 4 }, 'R', 1, 1 },
	{ { "lro", STB_LOCAL, STT_OBJECT, 4, 4 }, 'r', 1, 1 },
	{ { "wfunc", STB_WEAK, STT_FUNC, 1, 4 }, 'W', 1, 1 },
	{ { "wobj", STB_WEAK, STT_OBJECT, 2, 4 }, 'V', 1, 1 },
	{ { "wundf", STB_WEAK, STT_FUNC, SHN_UNDEF, 0 }, 'w', 1, 0 },
	{ { "wundo", STB_WEAK, STT_OBJECT, SHN_UNDEF, 0 }, 'v', 1, 0 },
	{ { "undef", STB_GLOBAL, STT_NOTYPE, SHN_UNDEF, 0 }, 'U', 1, 0 },
	{ { "comm", STB_GLOBAL, STT_OBJECT, SHN_COMMON, 8 }, 'C', 1, 1 },
	{ { "uniq", 10 /* STB_GNU_UNIQUE */, STT_OBJECT, 2, 4 }, 'u', 1, 1 },
	{ { "ifn", STB_GLOBAL, 10 /* STT_GNU_IFUNC */, 1, 4 }, 'i', 1, 1 },
	{ { "wifn", STB_WEAK, 10, 1, 4 }, 'i', 1, 1 },
	{ { "gabs", STB_GLOBAL, STT_OBJECT, SHN_ABS, 4 }, 'A', 1, 0 },
	{ { "labs", STB_LOCAL, STT_NOTYPE, SHN_ABS, 0 }, 'a', 1, 0 },
	{ { "dbg", STB_LOCAL, STT_NOTYPE, 5, 4 }, 'N', 1, 1 },
	{ { "note", STB_LOCAL, STT_NOTYPE, 6, 4 }, 'n', 1, 1 },
	{ { "wnote", STB_LOCAL, STT_NOTYPE, 7, 4 }, '?', 1, 1 },
	{ { "pdata", STB_GLOBAL, STT_OBJECT, 8, 4 }, 'P', 1, 1 },
	{ { "inrela", STB_GLOBAL, STT_OBJECT, 9, 4 }, 'A', 1, 0 },	/* not a BFD section */
	{ { "tls", STB_GLOBAL, STT_TLS, 10, 4 }, 'B', 1, 1 },
	{ { "zero", STB_GLOBAL, STT_FUNC, 1, 0 }, 'T', 1, 0 },
	{ { "secsym", STB_LOCAL, STT_SECTION, 1, 0 }, 't', 0, 0 },
	{ { "file.c", STB_LOCAL, STT_FILE, SHN_ABS, 0 }, 'a', 0, 0 },
	{ { "loos", 11, STT_OBJECT, 2, 4 }, '?', 1, 1 },
	{ { "bad_shndx", STB_GLOBAL, STT_OBJECT, 200, 4 }, 'A', 1, 0 },
};

#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

/* The image check_letters() reads, with @rela_ent forced into .rela.text if non-zero. */
static void build_letters(struct img *m, int is64, int be, unsigned int rela_ent)
{
	struct sym syms[NCASES];
	size_t h;
	int i;

	for (i = 0; i < NCASES; i++)
		syms[i] = cases[i].s;
	build(m, is64, be, secs, sizeof(secs) / sizeof(secs[0]), syms, NCASES, is64 ? EM_X86_64 : EM_PPC);
	if (rela_ent) {
		/* section 9 is .rela.text; sh_entsize is the last field of its header */
		h = is64 ? 40 : 32;
		h = (size_t)(is64 ? m->buf[h] | m->buf[h + 1] << 8 | m->buf[h + 2] << 16 :
			     m->buf[h + 3] | m->buf[h + 2] << 8 | m->buf[h + 1] << 16);
		h += (size_t)(is64 ? 64 : 40) * 9 + (is64 ? 56 : 36);
		put(m, h, rela_ent, is64 ? 8 : 4);
	}
}

static void check_letters(int is64, int be)
{
	struct st_error e = { 0 };
	struct st_elf_file *f;
	static struct img m;
	char what[128];
	int i, ret;

	build_letters(&m, is64, be, 0);
	ret = st_elf_open_mem(&f, m.buf, m.len, "mem", &e);
	snprintf(what, sizeof(what), "%s-bit %s image opens", is64 ? "64" : "32", be ? "BE" : "LE");
	ok(!ret, "%s", what);
	if (ret) {
		printf("# %s\n", e.msg);
		return;
	}
	ok(f->nobjs == 1 && f->objs[0].nsyms == NCASES, "one object, every symbol");
	for (i = 0; i < NCASES && i < (int)f->objs[0].nsyms; i++) {
		const struct st_sym *s = &f->objs[0].syms[i];
		int good = s->type == cases[i].letter && !!(s->flags & ST_SYM_NM) == cases[i].nm &&
			   !!(s->flags & ST_SYM_SIZED) == cases[i].sized;

		snprintf(what, sizeof(what), "%s: '%c' nm=%d sized=%d (got '%c' %d %d)", cases[i].s.name,
			 cases[i].letter, cases[i].nm, cases[i].sized, s->type,
			 !!(s->flags & ST_SYM_NM), !!(s->flags & ST_SYM_SIZED));
		ok(good && !strcmp(s->name, cases[i].s.name), "%s", what);
	}
	ok(!(f->objs[0].secs[9].flags & ST_SEC_BFD), ".rela.text folded into .text");
	ok(!(f->objs[0].secs[11].flags & ST_SEC_BFD), ".symtab is not a section");
	ok((f->objs[0].secs[3].flags & (ST_SEC_BFD | ST_SEC_ALLOC | ST_SEC_CONTENTS)) ==
	   (ST_SEC_BFD | ST_SEC_ALLOC), ".bss allocated without contents");
	st_elf_close(f);
}

static size_t ar_member(unsigned char *out, size_t off, const char *hdrname, const void *data, size_t n)
{
	char h[61];

	snprintf(h, sizeof(h), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", hdrname, "0", "0", "0", "644", n);
	memcpy(out + off, h, 60);
	memcpy(out + off + 60, data, n);
	off += 60 + n;
	if (off & 1)
		out[off++] = '\n';
	return off;
}

static void check_archive(void)
{
	static const struct sym one[] = { { "f", STB_GLOBAL, STT_FUNC, 1, 4 } };
	static const char longnames[] = "a_rather_long_member_name.o/\n";
	static unsigned char ar[20000];
	struct st_error e = { 0 };
	struct st_elf_file *f;
	static struct img m;
	size_t len, n;
	int ret;

	n = build(&m, 1, 0, secs, 1, one, 1, EM_X86_64);
	memcpy(ar, "!<arch>\n", 8);
	len = ar_member(ar, 8, "/", "\0\0\0\0", 4);
	len = ar_member(ar, len, "//", longnames, sizeof(longnames) - 1);
	len = ar_member(ar, len, "/0", m.buf, n);
	len = ar_member(ar, len, "short.o/", m.buf, n);
	memcpy(ar + len, "#1/8            0           0     0     644     ", 48);
	snprintf((char *)ar + len + 48, 13, "%-10zu`\n", n + 8);
	memcpy(ar + len + 60, "bsd.o\0\0\0", 8);
	memcpy(ar + len + 68, m.buf, n);
	len += 68 + n;
	ret = st_elf_open_mem(&f, ar, len, "mem.a", &e);
	ok(!ret, "archive with index, long names and a BSD name opens");
	if (ret) {
		printf("# %s\n", e.msg);
		return;
	}
	ok(f->archive && f->nobjs == 3, "three members");
	if (f->nobjs == 3) {
		ok(!strcmp(f->objs[0].name, "a_rather_long_member_name.o"), "%s", f->objs[0].name);
		ok(!strcmp(f->objs[1].name, "short.o"), "%s", f->objs[1].name);
		ok(!strcmp(f->objs[2].name, "bsd.o"), "%s", f->objs[2].name);
	}
	st_elf_close(f);

	memcpy(ar, "!<thin>\n", 8);
	len = ar_member(ar, 8, "x.o/", "", 0);
	memcpy(ar + 8 + 48, "100       ", 10);
	ret = st_elf_open_mem(&f, ar, len, "thin.a", &e);
	ok(ret < 0 && strstr(e.msg, "thin"), "thin archive refused from memory");
}

static int count_obj(const struct st_elf_file *f, const struct st_elf_obj *o, void *ctx)
{
	(void)f;
	(void)o;
	(*(int *)ctx)++;
	return 0;
}

/*
 * What size needs to exit as GNU size does: -ENOEXEC for what binutils does
 * not recognise, -EBADMSG for a malformed archive; with ST_ELF_KEEP_GOING
 * a bad member is a warning and the others are read.
 */
static void check_error_kinds(void)
{
	static const struct sym one[] = { { "f", STB_GLOBAL, STT_FUNC, 1, 4 } };
	static unsigned char ar[20000];
	struct st_error e = { 0 };
	struct st_elf_file *f;
	static struct img m;
	size_t len, n;
	int ret, seen = 0;

	n = build(&m, 1, 0, secs, 1, one, 1, EM_X86_64);
	ret = st_elf_open_mem(&f, m.buf, n - 1, "short", NULL);
	ok(ret == -ENOEXEC, "truncated object: -ENOEXEC, also with no st_error");
	ret = st_elf_open_mem(&f, "not an object", 13, "text", &e);
	ok(ret == -ENOEXEC && e.code == ENOEXEC, "not ELF: -ENOEXEC");
	memcpy(ar, "!<arch>\n", 8);
	len = ar_member(ar, 8, "a.o/", m.buf, n);
	len = ar_member(ar, len, "cut.o/", m.buf, n / 2);
	len = ar_member(ar, len, "b.o/", m.buf, n);
	st_error_clear(&e);
	ret = st_elf_open_mem(&f, ar, len, "cut.a", &e);
	ok(ret == -ENOEXEC && strstr(e.file, "cut.a(cut.o)"), "truncated member: -ENOEXEC naming it");
	st_error_clear(&e);
	ret = st_elf_scan_mem(&f, ar, len, "cut.a", ST_ELF_KEEP_GOING, count_obj, &seen, &e);
	ok(!ret && f && f->nobjs == 2 && seen == 2 && f->nwarnings == 1 &&
	   strstr(f->warnings[0], "cut.a(cut.o): "), "keep going: the member is a warning");
	st_elf_close(f);
	len = ar_member(ar, 8, "a.o/", m.buf, n);
	memcpy(ar + len, "junk", 4);
	st_error_clear(&e);
	ret = st_elf_open_mem(&f, ar, len + 4, "junk.a", &e);
	ok(ret == -EBADMSG && !f, "malformed archive: -EBADMSG");
}

static void check_refusals(void)
{
	static const struct sym one[] = { { "f", STB_GLOBAL, STT_FUNC, 1, 4 } };
	static struct img m;
	struct st_error e;
	struct st_elf_file *f;
	size_t n;
	int ret;

	n = build(&m, 1, 0, secs, 1, one, 1, EM_X86_64);
	st_error_clear(&e);
	ret = st_elf_open_mem(&f, m.buf, n - 1, "short", &e);
	ok(ret < 0 && e.code && !strcmp(e.file, "short"), "truncated image refused, names the file");
	st_error_clear(&e);
	ret = st_elf_open_mem(&f, "\x7f" "ELF", 4, "tiny", &e);
	ok(ret < 0 && e.msg[0], "4-byte ELF refused");
	st_error_clear(&e);
	ret = st_elf_open_mem(&f, "", 0, "empty", &e);
	ok(ret < 0 && strstr(e.msg, "empty"), "empty input refused");
	st_error_clear(&e);
	ret = st_elf_open(&f, "/nonexistent/x.o", &e);
	ok(ret == -2 && !strcmp(e.file, "/nonexistent/x.o"), "missing file: -ENOENT");
	st_error_clear(&e);
	ret = st_elf_open(&f, "/", &e);
	ok(ret < 0 && strstr(e.msg, "directory"), "directory refused");
}

/*
 * binutils refuses a relocation section whose entry size is not the
 * class's (powerpc-linux-gnu-size: "file format not recognized").
 */
static void check_rela_entsize(void)
{
	static struct img m;
	struct st_error e = { 0 };
	struct st_elf_file *f;
	int ret;

	build_letters(&m, 0, 1, 24);
	ret = st_elf_open_mem(&f, m.buf, m.len, "be32", &e);
	ok(ret < 0 && strstr(e.msg, "not recognized"), "32-bit image with RELA entry size 24 refused");
	if (!ret)
		st_elf_close(f);
}

/* Write the images to DIR for tests/diff/sizes/images.sh (binutils size reads them). */
static int write_images(const char *dir)
{
	static const struct { const char *name; int is64, be; unsigned int rela; } w[] = {
		{ "le64.o", 1, 0, 0 }, { "be32.o", 0, 1, 0 }, { "be32-rela24.o", 0, 1, 24 },
	};
	static struct img m;
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		FILE *out;

		build_letters(&m, w[i].is64, w[i].be, w[i].rela);
		snprintf(path, sizeof(path), "%s/%s", dir, w[i].name);
		out = fopen(path, "wb");
		if (!out || fwrite(m.buf, 1, m.len, out) != m.len || fclose(out)) {
			perror(path);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_images(argv[2]);
	check_letters(1, 0);
	check_letters(0, 1);
	check_rela_entsize();
	check_archive();
	check_error_kinds();
	check_refusals();
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
