// SPDX-License-Identifier: GPL-2.0
/*
 * One file of the walk (walk.c): opened O_NONBLOCK relative to its
 * directory, read within the time limit (a read that would block ends the
 * file; the watchdog's expiry ends one stuck in open or read) and the size
 * limit, its bytes matched (match.c) and its findings handed to record.c;
 * a path name is matched too.  /proc/kallsyms is matched from the copy
 * the address model read, and /proc/PID/stat's signal sets are dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"
#include "scan/walk.h"

#define STAT_BUF_MAX 65536
/*
 * The first read of a file asks for 1 KiB, and each read that fills its
 * buffer doubles the next, up to --read-size (64 KiB): a read of a
 * /proc/sys file allocates and zeroes a kernel buffer of the size asked
 * for (proc_sys_call_handler), the end-of-file read included, and most
 * files of /proc and /sys are far smaller than 1 KiB.
 */
#define FIRST_READ 1024

/* --debug-list-files: one more path opened for reading, NUL-terminated. */
static void list_file(struct scan *s, const char *path)
{
	pthread_mutex_lock(&s->lock);
	fwrite(path, 1, strlen(path) + 1, s->list);
	pthread_mutex_unlock(&s->lock);
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

/* Is a path name itself an address?  leaking_addresses.pl checks too. */
void check_name(struct worker *w, const char *path, const char *name)
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

/*
 * Read one regular file and match its bytes.  dirfd and oname open it
 * (the directory being walked and the entry's name, or AT_FDCWD and the
 * path of a root); path names it in reports.  Entries below the roots are
 * taken for regular files by their directory entry type (d_type, or
 * fstatat when the file system gives none), as find(1) does, with no
 * fstat after the open; roots are checked after the open.
 */
void scan_file(struct worker *w, int dirfd, const char *oname,
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
