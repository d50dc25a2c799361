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
 * directories are entered once by (device, inode).
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
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"

#define PROC_SUPER_MAGIC 0x9fa0
#define STAT_BUF_MAX 65536
#define DENTS_BUF 65536
/*
 * The first read of a file asks for 1 KiB, and each read that fills its
 * buffer doubles the next, up to --read-size (64 KiB): a read of a
 * /proc/sys file allocates and zeroes a kernel buffer of the size asked
 * for (proc_sys_call_handler), the end-of-file read included, and most
 * files of /proc and /sys are far smaller than 1 KiB.
 */
#define FIRST_READ 1024

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

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * --debug-times: the monotonic clock in ns, or 0 without the option (no
 * system call: a guest without a vDSO clocksource pays one per read).
 */
static uint64_t tick(const struct scan *s)
{
	struct timespec ts;

	if (!s->o->times)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* --debug-list-files: one more path opened for reading, NUL-terminated. */
static void list_file(struct scan *s, const char *path)
{
	pthread_mutex_lock(&s->lock);
	fwrite(path, 1, strlen(path) + 1, s->list);
	pthread_mutex_unlock(&s->lock);
}

/* A new task for the time limit: a file, or one directory read. */
static uint64_t begin_task(struct worker *w)
{
	uint64_t t = atomic_fetch_add(&w->task, 1) + 1;

	w->busy = true;
	return t;
}

static void end_task(struct worker *w)
{
	w->busy = false;
}

static bool expired(struct worker *w, uint64_t task)
{
	return w->expired == task;
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
	size_t n;

	/* Most names: no strcmp at all. */
	if (!strchr("kpsw", name[0]) && !strstr(name, "_pipe"))
		return NULL;
	n = strlen(name);
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

static void on_hit(void *ctx, const struct scan_hit *h);

/* Wait until the main thread has finished the model; the ns waited. */
static uint64_t wait_model(struct scan *s)
{
	uint64_t t;

	if (s->model_ready)
		return 0;
	t = tick(s);
	pthread_mutex_lock(&s->lock);
	while (!s->model_ready)
		pthread_cond_wait(&s->model_cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	t = tick(s) - t;
	s->ns_wait += t;
	return t;
}

/* The matcher's hook, before it classifies a value: within its time. */
static void wait_model_matching(void *ctx)
{
	struct scan *s = ((struct filectx *)ctx)->s;

	s->ns_wait_match += wait_model(s);
}

static void matcher_start(struct scan *s, struct matcher *mt, struct filectx *f)
{
	matcher_init(mt, s->o->model, on_hit, f);
	if (!s->model_ready)
		mt->wait = wait_model_matching;
}

static void on_hit(void *ctx, const struct scan_hit *h)
{
	struct filectx *f = ctx;

	if (h->verdict == ADDR_IGNORED) {
		__atomic_fetch_add(&f->s->res->nignored, 1, __ATOMIC_RELAXED);
		if (!f->s->o->ignored)
			return;
	}
	GROW(f->rec, f->n, f->cap);
	f->rec[f->n] = (struct finding_rec){ .hit = *h, .flags = f->flags };
	f->n++;
}

/* The order of findings in one file: path name first, then by offset. */
static int cmp_in_file(const struct finding_rec *x, const struct finding_rec *y)
{
	if ((x->flags & REC_PATH) != (y->flags & REC_PATH))
		return (x->flags & REC_PATH) ? -1 : 1;
	if (x->hit.offset != y->hit.offset)
		return x->hit.offset < y->hit.offset ? -1 : 1;
	return (int)x->hit.binary - (int)y->hit.binary;
}

/*
 * Hand the file's findings over as one group, sorted here: they come
 * nearly in order (a chunk's binary values before its text), so an
 * insertion sort is about linear.  scan_run sorts the groups by name.
 */
static void publish(struct filectx *f, unsigned int flags)
{
	struct scan *s = f->s;
	struct scan_result *r = s->res;
	size_t i, j, nkernel = 0;
	char *file;

	if (!f->n)
		return;
	file = xstrdup(f->path);
	for (i = 0; i < f->n; i++) {
		struct finding_rec t;

		f->rec[i].file = file;
		f->rec[i].flags |= flags;
		nkernel += f->rec[i].hit.verdict == ADDR_KERNEL;
		if (!i || cmp_in_file(&f->rec[i - 1], &f->rec[i]) <= 0)
			continue;	/* in order: the usual case, no copy */
		t = f->rec[i];
		for (j = i; j > 0 && cmp_in_file(&f->rec[j - 1], &t) > 0; j--)
			f->rec[j] = f->rec[j - 1];
		f->rec[j] = t;
	}
	pthread_mutex_lock(&s->lock);
	GROW(r->names, r->nnames, r->capnames);
	r->names[r->nnames++] = file;
	GROW(s->groups, s->ngroups, s->capgroups);
	s->groups[s->ngroups++] = (struct group){ file, f->rec, f->n };
	r->nfound += f->n;
	r->nkernel += nkernel;
	pthread_mutex_unlock(&s->lock);
	s->hits += f->n;
	f->rec = NULL;
	f->n = f->cap = 0;
}

/* Is a path name itself an address?  leaking_addresses.pl checks too. */
static void check_name(struct worker *w, const char *path, const char *name)
{
	struct scan *s = w->s;
	struct filectx f = { .s = s, .path = path, .flags = REC_PATH };
	struct matcher mt;
	uint64_t t;

	/* No run of 10 hex digits, no candidate (addr_hex_run10). */
	if (!addr_hex_run10((const unsigned char *)name, strlen(name)))
		return;
	t = tick(s);
	matcher_start(s, &mt, &f);
	matcher_feed(&mt, (const unsigned char *)name, strlen(name));
	matcher_end(&mt);
	publish(&f, 0);
	w->ns_match += tick(s) - t;
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
				r->hit.region = NULL;
			}
		}
		f->rec[out++] = *r;
	}
	f->n = out;
}

