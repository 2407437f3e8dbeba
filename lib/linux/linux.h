/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lib/linux: facts about Linux that every room reads, kept once.
 *
 * A kernel release is a row here and a model under kconfig/models/; no
 * other module spells a kernel version or an ARCH name table of its own.
 */
#ifndef ST_LINUX_H
#define ST_LINUX_H

#include <stdbool.h>
#include <stddef.h>

/* A kernel version as "MAJOR.MINOR" (patch level and -rc are ignored). */
struct st_kver {
	int major, minor;
};

/*
 * A release slubtiny knows, and whether kconfig/models/ has a model of its
 * slab Kconfig (a release that changed none has none: the one before
 * stands for it).
 */
struct st_release {
	struct st_kver v;
	bool model;
};

/* Every release from the oldest model to st_kver_newest, oldest first. */
extern const struct st_release st_releases[];
extern const size_t st_nr_releases;

/* The newest kernel slubtiny knows (the last release); the default --target. */
extern const struct st_kver st_kver_newest;
/*
 * The oldest kernel with a bundled slab Kconfig model (the first release):
 * without a kernel tree, a target below it cannot be verified.
 */
extern const struct st_kver st_kver_oldest_model;

/* Parse "6.2", "v6.12", "6.1.0-rc3": 0 or -EINVAL. */
int st_kver_parse(const char *s, struct st_kver *v);
int st_kver_cmp(struct st_kver a, struct st_kver b);
/* lo <= v <= hi */
int st_kver_between(struct st_kver v, struct st_kver lo, struct st_kver hi);

#endif
