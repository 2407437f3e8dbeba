// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay core: runs a parsed trace against one allocator backend.
 *
 * Two kinds of pass. The measuring pass accounts every object (requested
 * size, usable size from ksize(), per size class) and watches the page
 * counters after every op, so that the class figures are those of the
 * moment the allocator held the most pages. The timed passes do nothing
 * but the calls, from a compact copy of the trace (struct cop): 12 bytes
 * an op where the trace has 32, and each object's pointer in a slot that
 * the thread's next allocation reuses, where the trace numbers every
 * object anew. Streaming the trace and a pointer array as long as it
 * through the cache took a sixth of each pass (the net trace, on SLUB
 * and on SLUB_TINY alike) and evicted the allocator's own data between
 * its calls.
 *
 * With several threads, each thread runs the ops tagged with its number, in
 * trace order. An op that needs another thread's earlier op (a free of an
 * object that thread allocated, an alloc from a cache it created) waits for
 * that thread to get past it; cache create/destroy/shrink wait for every
 * earlier op. Each thread publishes the index of its next op, which is all
 * the synchronisation there is, and none at all for independent ops.
 *
 * A thread that must wait spins briefly, then sleeps on a futex of the
 * thread it waits for. Only an op that another thread waits for (marked
 * in prepare_threads()) makes its thread look for sleepers after it: the
 * fence that needs costs nothing on the independent ops that the timed
 * passes measure. Yielding instead (sched_yield) made 64 threads on two
 * CPUs take seconds over 1,500 ops: the waiters kept taking the CPUs
 * from the threads they waited for.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "replay.h"

#define NO_DEP		UINT32_MAX
#define BARRIER		(UINT32_MAX - 1)
#define DONE		UINT64_MAX

/* kmalloc size classes as the kernel's kmalloc_index() has them. */
static const uint32_t kmalloc_sizes[RP_KMALLOC_CLASSES] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192, 0,
};

static unsigned int kmalloc_class(uint32_t size)
{
	unsigned int i;

	for (i = 0; i < RP_KMALLOC_CLASSES - 1; i++) {
		if (size <= kmalloc_sizes[i])
			return i;
	}
	return RP_KMALLOC_CLASSES - 1;	/* kmalloc-large: pages */
}

/*
 * One cache line each, and none shared with struct rp's other fields: a
 * thread stores its progress after every op, and the others read those
 * fields (the op lists, the slots) for every op of theirs.
 */
struct progress {
	uint64_t next;		/* index of the next op this thread runs */
	uint32_t seq;		/* futex word: bumped to wake the sleepers */
	uint32_t sleepers;	/* threads asleep (or about to be) on seq */
} __attribute__((aligned(64)));

/* A timed pass's op: @arg is the size (kmalloc, kzalloc, krealloc), the
 * cache (alloc, create, destroy, shrink) or the cache + 1 of the object a
 * free frees (0: kfree()); @slot indexes rp.slots. */
struct cop {
	uint32_t arg;
	uint32_t slot;
	uint8_t type;
};

struct rp {
	const struct st_trace *t;
	unsigned int threads;
	bool account;
	struct rb_cache **caches;
	void **objs;
	uint16_t *obj_cache;	/* cache index + 1; 0 for kmalloc */
	uint16_t *obj_class;	/* class index + 1; 0 for none */
	uint32_t *obj_req, *obj_usable;
	uint32_t *dep;		/* per op: NO_DEP, BARRIER or an op index */
	uint8_t *wake;		/* per op: another thread may wait for it */
	uint32_t **tops;	/* ops of each thread */
	size_t *ntops;
	/* timed passes */
	struct cop **cops;	/* each thread's ops, as tops[] */
	void **slots;		/* the live objects */
	uint16_t *slot_cache;	/* cache + 1 of a slot's last object */
	uint32_t nr_slots;
	struct progress progress[ST_TRACE_MAX_THREADS];
	struct rp_result *res;
	size_t sample_every;
	unsigned long best;	/* pages at the last snapshot */
	pthread_mutex_t snap_lock;
	pthread_barrier_t start;
	int err;
	size_t err_op;		/* the op that failed + 1, 0 if not known */
};

