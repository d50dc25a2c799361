// SPDX-License-Identifier: GPL-2.0
/*
 * Can an unprivileged reader see a kernel address?
 *
 * One kernel address in a world-readable file defeats KASLR for every
 * local user.  This test reads, as user nobody, the text files where they
 * tend to turn up (/proc/kallsyms, /proc/modules, /proc/timer_list,
 * /proc/net/ and debugfs when mounted) and the files and directories
 * named on the command line, and fails each file that shows one.
 *
 * With CONFIG_SEQ_PTR_GUARD, kernel.seq_ptr_guard=2 (the default) shows
 * such a reader zeros in place of the address, which passes; with 3, the
 * read fails with EPERM at that record, which passes as long as what the
 * read delivered before it holds no address.
 *
 * A kernel address is a value in the kernel half of the address space:
 * at or above -2^n for an n-bit user half (x86_64: 47 or 56 bits, arm64:
 * VA_BITS), n found by asking mmap() where a page can go.  Error pointers,
 * all-ones masks and the x86_64 vsyscall page are none.  In text, such a
 * value is a word of 16 hex digits, with or without 0x (%px, %lx), of 20
 * decimal digits (%lu), or of 10 to 17 after a minus sign (%ld).
 *
 * Run it as root: a child that drops to nobody for good does the reading.
 *
 * The test is skipped (KSFT_SKIP, one "ok 1 # SKIP" line saying why) on a
 * kernel without the guard (no /proc/sys/kernel/seq_ptr_guard), and where
 * the kernel shows addresses to every reader by design: at kptr_restrict 0
 * with perf_event_paranoid at most 1, kallsyms_show_value() is true for
 * nobody too, /proc/kallsyms lists real addresses, and the guard, which
 * asks the same question, lets them through.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

#define NOBODY		65534
#define MAX_DEPTH	8		/* directory levels below a path given */
#define MAX_BYTES	(64 << 20)	/* read of one file, at most */
#define ERR_LO		0xfffffffffffff001ULL	/* -MAX_ERRNO */

static const char *const default_paths[] = {
	"/proc/kallsyms",
	"/proc/modules",
	"/proc/timer_list",
	"/proc/net",
	"/sys/kernel/debug",
};

/* A file to read, or a path that could not be walked (err != 0). */
struct item {
	char *path;
	int err;
};

static struct item *items;
static size_t nitems;
static uint64_t kernel_half;

/*
 * The lowest kernel address, -2^n for the highest n at which this process
 * can map a page at 2^(n-1); 0 when no such n is found.
 */
static uint64_t find_kernel_half(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned int bits;

	for (bits = 57; bits >= 32; bits--) {
		void *want = (void *)(1UL << (bits - 1));
		void *p = mmap(want, pg, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (p == MAP_FAILED) {
			if (errno == EEXIST)
				return -(1ULL << bits);
			continue;
		}
		munmap(p, pg);
		if (p == want)	/* not a kernel that took the flag for a hint */
			return -(1ULL << bits);
	}
	return 0;
}

static bool kernel_address(uint64_t v)
{
	if (v < kernel_half || v >= ERR_LO)
		return false;
	/* masks: ones then zeros, or ones with at most two bits clear */
	if (!(~v & (~v + 1)) || __builtin_popcountll(~v) <= 2)
		return false;
#ifdef __x86_64__
	/* the vsyscall page, a fixed address of the ABI: start and end */
	if (v >= 0xffffffffff600000ULL && v <= 0xffffffffff601000ULL)
		return false;
#endif
	return true;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * Whether word w[0..n) is a kernel address as %px, %lx or %lu print one,
 * or, after a minus sign (neg), as %ld does: 10 to 17 digits, at least
 * 2^32 below zero (smaller negatives are ordinary ints).
 */
static bool address_word(const char *w, size_t n, bool neg, uint64_t *v)
{
	bool dec = neg || n == 20;
	const char *digits = dec ? "0123456789" : "0123456789abcdef";
	unsigned int base = dec ? 10 : 16;
	size_t i;

	if (!neg && n == 18 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
		w += 2;
		n = 16;
	}
	if (neg ? n < 10 || n > 17 : n != 16 && n != 20)
		return false;
	*v = 0;
	for (i = 0; i < n; i++) {
		const char *d = strchr(digits, tolower((unsigned char)w[i]));

		if (!d || !*d || *v > (UINT64_MAX - (d - digits)) / base)
			return false;
		*v = *v * base + (d - digits);
	}
	if (neg) {
		if (*v < 1ULL << 32)
			return false;
		*v = -*v;
	}
	return kernel_address(*v);
}

/* The offset of the first kernel address in buf[0..n), or -1. */
static long find_address(const char *buf, size_t n, uint64_t *v)
{
	size_t i = 0, start;
	bool neg;

	while (i < n) {
		if (!word_char(buf[i])) {
			i++;
			continue;
		}
		start = i;
		while (i < n && word_char(buf[i]))
			i++;
		neg = start && buf[start - 1] == '-' &&
		      (start == 1 || !word_char(buf[start - 2]));
		if (address_word(buf + start, i - start, neg, v))
			return start - neg;
	}
	return -1;
}

static void add_item(const char *path, int err)
{
	items = realloc(items, (nitems + 1) * sizeof(*items));
	if (!items)
		ksft_exit_fail_msg("out of memory\n");
	items[nitems].path = strdup(path);
	items[nitems].err = err;
	if (!items[nitems].path)
		ksft_exit_fail_msg("out of memory\n");
	nitems++;
}

/* The regular files below dir, without following symlinks. */
static void walk(const char *dir, int depth)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d) {
		add_item(dir, errno);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st))
			continue;	/* gone since readdir */
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
			walk(path, depth + 1);
		else if (S_ISREG(st.st_mode))
			add_item(path, 0);
	}
	closedir(d);
}

