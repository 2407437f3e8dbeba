// SPDX-License-Identifier: GPL-2.0-only
/*
 * SLOB: a K&R style list-of-blocks heap over pages, with the slab API as a
 * thin layer on top.
 *
 * Every page that has free space is on one of three lists by the size of
 * request that last shaped it (< 256, < 1024, the rest). Inside a page the
 * free blocks form an address-ordered list measured in 2-byte units; the
 * first unit of a free block holds its size (a negative number for a
 * one-unit block, which then only holds the link), the second the offset
 * of the next free block. Allocation walks the pages of the list
 * (next-fit: the search restarts at the page that last satisfied one) and
 * takes the first block that fits, alignment included; freeing inserts the
 * block in address order and merges it with its neighbours. A page that
 * becomes entirely free goes back to the page allocator.
 *
 * kmalloc() prefixes its blocks with a header holding the size, which is
 * how kfree() and ksize() know the size. Objects of kmem_cache_alloc()
 * have no header, so SLOB's kfree() cannot free them: the header is
 * checked and such a kfree() is reported instead of corrupting the heap.
 */
#include <errno.h>
#include <stdlib.h>

#include "slab_priv.h"

#ifdef CONFIG_SLOB

#if ST_PAGE_SIZE <= 32767
typedef int16_t slobidx_t;
#else
typedef int32_t slobidx_t;
#endif

typedef struct {
	slobidx_t units;
} slob_t;

#define SLOB_UNIT		sizeof(slob_t)
#define SLOB_UNITS(size)	DIV_ROUND_UP(size, SLOB_UNIT)
#define SLOB_PAGE_UNITS		((slobidx_t)SLOB_UNITS(ST_PAGE_SIZE))
#define SLOB_BREAK1		256
#define SLOB_BREAK2		1024
#define ARCH_SLAB_MINALIGN	8u
/* The kmalloc header: size and a check word, minalign bytes in all. */
#define KMALLOC_MINALIGN	8u
#define KMALLOC_MAGIC		0x6b6d616cu	/* "kmal" */


struct kmem_cache {
	const char *name;
	unsigned int size;
	unsigned int align;
	slab_flags_t flags;
	void (*ctor)(void *);
	long nr_objects;		/* live objects (introspection only) */
	struct list_head list;
};

struct kmalloc_hdr {
	uint32_t size;
	uint32_t check;			/* KMALLOC_MAGIC ^ address bits */
};

static st_spinlock_t slob_lock;
static struct list_head free_slob_small, free_slob_medium, free_slob_large;
static st_spinlock_t cache_list_lock;
static struct list_head cache_list;
static struct kmem_cache kmem_cache_boot = {
	.name = "kmem_cache",
	.size = sizeof(struct kmem_cache),
	.align = ARCH_SLAB_MINALIGN,
};

static inline char *page_of(const void *p)
{
	return (char *)((uintptr_t)p & ~(uintptr_t)(ST_PAGE_SIZE - 1));
}

/* Encode a free block of @size units whose successor is @next. */
static void set_slob(slob_t *s, slobidx_t size, slob_t *next)
{
	slob_t *base = (slob_t *)page_of(s);
	slobidx_t offset = (slobidx_t)(next - base);

	if (size > 1) {
		s[0].units = size;
		s[1].units = offset;
	} else {
		s[0].units = (slobidx_t)-offset;
	}
}

static slobidx_t slob_units(const slob_t *s)
{
	return s->units > 0 ? s->units : 1;
}

static slob_t *slob_next(slob_t *s)
{
	slob_t *base = (slob_t *)page_of(s);
	slobidx_t next = s[0].units < 0 ? (slobidx_t)-s[0].units : s[1].units;

	return base + next;
}

/* The last block of a page links to the page end. */
static bool slob_last(slob_t *s)
{
	return !((uintptr_t)slob_next(s) & (ST_PAGE_SIZE - 1));
}

