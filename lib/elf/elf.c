// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading ELF objects and ar archives.
 *
 * Nothing is mapped. Each object - the file itself, an archive member, or
 * a thin-archive member read from its own file - is read with pread() in
 * bounded pieces: its ELF header, its section header table, the section
 * name table, the string table of its symbols and the symbol table itself
 * (in fixed-size chunks). libelf's elf32/elf64_xlatetom() turn the file's
 * class and byte order into GElf structures; ELF64 in the host's byte
 * order is read straight into place. So memory follows the number of
 * sections and symbols (the names are kept, nothing else), not the size of
 * the file. (Mapping the tables instead of reading them was measured: on
 * a page-cache-hot 260 MB archive the page faults and unmaps cost what the
 * copies do.)
 *
 * st_elf_scan() hands each object over and forgets it: its arrays and
 * string tables are scratch space reused from object to object, and with
 * ST_ELF_SIZED_ONLY only the symbols nm --size-sort lists are kept.
 *
 * What binutils (BFD) refuses as "file format not recognized" is refused
 * here too, with the reason; a member of an archive that is not ELF at all
 * is skipped with a warning, as nm and size do.
 *
 * The rules that decide which sections binutils models and what letter nm
 * gives a symbol live in nm.c; this file only walks the structures and
 * refuses anything out of bounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/str.h"
#include "elf/elf.h"
#include "elf/elf_priv.h"

#ifndef PN_XNUM
#define PN_XNUM		0xffff
#endif
#ifndef EM_OLD_SPARCV9
#define EM_OLD_SPARCV9	11
#endif
#ifndef SHF_INFO_LINK
#define SHF_INFO_LINK	0x40
#endif

/* Symbols translated per read: bounds the buffers whatever the table size. */
#define SYM_CHUNK	4096

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA	ELFDATA2LSB
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_DATA	ELFDATA2MSB
#else
#define HOST_DATA	ELFDATANONE
#endif

struct priv {
	char **keep;		/* names and tables the results point into */
	size_t nkeep, keep_cap;
	size_t objs_cap, warn_cap;
	unsigned int flags;	/* ST_ELF_* */
	bool mem;		/* opened from a buffer: no thin-archive members */
	st_elf_obj_fn fn;	/* st_elf_scan(): each object goes here, then away */
	void *ctx;
	char *symstr;		/* st_elf_scan(): the current object's string tables */
	size_t symstr_cap;
	char *shstr;
	size_t shstr_cap;
	/* scratch space reused from object to object: no page faults per member */
	void *shdr_buf;		/* raw section headers */
	size_t shdr_cap;
	GElf_Shdr *shdrs;	/* translated section headers */
	size_t shdrs_cap;
	void *chunk_raw;	/* SYM_CHUNK raw symbols */
	GElf_Sym *chunk;	/* SYM_CHUNK translated symbols */
	/* st_elf_scan(): the current object's arrays */
	struct st_sym *syms;
	size_t syms_cap;
	struct st_section *secs;
	size_t secs_cap;
};

/* Grow *@buf to hold @n bytes; its contents are not kept. */
static void *scratch(void **buf, size_t *cap, size_t n)
{
	if (n > *cap) {
		size_t c = *cap ? *cap : 4096;

		while (c < n)
			c *= 2;
		free(*buf);
		*buf = malloc(c);
		*cap = *buf ? c : 0;
	}
	return *buf;
}

/* Where an object's bytes are: a file descriptor or a buffer, and a window. */
struct src {
	int fd;			/* -1: read from @mem */
	const char *mem;
	uint64_t base;		/* the window's offset in the file */
	uint64_t len;		/* the window's length */
};

