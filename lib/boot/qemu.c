// SPDX-License-Identifier: GPL-2.0-only
/*
 * One boot: QEMU started on the image and the initramfs, its console read
 * until the end marker, a panic or the time limit, the log kept beside the
 * image, and why a boot that stopped early stopped.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/array.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/str.h"
#include "boot_priv.h"

/* After the end marker: time for QEMU to power off before it is killed. */
#define GRACE_MS 1000

double st_boot_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

bool st_boot_kvm_usable(void)
{
	return !access("/dev/kvm", R_OK | W_OK);
}

#define PANIC "Kernel panic - not syncing"

/* The console line around @hit, without its printk time stamp. */
static char *console_line(const char *log, const char *hit)
{
	const char *b, *e, *p;

	for (b = hit; b > log && b[-1] != '\n'; b--)
		;
	e = hit + strcspn(hit, "\r\n");
	if (*b == '[' && (p = memchr(b, ']', (size_t)(e - b))))
		for (b = p + 1; *b == ' '; b++)
			;
	return strndup(b, (size_t)(e - b));
}

/*
 * What the kernel said when it ran out of memory before the init printed
 * its figures: the first console line with one of these, or NULL. Each is
 * the kernel's own wording (the OOM killer, the page allocator, binfmt_flat,
 * the exec of init with -ENOMEM).
 */
static char *oom_reason(const char *log)
{
	static const char *const marks[] = {
		"Out of memory", "out of memory", "page allocation failure",
		"Unable to allocate RAM", "(error -12)", "Initramfs unpacking failed",
	};
	const char *hit = NULL, *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		p = strstr(log, marks[i]);
		if (p && (!hit || p < hit))
			hit = p;
	}
	return hit ? console_line(log, hit) : NULL;
}

/*
 * Why a boot stopped before the figures, when that is a result: the
 * kernel ran out of memory, or (a --mem series, where the smallest sizes
 * are expected not to boot) it panicked; NULL otherwise.
 */
static char *stop_reason(const struct st_boot_result *r, struct st_boot_item *it,
			 const char *log, bool panicked)
{
	char *why = oom_reason(log);
	const char *p;

	it->out_of_memory = why != NULL;
	if (why)
		return why;
	if (panicked && r->nmems > 1 && (p = strstr(log, PANIC)))
		return console_line(log, p);
	return NULL;
}

/* QEMU's command line for one boot. */
struct qemu_cmd {
	char *argv[32];
	char mem[16], cpus[16];
	char *append;
};

static int qemu_cmd(struct qemu_cmd *q, const struct boot_arch *a, const struct st_boot_item *it,
		    const char *initrd, const struct st_boot_result *r, bool kvm)
{
	size_t n = 0;

	snprintf(q->mem, sizeof(q->mem), "%u", it->mem_mb);
	snprintf(q->cpus, sizeof(q->cpus), "%u", r->cpus);
	q->append = st_asprintf("console=%s panic=-1%s%s", a->console, *r->cmdline ? " " : "",
				r->cmdline);
	if (!q->append)
		return -ENOMEM;
	q->argv[n++] = "sh";
	q->argv[n++] = "-c";
	q->argv[n++] = "exec \"$@\" </dev/null 2>&1";
	q->argv[n++] = "sh";
	q->argv[n++] = (char *)a->qemu;
	q->argv[n++] = "-nographic";
	q->argv[n++] = "-no-reboot";
	if (a->machine) {
		q->argv[n++] = "-M";
		q->argv[n++] = (char *)a->machine;
	}
	if (r->nommu) {
		/* M-mode: the kernel is the firmware */
		q->argv[n++] = "-bios";
		q->argv[n++] = "none";
	}
	q->argv[n++] = "-m";
	q->argv[n++] = q->mem;
	q->argv[n++] = "-smp";
	q->argv[n++] = q->cpus;
	q->argv[n++] = "-accel";
	q->argv[n++] = kvm ? "kvm" : "tcg";
	q->argv[n++] = "-kernel";
	q->argv[n++] = it->image;
	q->argv[n++] = "-initrd";
	q->argv[n++] = (char *)initrd;
	q->argv[n++] = "-append";
	q->argv[n++] = q->append;
	q->argv[n] = NULL;
	return 0;
}