static void collect(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		add_item(path, errno);
	else if (S_ISDIR(st.st_mode))
		walk(path, 0);
	else
		add_item(path, 0);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct item *)a)->path,
		      ((const struct item *)b)->path);
}

/*
 * Read what this process may of path; *err is 0 at the end of the file,
 * else the errno that ended the read.  NULL when it cannot be opened.
 * Non-blocking, so that /proc/kmsg and pipes cannot hang the test.
 */
static char *read_file(const char *path, size_t *len, int *err)
{
	size_t cap = 1 << 16;
	char *buf, *p;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	*err = errno;
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	*len = 0;
	*err = 0;
	while (buf && *len < MAX_BYTES) {
		if (cap - *len < 1 << 16) {
			cap *= 2;
			p = realloc(buf, cap);
			if (!p)
				break;
			buf = p;
		}
		r = read(fd, buf + *len, 1 << 16);
		if (r > 0) {
			*len += r;
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else {
			if (r < 0 && errno != EAGAIN)
				*err = errno;
			break;
		}
	}
	close(fd);
	if (!buf)
		ksft_exit_fail_msg("out of memory reading %s\n", path);
	return buf;
}

static void check(const struct item *it)
{
	const char *line, *eol;
	uint64_t v;
	size_t len;
	long at;
	char *buf;
	int err = it->err, n;

	if (err) {
		ksft_test_result_skip("%s: %s\n", it->path, strerror(err));
		return;
	}
	buf = read_file(it->path, &len, &err);
	if (!buf) {
		ksft_test_result_skip("%s: %s\n", it->path, strerror(err));
		return;
	}
	at = find_address(buf, len, &v);
	if (at >= 0) {
		line = buf + at;
		while (line > buf && line[-1] != '\n')
			line--;
		eol = memchr(line, '\n', len - (line - buf));
		n = (eol ? eol : buf + len) - line;
		ksft_print_msg("%s: %.*s\n", it->path, n > 200 ? 200 : n, line);
		ksft_test_result_fail("%s: kernel address %016llx at byte %ld\n",
				      it->path, (unsigned long long)v, at);
	} else if (err == EPERM) {
		ksft_test_result_pass("%s: no kernel address, refused after %zu bytes\n",
				      it->path, len);
	} else if (err) {
		ksft_test_result_skip("%s: no kernel address in %zu bytes, then %s\n",
				      it->path, len, strerror(err));
	} else {
		ksft_test_result_pass("%s: no kernel address in %zu bytes\n",
				      it->path, len);
	}
	free(buf);
}

/* _text from /proc/kallsyms as root reads it: 0 when hidden or absent. */
static uint64_t kallsyms_text(void)
{
	unsigned long long v;
	char name[128], type;
	uint64_t text = 0;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return 0;
	while (fscanf(f, "%llx %c %127s%*[^\n]", &v, &type, name) == 3) {
		if (!strcmp(name, "_text")) {
			text = v;
			break;
		}
	}
	fclose(f);
	return text;
}

/* The first line of a sysctl file, or "absent". */
static const char *read_setting(const char *path, char *buf, int size)
{
	FILE *f = fopen(path, "re");

	if (!f || !fgets(buf, size, f))
		snprintf(buf, size, "absent\n");
	if (f)
		fclose(f);
	return buf;
}

/* The integer in a sysctl file, or def when it cannot be read. */
static int read_int(const char *path, int def)
{
	char buf[32];

	if (strcmp(read_setting(path, buf, sizeof(buf)), "absent\n"))
		return atoi(buf);
	return def;
}

/* The kernel shows addresses to every reader: nothing to judge. */
static const char shown_to_all[] =
	"kallsyms_show_value() is true for anyone: kptr_restrict 0, perf_event_paranoid <= 1";

/* Nothing to test: a plan of one test, skipped with the reason. */
static void skip_all(const char *reason)
{
	ksft_print_header();
	ksft_set_plan(1);
	ksft_test_result_skip("%s\n", reason);
	ksft_print_cnts();
	exit(KSFT_SKIP);
}

static void drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		ksft_exit_fail_msg("dropping to uid %d: %s\n", NOBODY,
				   strerror(errno));
	if (!setresuid(0, 0, 0))
		ksft_exit_fail_msg("uid 0 is still reachable after the drop\n");
}

