// SPDX-License-Identifier: GPL-2.0-only
/*
 * /sys/kernel/slab for the bundled SLUB: a directory per cache with the
 * kernel's attribute files, and a link per cache merged into another.
 *
 * The kernel pays for this in kernfs nodes allocated from a slab cache
 * (about 115 kB on a 32 MB system); so does this model: every directory,
 * attribute and link is a node from "kernfs_node_cache", sized like the
 * kernel's struct kernfs_node, and directory and link names are kstrdup()
 * copies. SLOB, SLUB_TINY and !SYSFS builds have none of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "slab_priv.h"

#ifndef SLAB_SUPPORTS_SYSFS
int st_slab_sysfs_read(const char *path, char *buf, size_t size)
{
	(void)path;
	(void)buf;
	(void)size;
	return -ENOSYS;
}

int st_slab_sysfs_write(const char *path, const char *val)
{
	(void)path;
	(void)val;
	return -ENOSYS;
}
#else

#include "slub_def.h"

/* The kernel's struct kernfs_node is 128 bytes on 64-bit builds. */
#define KERNFS_NODE_SIZE	(sizeof(void *) == 8 ? 128u : 80u)

enum { KN_DIR = -1, KN_LINK = -2, KN_ROOT = -3 };

struct st_kobj {
	const char *name;
	struct st_kobj *next;		/* sibling */
	struct st_kobj *children;
	struct kmem_cache *cache;	/* directory's cache, link's target */
	int attr;			/* index into attrs[], or KN_* */
};

struct slab_attr {
	const char *name;
	int (*show)(struct kmem_cache *s, char *buf, size_t len);
	int (*store)(struct kmem_cache *s, const char *val);
	int item;			/* stat item for stat attributes */
};

static struct kmem_cache *kernfs_node_cache;
static struct st_kobj *slab_root;	/* children: the cache directories */
static st_spinlock_t sysfs_lock;

#define SHOW_UINT(fname, expr)						\
static int fname##_show(struct kmem_cache *s, char *buf, size_t len)	\
{									\
	return snprintf(buf, len, "%lu\n", (unsigned long)(expr));	\
}
#define SHOW_COUNT(fname, field)					\
static int fname##_show(struct kmem_cache *s, char *buf, size_t len)	\
{									\
	struct slub_counts c;						\
									\
	st_slub_count(s, &c);						\
	return snprintf(buf, len, "%lu\n", c.field);			\
}
#define SHOW_FLAG(fname, flag) SHOW_UINT(fname, !!(s->flags & (flag)))

SHOW_UINT(slab_size, s->size)
SHOW_UINT(object_size, s->object_size)
SHOW_UINT(objs_per_slab, s->objects)
SHOW_UINT(order, s->order)
SHOW_UINT(min_partial, s->min_partial)
SHOW_UINT(align, s->align)
SHOW_UINT(aliases, s->refcount - 1)
SHOW_UINT(usersize, 0)
#ifdef CONFIG_SLUB_CPU_PARTIAL
SHOW_UINT(cpu_partial, s->cpu_partial_slabs)
#else
SHOW_UINT(cpu_partial, 0)
#endif
SHOW_COUNT(partial, partial)
SHOW_COUNT(cpu_slabs, cpu_slabs)
SHOW_COUNT(slabs_cpu_partial, cpu_partial)
SHOW_COUNT(objects_partial, objects - c.partial_free)
SHOW_FLAG(hwcache_align, SLAB_HWCACHE_ALIGN)
SHOW_FLAG(reclaim_account, SLAB_RECLAIM_ACCOUNT)
SHOW_UINT(destroy_by_rcu, 0)
SHOW_UINT(cache_dma, 0)

static int objects_show(struct kmem_cache *s, char *buf, size_t len)
{
	struct slub_counts c;

	st_slub_count(s, &c);
	return snprintf(buf, len, "%lu\n", c.objects - c.free);
}

