/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_SPAWN_H
#define ST_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The one process spawner of the project. A child gets pipes on the ends the
 * caller asks for; everything else is inherited. @env_add (may be NULL) is a
 * NULL-terminated list of "NAME=value" strings set on top of the current
 * environment, in the child only (a "PATH=" there does not change where
 * argv[0] is looked for: the parent's PATH does). Safe beside other
 * threads: the child allocates nothing between fork and exec.
 */
struct st_child {
	pid_t pid;
	int in_fd;	/* write end of the child's stdin, -1 if not piped */
	int out_fd;	/* read end of the child's stdout, -1 if not piped */
};

#define ST_SPAWN_STDIN	0x1
#define ST_SPAWN_STDOUT	0x2
#define ST_SPAWN_QUIET	0x4	/* child's stderr to /dev/null */
#define ST_SPAWN_PGRP	0x8	/* child leads a new process group (kill(-pid) ends it all) */
#define ST_SPAWN_DEATHSIG 0x10	/* child gets SIGKILL when the spawning thread dies */

int st_spawn(struct st_child *c, char *const argv[], char *const env_add[],
	     const char *cwd, unsigned int flags);

/* Close our pipe ends and reap the child; returns its exit status or -errno. */
int st_child_wait(struct st_child *c);

/*
 * Run argv to completion and collect stdout into a malloc'd NUL-terminated
 * buffer (*out, may be NULL if not wanted). Returns the exit status
 * (>= 0, 128 + signal for a signalled child) or -errno.
 */
int st_run(char *const argv[], char *const env_add[], const char *cwd,
	   char **out, size_t *out_len, unsigned int flags);

/*
 * Until st_spawn_unguard(): a signal that would end this process (one of
 * st_signal_kills(), not ignored) first SIGKILLs the process group @pgid
 * (a child spawned with ST_SPAWN_PGRP, QEMU and whatever it started), then
 * ends the process as it would have. One group at a time. ST_SPAWN_DEATHSIG
 * covers the child itself, even against SIGKILL; this covers its group.
 */
void st_spawn_guard(pid_t pgid);
void st_spawn_unguard(void);

/*
 * Does @sig, left to its default action, end the process, and can it be
 * caught? SIGXFSZ is not counted: a writer ignores it (write() then fails
 * with EFBIG).
 */
bool st_signal_kills(int sig);

/*
 * Find @name as execvp() does: a name with a '/' as it is, else the first
 * executable file of that name in $PATH (a default one when PATH is
 * unset; empty entries skipped). Its path goes into @buf.
 */
bool st_find_exe(const char *name, char *buf, size_t len);

#endif