static bool range_ok(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

/* Read @n bytes at @off of the window: -EINVAL past its end, -errno on I/O errors. */
static int src_read(const struct src *s, uint64_t off, void *buf, size_t n)
{
	char *b = buf;

	if (!range_ok(off, n, s->len))
		return -EINVAL;
	if (s->fd < 0) {
		memcpy(b, s->mem + s->base + off, n);
		return 0;
	}
	off += s->base;
	while (n) {
		ssize_t r = pread(s->fd, b, n, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;	/* the file shrank under us */
		b += r;
		off += r;
		n -= r;
	}
	return 0;
}

/* Take ownership of @buf until st_elf_close(); frees it on failure. */
static void *keep(struct priv *p, void *buf)
{
	if (!buf)
		return NULL;
	if (p->nkeep == p->keep_cap) {
		size_t cap = p->keep_cap ? p->keep_cap * 2 : 16;
		char **n = realloc(p->keep, cap * sizeof(*n));

		if (!n) {
			free(buf);
			return NULL;
		}
		p->keep = n;
		p->keep_cap = cap;
	}
	p->keep[p->nkeep++] = buf;
	return buf;
}

static int add_warning(struct st_elf_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int add_warning(struct st_elf_file *f, const char *fmt, ...)
{
	struct priv *p = f->priv;
	va_list ap;
	char *msg;
	int n;

	if (f->nwarnings == p->warn_cap) {
		size_t cap = p->warn_cap ? p->warn_cap * 2 : 4;
		const char **w = realloc(f->warnings, cap * sizeof(*w));

		if (!w)
			return -ENOMEM;
		f->warnings = w;
		p->warn_cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0 || !keep(p, msg))
		return -ENOMEM;
	f->warnings[f->nwarnings++] = msg;
	return 0;
}

/*
 * Open @path read-only. Only regular, non-empty files: a pipe or a
 * directory cannot be read at offsets and is reported as such.
 */
static int open_file(const char *path, int *fdp, uint64_t *len, struct st_error *e)
{
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return st_err(e, errno, path, "%s", strerror(errno));
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		return st_err(e, err, path, "%s", strerror(err));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return st_err(e, EISDIR, path, "is a directory");
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return st_err(e, EINVAL, path, "not a regular file (pipes and devices cannot be read)");
	}
	if (st.st_size == 0) {
		close(fd);
		return st_err(e, EINVAL, path, "file is empty");
	}
	/* archives are walked front to back: let the kernel read ahead far */
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	*fdp = fd;
	*len = st.st_size;
	return 0;
}

static struct st_elf_obj *new_obj(struct st_elf_file *f)
{
	struct priv *p = f->priv;
	struct st_elf_obj *o;

	if (f->nobjs == p->objs_cap) {
		size_t cap = p->objs_cap ? p->objs_cap * 2 : 4;

		o = realloc(f->objs, cap * sizeof(*o));
		if (!o)
			return NULL;
		f->objs = o;
		p->objs_cap = cap;
	}
	o = &f->objs[f->nobjs++];
	memset(o, 0, sizeof(*o));
	return o;
}

/* A string table read into memory: names at or past @end are rejected. */
struct strtab {
	const char *base;
	size_t end;	/* one past the last NUL; names must start before it */
};

static const char *strtab_get(const struct strtab *t, uint64_t off)
{
	if (off >= t->end)
		return NULL;
	return t->base + off;
}

struct reader {
	const char *name;	/* for messages */
	struct src src;
	struct priv *p;
	uint8_t cls, data;
	GElf_Ehdr eh;
	size_t shnum;
	size_t shstrndx;
	GElf_Shdr *shdrs;
	struct st_error *e;
};

/* Turn @n file records of @type at @raw into memory form at @out (may be @raw). */
static int xlate(const struct reader *r, Elf_Type type, void *out, const void *raw,
		 size_t n)
{
	size_t fsz = r->cls == ELFCLASS64 ? elf64_fsize(type, n, EV_CURRENT) :
					    elf32_fsize(type, n, EV_CURRENT);
	Elf_Data src = { .d_buf = (void *)raw, .d_type = type, .d_size = fsz,
			 .d_version = EV_CURRENT };
	Elf_Data dst = { .d_buf = out, .d_type = type, .d_size = fsz, .d_version = EV_CURRENT };
	Elf_Data *ok;

	if (r->cls == ELFCLASS64)
		ok = elf64_xlatetom(&dst, &src, r->data);
	else
		ok = elf32_xlatetom(&dst, &src, r->data);
	return ok ? 0 : -EINVAL;
}

static size_t fsize(const struct reader *r, Elf_Type type)
{
	return r->cls == ELFCLASS64 ? elf64_fsize(type, 1, EV_CURRENT) :
				      elf32_fsize(type, 1, EV_CURRENT);
}

/* ELF64 in the host's byte order: the file's records are GElf's as they are. */
static bool native64(const struct reader *r)
{
	return r->cls == ELFCLASS64 && r->data == HOST_DATA;
}

/* Report a failed src_read of @what. */
static int read_err(const struct reader *r, int ret, const char *what)
{
	if (ret == -EINVAL)
		return st_err(r->e, EINVAL, r->name, "%s extends past the end of the file", what);
	return st_err(r->e, -ret, r->name, "cannot read %s: %s", what, strerror(-ret));
}

/* BFD's "file format not recognized", with the reason BFD keeps to itself. */
static int not_recognized(const struct reader *r, const char *why, ...)
	__attribute__((format(printf, 2, 3)));

static int not_recognized(const struct reader *r, const char *why, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, why);
	vsnprintf(buf, sizeof(buf), why, ap);
	va_end(ap);
	return st_err(r->e, EINVAL, r->name, "file format not recognized (%s)", buf);
}

static int read_ehdr(struct reader *r, const unsigned char *id, size_t idlen)
{
	if (r->cls == ELFCLASS64) {
		Elf64_Ehdr h;

		if (idlen < sizeof(h))
			return st_err(r->e, EINVAL, r->name, "file truncated (ELF header)");
		if (xlate(r, ELF_T_EHDR, &h, id, 1))
			return st_err(r->e, EINVAL, r->name, "bad ELF header: %s", elf_errmsg(-1));
		r->eh = h;
	} else {
		Elf32_Ehdr h;

		if (idlen < sizeof(h))
			return st_err(r->e, EINVAL, r->name, "file truncated (ELF header)");
		if (xlate(r, ELF_T_EHDR, &h, id, 1))
			return st_err(r->e, EINVAL, r->name, "bad ELF header: %s", elf_errmsg(-1));
		memcpy(r->eh.e_ident, h.e_ident, EI_NIDENT);
		r->eh.e_type = h.e_type;
		r->eh.e_machine = h.e_machine;
		r->eh.e_version = h.e_version;
		r->eh.e_entry = h.e_entry;
		r->eh.e_phoff = h.e_phoff;
		r->eh.e_shoff = h.e_shoff;
		r->eh.e_flags = h.e_flags;
		r->eh.e_ehsize = h.e_ehsize;
		r->eh.e_phentsize = h.e_phentsize;
		r->eh.e_phnum = h.e_phnum;
		r->eh.e_shentsize = h.e_shentsize;
		r->eh.e_shnum = h.e_shnum;
		r->eh.e_shstrndx = h.e_shstrndx;
	}
	/* the header's own sizes, as BFD's elf_object_p checks them */
	if (r->eh.e_shnum && r->eh.e_shentsize != fsize(r, ELF_T_SHDR))
		return not_recognized(r, "section header size %u", r->eh.e_shentsize);
	if (r->eh.e_phnum && r->eh.e_phentsize != fsize(r, ELF_T_PHDR))
		return not_recognized(r, "program header size %u with %u program headers",
				      r->eh.e_phentsize, r->eh.e_phnum);
	return 0;
}

/* Read and translate @n section headers starting at index @first into @out. */
static int read_shdrs(struct reader *r, size_t first, size_t n, GElf_Shdr *out)
{
	size_t ent = fsize(r, ELF_T_SHDR), i;
	Elf32_Shdr *s32;
	void *raw;
	int ret;

	if (!range_ok(r->eh.e_shoff + first * ent, n * ent, r->src.len))
		return st_err(r->e, EINVAL, r->name, "section header table past the end of the file");
	if (native64(r)) {
		/* the file's layout is GElf's: read straight into place */
		ret = src_read(&r->src, r->eh.e_shoff + first * ent, out, n * ent);
		return ret ? read_err(r, ret, "the section headers") : 0;
	}
	raw = scratch(&r->p->shdr_buf, &r->p->shdr_cap, n * sizeof(GElf_Shdr));	/* >= n * ent */
	if (!raw)
		return st_err(r->e, ENOMEM, r->name, "out of memory");
	ret = src_read(&r->src, r->eh.e_shoff + first * ent, raw, n * ent);
	if (ret) {
		if (ret == -EINVAL)
			return st_err(r->e, EINVAL, r->name, "section header table past the end of the file");
		return read_err(r, ret, "the section headers");
	}
	if (r->cls == ELFCLASS64) {
		ret = xlate(r, ELF_T_SHDR, out, raw, n);
	} else {
		ret = xlate(r, ELF_T_SHDR, raw, raw, n);
		s32 = raw;
		for (i = 0; !ret && i < n; i++) {
			out[i].sh_name = s32[i].sh_name;
			out[i].sh_type = s32[i].sh_type;
			out[i].sh_flags = s32[i].sh_flags;
			out[i].sh_addr = s32[i].sh_addr;
			out[i].sh_offset = s32[i].sh_offset;
			out[i].sh_size = s32[i].sh_size;
			out[i].sh_link = s32[i].sh_link;
			out[i].sh_info = s32[i].sh_info;
			out[i].sh_addralign = s32[i].sh_addralign;
			out[i].sh_entsize = s32[i].sh_entsize;
		}
	}
	if (ret)
		return st_err(r->e, EINVAL, r->name, "bad section headers: %s", elf_errmsg(-1));
	return 0;
}

/*
 * Read a whole section (a string table) into memory the result keeps,
 * NUL-terminated after its end so that a bounded name is a C string.
 */
static int read_strtab(struct reader *r, const GElf_Shdr *sh, struct strtab *t, const char *what,
		       char **scr, size_t *scr_cap)
{
	const char *nul;
	char *buf;
	int ret;

	t->base = "";
	t->end = 0;
	if (sh->sh_type == SHT_NOBITS || !range_ok(sh->sh_offset, sh->sh_size, r->src.len))
		return st_err(r->e, EINVAL, r->name, "bad %s", what);
	if (sh->sh_size >= SIZE_MAX)
		return st_err(r->e, EFBIG, r->name, "%s too large", what);
	if (scr) {
		/* only until the object has been handed to the callback */
		buf = scratch((void **)scr, scr_cap, sh->sh_size + 1);
	} else {
		buf = keep(r->p, malloc(sh->sh_size + 1));
	}
	if (!buf)
		return st_err(r->e, ENOMEM, r->name, "out of memory");
	ret = src_read(&r->src, sh->sh_offset, buf, sh->sh_size);
	if (ret)
		return read_err(r, ret, what);
	buf[sh->sh_size] = '\0';
	t->base = buf;
	nul = sh->sh_size ? memrchr(buf, '\0', sh->sh_size) : NULL;
	t->end = nul ? (size_t)(nul - buf) + 1 : 0;
	return 0;
}

/* May this sh_link point past the section table? (binutils' Solaris leniency) */
static bool link_exempt(uint16_t machine, uint32_t link)
{
	switch (machine) {
	case EM_386:
	case EM_IAMCU:
	case EM_X86_64:
	case EM_OLD_SPARCV9:
	case EM_SPARC32PLUS:
	case EM_SPARCV9:
	case EM_SPARC:
		return link == 0xff00 || link == 0xff01;	/* SHN_BEFORE, SHN_AFTER */
	default:
		return false;
	}
}

/* The per-section checks after which BFD calls an object "not recognized". */
static int check_sections(struct reader *r)
{
	size_t i, sym = fsize(r, ELF_T_SYM);

	for (i = 1; i < r->shnum; i++) {
		const GElf_Shdr *sh = &r->shdrs[i];
		uint64_t ent;

		if (sh->sh_link >= r->shnum && !link_exempt(r->eh.e_machine, sh->sh_link))
			return not_recognized(r, "section %zu: link %u out of range", i, sh->sh_link);
		if (((sh->sh_flags & SHF_INFO_LINK) || sh->sh_type == SHT_REL ||
		     sh->sh_type == SHT_RELA) && sh->sh_info >= r->shnum)
			return not_recognized(r, "section %zu: info %u out of range", i, sh->sh_info);
		switch (sh->sh_type) {
		case SHT_SYMTAB:
		case SHT_DYNSYM:
			if (sh->sh_entsize != sym)
				return not_recognized(r, "section %zu: symbol size %llu, expected %zu", i,
						      (unsigned long long)sh->sh_entsize, sym);
			if ((uint64_t)sh->sh_info * sym > sh->sh_size && sh->sh_size)
				return not_recognized(r, "section %zu: %u local symbols in %llu bytes", i,
						      sh->sh_info, (unsigned long long)sh->sh_size);
			break;
		case SHT_REL:
		case SHT_RELA:
			ent = fsize(r, sh->sh_type == SHT_REL ? ELF_T_REL : ELF_T_RELA);
			if (sh->sh_entsize != ent)
				return not_recognized(r, "section %zu: relocation size %llu, expected %llu", i,
						      (unsigned long long)sh->sh_entsize,
						      (unsigned long long)ent);
			break;
		case SHT_GROUP:
			if (sh->sh_entsize != 4 || sh->sh_size < 4)
				return not_recognized(r, "section %zu: bad section group", i);
			break;
		}
	}
	return 0;
}

static int read_sections(struct reader *r, struct st_elf_obj *o)
{
	struct strtab names;
	GElf_Shdr sh0;
	size_t i, ent = fsize(r, ELF_T_SHDR);
	int ret;

	r->shnum = r->eh.e_shnum;
	r->shstrndx = r->eh.e_shstrndx;
	/* binutils: a relocatable object without section headers is hosed */
	if (!r->eh.e_shoff && r->eh.e_type == ET_REL)
		return not_recognized(r, "relocatable object without section headers");
	if (!r->eh.e_shoff) {
		if (r->eh.e_shnum)
			return st_err(r->e, EINVAL, r->name, "%u sections but no section header table",
				      r->eh.e_shnum);
		return 0;
	}
	if (r->eh.e_shentsize != ent)
		return not_recognized(r, "section header size %u", r->eh.e_shentsize);
	/* extended numbering: the real counts live in section 0, read only then */
	if (!r->eh.e_shnum || r->eh.e_shstrndx == SHN_XINDEX || r->eh.e_phnum == PN_XNUM) {
		ret = read_shdrs(r, 0, 1, &sh0);
		if (ret)
			return ret;
		if (!r->eh.e_shnum)
			r->shnum = sh0.sh_size;
		if (r->eh.e_shstrndx == SHN_XINDEX)
			r->shstrndx = sh0.sh_link;
		if (r->eh.e_phnum == PN_XNUM && sh0.sh_info < PN_XNUM)
			return not_recognized(r, "extended program header count %u", sh0.sh_info);
	}
	if (!r->shnum)
		return st_err(r->e, EINVAL, r->name, "section header table with no sections");
	if (r->shnum > r->src.len / ent || !range_ok(r->eh.e_shoff, (uint64_t)r->shnum * ent, r->src.len))
		return st_err(r->e, EINVAL, r->name, "section header table past the end of the file");
	r->shdrs = scratch((void **)&r->p->shdrs, &r->p->shdrs_cap, r->shnum * sizeof(*r->shdrs));
	if (r->p->fn) {
		/* every field of every entry is set below and by st_nm_classify_sections() */
		o->secs = scratch((void **)&r->p->secs, &r->p->secs_cap, r->shnum * sizeof(*o->secs));
		if (o->secs)
			memset(o->secs, 0, sizeof(*o->secs));
	} else {
		o->secs = calloc(r->shnum, sizeof(*o->secs));
	}
	if (!r->shdrs || !o->secs)
		return st_err(r->e, ENOMEM, r->name, "out of memory");
	o->nsecs = r->shnum;
	ret = read_shdrs(r, 0, r->shnum, r->shdrs);
	if (ret)
		return ret;
	for (i = 0; i < r->shnum; i++) {
		const GElf_Shdr *sh = &r->shdrs[i];

		if (sh->sh_type != SHT_NOBITS && sh->sh_type != SHT_NULL &&
		    !range_ok(sh->sh_offset, sh->sh_size, r->src.len))
			return st_err(r->e, EINVAL, r->name, "section %zu extends past the end of the file", i);
	}
	if (r->shstrndx >= r->shnum)
		return st_err(r->e, EINVAL, r->name, "bad section name table index %zu", r->shstrndx);
	ret = check_sections(r);
	if (ret)
		return ret;
	ret = read_strtab(r, &r->shdrs[r->shstrndx], &names, "section name table",
			  r->p->fn ? &r->p->shstr : NULL, &r->p->shstr_cap);
	if (ret)
		return ret;
	for (i = 0; i < r->shnum; i++) {
		const GElf_Shdr *sh = &r->shdrs[i];
		const char *n = strtab_get(&names, sh->sh_name);

		if (!n) {
			if (i || sh->sh_name)
				return st_err(r->e, EINVAL, r->name, "section %zu: name offset %u out of range",
					      i, (unsigned int)sh->sh_name);
			n = "";
		}
		o->secs[i].name = n;
		o->secs[i].size = sh->sh_size;
		o->secs[i].addr = sh->sh_addr;
		o->secs[i].type = sh->sh_type;
	}
	return 0;
}

/* The SHT_SYMTAB_SHNDX table of @symtab, read whole (4 bytes a symbol), or NULL. */
static uint32_t *read_shndx(struct reader *r, size_t symtab, size_t nsyms)
{
	size_t i;

	for (i = 1; i < r->shnum; i++) {
		const GElf_Shdr *sh = &r->shdrs[i];
		uint32_t *x;

		if (sh->sh_type != SHT_SYMTAB_SHNDX || sh->sh_link != symtab)
			continue;
		if (sh->sh_size / 4 < nsyms)
			return NULL;
		x = malloc(nsyms * 4);
		if (!x)
			return NULL;
		if (src_read(&r->src, sh->sh_offset, x, nsyms * 4) ||
		    xlate(r, ELF_T_WORD, x, x, nsyms)) {
			free(x);
			return NULL;
		}
		return x;
	}
	return NULL;
}

/* Translate @n raw symbols at @raw into GElf_Sym at @out. */
static int xlate_syms(struct reader *r, GElf_Sym *out, void *raw, size_t n)
{
	Elf32_Sym *s32 = raw;
	size_t i;

	if (r->cls == ELFCLASS64)
		return xlate(r, ELF_T_SYM, out, raw, n);
	if (xlate(r, ELF_T_SYM, raw, raw, n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		out[i].st_name = s32[i].st_name;
		out[i].st_value = s32[i].st_value;
		out[i].st_size = s32[i].st_size;
		out[i].st_info = s32[i].st_info;
		out[i].st_other = s32[i].st_other;
		out[i].st_shndx = s32[i].st_shndx;
	}
	return 0;
}

/*
 * Could nm --size-sort list @s? False only for symbols it never lists
 * (undefined, unsized, section and file symbols, LTO IR): the rest is
 * decided by st_nm_classify_symbols().
 */
static bool maybe_sized(const struct st_elf_obj *o, const struct st_sym *s)
{
	return s->size && s->shndx != SHN_UNDEF && s->stt != STT_SECTION && s->stt != STT_FILE &&
	       !o->lto_ir;
}

static int read_symbols(struct reader *r, struct st_elf_obj *o, size_t symtab)
{
	const GElf_Shdr *sh = &r->shdrs[symtab];
	size_t entsize = fsize(r, ELF_T_SYM);
	bool sized_only = r->p->flags & ST_ELF_SIZED_ONLY;
	bool native = native64(r);
	uint32_t *xndx = NULL;
	struct strtab str;
	GElf_Sym *syms = NULL, one;
	const unsigned char *raw = NULL;
	size_t i, n, done;
	int ret = 0;

	n = sh->sh_size / entsize;
	o->has_symtab = n > 0;
	/* size reads no symbols, so a broken symbol table does not stop it (binutils) */
	if (r->p->flags & ST_ELF_NO_SYMBOLS)
		return 0;
	if (sh->sh_link == 0 || sh->sh_link >= r->shnum || r->shdrs[sh->sh_link].sh_type != SHT_STRTAB)
		return st_err(r->e, EINVAL, r->name, "symbol table has no valid string table");
	if (n <= 1)
		return 0;
	ret = read_strtab(r, &r->shdrs[sh->sh_link], &str, "symbol string table",
			  r->p->fn ? &r->p->symstr : NULL, &r->p->symstr_cap);
	if (ret)
		return ret;
	if (r->p->fn)
		o->syms = scratch((void **)&r->p->syms, &r->p->syms_cap, (n - 1) * sizeof(*o->syms));
	else
		o->syms = malloc((n - 1) * sizeof(*o->syms));
	if (!r->p->chunk_raw)
		r->p->chunk_raw = malloc(SYM_CHUNK * sizeof(GElf_Sym));
	if (!native && !r->p->chunk)
		r->p->chunk = malloc(SYM_CHUNK * sizeof(GElf_Sym));
	syms = r->p->chunk;
	raw = r->p->chunk_raw;
	if (!o->syms || !raw || (!native && !syms)) {
		ret = st_err(r->e, ENOMEM, r->name, "out of memory");
		goto out;
	}
	for (done = 1; done < n; done += SYM_CHUNK) {
		size_t k = n - done < SYM_CHUNK ? n - done : SYM_CHUNK;

		ret = src_read(&r->src, sh->sh_offset + done * entsize, r->p->chunk_raw,
				k * entsize);
		if (ret) {
			ret = read_err(r, ret, "the symbol table");
			goto out;
		}
		if (!native) {
			if (xlate_syms(r, syms, r->p->chunk_raw, k)) {
				ret = st_err(r->e, EINVAL, r->name, "cannot read the symbol table: %s",
					     elf_errmsg(-1));
				goto out;
			}
		}
		for (i = 0; i < k; i++) {
			struct st_sym *s = &o->syms[o->nsyms];
			const GElf_Sym *sym;

			if (native) {
				/* ELF64 in the host's order: GElf's layout as it is */
				memcpy(&one, raw + i * sizeof(one), sizeof(one));
				sym = &one;
			} else {
				sym = &syms[i];
			}
			s->name = strtab_get(&str, sym->st_name);
			if (!s->name) {
				ret = st_err(r->e, EINVAL, r->name,
					     "symbol %zu: name offset %u past the string table",
					     done + i, (unsigned int)sym->st_name);
				goto out;
			}
			s->size = sym->st_size;
			s->bind = GELF_ST_BIND(sym->st_info);
			s->stt = GELF_ST_TYPE(sym->st_info);
			s->shndx = sym->st_shndx;
			if (sym->st_shndx == SHN_XINDEX) {
				if (!xndx)
					xndx = read_shndx(r, symtab, n);
				if (!xndx) {
					ret = st_err(r->e, EINVAL, r->name,
						     "symbol %zu: bad extended section index", done + i);
					goto out;
				}
				s->shndx = xndx[done + i];
			}
			if (!sized_only || maybe_sized(o, s))
				o->nsyms++;
		}
	}
out:
	free(xndx);
	return ret;
}

/* GCC LTO IR: nm lets the LTO plugin claim it, size does not. */
static int detect_lto(struct reader *r, struct st_elf_obj *o)
{
	size_t i;

	if (r->eh.e_type != ET_REL)
		return 0;
	for (i = 1; i < o->nsecs; i++) {
		const char *n = o->secs[i].name;
		const GElf_Shdr *sh = &r->shdrs[i];
		unsigned char slim;
		int ret;

		if (n[0] != '.' || n[1] != 'g' || n[2] != 'n')
			continue;
		if (!strncmp(n, ".gnu.lto_.symtab.", 17))
			o->lto_ir = true;
		/* struct lto_section: int16 major, minor; uint8 slim_object */
		if (!strncmp(n, ".gnu.lto_.lto.", 14) && sh->sh_type != SHT_NOBITS && sh->sh_size >= 5) {
			ret = src_read(&r->src, sh->sh_offset + 4, &slim, 1);
			if (ret)
				return read_err(r, ret, "the LTO header");
			o->lto_slim = slim != 0;
		}
	}
	if (!o->lto_ir)
		o->lto_slim = false;
	return 0;
}

/*
 * Read one ELF object from @src; @id holds its first @idlen bytes (up to
 * the size of an ELF64 header), already checked for the ELF magic.
 */
static int read_object(struct st_elf_file *f, const struct src *src, const unsigned char *id,
		       size_t idlen, const char *name, const char *msgname, struct st_error *e)
{
	struct reader r = { .name = msgname, .src = *src, .p = f->priv, .e = e };
	struct st_elf_obj *o;
	size_t i, symtab = 0;
	int ret;

	o = new_obj(f);
	if (!o)
		return st_err(e, ENOMEM, msgname, "out of memory");
	o->name = name;
	if (idlen < EI_NIDENT)
		return st_err(e, EINVAL, msgname, "file truncated (ELF identification)");
	r.cls = id[EI_CLASS];
	r.data = id[EI_DATA];
	if (r.cls != ELFCLASS32 && r.cls != ELFCLASS64)
		return not_recognized(&r, "ELF class %u", r.cls);
	if (r.data != ELFDATA2LSB && r.data != ELFDATA2MSB)
		return not_recognized(&r, "ELF data encoding %u", r.data);
	if (id[EI_VERSION] != EV_CURRENT)
		return not_recognized(&r, "ELF version %u", id[EI_VERSION]);
	ret = read_ehdr(&r, id, idlen);
	if (ret)
		goto out;
	o->elfclass = r.cls;
	o->data = r.data;
	o->machine = r.eh.e_machine;
	o->etype = r.eh.e_type;
	ret = read_sections(&r, o);
	if (ret)
		goto out;
	for (i = 1; i < r.shnum; i++) {
		if (r.shdrs[i].sh_type == SHT_SYMTAB) {
			symtab = i;
			break;
		}
	}
	st_nm_classify_sections(o, r.shdrs, r.shstrndx, symtab);
	ret = detect_lto(&r, o);
	if (!ret && symtab)
		ret = read_symbols(&r, o, symtab);
	if (!ret && (r.p->flags & ST_ELF_WARN_NO_SYMBOLS) && !o->lto_ir &&
	    (!symtab || r.shdrs[symtab].sh_size / fsize(&r, ELF_T_SYM) <= 1) &&
	    add_warning(f, "%s: no symbols", msgname))
		ret = st_err(e, ENOMEM, msgname, "out of memory");
	if (!ret)
		st_nm_classify_symbols(o);
	if (!ret && (r.p->flags & ST_ELF_SIZED_ONLY)) {
		size_t n = 0;

		for (i = 0; i < o->nsyms; i++)
			if (o->syms[i].flags & ST_SYM_SIZED)
				o->syms[n++] = o->syms[i];
		o->nsyms = n;
	}
	if (!ret && r.p->fn)
		ret = r.p->fn(f, o, r.p->ctx);
out:
	if (r.p->fn) {
		/* handed over (the arrays are scratch space): keep only the name and kind */
		o->syms = NULL;
		o->secs = NULL;
		o->nsyms = 0;
		o->nsecs = 0;
	}
	return ret;
}

/* An object that does not read as ELF is one binutils does not recognise: -ENOEXEC. */
static int as_format_error(int ret, struct st_error *e)
{
	if (ret != -EINVAL)
		return ret;
	if (e)
		e->code = ENOEXEC;
	return -ENOEXEC;
}

/*
 * With ST_ELF_KEEP_GOING, a member that could not be read becomes a warning
 * and the walk goes on (size reports it and prints the rest). Other errors,
 * and every error without the flag, are returned as they are.
 */
static int member_lost(struct st_elf_file *f, int ret, struct st_error *e)
{
	struct priv *p = f->priv;

	if (!(p->flags & ST_ELF_KEEP_GOING) || ret == -ENOMEM || !e)
		return ret;
	ret = add_warning(f, "%s: %s", e->file, e->msg);
	st_error_clear(e);
	return ret ? st_err(e, ENOMEM, f->path, "out of memory") : 0;
}

/* Same, for a member read_object() failed on: its half-read object, the last, goes. */
static int member_failed(struct st_elf_file *f, int ret, struct st_error *e)
{
	struct priv *p = f->priv;
	struct st_elf_obj *o;

	if (!(p->flags & ST_ELF_KEEP_GOING) || ret == -ENOMEM || !f->nobjs)
		return ret;
	o = &f->objs[--f->nobjs];
	if (!p->fn) {
		free(o->secs);
		free(o->syms);
	}
	return member_lost(f, ret, e);
}

static bool is_archive(const unsigned char *img, size_t len, bool *thin)
{
	if (len < 8)
		return false;
	*thin = !memcmp(img, "!<thin>\n", 8);
	return *thin || !memcmp(img, "!<arch>\n", 8);
}

static bool is_elf(const unsigned char *img, size_t len)
{
	return len >= SELFMAG && !memcmp(img, ELFMAG, SELFMAG);
}

/* The name binutils gives a thin-archive member: relative to the archive's directory. */
static char *thin_member_path(const char *archive, const char *member)
{
	const char *slash = strrchr(archive, '/');
	size_t dir = slash ? (size_t)(slash - archive) + 1 : 0;
	char *p;

	if (member[0] == '/' || !dir)
		return strdup(member);
	p = malloc(dir + strlen(member) + 1);
	if (!p)
		return NULL;
	memcpy(p, archive, dir);
	strcpy(p + dir, member);
	return p;
}

/* Read the first bytes of @s for the magic checks; returns how many. */
static int peek(const struct src *s, unsigned char *buf, size_t *n)
{
	*n = s->len < sizeof(Elf64_Ehdr) ? s->len : sizeof(Elf64_Ehdr);
	return src_read(s, 0, buf, *n);
}

/*
 * Open the member of @size bytes at @off of the archive; @pre holds its
 * first @prelen bytes when they were read with its header (else 0).
 */
static int open_member(struct st_elf_file *f, const struct src *asrc, uint64_t off,
		       uint64_t size, const char *mname, const unsigned char *pre,
		       size_t prelen, struct st_error *e)
{
	struct priv *p = f->priv;
	struct src s = { .fd = asrc->fd, .mem = asrc->mem, .base = asrc->base + off, .len = size };
	unsigned char id[sizeof(Elf64_Ehdr)];
	const char *name = mname;
	char *msg;
	size_t idlen;
	bool thin;
	int ret;

	if (f->thin) {
		struct st_error sub = { 0 };
		char *full = thin_member_path(f->path, mname);

		if (!full || !(name = keep(p, full)))
			return st_err(e, ENOMEM, f->path, "out of memory");
		if (p->mem)
			return st_err(e, EINVAL, f->path, "member %s: thin archive read from memory", name);
		ret = open_file(name, &s.fd, &s.len, &sub);
		/* binutils gives up on the archive, as on a malformed one */
		if (ret)
			return st_err(e, EBADMSG, f->path, "member %s: %s", name, sub.msg);
		s.base = 0;
	}
	msg = malloc(strlen(f->path) + strlen(name) + 3);
	if (!msg || !keep(p, msg)) {
		ret = st_err(e, ENOMEM, f->path, "out of memory");
		goto out;
	}
	sprintf(msg, "%s(%s)", f->path, name);
	idlen = s.len < sizeof(id) ? s.len : sizeof(id);
	if (!f->thin && prelen >= idlen) {
		memcpy(id, pre, idlen);
		ret = 0;
	} else {
		ret = peek(&s, id, &idlen);
	}
	if (ret) {
		ret = st_err(e, -ret, msg, "cannot read: %s", strerror(-ret));
		goto out;
	}
	if (is_archive(id, idlen, &thin)) {
		ret = 0;	/* an archive in an archive: binutils skips it too */
	} else if (!is_elf(id, idlen)) {
		/* nm and size warn about such a member and go on with the rest */
		ret = add_warning(f, "%s: file format not recognized", msg);
		if (ret)
			ret = st_err(e, ENOMEM, f->path, "out of memory");
	} else {
		ret = as_format_error(read_object(f, &s, id, idlen, name, msg, e), e);
		if (ret)
			ret = member_failed(f, ret, e);
	}
out:
	if (f->thin)
		close(s.fd);
	return ret;
}

/*
 * Decimal digits after optional blanks in the @n bytes of @s, into *@v:
 * the index of the first byte after them, or -EINVAL (no digit, overflow).
 */
static long lead_dec(const char *s, size_t n, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return -EINVAL;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		*v = *v * 10 + (s[i] - '0');
	}
	return i;
}

/* A blank-padded decimal field: digits and blanks only. */
static int parse_dec(const char *s, size_t n, uint64_t *v)
{
	long i = lead_dec(s, n, v);

	if (i < 0)
		return i;
	for (; (size_t)i < n; i++)
		if (s[i] != ' ')
			return -EINVAL;
	return 0;
}

/* Leading decimal digits after optional blanks; what follows is ignored. */
static int parse_lead_dec(const char *s, size_t n, uint64_t *v)
{
	long i = lead_dec(s, n, v);

	return i < 0 ? (int)i : 0;
}

/* One member header of an ar archive as it is read. */
struct ar_member {
	/* the header and the first bytes of its member, in one read */
	unsigned char hb[60 + sizeof(Elf64_Ehdr)];
	char name[4096];
	uint64_t off, data, size;
	size_t prelen;		/* member bytes already in hb */
	const char *nstart;	/* its name: nlen bytes at nstart */
	size_t nlen;
	bool member;		/* not an index or the name table */
};

/* The header at @m->off: its size, where its data starts. 1 at the archive's end (the walk stops). */
static int ar_header(struct st_elf_file *f, const struct src *s, struct ar_member *m,
		     struct st_error *e)
{
	char *h = (char *)m->hb;
	size_t hlen;
	int ret;

	if (s->len - m->off == 1) {
		char c;

		if (!src_read(s, m->off, &c, 1) && c == '\n')
			return 1;
	}
	hlen = s->len - m->off < sizeof(m->hb) ? (size_t)(s->len - m->off) : sizeof(m->hb);
	ret = hlen < 60 ? -EINVAL : src_read(s, m->off, m->hb, hlen);
	if (ret == -EINVAL || (!ret && memcmp(h + 58, "`\n", 2)))
		return st_err(e, EBADMSG, f->path, "corrupt archive member header at offset %llu",
			      (unsigned long long)m->off);
	if (ret)
		return st_err(e, -ret, f->path, "cannot read: %s", strerror(-ret));
	if (parse_dec(h + 48, 10, &m->size))
		return st_err(e, EBADMSG, f->path, "corrupt archive member size at offset %llu",
			      (unsigned long long)m->off);
	m->data = m->off + 60;
	m->prelen = hlen - 60;
	m->nstart = h;
	m->nlen = 0;
	m->member = true;
	return 0;
}

/* The GNU name table ("//"), kept in *@names (*@len bytes) for the members after it. */
static int ar_name_table(struct st_elf_file *f, const struct src *s, struct ar_member *m,
			 char **names, uint64_t *len, struct st_error *e)
{
	struct priv *p = f->priv;
	int ret;

	if (!range_ok(m->data, m->size, s->len) || m->size >= SIZE_MAX || *names)
		return st_err(e, EBADMSG, f->path, "bad archive name table");
	*names = keep(p, malloc(m->size + 1));
	if (!*names)
		return st_err(e, ENOMEM, f->path, "out of memory");
	ret = src_read(s, m->data, *names, m->size);
	if (ret)
		return st_err(e, -ret, f->path, "cannot read the name table: %s", strerror(-ret));
	(*names)[m->size] = '\0';
	*len = m->size;
	m->member = false;
	return 0;
}

/* A BSD "#1/len" name: the name's bytes start the member's data. */
static int ar_bsd_name(struct st_elf_file *f, const struct src *s, struct ar_member *m,
		       struct st_error *e)
{
	uint64_t bl;
	int ret;

	if (parse_dec((char *)m->hb + 3, 13, &bl) || bl > m->size || bl >= sizeof(m->name) ||
	    !range_ok(m->data, bl, s->len)) {
		ret = st_err(e, ENOEXEC, f->path, "bad BSD member name at offset %llu",
			     (unsigned long long)m->off);
		/* lost (a warning), and the walk cannot go past it */
		ret = member_lost(f, ret, e);
		return ret ? ret : 1;
	}
	ret = src_read(s, m->data, m->name, bl);
	if (ret)
		return st_err(e, -ret, f->path, "cannot read: %s", strerror(-ret));
	m->nstart = m->name;
	m->nlen = strnlen(m->name, bl);
	m->data += bl;
	m->size -= bl;
	m->prelen = 0;	/* the member starts after its name */
	return 0;
}

/*
 * The member's name, whichever way the archive spells it; the indexes are
 * not members. 1: a member lost whose end cannot be known (the walk stops).
 */
static int ar_name(struct st_elf_file *f, const struct src *s, struct ar_member *m,
		   char **names, uint64_t *len, struct st_error *e)
{
	const char *h = (const char *)m->hb, *end;
	uint64_t lo;

	if (h[0] == '/' && (h[1] == ' ' || !memcmp(h, "/SYM64/ ", 8))) {
		m->member = false;	/* symbol index */
		return 0;
	}
	if (h[0] == '/' && h[1] == '/' && h[2] == ' ')
		return ar_name_table(f, s, m, names, len, e);
	if (h[0] == '/' && h[1] >= '0' && h[1] <= '9') {
		/*
		 * Only the digits count, as binutils reads them: GNU ar
		 * leaves a '/' in the last byte of a thin archive's
		 * field when the member path is 15 characters long.
		 */
		if (parse_lead_dec(h + 1, 15, &lo) || !*names || lo >= *len)
			return st_err(e, EBADMSG, f->path, "bad long member name at offset %llu",
				      (unsigned long long)m->off);
		m->nstart = *names + lo;
		while (lo + m->nlen < *len && m->nstart[m->nlen] != '\n' && m->nstart[m->nlen] != '\0')
			m->nlen++;
		if (m->nlen && m->nstart[m->nlen - 1] == '/')
			m->nlen--;
		return 0;
	}
	if (!memcmp(h, "#1/", 3))
		return ar_bsd_name(f, s, m, e);
	/* SysV names end at '/' (and may hold spaces), else at ' ' */
	end = memchr(h, '\0', 16);
	if (!end)
		end = memchr(h, '/', 16);
	if (!end)
		end = memchr(h, ' ', 16);
	m->nlen = end ? (size_t)(end - h) : 16;
	return 0;
}

/* Open member @m under its name (a name ends at its first NUL, as in binutils). */
static int ar_open(struct st_elf_file *f, const struct src *s, struct ar_member *m,
		   struct st_error *e)
{
	char *copy;

	if (m->nlen >= sizeof(m->name))
		return st_err(e, EBADMSG, f->path, "member name too long at offset %llu",
			      (unsigned long long)m->off);
	memmove(m->name, m->nstart, m->nlen);
	m->name[m->nlen] = '\0';
	copy = keep(f->priv, strdup(m->name));
	if (!copy)
		return st_err(e, ENOMEM, f->path, "out of memory");
	return open_member(f, s, m->data, m->size, copy, m->hb + 60, m->prelen, e);
}

/*
 * Walk an ar archive: GNU/SysV names ("name/", "/123" into "//"), BSD
 * "#1/len" names, the "/" and "/SYM64/" indexes skipped. In a thin archive
 * members have no data here; their files are read instead. Only the member
 * headers and the name table are read here.
 */
static int read_archive(struct st_elf_file *f, const struct src *s, struct st_error *e)
{
	char *longnames = NULL;
	uint64_t longlen = 0, dlen;
	struct ar_member *m = malloc(sizeof(*m));
	int ret = 0;

	if (!m)
		return st_err(e, ENOMEM, f->path, "out of memory");
	for (m->off = 8; m->off < s->len; ) {
		ret = ar_header(f, s, m, e);
		if (!ret)
			ret = ar_name(f, s, m, &longnames, &longlen, e);
		if (ret == 1) {
			ret = 0;
			break;
		}
		if (ret)
			break;
		dlen = (f->thin && m->member) ? 0 : m->size;
		if (!range_ok(m->data, dlen, s->len)) {
			ret = st_err(e, ENOEXEC, f->path, "truncated archive member at offset %llu",
				     (unsigned long long)m->off);
			ret = member_lost(f, ret, e);
			break;
		}
		if (m->member && (ret = ar_open(f, s, m, e)))
			break;
		m->off = m->data + dlen;
		if (m->off & 1)
			m->off++;
	}
	free(m);
	return ret;
}

static unsigned int libelf_version = EV_NONE;

static void libelf_init(void)
{
	libelf_version = elf_version(EV_CURRENT);
}

/* libelf's global version, set once whatever the number of threads reading. */
static int elf_init(struct st_error *e, const char *name)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, libelf_init);
	if (libelf_version == EV_NONE)
		return st_err(e, EINVAL, name, "libelf: %s", elf_errmsg(-1));
	return 0;
}

