/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lib/linux: facts about Linux that every room reads, kept once.
 *
 * A kernel release is a row here and a model under kconfig/models/; no
 * other module spells a kernel version or an ARCH name table of its own.
 */
#ifndef ST_LINUX_H
#define ST_LINUX_H

/* A kernel version as "MAJOR.MINOR" (patch level and -rc are ignored). */
struct st_kver {
	int major, minor;
};

/* The newest kernel slubtiny knows; the default --target. */
extern const struct st_kver st_kver_newest;
/*
 * The oldest kernel with a bundled slab Kconfig model (kconfig/models/):
 * without a kernel tree, a target below it cannot be verified.
 */
extern const struct st_kver st_kver_oldest_model;

/* Parse "6.2", "v6.12", "6.1.0-rc3": 0 or -EINVAL. */
int st_kver_parse(const char *s, struct st_kver *v);
int st_kver_cmp(struct st_kver a, struct st_kver b);
/* lo <= v <= hi */
int st_kver_between(struct st_kver v, struct st_kver lo, struct st_kver hi);

#endif