/* The measuring pass's current op + 1 on this thread (0: not known), for
 * set_err(); the timed passes do not pay for keeping it. */
static __thread size_t cur_op;

static void set_err(struct rp *r, int err)
{
	if (__atomic_compare_exchange_n(&r->err, &(int){ 0 }, err, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		r->err_op = cur_op;
}

static void cls_add(struct rp *r, uint32_t id, unsigned int cls, uint32_t req, uint32_t usable)
{
	struct rp_class *c = &r->res->classes[cls];

	r->obj_class[id] = cls + 1;
	r->obj_req[id] = req;
	r->obj_usable[id] = usable;
	__atomic_fetch_add(&c->objects, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->requested, req, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->usable, usable, __ATOMIC_RELAXED);
}

static void cls_sub(struct rp *r, uint32_t id)
{
	struct rp_class *c;

	if (!r->obj_class[id])
		return;
	c = &r->res->classes[r->obj_class[id] - 1];
	__atomic_fetch_sub(&c->objects, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&c->requested, r->obj_req[id], __ATOMIC_RELAXED);
	__atomic_fetch_sub(&c->usable, r->obj_usable[id], __ATOMIC_RELAXED);
	r->obj_class[id] = 0;
}

/* A new maximum of pages: keep the class figures of this moment. */
static void snapshot(struct rp *r, unsigned long pages)
{
	struct rp_result *res = r->res;
	size_t i;

	if (pthread_mutex_trylock(&r->snap_lock))
		return;
	if (pages > r->best) {
		__atomic_store_n(&r->best, pages, __ATOMIC_RELAXED);
		for (i = 0; i < res->nr_classes; i++) {
			res->at_peak[i].objects = __atomic_load_n(&res->classes[i].objects, __ATOMIC_RELAXED);
			res->at_peak[i].requested = __atomic_load_n(&res->classes[i].requested, __ATOMIC_RELAXED);
			res->at_peak[i].usable = __atomic_load_n(&res->classes[i].usable, __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_unlock(&r->snap_lock);
}

static void account_after(struct rp *r, size_t i)
{
	struct rb_pages p;

	if (r->sample_every && i % r->sample_every == 0 &&
	    i / r->sample_every < r->res->nr_samples) {
		rb_pages(&p);
		r->res->samples[i / r->sample_every] = p.nr_pages;
		if (!rb_has_pages && p.nr_pages > __atomic_load_n(&r->best, __ATOMIC_RELAXED))
			snapshot(r, p.nr_pages);
	}
	if (!rb_has_pages)
		return;
	rb_pages(&p);
	/* unlocked first look; snapshot() decides under its lock */
	if (p.nr_pages > __atomic_load_n(&r->best, __ATOMIC_RELAXED))
		snapshot(r, p.nr_pages);
}

static void do_alloc(struct rp *r, const struct st_trace_op *op, void *p, unsigned int cls)
{
	if (!p) {
		set_err(r, -ENOMEM);
		return;
	}
	r->objs[op->id] = p;
	if (r->account) {
		size_t usable = op->type == ST_OP_ALLOC ?
			rb_cache_ksize(r->caches[op->cache], p) : rb_ksize(p);

		/* 0: the allocator cannot tell (SLOB cache objects) */
		cls_add(r, op->id, cls, op->size, usable ? usable : op->size);
	}
}

static void free_obj(struct rp *r, uint32_t id)
{
	void *p = r->objs[id];

	if (!p)
		return;
	if (r->obj_cache[id])
		rb_cache_free(r->caches[r->obj_cache[id] - 1], p);
	else
		rb_kfree(p);
	r->objs[id] = NULL;
}

/* Create, destroy or shrink trace cache @cache. */
static void cache_op(struct rp *r, int type, uint32_t cache)
{
	switch (type) {
	case ST_OP_CACHE:
		r->caches[cache] = rb_cache_create(&r->t->caches[cache]);
		if (!r->caches[cache])
			set_err(r, -ENOMEM);
		break;
	case ST_OP_DESTROY:
		rb_cache_destroy(r->caches[cache]);
		r->caches[cache] = NULL;
		break;
	default:
		rb_cache_shrink(r->caches[cache]);
		break;
	}
}

static void exec_op(struct rp *r, size_t i)
{
	const struct st_trace_op *op = &r->t->ops[i];
	void *p;

	cur_op = i + 1;
	switch (op->type) {
	case ST_OP_CACHE:
	case ST_OP_DESTROY:
	case ST_OP_SHRINK:
		cache_op(r, op->type, op->cache);
		break;
	case ST_OP_ALLOC:
		do_alloc(r, op, rb_cache_alloc(r->caches[op->cache]),
			 RP_KMALLOC_CLASSES + op->cache);
		break;
	case ST_OP_KMALLOC:
		do_alloc(r, op, rb_kmalloc(op->size), kmalloc_class(op->size));
		break;
	case ST_OP_KZALLOC:
		do_alloc(r, op, rb_kzalloc(op->size), kmalloc_class(op->size));
		break;
	case ST_OP_KREALLOC:
		if (r->account)
			cls_sub(r, op->id);
		p = rb_krealloc(r->objs[op->id], op->size);
		do_alloc(r, op, p, kmalloc_class(op->size));
		break;
	case ST_OP_FREE:
		if (r->account)
			cls_sub(r, op->id);
		free_obj(r, op->id);
		break;
	}
	if (r->account)
		account_after(r, i);
}

/* exec_op() for a timed pass: the call and nothing else. */
static void exec_cop(struct rp *r, const struct cop *c)
{
	void **slot = &r->slots[c->slot];
	void *p;

	switch (c->type) {
	case ST_OP_CACHE:
	case ST_OP_DESTROY:
	case ST_OP_SHRINK:
		cache_op(r, c->type, c->arg);
		return;
	case ST_OP_ALLOC:
		p = rb_cache_alloc(r->caches[c->arg]);
		break;
	case ST_OP_KMALLOC:
		p = rb_kmalloc(c->arg);
		break;
	case ST_OP_KZALLOC:
		p = rb_kzalloc(c->arg);
		break;
	case ST_OP_KREALLOC:
		p = rb_krealloc(*slot, c->arg);
		if (!p) {		/* the old object stays */
			set_err(r, -ENOMEM);
			return;
		}
		break;
	default:			/* ST_OP_FREE */
		p = *slot;
		if (!p)
			return;
		if (c->arg)
			rb_cache_free(r->caches[c->arg - 1], p);
		else
			rb_kfree(p);
		*slot = NULL;
		return;
	}
	/* a failed allocation leaves its slot empty: nothing to free */
	*slot = p;
	if (!p)
		set_err(r, -ENOMEM);
}

#define SPINS	200	/* about a microsecond: an op or two of the other thread */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static void futex_wait(uint32_t *word, uint32_t val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/*
 * Wait until thread @t's next op is @need or later. A sleeper counts
 * itself in @sleepers before it looks at @next for the last time, and the
 * thread publishing @next looks at @sleepers after a full fence (publish()):
 * one of the two sees the other's store, so no wake-up is lost; one that
 * comes between the read of @seq and the sleep makes futex_wait() return.
 */
static void wait_progress(struct rp *r, unsigned int t, uint64_t need)
{
	struct progress *p = &r->progress[t];
	unsigned int spins;
	uint32_t seq;

	for (spins = 0; spins < SPINS; spins++) {
		if (__atomic_load_n(&p->next, __ATOMIC_ACQUIRE) >= need)
			return;
		cpu_relax();
	}
	for (;;) {
		seq = __atomic_load_n(&p->seq, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&p->sleepers, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&p->next, __ATOMIC_SEQ_CST) < need)
			futex_wait(&p->seq, seq);
		__atomic_fetch_sub(&p->sleepers, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&p->next, __ATOMIC_ACQUIRE) >= need)
			return;
	}
}

/* Thread @self is at op @next now; wake its sleepers if op @done has any. */
static void publish(struct rp *r, unsigned int self, uint32_t done, uint64_t next)
{
	struct progress *p = &r->progress[self];

	__atomic_store_n(&p->next, next, __ATOMIC_RELEASE);
	if (!r->wake[done])
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST))
		return;
	__atomic_fetch_add(&p->seq, 1, __ATOMIC_SEQ_CST);
	futex_wake(&p->seq);
}

/* Wait until every thread but @self is past op @i. */
static void wait_barrier(struct rp *r, unsigned int self, size_t i)
{
	unsigned int t;

	for (t = 0; t < r->threads; t++) {
		if (t != self)
			wait_progress(r, t, i);
	}
}

/* Wait until the thread that runs op @j is past it. */
static void wait_op(struct rp *r, uint32_t j)
{
	wait_progress(r, r->t->ops[j].thread % r->threads, (uint64_t)j + 1);
}

static void run_thread_ops(struct rp *r, unsigned int self)
{
	const uint32_t *ops = r->tops[self];
	size_t k, n = r->ntops[self];
	uint32_t d;

	for (k = 0; k < n; k++) {
		d = r->dep[ops[k]];
		if (d == BARRIER)
			wait_barrier(r, self, ops[k]);
		else if (d != NO_DEP)
			wait_op(r, d);
		if (r->cops)
			exec_cop(r, &r->cops[self][k]);
		else
			exec_op(r, ops[k]);
		publish(r, self, ops[k], k + 1 < n ? ops[k + 1] : DONE);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

struct targ {
	struct rp *r;
	unsigned int self;
	uint64_t t0, t1, cpu;
};

/*
 * The threads take their own times: on a loaded machine the main thread
 * may not run again until they are done, so its clock would see nothing.
 */
static void *thread_main(void *arg)
{
	struct targ *a = arg;

	rb_thread_start(a->self);
	pthread_barrier_wait(&a->r->start);
	a->cpu = cpu_ns();
	a->t0 = now_ns();
	run_thread_ops(a->r, a->self);
	a->t1 = now_ns();
	a->cpu = cpu_ns() - a->cpu;
	return NULL;
}

/*
 * One pass over the whole trace; returns its wall time in ns and the CPU
 * time its threads used in *@cpu (on a loaded machine the wall time also
 * counts waiting for a CPU; the CPU time does not).
 */
static uint64_t run_pass(struct rp *r, uint64_t *cpu)
{
	pthread_t tid[ST_TRACE_MAX_THREADS];
	struct targ args[ST_TRACE_MAX_THREADS];
	uint64_t t0, t1;
	unsigned int t;
	size_t i;

	cur_op = 0;
	if (r->threads == 1) {
		rb_thread_start(0);
		*cpu = cpu_ns();
		t0 = now_ns();
		if (r->cops) {
			for (i = 0; i < r->t->nr_ops; i++)
				exec_cop(r, &r->cops[0][i]);
		} else {
			for (i = 0; i < r->t->nr_ops; i++)
				exec_op(r, i);
		}
		t1 = now_ns();
		*cpu = cpu_ns() - *cpu;
		return t1 - t0;
	}
	for (t = 0; t < r->threads; t++) {
		r->progress[t].next = r->ntops[t] ? r->tops[t][0] : DONE;
		r->progress[t].sleepers = 0;
	}
	pthread_barrier_init(&r->start, NULL, r->threads + 1);
	for (t = 0; t < r->threads; t++) {
		args[t] = (struct targ){ r, t, 0, 0, 0 };
		if (pthread_create(&tid[t], NULL, thread_main, &args[t])) {
			/* cannot happen short of resource exhaustion: run it here */
			set_err(r, -EAGAIN);
			abort();
		}
	}
	pthread_barrier_wait(&r->start);
	t0 = UINT64_MAX;
	t1 = 0;
	*cpu = 0;
	for (t = 0; t < r->threads; t++) {
		pthread_join(tid[t], NULL);
		*cpu += args[t].cpu;
		if (args[t].t0 < t0)
			t0 = args[t].t0;
		if (args[t].t1 > t1)
			t1 = args[t].t1;
	}
	pthread_barrier_destroy(&r->start);
	return t1 - t0;
}

/* Free what the trace left allocated and destroy its caches (untimed). */
static void teardown(struct rp *r)
{
	size_t i;

	rb_thread_start(0);
	for (i = 0; i < r->nr_slots; i++) {
		if (!r->slots[i])
			continue;
		if (r->slot_cache[i])
			rb_cache_free(r->caches[r->slot_cache[i] - 1], r->slots[i]);
		else
			rb_kfree(r->slots[i]);
		r->slots[i] = NULL;
	}
	for (i = 0; !r->cops && i < r->t->nr_ids; i++)
		free_obj(r, i);
	for (i = 0; i < r->t->nr_caches; i++) {
		if (r->caches[i])
			rb_cache_destroy(r->caches[i]);
		r->caches[i] = NULL;
	}
}

/* Dependencies between threads and each thread's op list. */
static int prepare_threads(struct rp *r)
{
	const struct st_trace *t = r->t;
	uint32_t *last = NULL, *created = NULL, latest[ST_TRACE_MAX_THREADS];
	unsigned int th, o;
	size_t i, k[ST_TRACE_MAX_THREADS] = { 0 };
	int err = -ENOMEM;

	r->dep = malloc(t->nr_ops * sizeof(*r->dep) + 1);
	r->wake = calloc(t->nr_ops + 1, 1);
	r->tops = calloc(r->threads, sizeof(*r->tops));
	r->ntops = calloc(r->threads, sizeof(*r->ntops));
	last = malloc(t->nr_ids * sizeof(*last) + 1);
	created = malloc(t->nr_caches * sizeof(*created) + 1);
	if (!r->dep || !r->wake || !r->tops || !r->ntops || !last || !created)
		goto out;
	memset(latest, 0xff, sizeof(latest));
	for (i = 0; i < t->nr_ops; i++)
		r->ntops[t->ops[i].thread % r->threads]++;
	for (th = 0; th < r->threads; th++) {
		r->tops[th] = malloc(r->ntops[th] * sizeof(uint32_t) + 1);
		if (!r->tops[th])
			goto out;
	}
	for (i = 0; i < t->nr_ops; i++) {
		const struct st_trace_op *op = &t->ops[i];
		uint32_t d = NO_DEP;

		th = op->thread % r->threads;
		r->tops[th][k[th]++] = i;
		switch (op->type) {
		case ST_OP_CACHE:
			created[op->cache] = i;
			/* fall through */
		case ST_OP_DESTROY:
		case ST_OP_SHRINK:
			d = BARRIER;
			break;
		case ST_OP_ALLOC:
			d = created[op->cache];
			last[op->id] = i;
			break;
		case ST_OP_KMALLOC:
		case ST_OP_KZALLOC:
			last[op->id] = i;
			break;
		default:
			d = last[op->id];
			last[op->id] = i;
			break;
		}
		if (d != BARRIER && d != NO_DEP && t->ops[d].thread % r->threads == th)
			d = NO_DEP;
		r->dep[i] = d;
		/* who waits for what: wait_op() for d, wait_barrier() for the
		 * last op before i of every other thread */
		if (d == BARRIER) {
			for (o = 0; o < r->threads; o++) {
				if (o != th && latest[o] != NO_DEP)
					r->wake[latest[o]] = 1;
			}
		} else if (d != NO_DEP) {
			r->wake[d] = 1;
		}
		latest[th] = i;
	}
	err = 0;
out:
	free(last);
	free(created);
	return err;
}

#define NO_SLOT		UINT32_MAX
#define SHARED		UINT8_MAX

/*
 * The timed passes' ops (struct cop), each thread's in trace order. Each
 * thread's slots are a region of rp.slots of its own, from a cache line
 * of its own, so that two threads' stores to their slots do not share a
 * line. An object gets the slot its thread freed last, if that thread
 * allocated the object and no other thread used it; an object two
 * threads use keeps its slot, so that reuse adds no ordering that the
 * trace lacks.
 */
static int compile_cops(struct rp *r)
{
	const struct st_trace *t = r->t;
	const uint32_t line = 64 / sizeof(void *);
	uint32_t *slot_of, *next_free = NULL, head[ST_TRACE_MAX_THREADS];
	uint32_t next[ST_TRACE_MAX_THREADS];
	size_t i, k[ST_TRACE_MAX_THREADS] = { 0 };
	uint8_t *owner;
	int err = -ENOMEM;

	/* a thread has at most one slot per op of its own */
	for (i = 0; i < r->threads; i++) {
		head[i] = NO_SLOT;
		next[i] = r->nr_slots;
		r->nr_slots += ((r->threads > 1 ? r->ntops[i] : t->nr_ops) + line - 1) /
			       line * line;
	}
	slot_of = malloc(t->nr_ids * sizeof(*slot_of) + 1);
	owner = malloc(t->nr_ids + 1);
	next_free = malloc(r->nr_slots * sizeof(*next_free) + 1);
	r->slots = calloc(r->nr_slots + 1, sizeof(*r->slots));
	r->slot_cache = calloc(r->nr_slots + 1, sizeof(*r->slot_cache));
	r->cops = calloc(r->threads, sizeof(*r->cops));
	if (!slot_of || !owner || !next_free || !r->slots || !r->slot_cache || !r->cops)
		goto out;
	for (i = 0; i < r->threads; i++) {
		r->cops[i] = malloc((r->threads > 1 ? r->ntops[i] : t->nr_ops) *
				    sizeof(struct cop) + 1);
		if (!r->cops[i])
			goto out;
	}
	memset(slot_of, 0xff, t->nr_ids * sizeof(*slot_of));
	for (i = 0; i < t->nr_ops; i++) {
		const struct st_trace_op *op = &t->ops[i];
		unsigned int th = op->thread % r->threads;
		struct cop *c = &r->cops[th][k[th]++];
		uint32_t s;

		c->type = op->type;
		c->arg = c->slot = 0;
		switch (op->type) {
		case ST_OP_CACHE:
		case ST_OP_DESTROY:
		case ST_OP_SHRINK:
			c->arg = op->cache;
			continue;
		case ST_OP_ALLOC:
		case ST_OP_KMALLOC:
		case ST_OP_KZALLOC:
			c->arg = op->type == ST_OP_ALLOC ? op->cache : op->size;
			s = head[th];
			if (s != NO_SLOT)
				head[th] = next_free[s];
			else
				s = next[th]++;
			slot_of[op->id] = s;
			owner[op->id] = th;
			r->slot_cache[s] = r->obj_cache[op->id];
			break;
		case ST_OP_KREALLOC:
		default:			/* ST_OP_FREE */
			s = slot_of[op->id];
			if (s == NO_SLOT) {	/* not live: the parser rejects it */
				s = next[th]++;
				break;
			}
			if (op->type == ST_OP_KREALLOC) {
				c->arg = op->size;
				if (owner[op->id] != th)
					owner[op->id] = SHARED;
				break;
			}
			c->arg = r->obj_cache[op->id];
			slot_of[op->id] = NO_SLOT;
			if (owner[op->id] == th) {
				next_free[s] = head[th];
				head[th] = s;
			}
			break;
		}
		c->slot = s;
	}
	err = 0;
out:
	free(slot_of);
	free(owner);
	free(next_free);
	return err;
}

static int rp_init(struct rp *r, const struct st_trace *t, unsigned int threads,
		   struct rp_result *res)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->threads = threads;
	r->res = res;
	pthread_mutex_init(&r->snap_lock, NULL);
	r->caches = calloc(t->nr_caches + 1, sizeof(*r->caches));
	r->objs = calloc(t->nr_ids + 1, sizeof(*r->objs));
	r->obj_cache = calloc(t->nr_ids + 1, sizeof(*r->obj_cache));
	r->obj_class = calloc(t->nr_ids + 1, sizeof(*r->obj_class));
	r->obj_req = calloc(t->nr_ids + 1, sizeof(*r->obj_req));
	r->obj_usable = calloc(t->nr_ids + 1, sizeof(*r->obj_usable));
	if (!r->caches || !r->objs || !r->obj_cache || !r->obj_class || !r->obj_req ||
	    !r->obj_usable)
		return -ENOMEM;
	for (i = 0; i < t->nr_ops; i++) {
		if (t->ops[i].type == ST_OP_ALLOC)
			r->obj_cache[t->ops[i].id] = t->ops[i].cache + 1;
	}
	return threads > 1 ? prepare_threads(r) : 0;
}

static void rp_fini(struct rp *r)
{
	unsigned int th;

	for (th = 0; r->tops && th < r->threads; th++)
		free(r->tops[th]);
	for (th = 0; r->cops && th < r->threads; th++)
		free(r->cops[th]);
	free(r->cops);
	free(r->slots);
	free(r->slot_cache);
	free(r->tops);
	free(r->ntops);
	free(r->dep);
	free(r->wake);
	free(r->caches);
	free(r->objs);
	free(r->obj_cache);
	free(r->obj_class);
	free(r->obj_req);
	free(r->obj_usable);
	pthread_mutex_destroy(&r->snap_lock);
}

static int result_init(struct rp_result *res, const struct st_trace *t)
{
	size_t i;

	res->nr_classes = RP_KMALLOC_CLASSES + t->nr_caches;
	res->classes = calloc(res->nr_classes, sizeof(*res->classes));
	res->at_peak = calloc(res->nr_classes, sizeof(*res->at_peak));
	res->nr_samples = t->nr_ops < RP_SAMPLES ? t->nr_ops : RP_SAMPLES;
	res->samples = calloc(res->nr_samples + 1, sizeof(*res->samples));
	if (!res->classes || !res->at_peak || !res->samples)
		return -ENOMEM;
	for (i = 0; i < res->nr_classes; i++) {
		struct rp_class *c = &res->classes[i];

		if (i == RP_KMALLOC_CLASSES - 1)
			snprintf(c->name, sizeof(c->name), "kmalloc-large");
		else if (i < RP_KMALLOC_CLASSES)
			snprintf(c->name, sizeof(c->name), "kmalloc-%u", kmalloc_sizes[i]);
		else
			snprintf(c->name, sizeof(c->name), "%s",
				 t->caches[i - RP_KMALLOC_CLASSES].name);
		memcpy(res->at_peak[i].name, c->name, sizeof(c->name));
	}
	return 0;
}

void rp_result_free(struct rp_result *res)
{
	free(res->classes);
	free(res->at_peak);
	free(res->samples);
	free(res->caches);
	memset(res, 0, sizeof(*res));
}

/* Slabs per cache while the trace's final objects are still live. */
static void collect_caches(struct rp *r)
{
	struct rp_result *res = r->res;
	struct rb_cache_info info;
	size_t i, j, cap = r->t->nr_caches + RP_KMALLOC_CLASSES;
	void *probe;

	res->caches = calloc(cap + 1, sizeof(*res->caches));
	if (!res->caches)
		return;
	/* the trace's caches, then kmalloc caches found through live objects */
	for (i = 0; i < r->t->nr_caches + r->t->nr_ids && res->nr_caches < cap; i++) {
		if (i < r->t->nr_caches) {
			if (!r->caches[i] || rb_cache_info(r->caches[i], NULL, &info))
				continue;
		} else {
			probe = r->objs[i - r->t->nr_caches];
			if (!probe || r->obj_cache[i - r->t->nr_caches] ||
			    rb_cache_info(NULL, probe, &info))
				continue;
		}
		for (j = 0; j < res->nr_caches; j++) {
			if (!strcmp(res->caches[j].name, info.name))
				break;
		}
		if (j < res->nr_caches)
			continue;
		snprintf(res->caches[j].name, sizeof(res->caches[j].name), "%s", info.name);
		res->caches[j].slabs = info.slabs;
		res->caches[j].objects = info.objects;
		res->caches[j].order = info.order;
		res->caches[j].size = info.size;
		res->caches[j].merged = info.refcount > 1;
		res->nr_caches++;
	}
}

int rp_measure(const struct st_trace *t, unsigned int threads, struct rp_result *res)
{
	struct rp r = { 0 };
	struct rb_pages p;
	uint64_t cpu;
	int err;

	memset(res, 0, sizeof(*res));
	err = rp_init(&r, t, threads, res);
	if (!err)
		err = result_init(res, t);
	if (err)
		goto out;
	r.account = true;
	r.sample_every = t->nr_ops / (res->nr_samples ? res->nr_samples : 1);
	if (!r.sample_every)
		r.sample_every = 1;
	rb_pages(&p);
	res->start_pages = p.nr_pages;
	rb_reset_peak();
	res->measure_ns = run_pass(&r, &cpu);
	rb_pages(&p);
	res->peak_pages = p.peak_pages;
	res->final_pages = p.nr_pages;
	res->final_slab_pages = p.slab_pages;
	res->final_large_pages = p.large_pages;
	res->nr_orders = p.nr_orders;
	memcpy(res->blocks, p.blocks, sizeof(res->blocks));
	collect_caches(&r);
	teardown(&r);
	err = r.err;
	res->failed_op = r.err_op;
out:
	rp_fini(&r);
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v[0..@n) (the lower one of an even count); sorts @v. */
static uint64_t median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n ? v[(n - 1) / 2] : 0;
}

/*
 * The median pass, not the fastest: with several threads the fastest is
 * the luckiest interleaving, one where the threads happened not to meet
 * on a lock (a SLUB_TINY pass on two threads takes from 1.5 to 37 ms on a
 * 2-CPU machine), which is not what the variant does under concurrency.
 */
int rp_time(const struct st_trace *t, unsigned int threads, uint64_t budget_ns,
	    unsigned int max_reps, struct rp_result *res)
{
	struct rp r;
	struct rb_pages p;
	uint64_t ns, cpu, total = 0, *wall_v, *cpu_v;
	unsigned int rep;
	int err;

	wall_v = calloc(max_reps + 1, sizeof(*wall_v));
	cpu_v = calloc(max_reps + 1, sizeof(*cpu_v));
	err = rp_init(&r, t, threads, res);
	if (!err && (!wall_v || !cpu_v))
		err = -ENOMEM;
	if (!err)
		err = compile_cops(&r);
	if (err)
		goto out;
	rb_reset_peak();
	for (rep = 0; rep < max_reps && (!rep || total < budget_ns); rep++) {
		ns = run_pass(&r, &cpu);
		teardown(&r);
		if (r.err)
			break;
		total += ns;
		wall_v[rep] = ns;
		cpu_v[rep] = cpu;
		res->reps++;
	}
	res->failed_op = r.err_op;
	res->wall_ns = median(wall_v, res->reps);
	res->cpu_ns = median(cpu_v, res->reps);
	rb_pages(&p);
	res->timed_peak_pages = p.peak_pages;
	err = r.err;
out:
	free(wall_v);
	free(cpu_v);
	rp_fini(&r);
	return err;
}
