// SPDX-License-Identifier: GPL-2.0
/*
 * e2e-oracle: make the kernel print values this process chooses through
 * real /proc files, and say what each read showed of them.  This is what
 * an unprivileged attacker would do to ask the guard "is this value mapped
 * kernel memory?"; the e2e guest runs it as root and as uid 1000 (through
 * `e2e-read -u 1000 -x`) and check.awk wants the same verdict for mapped
 * and unmapped values of one address window.
 *
 *   e2e-oracle CLASS=HEX...
 *
 * For each value, through each way ("via"):
 *   syscall  /proc/CHILD/syscall of a child of ours blocked in read(2) on
 *            an empty pipe, with the value in the 4th argument register
 *            (read(2) ignores it; the file prints all six arguments with
 *            0x%llx).  Not the buffer argument: read(2) checks access_ok()
 *            before it blocks, so a kernel address there fails at once.
 *   px, lx, udec, sdec  /proc/ptrguard_e2e/oracle (the test module): write
 *            "VIA HEX" to an open file, read the record back
 * prints one line per value and via:
 *   class=CLASS via=VIA verdict=shown|censored|refused|other
 * shown: the value's exact text; censored: the same text with every
 * digit '0' (a "0x" prefix and a '-' sign kept); refused: the read failed
 * with EPERM; other: anything else (then an "INFO oracle_other=" line with
 * what was read follows).  The value itself is never printed on a verdict
 * line: the lines of two boots with different KASLR layouts compare equal.
 * Exit status 0, 2 on a setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ORACLE "/proc/ptrguard_e2e/oracle"

static void die(const char *what)
{
	fprintf(stderr, "e2e-oracle: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Read all of @path into @buf (NUL-terminated); return 0 or the errno of
 * the failed open or read (what was read before it stays in @buf).
 */
/* Read @fd to its end (or @size - 1 bytes) as a string; 0 or an errno. */
static int read_all(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;
	int err = 0;

	while (n + 1 < size) {
		r = read(fd, buf + n, size - 1 - n);
		if (r < 0) {
			err = errno;
			break;
		}
		if (r == 0)
			break;
		n += r;
	}
	buf[n] = '\0';
	return err;
}

static int slurp(const char *path, char *buf, size_t size)
{
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	err = read_all(fd, buf, size);
	close(fd);
	return err;
}

/* What the text of a censored @shown is: digits '0', "0x" and '-' kept. */
static void censor(const char *shown, char *out)
{
	size_t i = 0;

	if (shown[0] == '-' || (shown[0] == '0' && shown[1] == 'x')) {
		out[0] = shown[0];
		if (shown[0] == '0')
			out[1] = shown[1];
		i = shown[0] == '-' ? 1 : 2;
	}
	for (; shown[i]; i++)
		out[i] = '0';
	out[i] = '\0';
}

static void verdict(const char *class, const char *via, int err,
		    const char *got, const char *shown, const char *raw)
{
	char cens[64];
	const char *v;

	censor(shown, cens);
	if (err == EPERM)
		v = "refused";
	else if (err)
		v = "other";
	else if (!strcmp(got, shown))
		v = "shown";
	else if (!strcmp(got, cens))
		v = "censored";
	else
		v = "other";
	printf("class=%s via=%s verdict=%s\n", class, via, v);
	if (!strcmp(v, "other"))
		printf("INFO oracle_other=%s/%s errno=%d read=%s\n", class, via,
		       err, raw);
	fflush(stdout);
}

/* The 4th word of a /proc/PID/syscall line: "NR A0 A1 A2 A3 A4 A5 SP PC" */
static void field(const char *line, int k, char *out, size_t size)
{
	const char *p = line;
	size_t n;

	while (k-- > 0 && p) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p) {
		out[0] = '\0';
		return;
	}
	n = strcspn(p, " \n");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

static void via_syscall(const char *class, unsigned long long val)
{
	char path[64], buf[512], got[64], shown[64], nr[16], c;
	int pfd[2], sync[2], err = 0, tries;
	pid_t pid;

	if (pipe(pfd) || pipe(sync))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(sync[0]);
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		/* blocks: nothing is ever written to the pipe */
		syscall(SYS_read, pfd[0], &c, 1UL, val, 0UL, 0UL);
		_exit(0);
	}
	close(sync[1]);
	if (read(sync[0], &c, 1) != 1)
		die("child");
	close(sync[0]);
	snprintf(shown, sizeof(shown), "0x%llx", val);
	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	snprintf(nr, sizeof(nr), "%d ", SYS_read);
	for (tries = 0; tries < 500; tries++) {
		/* "NR " (read's) once it sleeps in it; "running" or another
		 * call before */
		err = slurp(path, buf, sizeof(buf));
		if (err || !strncmp(buf, nr, strlen(nr)))
			break;
		nap(10);
	}
	field(buf, 4, got, sizeof(got));
	buf[strcspn(buf, "\n")] = '\0';
	verdict(class, "syscall", err, got, shown, buf);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(pfd[0]);
	close(pfd[1]);
}

static void via_module(const char *class, const char *via, unsigned long long val)
{
	char buf[256], cmd[64], got[64], shown[64];
	const char *eq;
	int fd, err;

	fd = open(ORACLE, O_RDWR);
	if (fd < 0) {
		verdict(class, via, errno, "", "-", "open");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s %llx\n", via, val);
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd)) {
		verdict(class, via, errno ? errno : EIO, "", "-", "write");
		close(fd);
		return;
	}
	err = read_all(fd, buf, sizeof(buf));
	close(fd);
	buf[strcspn(buf, "\n")] = '\0';
	if (!strcmp(via, "px"))
		snprintf(shown, sizeof(shown), "%016llx", val);
	else if (!strcmp(via, "lx"))
		snprintf(shown, sizeof(shown), "%llx", val);
	else if (!strcmp(via, "udec"))
		snprintf(shown, sizeof(shown), "%llu", val);
	else
		snprintf(shown, sizeof(shown), "%lld", (long long)val);
	/* the record is "VIA=TEXT" */
	eq = strchr(buf, '=');
	snprintf(got, sizeof(got), "%s", eq ? eq + 1 : "");
	verdict(class, via, err, got, shown, buf);
}

int main(int argc, char **argv)
{
	static const char *const vias[] = { "px", "lx", "udec", "sdec" };
	unsigned long long val;
	char class[64], *eq, *end;
	size_t v;
	int i;

	/* a process that changed its uid is not dumpable: /proc/PID/syscall
	 * of its children would be root's */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= sizeof(class)) {
			fprintf(stderr, "e2e-oracle: %s: want CLASS=HEX\n", argv[i]);
			return 2;
		}
		memcpy(class, argv[i], eq - argv[i]);
		class[eq - argv[i]] = '\0';
		errno = 0;
		val = strtoull(eq + 1, &end, 16);
		if (errno || *end || end == eq + 1) {
			fprintf(stderr, "e2e-oracle: %s: not a hex value\n", argv[i]);
			return 2;
		}
		via_syscall(class, val);
		for (v = 0; v < sizeof(vias) / sizeof(vias[0]); v++)
			via_module(class, vias[v], val);
	}
	return 0;
}