/*
 * The model read this very file (same device and inode) in full, within
 * the time and size limits, with the credentials we still hold: scan its
 * bytes instead of reading it again.  /proc/kallsyms is the largest and
 * slowest file of /proc (every line is formatted by the kernel on read).
 */
static bool kept_copy(struct scan *s, int fd)
{
	const struct addr_model *m = s->o->model;
	struct stat st;

	return m->ksyms && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       (uint64_t)st.st_dev == m->ksyms_dev &&
	       (uint64_t)st.st_ino == m->ksyms_ino &&
	       m->ksyms_ms < s->o->timeout_ms && m->nksyms <= s->o->max_size;
}

/*
 * Match the kept kallsyms text by what the model's parse of it found
 * (struct addr_kline): a line whose only candidate is its value at
 * column 1 is reported from it, any other that may hold one is matched
 * as text; the findings are those matcher_feed would make of the whole
 * text.  The text has no NUL or 0xff byte (no binary values), and each
 * line starts the matcher afresh (no token, sign or label carried over).
 */
static void kept_lines(struct matcher *mt, const struct addr_model *m)
{
	const struct addr_kline *k = m->klines, *end = k + m->nklines;
	struct scan_hit h = { .column = 1 };

	for (; k < end; k++) {
		const unsigned char *s = m->ksyms + k->off;

		if (k->value) {
			h.value = k->value;
			h.offset = k->off;
			h.line = k->line;
			memcpy(h.text, s, 16);
			h.text[16] = '\0';
			matcher_hit(mt, &h);
		} else {
			const unsigned char *nl = memchr(s, '\n', m->nksyms - k->off);
			size_t n = nl ? (size_t)(nl - s) + 1 : m->nksyms - k->off;

			matcher_seek(mt, k->off, k->line);
			matcher_feed(mt, s, n);
		}
	}
}

/* The last component of the file the model read. */
static const char *model_file_base(const struct addr_model *m)
{
	const char *src = m->kallsyms ? m->kallsyms : "/proc/kallsyms";
	const char *base = strrchr(src, '/');

	return base ? base + 1 : src;
}

/*
 * Read one regular file and match its bytes.  dirfd and oname open it
 * (the directory being walked and the entry's name, or AT_FDCWD and the
 * path of a root); path names it in reports.  Entries below the roots are
 * taken for regular files by their directory entry type (d_type, or
 * fstatat when the file system gives none), as find(1) does, with no
 * fstat after the open; roots are checked after the open.
 */
