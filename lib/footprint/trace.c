// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace model, its consistency checks, and the text format.
 *
 *	slubtrace 1
 *	[@THREAD] [+NS] cache NAME SIZE ALIGN FLAGS
 *	[@THREAD] [+NS] alloc ID NAME | kmalloc ID SIZE | kzalloc ID SIZE
 *	[@THREAD] [+NS] krealloc ID SIZE | free ID | shrink NAME | destroy NAME
 *
 * '#' starts a comment. The full specification is in README.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "footprint/trace.h"
#include "footprint/trace_priv.h"

static const char *const op_names[ST_OP_NR] = {
	[ST_OP_CACHE] = "cache",
	[ST_OP_DESTROY] = "destroy",
	[ST_OP_SHRINK] = "shrink",
	[ST_OP_ALLOC] = "alloc",
	[ST_OP_KMALLOC] = "kmalloc",
	[ST_OP_KZALLOC] = "kzalloc",
	[ST_OP_KREALLOC] = "krealloc",
	[ST_OP_FREE] = "free",
};

static const struct {
	const char *name;
	uint32_t bit;
} flag_names[] = {
	{ "HWCACHE_ALIGN", ST_TF_HWCACHE_ALIGN },
	{ "RECLAIM_ACCOUNT", ST_TF_RECLAIM_ACCOUNT },
	{ "POISON", ST_TF_POISON },
	{ "RED_ZONE", ST_TF_RED_ZONE },
	{ "STORE_USER", ST_TF_STORE_USER },
	{ "ACCOUNT", ST_TF_ACCOUNT },
};

/*
 * Per-object and per-cache state the builder checks ops against. An object
 * is ID_FREE, ID_KMALLOC or ID_CACHE + the index of its cache.
 */
enum { ID_FREE, ID_KMALLOC, ID_CACHE };

struct st_trace_state {
	uint32_t *id_kind;
	uint32_t *cache_live;	/* live objects per cache */
	uint8_t *cache_dead;	/* destroyed */
	size_t cap_ids;
};

const char *st_trace_op_name(enum st_trace_op_type type)
{
	return type < ST_OP_NR ? op_names[type] : "?";
}

struct st_trace *st_trace_new(const char *name)
{
	struct st_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->state = calloc(1, sizeof(*t->state));
	t->name = strdup(name ? name : "");
	if (!t->state || !t->name) {
		st_trace_delete(t);
		return NULL;
	}
	return t;
}

static void state_free(struct st_trace_state *s)
{
	if (!s)
		return;
	free(s->id_kind);
	free(s->cache_live);
	free(s->cache_dead);
	free(s);
}

void st_trace_delete(struct st_trace *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_caches; i++)
		free(t->caches[i].name);
	free(t->caches);
	free(t->ops);
	free(t->src);
	free(t->name);
	state_free(t->state);
	free(t);
}

/* Grow *@p (of *@cap elements of @size) to hold @need; 0 or -ENOMEM. */
static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * size);
	if (!np)
		return -ENOMEM;
	memset((char *)np + *cap * size, 0, (ncap - *cap) * size);
	*p = np;
	*cap = ncap;
	return 0;
}

int st_trace_note_src(struct st_trace *t, uint64_t where)
{
	if (grow((void **)&t->src, &t->cap_src, t->nr_ops, sizeof(*t->src)))
		return -ENOMEM;
	while (t->nr_src < t->nr_ops)
		t->src[t->nr_src++] = where;
	return 0;
}

const char *st_trace_op_where(const struct st_trace *t, const char *file, size_t i,
			      char *buf, size_t size)
{
	if (i >= t->nr_src)
		snprintf(buf, size, "%s: op %zu", file, i + 1);
	else if (t->binary)
		snprintf(buf, size, "%s:+%" PRIu64, file, t->src[i]);
	else
		snprintf(buf, size, "%s:%" PRIu64, file, t->src[i]);
	return buf;
}

static int push_op(struct st_trace *t, const struct st_trace_op *op)
{
	if (grow((void **)&t->ops, &t->cap_ops, t->nr_ops + 1, sizeof(*op)))
		return -ENOMEM;
	t->ops[t->nr_ops++] = *op;
	if (op->thread >= t->nr_threads)
		t->nr_threads = op->thread + 1;
	if (op->ts)
		t->has_ts = true;
	return 0;
}

