// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading ELF objects and ar archives with libelf.
 *
 * A file is mapped once, privately (copy-on-write, so nothing libelf might
 * do ever reaches the file), and each object in it - the file itself, an
 * archive member, or a thin-archive member mapped from its own file - is
 * handed to libelf with elf_memory(), the in-memory form of
 * ELF_C_READ_MMAP. Names stay pointers into the mapping.
 *
 * The rules that decide which sections binutils models and what letter nm
 * gives a symbol live in nm.c; this file only walks the structures and
 * refuses anything out of bounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "elf/elf.h"
#include "elf/elf_int.h"

struct map {
	void *addr;
	size_t len;
};

struct priv {
	struct map *maps;	/* the file, then thin-archive members */
	size_t nmaps, maps_cap;
	char **names;		/* member names we had to build */
	size_t nnames, names_cap;
	size_t objs_cap;
	bool mem;		/* opened from a buffer: no thin-archive members */
};

static int add_map(struct priv *p, void *addr, size_t len)
{
	if (p->nmaps == p->maps_cap) {
		size_t cap = p->maps_cap ? p->maps_cap * 2 : 4;
		struct map *m = realloc(p->maps, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		p->maps = m;
		p->maps_cap = cap;
	}
	p->maps[p->nmaps].addr = addr;
	p->maps[p->nmaps].len = len;
	p->nmaps++;
	return 0;
}

static const char *keep_name(struct priv *p, char *name)
{
	if (p->nnames == p->names_cap) {
		size_t cap = p->names_cap ? p->names_cap * 2 : 16;
		char **n = realloc(p->names, cap * sizeof(*n));

		if (!n) {
			free(name);
			return NULL;
		}
		p->names = n;
		p->names_cap = cap;
	}
	p->names[p->nnames++] = name;
	return name;
}

/*
 * Map @path read-only into private memory. Only regular, non-empty files:
 * a pipe or a directory cannot be mapped and is reported as such.
 */
static int map_file(const char *path, void **addr, size_t *len, struct st_error *e)
{
	struct stat st;
	void *a;
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
	if ((uint64_t)st.st_size > SIZE_MAX / 2) {
		close(fd);
		return st_err(e, EFBIG, path, "file too large");
	}
	a = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	err = errno;
	close(fd);
	if (a == MAP_FAILED)
		return st_err(e, err, path, "cannot map: %s", strerror(err));
	*addr = a;
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

static bool range_ok(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

/* A string table as a bounded buffer: names past @end are rejected. */
struct strtab {
	const char *base;
	size_t end;	/* one past the last NUL; names must start before it */
};

static int strtab_init(struct strtab *t, const char *img, size_t len, const GElf_Shdr *sh)
{
	const char *nul;

	t->base = NULL;
	t->end = 0;
	if (sh->sh_type == SHT_NOBITS || !range_ok(sh->sh_offset, sh->sh_size, len))
		return -EINVAL;
	t->base = img + sh->sh_offset;
	if (!sh->sh_size)
		return 0;
	nul = memrchr(t->base, '\0', sh->sh_size);
	t->end = nul ? (size_t)(nul - t->base) + 1 : 0;
	return 0;
}

static const char *strtab_get(const struct strtab *t, uint64_t off)
{
	if (off >= t->end)
		return NULL;
	return t->base + off;
}

struct reader {
	const char *name;	/* for messages */
	bool own_map;		/* img is our private file mapping: pages may be dropped */
	const char *img;
	size_t len;
	Elf *elf;
	GElf_Ehdr eh;
	size_t shnum;
	size_t shstrndx;
	GElf_Shdr *shdrs;
	struct st_error *e;
};

static int read_sections(struct reader *r, struct st_elf_obj *o)
{
	struct strtab names;
	size_t i;

	if (elf_getshdrnum(r->elf, &r->shnum) < 0)
		return st_err(r->e, EINVAL, r->name, "bad section count: %s", elf_errmsg(-1));
	if (r->shnum > r->len / 16)
		return st_err(r->e, EINVAL, r->name, "section count %zu larger than the file", r->shnum);
	/* libelf quietly reports no sections when the table is out of bounds */
	if (r->eh.e_shoff || r->eh.e_shnum) {
		size_t ent = gelf_fsize(r->elf, ELF_T_SHDR, 1, EV_CURRENT);

		if (r->eh.e_shentsize != ent)
			return st_err(r->e, EINVAL, r->name, "section header size %u, expected %zu",
				      r->eh.e_shentsize, ent);
		if (!r->shnum || !range_ok(r->eh.e_shoff, (uint64_t)r->shnum * ent, r->len))
			return st_err(r->e, EINVAL, r->name, "section header table past the end of the file");
	}
	if (!r->shnum)
		return 0;
	if (elf_getshdrstrndx(r->elf, &r->shstrndx) < 0)
		return st_err(r->e, EINVAL, r->name, "bad section name table index: %s", elf_errmsg(-1));
	r->shdrs = calloc(r->shnum, sizeof(*r->shdrs));
	o->secs = calloc(r->shnum, sizeof(*o->secs));
	if (!r->shdrs || !o->secs)
		return st_err(r->e, ENOMEM, r->name, "out of memory");
	o->nsecs = r->shnum;
	for (i = 0; i < r->shnum; i++) {
		Elf_Scn *scn = elf_getscn(r->elf, i);

		if (!scn || !gelf_getshdr(scn, &r->shdrs[i]))
			return st_err(r->e, EINVAL, r->name, "section %zu: bad header: %s", i, elf_errmsg(-1));
		if (r->shdrs[i].sh_type != SHT_NOBITS && r->shdrs[i].sh_type != SHT_NULL &&
		    !range_ok(r->shdrs[i].sh_offset, r->shdrs[i].sh_size, r->len))
			return st_err(r->e, EINVAL, r->name, "section %zu extends past the end of the file", i);
	}
	if (r->shstrndx >= r->shnum || strtab_init(&names, r->img, r->len, &r->shdrs[r->shstrndx]))
		return st_err(r->e, EINVAL, r->name, "bad section name table");
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

/*
 * The symbol table has been copied into st_sym: give its pages back (a
 * large table is most of the peak RSS otherwise). Only our own read-only
 * use of a private file mapping allows this; they would fault back in.
 */
static void drop_pages(struct reader *r, const void *buf, size_t len)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)buf, b = a + len;

	if (!r->own_map || (const char *)buf < r->img || (const char *)buf + len > r->img + r->len)
		return;
	a = (a + pg - 1) & ~(pg - 1);
	b &= ~(pg - 1);
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Undo SHN_XINDEX through the SHT_SYMTAB_SHNDX section of @symtab. */
static Elf_Data *find_shndx(struct reader *r, size_t symtab, size_t nsyms)
{
	size_t i;

	for (i = 1; i < r->shnum; i++) {
		Elf_Data *d;

		if (r->shdrs[i].sh_type != SHT_SYMTAB_SHNDX || r->shdrs[i].sh_link != symtab)
			continue;
		d = elf_getdata(elf_getscn(r->elf, i), NULL);
		if (d && d->d_size / 4 >= nsyms)
			return d;
		return NULL;
	}
	return NULL;
}

static int read_symbols(struct reader *r, struct st_elf_obj *o, size_t symtab)
{
	const GElf_Shdr *sh = &r->shdrs[symtab];
	size_t entsize = gelf_fsize(r->elf, ELF_T_SYM, 1, EV_CURRENT);
	struct strtab str;
	Elf_Data *d, *xd = NULL;
	size_t i, n;

	if (!entsize || sh->sh_entsize != entsize)
		return st_err(r->e, EINVAL, r->name, "symbol table entry size %llu, expected %zu",
			      (unsigned long long)sh->sh_entsize, entsize);
	if (sh->sh_link == 0 || sh->sh_link >= r->shnum || r->shdrs[sh->sh_link].sh_type != SHT_STRTAB ||
	    strtab_init(&str, r->img, r->len, &r->shdrs[sh->sh_link]))
		return st_err(r->e, EINVAL, r->name, "symbol table has no valid string table");
	n = sh->sh_size / entsize;
	o->has_symtab = n > 0;
	if (n <= 1)
		return 0;
	d = elf_getdata(elf_getscn(r->elf, symtab), NULL);
	if (!d || d->d_size / entsize < n)
		return st_err(r->e, EINVAL, r->name, "cannot read the symbol table: %s", elf_errmsg(-1));
	o->syms = malloc((n - 1) * sizeof(*o->syms));
	if (!o->syms)
		return st_err(r->e, ENOMEM, r->name, "out of memory");
	for (i = 1; i < n; i++) {
		struct st_sym *s = &o->syms[o->nsyms];
		GElf_Sym sym;
		GElf_Word x = 0;

		if (!gelf_getsym(d, i, &sym))
			return st_err(r->e, EINVAL, r->name, "symbol %zu: %s", i, elf_errmsg(-1));
		s->name = strtab_get(&str, sym.st_name);
		if (!s->name)
			return st_err(r->e, EINVAL, r->name, "symbol %zu: name offset %u past the string table",
				      i, (unsigned int)sym.st_name);
		s->size = sym.st_size;
		s->bind = GELF_ST_BIND(sym.st_info);
		s->stt = GELF_ST_TYPE(sym.st_info);
		s->shndx = sym.st_shndx;
		if (sym.st_shndx == SHN_XINDEX) {
			if (!xd)
				xd = find_shndx(r, symtab, n);
			if (!xd || !gelf_getsymshndx(d, xd, i, &sym, &x))
				return st_err(r->e, EINVAL, r->name, "symbol %zu: bad extended section index", i);
			s->shndx = x;
		}
		o->nsyms++;
	}
	drop_pages(r, d->d_buf, d->d_size);
	return 0;
}

/* GCC LTO IR: nm lets the LTO plugin claim it, size does not. */
static void detect_lto(struct reader *r, struct st_elf_obj *o)
{
	size_t i;

	if (r->eh.e_type != ET_REL)
		return;
	for (i = 1; i < o->nsecs; i++) {
		const char *n = o->secs[i].name;
		const GElf_Shdr *sh = &r->shdrs[i];

		if (!strncmp(n, ".gnu.lto_.symtab.", 17))
			o->lto_ir = true;
		/* struct lto_section: int16 major, minor; uint8 slim_object */
		if (!strncmp(n, ".gnu.lto_.lto.", 14) && sh->sh_type != SHT_NOBITS && sh->sh_size >= 5)
			o->lto_slim = r->img[sh->sh_offset + 4] != 0;
	}
	if (!o->lto_ir)
		o->lto_slim = false;
}

static int read_object(struct st_elf_file *f, const char *img, size_t len,
		       const char *name, const char *msgname, struct st_error *e)
{
	struct reader r = { .name = msgname, .img = img, .len = len, .e = e,
			    .own_map = !((struct priv *)f->priv)->mem };
	struct st_elf_obj *o;
	size_t i, symtab = 0;
	int ret;

	o = new_obj(f);
	if (!o)
		return st_err(e, ENOMEM, msgname, "out of memory");
	o->name = name;
	r.elf = elf_memory((char *)img, len);
	if (!r.elf)
		return st_err(e, EINVAL, msgname, "%s", elf_errmsg(-1));
	if (elf_kind(r.elf) != ELF_K_ELF || !gelf_getehdr(r.elf, &r.eh)) {
		ret = st_err(e, EINVAL, msgname, "file format not recognized");
		goto out;
	}
	o->elfclass = r.eh.e_ident[EI_CLASS];
	o->data = r.eh.e_ident[EI_DATA];
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
	detect_lto(&r, o);
	if (symtab) {
		ret = read_symbols(&r, o, symtab);
		if (ret)
			goto out;
	}
	st_nm_classify_symbols(o);
out:
	free(r.shdrs);
	elf_end(r.elf);
	return ret;
}

static bool is_archive(const char *img, size_t len, bool *thin)
{
	if (len < 8)
		return false;
	*thin = !memcmp(img, "!<thin>\n", 8);
	return *thin || !memcmp(img, "!<arch>\n", 8);
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

static int open_member(struct st_elf_file *f, const char *img, size_t len,
		       const char *mname, struct st_error *e)
{
	struct priv *p = f->priv;
	const char *name = mname;
	char *msg;
	bool thin;
	int ret;

	if (f->thin) {
		struct st_error sub = { 0 };
		char *full = thin_member_path(f->path, mname);
		void *a;
		size_t l;

		if (!full || !(name = keep_name(p, full)))
			return st_err(e, ENOMEM, f->path, "out of memory");
		if (p->mem)
			return st_err(e, EINVAL, f->path, "member %s: thin archive read from memory", name);
		ret = map_file(name, &a, &l, &sub);
		if (ret)
			return st_err(e, ret, f->path, "member %s: %s", name, sub.msg);
		ret = add_map(p, a, l);
		if (ret) {
			munmap(a, l);
			return st_err(e, ENOMEM, f->path, "out of memory");
		}
		img = a;
		len = l;
	}
	if (is_archive(img, len, &thin))
		return 0;	/* an archive in an archive: binutils skips it too */
	msg = malloc(strlen(f->path) + strlen(name) + 3);
	if (!msg || !keep_name(p, msg))
		return st_err(e, ENOMEM, f->path, "out of memory");
	sprintf(msg, "%s(%s)", f->path, name);
	return read_object(f, img, len, name, msg, e);
}

static int parse_dec(const char *s, size_t n, uint64_t *v)
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
	for (; i < n; i++)
		if (s[i] != ' ')
			return -EINVAL;
	return 0;
}

/*
 * Walk an ar archive: GNU/SysV names ("name/", "/123" into "//"), BSD
 * "#1/len" names, the "/" and "/SYM64/" indexes skipped. In a thin archive
 * members have no data here; their files are read instead.
 */
static int read_archive(struct st_elf_file *f, const char *img, size_t len, struct st_error *e)
{
	struct priv *p = f->priv;
	const char *longnames = NULL;
	size_t longlen = 0, off = 8;

	while (off < len) {
		const char *h = img + off;
		uint64_t size, dlen;
		char name[4096];
		size_t nlen = 0, data;
		const char *nstart;
		char *copy;
		int ret;

		if (len - off == 1 && img[off] == '\n')
			break;
		if (len - off < 60 || memcmp(h + 58, "`\n", 2))
			return st_err(e, EINVAL, f->path, "corrupt archive member header at offset %zu", off);
		if (parse_dec(h + 48, 10, &size))
			return st_err(e, EINVAL, f->path, "corrupt archive member size at offset %zu", off);
		data = off + 60;
		nstart = h;
		if (h[0] == '/' && (h[1] == ' ' || !memcmp(h, "/SYM64/ ", 8))) {
			nlen = 0;	/* symbol index */
		} else if (h[0] == '/' && h[1] == '/' && h[2] == ' ') {
			if (!range_ok(data, size, len))
				return st_err(e, EINVAL, f->path, "truncated archive name table");
			longnames = img + data;
			longlen = size;
			nlen = 0;
		} else if (h[0] == '/' && h[1] >= '0' && h[1] <= '9') {
			uint64_t lo;

			if (parse_dec(h + 1, 15, &lo) || !longnames || lo >= longlen)
				return st_err(e, EINVAL, f->path, "bad long member name at offset %zu", off);
			nstart = longnames + lo;
			while (lo + nlen < longlen && nstart[nlen] != '\n' && nstart[nlen] != '\0')
				nlen++;
			if (nlen && nstart[nlen - 1] == '/')
				nlen--;
		} else if (!memcmp(h, "#1/", 3)) {
			uint64_t bl;

			if (parse_dec(h + 3, 13, &bl) || bl > size || !range_ok(data, bl, len))
				return st_err(e, EINVAL, f->path, "bad BSD member name at offset %zu", off);
			nstart = img + data;
			nlen = strnlen(nstart, bl);
			data += bl;
			size -= bl;
		} else {
			while (nlen < 16 && h[nlen] != '/' && h[nlen] != ' ')
				nlen++;
		}
		dlen = (f->thin && nlen) ? 0 : size;
		if (!range_ok(data, dlen, len))
			return st_err(e, EINVAL, f->path, "truncated archive member at offset %zu", off);
		if (nlen) {
			if (nlen >= sizeof(name))
				return st_err(e, EINVAL, f->path, "member name too long at offset %zu", off);
			memcpy(name, nstart, nlen);
			name[nlen] = '\0';
			if (memchr(name, '\0', nlen))
				return st_err(e, EINVAL, f->path, "bad member name at offset %zu", off);
			copy = strdup(name);
			if (!copy || !keep_name(p, copy))
				return st_err(e, ENOMEM, f->path, "out of memory");
			ret = open_member(f, img + data, size, copy, e);
			if (ret)
				return ret;
		}
		off = data + dlen;
		if (off & 1)
			off++;
	}
	return 0;
}

static int elf_init(struct st_error *e, const char *name)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return st_err(e, EINVAL, name, "libelf: %s", elf_errmsg(-1));
	return 0;
}

static int open_image(struct st_elf_file *f, const char *img, size_t len, struct st_error *e)
{
	bool thin;
	int ret;

	if (!len)
		return st_err(e, EINVAL, f->path, "file is empty");
	if (is_archive(img, len, &thin)) {
		f->archive = true;
		f->thin = thin;
		ret = read_archive(f, img, len, e);
	} else {
		ret = read_object(f, img, len, f->path, f->path, e);
	}
	return ret;
}

static struct st_elf_file *new_file(const char *path)
{
	struct st_elf_file *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->priv = calloc(1, sizeof(struct priv));
	f->path = strdup(path);
	if (!f->priv || !f->path) {
		free(f->priv);
		free((char *)f->path);
		free(f);
		return NULL;
	}
	return f;
}

int st_elf_open(struct st_elf_file **out, const char *path, struct st_error *e)
{
	struct st_elf_file *f;
	void *a;
	size_t l;
	int ret;

	*out = NULL;
	ret = elf_init(e, path);
	if (ret)
		return ret;
	f = new_file(path);
	if (!f)
		return st_err(e, ENOMEM, path, "out of memory");
	ret = map_file(path, &a, &l, e);
	if (ret)
		goto fail;
	ret = add_map(f->priv, a, l);
	if (ret) {
		munmap(a, l);
		ret = st_err(e, ENOMEM, path, "out of memory");
		goto fail;
	}
	ret = open_image(f, a, l, e);
	if (ret)
		goto fail;
	*out = f;
	return 0;
fail:
	st_elf_close(f);
	return ret < 0 ? ret : -EINVAL;
}

int st_elf_open_mem(struct st_elf_file **out, const void *buf, size_t len,
		    const char *name, struct st_error *e)
{
	struct st_elf_file *f;
	int ret;

	*out = NULL;
	ret = elf_init(e, name);
	if (ret)
		return ret;
	f = new_file(name);
	if (!f)
		return st_err(e, ENOMEM, name, "out of memory");
	((struct priv *)f->priv)->mem = true;
	ret = open_image(f, buf, len, e);
	if (ret) {
		st_elf_close(f);
		return ret < 0 ? ret : -EINVAL;
	}
	*out = f;
	return 0;
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
	if (p) {
		for (i = 0; i < p->nmaps; i++)
			munmap(p->maps[i].addr, p->maps[i].len);
		for (i = 0; i < p->nnames; i++)
			free(p->names[i]);
		free(p->maps);
		free(p->names);
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
