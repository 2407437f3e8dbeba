// SPDX-License-Identifier: GPL-2.0-only
/*
 * The LD_PRELOAD recorder on a program with a known allocation pattern
 * (record-target.c): every call is there, with its size, its kind, its
 * object and its thread, and the recording is a valid trace.
 *
 *	test-record RECORDER.so TARGET OUTDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/spawn.h"
#include "footprint/trace.h"

#include "../../tap.h"

int main(int argc, char **argv)
{
	char out[4096], env_pre[4200], env_file[4200];
	char *env[] = { env_pre, env_file, NULL };
	char *cmd[] = { NULL, NULL };
	struct st_error e = { 0 };
	struct st_trace *t = NULL;
	uint32_t *size_of, chain = UINT32_MAX;
	int n_small = 0, n_small_freed = 0, n_calloc = 0, n_big = 0, n_big_freed = 0;
	int n_realloc = 0, n_5001 = 0, main_thread = -1, big_thread = -1, status;
	size_t i;

	if (argc != 4) {
		fprintf(stderr, "usage: test-record RECORDER.so TARGET OUTDIR\n");
		return 2;
	}
	snprintf(out, sizeof(out), "%s/record-target.sltb", argv[3]);
	snprintf(env_pre, sizeof(env_pre), "LD_PRELOAD=%s", argv[1]);
	snprintf(env_file, sizeof(env_file), "ST_RECORD_FILE=%s", out);
	cmd[0] = argv[2];
	status = st_run(cmd, env, NULL, NULL, NULL, 0);
	ok(status == 0, "the target runs under the recorder");
	ok(st_trace_load(out, &t, &e) == 0, "the recording parses");
	if (!t) {
		printf("# %s: %s\n1..%d\n", e.file, e.msg, nr_test);
		return 1;
	}
	size_of = calloc(t->nr_ids + 1, sizeof(*size_of));
	for (i = 0; i < t->nr_ops; i++) {
		const struct st_trace_op *op = &t->ops[i];

		if (op->type == ST_OP_KMALLOC || op->type == ST_OP_KZALLOC ||
		    op->type == ST_OP_KREALLOC)
			size_of[op->id] = op->size;
		if (op->type == ST_OP_KMALLOC && op->size >= 1001 && op->size <= 1100) {
			n_small++;
			main_thread = op->thread;
		}
		if (op->type == ST_OP_KZALLOC && op->size == 7 * 313)
			n_calloc++;
		if (op->type == ST_OP_KMALLOC && op->size == 3001)
			chain = op->id;
		if (op->type == ST_OP_KREALLOC && op->id == chain && op->size == 3002 + (uint32_t)n_realloc)
			n_realloc++;
		if (op->type == ST_OP_KMALLOC && op->size == 5001)
			n_5001++;
		if (op->type == ST_OP_KMALLOC && op->size == 4097) {
			n_big++;
			big_thread = op->thread;
		}
		if (op->type == ST_OP_FREE && size_of[op->id] >= 1001 && size_of[op->id] <= 1100)
			n_small_freed++;
		if (op->type == ST_OP_FREE && size_of[op->id] == 4097)
			n_big_freed++;
		if (op->type == ST_OP_FREE && size_of[op->id] == 5001)
			n_5001++;
	}
	ok(n_small == 100 && n_small_freed == 100, "100 mallocs as kmalloc, all freed");
	ok(n_calloc == 10, "calloc is kzalloc of n * size");
	ok(n_realloc == 9, "a realloc chain is krealloc of one object");
	ok(n_5001 == 2, "realloc(NULL) allocates, realloc(p, 0) frees");
	ok(n_big == 50 && n_big_freed == 50, "the second thread's calls are there");
	ok(main_thread >= 0 && big_thread >= 0 && main_thread != big_thread &&
	   t->nr_threads >= 2, "threads are told apart");
	printf("1..%d\n", nr_test);
	free(size_of);
	st_trace_delete(t);
	return nr_fail ? 1 : 0;
}
