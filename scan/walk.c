// SPDX-License-Identifier: GPL-2.0
/*
 * Walk the roots and read every regular file, with -j worker threads that
 * share one work queue of directories: a worker reads a directory with
 * getdents64, queues its subdirectories and reads its regular files
 * itself, opened relative to the directory.
 *
 * Never hang: files are opened O_NONBLOCK and a read that would block ends
 * the file ("read would block").  Each file has a time limit, kept by a
 * watchdog (the calling thread, every 20 ms) so that workers never read
 * the clock (in a guest without a vDSO clocksource each clock_gettime is a
 * system call): a file still busy timeout_ms after the watchdog first saw
 * it is marked expired, which the worker checks between reads, and the
 * worker gets SIGUSR1, installed without SA_RESTART, to end a read(2) or
 * open(2) it is stuck in.  No alarm(2) and no POSIX timers: tinyconfig
 * kernels have neither.  Symlinks are never followed below the roots, and
 * directories are entered once by (device, inode).  Reading one file is
 * file.c's; what is found and skipped, record.c's (their shared state:
 * walk.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"
#include "scan/walk.h"

#define PROC_SUPER_MAGIC 0x9fa0
#define DENTS_BUF 65536

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Called with s->lock held. */
static void push_locked(struct scan *s, char *path, unsigned char type, bool root)
{
	GROW(s->q, s->nq, s->capq);
	s->q[s->nq++] = (struct item){ path, type, root };
	s->pending++;
	pthread_cond_signal(&s->cond);
}

static void push(struct scan *s, char *path, unsigned char type)
{
	pthread_mutex_lock(&s->lock);
	push_locked(s, path, type, false);
	pthread_mutex_unlock(&s->lock);
}

