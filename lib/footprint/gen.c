// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trace generators: synthetic workloads shaped like what a small kernel
 * does. The numbers (cache sizes, object counts, size mixes) are modelled
 * on a tinyconfig kernel booting into a busybox initramfs; they are the
 * workload's description and are never adjusted to make an allocator
 * variant look better or worse. A fixed seed makes a trace reproducible.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "footprint/trace.h"
#include "footprint/trace_priv.h"

const char *const st_trace_shapes[] = { "boot", "net", "fs", NULL };

struct gen {
	struct st_trace *t;
	struct st_error *e;
	uint64_t rng;
	unsigned int thread;
	int err;
};

/* splitmix64: small, fast, good enough for workload shapes. */
static uint64_t rnd(struct gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static uint32_t range(struct gen *g, uint32_t lo, uint32_t hi)
{
	return lo + rnd(g) % (hi - lo + 1);
}

/* The builder calls; after the first error they do nothing. */
static int cache(struct gen *g, const char *name, uint32_t size, uint32_t align, uint32_t flags)
{
	if (!g->err)
		g->err = st_trace_add_cache(g->t, g->thread, 0, name, size, align, flags, g->e);
	return st_trace_find_cache(g->t, name);
}

static uint32_t alloc(struct gen *g, int cache)
{
	uint32_t id = st_trace_next_id(g->t);

	if (!g->err)
		g->err = st_trace_add_op(g->t, g->thread, 0, ST_OP_ALLOC, id, cache, 0, g->e);
	return id;
}

static uint32_t kmalloc(struct gen *g, uint32_t size)
{
	uint32_t id = st_trace_next_id(g->t);

	if (!g->err)
		g->err = st_trace_add_op(g->t, g->thread, 0, ST_OP_KMALLOC, id, 0, size, g->e);
	return id;
}

static void op(struct gen *g, enum st_trace_op_type type, uint32_t id, int cache, uint32_t size)
{
	if (!g->err)
		g->err = st_trace_add_op(g->t, g->thread, 0, type, id, cache, size, g->e);
}

static void kfree(struct gen *g, uint32_t id)
{
	op(g, ST_OP_FREE, id, 0, 0);
}

/*
 * A kmalloc size: a class picked by weight, then a size uniformly inside
 * it, so requests are rarely exact powers of two (as real ones are not).
 */
struct size_mix {
	uint32_t lo, hi, weight;
};

static const struct size_mix boot_mix[] = {
	{ 1, 8, 150 }, { 9, 16, 150 }, { 17, 32, 200 }, { 33, 64, 150 },
	{ 65, 96, 50 }, { 97, 128, 100 }, { 129, 192, 50 }, { 193, 256, 50 },
	{ 257, 512, 50 }, { 513, 1024, 30 }, { 1025, 2048, 15 }, { 2049, 4096, 5 },
	{ 0, 0, 0 },
};

static uint32_t mix_size(struct gen *g, const struct size_mix *mix)
{
	uint32_t total = 0, r;
	const struct size_mix *m;

	for (m = mix; m->weight; m++)
		total += m->weight;
	r = rnd(g) % total;
	for (m = mix; r >= m->weight; m++)
		r -= m->weight;
	return range(g, m->lo, m->hi);
}

/* A growable list of ids. */
struct ids {
	uint32_t *v;
	size_t n, cap;
};

static void ids_push(struct gen *g, struct ids *l, uint32_t id)
{
	uint32_t *nv;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		nv = realloc(l->v, l->cap * sizeof(*nv));
		if (!nv) {
			g->err = -ENOMEM;
			l->n = 0;
			return;
		}
		l->v = nv;
	}
	l->v[l->n++] = id;
}

/* Remove and return a random element. */
static uint32_t ids_take(struct gen *g, struct ids *l)
{
	size_t i = rnd(g) % l->n;
	uint32_t id = l->v[i];

	l->v[i] = l->v[--l->n];
	return id;
}

static void ids_free_all(struct gen *g, struct ids *l)
{
	while (l->n)
		kfree(g, ids_take(g, l));
}

/* ---- boot ---------------------------------------------------------- */

struct cache_desc {
	const char *name;
	uint32_t size, align, flags;
	uint32_t boot_objs;	/* live after boot, at scale 1 */
};

