/*
 * e2e-read: read a file the way the e2e guest needs, optionally after
 * dropping every privilege, and say how the read ended.
 *
 *   e2e-read [-u UID] [-b SIZE] [-o OUT] [-r N] FILE
 *   e2e-read -u UID -x PROG [ARG...]
 *
 * -u UID   become UID (gid UID, no supplementary groups) before opening
 *          FILE; that clears every capability, which is checked
 * -b SIZE  read() SIZE bytes at a time (default 4096)
 * -o OUT   write the bytes read to OUT (default: discard them)
 * -r N     open and read FILE N times and print the median time of one
 *          whole read in ns
 * -T MS    time reads for bench/guard-overhead.sh: 5 batches, each of as
 *          many whole reads as fit in MS ms; print the median over the
 *          batches of the mean time per read (the guest's clock may tick
 *          in 4 ms steps: only long batches measure anything)
 * -x       do not read: run PROG with ARGs as UID instead (the e2e guest
 *          runs `ptrguard scan` unprivileged this way)
 *
 * FILE is opened O_RDONLY|O_NONBLOCK after the privilege drop, so it
 * carries the dropped credentials (those %pK and the guard look at).
 * Prints one line:  bytes=N reads=K errno=NAME endnl=yes|no   (NAME 0
 * when the read reached end of file; reads counts the read() calls that
 * returned data; endnl: whether the last byte read was a newline, "no"
 * when nothing was read),
 * or with -r and -T:  runs=N ok=N eperm=N other=N errno=NAME median_ns=N
 * (errno: the last error other than EPERM, or 0).
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
	fprintf(stderr, "usage: %s [-u UID] [-b SIZE] [-o OUT] [-r N | -T MS] FILE\n"
		"       %s -u UID -x PROG [ARG...]\n", prog, prog);
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
static int read_once(const char *path, char *buf, size_t size, int out,
		     long long *bytes, long *reads, char *last)
{
	ssize_t n;
	int fd;

	*bytes = 0;
	*reads = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return errno;
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
	if (n < 0) {
		int err = errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
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

int main(int argc, char **argv)
{
	const char *outpath = NULL;
	long size = 4096, runs = 0, uid = -1, reads, batch_ms = 0;
	long long bytes;
	int opt, out = -1, err, exec = 0;
	char *buf, last = 0;

	while ((opt = getopt(argc, argv, "+u:b:o:r:T:x")) != -1) {
		switch (opt) {
		case 'u': uid = number(optarg, 1); break;
		case 'b': size = number(optarg, 1); break;
		case 'o': outpath = optarg; break;
		case 'r': runs = number(optarg, 1); break;
		case 'T': batch_ms = number(optarg, 1); break;
		case 'x': exec = 1; break;
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
	if (optind != argc - 1)
		usage();
	buf = malloc(size);
	if (!buf)
		die("malloc", NULL);
	if (outpath) {
		out = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0)
			die("cannot create", outpath);
	}
	if (uid >= 0)
		drop_to(uid);

	if (batch_ms) {
		struct tally t = { 0 };
		long long mean[5], end, t0;
		long b, n;

		for (b = 0; b < 5; b++) {
			t0 = now_ns();
			end = t0 + batch_ms * 1000000LL;
			for (n = 0; n == 0 || now_ns() < end; n++)
				tally(&t, read_once(argv[optind], buf, size, -1,
						    &bytes, &reads, &last));
			mean[b] = (now_ns() - t0) / n;
		}
		qsort(mean, 5, sizeof(*mean), cmp_ll);
		return tally_print(&t, mean[2]);
	}

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