int st_trace_add_cache(struct st_trace *t, unsigned int thread, uint64_t ts,
		       const char *name, uint32_t size, uint32_t align,
		       uint32_t flags, struct st_error *e)
{
	struct st_trace_state *s = t->state;
	struct st_trace_op op = { .ts = ts, .type = ST_OP_CACHE, .thread = thread };
	size_t cap = t->cap_caches;
	char *dup;

	if (thread >= ST_TRACE_MAX_THREADS)
		return st_err(e, EINVAL, "", "thread %u out of range (max %d)",
			      thread, ST_TRACE_MAX_THREADS - 1);
	if (t->nr_ops && ts < t->ops[t->nr_ops - 1].ts)
		return st_err(e, EINVAL, "", "time goes backwards");
	if (!*name || strlen(name) > 64 || strpbrk(name, " \t\r\n#"))
		return st_err(e, EINVAL, "", "bad cache name");
	if (!size || size > ST_TRACE_MAX_SIZE)
		return st_err(e, EINVAL, "", "cache %s: bad object size %" PRIu32, name, size);
	if (align > ST_TRACE_MAX_ALIGN || (align & (align - 1)))
		return st_err(e, EINVAL, "", "cache %s: align %" PRIu32 " is not a power of two <= %u",
			      name, align, ST_TRACE_MAX_ALIGN);
	if (flags & ~ST_TF_ALL)
		return st_err(e, EINVAL, "", "cache %s: unknown flags 0x%" PRIx32, name, flags);
	if (t->nr_caches >= UINT16_MAX)
		return st_err(e, EINVAL, "", "too many caches");
	if (grow((void **)&t->caches, &t->cap_caches, t->nr_caches + 1, sizeof(*t->caches)))
		return -ENOMEM;
	cap = t->cap_caches;
	/* the per-cache state follows the caches array's capacity */
	if (grow((void **)&s->cache_live, &(size_t){ t->nr_caches }, cap, sizeof(uint32_t)) ||
	    grow((void **)&s->cache_dead, &(size_t){ t->nr_caches }, cap, 1))
		return -ENOMEM;
	dup = strdup(name);
	if (!dup)
		return -ENOMEM;
	op.cache = t->nr_caches;
	if (push_op(t, &op)) {
		free(dup);
		return -ENOMEM;
	}
	t->caches[t->nr_caches++] = (struct st_trace_cache){ dup, size, align, flags };
	return 0;
}

static int check_cache(struct st_trace *t, uint32_t cache, struct st_error *e)
{
	if (cache >= t->nr_caches)
		return st_err(e, EINVAL, "", "no cache #%" PRIu32, cache);
	if (t->state->cache_dead[cache])
		return st_err(e, EINVAL, "", "cache %s was destroyed", t->caches[cache].name);
	return 0;
}

static int check_size(uint32_t size, struct st_error *e)
{
	if (!size || size > ST_TRACE_MAX_SIZE)
		return st_err(e, EINVAL, "", "size %" PRIu32 " out of range 1..%u",
			      size, ST_TRACE_MAX_SIZE);
	return 0;
}

/* A new object: it must be the next dense id. */
static int add_object(struct st_trace *t, uint32_t id, int kind, struct st_error *e)
{
	struct st_trace_state *s = t->state;

	if (id != t->nr_ids)
		return st_err(e, EINVAL, "", "object id %" PRIu32 " is not the next one", id);
	if (t->nr_ids == UINT32_MAX)
		return st_err(e, EINVAL, "", "too many objects");
	if (grow((void **)&s->id_kind, &s->cap_ids, t->nr_ids + 1, sizeof(*s->id_kind)))
		return -ENOMEM;
	s->id_kind[id] = kind;
	return 0;
}

static int check_live(struct st_trace *t, uint32_t id, struct st_error *e)
{
	if (id >= t->nr_ids)
		return st_err(e, EINVAL, "", "object %" PRIu32 " was never allocated", id);
	if (t->state->id_kind[id] == ID_FREE)
		return st_err(e, EINVAL, "", "object %" PRIu32 " is already freed", id);
	return 0;
}