/* What QEMU's console said, and when. */
struct console {
	char *log;
	size_t len, cap;
	double t0, seen_end, seen_panic;
	bool timed_out, no_banner;
};

/* One read of the console into @c; 0 at its end, -ENOMEM. */
static ssize_t console_read(struct console *c, int fd)
{
	ssize_t got;

	if (c->len + 4096 + 1 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 65536;
		char *nb = realloc(c->log, cap);

		if (!nb)
			return -ENOMEM;
		c->log = nb;
		c->cap = cap;
	}
	do {
		got = read(fd, c->log + c->len, 4096);
	} while (got < 0 && errno == EINTR);
	if (got <= 0)
		return 0;
	c->len += got;
	c->log[c->len] = 0;
	return got;
}

/*
 * Read the console of QEMU (@child) until the end marker, a panic (each
 * then with GRACE_MS for QEMU to power off), the deadline, or with
 * @banner_s no kernel banner after that many seconds (a KVM that starts
 * no kernel, seen nested). QEMU's process group is killed when it
 * outlives that; -ENOMEM (killed too).
 */
static int console_follow(struct console *c, struct st_child *child, double deadline,
			  unsigned int banner_s)
{
	struct pollfd pfd = { .fd = child->out_fd, .events = POLLIN };
	ssize_t got;
	int ret;

	for (;;) {
		double stop = c->seen_end ? c->seen_end : c->seen_panic;
		double left = (stop ? stop + GRACE_MS / 1e3 : deadline) - st_boot_now();

		if (banner_s && !c->seen_end && st_boot_now() - c->t0 > banner_s &&
		    !(c->log && strstr(c->log, "Linux version"))) {
			c->no_banner = true;
			kill(-child->pid, SIGKILL);
			return 0;
		}
		if (banner_s && left > 1)
			left = 1;
		if (left <= 0) {
			c->timed_out = !c->seen_end;
			kill(-child->pid, SIGKILL);
			return 0;
		}
		ret = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (ret <= 0)
			continue;
		got = console_read(c, child->out_fd);
		if (got < 0) {
			kill(-child->pid, SIGKILL);
			return (int)got;
		}
		if (!got)
			return 0;
		if (!c->seen_end && (strstr(c->log, BOOT_END "\n") || strstr(c->log, BOOT_END "\r\n")))
			c->seen_end = st_boot_now();
		/* A kernel without panic=-1 (a forced command line) hangs after it. */
		if (!c->seen_end && !c->seen_panic && strstr(c->log, PANIC))
			c->seen_panic = st_boot_now();
	}
}

/* Has @pid ended? Asked without reaping it, so that it keeps its group. */
static bool qemu_ended(pid_t pid)
{
	siginfo_t si = { 0 };

	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid;
}

/*
 * After the console: QEMU gets until the deadline (GRACE_MS after the end
 * marker) to end, else it is killed; a QEMU that closed its console and
 * lives on is a timeout of ours, not a wait without end. Whatever is left
 * of its group goes too.
 */
static void qemu_end(struct console *c, struct st_child *child, double deadline)
{
	if (c->seen_end)
		deadline = c->seen_end + GRACE_MS / 1e3;
	while (!qemu_ended(child->pid)) {
		if (st_boot_now() >= deadline) {
			c->timed_out = !c->seen_end;
			break;
		}
		usleep(20000);
	}
	kill(-child->pid, SIGKILL);
}

