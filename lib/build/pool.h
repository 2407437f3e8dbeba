/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_BUILD_POOL_H
#define ST_BUILD_POOL_H

/*
 * lib/build's job pool, the one both the bundled variants (build.c) and a
 * user's kernel (lib/kernel) are built through: jobs with dependencies over
 * st_spawn, like a tiny ninja. A job becomes ready when every job it
 * depends on is done; its prepare() then decides whether it must run (it
 * may find its output up to date); its finish() sees the exit status. A
 * failed job fails everything that depends on it. Everything runs in the
 * calling thread.
 */

#include <stdbool.h>
#include <stddef.h>

#include "common/spawn.h"

struct st_error;
struct st_build_progress;

enum st_job_state {
	ST_JOB_WAIT,
	ST_JOB_READY,
	ST_JOB_RUNNING,
	ST_JOB_DONE,
	ST_JOB_FAILED,
};

/* What prepare() decided. */
enum {
	ST_JOB_RUN = 0,		/* spawn job->argv */
	ST_JOB_UPTODATE = 1,	/* nothing to do; finish() is not called */
};

struct st_job {
	char *what;		/* short description, for progress and errors */
	char **argv;		/* set by prepare() when it returns ST_JOB_RUN; freed by the pool */
	unsigned int flags;	/* ST_SPAWN_* for the child */
	/* Returns ST_JOB_RUN, ST_JOB_UPTODATE or -errno (the job fails). */
	int (*prepare)(struct st_job *j);
	/* @status: the child's exit status. Returns 0 or -errno (the job fails). */
	int (*finish)(struct st_job *j, int status);
	void *data;		/* the owner's */

	enum st_job_state state;
	bool ran;		/* a process was spawned for it */
	char *error;		/* when failed: why (malloc'd) */
	unsigned int npending;	/* dependencies not done yet */
	struct st_job **dependents;
	size_t ndependents, adependents;
	struct st_child child;
};

struct st_pool {
	struct st_job **jobs;
	size_t njobs, ajobs;
	unsigned int max_running;
	void (*progress)(void *ctx, const struct st_build_progress *p);
	void *progress_ctx;
	unsigned int nrun, nuptodate, nfailed;
};

/* A new job owned by @p (freed by st_pool_free()). */
struct st_job *st_pool_job(struct st_pool *p, const char *what);
/* @job waits for @dep. */
int st_pool_depend(struct st_job *job, struct st_job *dep);
/* Run until every job is done or failed. -errno only for pool errors. */
int st_pool_run(struct st_pool *p, struct st_error *e);
void st_pool_free(struct st_pool *p);

/* Set job->error from a format (keeps the first one). */
void st_job_fail(struct st_job *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
