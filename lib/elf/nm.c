// SPDX-License-Identifier: GPL-2.0-only
/*
 * How GNU binutils 2.40 (BFD) sees an ELF object, reduced to what nm and
 * size print: which section headers become BFD sections, the BFD flags of
 * each, the class letter nm gives each symbol and which symbols nm leaves
 * out. Written from the binutils documentation and behaviour, checked
 * differentially against nm and size in tests/diff/sizes.
 */
#include <string.h>

#include "elf/elf_priv.h"

#ifndef SHF_MIPS_GPREL
#define SHF_MIPS_GPREL		0x10000000
#endif
#define SHN_MIPS_SCOMMON_	0xff03
#define SHN_MIPS_SUNDEF_	0xff04
#define SHN_X86_64_LCOMMON_	0xff02
#ifndef STB_GNU_UNIQUE
#define STB_GNU_UNIQUE		10
#endif
#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC		10
#endif

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Debugging sections are known by name only, and only when not allocated. */
static bool debug_name(const char *n)
{
	if (n[0] != '.')
		return false;
	switch (n[1]) {
	case 'd':
	case 'g':
	case 'z':
	case 'l':
	case 's':
	case '\0':
		break;
	default:
		return false;
	}
	return starts(n, ".debug") || starts(n, ".gnu.debuglto_.debug_") ||
	       starts(n, ".gnu.linkonce.wi.") || starts(n, ".zdebug") ||
	       starts(n, ".line") || starts(n, ".stab") || !strcmp(n, ".gdb_index");
}

/*
 * Machines whose backend turns a GP-relative section flag into small data.
 * Not MIPS: binutils 2.40 gives .sdata/.sbss symbols there plain d/b.
 */
static bool small_data(uint16_t machine, uint64_t sh_flags)
{
	switch (machine) {
	case EM_ALPHA:
	case EM_IA_64:
		/* SHF_ALPHA_GPREL == SHF_IA_64_SHORT */
		return sh_flags & SHF_MIPS_GPREL;
	default:
		return false;
	}
}

static uint32_t sec_flags(const struct st_elf_obj *o, const GElf_Shdr *sh, const char *name)
{
	uint32_t f = 0;

	if (sh->sh_type != SHT_NOBITS)
		f |= ST_SEC_CONTENTS;
	if (sh->sh_flags & SHF_ALLOC) {
		f |= ST_SEC_ALLOC;
		if (sh->sh_type != SHT_NOBITS)
			f |= ST_SEC_LOAD;
	}
	if (!(sh->sh_flags & SHF_WRITE))
		f |= ST_SEC_READONLY;
	if (sh->sh_flags & SHF_EXECINSTR)
		f |= ST_SEC_CODE;
	else if (f & ST_SEC_LOAD)
		f |= ST_SEC_DATA;
	if (!(f & ST_SEC_ALLOC) && debug_name(name))
		f |= ST_SEC_DEBUG;
	if (small_data(o->machine, sh->sh_flags))
		f |= ST_SEC_SMALL;
	/* BFD would still have some flag set for these */
	if (!f && !(sh->sh_flags & (SHF_MERGE | SHF_STRINGS | SHF_GROUP | SHF_TLS | SHF_EXCLUDE)) &&
	    sh->sh_type != SHT_GROUP && !starts(name, ".gnu.linkonce"))
		f |= ST_SEC_NOFLAGS;
	return f;
}

/*
 * A REL/RELA section is folded into the section it relocates (and so is
 * not a section of its own) unless BFD cannot model it that way.
 */
static bool folded_reloc(const struct st_elf_obj *o, const GElf_Shdr *shdrs, size_t i, size_t symtab)
{
	const GElf_Shdr *sh = &shdrs[i];
	uint32_t t;

	if ((o->etype == ET_EXEC || o->etype == ET_DYN) && (sh->sh_flags & SHF_ALLOC))
		return false;
	if (sh->sh_link == SHN_UNDEF || sh->sh_link != symtab)
		return false;
	if (sh->sh_info == SHN_UNDEF || sh->sh_info >= o->nsecs)
		return false;
	t = shdrs[sh->sh_info].sh_type;
	return t != SHT_REL && t != SHT_RELA;
}

static char coff_letter(const char *n);
static char flags_letter(uint32_t f);

void st_nm_classify_sections(struct st_elf_obj *o, const GElf_Shdr *shdrs,
			     size_t shstrndx, size_t symtab)
{
	size_t i, symstr = symtab ? shdrs[symtab].sh_link : 0;

	for (i = 1; i < o->nsecs; i++) {
		const GElf_Shdr *sh = &shdrs[i];
		struct st_section *s = &o->secs[i];
		bool bfd = true;

		switch (sh->sh_type) {
		case SHT_NULL:
		case SHT_SYMTAB:
		case SHT_SYMTAB_SHNDX:
			bfd = false;
			break;
		case SHT_STRTAB:
			bfd = i != shstrndx && !(symtab && i == symstr);
			break;
		case SHT_REL:
		case SHT_RELA:
			bfd = !folded_reloc(o, shdrs, i, symtab);
			break;
		}
		if (i == shstrndx)
			bfd = false;
		s->flags = sec_flags(o, sh, s->name);
		if (bfd)
			s->flags |= ST_SEC_BFD;
		/* the letter of a local symbol defined here, found once per section */
		s->letter = coff_letter(s->name);
		if (s->letter == '?')
			s->letter = flags_letter(s->flags);
	}
}

