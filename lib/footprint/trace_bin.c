// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compact binary trace format: "SLTB", a version byte, then records of
 * one tag byte followed by LEB128 unsigned varints. Allocations carry no id
 * (an object's id is its allocation index); frees and kreallocs carry the
 * distance back from the newest id, which is small for short-lived objects.
 * The thread and the time are state changed by their own records.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fs.h"
#include "footprint/trace.h"
#include "footprint/trace_priv.h"

enum {
	TAG_END = 0x00,
	TAG_OP = 0x01,		/* 0x01 + enum st_trace_op_type */
	TAG_THREAD = 0x10,
	TAG_TIME = 0x11,	/* delta ns to the previous time */
};

static void put_var(uint64_t v, FILE *f)
{
	while (v >= 0x80) {
		fputc((int)(v & 0x7f) | 0x80, f);
		v >>= 7;
	}
	fputc((int)v, f);
}

static void write_op(const struct st_trace *t, const struct st_trace_op *op,
		     uint32_t nr_ids, FILE *f)
{
	const struct st_trace_cache *c;

	fputc(TAG_OP + op->type, f);
	switch (op->type) {
	case ST_OP_CACHE:
		/* only here: a trace without caches has caches == NULL */
		c = &t->caches[op->cache];
		put_var(c->size, f);
		put_var(c->align, f);
		put_var(c->flags, f);
		put_var(strlen(c->name), f);
		fputs(c->name, f);
		break;
	case ST_OP_DESTROY:
	case ST_OP_SHRINK:
	case ST_OP_ALLOC:
		put_var(op->cache, f);
		break;
	case ST_OP_KMALLOC:
	case ST_OP_KZALLOC:
		put_var(op->size, f);
		break;
	case ST_OP_KREALLOC:
		put_var(nr_ids - 1 - op->id, f);
		put_var(op->size, f);
		break;
	case ST_OP_FREE:
		put_var(nr_ids - 1 - op->id, f);
		break;
	}
}

int st_trace_write_bin(const struct st_trace *t, FILE *f)
{
	const struct st_trace_op *op;
	unsigned int thread = 0;
	uint64_t ts = 0;
	uint32_t nr_ids = 0;
	size_t i;

	fwrite(ST_TRACE_BIN_MAGIC, 1, 4, f);
	fputc(ST_TRACE_VERSION, f);
	for (i = 0; i < t->nr_ops; i++) {
		op = &t->ops[i];
		if (op->thread != thread) {
			fputc(TAG_THREAD, f);
			put_var(op->thread, f);
			thread = op->thread;
		}
		/* time only goes forward in the binary format; clamp */
		if (op->ts > ts) {
			fputc(TAG_TIME, f);
			put_var(op->ts - ts, f);
			ts = op->ts;
		}
		write_op(t, op, nr_ids, f);
		if (op->type == ST_OP_ALLOC || op->type == ST_OP_KMALLOC ||
		    op->type == ST_OP_KZALLOC)
			nr_ids++;
	}
	fputc(TAG_END, f);
	return st_stream_status(f);
}

struct bin_ctx {
	const unsigned char *p, *start, *end;
	const char *file;
	struct st_trace *t;
	struct st_error *e;
	size_t rec;		/* offset of the current record */
};

static int bin_err(struct bin_ctx *c, const char *msg)
{
	char where[600];

	snprintf(where, sizeof(where), "%s:+%zu", c->file, c->rec);
	return st_err(c->e, EINVAL, where, "%s", msg);
}

static int get_var(struct bin_ctx *c, uint64_t max, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	for (;;) {
		if (c->p == c->end)
			return bin_err(c, "truncated record");
		if (shift > 63 || (shift == 63 && (*c->p & 0x7e)))
			return bin_err(c, "varint overflow");
		*v |= (uint64_t)(*c->p & 0x7f) << shift;
		shift += 7;
		if (!(*c->p++ & 0x80))
			break;
	}
	if (*v > max)
		return bin_err(c, "value out of range");
	return 0;
}

/* A builder error (file "") moved to FILE:+OFFSET. */
static int rehome(struct bin_ctx *c, int err)
{
	char msg[sizeof(c->e->msg)];

	if (err != -EINVAL || !c->e)
		return err;
	memcpy(msg, c->e->msg, sizeof(msg));
	st_error_clear(c->e);
	return bin_err(c, msg);
}

static int read_cache(struct bin_ctx *c, unsigned int thread, uint64_t ts)
{
	uint64_t size, align, flags, len;
	char name[65];
	int err;

	if ((err = get_var(c, ST_TRACE_MAX_SIZE, &size)) ||
	    (err = get_var(c, ST_TRACE_MAX_ALIGN, &align)) ||
	    (err = get_var(c, UINT32_MAX, &flags)) ||
	    (err = get_var(c, 64, &len)))
		return err;
	if ((size_t)(c->end - c->p) < len)
		return bin_err(c, "truncated cache name");
	memcpy(name, c->p, len);
	name[len] = '\0';
	c->p += len;
	if (strlen(name) != len)
		return bin_err(c, "NUL in cache name");
	if (st_trace_find_cache(c->t, name) >= 0)
		return bin_err(c, "cache exists already");
	return rehome(c, st_trace_add_cache(c->t, thread, ts, name, size, align, flags, c->e));
}

/* The dense id that lies @back before the newest one. */
static int back_id(struct bin_ctx *c, uint32_t *id)
{
	uint64_t back;
	int err = get_var(c, UINT32_MAX, &back);

	if (err)
		return err;
	if (back >= c->t->nr_ids)
		return bin_err(c, "object was never allocated");
	*id = c->t->nr_ids - 1 - back;
	return 0;
}

static int read_op(struct bin_ctx *c, int type, unsigned int thread, uint64_t ts)
{
	uint64_t v = 0, size = 0;
	uint32_t id = c->t->nr_ids;
	int err = 0;

	switch (type) {
	case ST_OP_CACHE:
		return read_cache(c, thread, ts);
	case ST_OP_DESTROY:
	case ST_OP_SHRINK:
	case ST_OP_ALLOC:
		err = get_var(c, UINT16_MAX, &v);
		break;
	case ST_OP_KMALLOC:
	case ST_OP_KZALLOC:
		err = get_var(c, UINT32_MAX, &size);
		break;
	case ST_OP_KREALLOC:
		err = back_id(c, &id);
		if (!err)
			err = get_var(c, UINT32_MAX, &size);
		break;
	case ST_OP_FREE:
		err = back_id(c, &id);
		break;
	}
	if (err)
		return err;
	return rehome(c, st_trace_add_op(c->t, thread, ts, type, id, v, size, c->e));
}

int st_trace_parse_bin(const unsigned char *buf, size_t len, const char *file,
		       struct st_trace *t, struct st_error *e)
{
	struct bin_ctx c = { .p = buf + 4, .start = buf, .end = buf + len,
			     .file = file, .t = t, .e = e, .rec = 4 };
	unsigned int thread = 0;
	uint64_t ts = 0, v;
	int tag, err;

	if (c.p == c.end)
		return bin_err(&c, "truncated header");
	if (*c.p++ != ST_TRACE_VERSION)
		return bin_err(&c, "unsupported binary trace version (this is version 1)");
	for (;;) {
		c.rec = c.p - c.start;
		if (c.p == c.end)
			return bin_err(&c, "missing end record");
		tag = *c.p++;
		if (tag == TAG_END)
			break;
		if (tag == TAG_THREAD) {
			err = get_var(&c, ST_TRACE_MAX_THREADS - 1, &v);
			thread = v;
		} else if (tag == TAG_TIME) {
			err = get_var(&c, UINT64_MAX - ts, &v);
			ts += v;
		} else if (tag >= TAG_OP && tag < TAG_OP + ST_OP_NR) {
			err = read_op(&c, tag - TAG_OP, thread, ts);
		} else {
			err = bin_err(&c, "unknown record tag");
		}
		if (!err)
			err = st_trace_note_src(t, c.rec);
		if (err)
			return err;
	}
	if (c.p != c.end)
		return bin_err(&c, "data after the end record");
	return 0;
}
