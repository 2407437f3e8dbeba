// SPDX-License-Identifier: GPL-2.0-only
/* The replay backend over one lib/slab variant (its config header comes
 * from the build: ST_SLAB_CONFIG). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "slab/slab.h"
#include "backend.h"

const char *const rb_backend = "slab";
#ifdef CONFIG_SMP
const bool rb_smp = true;
#else
const bool rb_smp = false;
#endif
const bool rb_has_pages = true;

int rb_boot_param(const char *param)
{
	return st_slab_boot_param(param);
}

int rb_init(void)
{
	return st_slab_init();
}

void rb_exit(void)
{
	st_slab_exit();
}

const char *rb_variant(void)
{
	return st_slab_variant();
}

void rb_thread_start(unsigned int cpu)
{
	st_slab_set_cpu(cpu % st_slab_nr_cpus());
}

static slab_flags_t slab_flags(uint32_t f)
{
	slab_flags_t s = 0;

	if (f & ST_TF_HWCACHE_ALIGN)
		s |= SLAB_HWCACHE_ALIGN;
	if (f & ST_TF_RECLAIM_ACCOUNT)
		s |= SLAB_RECLAIM_ACCOUNT;
	if (f & ST_TF_POISON)
		s |= SLAB_POISON;
	if (f & ST_TF_RED_ZONE)
		s |= SLAB_RED_ZONE;
	if (f & ST_TF_STORE_USER)
		s |= SLAB_STORE_USER;
	if (f & ST_TF_ACCOUNT)
		s |= SLAB_ACCOUNT;
	return s;
}

struct rb_cache *rb_cache_create(const struct st_trace_cache *c)
{
	return (struct rb_cache *)kmem_cache_create(c->name, c->size, c->align,
						    slab_flags(c->flags), NULL);
}

void rb_cache_destroy(struct rb_cache *c)
{
	kmem_cache_destroy((struct kmem_cache *)c);
}

void rb_cache_shrink(struct rb_cache *c)
{
	kmem_cache_shrink((struct kmem_cache *)c);
}

void *rb_cache_alloc(struct rb_cache *c)
{
	return kmem_cache_alloc((struct kmem_cache *)c, GFP_KERNEL);
}

/*
 * SLOB's ksize() only knows kmalloc() memory: on a cache object it would
 * read the bytes before the object as a header (and report a bug).
 */
size_t rb_cache_ksize(struct rb_cache *c, const void *p)
{
#ifdef CONFIG_SLOB
	return 0;
#else
	return ksize(p);
#endif
}

void rb_cache_free(struct rb_cache *c, void *p)
{
	kmem_cache_free((struct kmem_cache *)c, p);
}

int rb_cache_info(struct rb_cache *c, const void *obj, struct rb_cache_info *info)
{
	struct kmem_cache *s = c ? (struct kmem_cache *)c : st_virt_to_cache(obj);
	struct st_cache_info ci;
	int err;

	if (!s)
		return -ENOENT;
	memset(&ci, 0, sizeof(ci));
	err = st_kmem_cache_info(s, &ci);
	if (err)
		return err;
	info->name = ci.name;
	info->slabs = ci.nr_slabs;
	info->objects = ci.nr_objects;
	info->order = ci.order;
	info->size = ci.size;
	info->refcount = ci.refcount;
	return 0;
}

void *rb_kmalloc(size_t size)
{
	return kmalloc(size, GFP_KERNEL);
}

void *rb_kzalloc(size_t size)
{
	return kzalloc(size, GFP_KERNEL);
}

void *rb_krealloc(void *p, size_t size)
{
	return krealloc(p, size, GFP_KERNEL);
}

void rb_kfree(void *p)
{
	kfree(p);
}

size_t rb_ksize(const void *p)
{
	return ksize(p);
}

void rb_pages(struct rb_pages *p)
{
	struct st_page_stats st;
	int i;

	st_page_stats(&st);
	p->nr_pages = st.nr_pages;
	p->peak_pages = st.peak_pages;
	p->slab_pages = st.nr_slab_pages;
	p->large_pages = st.nr_large_pages;
	for (i = 0; i <= ST_MAX_ORDER && i < 16; i++)
		p->blocks[i] = st.blocks[i];
	p->nr_orders = i;
}

const char *rb_limits(void)
{
	static char buf[128];
	struct st_page_stats st;

	st_page_stats(&st);
	snprintf(buf, sizeof(buf), "a kmalloc takes at most %lu MiB, and the variant has %lu MiB of pages",
		 (unsigned long)KMALLOC_MAX_SIZE >> 20, st.total_pages * st.page_size >> 20);
	return buf;
}

unsigned long rb_nr_reports(void)
{
	return st_slab_nr_reports();
}

void rb_reset_peak(void)
{
	st_page_stats_reset_peak();
}