static uint32_t hdr_check(const struct kmalloc_hdr *h)
{
	uintptr_t a = (uintptr_t)h;

	return KMALLOC_MAGIC ^ (uint32_t)a ^ (uint32_t)(a >> 16 >> 16);
}

/*
 * First fit in one page for @size bytes whose address plus @align_offset
 * is @align aligned. Unlinks the page from its list when it becomes full.
 */
static void *slob_page_alloc(struct slab *sp, size_t size, unsigned int align,
			     unsigned int align_offset, bool *unlisted)
{
	slob_t *prev = NULL, *cur, *aligned = NULL;
	slobidx_t avail, units = (slobidx_t)SLOB_UNITS(size);

	*unlisted = false;
	for (cur = slab_freelist(sp); ; prev = cur, cur = slob_next(cur)) {
		slobidx_t delta = 0;
		slob_t *next;

		avail = slob_units(cur);
		if (align) {
			aligned = (slob_t *)(ALIGN((uintptr_t)cur + align_offset, align)
					     - align_offset);
			delta = (slobidx_t)(aligned - cur);
		}
		if (avail >= units + delta) {
			if (delta) {
				/* leave the padding as a free block */
				next = slob_next(cur);
				set_slob(aligned, avail - delta, next);
				set_slob(cur, delta, aligned);
				prev = cur;
				cur = aligned;
				avail = slob_units(cur);
			}
			next = slob_next(cur);
			if (avail == units) {
				if (prev)
					set_slob(prev, slob_units(prev), next);
				else
					slab_freelist(sp) = next;
			} else {
				if (prev)
					set_slob(prev, slob_units(prev), cur + units);
				else
					slab_freelist(sp) = cur + units;
				set_slob(cur + units, avail - units, next);
			}
			sp->units -= units;
			if (!sp->units) {
				list_del(&sp->slab_list);
				sp->on_list = 0;
				*unlisted = true;
			}
			return cur;
		}
		if (slob_last(cur))
			return NULL;
	}
}

static struct list_head *slob_list_for(size_t size)
{
	if (size < SLOB_BREAK1)
		return &free_slob_small;
	if (size < SLOB_BREAK2)
		return &free_slob_medium;
	return &free_slob_large;
}

static void *slob_alloc(size_t size, gfp_t gfp, unsigned int align,
			unsigned int align_offset)
{
	struct list_head *slob_list = slob_list_for(size), *pos;
	struct slab *sp;
	slob_t *b = NULL;
	bool unlisted;

	spin_lock(&slob_lock);
	for (pos = slob_list->next; pos != slob_list; pos = pos->next) {
		sp = list_entry(pos, struct slab, slab_list);
		if (sp->units < (int)SLOB_UNITS(size))
			continue;
		b = slob_page_alloc(sp, size, align, align_offset, &unlisted);
		if (!b)
			continue;
		/* next fit: start the next search at this page */
		if (!unlisted && slob_list->next != &sp->slab_list) {
			list_del(slob_list);
			list_add_tail(slob_list, &sp->slab_list);
		}
		break;
	}
	spin_unlock(&slob_lock);
	if (!b) {
		b = st_alloc_pages(0, false);
		if (!b)
			return NULL;
		sp = st_virt_to_slab(b);
		st_page_account_slab(sp, 1, false);
		spin_lock(&slob_lock);
		sp->flags |= PG_slab;
		sp->on_list = 1;
		sp->units = SLOB_PAGE_UNITS;
		slab_freelist(sp) = b;
		set_slob(b, SLOB_PAGE_UNITS, b + SLOB_PAGE_UNITS);
		list_add(&sp->slab_list, slob_list);
		b = slob_page_alloc(sp, size, align, align_offset, &unlisted);
		if (unlikely(!b)) {
			/* cannot happen for what kmem_cache_create() accepts */
			list_del(&sp->slab_list);
			sp->on_list = 0;
			sp->flags &= ~(unsigned int)PG_slab;
			spin_unlock(&slob_lock);
			st_slab_report("BUG SLOB: no room for %zu bytes aligned to %u "
				       "in a new page\n", size, align);
			st_page_account_slab(sp, -1, false);
			st_free_pages(st_slab_address(sp));
			return NULL;
		}
		spin_unlock(&slob_lock);
	}
	if (b && (gfp & __GFP_ZERO))
		memset(b, 0, size);
	return b;
}