int main(int argc, char **argv)
{
	char guard[32], kptr[32];
	uint64_t text;
	size_t i;
	pid_t pid;
	int status;

	if (sizeof(long) != 8)
		skip_all("kernel address model for 64-bit only");
	if (access("/proc/self/stat", R_OK))
		skip_all("/proc is not mounted");
	if (access("/proc/sys/kernel/seq_ptr_guard", F_OK))
		skip_all("no /proc/sys/kernel/seq_ptr_guard: this kernel has no seq_ptr_guard");
	if (geteuid())
		skip_all("run as root: the test drops to uid 65534 (nobody) itself");
	if (read_int("/proc/sys/kernel/kptr_restrict", 1) == 0 &&
	    read_int("/proc/sys/kernel/perf_event_paranoid", 2) <= 1)
		skip_all(shown_to_all);
	kernel_half = find_kernel_half();
	text = kallsyms_text();
	read_setting("/proc/sys/kernel/seq_ptr_guard", guard, sizeof(guard));
	read_setting("/proc/sys/kernel/kptr_restrict", kptr, sizeof(kptr));

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid) {
		if (waitpid(pid, &status, 0) != pid)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		ksft_exit_fail_msg("reader killed by signal %d\n",
				   WTERMSIG(status));
	}

	ksft_print_header();
	drop_privileges();
	ksft_print_msg("kernel.seq_ptr_guard: %s", guard);
	ksft_print_msg("kernel.kptr_restrict: %s", kptr);
	if (!kernel_half)
		ksft_exit_fail_msg("no user address space size found with mmap()\n");
	ksft_print_msg("reading as uid %d; kernel addresses: >= 0x%016llx\n",
		       NOBODY, (unsigned long long)kernel_half);

	for (i = 0; i < ARRAY_SIZE(default_paths); i++) {
		struct stat st, up;

		/* debugfs only when mounted: an empty mount point tells nothing */
		if (!strcmp(default_paths[i], "/sys/kernel/debug") &&
		    (stat("/sys/kernel/debug", &st) || stat("/sys/kernel", &up) ||
		     st.st_dev == up.st_dev))
			continue;
		collect(default_paths[i]);
	}
	for (i = 1; i < (size_t)argc; i++)
		collect(argv[i]);
	qsort(items, nitems, sizeof(*items), by_path);

	ksft_set_plan(nitems + 1);
	/* The model itself: root's view of _text must be a kernel address. */
	if (!text)
		ksft_test_result_skip("address model: _text hidden from root\n");
	else
		ksft_test_result(kernel_address(text),
				 "address model: _text %016llx is a kernel address\n",
				 (unsigned long long)text);
	for (i = 0; i < nitems; i++)
		check(&items[i]);
	ksft_finished();
}
