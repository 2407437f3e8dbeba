/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_FOOTPRINT_TRACE_H
#define ST_FOOTPRINT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct st_error;
struct st_trace_state;

/*
 * An allocation trace: the slab API calls of a workload, in the order they
 * happened, each tagged with the thread that made it. The text and binary
 * formats are specified in README.md (## footprint); both parse into this
 * model. Object ids are renumbered densely at parse time (the n-th allocation
 * gets id n-1), so a replay can keep its objects in a plain array and the
 * size of that array is bounded by the size of the input.
 */
#define ST_TRACE_VERSION	1
#define ST_TRACE_MAX_THREADS	64
#define ST_TRACE_MAX_SIZE	(64u << 20)	/* larger requests are refused */
#define ST_TRACE_MAX_ALIGN	4096u

enum st_trace_op_type {
	ST_OP_CACHE,	/* create cache .cache */
	ST_OP_DESTROY,	/* destroy cache .cache (it has no live objects) */
	ST_OP_SHRINK,	/* shrink cache .cache */
	ST_OP_ALLOC,	/* object .id from cache .cache */
	ST_OP_KMALLOC,	/* object .id of .size bytes */
	ST_OP_KZALLOC,
	ST_OP_KREALLOC,	/* resize kmalloc'd object .id to .size */
	ST_OP_FREE,	/* free object .id (kfree or kmem_cache_free) */
	ST_OP_NR,
};

/* Cache flags, named as the kernel's SLAB_* without the prefix. */
#define ST_TF_HWCACHE_ALIGN	0x01u
#define ST_TF_RECLAIM_ACCOUNT	0x02u
#define ST_TF_POISON		0x04u
#define ST_TF_RED_ZONE		0x08u
#define ST_TF_STORE_USER	0x10u
#define ST_TF_ACCOUNT		0x20u
#define ST_TF_ALL		0x3fu

struct st_trace_op {
	uint64_t ts;		/* ns since the start of the trace, 0 if none */
	uint32_t id;
	uint32_t size;
	uint16_t cache;
	uint8_t type;
	uint8_t thread;
	uint32_t reserved;	/* 0: no padding, ops compare with memcmp */
};

struct st_trace_cache {
	char *name;
	uint32_t size;
	uint32_t align;
	uint32_t flags;
};

struct st_trace {
	char *name;			/* generator name or file name */
	struct st_trace_cache *caches;	/* in creation order */
	size_t nr_caches;
	struct st_trace_op *ops;
	size_t nr_ops;
	uint32_t nr_ids;		/* objects allocated over the trace */
	unsigned int nr_threads;	/* highest thread + 1 */
	bool has_ts;
	/* where each op came from, for messages: its line (text) or its
	 * record's offset (binary); NULL for a generated trace */
	uint64_t *src;
	bool binary;
	/* builder state (checks of consistency), see trace.c */
	size_t cap_ops, cap_caches, nr_src, cap_src;
	struct st_trace_state *state;
};

/* A new empty trace named @name; NULL on ENOMEM. */
struct st_trace *st_trace_new(const char *name);
/* Frees everything; accepts NULL. */
void st_trace_delete(struct st_trace *t);

/*
 * Parse a trace (text or binary, told apart by the magic) from @buf. @file
 * names the input in errors, which read "FILE:LINE: problem" (text) or
 * "FILE:+OFFSET: problem" (binary). On success *out is the caller's.
 */
int st_trace_parse(const void *buf, size_t len, const char *file,
		   struct st_trace **out, struct st_error *e);
/* Read and parse @path ("-" is stdin). */
int st_trace_load(const char *path, struct st_trace **out, struct st_error *e);

/*
 * Where op @i is, for a message: "FILE:LINE" (text), "FILE:+OFFSET"
 * (binary) or "FILE: op N" (generated), in @buf of @size.
 */
const char *st_trace_op_where(const struct st_trace *t, const char *file, size_t i,
			      char *buf, size_t size);

/* Writers; return 0 or -errno (of the stream). */
int st_trace_write_text(const struct st_trace *t, FILE *f);
int st_trace_write_bin(const struct st_trace *t, FILE *f);

/*
 * Builders, used by the parser, the generators and tests; each checks the
 * op against the state of the trace so far and returns -EINVAL with a
 * message in @e (file "") for an inconsistent op.
 */
int st_trace_add_cache(struct st_trace *t, unsigned int thread, uint64_t ts,
		       const char *name, uint32_t size, uint32_t align,
		       uint32_t flags, struct st_error *e);
int st_trace_add_op(struct st_trace *t, unsigned int thread, uint64_t ts,
		    enum st_trace_op_type type, uint32_t id, uint32_t cache,
		    uint32_t size, struct st_error *e);
/* Id of the next allocation (for builders that create their own ids). */
static inline uint32_t st_trace_next_id(const struct st_trace *t)
{
	return t->nr_ids;
}

const char *st_trace_op_name(enum st_trace_op_type type);

/* Generators: "boot", "net", "fs". @scale 1 is the documented size. */
extern const char *const st_trace_shapes[];
int st_trace_generate(const char *shape, uint64_t seed, unsigned int scale,
		      struct st_trace **out, struct st_error *e);

#endif