static void slob_free(void *block, size_t size)
{
	struct slab *sp = st_virt_to_slab(block);
	slob_t *prev, *next, *b = block;
	slobidx_t units = (slobidx_t)SLOB_UNITS(size);

	spin_lock(&slob_lock);
	if (sp->units + units == SLOB_PAGE_UNITS) {
		/* the whole page is free: give it back */
		if (sp->on_list)
			list_del(&sp->slab_list);
		sp->on_list = 0;
		sp->flags &= ~(unsigned int)PG_slab;
		spin_unlock(&slob_lock);
		st_page_account_slab(sp, -1, false);
		st_free_pages(page_of(block));
		return;
	}
	if (!sp->units) {
		/* the page was full: it gets a list again */
		sp->units = units;
		slab_freelist(sp) = b;
		set_slob(b, units, (slob_t *)(page_of(b) + ST_PAGE_SIZE));
		list_add(&sp->slab_list, slob_list_for(size));
		sp->on_list = 1;
		goto out;
	}
	sp->units += units;
	if (b < (slob_t *)slab_freelist(sp)) {
		slob_t *head = slab_freelist(sp);

		if (b + units == head) {
			units += slob_units(head);
			head = slob_next(head);
		}
		set_slob(b, units, head);
		slab_freelist(sp) = b;
	} else {
		prev = slab_freelist(sp);
		next = slob_next(prev);
		while (b > next) {
			prev = next;
			next = slob_next(prev);
		}
		if (!slob_last(prev) && b + units == next) {
			units += slob_units(next);
			set_slob(b, units, slob_next(next));
		} else {
			set_slob(b, units, next);
		}
		if (prev + slob_units(prev) == b) {
			units = slob_units(b) + slob_units(prev);
			set_slob(prev, units, slob_next(b));
		} else {
			set_slob(prev, slob_units(prev), b);
		}
	}
out:
	spin_unlock(&slob_lock);
}

/* ------------------------------------------------------------------ */

static void *large_alloc(size_t size, gfp_t flags, unsigned int kind)
{
	unsigned int order = st_get_order(size);
	void *p = st_alloc_pages(order, flags & __GFP_ZERO);
	struct slab *page;

	if (!p)
		return NULL;
	page = st_virt_to_slab(p);
	page->flags |= kind;
	page->large_size = size;
	st_page_account_large(1L << order);
	return p;
}

static void large_free(void *p)
{
	st_page_account_large(-(1L << st_virt_to_slab(p)->order));
	st_free_pages(p);
}

void *st_kmalloc_node(size_t size, gfp_t flags, unsigned long caller)
{
	unsigned int align = KMALLOC_MINALIGN;
	struct kmalloc_hdr *m;

	(void)caller;
	if (unlikely(!size))
		return ZERO_SIZE_PTR;
	if (size >= ST_PAGE_SIZE - KMALLOC_MINALIGN) {
		if (size > KMALLOC_MAX_SIZE)
			return NULL;
		return large_alloc(size, flags, PG_large);
	}
	if (!(size & (size - 1)) && size > align)
		align = (unsigned int)size;	/* powers of two are aligned */
	m = slob_alloc(size + KMALLOC_MINALIGN, flags, align, KMALLOC_MINALIGN);
	if (!m)
		return NULL;
	m->size = (uint32_t)size;
	m->check = hdr_check(m);
	return (char *)m + KMALLOC_MINALIGN;
}

