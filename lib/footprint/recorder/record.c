// SPDX-License-Identifier: GPL-2.0-only
/*
 * libst-record.so: an LD_PRELOAD library that records the malloc, calloc,
 * realloc and free calls of any program as a binary slubtrace (version 1,
 * see README.md "## footprint"), to be replayed on the kernel allocator
 * variants: malloc becomes kmalloc, calloc kzalloc, realloc krealloc, and
 * the replay maps each size onto its kmalloc class.
 *
 *	ST_RECORD_FILE=out.sltb [ST_RECORD_MATCH=cc1] [ST_RECORD_TIME=1] \
 *		LD_PRELOAD=libst-record.so program ...
 *
 * "%p" in ST_RECORD_FILE becomes the process id; with ST_RECORD_MATCH only
 * processes whose name (/proc/self/comm) is that are recorded.
 *
 * Care points. (1) dlsym() may itself call calloc() before we know where
 * the real one is: those calls are served from a static bootstrap arena
 * whose blocks are never freed. (2) Nothing in the recording path may call
 * malloc: the object table and the output buffer live in mmap'd memory,
 * output goes through write(2), and a thread-local flag turns hooks into
 * plain pass-through while we are inside one (initial-exec TLS, which
 * needs no allocation on first use). (3) Threads get small numbers in
 * order of their first call; all recording is under one mutex, which also
 * makes the time stamps monotonic.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define EXPORT		__attribute__((visibility("default")))
#define MAX_THREADS	64
#define MAX_SIZE	(64u << 20)	/* the trace format's limit */

enum {
	TAG_END = 0x00,
	TAG_KMALLOC = 0x05,	/* 0x01 + ST_OP_KMALLOC */
	TAG_KZALLOC = 0x06,
	TAG_KREALLOC = 0x07,
	TAG_FREE = 0x08,
	TAG_THREAD = 0x10,
	TAG_TIME = 0x11,
};

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);

/* (1) the bootstrap arena for allocations during dlsym() */
static char boot_arena[65536] __attribute__((aligned(16)));
static size_t boot_used;

static __thread int in_hook __attribute__((tls_model("initial-exec")));
static __thread int my_thread __attribute__((tls_model("initial-exec")));	/* index + 1 */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fd = -1;
static bool active;		/* recording this process */
static int cur_thread;
static int nr_threads;
static uint64_t last_ns, start_ns;
static bool with_time;
static uint32_t nr_ids;

/* (2) output buffer */
static unsigned char *out;
static size_t out_len;
#define OUT_SIZE	(1u << 20)

/* pointer -> id, open addressing with linear probing, in mmap'd memory */
struct slot {
	uintptr_t key;		/* 0: empty */
	uint32_t id;
};
static struct slot *table;
static size_t table_cap, table_used;

static void *boot_alloc(size_t size)
{
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (boot_used + size > sizeof(boot_arena))
		return NULL;
	p = boot_arena + boot_used;
	boot_used += size;
	return p;
}

static bool is_boot(const void *p)
{
	return (const char *)p >= boot_arena && (const char *)p < boot_arena + sizeof(boot_arena);
}

static void resolve(void)
{
	static int resolving;

	if (real_malloc || resolving)
		return;
	resolving = 1;
	real_calloc = dlsym(RTLD_NEXT, "calloc");
	real_realloc = dlsym(RTLD_NEXT, "realloc");
	real_free = dlsym(RTLD_NEXT, "free");
	real_malloc = dlsym(RTLD_NEXT, "malloc");
	resolving = 0;
}

static void flush(void)
{
	size_t done = 0;
	ssize_t n;

	while (fd >= 0 && done < out_len) {
		n = write(fd, out + done, out_len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* the disk is full or gone: stop, leaving a truncated trace */
			close(fd);
			fd = -1;
			active = false;
			break;
		}
		done += n;
	}
	out_len = 0;
}

static void put_byte(unsigned int b)
{
	if (out_len == OUT_SIZE)
		flush();
	out[out_len++] = b;
}