/* Caches a tinyconfig kernel with a busybox initramfs creates. */
static const struct cache_desc boot_caches[] = {
	{ "vmap_area", 64, 0, 0, 120 },
	{ "kernfs_node_cache", 128, 0, 0, 2200 },
	{ "kernfs_iattrs_cache", 80, 0, 0, 40 },
	{ "radix_tree_node", 576, 0, ST_TF_RECLAIM_ACCOUNT, 60 },
	{ "pid", 96, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 40 },
	{ "cred_jar", 184, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 40 },
	{ "task_struct", 2752, 64, ST_TF_ACCOUNT, 36 },
	{ "mm_struct", 832, 64, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 4 },
	{ "vm_area_struct", 176, 0, ST_TF_ACCOUNT, 120 },
	{ "anon_vma", 88, 0, ST_TF_ACCOUNT, 40 },
	{ "anon_vma_chain", 48, 0, ST_TF_ACCOUNT, 80 },
	{ "files_cache", 704, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 4 },
	{ "fs_cache", 72, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 4 },
	{ "signal_cache", 1088, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 36 },
	{ "sighand_cache", 2088, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 36 },
	{ "names_cache", 4096, 0, ST_TF_HWCACHE_ALIGN, 0 },
	{ "filp", 256, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 60 },
	{ "dentry", 192, 0, ST_TF_RECLAIM_ACCOUNT | ST_TF_ACCOUNT, 1400 },
	{ "inode_cache", 600, 0, ST_TF_RECLAIM_ACCOUNT | ST_TF_ACCOUNT, 500 },
	{ "proc_inode_cache", 656, 0, ST_TF_RECLAIM_ACCOUNT | ST_TF_ACCOUNT, 60 },
	{ "mnt_cache", 320, 0, ST_TF_HWCACHE_ALIGN | ST_TF_ACCOUNT, 12 },
	{ "seq_file", 120, 0, ST_TF_ACCOUNT, 2 },
	{ "uts_namespace", 432, 0, ST_TF_ACCOUNT, 1 },
	{ "pool_workqueue", 256, 256, 0, 16 },
	{ "sigqueue", 80, 0, ST_TF_ACCOUNT, 0 },
	{ "bdev_cache", 800, 0, ST_TF_HWCACHE_ALIGN | ST_TF_RECLAIM_ACCOUNT, 2 },
	{ "skbuff_head_cache", 224, 0, ST_TF_HWCACHE_ALIGN, 4 },
	{ "uid_cache", 128, 0, ST_TF_HWCACHE_ALIGN, 2 },
	{ NULL, 0, 0, 0, 0 },
};

/* Long-lived kmalloc objects of a booted tinyconfig kernel, at scale 1. */
#define BOOT_KMALLOCS	6000
/* Process lifecycles (fork, exec, exit) in the steady state. */
#define BOOT_PROCS	300

/* A short-lived process: fork + exec + exit, with a few objects each. */
static void boot_process(struct gen *g, const int *c)
{
	/* task, cred, pid, signal, sighand, files, fs, mm (boot_caches[]) */
	static const int proc_caches[] = { 6, 5, 4, 13, 14, 11, 12, 7 };
	struct ids objs = { 0 };
	int i, n;

	for (i = 0; i < 8; i++)
		ids_push(g, &objs, alloc(g, c[proc_caches[i]]));
	n = range(g, 12, 30);
	for (i = 0; i < n; i++) {
		ids_push(g, &objs, alloc(g, c[8]));		/* vm_area_struct */
		if (i % 3 == 0)
			ids_push(g, &objs, alloc(g, c[10]));	/* anon_vma_chain */
	}
	for (i = 0; i < 3; i++)
		ids_push(g, &objs, alloc(g, c[9]));		/* anon_vma */
	for (i = 0; i < 4; i++)
		ids_push(g, &objs, alloc(g, c[16]));		/* filp */
	/* exec: a path name buffer and argv copies, freed at once */
	kfree(g, alloc(g, c[15]));
	for (i = 0; i < 6; i++)
		ids_push(g, &objs, kmalloc(g, mix_size(g, boot_mix)));
	/* lookups leave a few dentries behind, long-lived */
	if (rnd(g) % 4 == 0)
		alloc(g, c[17]);
	ids_free_all(g, &objs);
	free(objs.v);
}

static void gen_boot(struct gen *g, unsigned int scale)
{
	int c[32], nc, i;
	uint32_t j, n;
	struct ids temp = { 0 };

	/* Phase 1: every subsystem's init creates its caches and fills them,
	 * with kmalloc'd objects and boot-time temporaries in between. */
	for (nc = 0; boot_caches[nc].name; nc++) {
		const struct cache_desc *d = &boot_caches[nc];

		c[nc] = cache(g, d->name, d->size, d->align, d->flags);
		n = d->boot_objs * scale;
		for (j = 0; j < n; j++) {
			alloc(g, c[nc]);
			if (rnd(g) % 4 == 0)
				kmalloc(g, mix_size(g, boot_mix));
			if (rnd(g) % 8 == 0)
				ids_push(g, &temp, kmalloc(g, mix_size(g, boot_mix)));
			if (temp.n > 64)
				kfree(g, ids_take(g, &temp));
		}
	}
	n = BOOT_KMALLOCS * scale;
	for (j = 0; j < n; j++) {
		kmalloc(g, mix_size(g, boot_mix));
		if (rnd(g) % 8 == 0)
			ids_push(g, &temp, kmalloc(g, mix_size(g, boot_mix)));
		if (temp.n > 64)
			kfree(g, ids_take(g, &temp));
	}
	ids_free_all(g, &temp);
	free(temp.v);
	/* Phase 2: steady state, init and the shell running commands. */
	for (i = 0; i < (int)(BOOT_PROCS * scale); i++)
		boot_process(g, c);
}

