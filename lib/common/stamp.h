/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_STAMP_H
#define ST_STAMP_H

/*
 * The content hash of the build caches (lib/build's outputs, lib/kernel's
 * trees and builds): an output is up to date when the hash of its inputs
 * equals the one recorded beside it. Two FNV-1a lanes, 128 bits: cache
 * identity, not security.
 */

#include <stddef.h>
#include <stdint.h>

struct st_hash {
	uint64_t a, b;
};

#define ST_HASH_HEX	33	/* 32 hex digits and the NUL */

void st_hash_init(struct st_hash *h);
void st_hash_bytes(struct st_hash *h, const void *p, size_t n);
/* @s and its terminator, so "ab","c" and "a","bc" differ; NULL is not "". */
void st_hash_str(struct st_hash *h, const char *s);
/* Another hash's value, e.g. a file's hashed alone. */
void st_hash_mix(struct st_hash *h, const struct st_hash *v);
/* The bytes of @path: 0 or -errno. */
int st_hash_file(struct st_hash *h, const char *path);
/* Name, size and mtime of @path ("-" when missing): enough to notice an edit. */
void st_hash_stat(struct st_hash *h, const char *path);
void st_hash_hex(const struct st_hash *h, char out[ST_HASH_HEX]);

#endif