/* The kmalloc header of @obj, or NULL (reported) if it has none. */
static struct kmalloc_hdr *kmalloc_hdr(const void *obj, const char *who)
{
	struct kmalloc_hdr *m = (struct kmalloc_hdr *)((char *)obj - KMALLOC_MINALIGN);

	/* a kmalloc() header is always in the same page as its object */
	if (((uintptr_t)obj & (ST_PAGE_SIZE - 1)) >= KMALLOC_MINALIGN &&
	    m->check == hdr_check(m) && m->size < ST_PAGE_SIZE)
		return m;
	st_slab_report("BUG SLOB: %s(%p): not a kmalloc() object "
		       "(kmem_cache_alloc() memory or already freed); "
		       "SLOB can only %s kmalloc() memory, not freed\n",
		       who, obj, who);
	return NULL;
}

void st_kfree_caller(const void *obj, unsigned long caller)
{
	struct slab *sp = st_virt_to_slab(obj);
	struct kmalloc_hdr *m;

	(void)caller;
	if (unlikely(!sp)) {
		st_slab_report("BUG kfree: %p is not from the slab allocator\n", obj);
		return;
	}
	if (sp->flags & PG_slab) {
		m = kmalloc_hdr(obj, "kfree");
		if (!m)
			return;
		m->check = 0;
		slob_free(m, m->size + KMALLOC_MINALIGN);
		return;
	}
	if ((sp->flags & PG_large) && obj == st_slab_address(sp)) {
		large_free((void *)obj);
		return;
	}
	st_slab_report("BUG SLOB: kfree(%p): not a kmalloc() object "
		       "(kmem_cache_alloc() memory); not freed\n", obj);
}

size_t st_ksize(const void *obj)
{
	struct slab *sp = st_virt_to_slab(obj);
	struct kmalloc_hdr *m;

	if (!sp)
		return 0;
	if (sp->flags & PG_slab) {
		m = kmalloc_hdr(obj, "ksize");
		return m ? SLOB_UNITS(m->size) * SLOB_UNIT : 0;
	}
	if (sp->flags & PG_large)
		return ST_PAGE_SIZE << sp->order;
	return 0;
}

/* ------------------------------------------------------------------ */

static unsigned int calculate_alignment(slab_flags_t flags,
					unsigned int align, unsigned int size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = ST_CACHE_LINE;

		while (size <= ralign / 2)
			ralign /= 2;
		if (ralign > align)
			align = ralign;
	}
	if (align < ARCH_SLAB_MINALIGN)
		align = ARCH_SLAB_MINALIGN;
	return ALIGN(align, (unsigned int)sizeof(void *));
}

static void *slob_alloc_obj(struct kmem_cache *c, gfp_t flags)
{
	void *b;

	if (c->size < ST_PAGE_SIZE)
		b = slob_alloc(c->size, flags, c->align, 0);
	else
		b = large_alloc(c->size, flags, PG_cache_large);
	if (b && c->ctor)
		c->ctor(b);
	if (b)
		stat_add(c->nr_objects, 1);
	return b;
}

static void slob_free_obj(struct kmem_cache *c, void *b)
{
	stat_add(c->nr_objects, -1);
	if (c->size < ST_PAGE_SIZE)
		slob_free(b, c->size);
	else
		large_free(b);
}

void *kmem_cache_alloc(struct kmem_cache *c, gfp_t flags)
{
	void *b = slob_alloc_obj(c, flags & ~(gfp_t)__GFP_ZERO);

	if (b && (flags & __GFP_ZERO))
		memset(b, 0, c->size);
	return b;
}

