// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job pool of lib/build: at most max_running children at a time, each
 * started with st_spawn() and reaped with st_child_wait().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "build/build.h"
#include "build/pool.h"
#include "common/error.h"

struct st_job *st_pool_job(struct st_pool *p, const char *what)
{
	struct st_job *j, **nj;

	if (p->njobs == p->ajobs) {
		size_t n = p->ajobs ? 2 * p->ajobs : 64;

		nj = realloc(p->jobs, n * sizeof(*nj));
		if (!nj)
			return NULL;
		p->jobs = nj;
		p->ajobs = n;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->what = strdup(what);
	if (!j->what) {
		free(j);
		return NULL;
	}
	j->child.pid = -1;
	j->child.in_fd = j->child.out_fd = -1;
	p->jobs[p->njobs++] = j;
	return j;
}

int st_pool_depend(struct st_job *job, struct st_job *dep)
{
	struct st_job **nd;

	if (dep->ndependents == dep->adependents) {
		size_t n = dep->adependents ? 2 * dep->adependents : 8;

		nd = realloc(dep->dependents, n * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		dep->dependents = nd;
		dep->adependents = n;
	}
	dep->dependents[dep->ndependents++] = job;
	job->npending++;
	return 0;
}

void st_job_fail(struct st_job *j, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	if (j->error)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	j->error = strdup(buf);
}

static void free_argv(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

void st_pool_free(struct st_pool *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->njobs; i++) {
		struct st_job *j = p->jobs[i];

		if (j->child.pid > 0)
			st_child_wait(&j->child);
		free_argv(j->argv);
		free(j->what);
		free(j->error);
		free(j->dependents);
		free(j);
	}
	free(p->jobs);
	p->jobs = NULL;
	p->njobs = p->ajobs = 0;
}

/* The ready queue: each job enters it at most once, so njobs slots do. */
struct queue {
	struct st_job **q;
	size_t head, tail;
};

static unsigned int ndone(const struct st_pool *p)
{
	return p->nrun + p->nuptodate + p->nfailed;
}

static void report(struct st_pool *p, unsigned int running, const struct st_job *j)
{
	struct st_build_progress pr = {
		.done = ndone(p),
		.total = p->njobs,
		.running = running,
		.what = j->what,
	};

	if (p->progress)
		p->progress(p->progress_ctx, &pr);
}

/* @j is done: its dependents lose one pending dependency. */
static void release(struct queue *q, struct st_job *j)
{
	size_t i;

	for (i = 0; i < j->ndependents; i++) {
		struct st_job *d = j->dependents[i];

		if (d->state == ST_JOB_WAIT && !--d->npending) {
			d->state = ST_JOB_READY;
			q->q[q->tail++] = d;
		}
	}
}

/* @j failed: everything that waits for it fails too, naming the cause. */
static void fail(struct st_pool *p, struct st_job *j)
{
	size_t i;

	if (j->state == ST_JOB_FAILED || j->state == ST_JOB_DONE)
		return;
	j->state = ST_JOB_FAILED;
	p->nfailed++;
	if (!j->error)
		j->error = strdup("failed");
	for (i = 0; i < j->ndependents; i++) {
		struct st_job *d = j->dependents[i];

		if (d->state == ST_JOB_WAIT || d->state == ST_JOB_READY) {
			st_job_fail(d, "%s", j->error ? j->error : j->what);
			fail(p, d);
		}
	}
}

static struct st_job *find_running(struct st_pool *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i]->state == ST_JOB_RUNNING && p->jobs[i]->child.pid == pid)
			return p->jobs[i];
	return NULL;
}

/*
 * Block until one of our children has exited and return its job, without
 * reaping it (st_child_wait() does that). WNOWAIT keeps the status for
 * st_child_wait(); a child that is not ours (another part of the program
 * may have spawned one) is left alone and we fall back to polling ours.
 */
static struct st_job *wait_any(struct st_pool *p)
{
	const struct timespec ms = { 0, 1000000 };
	siginfo_t si;
	size_t i;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (find_running(p, si.si_pid))
			return find_running(p, si.si_pid);
		for (i = 0; i < p->njobs; i++) {
			struct st_job *j = p->jobs[i];

			if (j->state != ST_JOB_RUNNING)
				continue;
			memset(&si, 0, sizeof(si));
			if (!waitid(P_PID, j->child.pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
			    si.si_pid == j->child.pid)
				return j;
		}
		nanosleep(&ms, NULL);
	}
}

/* Take @j off the ready queue: prepare and spawn it, or settle it. */
static int start(struct st_pool *p, struct queue *q, struct st_job *j)
{
	int ret = j->prepare ? j->prepare(j) : ST_JOB_RUN;

	if (ret < 0) {
		st_job_fail(j, "%s: %s", j->what, strerror(-ret));
		fail(p, j);
		return 0;
	}
	if (ret == ST_JOB_UPTODATE) {
		j->state = ST_JOB_DONE;
		p->nuptodate++;
		release(q, j);
		return 0;
	}
	ret = st_spawn(&j->child, j->argv, NULL, NULL, j->flags);
	if (ret) {
		st_job_fail(j, "%s: cannot run %s: %s", j->what, j->argv[0], strerror(-ret));
		fail(p, j);
		return 0;
	}
	j->state = ST_JOB_RUNNING;
	j->ran = true;
	return 1;
}

static void reap(struct st_pool *p, struct queue *q, struct st_job *j)
{
	int status = st_child_wait(&j->child), ret;

	p->nrun++;
	if (status == 127) {
		st_job_fail(j, "%s: cannot run %s", j->what, j->argv[0]);
		p->nrun--;
		fail(p, j);
		return;
	}
	ret = j->finish ? j->finish(j, status) : (status ? -EIO : 0);
	if (ret) {
		if (status)
			st_job_fail(j, "%s: %s exited with status %d", j->what, j->argv[0], status);
		else
			st_job_fail(j, "%s: %s", j->what, strerror(-ret));
		p->nrun--;
		fail(p, j);
		return;
	}
	j->state = ST_JOB_DONE;
	release(q, j);
}

int st_pool_run(struct st_pool *p, struct st_error *e)
{
	struct queue q = { 0 };
	unsigned int running = 0;
	struct st_job *j;
	size_t i;

	q.q = calloc(p->njobs + 1, sizeof(*q.q));
	if (!q.q)
		return st_err(e, ENOMEM, NULL, "out of memory");
	if (!p->max_running)
		p->max_running = 1;
	for (i = 0; i < p->njobs; i++) {
		j = p->jobs[i];
		j->state = j->npending ? ST_JOB_WAIT : ST_JOB_READY;
		if (j->state == ST_JOB_READY)
			q.q[q.tail++] = j;
	}
	while (ndone(p) < p->njobs) {
		while (running < p->max_running && q.head < q.tail) {
			j = q.q[q.head++];
			if (j->state != ST_JOB_READY)
				continue;
			running += start(p, &q, j);
			report(p, running, j);
		}
		if (!running)
			break;
		j = wait_any(p);
		if (!j) {
			free(q.q);
			return st_err(e, errno ? errno : ECHILD, NULL, "waiting for jobs: %s",
				      strerror(errno ? errno : ECHILD));
		}
		reap(p, &q, j);
		running--;
		report(p, running, j);
	}
	free(q.q);
	/* Only a dependency cycle can leave jobs waiting; the graph has none. */
	if (ndone(p) < p->njobs)
		return st_err(e, EDEADLK, NULL, "job graph has a cycle");
	return 0;
}
