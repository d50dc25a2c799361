// SPDX-License-Identifier: GPL-2.0
/*
 * Who can read each finding of `ptrguard scan`: checked, not guessed.
 *
 * A scan that ran unprivileged (--as-user, or a user without
 * capabilities) read every finding as that user: READ_EVERYONE.  A scan
 * with privileges forks a child that drops them for good (the --as-user
 * machinery: scan_drop_privileges) and scans again, with the same walker,
 * matcher and time limits, just the files that hold findings, as roots;
 * being a fork, it holds the parent's findings, decides each one and sends
 * back one byte a finding (no values to format and parse).  A finding is READ_EVERYONE when the
 * child found the same value in the same file, or (values that change
 * between two reads: timers, counters) a value of the same region on the
 * same line; else READ_ROOT: the user could not open the file, or read
 * something else there (/proc/kallsyms at kptr_restrict=1 shows zeros).
 * A path-name finding is READ_EVERYONE when the user can open its
 * directory.  The scanner's own /proc/PID is read as the child's
 * /proc/self: what every process can read of itself.
 *
 * The model's kallsyms file (the same device and inode as the copy the
 * model read) is not read again whole: the kernel decides once, when the
 * file is opened, whether the opener sees the real values or zeros
 * (kallsyms_show_value() of the opener's credentials, kernel/kallsyms.c),
 * so the child reads the first line where the model read a value other
 * than zero (in the first 4 KiB): the same value there means every value
 * is shown to the user, zero that none is; anything else, and the file is
 * read whole as the others are.  /proc/kallsyms is the largest
 * file of /proc, formatted line by line on every read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"

/* What the child saw in one file. */
struct seen {
	uint64_t *values;	/* sorted */
	size_t nv, capv;
	struct seen_line { unsigned int line; const char *region; } *lines;
	size_t nl, capl;	/* in line order */
	bool dir_ok;		/* path-name findings: the directory opened */
	signed char probe;	/* the kallsyms probe: 1 all seen, 0 none, -1 not probed */
};

/* What the child does with a file that holds findings. */
enum reread { REREAD_NONE, REREAD_WHOLE, REREAD_PROBE };

#define PROBE_BYTES 4096

/*
 * The value of line k (0-based) of a kallsyms text s[0..n): up to 16 hex
 * digits before a ' '; false when that line is not complete in s.
 */
static bool line_value(const unsigned char *s, size_t n, size_t k, uint64_t *v)
{
	const unsigned char *p = s, *end = s + n;
	size_t i;

	for (; k && p < end; k--) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return false;
		p++;
	}
	*v = 0;
	for (i = 0; p + i < end && i < 16; i++) {
		unsigned int c = p[i], d = c - '0';

		if (d > 9)
			d = (c | 0x20) - 'a' < 6 ? (c | 0x20) - 'a' + 10 : 16;
		if (d > 15)
			break;
		*v = *v << 4 | d;
	}
	return i > 0 && p + i < end && p[i] == ' ' && memchr(p, '\n', (size_t)(end - p));
}

/*
 * The line of the first value other than zero in the model's copy of its
 * kallsyms file, within its first PROBE_BYTES (on x86_64 the per-cpu
 * symbols come first: zero, then offsets); false if none.
 */
static bool probe_line(const struct addr_model *m, size_t *k, uint64_t *v)
{
	size_t n = m->nksyms < PROBE_BYTES ? m->nksyms : PROBE_BYTES;

	if (!m->ksyms)
		return false;
	for (*k = 0; line_value(m->ksyms, n, *k, v); ++*k)
		if (*v)
			return true;
	return false;
}

/*
 * The kallsyms probe, as the user: 1 when line k shows want, 0 when it
 * shows zero or the file does not open for the user, -1 otherwise (read
 * it whole).
 */
