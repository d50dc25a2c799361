/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state the live scanner's files share while they walk: walk.c (the
 * roots, the queue of directories, the workers and the watchdog), file.c
 * (one file read and matched) and record.c (what is found and skipped).
 */
#ifndef PTRGUARD_SCAN_WALK_H
#define PTRGUARD_SCAN_WALK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"

enum item_type { IT_DIR, IT_FILE, IT_UNKNOWN };

struct item {
	char *path;
	unsigned char type;
	bool root;		/* a root: follow it if it is a symlink */
};

struct worker {
	pthread_t tid;
	/*
	 * The time limit, kept by the watchdog so that workers never read
	 * the clock: a worker numbers each open/read task it starts; the
	 * watchdog notes when it first saw a number, and when the same task
	 * is still busy timeout_ms later, stores its number in expired and
	 * sends SIGUSR1.
	 */
	_Atomic uint64_t task;
	_Atomic bool busy;
	_Atomic uint64_t expired;
	uint64_t seen_task, seen_at;	/* the watchdog's own */
	struct scan *s;
	unsigned char *buf;		/* file reads */
	char *dents;			/* getdents64 */
	char *path;			/* the path of the current entry */
	size_t cappath;
	uint64_t ns_dirs, ns_open, ns_read, ns_match, ns_all;	/* --debug-times */
};

struct scan {
	const struct scan_opts *o;
	struct scan_result *res;
	pthread_mutex_t lock;		/* queue, visited, res */
	pthread_cond_t cond;
	pthread_cond_t idle_cond;	/* pending reached 0: wakes the watchdog */
	struct item *q;
	size_t nq, capq;
	size_t pending;			/* queued + in progress */
	struct { dev_t dev; ino_t ino; } *seen;
	size_t nseen, capseen;		/* open addressing, capseen a power of 2 */
	pid_t self;
	_Atomic uint64_t files, dirs, hits;
	_Atomic bool done;
	_Atomic bool model_ready;	/* o->model may classify */
	_Atomic uint64_t ns_wait, ns_wait_match;	/* --debug-times: for the model */
	pthread_cond_t model_cond;
	/* The findings, one sorted group per file (or path name) published. */
	struct group {
		const char *file;
		struct finding_rec *rec;
		size_t n;
	} *groups;
	size_t ngroups, capgroups;
	FILE *list;			/* --debug-list-files */
	const char *model_base;		/* the model's file's last component */
};

/*
 * --debug-times: the monotonic clock in ns, or 0 without the option (no
 * system call: a guest without a vDSO clocksource pays one per read).
 */
static inline uint64_t tick(const struct scan *s)
{
	struct timespec ts;

	if (!s->o->times)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* A new task for the time limit: a file, or one directory read. */
static inline uint64_t begin_task(struct worker *w)
{
	uint64_t t = atomic_fetch_add(&w->task, 1) + 1;

	w->busy = true;
	return t;
}

static inline void end_task(struct worker *w)
{
	w->busy = false;
}

static inline bool expired(struct worker *w, uint64_t task)
{
	return w->expired == task;
}

#define GROW(arr, n, cap) do {						\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? 2 * (cap) : 64;				\
		(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));	\
	}								\
} while (0)

/* A file (or path name) being matched: its findings so far. */
struct filectx {
	struct scan *s;
	const char *path;
	struct finding_rec *rec;
	size_t n, cap;
	unsigned int flags;
};

/* ---- file.c: one file read and matched ---- */
void scan_file(struct worker *w, int dirfd, const char *oname,
	       const char *path, const char *pname, size_t plen, bool root);
/* Is a path name itself an address? */
void check_name(struct worker *w, const char *path, const char *name);

/* ---- record.c: what is found and skipped ---- */
void skip_file(struct scan *s, const char *path, bool err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The matcher's callback: a finding of the file @ctx (a struct filectx). */
void on_hit(void *ctx, const struct scan_hit *h);
void publish(struct filectx *f, unsigned int flags);
void collect(struct scan *s, struct scan_result *r);

#endif
