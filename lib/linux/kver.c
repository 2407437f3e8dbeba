// SPDX-License-Identifier: GPL-2.0-only
/* The one kernel-version type: parsed here, compared here. */
#include <errno.h>
#include <stdlib.h>

#include "common/array.h"
#include "linux/linux.h"

/*
 * A new release is a row here (with a model directory if its slab Kconfig
 * changed) and a new st_kver_newest; test linux holds the rows to
 * kconfig/models/ and the two constants to the rows.
 */
const struct st_release st_releases[] = {
	{ { 6, 1 }, true }, { { 6, 2 }, true }, { { 6, 3 }, false }, { { 6, 4 }, false },
	{ { 6, 5 }, false }, { { 6, 6 }, false }, { { 6, 7 }, false }, { { 6, 8 }, false },
	{ { 6, 9 }, false }, { { 6, 10 }, false }, { { 6, 11 }, false }, { { 6, 12 }, true },
	{ { 6, 13 }, true }, { { 6, 14 }, false }, { { 6, 15 }, true }, { { 6, 16 }, false },
	{ { 6, 17 }, false }, { { 6, 18 }, false }, { { 6, 19 }, false }, { { 7, 0 }, true },
	{ { 7, 1 }, false }, { { 7, 2 }, true }, { { 7, 3 }, false },
};
const size_t st_nr_releases = ARRAY_SIZE(st_releases);

const struct st_kver st_kver_newest = { 7, 3 };
const struct st_kver st_kver_oldest_model = { 6, 1 };

int st_kver_parse(const char *s, struct st_kver *v)
{
	char *end;
	long major, minor;

	if (s[0] == 'v')
		s++;
	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	major = strtol(s, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	minor = strtol(end + 1, &end, 10);
	if (*end && *end != '.' && *end != '-')
		return -EINVAL;
	if (major < 2 || major > 99 || minor > 999)
		return -EINVAL;
	v->major = major;
	v->minor = minor;
	return 0;
}

int st_kver_cmp(struct st_kver a, struct st_kver b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	return 0;
}

int st_kver_between(struct st_kver v, struct st_kver lo, struct st_kver hi)
{
	return st_kver_cmp(v, lo) >= 0 && st_kver_cmp(v, hi) <= 0;
}