void kmem_cache_free(struct kmem_cache *c, void *b)
{
	if (b)
		slob_free_obj(c, b);
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *c = NULL;
	size_t len;
	char *cname;

	if (st_slab_lazy_init())
		goto out;
	if (!name || !size || size > KMALLOC_MAX_SIZE || (align & (align - 1)))
		goto out;
	c = slob_alloc_obj(&kmem_cache_boot, __GFP_ZERO);
	len = strlen(name) + 1;
	cname = st_kmalloc_node(len, GFP_KERNEL, 0);
	if (!c || !cname) {
		kfree(cname);
		if (c)
			slob_free_obj(&kmem_cache_boot, c);
		c = NULL;
		goto out;
	}
	memcpy(cname, name, len);
	align = calculate_alignment(flags, align, size);
	/*
	 * Objects live inside one page, or in a block of 2^order pages
	 * that is aligned to its size: more than that cannot be had. The
	 * kernel's SLOB BUG()s on the first allocation.
	 */
	if (align > ST_PAGE_SIZE << (size < ST_PAGE_SIZE ? 0 : st_get_order(size))) {
		st_slab_report("kmem_cache_create %s: SLOB cannot align %u-byte objects "
			       "to %u bytes\n", name, size, align);
		kfree(cname);
		slob_free_obj(&kmem_cache_boot, c);
		c = NULL;
		goto out;
	}
	memset(c, 0, sizeof(*c));
	c->name = cname;
	c->size = size;
	c->flags = flags & ~(slab_flags_t)(SLAB_RED_ZONE | SLAB_POISON |
					   SLAB_STORE_USER | SLAB_CONSISTENCY_CHECKS);
	c->ctor = ctor;
	c->align = align;
	spin_lock(&cache_list_lock);
	list_add_tail(&c->list, &cache_list);
	spin_unlock(&cache_list_lock);
out:
	if (!c && (flags & SLAB_PANIC))
		abort();
	return c;
}

void kmem_cache_destroy(struct kmem_cache *c)
{
	if (!c)
		return;
	spin_lock(&cache_list_lock);
	list_del(&c->list);
	spin_unlock(&cache_list_lock);
	/*
	 * Its objects still point at it (kmem_cache_free() reads its size):
	 * keep it until a destroy finds it empty.
	 */
	if (READ_ONCE(c->nr_objects)) {
		st_slab_report("kmem_cache_destroy %s: Slab cache still has objects\n",
			       c->name);
		return;
	}
	kfree(c->name);
	slob_free_obj(&kmem_cache_boot, c);
}

int kmem_cache_shrink(struct kmem_cache *c)
{
	(void)c;
	return 0;	/* SLOB keeps no empty pages */
}

int st_kmem_cache_info(struct kmem_cache *c, struct st_cache_info *info)
{
	if (!c)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->name = c->name;
	info->object_size = c->size;
	info->size = (unsigned int)(SLOB_UNITS(c->size) * SLOB_UNIT);
	info->align = c->align;
	info->order = c->size < ST_PAGE_SIZE ? 0 : st_get_order(c->size);
	info->refcount = 1;
	info->flags = c->flags;
	info->nr_objects = (unsigned long)READ_ONCE(c->nr_objects);
	return 0;
}

struct kmem_cache *st_virt_to_cache(const void *obj)
{
	(void)obj;
	return NULL;	/* SLOB pages are shared by all caches */
}

int st_kmem_cache_validate(struct kmem_cache *s)
{
	(void)s;
	return 0;
}

int st_kmem_cache_stat(struct kmem_cache *s, const char *name,
		       unsigned long *val)
{
	(void)s;
	(void)name;
	(void)val;
	return -ENOSYS;
}

int st_allocator_init(void)
{
	INIT_LIST_HEAD(&free_slob_small);
	INIT_LIST_HEAD(&free_slob_medium);
	INIT_LIST_HEAD(&free_slob_large);
	INIT_LIST_HEAD(&cache_list);
	list_add(&kmem_cache_boot.list, &cache_list);
	return 0;
}

void st_allocator_exit(void)
{
	list_del(&kmem_cache_boot.list);
}

#endif /* CONFIG_SLOB */
