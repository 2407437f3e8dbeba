/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_ARRAY_H
#define ST_ARRAY_H

/* The number of elements of array @a (an array, never a pointer). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
