// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/spawn.h"

extern char **environ;

/*
 * The child's environment, built before the fork: the parent may have other
 * threads (a progress ticker, check's workers), and one of them may hold a
 * lock of malloc at the fork, so the child must not allocate, and putenv()
 * does. An entry of @env_add replaces the inherited one of the same name.
 * NULL on no memory; the strings stay the caller's and environ's.
 */
static char **child_env(char *const env_add[])
{
	size_t n = 0, add = 0, i, j, len;
	char **env;

	/* after clearenv() there may be no environment at all */
	while (environ && environ[n])
		n++;
	while (env_add[add])
		add++;
	env = malloc((n + add + 1) * sizeof(*env));
	if (!env)
		return NULL;
	if (n)
		memcpy(env, environ, n * sizeof(*env));
	for (i = 0; i < add; i++) {
		len = strcspn(env_add[i], "=") + 1;
		for (j = 0; j < n; j++) {
			if (!strncmp(env[j], env_add[i], len))
				break;
		}
		env[j] = env_add[i];
		if (j == n)
			n++;
	}
	env[n] = NULL;
	return env;
}

/* Only async-signal-safe calls here: see child_env(). */
static void child_exec(char *const argv[], char **env, const char *cwd,
		       int in[2], int out[2], unsigned int flags, pid_t parent)
{
	/*
	 * A make left running after slubtiny is killed rewrites objects a
	 * rerun has already stamped. The signal survives exec; the parent may
	 * have died before prctl(), then getppid() is no longer it.
	 */
	if (flags & ST_SPAWN_DEATHSIG) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
	}

	if (flags & ST_SPAWN_STDIN) {
		dup2(in[0], 0);
		close(in[0]);
		close(in[1]);
	}
	if (flags & ST_SPAWN_STDOUT) {
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
	}
	if (flags & ST_SPAWN_QUIET) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
	}
	if (flags & ST_SPAWN_PGRP)
		setpgid(0, 0);
	if (cwd && chdir(cwd) < 0)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	execvpe(argv[0], argv, env);
	_exit(127);
}

static int spawn_env(struct st_child *c, char *const argv[], char **env, const char *cwd,
		     unsigned int flags)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	pid_t parent = getpid();
	int err;

	if ((flags & ST_SPAWN_STDIN) && pipe2(in, O_CLOEXEC) < 0)
		return -errno;
	if ((flags & ST_SPAWN_STDOUT) && pipe2(out, O_CLOEXEC) < 0) {
		err = -errno;
		goto close_in;
	}
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		goto close_out;
	}
	if (c->pid == 0)
		child_exec(argv, env, cwd, in, out, flags, parent);
	/* Also here: a kill(-pid) right after the fork must find the group. */
	if (flags & ST_SPAWN_PGRP)
		setpgid(c->pid, c->pid);
	if (flags & ST_SPAWN_STDIN) {
		close(in[0]);
		c->in_fd = in[1];
	}
	if (flags & ST_SPAWN_STDOUT) {
		close(out[1]);
		c->out_fd = out[0];
	}
	return 0;

close_out:
	if (out[0] >= 0) {
		close(out[0]);
		close(out[1]);
	}
close_in:
	if (in[0] >= 0) {
		close(in[0]);
		close(in[1]);
	}
	return err;
}

int st_spawn(struct st_child *c, char *const argv[], char *const env_add[],
	     const char *cwd, unsigned int flags)
{
	char **env = environ;
	int err;

	c->pid = -1;
	c->in_fd = c->out_fd = -1;
	if (env_add && !(env = child_env(env_add)))
		return -ENOMEM;
	err = spawn_env(c, argv, env, cwd, flags);
	if (env != environ)
		free(env);
	return err;
}

int st_child_wait(struct st_child *c)
{
	int status;

	if (c->in_fd >= 0)
		close(c->in_fd);
	if (c->out_fd >= 0)
		close(c->out_fd);
	c->in_fd = c->out_fd = -1;
	if (c->pid <= 0)
		return -ECHILD;
	while (waitpid(c->pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	c->pid = -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int read_all(int fd, char **out, size_t *out_len)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap + 1), *nbuf;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			cap *= 2;
			nbuf = realloc(buf, cap + 1);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -errno;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	*out = buf;
	if (out_len)
		*out_len = len;
	return 0;
}

int st_run(char *const argv[], char *const env_add[], const char *cwd,
	   char **out, size_t *out_len, unsigned int flags)
{
	struct st_child c;
	char *buf = NULL;
	int err, rerr = 0;

	if (out)
		flags |= ST_SPAWN_STDOUT;
	err = st_spawn(&c, argv, env_add, cwd, flags);
	if (err)
		return err;
	if (out)
		rerr = read_all(c.out_fd, &buf, out_len);
	err = st_child_wait(&c);
	if (rerr) {
		free(buf);
		return rerr;
	}
	if (out)
		*out = buf;
	return err;
}

bool st_signal_kills(int sig)
{
	switch (sig) {
	case SIGKILL: case SIGSTOP: case SIGCHLD: case SIGCONT: case SIGTSTP:
	case SIGTTIN: case SIGTTOU: case SIGURG: case SIGWINCH: case SIGXFSZ:
		return false;
	default:
		return sig > 0 && sig < NSIG;
	}
}

static volatile sig_atomic_t guard_pgid;
static struct sigaction guard_old[NSIG];
static bool guard_caught[NSIG];

/* Only async-signal-safe calls: the group first, then the signal's own end. */
static void guard_signal(int sig)
{
	if (guard_pgid > 0)
		kill(-(pid_t)guard_pgid, SIGKILL);
	sigaction(sig, &guard_old[sig], NULL);
	raise(sig);
}

void st_spawn_guard(pid_t pgid)
{
	struct sigaction sa = { .sa_handler = guard_signal };
	int sig;

	sigemptyset(&sa.sa_mask);
	guard_pgid = pgid;
	for (sig = 1; sig < NSIG; sig++) {
		guard_caught[sig] = false;
		/* glibc keeps two real-time signals for itself: EINVAL */
		if (!st_signal_kills(sig) || sigaction(sig, NULL, &guard_old[sig]) < 0 ||
		    guard_old[sig].sa_handler == SIG_IGN)
			continue;
		guard_caught[sig] = !sigaction(sig, &sa, NULL);
	}
}

void st_spawn_unguard(void)
{
	int sig;

	for (sig = 1; sig < NSIG; sig++) {
		if (guard_caught[sig])
			sigaction(sig, &guard_old[sig], NULL);
		guard_caught[sig] = false;
	}
	guard_pgid = 0;
}

bool st_find_exe(const char *name, char *buf, size_t len)
{
	const char *p = getenv("PATH"), *end;
	struct stat st;
	int n;

	if (strchr(name, '/')) {
		n = snprintf(buf, len, "%s", name);
		return n >= 0 && (size_t)n < len && !access(name, X_OK);
	}
	if (!p)
		p = "/usr/local/bin:/usr/bin:/bin";
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p)
			continue;
		n = snprintf(buf, len, "%.*s/%s", (int)(end - p), p, name);
		if (n < 0 || (size_t)n >= len)
			continue;
		if (!access(buf, X_OK) && !stat(buf, &st) && !S_ISDIR(st.st_mode))
			return true;
	}
	return false;
}
