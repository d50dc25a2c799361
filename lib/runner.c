// SPDX-License-Identifier: GPL-2.0
/*
 * runner: the one place ptrguard forks, execs and waits (see runner.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/ptrguard.h"
#include "lib/runner.h"

/* Point descriptor @i of the child where @c says; 0 or -1. */
static int child_redirect(const struct run_cmd *c, int i)
{
	int fd = c->fd[i];

	if (c->path[i])
		fd = open(c->path[i], i ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY, 0600);
	else if (fd < 0)
		fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return -1;
	if (fd == i)
		return 0;
	if (dup2(fd, i) < 0)
		return -1;
	if (c->path[i] || c->fd[i] < 0)
		close(fd);
	return 0;
}

static void child(const struct run_cmd *c, pid_t parent)
{
	int i;

	/* die with us: a killed audit or gate leaves no spatch behind */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	if (c->group)
		setpgid(0, 0);
	for (i = 0; i < 3; i++)
		if (child_redirect(c, i) < 0)
			_exit(126);
	if (c->cwd && chdir(c->cwd) < 0)
		_exit(126);
	if (!c->argv)
		_exit(c->fn(c->data));
	if (c->env)
		execvpe(c->argv[0], c->argv, c->env);
	else
		execvp(c->argv[0], c->argv);
	_exit(127);
}

pid_t run_start(const struct run_cmd *c)
{
	pid_t pid, parent = getpid();

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid)
		child(c, parent);
	/* Also here, so that a kill of the group cannot race the child's setpgid(). */
	if (c->group)
		setpgid(pid, pid);
	return pid;
}

int run_wait(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			error("waitpid: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

char *run_status_text(int status)
{
	if (WIFSIGNALED(status))
		return xasprintf("killed by signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
	if (WIFEXITED(status) && WEXITSTATUS(status))
		return xasprintf("exited with status %d", WEXITSTATUS(status));
	return NULL;
}

/* ---- the pool ---- */

struct slot {
	pid_t pid;		/* 0: free */
	size_t task;
	int group;
	struct timespec deadline;
};

static void deadline_in(struct timespec *t, unsigned int seconds)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_sec += seconds;
}

static int past(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec ||
		(now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/* Kill a task and all it started (when it has a group of its own). */
static void slot_kill(struct slot *s)
{
	kill(s->group ? -s->pid : s->pid, SIGKILL);
}

/*
 * A task has ended: whatever it left running in its group goes too, and
 * its slot is free.
 */
static void slot_free(struct slot *s)
{
	if (s->group)
		kill(-s->pid, SIGKILL);
	s->pid = 0;
}

static int slot_start(const struct run_pool *p, struct slot *s, size_t task)
{
	struct run_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	if (p->start(p->ctx, task, &cmd) < 0)
		return -1;
	s->pid = run_start(&cmd);
	if (s->pid < 0) {
		s->pid = 0;
		return -1;
	}
	s->task = task;
	s->group = cmd.group;
	if (p->timeout)
		deadline_in(&s->deadline, p->timeout);
	return 0;
}

/*
 * One look at the running tasks, without blocking (and without reaping
 * children that are not ours): 1 if one ended or timed out (done() was
 * called), 0 if none, -1 on error.
 */
static int slots_poll(const struct run_pool *p, struct slot *slots, unsigned int jobs,
		      size_t *running)
{
	unsigned int j;
	int status, timed_out;
	pid_t r;

	for (j = 0; j < jobs; j++) {
		struct slot *s = &slots[j];

		if (!s->pid)
			continue;
		r = waitpid(s->pid, &status, WNOHANG);
		if (r < 0 && errno != EINTR) {
			error("waitpid: %s", strerror(errno));
			return -1;
		}
		timed_out = r != s->pid;
		if (timed_out && !(p->timeout && past(&s->deadline)))
			continue;
		if (timed_out) {
			slot_kill(s);
			if (run_wait(s->pid, &status) < 0)
				return -1;
		}
		slot_free(s);
		(*running)--;
		return p->done(p->ctx, s->task, status, timed_out) < 0 ? -1 : 1;
	}
	return 0;
}

static void slots_tick(const struct run_pool *p, struct slot *slots, unsigned int jobs,
		       size_t *idx)
{
	unsigned int j;
	size_t n = 0;

	if (!p->tick)
		return;
	for (j = 0; j < jobs; j++)
		if (slots[j].pid)
			idx[n++] = slots[j].task;
	p->tick(p->ctx, idx, n);
}

int run_pool(const struct run_pool *p, size_t ntasks)
{
	unsigned int jobs = p->jobs ? p->jobs : 1, j;
	struct slot *slots = xmalloc(jobs * sizeof(*slots));
	size_t *idx = xmalloc(jobs * sizeof(*idx));
	size_t next = 0, running = 0;
	int ret = 0, rc, naps = 0;

	memset(slots, 0, jobs * sizeof(*slots));
	while (!ret && (next < ntasks || running)) {
		for (j = 0; j < jobs && next < ntasks && !ret; j++) {
			if (slots[j].pid)
				continue;
			if (slot_start(p, &slots[j], next) < 0) {
				ret = -1;
				break;
			}
			next++;
			running++;
		}
		if (ret || !running)
			break;
		rc = slots_poll(p, slots, jobs, &running);
		if (rc < 0) {
			ret = -1;
		} else if (rc) {
			naps = 0;
		} else {
			/* none ended yet: a short nap first, then ten a second */
			struct timespec nap = { 0, naps < 10 ? 10 * 1000 * 1000 : 100 * 1000 * 1000 };

			if (naps++ >= 10)
				slots_tick(p, slots, jobs, idx);
			nanosleep(&nap, NULL);
		}
	}
	for (j = 0; j < jobs; j++) {
		int status;

		if (!slots[j].pid)
			continue;
		slot_kill(&slots[j]);
		run_wait(slots[j].pid, &status);
		slot_free(&slots[j]);
	}
	free(slots);
	free(idx);
	return ret;
}