static int ctor_show(struct kmem_cache *s, char *buf, size_t len)
{
	return snprintf(buf, len, "%s\n", s->ctor ? "yes" : "");
}

static int shrink_show(struct kmem_cache *s, char *buf, size_t len)
{
	(void)s;
	return snprintf(buf, len, "\n");
}

static int shrink_store(struct kmem_cache *s, const char *val)
{
	if (val[0] != '1')
		return -EINVAL;
	return st_slub_shrink(s);
}

#ifdef CONFIG_SLUB_DEBUG
SHOW_COUNT(total_objects, objects)
SHOW_COUNT(slabs, slabs)
SHOW_FLAG(sanity_checks, SLAB_CONSISTENCY_CHECKS)
SHOW_FLAG(red_zone, SLAB_RED_ZONE)
SHOW_FLAG(poison, SLAB_POISON)
SHOW_FLAG(store_user, SLAB_STORE_USER)
SHOW_UINT(trace, 0)

static int validate_show(struct kmem_cache *s, char *buf, size_t len)
{
	(void)s;
	return snprintf(buf, len, "\n");
}

static int validate_store(struct kmem_cache *s, const char *val)
{
	if (val[0] != '1')
		return -EINVAL;
	return st_kmem_cache_validate(s) ? -EIO : 0;
}
#endif

#ifdef CONFIG_SLUB_STATS
static int stat_show(struct kmem_cache *s, int item, char *buf, size_t len)
{
	unsigned long sum = 0;
	unsigned int cpu;
	int n, off;

	for (cpu = 0; cpu < CONFIG_NR_CPUS; cpu++)
		sum += READ_ONCE(slub_cpu_stats(s, cpu)[item]);
	off = snprintf(buf, len, "%lu", sum);
	for (cpu = 0; cpu < CONFIG_NR_CPUS && off > 0 && (size_t)off < len; cpu++) {
		unsigned long v = READ_ONCE(slub_cpu_stats(s, cpu)[item]);

		if (!v)
			continue;
		n = snprintf(buf + off, len - (size_t)off, " C%u=%lu", cpu, v);
		if (n > 0)
			off += n;
	}
	if (off > 0 && (size_t)off < len)
		off += snprintf(buf + off, len - (size_t)off, "\n");
	return off;
}
#endif

#define ATTR_RO(n)	{ #n, n##_show, NULL, -1 }
#define ATTR_RW(n)	{ #n, n##_show, n##_store, -1 }

static const struct slab_attr attrs[] = {
	ATTR_RO(slab_size), ATTR_RO(object_size), ATTR_RO(objs_per_slab),
	ATTR_RO(order), ATTR_RO(min_partial), ATTR_RO(cpu_partial),
	ATTR_RO(objects_partial), ATTR_RO(partial), ATTR_RO(cpu_slabs),
	ATTR_RO(ctor), ATTR_RO(aliases), ATTR_RO(align),
	ATTR_RO(hwcache_align), ATTR_RO(reclaim_account),
	ATTR_RO(destroy_by_rcu), ATTR_RW(shrink), ATTR_RO(slabs_cpu_partial),
	ATTR_RO(usersize), ATTR_RO(cache_dma), ATTR_RO(objects),
#ifdef CONFIG_SLUB_DEBUG
	ATTR_RO(total_objects), ATTR_RO(slabs), ATTR_RO(sanity_checks),
	ATTR_RO(trace), ATTR_RO(red_zone), ATTR_RO(poison),
	ATTR_RO(store_user), ATTR_RW(validate),
#endif
#ifdef CONFIG_SLUB_STATS
#define STAT_ATTR(i) { NULL, NULL, NULL, i }
	STAT_ATTR(0), STAT_ATTR(1), STAT_ATTR(2), STAT_ATTR(3), STAT_ATTR(4),
	STAT_ATTR(5), STAT_ATTR(6), STAT_ATTR(7), STAT_ATTR(8), STAT_ATTR(9),
	STAT_ATTR(10), STAT_ATTR(11), STAT_ATTR(12), STAT_ATTR(13),
	STAT_ATTR(14), STAT_ATTR(15), STAT_ATTR(16), STAT_ATTR(17),
	STAT_ATTR(18), STAT_ATTR(19), STAT_ATTR(20), STAT_ATTR(21),
	STAT_ATTR(22), STAT_ATTR(23), STAT_ATTR(24), STAT_ATTR(25),
#endif
};

