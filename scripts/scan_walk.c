// SPDX-License-Identifier: GPL-2.0
/*
 * Walk the roots and read every regular file, with -j worker threads that
 * share one work queue of directories and files.
 *
 * Never hang: files are opened O_NONBLOCK and a read that would block ends
 * the file ("read would block").  Each file has a deadline on the monotonic
 * clock, checked between reads; a watchdog (the calling thread) interrupts
 * a worker stuck past its deadline inside one read(2) or open(2) with
 * SIGUSR1, installed without SA_RESTART.  No alarm(2) and no POSIX timers:
 * tinyconfig kernels have neither.  Symlinks are never followed below the
 * roots, and directories are entered once by (device, inode).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "ptrguard.h"
#include "scan.h"

#define PROC_SUPER_MAGIC 0x9fa0
#define STAT_BUF_MAX 65536

enum item_type { IT_DIR, IT_FILE, IT_UNKNOWN };

struct item {
	char *path;
	unsigned char type;
	bool root;		/* a root: follow it if it is a symlink */
};

struct worker {
	pthread_t tid;
	_Atomic uint64_t deadline;	/* ms on the monotonic clock, 0: idle */
	struct scan *s;
	unsigned char *buf;
};

struct scan {
	const struct scan_opts *o;
	struct scan_result *res;
	pthread_mutex_t lock;		/* queue, visited, res */
	pthread_cond_t cond;
	struct item *q;
	size_t nq, capq;
	size_t pending;			/* queued + in progress */
	struct { dev_t dev; ino_t ino; } *seen;
	size_t nseen, capseen;		/* open addressing, capseen a power of 2 */
	pid_t self;
	_Atomic uint64_t files, dirs, hits;
	_Atomic bool done;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

#define GROW(arr, n, cap) do {						\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? 2 * (cap) : 64;				\
		(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));	\
	}								\
} while (0)

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

static void skip_file(struct scan *s, const char *path, bool err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void skip_file(struct scan *s, const char *path, bool err, const char *fmt, ...)
{
	struct scan_result *r = s->res;
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&s->lock);
	GROW(r->skip, r->nskip, r->capskip);
	r->skip[r->nskip].file = xstrdup(path);
	r->skip[r->nskip].reason = xstrdup(why);
	r->skip[r->nskip].error = err;
	r->nskip++;
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

/* Files whose read consumes data, arms hardware or dumps memory. */
static const char *skip_reason(const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "kmsg"))
		return "consuming read: the kernel log";
	if (!strcmp(name, "kcore"))
		return "kernel memory image";
	if (!strcmp(name, "pagemap"))
		return "page frame numbers of the whole address space (huge)";
	if (!strcmp(name, "kpageflags") || !strcmp(name, "kpagecount") ||
	    !strcmp(name, "kpagecgroup"))
		return "a table per physical page (huge, no virtual addresses)";
	if ((n >= 5 && !strcmp(name + n - 5, "_pipe")) ||
	    (n >= 9 && !strcmp(name + n - 9, "_pipe_raw")) ||
	    !strcmp(name, "snapshot_raw"))
		return "consuming read: a trace pipe";
	if (!strncmp(name, "watchdog", 8) &&
	    strspn(name + 8, "0123456789") == n - 8)
		return "watchdog: opening it arms the timer";
	return NULL;
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

struct filectx {
	struct scan *s;
	const char *path;
	struct finding_rec *rec;
	size_t n, cap;
	unsigned int flags;
};

static void on_hit(void *ctx, const struct scan_hit *h)
{
	struct filectx *f = ctx;

	if (h->verdict == ADDR_IGNORED) {
		__atomic_fetch_add(&f->s->res->nignored, 1, __ATOMIC_RELAXED);
		if (!f->s->o->ignored)
			return;
	}
	GROW(f->rec, f->n, f->cap);
	f->rec[f->n].file = NULL;
	f->rec[f->n].hit = *h;
	f->rec[f->n].flags = f->flags;
	f->n++;
}