static int open_src(struct st_elf_file *f, const struct src *s, struct st_error *e)
{
	unsigned char id[sizeof(Elf64_Ehdr)];
	size_t idlen;
	bool thin;
	int ret;

	if (!s->len)
		return st_err(e, EINVAL, f->path, "file is empty");
	ret = peek(s, id, &idlen);
	if (ret)
		return st_err(e, -ret, f->path, "cannot read: %s", strerror(-ret));
	if (is_archive(id, idlen, &thin)) {
		f->archive = true;
		f->thin = thin;
		return read_archive(f, s, e);
	}
	if (!is_elf(id, idlen))
		return st_err(e, ENOEXEC, f->path, "file format not recognized");
	return as_format_error(read_object(f, s, id, idlen, f->path, f->path, e), e);
}

static struct st_elf_file *new_file(const char *path, unsigned int flags)
{
	struct st_elf_file *f = calloc(1, sizeof(*f));
	struct priv *p;

	if (!f)
		return NULL;
	f->priv = p = calloc(1, sizeof(struct priv));
	f->path = strdup(path);
	if (!f->priv || !f->path) {
		free(f->priv);
		free((char *)f->path);
		free(f);
		return NULL;
	}
	p->flags = flags;
	return f;
}

static int open_path(struct st_elf_file **out, const char *path, unsigned int flags,
		     st_elf_obj_fn fn, void *ctx, struct st_error *e)
{
	struct src s = { .fd = -1 };
	struct st_elf_file *f;
	int ret;

	*out = NULL;
	ret = elf_init(e, path);
	if (ret)
		return ret;
	f = new_file(path, flags);
	if (!f)
		return st_err(e, ENOMEM, path, "out of memory");
	((struct priv *)f->priv)->fn = fn;
	((struct priv *)f->priv)->ctx = ctx;
	ret = open_file(path, &s.fd, &s.len, e);
	if (!ret)
		ret = open_src(f, &s, e);
	if (s.fd >= 0)
		close(s.fd);
	if (ret == -EBADMSG && (flags & ST_ELF_KEEP_GOING)) {
		*out = f;	/* the members before the damage */
		return ret;
	}
	if (ret) {
		st_elf_close(f);
		return ret < 0 ? ret : -EINVAL;
	}
	*out = f;
	return 0;
}