/* Validate @op and update the state; the op is not yet pushed. */
static int apply_op(struct st_trace *t, struct st_trace_op *op, struct st_error *e)
{
	struct st_trace_state *s = t->state;
	int err;

	switch (op->type) {
	case ST_OP_DESTROY:
		op->id = op->size = 0;
		if ((err = check_cache(t, op->cache, e)))
			return err;
		if (s->cache_live[op->cache])
			return st_err(e, EINVAL, "", "cache %s destroyed with %" PRIu32 " live objects",
				      t->caches[op->cache].name, s->cache_live[op->cache]);
		s->cache_dead[op->cache] = 1;
		return 0;
	case ST_OP_SHRINK:
		op->id = op->size = 0;
		return check_cache(t, op->cache, e);
	case ST_OP_ALLOC:
		if ((err = check_cache(t, op->cache, e)) ||
		    (err = add_object(t, op->id, ID_CACHE + op->cache, e)))
			return err;
		op->size = t->caches[op->cache].size;
		s->cache_live[op->cache]++;
		t->nr_ids++;
		return 0;
	case ST_OP_KMALLOC:
	case ST_OP_KZALLOC:
		if ((err = check_size(op->size, e)) || (err = add_object(t, op->id, ID_KMALLOC, e)))
			return err;
		op->cache = 0;
		t->nr_ids++;
		return 0;
	case ST_OP_KREALLOC:
		if ((err = check_size(op->size, e)) || (err = check_live(t, op->id, e)))
			return err;
		if (s->id_kind[op->id] != ID_KMALLOC)
			return st_err(e, EINVAL, "", "krealloc of object %" PRIu32
				      " from a cache", op->id);
		op->cache = 0;
		return 0;
	case ST_OP_FREE:
		if ((err = check_live(t, op->id, e)))
			return err;
		op->cache = 0;
		op->size = 0;
		if (s->id_kind[op->id] >= ID_CACHE)
			s->cache_live[s->id_kind[op->id] - ID_CACHE]--;
		s->id_kind[op->id] = ID_FREE;
		return 0;
	default:
		return st_err(e, EINVAL, "", "bad op type %d", op->type);
	}
}

int st_trace_add_op(struct st_trace *t, unsigned int thread, uint64_t ts,
		    enum st_trace_op_type type, uint32_t id, uint32_t cache,
		    uint32_t size, struct st_error *e)
{
	struct st_trace_op op = {
		.ts = ts, .id = id, .size = size, .cache = cache > UINT16_MAX ? UINT16_MAX : cache,
		.type = type, .thread = thread,
	};
	int err;

	if (thread >= ST_TRACE_MAX_THREADS)
		return st_err(e, EINVAL, "", "thread %u out of range (max %d)",
			      thread, ST_TRACE_MAX_THREADS - 1);
	if (type == ST_OP_CACHE || type >= ST_OP_NR)
		return st_err(e, EINVAL, "", "bad op type %d", type);
	if (t->nr_ops && ts < t->ops[t->nr_ops - 1].ts)
		return st_err(e, EINVAL, "", "time goes backwards");
	err = apply_op(t, &op, e);
	if (err)
		return err;
	return push_op(t, &op);
}

int st_trace_find_cache(const struct st_trace *t, const char *name)
{
	size_t i = t->nr_caches;

	while (i--) {
		if (!t->state->cache_dead[i] && !strcmp(t->caches[i].name, name))
			return i;
	}
	return -1;
}

static void write_flags(uint32_t flags, FILE *f)
{
	const char *sep = "";
	size_t i;

	if (!flags) {
		fputc('0', f);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(flag_names); i++) {
		if (flags & flag_names[i].bit) {
			fprintf(f, "%s%s", sep, flag_names[i].name);
			sep = "|";
		}
	}
}

int st_trace_write_text(const struct st_trace *t, FILE *f)
{
	const struct st_trace_op *op;
	uint64_t ts = 0;
	size_t i;

	fprintf(f, "slubtrace %d\n", ST_TRACE_VERSION);
	for (i = 0; i < t->nr_ops; i++) {
		op = &t->ops[i];
		if (op->thread)
			fprintf(f, "@%u ", op->thread);
		if (op->ts != ts)
			fprintf(f, "+%" PRIu64 " ", op->ts);
		ts = op->ts;
		fputs(op_names[op->type], f);
		switch (op->type) {
		case ST_OP_CACHE:
			fprintf(f, " %s %" PRIu32 " %" PRIu32 " ", t->caches[op->cache].name,
				t->caches[op->cache].size, t->caches[op->cache].align);
			write_flags(t->caches[op->cache].flags, f);
			break;
		case ST_OP_DESTROY:
		case ST_OP_SHRINK:
			fprintf(f, " %s", t->caches[op->cache].name);
			break;
		case ST_OP_ALLOC:
			fprintf(f, " %" PRIu32 " %s", op->id, t->caches[op->cache].name);
			break;
		case ST_OP_FREE:
			fprintf(f, " %" PRIu32, op->id);
			break;
		default:
			fprintf(f, " %" PRIu32 " %" PRIu32, op->id, op->size);
			break;
		}
		fputc('\n', f);
	}
	return st_stream_status(f);
}