static void scan_file(struct worker *w, int dirfd, const char *oname,
		      const char *path, const char *pname, size_t plen, bool root)
{
	struct scan *s = w->s;
	const struct scan_opts *o = s->o;
	const char *name = root ? strrchr(path, '/') : NULL, *why;
	struct filectx f = { .s = s, .path = path };
	unsigned char *statbuf = NULL;
	size_t statlen = 0;
	uint64_t total = 0, task;
	size_t ask = FIRST_READ;
	struct matcher mt;
	struct stat st;
	bool kmsg = o->dmesg && root && !strcmp(path, KMSG_PATH);
	bool kept = false;
	uint64_t t;
	int fd;

	name = !root ? oname : name ? name + 1 : path;
	if (!kmsg && (why = skip_reason(name))) {
		skip_file(s, path, false, "%s", why);
		return;
	}
	s->files++;
	matcher_start(s, &mt, &f);
	if (pname && plen == 12 && !memcmp(pname, "capabilities", 12))
		mt.mask_file = "input device capability bitmap";
	if (!strcmp(name, "stat") && pname && plen &&
	    strspn(pname, "0123456789") == plen)
		statbuf = xrealloc(NULL, STAT_BUF_MAX);

	task = begin_task(w);
	t = tick(s);
	do {
		if (o->block_fifos)	/* O_RDWR: open returns, read blocks */
			fd = openat(dirfd, oname, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
		else
			fd = openat(dirfd, oname, O_RDONLY | O_NONBLOCK | O_NOCTTY |
				    O_CLOEXEC | (root ? 0 : O_NOFOLLOW));
	} while (fd < 0 && errno == EINTR && !expired(w, task));
	w->ns_open += tick(s) - t;
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
	if (root && (fstat(fd, &st) < 0 ||
		     !(S_ISREG(st.st_mode) || (o->block_fifos && S_ISFIFO(st.st_mode)) ||
		       (kmsg && S_ISCHR(st.st_mode))))) {
		skip_file(s, path, false, "not a regular file");
		goto out_close;
	}
	if (s->list)
		list_file(s, path);
	if (!kmsg && !statbuf && !strcmp(name, s->model_base)) {
		end_task(w);	/* waiting for the model is no read */
		wait_model(s);
		mt.wait = NULL;		/* ready now: no hook call a value */
		task = begin_task(w);
		kept = kept_copy(s, fd);
	}
	if (kept && o->model->klines && !mt.mask_file) {
		t = tick(s);
		/* About a finding a line: room for them at once. */
		f.cap = o->model->nklines + 64;
		f.rec = xrealloc(f.rec, f.cap * sizeof(*f.rec));
		kept_lines(&mt, o->model);
		w->ns_match += tick(s) - t;
		total = o->model->nksyms;
	}
	while (kept && total < o->model->nksyms) {
		size_t use = o->model->nksyms - total;

		if (use > o->read_size)
			use = o->read_size;
		t = tick(s);
		matcher_feed(&mt, o->model->ksyms + total, use);
		w->ns_match += tick(s) - t;
		total += use;
	}
	for (; !kept;) {
		size_t want = kmsg ? KMSG_BUF : o->read_size < ask ? o->read_size : ask;
		ssize_t r;

		if (expired(w, task)) {
			skip_file(s, path, false, "timed out after %llu ms (read %llu bytes)",
				  (unsigned long long)o->timeout_ms,
				  (unsigned long long)total);
			break;
		}
		if (total + want > o->max_size + 1)
			want = o->max_size + 1 - total;
		t = tick(s);
		r = read(fd, w->buf, want);
		w->ns_read += tick(s) - t;
		if (r > 0) {
			size_t use = (size_t)r;

			if ((size_t)r == want && ask < o->read_size)
				ask *= 2;	/* a full read: ask for more */

			if (total + use > o->max_size)
				use = o->max_size - total;
			t = tick(s);
			matcher_feed(&mt, w->buf, use);
			w->ns_match += tick(s) - t;
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
			if (!expired(w, task))
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
	t = tick(s);
	matcher_end(&mt);
	if (statbuf)
		filter_stat(&f, statbuf, statlen);
	w->ns_match += tick(s) - t;
	__atomic_fetch_add(&s->res->bytes, total, __ATOMIC_RELAXED);
	publish(&f, mt.saw_nul ? REC_BINFILE : 0);
out_close:
	t = tick(s);
	close(fd);
	w->ns_open += tick(s) - t;
out:
	end_task(w);
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

static int cmp_found(const void *a, const void *b)
{
	const struct finding_rec *x = a, *y = b;
	int c = x->file == y->file ? 0 : strcmp(x->file, y->file);

	return c ? c : cmp_in_file(x, y);
}

/* Groups by name, a path name's group before its file's. */
static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return cmp_found(x->rec, y->rec);
}

/*
 * The findings of all groups, in order, as one array: the largest group's
 * array (/proc/kallsyms's 40,000 findings in the e2e guest) grown to hold
 * them all, its findings moved to their place and the others copied
 * around them, instead of a copy of everything into new memory (every
 * page of which the kernel must fault in and clear).
 */
static void collect(struct scan *s, struct scan_result *r)
{
	bool merge = false;
	size_t i, n = 0, big = 0, before = 0;

	if (!s->ngroups)
		return;
	qsort(s->groups, s->ngroups, sizeof(*s->groups), cmp_group);
	for (i = 1; i < s->ngroups; i++)
		if (s->groups[i].n > s->groups[big].n)
			big = i;
	for (i = 0; i < big; i++)
		before += s->groups[i].n;
	r->found = xrealloc(s->groups[big].rec, r->nfound * sizeof(*r->found));
	r->capfound = r->nfound;
	memmove(r->found + before, r->found, s->groups[big].n * sizeof(*r->found));
	for (i = 0; i < s->ngroups; i++) {
		struct group *g = &s->groups[i];
		const struct finding_rec *first = i == big ? r->found + n : g->rec;

		/* Two groups of one name and kind (a file under two roots). */
		if (i && !strcmp(g->file, g[-1].file) &&
		    (first->flags & REC_PATH) == (r->found[n - 1].flags & REC_PATH))
			merge = true;
		if (i != big) {
			memcpy(r->found + n, g->rec, g->n * sizeof(*g->rec));
			free(g->rec);
		}
		n += g->n;
	}
	if (merge)
		qsort(r->found, r->nfound, sizeof(*r->found), cmp_found);
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

void scan_result_free(struct scan_result *res)
{
	size_t i;

	for (i = 0; i < res->nnames; i++)
		free(res->names[i]);
	free(res->names);
	for (i = 0; i < res->nskip; i++) {
		free(res->skip[i].file);
		free(res->skip[i].reason);
	}
	free(res->found);
	free(res->skip);
}