static void publish(struct filectx *f, unsigned int flags)
{
	struct scan_result *r = f->s->res;
	size_t i;

	if (!f->n)
		return;
	pthread_mutex_lock(&f->s->lock);
	for (i = 0; i < f->n; i++) {
		struct finding_rec *d;

		GROW(r->found, r->nfound, r->capfound);
		d = &r->found[r->nfound++];
		*d = f->rec[i];
		d->file = xstrdup(f->path);
		d->flags |= flags;
		if (d->hit.verdict == ADDR_KERNEL)
			r->nkernel++;
	}
	pthread_mutex_unlock(&f->s->lock);
	f->s->hits += f->n;
	free(f->rec);
	f->rec = NULL;
	f->n = f->cap = 0;
}

/* Is a path name itself an address?  leaking_addresses.pl checks too. */
static void check_name(struct scan *s, const char *path, const char *name)
{
	struct filectx f = { .s = s, .path = path, .flags = REC_PATH };
	struct matcher mt;

	if (strlen(name) < 10)
		return;
	matcher_init(&mt, s->o->model, on_hit, &f);
	matcher_feed(&mt, (const unsigned char *)name, strlen(name));
	matcher_end(&mt);
	publish(&f, 0);
}

/*
 * /proc/PID/stat: fields 31-34 are signal sets printed in decimal.  Drop
 * candidates there; the fields count from the last ')' (comm may hold any
 * byte).
 */
static void filter_stat(struct filectx *f, const unsigned char *buf, size_t len)
{
	const unsigned char *rp = NULL;
	size_t i, j, out = 0;

	for (i = 0; i < len; i++)
		if (buf[i] == ')')
			rp = buf + i;
	if (!rp)
		return;
	for (i = 0; i < f->n; i++) {
		struct finding_rec *r = &f->rec[i];
		unsigned int field = 2;
		size_t at = r->hit.offset;

		if (!r->hit.binary && at > (size_t)(rp - buf) && at < len) {
			for (j = (size_t)(rp - buf); j < at; j++)
				field += buf[j] == ' ';
			if (field >= 31 && field <= 34 &&
			    r->hit.verdict == ADDR_KERNEL) {
				__atomic_fetch_add(&f->s->res->nignored, 1,
						   __ATOMIC_RELAXED);
				if (!f->s->o->ignored)
					continue;
				r->hit.verdict = ADDR_IGNORED;
				r->hit.reason = "signal set (/proc/PID/stat field 31-34)";
			}
		}
		f->rec[out++] = *r;
	}
	f->n = out;
}