static const char *attr_name(int i)
{
#ifdef CONFIG_SLUB_STATS
	if (attrs[i].item >= 0)
		return st_slub_stat_names[attrs[i].item];
#endif
	return attrs[i].name;
}

static struct st_kobj *kn_new(const char *name, bool copy_name, int attr,
			      struct kmem_cache *s)
{
	struct st_kobj *kn = kmem_cache_zalloc(kernfs_node_cache, GFP_KERNEL);

	if (!kn)
		return NULL;
	kn->attr = attr;
	kn->cache = s;
	kn->name = copy_name ? kstrdup(name, GFP_KERNEL) : name;
	if (copy_name && !kn->name) {
		kmem_cache_free(kernfs_node_cache, kn);
		return NULL;
	}
	return kn;
}

static void kn_free(struct st_kobj *kn)
{
	struct st_kobj *c;

	while ((c = kn->children)) {
		kn->children = c->next;
		kn_free(c);
	}
	if (kn->attr == KN_DIR || kn->attr == KN_LINK)
		kfree(kn->name);
	kmem_cache_free(kernfs_node_cache, kn);
}

static void kn_link(struct st_kobj *parent, struct st_kobj *kn)
{
	spin_lock(&sysfs_lock);
	kn->next = parent->children;
	parent->children = kn;
	spin_unlock(&sysfs_lock);
}

int st_sysfs_add_cache(struct kmem_cache *s)
{
	struct st_kobj *dir, *kn;
	int i;

	if (!slab_root)
		return 0;	/* before st_sysfs_init_done(): added there */
	dir = kn_new(s->name, true, KN_DIR, s);
	if (!dir)
		return -ENOMEM;
	for (i = (int)ARRAY_SIZE(attrs) - 1; i >= 0; i--) {
		kn = kn_new(attr_name(i), false, i, s);
		if (!kn) {
			kn_free(dir);
			return -ENOMEM;
		}
		kn->next = dir->children;
		dir->children = kn;
	}
	s->kobj = dir;
	kn_link(slab_root, dir);
	return 0;
}

int st_sysfs_add_alias(struct kmem_cache *s, const char *name)
{
	struct st_kobj *kn;

	if (!slab_root)
		return 0;
	kn = kn_new(name, true, KN_LINK, s);
	if (!kn)
		return -ENOMEM;
	kn_link(slab_root, kn);
	return 0;
}

/* Unlink and free the directory of @s and every link to it. */
void st_sysfs_remove_cache(struct kmem_cache *s)
{
	struct st_kobj **pp, *kn, *dead = NULL;

	if (!slab_root)
		return;
	spin_lock(&sysfs_lock);
	for (pp = &slab_root->children; (kn = *pp);) {
		if (kn->cache == s) {
			*pp = kn->next;
			kn->next = dead;
			dead = kn;
		} else {
			pp = &kn->next;
		}
	}
	spin_unlock(&sysfs_lock);
	while ((kn = dead)) {
		dead = kn->next;
		kn_free(kn);
	}
	s->kobj = NULL;
}

