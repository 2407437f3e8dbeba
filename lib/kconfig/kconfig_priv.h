/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_KCONFIG_PRIV_H
#define ST_KCONFIG_PRIV_H

/*
 * Internals of lib/kconfig shared by its files and its tests (the fuzz
 * target drives the reply parser directly). Not for other modules.
 */

#include <stddef.h>

#include "kconfig/kconfig.h"

struct cJSON;

/*
 * Parse one reply line of the helper (@len bytes, need not be
 * NUL-terminated) into a new result. A reply with "ok": false becomes
 * -EIO (-EINVAL with "code": "EINVAL") with its "error" text in @err;
 * anything that is not a well-formed
 * reply is -EPROTO. *res is only set on success.
 */
int st_kc_reply_parse(const char *buf, size_t len, struct st_kc_result **res,
		      struct st_error *err);

/* Parse a reply into a cJSON tree, checking "ok" (for load). */
int st_kc_reply_tree(const char *buf, size_t len, struct cJSON **out,
		     struct st_error *err);

#endif