static void scan_file(struct worker *w, const char *path, bool root)
{
	struct scan *s = w->s;
	const struct scan_opts *o = s->o;
	const char *name = strrchr(path, '/'), *why, *pname;
	struct filectx f = { .s = s, .path = path };
	unsigned char *statbuf = NULL;
	size_t statlen = 0, plen;
	uint64_t total = 0, deadline;
	struct matcher mt;
	struct stat st;
	bool kmsg = o->dmesg && root && !strcmp(path, KMSG_PATH);
	int fd;

	name = name ? name + 1 : path;
	if (!kmsg && (why = skip_reason(name))) {
		skip_file(s, path, false, "%s", why);
		return;
	}
	s->files++;
	matcher_init(&mt, o->model, on_hit, &f);
	pname = parent_name(path, &plen);
	if (pname && plen == 12 && !memcmp(pname, "capabilities", 12))
		mt.mask_file = "input device capability bitmap";
	if (!strcmp(name, "stat") && pname && plen &&
	    strspn(pname, "0123456789") == plen)
		statbuf = xrealloc(NULL, STAT_BUF_MAX);

	deadline = now_ms() + o->timeout_ms;
	w->deadline = deadline;
	if (o->block_fifos)	/* O_RDWR: open returns, read blocks */
		fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
	else
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
			  (root ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		if (errno == EINTR)
			skip_file(s, path, false, "timed out opening it");
		else if (errno == EACCES)
			skip_file(s, path, true, "not readable: permission denied");
		else if (errno == ENOENT)
			skip_file(s, path, true, "vanished while scanning");
		else
			skip_file(s, path, true, "open: %s", strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || (o->block_fifos && S_ISFIFO(st.st_mode)) ||
	      (kmsg && S_ISCHR(st.st_mode)))) {
		skip_file(s, path, false, "not a regular file");
		goto out_close;
	}
	for (;;) {
		size_t want = kmsg ? KMSG_BUF : o->read_size;
		ssize_t r;

		if (now_ms() >= deadline) {
			skip_file(s, path, false, "timed out after %llu ms (read %llu bytes)",
				  (unsigned long long)o->timeout_ms,
				  (unsigned long long)total);
			break;
		}
		if (total + want > o->max_size + 1)
			want = o->max_size + 1 - total;
		r = read(fd, w->buf, want);
		if (r > 0) {
			size_t use = (size_t)r;

			if (total + use > o->max_size)
				use = o->max_size - total;
			matcher_feed(&mt, w->buf, use);
			if (statbuf && statlen + use <= STAT_BUF_MAX) {
				memcpy(statbuf + statlen, w->buf, use);
				statlen += use;
			}
			total += use;
			if (use < (size_t)r) {
				skip_file(s, path, false, "stopped at the size limit (%llu bytes)",
					  (unsigned long long)o->max_size);
				break;
			}
			continue;
		}
		if (r == 0)
			break;
		if (errno == EINTR) {
			if (now_ms() < deadline)
				continue;
			skip_file(s, path, false, "timed out after %llu ms in read (read %llu bytes)",
				  (unsigned long long)o->timeout_ms,
				  (unsigned long long)total);
			break;
		}
		if (kmsg && errno == EPIPE)	/* records overwritten: go on */
			continue;
		if (kmsg && errno == EAGAIN)	/* the end of the log */
			break;
		if (errno == EAGAIN)
			skip_file(s, path, false, "read would block (after %llu bytes)",
				  (unsigned long long)total);
		else
			skip_file(s, path, true, "read: %s (after %llu bytes)", strerror(errno),
				  (unsigned long long)total);
		break;
	}
	matcher_end(&mt);
	if (statbuf)
		filter_stat(&f, statbuf, statlen);
	__atomic_fetch_add(&s->res->bytes, total, __ATOMIC_RELAXED);
	publish(&f, mt.saw_nul ? REC_BINFILE : 0);
out_close:
	close(fd);
out:
	w->deadline = 0;
	free(statbuf);
	free(f.rec);
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

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = xrealloc(NULL, a + b + 2);

	memcpy(p, dir, a);
	if (a && dir[a - 1] != '/')
		p[a++] = '/';
	memcpy(p + a, name, b + 1);
	return p;
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

static void scan_dir(struct worker *w, const char *path, bool root)
{
	struct scan *s = w->s;
	bool procroot = false;
	struct dirent *de;
	struct statfs sf;
	struct stat st;
	DIR *d;
	int fd;

	w->deadline = now_ms() + s->o->timeout_ms;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC |
		  (root ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		if (errno == EACCES)
			skip_file(s, path, true, "directory not readable: permission denied");
		else
			skip_file(s, path, true, "open directory: %s", strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !first_visit(s, st.st_dev, st.st_ino)) {
		close(fd);
		goto out;
	}
	if (st.st_ino == 1 && !fstatfs(fd, &sf) && sf.f_type == PROC_SUPER_MAGIC)
		procroot = true;
	d = fdopendir(fd);
	if (!d) {
		skip_file(s, path, true, "open directory: %s", strerror(errno));
		close(fd);
		goto out;
	}
	s->dirs++;
	while ((errno = 0, de = readdir(d))) {
		unsigned char t = de->d_type;
		char *child;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (procroot && all_digits(de->d_name) && !want_pid(s, de->d_name)) {
			__atomic_fetch_add(&s->res->pids_skipped, 1, __ATOMIC_RELAXED);
			continue;
		}
		child = join(path, de->d_name);
		if (t == DT_UNKNOWN) {
			struct stat cs;

			if (fstatat(dirfd(d), de->d_name, &cs, AT_SYMLINK_NOFOLLOW) < 0) {
				skip_file(s, child, true, "stat: %s", strerror(errno));
				free(child);
				continue;
			}
			t = S_ISDIR(cs.st_mode) ? DT_DIR : S_ISREG(cs.st_mode) ? DT_REG :
			    S_ISLNK(cs.st_mode) ? DT_LNK : DT_UNKNOWN;
			if (t == DT_UNKNOWN) {
				skip_file(s, child, false, "not a regular file (%s)",
					  type_name(cs.st_mode));
				free(child);
				continue;
			}
		}
		check_name(s, child, de->d_name);
		if (t == DT_LNK) {
			__atomic_fetch_add(&s->res->symlinks, 1, __ATOMIC_RELAXED);
			free(child);
		} else if (t == DT_DIR) {
			push(s, child, IT_DIR);
		} else if (t == DT_REG || (t == DT_FIFO && s->o->block_fifos)) {
			push(s, child, IT_FILE);
		} else {
			skip_file(s, child, false, "not a regular file (%s)",
				  t == DT_FIFO ? "fifo" : t == DT_SOCK ? "socket" :
				  t == DT_CHR ? "character device" :
				  t == DT_BLK ? "block device" : "unknown type");
			free(child);
		}
	}
	if (errno)
		skip_file(s, path, true, "readdir: %s", strerror(errno));
	closedir(d);
out:
	w->deadline = 0;
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
	if (it->type == IT_DIR)
		scan_dir(w, it->path, it->root);
	else
		scan_file(w, it->path, it->root);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct scan *s = w->s;

	for (;;) {
		struct item it;

		pthread_mutex_lock(&s->lock);
		while (!s->nq && s->pending)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!s->nq) {
			pthread_cond_broadcast(&s->cond);
			pthread_mutex_unlock(&s->lock);
			return NULL;
		}
		it = s->q[--s->nq];
		pthread_mutex_unlock(&s->lock);

		scan_item(w, &it);
		free(it.path);

		pthread_mutex_lock(&s->lock);
		if (!--s->pending)
			pthread_cond_broadcast(&s->cond);
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

static int cmp_found(const void *a, const void *b)
{
	const struct finding_rec *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if ((x->flags & REC_PATH) != (y->flags & REC_PATH))
		return (x->flags & REC_PATH) ? -1 : 1;
	if (x->hit.offset != y->hit.offset)
		return x->hit.offset < y->hit.offset ? -1 : 1;
	return (int)x->hit.binary - (int)y->hit.binary;
}

static int cmp_skip(const void *a, const void *b)
{
	const struct skip_rec *x = a, *y = b;

	return strcmp(x->file, y->file);
}

int scan_run(const struct scan_opts *o, char **roots, size_t nroots,
	     struct scan_result *res)
{
	struct scan s = { .o = o, .res = res };
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	struct worker *w;
	uint64_t start = now_ms(), last = start;
	int i, err;
	size_t k;

	memset(res, 0, sizeof(*res));
	s.self = getpid();
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.cond, NULL);
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
		err = pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
		if (err)
			die("scan: cannot start thread: %s", strerror(err));
	}

	/* The watchdog: interrupt workers past their deadline. */
	for (;;) {
		bool idle;
		uint64_t now;

		poll(NULL, 0, 20);
		now = now_ms();
		for (i = 0; i < o->jobs; i++) {
			uint64_t d = w[i].deadline;

			if (d && now > d)
				pthread_kill(w[i].tid, SIGUSR1);
		}
		pthread_mutex_lock(&s.lock);
		idle = !s.pending;
		pthread_mutex_unlock(&s.lock);
		if (idle)
			break;
		if (o->progress && now - last >= 200) {
			progress(&s, false);
			last = now;
		}
	}
	for (i = 0; i < o->jobs; i++) {
		pthread_join(w[i].tid, NULL);
		free(w[i].buf);
	}
	if (o->progress)
		progress(&s, true);
	free(w);
	free(s.q);
	free(s.seen);
	res->files = s.files;
	res->dirs = s.dirs;
	res->seconds = (double)(now_ms() - start) / 1000.0;
	if (res->nfound)
		qsort(res->found, res->nfound, sizeof(*res->found), cmp_found);
	if (res->nskip)
		qsort(res->skip, res->nskip, sizeof(*res->skip), cmp_skip);
	pthread_mutex_destroy(&s.lock);
	pthread_cond_destroy(&s.cond);
	return 0;
}

void scan_result_free(struct scan_result *res)
{
	size_t i;

	for (i = 0; i < res->nfound; i++)
		free(res->found[i].file);
	for (i = 0; i < res->nskip; i++) {
		free(res->skip[i].file);
		free(res->skip[i].reason);
	}
	free(res->found);
	free(res->skip);
}