/* First visit of this directory?  Guards against bind mounts seen twice. */
static bool first_visit(struct scan *s, dev_t dev, ino_t ino)
{
	size_t i, mask;
	bool first = true;

	pthread_mutex_lock(&s->lock);
	if (2 * (s->nseen + 1) > s->capseen) {
		size_t oldcap = s->capseen;
		__typeof__(s->seen) old = s->seen;

		s->capseen = oldcap ? 2 * oldcap : 1024;
		s->seen = calloc(s->capseen, sizeof(*s->seen));
		if (!s->seen)
			die("scan: out of memory");
		s->nseen = 0;
		for (i = 0; i < oldcap; i++) {
			if (!old[i].ino)
				continue;
			size_t h = (old[i].ino * 0x9e3779b97f4a7c15ULL ^ old[i].dev) &
				   (s->capseen - 1);
			while (s->seen[h].ino)
				h = (h + 1) & (s->capseen - 1);
			s->seen[h] = old[i];
			s->nseen++;
		}
		free(old);
	}
	mask = s->capseen - 1;
	i = (ino * 0x9e3779b97f4a7c15ULL ^ dev) & mask;
	for (; s->seen[i].ino; i = (i + 1) & mask) {
		if (s->seen[i].ino == ino && s->seen[i].dev == dev) {
			first = false;
			break;
		}
	}
	if (first && ino) {
		s->seen[i].dev = dev;
		s->seen[i].ino = ino;
		s->nseen++;
	}
	if (!first)
		s->res->dup_dirs++;
	pthread_mutex_unlock(&s->lock);
	return first;
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* The name of the directory holding path, as pointer and length. */
static const char *parent_name(const char *path, size_t *len)
{
	const char *slash = strrchr(path, '/'), *p;

	if (!slash || slash == path)
		return NULL;
	for (p = slash; p > path && p[-1] != '/'; p--)
		;
	*len = (size_t)(slash - p);
	return p;
}

/* The last component of the file the model read. */
static const char *model_file_base(const struct addr_model *m)
{
	const char *src = m->kallsyms ? m->kallsyms : "/proc/kallsyms";
	const char *base = strrchr(src, '/');

	return base ? base + 1 : src;
}

static bool want_pid(struct scan *s, const char *name)
{
	long pid = strtol(name, NULL, 10);
	size_t i;

	if (s->o->pids == PIDS_ALL)
		return true;
	if (s->o->pid_self && pid == (long)s->self)
		return true;
	for (i = 0; i < s->o->npid; i++)
		if (s->o->pid_list[i] == pid)
			return true;
	return false;
}

/* w->path = dir/name; returns it. */
static char *set_path(struct worker *w, const char *dir, size_t dlen, const char *name)
{
	size_t nlen = strlen(name);
	bool same = dir == w->path;

	if (dlen + nlen + 2 > w->cappath) {
		w->cappath = 2 * (dlen + nlen + 2);
		w->path = xrealloc(w->path, w->cappath);
	}
	if (!same)
		memmove(w->path, dir, dlen);
	if (dlen && w->path[dlen - 1] != '/')
		w->path[dlen++] = '/';
	memcpy(w->path + dlen, name, nlen + 1);
	return w->path;
}

static const char *type_name(mode_t m)
{
	if (S_ISFIFO(m))
		return "fifo";
	if (S_ISSOCK(m))
		return "socket";
	if (S_ISCHR(m))
		return "character device";
	if (S_ISBLK(m))
		return "block device";
	return "unknown type";
}

/*
 * Read a directory with getdents64: subdirectories go to the queue,
 * regular files are read here, opened relative to the directory (one path
 * component to look up instead of the whole path).
 */
static void scan_dir(struct worker *w, const char *path, bool root)
{
	struct scan *s = w->s;
	bool procroot = false;
	struct statfs sf;
	struct stat st;
	size_t dlen = strlen(path), dnlen = 0;
	const char *dname;
	char dbuf[256];
	uint64_t task, t0 = tick(s);
	int fd;

	begin_task(w);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC |
		  (root ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		if (errno == EACCES)
			skip_file(s, path, true, "directory not readable: permission denied");
		else
			skip_file(s, path, true, "open directory: %s", strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !first_visit(s, st.st_dev, st.st_ino))
		goto out_close;
	if (st.st_ino == 1 && !fstatfs(fd, &sf) && sf.f_type == PROC_SUPER_MAGIC)
		procroot = true;
	w->ns_dirs += tick(s) - t0;
	s->dirs++;
	set_path(w, path, dlen, "");	/* w->path = path/ */
	dlen = strlen(w->path);
	/* What parent_name() says of every entry's path, found once. */
	dname = parent_name(w->path, &dnlen);
	if (dname && dnlen < sizeof(dbuf)) {
		memcpy(dbuf, dname, dnlen);
		dname = dbuf;
	} else {
		dname = NULL;
		dnlen = 0;
	}
	for (;;) {
		ssize_t n, at;

		task = begin_task(w);
		t0 = tick(s);
		do
			n = getdents64(fd, w->dents, DENTS_BUF);
		while (n < 0 && errno == EINTR && !expired(w, task));
		w->ns_dirs += tick(s) - t0;
		end_task(w);
		if (n <= 0) {
			if (n < 0)
				skip_file(s, path, true, "readdir: %s", strerror(errno));
			break;
		}
		for (at = 0; at < n; ) {
			struct dirent64 *de = (struct dirent64 *)(w->dents + at);
			unsigned char t = de->d_type;
			const char *child;

			at += de->d_reclen;
			if (de->d_name[0] == '.' && (!de->d_name[1] ||
			    (de->d_name[1] == '.' && !de->d_name[2])))
				continue;
			if (procroot && all_digits(de->d_name) && !want_pid(s, de->d_name)) {
				__atomic_fetch_add(&s->res->pids_skipped, 1, __ATOMIC_RELAXED);
				continue;
			}
			child = set_path(w, w->path, dlen, de->d_name);
			if (t == DT_UNKNOWN) {
				struct stat cs;

				if (fstatat(fd, de->d_name, &cs, AT_SYMLINK_NOFOLLOW) < 0) {
					skip_file(s, child, true, "stat: %s", strerror(errno));
					continue;
				}
				t = S_ISDIR(cs.st_mode) ? DT_DIR : S_ISREG(cs.st_mode) ? DT_REG :
				    S_ISLNK(cs.st_mode) ? DT_LNK : DT_UNKNOWN;
				if (t == DT_UNKNOWN) {
					skip_file(s, child, false, "not a regular file (%s)",
						  type_name(cs.st_mode));
					continue;
				}
			}
			check_name(w, child, de->d_name);
			if (t == DT_LNK) {
				__atomic_fetch_add(&s->res->symlinks, 1, __ATOMIC_RELAXED);
			} else if (t == DT_DIR) {
				push(s, xstrdup(child), IT_DIR);
			} else if (t == DT_REG || (t == DT_FIFO && s->o->block_fifos)) {
				scan_file(w, fd, de->d_name, child, dname, dnlen, false);
			} else {
				skip_file(s, child, false, "not a regular file (%s)",
					  t == DT_FIFO ? "fifo" : t == DT_SOCK ? "socket" :
					  t == DT_CHR ? "character device" :
					  t == DT_BLK ? "block device" : "unknown type");
			}
		}
	}
out_close:
	close(fd);
out:
	end_task(w);
}

static void scan_item(struct worker *w, struct item *it)
{
	struct stat st;

	if (it->type == IT_UNKNOWN) {
		if (stat(it->path, &st) < 0) {
			skip_file(w->s, it->path, true, "stat: %s", strerror(errno));
			return;
		}
		if (S_ISDIR(st.st_mode)) {
			it->type = IT_DIR;
		} else if (S_ISREG(st.st_mode) ||
			   (w->s->o->dmesg && !strcmp(it->path, KMSG_PATH))) {
			it->type = IT_FILE;
		} else {
			skip_file(w->s, it->path, false, "not a regular file (%s)",
				  type_name(st.st_mode));
			return;
		}
	}
	if (it->type == IT_DIR) {
		scan_dir(w, it->path, it->root);
	} else {
		size_t plen = 0;
		const char *pname = parent_name(it->path, &plen);

		scan_file(w, AT_FDCWD, it->path, it->path, pname, plen, it->root);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct scan *s = w->s;
	uint64_t t = tick(s);

	for (;;) {
		struct item it;

		pthread_mutex_lock(&s->lock);
		while (!s->nq && s->pending)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!s->nq) {
			pthread_cond_broadcast(&s->cond);
			pthread_mutex_unlock(&s->lock);
			w->ns_all = tick(s) - t;
			return NULL;
		}
		it = s->q[--s->nq];
		pthread_mutex_unlock(&s->lock);

		scan_item(w, &it);
		free(it.path);

		pthread_mutex_lock(&s->lock);
		if (!--s->pending) {
			pthread_cond_broadcast(&s->cond);
			pthread_cond_signal(&s->idle_cond);
		}
		pthread_mutex_unlock(&s->lock);
	}
}

static void on_sigusr1(int sig)
{
	(void)sig;	/* only here to interrupt a blocking system call */
}

static void progress(struct scan *s, bool last)
{
	if (last) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[Kscan: %llu dirs, %llu files, %llu values",
		(unsigned long long)s->dirs, (unsigned long long)s->files,
		(unsigned long long)s->hits);
}

static int cmp_skip(const void *a, const void *b)
{
	const struct skip_rec *x = a, *y = b;

	return strcmp(x->file, y->file);
}

int scan_run(const struct scan_opts *o, char **roots, size_t nroots,
	     struct scan_result *res)
{
	struct scan s = { .o = o, .res = res, .model_ready = !o->load_model };
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	pthread_condattr_t ca;
	struct worker *w;
	uint64_t start = now_ms(), last = start;
	int i, err, rc = 0;
	size_t k;

	memset(res, 0, sizeof(*res));
	s.self = getpid();
	s.model_base = model_file_base(o->model);
	if (o->list_files && !(s.list = fopen(o->list_files, "we"))) {
		error("scan: --debug-list-files %s: %s", o->list_files, strerror(errno));
		return -1;
	}
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.cond, NULL);
	pthread_cond_init(&s.model_cond, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s.idle_cond, &ca);
	pthread_condattr_destroy(&ca);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: reads return EINTR */

	for (k = 0; k < nroots; k++)
		push_locked(&s, xstrdup(roots[k]), IT_UNKNOWN, true);

	w = calloc((size_t)o->jobs, sizeof(*w));
	if (!w)
		die("scan: out of memory");
	for (i = 0; i < o->jobs; i++) {
		w[i].s = &s;
		w[i].buf = xrealloc(NULL, o->read_size > KMSG_BUF ? o->read_size : KMSG_BUF);
		w[i].dents = xrealloc(NULL, DENTS_BUF);
		err = pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
		if (err)
			die("scan: cannot start thread: %s", strerror(err));
	}

	/*
	 * The model, while the workers read: they wait for it only to
	 * classify a value.  The watchdog starts after it; a worker past its
	 * deadline by then is interrupted at the first round.
	 */
	if (o->load_model) {
		rc = o->load_model(o->load_arg);
		pthread_mutex_lock(&s.lock);
		s.model_ready = true;
		pthread_cond_broadcast(&s.model_cond);
		pthread_mutex_unlock(&s.lock);
	}

	/*
	 * The watchdog: every 20 ms, interrupt workers past their deadline.
	 * It waits on idle_cond, so that the end of the walk ends it at once,
	 * not at its next round.
	 */
	for (;;) {
		struct timespec until;
		bool idle;
		uint64_t now;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += 20000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_mutex_lock(&s.lock);
		while (s.pending &&
		       pthread_cond_timedwait(&s.idle_cond, &s.lock, &until) != ETIMEDOUT)
			;
		idle = !s.pending;
		pthread_mutex_unlock(&s.lock);
		if (idle)
			break;
		now = now_ms();
		for (i = 0; i < o->jobs; i++) {
			uint64_t t = w[i].task;

			if (t != w[i].seen_task || !w[i].busy) {
				w[i].seen_task = t;	/* new since the last round */
				w[i].seen_at = now;
			} else if (now - w[i].seen_at >= o->timeout_ms) {
				w[i].expired = t;
				pthread_kill(w[i].tid, SIGUSR1);
			}
		}
		if (o->progress && now - last >= 200) {
			progress(&s, false);
			last = now;
		}
	}
	for (i = 0; i < o->jobs; i++) {
		pthread_join(w[i].tid, NULL);
		res->ns_dirs += w[i].ns_dirs;
		res->ns_open += w[i].ns_open;
		res->ns_read += w[i].ns_read;
		res->ns_match += w[i].ns_match;
		res->ns_workers += w[i].ns_all;
		free(w[i].buf);
		free(w[i].dents);
		free(w[i].path);
	}
	if (o->progress)
		progress(&s, true);
	free(w);
	free(s.q);
	free(s.seen);
	res->files = s.files;
	res->dirs = s.dirs;
	res->seconds = (double)(now_ms() - start) / 1000.0;
	res->ns_wall = (now_ms() - start) * 1000000;
	res->ns_wait = s.ns_wait;
	res->ns_match -= s.ns_wait_match;
	if (s.list && fclose(s.list)) {
		error("scan: --debug-list-files %s: %s", o->list_files, strerror(errno));
		rc = -1;
	}
	collect(&s, res);
	free(s.groups);
	if (res->nskip)
		qsort(res->skip, res->nskip, sizeof(*res->skip), cmp_skip);
	pthread_mutex_destroy(&s.lock);
	pthread_cond_destroy(&s.cond);
	pthread_cond_destroy(&s.model_cond);
	pthread_cond_destroy(&s.idle_cond);
	return rc;
}