static void put_var(uint64_t v)
{
	while (v >= 0x80) {
		put_byte((v & 0x7f) | 0x80);
		v >>= 7;
	}
	put_byte(v);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static size_t hash_ptr(uintptr_t p)
{
	p ^= p >> 29;
	p *= 0xbf58476d1ce4e5b9ull;
	return p ^ (p >> 32);
}

static bool table_grow(void)
{
	size_t ncap = table_cap ? table_cap * 2 : 1 << 16, i, j;
	struct slot *n = mmap(NULL, ncap * sizeof(*n), PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (n == MAP_FAILED)
		return false;
	for (i = 0; i < table_cap; i++) {
		if (!table[i].key)
			continue;
		for (j = hash_ptr(table[i].key) & (ncap - 1); n[j].key; j = (j + 1) & (ncap - 1))
			;
		n[j] = table[i];
	}
	if (table)
		munmap(table, table_cap * sizeof(*table));
	table = n;
	table_cap = ncap;
	return true;
}

static bool table_put(uintptr_t key, uint32_t id)
{
	size_t j;

	if ((table_used + 1) * 2 > table_cap && !table_grow())
		return false;
	for (j = hash_ptr(key) & (table_cap - 1); table[j].key; j = (j + 1) & (table_cap - 1)) {
		if (table[j].key == key)
			break;
	}
	if (!table[j].key)
		table_used++;
	table[j].key = key;
	table[j].id = id;
	return true;
}

/* Remove @key; its id in *id. Backward-shift deletion keeps probing exact. */
static bool table_take(uintptr_t key, uint32_t *id)
{
	size_t j, k, h;

	if (!table_cap)
		return false;
	for (j = hash_ptr(key) & (table_cap - 1); table[j].key; j = (j + 1) & (table_cap - 1)) {
		if (table[j].key == key)
			break;
	}
	if (!table[j].key)
		return false;
	*id = table[j].id;
	table[j].key = 0;
	table_used--;
	for (k = (j + 1) & (table_cap - 1); table[k].key; k = (k + 1) & (table_cap - 1)) {
		h = hash_ptr(table[k].key) & (table_cap - 1);
		/* move k back into the hole at j unless its home lies in (j, k] */
		if (j <= k ? (h > j && h <= k) : (h > j || h <= k))
			continue;
		table[j] = table[k];
		table[k].key = 0;
		j = k;
	}
	return true;
}

/* Thread and time records before an op. Called with the lock held. */
static void prefix(void)
{
	uint64_t t;

	if (!my_thread)
		my_thread = (nr_threads < MAX_THREADS ? nr_threads++ : MAX_THREADS - 1) + 1;
	if (my_thread - 1 != cur_thread) {
		cur_thread = my_thread - 1;
		put_byte(TAG_THREAD);
		put_var(cur_thread);
	}
	if (with_time) {
		t = now_ns() - start_ns;
		if (t > last_ns) {
			put_byte(TAG_TIME);
			put_var(t - last_ns);
			last_ns = t;
		}
	}
}

/* The rec_*() functions are called with the lock held. */
static void rec_alloc(int tag, void *p, size_t size)
{
	if (!p || size > MAX_SIZE || !active)
		return;
	if (table_put((uintptr_t)p, nr_ids)) {
		prefix();
		put_byte(tag);
		put_var(size ? size : 1);
		nr_ids++;
	}
}

static void rec_free(void *p)
{
	uint32_t id;

	if (p && active && table_take((uintptr_t)p, &id)) {
		prefix();
		put_byte(TAG_FREE);
		put_var(nr_ids - 1 - id);
	}
}

/* realloc moved or resized a known object: same id, maybe a new address. */
static void rec_realloc(void *old, void *p, size_t size)
{
	uint32_t id;

	if (!active)
		return;
	if (!table_take((uintptr_t)old, &id)) {
		rec_alloc(TAG_KMALLOC, p, size);
		return;
	}
	prefix();
	if (size > MAX_SIZE) {
		put_byte(TAG_FREE);
		put_var(nr_ids - 1 - id);
	} else if (table_put((uintptr_t)p, id)) {
		put_byte(TAG_KREALLOC);
		put_var(nr_ids - 1 - id);
		put_var(size ? size : 1);
	}
}

/* The name of this process, from /proc/self/comm, without malloc. */
static bool name_matches(const char *want)
{
	char comm[64];
	ssize_t n;
	int cfd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);

	if (cfd < 0)
		return false;
	n = read(cfd, comm, sizeof(comm) - 1);
	close(cfd);
	if (n <= 0)
		return false;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return !strcmp(comm, want);
}

/* @tmpl with "%p" replaced by the pid, into @buf. */
static void expand(const char *tmpl, char *buf, size_t size)
{
	size_t o = 0;
	char pid[24];
	int n = 0;
	long v = getpid();

	do {
		pid[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	for (; *tmpl && o + 24 < size; tmpl++) {
		if (tmpl[0] == '%' && tmpl[1] == 'p') {
			while (n)
				buf[o++] = pid[--n];
			tmpl++;
		} else {
			buf[o++] = *tmpl;
		}
	}
	buf[o] = '\0';
}

static void finish(void)
{
	pthread_mutex_lock(&lock);
	if (active) {
		put_byte(TAG_END);
		flush();
		active = false;
	}
	if (fd >= 0)
		close(fd);
	fd = -1;
	pthread_mutex_unlock(&lock);
}

/* A forked child shares our buffer and file: it must not write to them. */
static void atfork_child(void)
{
	active = false;
	fd = -1;
	out_len = 0;
	pthread_mutex_init(&lock, NULL);
}

__attribute__((constructor)) static void record_init(void)
{
	const char *file = getenv("ST_RECORD_FILE"), *match = getenv("ST_RECORD_MATCH");
	const char *t = getenv("ST_RECORD_TIME");
	char path[4096];

	in_hook++;
	resolve();
	if (!file || !*file || (match && *match && !name_matches(match)))
		goto out;
	out = mmap(NULL, OUT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (out == MAP_FAILED)
		goto out;
	expand(file, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	with_time = t && *t == '1';
	start_ns = now_ns();
	memcpy(out, "SLTB\1", 5);
	out_len = 5;
	pthread_atfork(NULL, NULL, atfork_child);
	atexit(finish);
	active = true;
out:
	in_hook--;
}

__attribute__((destructor)) static void record_fini(void)
{
	finish();
}

EXPORT void *malloc(size_t size)
{
	void *p;

	if (!real_malloc) {
		resolve();
		if (!real_malloc)
			return boot_alloc(size);
	}
	if (in_hook || !active)
		return real_malloc(size);
	in_hook++;
	p = real_malloc(size);
	pthread_mutex_lock(&lock);
	rec_alloc(TAG_KMALLOC, p, size);
	pthread_mutex_unlock(&lock);
	in_hook--;
	return p;
}

EXPORT void *calloc(size_t n, size_t size)
{
	void *p;

	if (!real_calloc) {
		resolve();
		if (!real_calloc)	/* dlsym's own calloc: zeroed static memory */
			return size && n > SIZE_MAX / size ? NULL : boot_alloc(n * size);
	}
	if (in_hook || !active)
		return real_calloc(n, size);
	in_hook++;
	p = real_calloc(n, size);
	pthread_mutex_lock(&lock);
	rec_alloc(TAG_KZALLOC, p, n * size);
	pthread_mutex_unlock(&lock);
	in_hook--;
	return p;
}

EXPORT void *realloc(void *old, size_t size)
{
	void *p;

	if (is_boot(old)) {
		/* never freed; copy out (the old size is not known: bounded) */
		p = malloc(size);
		if (p)
			memcpy(p, old, size < (size_t)(boot_arena + sizeof(boot_arena) - (char *)old) ?
			       size : (size_t)(boot_arena + sizeof(boot_arena) - (char *)old));
		return p;
	}
	if (!real_realloc)
		resolve();
	if (in_hook || !active || !real_realloc)
		return real_realloc ? real_realloc(old, size) : NULL;
	/* under the lock: once @old is released, another thread may get
	 * its address from malloc and must not be recorded before us */
	in_hook++;
	pthread_mutex_lock(&lock);
	p = real_realloc(old, size);
	if (!old)
		rec_alloc(TAG_KMALLOC, p, size);
	else if (!size && !p)
		rec_free(old);		/* glibc: realloc(p, 0) frees */
	else if (p)
		rec_realloc(old, p, size);
	pthread_mutex_unlock(&lock);
	in_hook--;
	return p;
}

EXPORT void free(void *p)
{
	if (!p || is_boot(p))
		return;
	if (!real_free)
		resolve();
	if (!real_free)
		return;		/* cannot happen after the bootstrap */
	if (in_hook || !active) {
		real_free(p);
		return;
	}
	in_hook++;
	/* record first: once freed, the address may be handed out again */
	pthread_mutex_lock(&lock);
	rec_free(p);
	real_free(p);
	pthread_mutex_unlock(&lock);
	in_hook--;
}