/* slab_sysfs_init(): the node cache, then every cache created so far. */
void st_sysfs_init_done(void)
{
	struct list_head *pos;

	kernfs_node_cache = kmem_cache_create("kernfs_node_cache",
					      KERNFS_NODE_SIZE, 0,
					      SLAB_HWCACHE_ALIGN | SLAB_ACCOUNT,
					      NULL);
	if (!kernfs_node_cache)
		return;
	slab_root = kn_new("slab", false, KN_ROOT, NULL);
	if (!slab_root)
		return;
	spin_lock(&st_slab_mutex);
	for (pos = st_slab_caches.next; pos != &st_slab_caches; pos = pos->next)
		st_sysfs_add_cache(list_entry(pos, struct kmem_cache, list));
	spin_unlock(&st_slab_mutex);
}

void st_sysfs_exit(void)
{
	struct st_kobj *root = slab_root;
	struct kmem_cache *cache = kernfs_node_cache;
	struct list_head *pos;

	if (!root)
		return;
	spin_lock(&st_slab_mutex);
	for (pos = st_slab_caches.next; pos != &st_slab_caches; pos = pos->next)
		list_entry(pos, struct kmem_cache, list)->kobj = NULL;
	spin_unlock(&st_slab_mutex);
	kn_free(root);
	slab_root = NULL;
	kernfs_node_cache = NULL;
	kmem_cache_destroy(cache);
}

static struct st_kobj *kn_find(struct st_kobj *dir, const char *name,
			       size_t len)
{
	struct st_kobj *kn;

	for (kn = dir->children; kn; kn = kn->next)
		if (!strncmp(kn->name, name, len) && !kn->name[len])
			return kn;
	return NULL;
}

/* Resolve "cache[/attr]" to a node; links resolve to their target. */
static struct st_kobj *lookup(const char *path, struct st_kobj **attr)
{
	const char *slash = strchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : strlen(path);
	struct st_kobj *kn;

	*attr = NULL;
	kn = kn_find(slab_root, path, len);
	if (kn && kn->attr == KN_LINK)
		kn = kn->cache->kobj;
	if (!kn || !slash)
		return kn;
	*attr = kn_find(kn, slash + 1, strlen(slash + 1));
	return *attr ? kn : NULL;
}

static int list_dir(struct st_kobj *dir, char *buf, size_t size)
{
	struct st_kobj *kn;
	size_t off = 0;
	int n;

	if (size)
		buf[0] = '\0';
	for (kn = dir->children; kn; kn = kn->next) {
		n = snprintf(buf + off, off < size ? size - off : 0, "%s%s\n",
			     kn->name, kn->attr == KN_LINK ? " ->" : "");
		if (n > 0)
			off += (size_t)n;
	}
	return (int)off;
}

int st_slab_sysfs_read(const char *path, char *buf, size_t size)
{
	struct st_kobj *dir, *kn;
	const struct slab_attr *a;
	int ret;

	if (st_slab_lazy_init() || !slab_root)
		return -ENOSYS;
	spin_lock(&st_slab_mutex);
	if (!*path) {
		ret = list_dir(slab_root, buf, size);
		goto out;
	}
	dir = lookup(path, &kn);
	ret = -ENOENT;
	if (!dir)
		goto out;
	if (!kn) {
		ret = list_dir(dir, buf, size);
		goto out;
	}
	a = &attrs[kn->attr];
#ifdef CONFIG_SLUB_STATS
	if (a->item >= 0) {
		ret = stat_show(dir->cache, a->item, buf, size);
		goto out;
	}
#endif
	ret = a->show(dir->cache, buf, size);
out:
	spin_unlock(&st_slab_mutex);
	return ret;
}

int st_slab_sysfs_write(const char *path, const char *val)
{
	struct st_kobj *dir, *kn;
	const struct slab_attr *a;
	int ret = -ENOENT;

	if (st_slab_lazy_init() || !slab_root)
		return -ENOSYS;
	spin_lock(&st_slab_mutex);
	dir = lookup(path, &kn);
	if (dir && kn) {
		a = &attrs[kn->attr];
		ret = a->store ? a->store(dir->cache, val) : -EACCES;
	}
	spin_unlock(&st_slab_mutex);
	return ret;
}
#endif /* SLAB_SUPPORTS_SYSFS */
