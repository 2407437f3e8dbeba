/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_FOOTPRINT_TRACE_PRIV_H
#define ST_FOOTPRINT_TRACE_PRIV_H

#include "footprint/trace.h"

/* Shared by the text and the binary format (trace.c, trace_bin.c). */
#define ST_TRACE_BIN_MAGIC	"SLTB"

/* The live (not destroyed) cache called @name, or -1. */
int st_trace_find_cache(const struct st_trace *t, const char *name);

/* The ops added since the last call came from line or offset @where. */
int st_trace_note_src(struct st_trace *t, uint64_t where);

int st_trace_parse_bin(const unsigned char *buf, size_t len, const char *file,
		       struct st_trace *t, struct st_error *e);

#endif