int st_elf_open_flags(struct st_elf_file **out, const char *path, unsigned int flags,
		      struct st_error *e)
{
	return open_path(out, path, flags, NULL, NULL, e);
}

int st_elf_scan(struct st_elf_file **out, const char *path, unsigned int flags,
		st_elf_obj_fn fn, void *ctx, struct st_error *e)
{
	return open_path(out, path, flags, fn, ctx, e);
}

int st_elf_open(struct st_elf_file **out, const char *path, struct st_error *e)
{
	return open_path(out, path, 0, NULL, NULL, e);
}

static int open_mem(struct st_elf_file **out, const void *buf, size_t len, const char *name,
		    unsigned int flags, st_elf_obj_fn fn, void *ctx, struct st_error *e)
{
	struct src s = { .fd = -1, .mem = buf, .len = len };
	struct st_elf_file *f;
	int ret;

	*out = NULL;
	ret = elf_init(e, name);
	if (ret)
		return ret;
	f = new_file(name, flags);
	if (!f)
		return st_err(e, ENOMEM, name, "out of memory");
	((struct priv *)f->priv)->mem = true;
	((struct priv *)f->priv)->fn = fn;
	((struct priv *)f->priv)->ctx = ctx;
	ret = open_src(f, &s, e);
	if (ret) {
		st_elf_close(f);
		return ret < 0 ? ret : -EINVAL;
	}
	*out = f;
	return 0;
}

