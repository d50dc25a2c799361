// SPDX-License-Identifier: GPL-2.0
/*
 * e2e-read: read a file the way the e2e guest needs, optionally after
 * dropping every privilege, and say how the read ended.
 *
 *   e2e-read [-u UID [-R | -O]] [-b SIZE] [-o OUT] [-r N] FILE
 *   e2e-read -u UID -t [-o OUT] FILE
 *   e2e-read -u UID -x PROG [ARG...]
 *
 * -u UID   become UID (gid UID, no supplementary groups) before opening
 *          FILE; that clears every capability, which is checked
 * -R       with -u: open FILE first, as the caller (root), and become UID
 *          only then, before reading it (the guard takes the opener's
 *          credentials)
 * -O       with -u: open FILE with the effective uid and gid UID (no
 *          effective capabilities), then become root again and read it
 * -t       with -u: open FILE twice in this process with the effective
 *          uid and gid UID (no effective capabilities), back to root in
 *          between; read the first with kernel.seq_ptr_guard at 1, the
 *          second with it at 0 (the sysctl applies to open files at
 *          once), then put the sysctl back.
 *          Prints  on=BYTES off=BYTES errno=NAME same=yes|no guard=present|absent
 *          (OUT.on and OUT.off get the bytes; without the sysctl both
 *          are read as they are)
 * -b SIZE  read() SIZE bytes at a time (default 4096)
 * -o OUT   write the bytes read to OUT (default: discard them)
 * -r N     open and read FILE N times and print the median time of one
 *          whole read in ns
 * -T MS    time reads for bench/guard-overhead.sh in batches of MS ms (as
 *          many whole reads as fit), two batches per pair, -n pairs
 *          (default 50), the two batches of a pair back to back and in
 *          alternating order (ABBA...); print the median over the pairs
 *          of each side's mean time per read, and the median and quartiles
 *          of the per-pair ratio B/A.  Reads run in a child (which drops
 *          to -u UID); the parent stays root to switch modes:
 * -A A,B   with -T: write A, then B, to /proc/sys/kernel/seq_ptr_guard
 *          before each side's batch (default: no switch, both sides alike,
 *          which measures the method's own spread)
 * -n N     with -T: N pairs of batches
 * -x       do not read: run PROG with ARGs as UID instead (the e2e guest
 *          runs `ptrguard scan` unprivileged this way)
 *
 * FILE is opened O_RDONLY|O_NONBLOCK after the privilege drop, so it
 * carries the dropped credentials (those %pK and the guard look at).
 * Prints one line:  bytes=N reads=K errno=NAME endnl=yes|no   (NAME 0
 * when the read reached end of file; reads counts the read() calls that
 * returned data; endnl: whether the last byte read was a newline, "no"
 * when nothing was read),
 * with -r:  runs=N ok=N eperm=N other=N errno=NAME median_ns=N
 * (errno: the last error other than EPERM, or 0),
 * with -T:  runs=N ok=N eperm=N other=N errno=NAME pairs=N a_ns=N b_ns=N
 * ratio=R q1=R q3=R.
 * Exit status: 0 end of file reached, 1 open or read failed, 2 usage or
 * setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "e2e-read";

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s: %s\n", prog, what, arg ? " " : "",
		arg ? arg : "", strerror(errno));
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [-u UID [-R | -O]] [-b SIZE] [-o OUT] [-r N | -T MS] FILE\n"
		"       %s -u UID -t [-o OUT] FILE\n"
		"       %s -u UID -x PROG [ARG...]\n", prog, prog, prog);
	exit(2);
}

static long number(const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min) {
		fprintf(stderr, "%s: %s: not a number >= %ld\n", prog, s, min);
		exit(2);
	}
	return v;
}

static void drop_to(uid_t uid)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		die("cannot drop privileges", NULL);
	if (syscall(SYS_capget, &hdr, data))
		die("capget", NULL);
	if (data[0].effective | data[0].permitted | data[1].effective | data[1].permitted) {
		fprintf(stderr, "%s: capabilities left after setuid(%ld)\n",
			prog, (long)uid);
		exit(2);
	}
}

/* Read @path to the end or to the first error; return errno or 0. */
/* Read @fd to the end or to the first error, then close it; errno or 0. */
static int read_fd_all(int fd, char *buf, size_t size, int out,
		       long long *bytes, long *reads, char *last)
{
	ssize_t n;
	int err = 0;

	*bytes = 0;
	*reads = 0;
	for (;;) {
		n = read(fd, buf, size);
		if (n <= 0)
			break;
		*bytes += n;
		++*reads;
		*last = buf[n - 1];
		if (out >= 0 && write(out, buf, n) != n)
			die("write", NULL);
	}
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

/* Read @path to the end or to the first error; return errno or 0. */
static int read_once(const char *path, char *buf, size_t size, int out,
		     long long *bytes, long *reads, char *last)
{
	int fd;

	*bytes = 0;
	*reads = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return errno;
	return read_fd_all(fd, buf, size, out, bytes, reads, last);
}

static const char *errname(int err)
{
	static char num[16];
	const char *name;

	if (!err)
		return "0";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(num, sizeof(num), "%d", err);
	return num;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* What timed reads ended in, for -r and -T */
struct tally {
	long total, ok, eperm, other;
	int err;		/* the last unexpected errno */
};

static void tally(struct tally *t, int e)
{
	t->total++;
	if (!e)
		t->ok++;
	else if (e == EPERM)
		t->eperm++;
	else {
		t->other++;
		t->err = e;
	}
}

static int tally_print(const struct tally *t, long long median_ns)
{
	printf("runs=%ld ok=%ld eperm=%ld other=%ld errno=%s median_ns=%lld\n",
	       t->total, t->ok, t->eperm, t->other, errname(t->err), median_ns);
	return t->ok == t->total ? 0 : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define GUARD_SYSCTL "/proc/sys/kernel/seq_ptr_guard"

/* One batch of -T, as the reading child reports it to the parent */
struct batch {
	long long ns;		/* mean time per whole read */
	struct tally t;
};

static void run_batch(const char *path, char *buf, long size, long ms,
		      struct batch *b)
{
	long long t0 = now_ns(), end = t0 + ms * 1000000LL, bytes;
	long n, reads;
	char last;

	memset(b, 0, sizeof(*b));
	for (n = 0; n == 0 || now_ns() < end; n++)
		tally(&b->t, read_once(path, buf, size, -1, &bytes, &reads,
				       &last));
	b->ns = (now_ns() - t0) / n;
}

/* The reading child: one batch per byte on @cmd, its result on @res. */
static void reader(int cmd, int res, const char *path, char *buf, long size,
		   long ms)
{
	struct batch b;
	char c;

	while (read(cmd, &c, 1) == 1) {
		run_batch(path, buf, size, ms, &b);
		if (write(res, &b, sizeof(b)) != (ssize_t)sizeof(b))
			_exit(2);
	}
	_exit(0);
}

static void set_mode(int fd, const char *mode)
{
	ssize_t len = strlen(mode);

	if (pwrite(fd, mode, len, 0) != len)
		die("cannot write " GUARD_SYSCTL ":", mode);
}

/* One batch in the child, under @mode (NULL: leave the mode alone). */
static void batch(int fd, const char *mode, int cmd, int res, struct batch *b)
{
	size_t got = 0;
	ssize_t n;

	if (mode)
		set_mode(fd, mode);
	if (write(cmd, "r", 1) != 1)
		die("write to the reading child", NULL);
	while (got < sizeof(*b)) {
		n = read(res, (char *)b + got, sizeof(*b) - got);
		if (n <= 0) {
			fprintf(stderr, "%s: the reading child died\n", prog);
			exit(2);
		}
		got += n;
	}
}

static long long median_ll(long long *v, long n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[n / 2];
}

/*
 * -T: @pairs pairs of batches, side A then B or B then A in turn, so that
 * neither side always runs first; modes switched by this (root) process
 * between batches, reads made by a child with @uid's credentials.
 */
static int bench(const char *path, char *buf, long size, long uid, long ms,
		 long pairs, char *modes)
{
	long long *ns[2] = { calloc(pairs, sizeof(long long)),
			     calloc(pairs, sizeof(long long)) };
	double *ratio = calloc(pairs, sizeof(double));
	char *mode[2] = { NULL, NULL };
	int cmd[2], res[2], fd = -1, status;
	struct tally t = { 0 };
	struct batch b;
	pid_t pid;
	long i, k;

	if (!ns[0] || !ns[1] || !ratio)
		die("calloc", NULL);
	if (modes) {
		mode[0] = modes;
		mode[1] = strchr(modes, ',');
		if (!mode[1] || mode[1] == modes || !mode[1][1])
			usage();
		*mode[1]++ = '\0';
		fd = open(GUARD_SYSCTL, O_WRONLY);
		if (fd < 0)
			die("cannot open", GUARD_SYSCTL);
	}
	if (pipe(cmd) || pipe(res))
		die("pipe", NULL);
	pid = fork();
	if (pid < 0)
		die("fork", NULL);
	if (!pid) {
		close(cmd[1]);
		close(res[0]);
		if (fd >= 0)
			close(fd);
		if (uid >= 0)
			drop_to(uid);
		reader(cmd[0], res[1], path, buf, size, ms);
	}
	close(cmd[0]);
	close(res[1]);

	for (i = 0; i < pairs; i++) {
		for (k = 0; k < 2; k++) {
			long side = k ^ (i & 1);

			batch(fd, mode[side], cmd[1], res[0], &b);
			ns[side][i] = b.ns;
			t.total += b.t.total;
			t.ok += b.t.ok;
			t.eperm += b.t.eperm;
			t.other += b.t.other;
			if (b.t.err)
				t.err = b.t.err;
		}
		ratio[i] = (double)ns[1][i] / ns[0][i];
	}
	close(cmd[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "%s: the reading child failed\n", prog);
		exit(2);
	}
	if (fd >= 0) {
		set_mode(fd, mode[0]);
		close(fd);
	}

	qsort(ratio, pairs, sizeof(*ratio), cmp_double);
	printf("runs=%ld ok=%ld eperm=%ld other=%ld errno=%s pairs=%ld a_ns=%lld b_ns=%lld ratio=%.4f q1=%.4f q3=%.4f\n",
	       t.total, t.ok, t.eperm, t.other, errname(t.err), pairs,
	       median_ll(ns[0], pairs), median_ll(ns[1], pairs),
	       ratio[pairs / 2], ratio[pairs / 4], ratio[3 * pairs / 4]);
	return t.ok == t.total ? 0 : 1;
}

/* -t: become euid/egid @uid (effective capabilities cleared), or root. */
static void set_euid(long uid)
{
	if (uid) {
		if (setresgid(-1, uid, -1) || setresuid(-1, uid, -1))
			die("cannot set the effective uid", NULL);
	} else if (setresuid(-1, 0, -1) || setresgid(-1, 0, -1)) {
		die("cannot get root back", NULL);
	}
}

/* Open @path with the effective uid @uid, then become root again. */
static int open_as(const char *path, long uid)
{
	int fd, err;

	set_euid(uid);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	err = errno;
	set_euid(0);
	errno = err;
	return fd;
}

/* Read @fd to its end into @buf; errno, EFBIG when @size is too small. */
static int read_fd(int fd, char *buf, size_t size, size_t *len)
{
	ssize_t n;

	*len = 0;
	while ((n = read(fd, buf + *len, size - *len)) > 0) {
		*len += n;
		if (*len == size)
			return EFBIG;
	}
	return n < 0 ? errno : 0;
}

static void save(const char *out, const char *sfx, const char *buf, size_t len)
{
	char path[4096];
	int fd;

	if (!out)
		return;
	snprintf(path, sizeof(path), "%s.%s", out, sfx);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		die("cannot write", path);
	close(fd);
}

static int twice(const char *path, long uid, const char *out)
{
	static char on[8 << 20], off[8 << 20];
	char old[16] = "";
	size_t on_len = 0, off_len = 0;
	int guard, fd_on, fd_off, err;
	ssize_t n;

	/* both buffers touched before the opens: the reads map nothing new */
	memset(on, 0, sizeof(on));
	memset(off, 0, sizeof(off));
	guard = open(GUARD_SYSCTL, O_RDWR);
	if (guard >= 0) {
		n = pread(guard, old, sizeof(old) - 1, 0);
		if (n <= 0)
			die("cannot read", GUARD_SYSCTL);
		old[n] = '\0';
		set_mode(guard, "1");
	}
	fd_on = open_as(path, uid);
	if (fd_on < 0)
		die("cannot open", path);
	fd_off = open_as(path, uid);
	if (fd_off < 0)
		die("cannot open", path);
	err = read_fd(fd_on, on, sizeof(on), &on_len);
	if (guard >= 0)
		set_mode(guard, "0");
	if (!err)
		err = read_fd(fd_off, off, sizeof(off), &off_len);
	if (guard >= 0) {
		set_mode(guard, old);
		close(guard);
	}
	save(out, "on", on, on_len);
	save(out, "off", off, off_len);
	printf("on=%zu off=%zu errno=%s same=%s guard=%s\n", on_len, off_len,
	       errname(err), on_len == off_len && !memcmp(on, off, on_len) ? "yes" : "no",
	       guard >= 0 ? "present" : "absent");
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *outpath = NULL;
	long size = 4096, runs = 0, uid = -1, reads, batch_ms = 0, pairs = 50;
	long long bytes;
	int opt, out = -1, err, exec = 0, open_first = 0, open_as_uid = 0, two = 0, fd;
	char *buf, *modes = NULL, last = 0;

	while ((opt = getopt(argc, argv, "+u:b:o:r:T:A:n:xROt")) != -1) {
		switch (opt) {
		case 'u': uid = number(optarg, 1); break;
		case 'b': size = number(optarg, 1); break;
		case 'o': outpath = optarg; break;
		case 'r': runs = number(optarg, 1); break;
		case 'T': batch_ms = number(optarg, 1); break;
		case 'A': modes = optarg; break;
		case 'n': pairs = number(optarg, 1); break;
		case 'x': exec = 1; break;
		case 'R': open_first = 1; break;
		case 'O': open_as_uid = 1; break;
		case 't': two = 1; break;
		default: usage();
		}
	}
	if (exec) {
		if (uid < 0 || optind >= argc)
			usage();
		drop_to(uid);
		execvp(argv[optind], argv + optind);
		die("cannot run", argv[optind]);
	}
	if (optind != argc - 1 || ((open_first || open_as_uid || two) && uid < 0) ||
	    open_first + open_as_uid + two > 1)
		usage();
	if (two)
		return twice(argv[optind], uid, outpath);
	buf = malloc(size);
	if (!buf)
		die("malloc", NULL);
	if (outpath) {
		out = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0)
			die("cannot create", outpath);
	}
	if (batch_ms)
		return bench(argv[optind], buf, size, uid, batch_ms, pairs, modes);
	if (open_first || open_as_uid) {
		/*
		 * opened as root and read as UID, or opened as UID and read as
		 * root (read_once() would reopen)
		 */
		if (runs)
			usage();
		if (open_first) {
			fd = open(argv[optind], O_RDONLY | O_NONBLOCK);
			drop_to(uid);
		} else {
			fd = open_as(argv[optind], uid);
		}
		err = fd < 0 ? errno : read_fd_all(fd, buf, size, out, &bytes,
						   &reads, &last);
		if (fd < 0)
			bytes = reads = 0;
		printf("bytes=%lld reads=%ld errno=%s endnl=%s\n", bytes, reads,
		       errname(err), last == '\n' ? "yes" : "no");
		return err ? 1 : 0;
	}
	if (uid >= 0)
		drop_to(uid);

	if (runs) {
		struct tally t = { 0 };
		long long *ns = calloc(runs, sizeof(*ns));
		long i;

		if (!ns)
			die("calloc", NULL);
		for (i = 0; i < runs; i++) {
			long long t0 = now_ns();

			tally(&t, read_once(argv[optind], buf, size, -1, &bytes,
					    &reads, &last));
			ns[i] = now_ns() - t0;
		}
		qsort(ns, runs, sizeof(*ns), cmp_ll);
		return tally_print(&t, ns[runs / 2]);
	}

	err = read_once(argv[optind], buf, size, out, &bytes, &reads, &last);
	printf("bytes=%lld reads=%ld errno=%s endnl=%s\n", bytes, reads,
	       errname(err), last == '\n' ? "yes" : "no");
	return err ? 1 : 0;
}
