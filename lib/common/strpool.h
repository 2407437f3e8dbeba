/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_STRPOOL_H
#define ST_STRPOOL_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Strings that live as long as their owner and are freed with it: bump
 * allocation from chunks, no malloc per string and no per-string header.
 * A file with a hundred thousand findings holds a few hundred thousand
 * short strings; as malloc'd copies or fixed arrays they cost several times
 * their bytes. Zeroed (= { 0 }) is an empty pool.
 */
struct st_strpool_chunk;

struct st_strpool {
	struct st_strpool_chunk *head;	/* the chunk strings are taken from */
	char *cur, *end;
};

/* A copy of @s (NULL and "" give the one static ""); NULL when out of memory. */
const char *st_strpool_dup(struct st_strpool *p, const char *s);
/* A formatted string in @p; NULL when out of memory. */
const char *st_strpool_printf(struct st_strpool *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *st_strpool_vprintf(struct st_strpool *p, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Free every string of @p; it is an empty pool again. */
void st_strpool_release(struct st_strpool *p);

#endif