int st_elf_open_mem(struct st_elf_file **out, const void *buf, size_t len,
		    const char *name, struct st_error *e)
{
	return open_mem(out, buf, len, name, 0, NULL, NULL, e);
}

int st_elf_scan_mem(struct st_elf_file **out, const void *buf, size_t len, const char *name,
		    unsigned int flags, st_elf_obj_fn fn, void *ctx, struct st_error *e)
{
	return open_mem(out, buf, len, name, flags, fn, ctx, e);
}

void st_elf_close(struct st_elf_file *f)
{
	struct priv *p;
	size_t i;

	if (!f)
		return;
	p = f->priv;
	for (i = 0; i < f->nobjs; i++) {
		free(f->objs[i].secs);
		free(f->objs[i].syms);
	}
	free(f->objs);
	free(f->warnings);
	if (p) {
		free(p->symstr);
		free(p->shstr);
		free(p->shdr_buf);
		free(p->shdrs);
		free(p->chunk_raw);
		free(p->chunk);
		free(p->syms);
		free(p->secs);
		st_strv_free(p->keep, p->nkeep);
		free(p);
	}
	free((char *)f->path);
	free(f);
}

size_t st_elf_count_sized(const struct st_elf_file *f)
{
	size_t i, j, n = 0;

	for (i = 0; i < f->nobjs; i++)
		for (j = 0; j < f->objs[i].nsyms; j++)
			n += !!(f->objs[i].syms[j].flags & ST_SYM_SIZED);
	return n;
}
