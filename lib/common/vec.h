/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_VEC_H
#define ST_VEC_H

#include <stddef.h>

/*
 * Make room for @need elements of @size bytes in the array *@arrp (a
 * pointer to the caller's array pointer) whose room is *@cap elements,
 * doubling it (16 at first) so that appending n elements one at a time
 * costs O(n). Returns 0, or -ENOMEM with the array and *@cap unchanged.
 */
int st_vec_grow(void *arrp, size_t *cap, size_t need, size_t size);

#endif
