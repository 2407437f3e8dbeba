// SPDX-License-Identifier: GPL-2.0-only
/* The build caches' content hash (see stamp.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/stamp.h"

#define FNV_PRIME	0x100000001b3ULL

void st_hash_init(struct st_hash *h)
{
	h->a = 0xcbf29ce484222325ULL;	/* FNV-1a's offset basis */
	h->b = 0x84222325cbf29ce4ULL;	/* the same, halves swapped */
}

void st_hash_bytes(struct st_hash *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h->a = (h->a ^ s[i]) * FNV_PRIME;
		h->b = (h->b ^ s[i] ^ 0x5a) * FNV_PRIME;
	}
}

void st_hash_str(struct st_hash *h, const char *s)
{
	s = s ? s : "\x01(null)";
	st_hash_bytes(h, s, strlen(s) + 1);
}

void st_hash_mix(struct st_hash *h, const struct st_hash *v)
{
	st_hash_bytes(h, &v->a, sizeof(v->a));
	st_hash_bytes(h, &v->b, sizeof(v->b));
}

int st_hash_file(struct st_hash *h, const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			st_hash_bytes(h, buf, n);
	close(fd);
	return n < 0 ? -EIO : 0;
}

void st_hash_stat(struct st_hash *h, const char *path)
{
	struct stat st;
	char buf[128];

	st_hash_str(h, path);
	if (stat(path, &st)) {
		st_hash_str(h, "-");
		return;
	}
	snprintf(buf, sizeof(buf), "%lld %lld.%09ld", (long long)st.st_size,
		 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	st_hash_str(h, buf);
}

void st_hash_hex(const struct st_hash *h, char out[ST_HASH_HEX])
{
	snprintf(out, ST_HASH_HEX, "%016llx%016llx", (unsigned long long)h->a,
		 (unsigned long long)h->b);
}
