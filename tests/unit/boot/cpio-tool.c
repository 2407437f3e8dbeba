// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpio-tool LIST: the newc archive of a gen_init_cpio list (dir, nod, slink
 * and file lines, a file's hard links too; uid and gid 0) made by
 * st_cpio_build(), on stdout. The test compares it with what the kernel's usr/gen_init_cpio -t 0 makes of LIST.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "boot/boot.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct st_cpio_entry ents[64];
	char line[1024], name[64][256], loc[512], type[16], *out;
	unsigned int mode, maj, min;
	char *links[64][8], *tok;
	int at = 0;
	size_t n = 0, len, i;
	FILE *f;
	int ret;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: cpio-tool LIST\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f) && n < 64) {
		struct st_cpio_entry *e = &ents[n];

		memset(e, 0, sizeof(*e));
		e->name = name[n];
		if (sscanf(line, "dir %255s %o 0 0", name[n], &mode) == 2) {
			e->mode = S_IFDIR | mode;
		} else if (sscanf(line, "nod %255s %o 0 0 %15s %u %u", name[n], &mode, type, &maj,
				  &min) == 5) {
			e->mode = (type[0] == 'c' ? S_IFCHR : S_IFBLK) | mode;
			e->rmajor = maj;
			e->rminor = min;
		} else if (at = -1, sscanf(line, "file %255s %511s %o 0 0%n", name[n], loc,
						 &mode, &at) == 3 && at >= 0) {
			e->mode = S_IFREG | mode;
			e->data = slurp(loc, &e->size);
			if (!e->data) {
				fprintf(stderr, "cpio-tool: %s: cannot read\n", loc);
				return 2;
			}
			/* the other names of a file: hard links */
			e->links = (const char *const *)links[n];
			for (tok = strtok(line + at, " \t\n"); tok && e->nr_links < 8;
			     tok = strtok(NULL, " \t\n"))
				links[n][e->nr_links++] = strdup(tok + (tok[0] == '/'));
		} else if (sscanf(line, "slink %255s %511s %o 0 0", name[n], loc, &mode) == 3) {
			e->mode = S_IFLNK | mode;
			e->data = strdup(loc);
		} else {
			continue;
		}
		/* gen_init_cpio drops a leading '/' of a name */
		if (name[n][0] == '/')
			memmove(name[n], name[n] + 1, strlen(name[n]));
		n++;
	}
	fclose(f);
	ret = st_cpio_build(ents, n, &out, &len);
	for (i = 0; i < n; i++) {
		free((void *)ents[i].data);
		while (ents[i].nr_links)
			free(links[i][--ents[i].nr_links]);
	}
	if (ret) {
		fprintf(stderr, "cpio-tool: %s\n", strerror(-ret));
		return 2;
	}
	fwrite(out, 1, len, stdout);
	free(out);
	return fflush(stdout) ? 2 : 0;
}
