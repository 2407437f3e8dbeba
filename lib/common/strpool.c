// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strpool.h"

/* Big enough that the chunk headers are noise, small for a clean file. */
#define CHUNK	(64 * 1024)

struct st_strpool_chunk {
	struct st_strpool_chunk *next;
	char data[];
};

/* @len bytes from @p, in the current chunk or a new one of its own size. */
static char *take(struct st_strpool *p, size_t len)
{
	struct st_strpool_chunk *c;
	size_t size = len > CHUNK / 4 ? len : CHUNK;
	char *s;

	if ((size_t)(p->end - p->cur) >= len) {
		s = p->cur;
		p->cur += len;
		return s;
	}
	c = malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	if (size != CHUNK) {
		/* a big string gets a chunk of its own behind the current one */
		c->next = p->head ? p->head->next : NULL;
		if (p->head)
			p->head->next = c;
		else
			p->head = c;
		return c->data;
	}
	c->next = p->head;
	p->head = c;
	p->cur = c->data + len;
	p->end = c->data + size;
	return c->data;
}

const char *st_strpool_dup(struct st_strpool *p, const char *s)
{
	size_t len;
	char *d;

	if (!s || !*s)
		return "";
	len = strlen(s) + 1;
	d = take(p, len);
	if (d)
		memcpy(d, s, len);
	return d;
}

const char *st_strpool_vprintf(struct st_strpool *p, const char *fmt, va_list ap)
{
	char small[256], *d;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	if (!n)
		return "";
	d = take(p, (size_t)n + 1);
	if (!d)
		return NULL;
	if ((size_t)n < sizeof(small))
		memcpy(d, small, (size_t)n + 1);
	else
		vsnprintf(d, (size_t)n + 1, fmt, ap);
	return d;
}

const char *st_strpool_printf(struct st_strpool *p, const char *fmt, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, fmt);
	s = st_strpool_vprintf(p, fmt, ap);
	va_end(ap);
	return s;
}

void st_strpool_release(struct st_strpool *p)
{
	struct st_strpool_chunk *c, *next;

	for (c = p->head; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(p, 0, sizeof(*p));
}