static int probe_kallsyms(const char *path, size_t k, uint64_t want)
{
	unsigned char buf[PROBE_BYTES];
	size_t len = 0;
	uint64_t v;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return errno == EACCES || errno == EPERM ? 0 : -1;
	while (len < sizeof(buf)) {
		ssize_t r = read(fd, buf + len, sizeof(buf) - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!line_value(buf, len, k, &v))
		return -1;
	return v == want ? 1 : v == 0 ? 0 : -1;
}

/* The path the child opens for file: /proc/OURPID/... becomes /proc/self/... */
static char *child_path(const char *file, pid_t self)
{
	char pre[32];
	int n = snprintf(pre, sizeof(pre), "/proc/%ld/", (long)self);

	if (n > 0 && !strncmp(file, pre, (size_t)n))
		return xasprintf("/proc/self/%s", file + n);
	return xstrdup(file);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(3);
		s += w;
		n -= (size_t)w;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool seen_has(const struct seen *s, const struct finding_rec *f)
{
	size_t lo = 0, hi = s->nl;

	if (f->flags & REC_PATH)
		return s->dir_ok;
	if (s->probe >= 0)
		return s->probe;
	if (s->nv && bsearch(&f->hit.value, s->values, s->nv, sizeof(*s->values), cmp_u64))
		return true;
	if (f->hit.binary || !f->hit.region)
		return false;
	while (lo < hi) {		/* the first of the finding's line */
		size_t mid = lo + (hi - lo) / 2;

		if (s->lines[mid].line < f->hit.line)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nl && s->lines[lo].line == f->hit.line; lo++)
		if (!strcmp(s->lines[lo].region, f->hit.region))
			return true;
	return false;
}

/* The child's own scan of the files, as seen[]. */
static void seen_add(struct seen *seen, char **roots, const size_t *map, size_t nroots,
		     const struct scan_result *r)
{
	const char *last = NULL;
	size_t i, k = 0;

	for (i = 0; i < r->nfound; i++) {
		const struct finding_rec *f = &r->found[i];
		struct seen *s;

		if (f->hit.verdict != ADDR_KERNEL || (f->flags & REC_PATH))
			continue;
		if (f->file != last) {
			for (k = 0; k < nroots && strcmp(roots[k], f->file); k++)
				;
			last = f->file;
		}
		if (k == nroots)
			continue;
		s = &seen[map[k]];
		if (s->nv == s->capv) {
			s->capv = s->capv ? 2 * s->capv : 16;
			s->values = xrealloc(s->values, s->capv * sizeof(*s->values));
		}
		s->values[s->nv++] = f->hit.value;
		if (s->nl == s->capl) {
			s->capl = s->capl ? 2 * s->capl : 16;
			s->lines = xrealloc(s->lines, s->capl * sizeof(*s->lines));
		}
		s->lines[s->nl++] = (struct seen_line){ f->hit.line,
							f->hit.region ? f->hit.region : "" };
	}
	for (i = 0; i < nroots; i++)
		if (seen[map[i]].nv)
			qsort(seen[map[i]].values, seen[map[i]].nv, sizeof(uint64_t), cmp_u64);
}

/*
 * The child: drop privileges, read the files, and decide each of the
 * parent's findings (it has them: a fork; file k's are found[first[k]]
 * to found[first[k + 1] - 1]).  It writes n bytes, one a file: 'a' or
 * 'n' when the kallsyms probe decided all its findings (all seen, none
 * seen), else 'P' (the probe decided its content) or '-'; then, for each
 * 'P' or '-' file in order, one byte a finding, '1' for one the user
 * sees, '0' for one the user does not.  /proc/kallsyms's 40,000 findings
 * are one byte.  Nothing is parsed.  Never returns.
 */
static void child(const struct scan_opts *o, const struct scan_result *res,
		  const size_t *first, char **files, char **dirs,
		  const unsigned char *content, size_t kline, uint64_t kvalue, size_t n,
		  uid_t uid, gid_t gid, int out)
{
	struct addr_model *m = (struct addr_model *)o->model;
	struct scan_opts co = *o;
	struct scan_result r;
	struct seen *seen = calloc(n + 1, sizeof(*seen));
	char **roots = xmalloc((n + 1) * sizeof(*roots));
	char *answer = xmalloc(n + res->nfound + 1);
	size_t i, j, len, nroots = 0, *map = xmalloc((n + 1) * sizeof(*map));

	if (!seen || scan_drop_privileges(uid, gid) < 0)
		_exit(3);
	addr_model_forget(m);	/* its kallsyms bytes were read with privileges */
	co.progress = false;
	co.ignored = false;
	co.block_fifos = false;	/* it opens files O_RDWR */
	co.load_model = NULL;
	co.times = false;
	co.list_files = NULL;
	for (i = 0; i < n; i++) {
		int fd = dirs[i] ? open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

		seen[i].dir_ok = fd >= 0;
		if (fd >= 0)
			close(fd);
		/* a directory's name is no file to read */
		seen[i].probe = (signed char)(content[i] == REREAD_PROBE ?
					      probe_kallsyms(files[i], kline, kvalue) : -1);
		if (content[i] != REREAD_NONE && seen[i].probe < 0) {
			map[nroots] = i;
			roots[nroots++] = files[i];
		}
	}
	if (nroots) {
		if (scan_run(&co, roots, nroots, &r) < 0)
			_exit(3);
		seen_add(seen, roots, map, nroots, &r);
	}
	for (i = 0, len = n; i < n; i++) {
		answer[i] = seen[i].probe >= 0 ? 'P' : '-';
		if (seen[i].probe >= 0 && !dirs[i]) {	/* no path name: all alike */
			answer[i] = seen[i].probe ? 'a' : 'n';
			continue;
		}
		for (j = first[i]; j < first[i + 1]; j++)
			answer[len++] = seen_has(&seen[i], &res->found[j]) ? '1' : '0';
	}
	write_all(out, answer, len);
	_exit(0);
}

/* Read exactly len bytes of the child's answer; false if it failed. */
static bool collect(int in, char *answer, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(in, answer + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got == len;
}

/*
 * Read the child's answer (see child()): its n file bytes, then the
 * bytes of the findings of its 'P' and '-' files; false if it is short
 * or malformed.
 */
static bool read_answer(int in, const size_t *first, size_t n, char *answer)
{
	size_t i, len = n;

	if (!collect(in, answer, n))
		return false;
	for (i = 0; i < n; i++) {
		if (answer[i] != 'a' && answer[i] != 'n' && answer[i] != 'P' && answer[i] != '-')
			return false;
		if (answer[i] == 'P' || answer[i] == '-')
			len += first[i + 1] - first[i];
	}
	return collect(in, answer + n, len - n);
}

/* Every finding's readable from the answer. */
static void apply_answer(struct scan_result *res, const size_t *first, size_t n,
			 const char *answer)
{
	size_t i, j, len = n;

	for (i = 0; i < n; i++) {
		unsigned char all = answer[i] == 'a' ? READ_EVERYONE : READ_ROOT;
		bool each = answer[i] == 'P' || answer[i] == '-';

		for (j = first[i]; j < first[i + 1]; j++) {
			unsigned char r = !each ? all :
				answer[len++] == '1' ? READ_EVERYONE : READ_ROOT;

			if (res->found[j].readable != r)	/* see enum readable_by */
				res->found[j].readable = r;
		}
	}
}

/* Is file the one the model read (same device and inode)? */
static bool is_model_file(const struct addr_model *m, const char *file)
{
	struct stat st;

	return !stat(file, &st) && (uint64_t)st.st_dev == m->ksyms_dev &&
	       (uint64_t)st.st_ino == m->ksyms_ino;
}

static void set_all(struct scan_result *res, enum readable_by how)
{
	size_t i;

	for (i = 0; i < res->nfound; i++)
		res->found[i].readable = (unsigned char)how;
}

void scan_readable(const struct scan_opts *o, struct scan_result *res,
		   bool unprivileged, bool can_switch, uid_t uid, gid_t gid)
{
	static char how[PATH_MAX + 160];
	const struct addr_model *m = o->model;
	char **files = NULL, **dirs = NULL;
	unsigned char *content = NULL;
	uint64_t kvalue = 0;
	size_t kline = 0;
	bool probe = probe_line(m, &kline, &kvalue);
	size_t *first, n = 0, i;
	char *answer;
	const char *last = NULL;
	int pfd[2], status = 0;
	pid_t pid, self = getpid();
	bool ok;

	if (unprivileged || !can_switch) {
		set_all(res, unprivileged ? READ_EVERYONE : READ_UNKNOWN);
		res->readable_how = unprivileged ?
			"readable-by: the scan ran unprivileged, so everyone" :
			"readable-by: unknown (cannot switch to an unprivileged user)";
		return;
	}
	/*
	 * One root a file: the findings are sorted by file, a path name's
	 * group first, so file k's are found[first[k]] to found[first[k + 1] - 1].
	 */
	first = xmalloc(sizeof(*first));
	for (i = 0; i < res->nfound; i++) {
		const struct finding_rec *f = &res->found[i];

		if (!last || (f->file != last && strcmp(f->file, last))) {
			files = xrealloc(files, (n + 1) * sizeof(*files));
			dirs = xrealloc(dirs, (n + 1) * sizeof(*dirs));
			content = xrealloc(content, (n + 1) * sizeof(*content));
			first = xrealloc(first, (n + 2) * sizeof(*first));
			files[n] = child_path(f->file, self);
			dirs[n] = NULL;
			content[n] = REREAD_NONE;
			first[n] = i;
			n++;
			last = f->file;
		}
		if ((f->flags & REC_PATH) && !dirs[n - 1])
			dirs[n - 1] = dir_of(files[n - 1]);
		else if (!(f->flags & REC_PATH) && f->hit.verdict == ADDR_KERNEL &&
			 content[n - 1] == REREAD_NONE)
			content[n - 1] = probe && is_model_file(m, f->file) ?
					 REREAD_PROBE : REREAD_WHOLE;
	}
	first[n] = res->nfound;
	/*
	 * The kept kallsyms text is scanned and its probe line found: drop
	 * the model's lines of it now, so that the fork copies fewer pages.
	 */
	addr_model_forget((struct addr_model *)m);
	answer = xmalloc(n + res->nfound + 1);
	fflush(NULL);
	if (!n || pipe(pfd) < 0) {
		ok = !n;
	} else if ((pid = fork()) < 0) {
		close(pfd[0]);
		close(pfd[1]);
		ok = false;
	} else if (pid == 0) {
		close(pfd[0]);
		child(o, res, first, files, dirs, content, kline, kvalue, n, uid, gid, pfd[1]);
	} else {
		close(pfd[1]);
		ok = read_answer(pfd[0], first, n, answer);
		close(pfd[0]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	if (ok)
		apply_answer(res, first, n, answer);
	else
		set_all(res, READ_UNKNOWN);
	for (i = 0; ok && i < n && answer[i] != 'P' && answer[i] != 'a' && answer[i] != 'n'; i++)
		;
	if (ok && i < n)
		snprintf(how, sizeof(how), "readable-by: checked by reading %zu files again "
			 "as uid %u gid %u (%s: line %zu only, the kernel shows all values or none)",
			 n, (unsigned int)uid, (unsigned int)gid, files[i], kline + 1);
	else if (ok)
		snprintf(how, sizeof(how), "readable-by: checked by reading %zu files again "
			 "as uid %u gid %u", n, (unsigned int)uid, (unsigned int)gid);
	else
		snprintf(how, sizeof(how), "readable-by: unknown (the check as uid %u failed)",
			 (unsigned int)uid);
	res->readable_how = how;
	res->nreadable = n;
	for (i = 0; i < n; i++) {
		free(files[i]);
		free(dirs[i]);
	}
	free(answer);
	free(files);
	free(dirs);
	free(content);
	free(first);
}
