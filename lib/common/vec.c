// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int st_vec_grow(void *arrp, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *arr, *n;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return -ENOMEM;
		c *= 2;
	}
	/* the caller's pointer is of its own type: copied, not cast */
	memcpy(&arr, arrp, sizeof(arr));
	n = realloc(arr, c * size);
	if (!n)
		return -ENOMEM;
	memcpy(arrp, &n, sizeof(n));
	*cap = c;
	return 0;
}