/*
 * Text parser. External ids are arbitrary unsigned numbers that are unique
 * over the trace; they are mapped to dense ids through an open-addressing
 * hash table.
 */
struct idmap {
	uint64_t *keys;
	uint32_t *vals;		/* dense id + 1, 0 = empty */
	size_t cap, used;
};

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static int idmap_grow(struct idmap *m)
{
	struct idmap n = { .cap = m->cap ? m->cap * 2 : 1024 };
	size_t i, j;

	n.keys = malloc(n.cap * sizeof(*n.keys));
	n.vals = calloc(n.cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		if (!m->vals[i])
			continue;
		for (j = hash64(m->keys[i]) & (n.cap - 1); n.vals[j]; j = (j + 1) & (n.cap - 1))
			;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	n.used = m->used;
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

/* The slot of @key: its dense id + 1 in *slot, or a free slot holding 0. */
static int idmap_slot(struct idmap *m, uint64_t key, uint32_t **slot)
{
	size_t j;

	if ((m->used + 1) * 2 > m->cap && idmap_grow(m))
		return -ENOMEM;
	for (j = hash64(key) & (m->cap - 1); m->vals[j]; j = (j + 1) & (m->cap - 1)) {
		if (m->keys[j] == key)
			break;
	}
	m->keys[j] = key;
	*slot = &m->vals[j];
	return 0;
}

struct text_ctx {
	struct st_trace *t;
	struct idmap ids;
	const char *file;
	unsigned long line;
	uint64_t line_ver;	/* 0 until the "slubtrace 1" line */
	uint64_t ts;		/* time of the previous op: "+NS" is sticky */
	struct st_error *e;
};

/* Report at FILE:LINE. */
__attribute__((format(printf, 2, 3)))
static int line_err(struct text_ctx *c, const char *fmt, ...)
{
	char where[600], msg[512];
	va_list ap;

	snprintf(where, sizeof(where), "%s:%lu", c->file, c->line);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return st_err(c->e, EINVAL, where, "%s", msg);
}

/* A builder error (file "") moved to FILE:LINE. */
static int rehome(struct text_ctx *c, int err)
{
	char msg[sizeof(c->e->msg)];

	if (err != -EINVAL || !c->e)
		return err;
	memcpy(msg, c->e->msg, sizeof(msg));
	st_error_clear(c->e);
	return line_err(c, "%s", msg);
}

static int parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end || *v > max)
		return -EINVAL;
	return 0;
}