/* ---- net ----------------------------------------------------------- */

/* skb data: small control packets, ACKs, full frames. */
static const struct size_mix net_mix[] = {
	{ 192, 256, 40 }, { 320, 512, 30 }, { 1536, 2048, 30 }, { 0, 0, 0 },
};

#define NET_BURSTS	1500

/* One receive or transmit burst on the current thread: head + data per
 * packet, each packet freed a short while after it arrived. */
static void net_burst(struct gen *g, int skb, struct ids *queue)
{
	uint32_t i, n = range(g, 8, 64);

	for (i = 0; i < n; i++) {
		ids_push(g, queue, alloc(g, skb));
		ids_push(g, queue, kmalloc(g, mix_size(g, net_mix)));
		if (queue->n > 48) {
			kfree(g, ids_take(g, queue));
			kfree(g, ids_take(g, queue));
		}
	}
}

static void gen_net(struct gen *g, unsigned int scale)
{
	struct ids queue[2] = { { 0 }, { 0 } };
	int skb, fclone, sock, i;
	uint32_t b;

	skb = cache(g, "skbuff_head_cache", 224, 0, ST_TF_HWCACHE_ALIGN);
	fclone = cache(g, "skbuff_fclone_cache", 448, 0, ST_TF_HWCACHE_ALIGN);
	sock = cache(g, "sock_inode_cache", 640, 0, ST_TF_HWCACHE_ALIGN | ST_TF_RECLAIM_ACCOUNT);
	for (i = 0; i < 16; i++) {
		alloc(g, sock);
		kmalloc(g, range(g, 700, 1024));	/* struct sock */
	}
	/* The two CPUs take turns in short stretches: the trace's order is
	 * one possible interleaving; the replay runs each thread freely. */
	for (b = 0; b < NET_BURSTS * scale; b++) {
		g->thread = rnd(g) % 2;
		net_burst(g, rnd(g) % 8 ? skb : fclone, &queue[g->thread]);
	}
	for (i = 0; i < 2; i++) {
		g->thread = i;
		ids_free_all(g, &queue[i]);
		free(queue[i].v);
	}
}

/* ---- fs ------------------------------------------------------------ */

#define FS_FILES	20000

static void fs_create(struct gen *g, const int *c, struct ids *files, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		ids_push(g, files, alloc(g, c[0]));		/* dentry */
		ids_push(g, files, alloc(g, c[1]));		/* inode */
		if (rnd(g) % 10 == 0)				/* long name */
			ids_push(g, files, kmalloc(g, range(g, 40, 255)));
		if (rnd(g) % 4 == 0)
			ids_push(g, files, alloc(g, c[2]));	/* buffer_head */
		if (rnd(g) % 16 == 0)
			kfree(g, kmalloc(g, range(g, 64, 1024)));	/* lookup scratch */
	}
}

/* Reclaim under memory pressure: free @pct percent, in random order (the
 * LRU does not follow slab boundaries), then shrink the caches. */
static void fs_reclaim(struct gen *g, const int *c, struct ids *files, unsigned int pct)
{
	size_t n = files->n * pct / 100;
	int i;

	while (n--)
		kfree(g, ids_take(g, files));
	for (i = 0; i < 3; i++)
		op(g, ST_OP_SHRINK, 0, c[i], 0);
}

static void gen_fs(struct gen *g, unsigned int scale)
{
	struct ids files = { 0 };
	int c[3], i;

	c[0] = cache(g, "dentry", 192, 0, ST_TF_RECLAIM_ACCOUNT);
	c[1] = cache(g, "ext2_inode_cache", 776, 0, ST_TF_RECLAIM_ACCOUNT);
	c[2] = cache(g, "buffer_head", 104, 0, ST_TF_RECLAIM_ACCOUNT);
	fs_create(g, c, &files, FS_FILES * scale);	/* find / */
	fs_reclaim(g, c, &files, 75);
	fs_create(g, c, &files, FS_FILES * scale / 3);
	fs_reclaim(g, c, &files, 50);
	/* umount: everything goes, the caches too */
	ids_free_all(g, &files);
	free(files.v);
	for (i = 0; i < 3; i++)
		op(g, ST_OP_DESTROY, 0, c[i], 0);
}

int st_trace_generate(const char *shape, uint64_t seed, unsigned int scale,
		      struct st_trace **out, struct st_error *e)
{
	struct gen g = { .e = e, .rng = seed };

	if (!scale || scale > 100)
		return st_err(e, EINVAL, shape, "scale must be 1..100");
	g.t = st_trace_new(shape);
	if (!g.t)
		return -ENOMEM;
	if (!strcmp(shape, "boot"))
		gen_boot(&g, scale);
	else if (!strcmp(shape, "net"))
		gen_net(&g, scale);
	else if (!strcmp(shape, "fs"))
		gen_fs(&g, scale);
	else
		g.err = st_err(e, EINVAL, shape, "unknown trace shape (want boot, net or fs)");
	if (g.err) {
		st_trace_delete(g.t);
		return g.err;
	}
	*out = g.t;
	return 0;
}
