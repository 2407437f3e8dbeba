// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every variant shares: initialisation, boot parameters, the kmalloc
 * size classes and the kmalloc API built on the core's st_kmalloc_node(),
 * st_kfree_caller() and st_ksize().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "slab_priv.h"

#ifndef ST_SLAB_VARIANT
#define ST_SLAB_VARIANT "unknown"
#endif

/* kmalloc size classes: 8 ... 2^KMALLOC_SHIFT_HIGH with 96 and 192. */
const unsigned int st_kmalloc_sizes[ST_NR_KMALLOC_SIZES] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
#if KMALLOC_SHIFT_HIGH > 13
	16384,
#endif
#if KMALLOC_SHIFT_HIGH > 14
	32768,
#endif
#if KMALLOC_SHIFT_HIGH > 15
	65536,
#endif
#if KMALLOC_SHIFT_HIGH > 16
	131072,
#endif
};
const unsigned int st_nr_kmalloc_sizes = ARRAY_SIZE(st_kmalloc_sizes);

#ifdef CONFIG_SLUB_TINY
unsigned int st_slub_max_order = 1;	/* the series lowers it from 3 */
#else
unsigned int st_slub_max_order = 3;	/* PAGE_ALLOC_COSTLY_ORDER */
#endif
unsigned int st_slub_min_objects;
bool st_slab_nomerge;
bool st_slub_debug_param;

static st_spinlock_t init_lock;
bool st_slab_ready;
/* Set while this thread boots the allocator, which allocates itself. */
#ifdef CONFIG_SMP
static _Thread_local bool in_init;
#else
static bool in_init;
#endif

const char *st_slab_variant(void)
{
	return ST_SLAB_VARIANT;
}

int st_slab_lazy_init(void)
{
	int ret = 0;

	if (likely(READ_ONCE(st_slab_ready)) || in_init)
		return 0;
	spin_lock(&init_lock);
	if (!st_slab_ready) {
		in_init = true;
		ret = st_page_init();
		if (!ret)
			ret = st_allocator_init();
		if (!ret)
			WRITE_ONCE(st_slab_ready, true);
		in_init = false;
	}
	spin_unlock(&init_lock);
	return ret;
}

int st_slab_init(void)
{
	return st_slab_lazy_init();
}

void st_slab_exit(void)
{
	spin_lock(&init_lock);
	if (st_slab_ready) {
		in_init = true;
		st_allocator_exit();
		in_init = false;
		WRITE_ONCE(st_slab_ready, false);
	}
	spin_unlock(&init_lock);
}

static int parse_uint(const char *s, unsigned int *val)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s || *end || v > 64)
		return -EINVAL;
	*val = (unsigned int)v;
	return 0;
}

int st_slab_boot_param(const char *param)
{
	if (READ_ONCE(st_slab_ready))
		return -EBUSY;
	if (!strncmp(param, "slub_max_order=", 15)) {
		unsigned int v;

		if (parse_uint(param + 15, &v) || v > ST_MAX_ORDER)
			return -EINVAL;
		st_slub_max_order = v;
		return 0;
	}
	if (!strncmp(param, "slub_min_objects=", 17))
		return parse_uint(param + 17, &st_slub_min_objects);
	if (!strcmp(param, "slab_nomerge")) {
		st_slab_nomerge = true;
		return 0;
	}
	if (!strcmp(param, "slub_debug")) {
		st_slub_debug_param = true;
		return 0;
	}
	return -EINVAL;
}

void *kmalloc(size_t size, gfp_t flags)
{
	if (unlikely(!READ_ONCE(st_slab_ready)) && st_slab_lazy_init())
		return NULL;
	return st_kmalloc_node(size, flags,
			       (unsigned long)__builtin_return_address(0));
}

void *kzalloc(size_t size, gfp_t flags)
{
	if (unlikely(!READ_ONCE(st_slab_ready)) && st_slab_lazy_init())
		return NULL;
	return st_kmalloc_node(size, flags | __GFP_ZERO,
			       (unsigned long)__builtin_return_address(0));
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, flags);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

void kfree(const void *obj)
{
	if (unlikely(ZERO_OR_NULL_PTR(obj)))
		return;
	st_kfree_caller(obj, (unsigned long)__builtin_return_address(0));
}

size_t ksize(const void *obj)
{
	if (unlikely(ZERO_OR_NULL_PTR(obj)))
		return 0;
	return st_ksize(obj);
}

/*
 * Grow in place when the object's real size allows it, as the kernel does;
 * otherwise allocate, copy and free.
 */
void *krealloc(const void *p, size_t new_size, gfp_t flags)
{
	size_t ks;
	void *ret;

	if (unlikely(!new_size)) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	if (ZERO_OR_NULL_PTR(p))
		return kmalloc(new_size, flags);
	ks = ksize(p);
	if (ks >= new_size) {
		if (flags & __GFP_ZERO)
			memset((char *)p + new_size, 0, ks - new_size);
		return (void *)p;
	}
	if (unlikely(!ks))	/* not a kmalloc() object: reported */
		return NULL;
	ret = kmalloc(new_size, flags & ~(gfp_t)__GFP_ZERO);
	if (!ret)
		return NULL;
	memcpy(ret, p, ks);
	if (flags & __GFP_ZERO)
		memset((char *)ret + ks, 0, new_size - ks);
	kfree(p);
	return ret;
}

char *kstrdup(const char *s, gfp_t flags)
{
	size_t len;
	char *d;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	d = kmalloc(len, flags);
	if (d)
		memcpy(d, s, len);
	return d;
}

void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t flags)
{
	return kmem_cache_alloc(s, flags | __GFP_ZERO);
}
