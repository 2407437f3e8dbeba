/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_ELF_H
#define ST_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct st_error;

/*
 * lib/elf is the only code that talks to libelf. It opens an ELF file or an
 * ar archive (also a GNU thin archive) and hands out plain arrays: for each
 * object its sections and its symbols, each symbol already carrying the
 * class letter GNU nm 2.40 prints for it and whether nm lists it at all.
 * Only headers, section headers, symbol and string tables are read, in
 * bounded pieces; names point into the kept string tables. Everything stays
 * valid until st_elf_close().
 */

/* Section flags, modelled on the BFD section flags nm and size look at. */
#define ST_SEC_ALLOC	0x001	/* SHF_ALLOC */
#define ST_SEC_LOAD	0x002	/* allocated and has contents */
#define ST_SEC_CODE	0x004	/* SHF_EXECINSTR */
#define ST_SEC_DATA	0x008	/* loaded and not code */
#define ST_SEC_READONLY	0x010	/* no SHF_WRITE */
#define ST_SEC_CONTENTS	0x020	/* not SHT_NOBITS */
#define ST_SEC_SMALL	0x040	/* GP-relative small data (MIPS, Alpha, IA-64) */
#define ST_SEC_DEBUG	0x080	/* debugging section, recognised by name */
#define ST_SEC_BFD	0x100	/* binutils shows it as a section at all */
#define ST_SEC_NOFLAGS	0x200	/* BFD flags would be empty: `size -A` skips it */

struct st_section {
	const char *name;	/* into the section name table */
	uint64_t size;
	uint64_t addr;
	uint32_t type;		/* sh_type */
	uint32_t flags;		/* ST_SEC_* */
	char letter;		/* nm's letter for a local symbol defined here */
};

/* Symbol flags. */
#define ST_SYM_NM	0x01	/* plain `nm` lists it */
#define ST_SYM_SIZED	0x02	/* `nm --size-sort` lists it */
#define ST_SYM_UNDEF	0x04
#define ST_SYM_ABS	0x08	/* absolute, or in a section binutils does not model */
#define ST_SYM_COMMON	0x10

struct st_sym {
	const char *name;	/* into the kept string table, never NULL */
	uint64_t size;		/* st_size (nm and size never need st_value) */
	uint32_t shndx;		/* resolved section index (SHN_XINDEX undone) */
	char type;		/* nm's class letter: T t D d B b R r V v W w C U i u A a N n ... */
	uint8_t flags;		/* ST_SYM_* */
	uint8_t bind;		/* STB_* */
	uint8_t stt;		/* STT_* */
};

struct st_elf_obj {
	const char *name;	/* as binutils names it: path, or member path for archives */
	struct st_section *secs;	/* indexed by ELF section index */
	size_t nsecs;
	struct st_sym *syms;	/* .symtab without the null entry, in file order */
	size_t nsyms;
	bool has_symtab;
	bool lto_ir;		/* GCC LTO IR (slim or fat): nm sees plugin symbols */
	bool lto_slim;
	uint8_t elfclass;	/* ELFCLASS32 or ELFCLASS64 */
	uint8_t data;		/* ELFDATA2LSB or ELFDATA2MSB */
	uint16_t machine;
	uint16_t etype;
};

struct st_elf_file {
	const char *path;
	bool archive;		/* an ar archive: print names "(ex PATH)" */
	bool thin;
	struct st_elf_obj *objs;
	size_t nobjs;
	/*
	 * Archive members skipped because they are not ELF (nm and size warn
	 * and go on): "ARCHIVE(MEMBER): file format not recognized"; with
	 * ST_ELF_WARN_NO_SYMBOLS also nm's "no symbols", in file order.
	 */
	const char **warnings;
	size_t nwarnings;
	void *priv;
};

/*
 * Open @path and read every object in it. Returns 0 and sets *@out, or
 * -errno with @e saying what is wrong with which file. Hostile input never
 * crashes: truncated files, out of range offsets, bad string indexes,
 * corrupt archive members are errors.
 */
int st_elf_open(struct st_elf_file **out, const char *path, struct st_error *e);
/* Sections only: no symbols are read (`size` needs none). */
#define ST_ELF_NO_SYMBOLS	0x1
/* Only the symbols `nm --size-sort` lists (ST_SYM_SIZED), in file order. */
#define ST_ELF_SIZED_ONLY	0x2
/*
 * size's way with bad input: an archive member that cannot be read is a
 * warning, like a member that is not ELF, and the other members are read;
 * when the archive itself is malformed (-EBADMSG), *out is still set, to
 * the members before the damage, and must be closed.
 */
#define ST_ELF_KEEP_GOING	0x4
/*
 * nm's warning for an object with no symbols (stripped: no .symtab, or one
 * with only its null entry), "FILE: no symbols" or "ARCHIVE(MEMBER): no
 * symbols", added to the file's warnings in the order nm prints them.
 */
#define ST_ELF_WARN_NO_SYMBOLS	0x8
/*
 * Errors: -ENOEXEC for a file or member binutils would not recognise
 * (not ELF, truncated, corrupt headers), -EBADMSG for a malformed archive,
 * else the errno of opening or reading the file (-EINVAL for one that is
 * empty or not a regular file).
 */
int st_elf_open_flags(struct st_elf_file **out, const char *path, unsigned int flags,
		      struct st_error *e);
/*
 * For inputs too large to hold: like st_elf_open_flags(), but each object
 * is handed to @fn as soon as it is read, and its sections, symbols and
 * string table are freed when @fn returns (the st_elf_obj left in *@out
 * has nsecs and nsyms 0). Memory follows the largest object, not the file.
 * A non-zero return from @fn (-errno, with @e filled) stops the walk.
 */
typedef int (*st_elf_obj_fn)(const struct st_elf_file *f, const struct st_elf_obj *o,
			     void *ctx);
int st_elf_scan(struct st_elf_file **out, const char *path, unsigned int flags,
		st_elf_obj_fn fn, void *ctx, struct st_error *e);
/* Same, over a caller-owned buffer (the fuzz target). @name is for messages. */
int st_elf_open_mem(struct st_elf_file **out, const void *buf, size_t len,
		    const char *name, struct st_error *e);
int st_elf_scan_mem(struct st_elf_file **out, const void *buf, size_t len, const char *name,
		    unsigned int flags, st_elf_obj_fn fn, void *ctx, struct st_error *e);
/* Frees everything; NULL is fine. */
void st_elf_close(struct st_elf_file *f);

/* Number of symbols with ST_SYM_SIZED over all objects (for table sizing). */
size_t st_elf_count_sized(const struct st_elf_file *f);

#endif
