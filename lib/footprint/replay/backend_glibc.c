// SPDX-License-Identifier: GPL-2.0-only
/*
 * The outside reference: glibc malloc. A "cache" is just its object size
 * and alignment; pages are the process's resident set (from /proc), so the
 * figures are a peak RSS delta, not page-allocator counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

const char *const rb_backend = "glibc";
const bool rb_smp = true;
const bool rb_has_pages = false;

struct rb_cache {
	size_t size, align;
};

static long page_size;
static unsigned long base_pages, peak_base;

static unsigned long rss_pages(void)
{
	unsigned long size = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &rss) != 2)
		rss = 0;
	fclose(f);
	return rss;
}

/* VmHWM, the peak resident set, in pages. */
static unsigned long hwm_pages(void)
{
	char line[256];
	unsigned long kb = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024 / page_size;
}

int rb_boot_param(const char *param)
{
	return -EINVAL;
}

int rb_init(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	rb_reset_peak();
	return 0;
}

void rb_exit(void)
{
	malloc_trim(0);
}

const char *rb_variant(void)
{
	return "glibc";
}

void rb_thread_start(unsigned int cpu)
{
}

struct rb_cache *rb_cache_create(const struct st_trace_cache *c)
{
	struct rb_cache *rc = malloc(sizeof(*rc));

	if (!rc)
		return NULL;
	rc->size = c->size;
	rc->align = c->align > sizeof(void *) ? c->align : 0;
	if (c->flags & ST_TF_HWCACHE_ALIGN && rc->align < 64)
		rc->align = 64;
	return rc;
}

void rb_cache_destroy(struct rb_cache *c)
{
	free(c);
}

void rb_cache_shrink(struct rb_cache *c)
{
	malloc_trim(0);
}

void *rb_cache_alloc(struct rb_cache *c)
{
	if (c->align)
		return aligned_alloc(c->align, (c->size + c->align - 1) & ~(c->align - 1));
	return malloc(c->size);
}

size_t rb_cache_ksize(struct rb_cache *c, const void *p)
{
	return malloc_usable_size((void *)p);
}

void rb_cache_free(struct rb_cache *c, void *p)
{
	free(p);
}

int rb_cache_info(struct rb_cache *c, const void *obj, struct rb_cache_info *info)
{
	return -ENOENT;
}

void *rb_kmalloc(size_t size)
{
	return malloc(size);
}

void *rb_kzalloc(size_t size)
{
	return calloc(1, size);
}

void *rb_krealloc(void *p, size_t size)
{
	return realloc(p, size);
}

void rb_kfree(void *p)
{
	free(p);
}

size_t rb_ksize(const void *p)
{
	return malloc_usable_size((void *)p);
}

void rb_pages(struct rb_pages *p)
{
	unsigned long rss = rss_pages(), hwm = hwm_pages();

	memset(p, 0, sizeof(*p));
	p->nr_pages = rss > base_pages ? rss - base_pages : 0;
	p->peak_pages = hwm > peak_base ? hwm - peak_base : 0;
	if (p->peak_pages < p->nr_pages)
		p->peak_pages = p->nr_pages;
}

const char *rb_limits(void)
{
	return "glibc's malloc ran out of memory";
}

unsigned long rb_nr_reports(void)
{
	return 0;
}

/*
 * Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+);
 * the delta from here on is the replay's.
 */
void rb_reset_peak(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);

	/* on failure VmHWM keeps the startup peak: the delta is a lower bound */
	if (fd >= 0) {
		ssize_t n = write(fd, "5", 1);

		(void)n;
		close(fd);
	}
	base_pages = rss_pages();
	peak_base = hwm_pages();
	if (peak_base < base_pages)
		peak_base = base_pages;
}