/*
 * nm's letters for sections that COFF names, checked before the flags.
 * The second character tells the candidates apart: one compare at most
 * for each of the many sections of an object built with -ffunction-sections.
 */
static char coff_letter(const char *n)
{
	const char *name;
	size_t l;
	char c;

	if (n[0] != '.')
		return '?';
	switch (n[1]) {
	case 'd':
		name = ".drectve", c = 'i';
		break;
	case 'e':
		name = ".edata", c = 'e';
		break;
	case 'i':
		name = ".idata", c = 'i';
		break;
	case 'p':
		name = ".pdata", c = 'p';
		break;
	default:
		return '?';
	}
	l = strlen(name);
	if (!strncmp(n, name, l) && memchr(".$0123456789", n[l], 13))
		return c;
	return '?';
}

static char flags_letter(uint32_t f)
{
	if (f & ST_SEC_CODE)
		return 't';
	if (f & ST_SEC_DATA) {
		if (f & ST_SEC_READONLY)
			return 'r';
		return (f & ST_SEC_SMALL) ? 'g' : 'd';
	}
	if (!(f & ST_SEC_CONTENTS))
		return (f & ST_SEC_SMALL) ? 's' : 'b';
	if (f & ST_SEC_DEBUG)
		return 'N';
	if (f & ST_SEC_READONLY)
		return 'n';
	return '?';
}

enum where { IN_SEC, IN_UND, IN_ABS, IN_COM, IN_SCOM };

static enum where locate(const struct st_elf_obj *o, const struct st_sym *s)
{
	switch (s->shndx) {
	case SHN_UNDEF:
		return IN_UND;
	case SHN_ABS:
		return IN_ABS;
	case SHN_COMMON:
		return IN_COM;
	}
	if (o->machine == EM_MIPS || o->machine == EM_MIPS_RS3_LE) {
		if (s->shndx == SHN_MIPS_SCOMMON_)
			return IN_SCOM;
		if (s->shndx == SHN_MIPS_SUNDEF_)
			return IN_UND;
	}
	if (o->machine == EM_X86_64 && s->shndx == SHN_X86_64_LCOMMON_)
		return IN_COM;
	if (s->shndx < o->nsecs && (o->secs[s->shndx].flags & ST_SEC_BFD))
		return IN_SEC;
	/* a section BFD did not make: the absolute section */
	return IN_ABS;
}

static char letter(const struct st_elf_obj *o, const struct st_sym *s, enum where w)
{
	bool object = s->stt == STT_OBJECT || s->stt == STT_COMMON;
	bool global = s->bind == STB_GLOBAL && w != IN_UND && w != IN_COM;
	char c;

	if (w == IN_COM)
		return 'C';
	if (w == IN_SCOM)
		return 'c';
	if (w == IN_UND) {
		if (s->bind == STB_WEAK)
			return object ? 'v' : 'w';
		return 'U';
	}
	if (s->stt == STT_GNU_IFUNC)
		return 'i';
	if (s->bind == STB_WEAK)
		return object ? 'V' : 'W';
	if (s->bind == STB_GNU_UNIQUE)
		return 'u';
	if (!global && s->bind != STB_LOCAL)
		return '?';
	if (w == IN_ABS) {
		c = 'a';
	} else {
		c = o->secs[s->shndx].letter;
	}
	if (global && c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	return c;
}

/* Symbols nm hides unless --special-syms: mapping symbols and the like. */
static bool special(const struct st_elf_obj *o, const char *n)
{
	switch (o->machine) {
	case EM_ARM:
		return n[0] == '$' && n[1] && strchr("atdbfp", n[1]) && (n[2] == '\0' || n[2] == '.');
	case EM_AARCH64:
		return n[0] == '$' && n[1] && strchr("xdmfp", n[1]) && (n[2] == '\0' || n[2] == '.');
	case EM_RISCV:
		return !n[0] || (n[0] == '.' && (n[1] == 'L' || n[1] == '.')) ||
		       (n[0] == '_' && n[1] == '.' && n[2] == 'L' && n[3] == '_') ||
		       !strcmp(n, "$d") || !strcmp(n, "$x") || !strncmp(n, "$xrv", 4);
	default:
		return false;
	}
}

void st_nm_classify_symbols(struct st_elf_obj *o)
{
	size_t i;

	for (i = 0; i < o->nsyms; i++) {
		struct st_sym *s = &o->syms[i];
		enum where w = locate(o, s);
		uint8_t fl = 0;

		s->type = letter(o, s, w);
		if (w == IN_UND)
			fl |= ST_SYM_UNDEF;
		else if (w == IN_ABS)
			fl |= ST_SYM_ABS;
		else if (w == IN_COM || w == IN_SCOM)
			fl |= ST_SYM_COMMON;
		/* section and file symbols are "debugging" symbols to BFD */
		if (s->stt != STT_SECTION && s->stt != STT_FILE && !special(o, s->name) && !o->lto_ir) {
			fl |= ST_SYM_NM;
			if (!(fl & (ST_SYM_UNDEF | ST_SYM_ABS)) && s->size)
				fl |= ST_SYM_SIZED;
		}
		s->flags = fl;
	}
}
