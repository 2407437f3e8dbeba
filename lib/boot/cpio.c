// SPDX-License-Identifier: GPL-2.0-only
/*
 * A cpio archive in the "newc" format the kernel unpacks as its initramfs:
 * 110-byte ASCII headers (magic 070701, thirteen 8-digit hex fields), the
 * name NUL-terminated and padded to 4 bytes, the data padded to 4 bytes,
 * a TRAILER!!! entry and zeros up to a multiple of 512. Inode numbers start
 * at 721 and every entry says device 3:1, as the kernel's usr/gen_init_cpio
 * writes them: the same list gives the same bytes (tests compare the two).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"

#define CPIO_FIRST_INO 721

struct buf {
	char *p;
	size_t len, cap;
};

static int grow(struct buf *b, size_t n)
{
	char *np;
	size_t cap = b->cap ? b->cap : 4096;

	if (b->len + n <= b->cap)
		return 0;
	while (cap < b->len + n)
		cap *= 2;
	np = realloc(b->p, cap);
	if (!np)
		return -ENOMEM;
	b->p = np;
	b->cap = cap;
	return 0;
}

static int put(struct buf *b, const void *p, size_t n)
{
	if (grow(b, n))
		return -ENOMEM;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* Zeros up to a multiple of @align. */
static int pad(struct buf *b, size_t align)
{
	static const char zero[512];

	return put(b, zero, (align - b->len % align) % align);
}

static int header(struct buf *b, unsigned int ino, unsigned int mode, unsigned int nlink,
		  size_t size, unsigned int rmajor, unsigned int rminor, const char *name,
		  unsigned int dmajor, unsigned int dminor)
{
	char h[111];

	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 ino, mode, 0u, 0u, nlink, 0u, (unsigned int)size, dmajor, dminor, rmajor,
		 rminor, (unsigned int)strlen(name) + 1, 0u);
	if (put(b, h, 110) || put(b, name, strlen(name) + 1) || pad(b, 4))
		return -ENOMEM;
	return 0;
}

/*
 * A regular file and its hard links as gen_init_cpio writes them: one
 * inode number and link count for all names, the data after the last one.
 */
static int put_file(struct buf *b, const struct st_cpio_entry *en, unsigned int ino)
{
	unsigned int nlink = (unsigned int)en->nr_links + 1;
	size_t i;

	for (i = 0; i < nlink; i++) {
		const char *name = i ? en->links[i - 1] : en->name;
		size_t size = i == nlink - 1 ? en->size : 0;

		if (!name || !*name || name[0] == '/')
			return -EINVAL;
		if (header(b, ino, en->mode, nlink, size, 0, 0, name, 3, 1))
			return -ENOMEM;
		if (size && (put(b, en->data, size) || pad(b, 4)))
			return -ENOMEM;
	}
	return 0;
}

static int put_entry(struct buf *b, const struct st_cpio_entry *en, unsigned int ino)
{
	unsigned int type = en->mode & 0170000;
	size_t size;

	if (!*en->name || en->name[0] == '/' || en->size > 0xffffffffu ||
	    (type != 0040000 && type != 0100000 && type != 0020000 && type != 0060000 &&
	     type != 0120000) || (type == 0120000 && !en->data) ||
	    (en->nr_links && (type != 0100000 || !en->links)))
		return -EINVAL;
	if (type == 0100000)
		return put_file(b, en, ino);
	/* A symlink's data is its target with the NUL, as gen_init_cpio writes it. */
	size = type == 0120000 ? strlen(en->data) + 1 : 0;
	if (header(b, ino, en->mode, type == 0040000 ? 2 : 1, size, en->rmajor, en->rminor,
		   en->name, 3, 1))
		return -ENOMEM;
	if (size && (put(b, en->data, size) || pad(b, 4)))
		return -ENOMEM;
	return 0;
}

int st_cpio_build(const struct st_cpio_entry *ents, size_t n, char **out, size_t *out_len)
{
	struct buf b = { 0 };
	unsigned int ino = CPIO_FIRST_INO;
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = put_entry(&b, &ents[i], ino++);
	if (!ret)
		ret = header(&b, 0, 0, 1, 0, 0, 0, "TRAILER!!!", 0, 0);
	if (!ret)
		ret = pad(&b, 512);
	if (ret) {
		free(b.p);
		return ret;
	}
	*out = b.p;
	*out_len = b.len;
	return 0;
}