/* @it's error for a boot that gave no figures (@ret from the parse), with the log's tail. */
static void boot_error(const struct boot_arch *a, struct st_boot_item *it, const struct console *c,
		       const char *path, int ret, int status, unsigned int timeout)
{
	char *t = st_boot_log_tail(c->log, c->len);
	const char *nl = c->len ? "" : " (no output)";

	if (c->seen_panic && !c->seen_end)
		it->error = st_asprintf("%s: the kernel panicked before the end marker; "
					"console log %s, last lines:\n%s", it->name, path,
					t ? t : "");
	else if (c->timed_out && !c->seen_panic)
		it->error = st_asprintf("%s: the boot did not reach the end marker "
					"within %u s (%s killed); console log %s%s, "
					"last lines:\n%s",
					it->name, timeout, a->qemu, path, nl, t ? t : "");
	else if (!c->seen_end)
		it->error = st_asprintf("%s: %s exited (status %d) before the end marker; "
					"console log %s%s, last lines:\n%s", it->name,
					a->qemu, status, path, nl, t ? t : "");
	else
		it->error = st_asprintf("%s: the console log %s has no %s between the "
					"markers, last lines:\n%s", it->name, path,
					ret == -EINVAL ? "Slab: and MemFree:" : "figures",
					t ? t : "");
	free(t);
}

/*
 * Keep the console log beside the image and read the figures from it, or
 * why the boot stopped before them (a result), or the error.
 */
static int boot_verdict(const struct boot_arch *a, struct st_boot_item *it,
			const struct st_boot_result *r, struct console *c, int status,
			unsigned int timeout)
{
	char path[PATH_MAX];
	int ret;

	if (r->nmems > 1)
		st_pathf(path, "%s/slubtiny-console-%uM.log", it->dir, it->mem_mb);
	else
		st_pathf(path, "%s/" CONSOLE_LOG, it->dir);
	st_write_file(path, c->log, c->len, 0644);
	if (c->seen_end)
		it->boot_s = c->seen_end - c->t0;
	ret = c->seen_end ? st_boot_parse(c->log, c->len, &it->fig) : -ENOENT;
	if (ret && !c->seen_end && (it->stopped = stop_reason(r, it, c->log, c->seen_panic))) {
		it->boot_s = st_boot_now() - c->t0;
		return 0;
	}
	if (!ret)
		return 0;
	boot_error(a, it, c, path, ret, status, timeout);
	return -EIO;
}

/*
 * Boot @it's image with @initrd, read the console until the end marker (or
 * the time limit: then the process group is killed), keep the log.
 */
int st_boot_one(const struct boot_arch *a, struct st_boot_item *it, const char *initrd,
		const struct st_boot_result *r, unsigned int timeout, bool kvm,
		unsigned int banner_s)
{
	struct console c = { 0 };
	struct st_child child;
	struct qemu_cmd q;
	int ret, status;

	it->accel = kvm ? "kvm" : "tcg";
	if (qemu_cmd(&q, a, it, initrd, r, kvm))
		return -ENOMEM;
	c.t0 = st_boot_now();
	/* QEMU dies with us, whatever ends us: it has a group of its own */
	ret = st_spawn(&child, q.argv, NULL, NULL,
		       ST_SPAWN_STDOUT | ST_SPAWN_PGRP | ST_SPAWN_DEATHSIG);
	free(q.append);
	if (ret) {
		it->error = st_asprintf("%s: cannot start %s: %s", it->name, a->qemu,
					strerror(-ret));
		return ret;
	}
	st_spawn_guard(child.pid);
	ret = console_follow(&c, &child, c.t0 + timeout, banner_s);
	qemu_end(&c, &child, c.t0 + timeout);
	status = st_child_wait(&child);
	st_spawn_unguard();
	if (ret == -ENOMEM) {
		it->error = st_asprintf("%s: out of memory", it->name);
		goto out;
	}
	if (c.no_banner) {
		ret = -ETIME;
		goto out;
	}
	if (!c.log && !(c.log = strdup(""))) {
		ret = -ENOMEM;
		goto out;
	}
	ret = boot_verdict(a, it, r, &c, status, timeout);
out:
	free(c.log);
	return ret;
}
