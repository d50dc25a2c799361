/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner: start programs, wait for them, and run many at once with a
 * deadline each.  The one fork/exec/wait of ptrguard: spatch for
 * `ptrguard audit` (cocci/groups.c), the gate's rule runs (gate/run.c)
 * and the gate's git commands (gate/tree.c) all start here.
 */
#ifndef PTRGUARD_RUNNER_H
#define PTRGUARD_RUNNER_H

#include <stddef.h>
#include <sys/types.h>

/*
 * What to start.  The child dies with its parent (PR_SET_PDEATHSIG), so a
 * killed ptrguard leaves nothing running.
 */
struct run_cmd {
	char *const *argv;	/* execvp() this; or, when NULL: */
	int (*fn)(void *data);	/* call this in the child, exit with its value */
	void *data;		/* for fn */
	/*
	 * The environment argv runs with (NULL: the caller's), made before
	 * the fork: a child of a process with threads calls no setenv().
	 */
	char *const *env;
	const char *cwd;	/* NULL: the caller's */
	/*
	 * The child's standard input, output and error: a descriptor to
	 * dup2(), -1 for /dev/null, or, when path[i] is set, that file
	 * (created 0600 and truncated for 1 and 2).  Zero-initialised: the
	 * caller's stdin, stdout, stderr.
	 */
	int fd[3];
	const char *path[3];
	/*
	 * A process group of its own: killing the task (timeout, another
	 * task failing) also kills what it started, as spatch's children.
	 */
	int group;
};

/* Start @c; the child's pid, or -1 after error(). */
pid_t run_start(const struct run_cmd *c);
/* Wait for @pid (retrying on EINTR); -1 after error(). */
int run_wait(pid_t pid, int *status);
/* How a child ended, from its wait status: malloc()ed text, NULL if it exited 0. */
char *run_status_text(int status);

/*
 * A pool: @ntasks tasks, at most @jobs at once, each killed (with its
 * process group) @timeout seconds after it started.  start() fills the
 * command of task @i (the pool sets nothing in it); done() gets what the
 * task came to: its wait status, or timed_out.  A -1 from either (after
 * the callback reported the error) stops the pool: the running tasks
 * are killed and reaped, done() is not called for them, and run_pool()
 * returns -1.  tick() is called about ten times a second while tasks
 * run, with the indexes of the running ones (progress).
 */
struct run_pool {
	unsigned int jobs;	/* 0: 1 */
	unsigned int timeout;	/* seconds per task; 0: none */
	void *ctx;
	int (*start)(void *ctx, size_t i, struct run_cmd *cmd);
	int (*done)(void *ctx, size_t i, int status, int timed_out);
	void (*tick)(void *ctx, const size_t *running, size_t nrunning);	/* may be NULL */
};

int run_pool(const struct run_pool *p, size_t ntasks);

#endif