static int parse_flags(char *s, uint32_t *flags)
{
	char *tok, *save = NULL;
	size_t i;

	*flags = 0;
	if (!strcmp(s, "0"))
		return 0;
	for (tok = strtok_r(s, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		for (i = 0; i < ARRAY_SIZE(flag_names); i++) {
			if (!strcmp(tok, flag_names[i].name) ||
			    (!strncmp(tok, "SLAB_", 5) && !strcmp(tok + 5, flag_names[i].name)))
				break;
		}
		if (i == ARRAY_SIZE(flag_names))
			return -EINVAL;
		*flags |= flag_names[i].bit;
	}
	return 0;
}

/* Map an external id of a new object; a reused id is an error. */
static int new_id(struct text_ctx *c, const char *s, uint32_t *id)
{
	uint64_t ext;
	uint32_t *slot;

	if (parse_u64(s, UINT64_MAX, &ext))
		return line_err(c, "bad object id '%s'", s ? s : "");
	if (idmap_slot(&c->ids, ext, &slot))
		return -ENOMEM;
	if (*slot)
		return line_err(c, "object id %s is used twice", s);
	*slot = c->t->nr_ids + 1;
	c->ids.used++;
	*id = c->t->nr_ids;
	return 0;
}

static int old_id(struct text_ctx *c, const char *s, uint32_t *id)
{
	uint64_t ext;
	uint32_t *slot;

	if (parse_u64(s, UINT64_MAX, &ext))
		return line_err(c, "bad object id '%s'", s ? s : "");
	if (idmap_slot(&c->ids, ext, &slot))
		return -ENOMEM;
	if (!*slot)
		return line_err(c, "object %s was never allocated", s);
	*id = *slot - 1;
	return 0;
}

static int cache_arg(struct text_ctx *c, const char *s, uint32_t *cache)
{
	int i;

	if (!s)
		return line_err(c, "%s", "missing cache name");
	i = st_trace_find_cache(c->t, s);
	if (i < 0)
		return line_err(c, "no cache '%s'", s);
	*cache = i;
	return 0;
}

static int size_arg(struct text_ctx *c, const char *s, uint32_t *size)
{
	uint64_t v;

	if (parse_u64(s, ST_TRACE_MAX_SIZE, &v) || !v)
		return line_err(c, "bad size '%s'", s ? s : "");
	*size = v;
	return 0;
}

static int parse_cache_line(struct text_ctx *c, char **arg, unsigned int thread, uint64_t ts)
{
	uint64_t size, align;
	uint32_t flags;
	int err;

	if (!arg[0] || !arg[1] || !arg[2] || !arg[3])
		return line_err(c, "%s", "usage: cache NAME SIZE ALIGN FLAGS");
	if (parse_u64(arg[1], ST_TRACE_MAX_SIZE, &size) || !size)
		return line_err(c, "bad object size '%s'", arg[1]);
	if (parse_u64(arg[2], ST_TRACE_MAX_ALIGN, &align))
		return line_err(c, "bad align '%s'", arg[2]);
	if (parse_flags(arg[3], &flags))
		return line_err(c, "%s", "bad flags (want 0 or NAME|NAME, e.g. HWCACHE_ALIGN)");
	if (st_trace_find_cache(c->t, arg[0]) >= 0)
		return line_err(c, "cache '%s' exists already", arg[0]);
	err = st_trace_add_cache(c->t, thread, ts, arg[0], size, align, flags, c->e);
	return rehome(c, err);
}

/* One op line, split into words; @w[0] is the op name. */
static int parse_op(struct text_ctx *c, char **w, int nw, unsigned int thread, uint64_t ts)
{
	static const int nargs[ST_OP_NR] = {
		[ST_OP_CACHE] = 4, [ST_OP_DESTROY] = 1, [ST_OP_SHRINK] = 1,
		[ST_OP_ALLOC] = 2, [ST_OP_KMALLOC] = 2, [ST_OP_KZALLOC] = 2,
		[ST_OP_KREALLOC] = 2, [ST_OP_FREE] = 1,
	};
	uint32_t id = 0, cache = 0, size = 0;
	int type, err;

	for (type = 0; type < ST_OP_NR; type++)
		if (!strcmp(w[0], op_names[type]))
			break;
	if (type == ST_OP_NR)
		return line_err(c, "unknown op '%s'", w[0]);
	if (nw - 1 != nargs[type])
		return line_err(c, "wrong number of arguments for '%s'", w[0]);
	switch (type) {
	case ST_OP_CACHE:
		return parse_cache_line(c, w + 1, thread, ts);
	case ST_OP_DESTROY:
	case ST_OP_SHRINK:
		err = cache_arg(c, w[1], &cache);
		break;
	case ST_OP_ALLOC:
		err = cache_arg(c, w[2], &cache);
		if (!err)
			err = new_id(c, w[1], &id);
		break;
	case ST_OP_KMALLOC:
	case ST_OP_KZALLOC:
		err = size_arg(c, w[2], &size);
		if (!err)
			err = new_id(c, w[1], &id);
		break;
	case ST_OP_KREALLOC:
		err = size_arg(c, w[2], &size);
		if (!err)
			err = old_id(c, w[1], &id);
		break;
	default:
		err = old_id(c, w[1], &id);
		break;
	}
	if (err)
		return err;
	err = st_trace_add_op(c->t, thread, ts, type, id, cache, size, c->e);
	return rehome(c, err);
}

static int parse_line(struct text_ctx *c, char *s)
{
	char *w[8], *save = NULL, *tok;
	unsigned int thread = 0;
	uint64_t ts = c->ts, v;
	int nw = 0;

	if ((tok = strchr(s, '#')))
		*tok = '\0';
	for (tok = strtok_r(s, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		if (nw == 8)
			return line_err(c, "%s", "too many words");
		w[nw++] = tok;
	}
	if (!nw)
		return 0;
	if (c->line_ver == 0) {
		if (nw != 2 || strcmp(w[0], "slubtrace"))
			return line_err(c, "%s", "not a trace: the first line must be 'slubtrace 1'");
		if (parse_u64(w[1], UINT32_MAX, &v) || v != ST_TRACE_VERSION)
			return line_err(c, "unsupported trace version '%s' (this is version 1)", w[1]);
		c->line_ver = v;
		return 0;
	}
	while (nw && (w[0][0] == '@' || w[0][0] == '+')) {
		if (w[0][0] == '@') {
			if (parse_u64(w[0] + 1, ST_TRACE_MAX_THREADS - 1, &v))
				return line_err(c, "bad thread '%s' (0..63)", w[0]);
			thread = v;
		} else if (parse_u64(w[0] + 1, UINT64_MAX, &ts) || ts < c->ts) {
			return line_err(c, "bad timestamp '%s' (ns, never decreasing)", w[0]);
		}
		memmove(w, w + 1, --nw * sizeof(w[0]));
	}
	if (!nw)
		return line_err(c, "%s", "missing op");
	c->ts = ts;
	return parse_op(c, w, nw, thread, ts);
}

static int parse_text(const char *buf, size_t len, const char *file,
		      struct st_trace *t, struct st_error *e)
{
	struct text_ctx c = { .t = t, .file = file, .e = e };
	const char *p = buf, *end = buf + len, *nl;
	char *line = NULL;
	size_t cap = 0, n;
	int err = 0;

	while (p < end && !err) {
		nl = memchr(p, '\n', end - p);
		n = (nl ? nl : end) - p;
		c.line++;
		if (n + 1 > cap) {
			char *nline = realloc(line, n + 1);

			if (!nline) {
				err = -ENOMEM;
				break;
			}
			line = nline;
			cap = n + 1;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		if (memchr(line, '\0', n))
			err = line_err(&c, "%s", "NUL byte in a text trace");
		else
			err = parse_line(&c, line);
		if (!err)
			err = st_trace_note_src(t, c.line);
		p += n + 1;
	}
	if (!err && !c.line_ver)
		err = st_err(e, EINVAL, file, "empty trace (no 'slubtrace 1' line)");
	free(line);
	free(c.ids.keys);
	free(c.ids.vals);
	return err;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int st_trace_parse(const void *buf, size_t len, const char *file,
		   struct st_trace **out, struct st_error *e)
{
	struct st_trace *t = st_trace_new(base_name(file));
	int err;

	if (!t)
		return -ENOMEM;
	t->binary = len >= 4 && !memcmp(buf, ST_TRACE_BIN_MAGIC, 4);
	if (t->binary)
		err = st_trace_parse_bin(buf, len, file, t, e);
	else
		err = parse_text(buf, len, file, t, e);
	if (err) {
		st_trace_delete(t);
		return err;
	}
	*out = t;
	return 0;
}

int st_trace_load(const char *path, struct st_trace **out, struct st_error *e)
{
	FILE *f = stdin;
	char *buf = NULL, *nbuf;
	size_t len = 0, cap = 0, n;
	int err = 0, why, fd;

	if (strcmp(path, "-")) {
		err = st_open_regular(path, &fd, NULL, e);
		if (err)
			return err;
		f = fdopen(fd, "rb");
		if (!f) {
			err = st_err(e, errno, path, "%s", strerror(errno));
			close(fd);
			return err;
		}
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				err = -ENOMEM;
				goto out;
			}
			buf = nbuf;
		}
		errno = 0;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		/* A directory opens; reading it fails with EISDIR: say so. */
		why = errno ? errno : EIO;
		err = st_err(e, why, path, "read error: %s", strerror(why));
		goto out;
	}
	err = st_trace_parse(buf, len, path, out, e);
out:
	if (f != stdin)
		fclose(f);
	free(buf);
	return err;
}
