// SPDX-License-Identifier: GPL-2.0
/*
 * cocci: run the cocci/ rules with spatch and collect their records.
 *
 * The work is split in four steps, each a small function below:
 *
 *  1. ask spatch for each rule's "Grep query" (spatch --parse-cocci), which
 *     also checks that the rule parses;
 *  2. walk the paths and keep the files that satisfy a query: the same
 *     prefilter spatch applies before parsing a file, done once in C so
 *     that no spatch process reads a file that cannot match; with
 *     opts->prefilter, also drop those holding no format conversion the
 *     rule reports (prefilter.c);
 *  3. run spatch on the candidates, split in groups over opts->jobs
 *     processes, each writing to its own temporary files, with
 *     --verbose-parsing so that its stderr says which files had lines it
 *     could not parse ("badcount: N" after "HANDLING: FILE");
 *  4. parse the "F" and "C" records (docs/design.md), sort, deduplicate.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cocci.h"
#include "prefilter.h"
#include "ptrguard.h"
#include "vocab.h"

/* ---------------------------------------------------------------- memory */

#define GROW(arr, nr, alloc) do {					\
	if ((nr) >= (alloc)) {						\
		(alloc) = (alloc) ? 2 * (alloc) : 16;			\
		(arr) = xrealloc((arr), (alloc) * sizeof(*(arr)));	\
	}								\
} while (0)

struct strvec {
	char **v;
	size_t nr, alloc;
};

static void strvec_push(struct strvec *sv, char *s)
{
	GROW(sv->v, sv->nr + 1, sv->alloc);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

static void strvec_clear(struct strvec *sv)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

/* ------------------------------------------------------- root and rules */

static int is_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	int ok = !stat(p, &st) && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

/*
 * An absolute, lexically normalised form of @path (".", ".." and "//"
 * resolved without following symbolic links, so that paths inside a tree
 * of symlinks, like the gate's shadow trees, stay inside it).
 */
static char *abspath(const char *path)
{
	char cwd[PATH_MAX], *full, *out, *seg, *save = NULL;
	size_t n = 0;

	if (path[0] == '/') {
		full = xstrdup(path);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return NULL;
		full = xasprintf("%s/%s", cwd, path);
	}
	out = xrealloc(NULL, strlen(full) + 2);
	for (seg = strtok_r(full, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..")) {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
			continue;
		}
		out[n++] = '/';
		memcpy(out + n, seg, strlen(seg));
		n += strlen(seg);
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	free(full);
	return out;
}

char *cocci_find_root_quiet(const char *path)
{
	struct stat st;
	char *dir, *slash;

	if (stat(path, &st) < 0)
		return NULL;
	dir = abspath(path);
	if (!dir)
		return NULL;
	if (!S_ISDIR(st.st_mode)) {
		slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
	}
	for (;;) {
		if (is_file(dir, "Makefile") && is_file(dir, "Kconfig") &&
		    is_file(dir, "MAINTAINERS"))
			return dir;
		if (!strcmp(dir, "/"))
			break;
		slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
	}
	free(dir);
	return NULL;
}

char *cocci_find_root(const char *path)
{
	struct stat st;
	char *dir;

	if (stat(path, &st) < 0) {
		error("%s: %s", path, strerror(errno));
		return NULL;
	}
	dir = cocci_find_root_quiet(path);
	if (!dir)
		error("%s: not inside a kernel tree (no directory above it holds Makefile, Kconfig and MAINTAINERS; use --tree DIR)",
		      path);
	return dir;
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

char *cocci_rules_dir(void)
{
	char exe[PATH_MAX];
	char *cand, *slash;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0) {
		error("/proc/self/exe: %s (use --rules DIR)", strerror(errno));
		return NULL;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	/* build/ptrguard -> build/cocci (made by make); bin/ptrguard -> ../share/ptrguard/cocci */
	cand = xasprintf("%s/cocci", exe);
	if (is_dir(cand))
		return cand;
	free(cand);
	cand = xasprintf("%s/../share/ptrguard/cocci", exe);
	if (is_dir(cand))
		return cand;
	error("no rules directory next to %s (looked for cocci and ../share/ptrguard/cocci; use --rules DIR)",
	      exe);
	free(cand);
	return NULL;
}

/* ------------------------------------------------------- grep queries */

/*
 * A rule's prefilter, as spatch prints it after "Grep query": identifiers
 * combined with "||", "&&" and parentheses.  A file is a candidate when
 * the expression holds, an identifier being true when it occurs in the
 * file as a whole word.
 */
struct query {
	char *text;		/* NULL: the rule has no query */
};

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int has_word(const char *buf, size_t len, const char *w, size_t wlen)
{
	const char *p = buf, *end = buf + len;

	while ((p = memmem(p, (size_t)(end - p), w, wlen))) {
		if ((p == buf || !word_char(p[-1])) &&
		    (p + wlen == end || !word_char(p[wlen])))
			return 1;
		p++;
	}
	return 0;
}

/* Recursive descent over the query text: or := and ('||' and)*, and := atom ('&&' atom)* */
struct qeval {
	const char *s;
	const char *buf;
	size_t len;
	int bad;
};

static void qskip(struct qeval *q)
{
	while (isspace((unsigned char)*q->s))
		q->s++;
}

static int q_or(struct qeval *q);

static int q_atom(struct qeval *q)
{
	const char *start;
	int v;

	qskip(q);
	if (*q->s == '(') {
		q->s++;
		v = q_or(q);
		qskip(q);
		if (*q->s != ')')
			q->bad = 1;
		else
			q->s++;
		return v;
	}
	start = q->s;
	while (word_char(*q->s))
		q->s++;
	if (q->s == start) {
		q->bad = 1;
		return 1;
	}
	return has_word(q->buf, q->len, start, (size_t)(q->s - start));
}

static int q_and(struct qeval *q)
{
	int v = q_atom(q);

	for (;;) {
		qskip(q);
		if (q->s[0] != '&' || q->s[1] != '&')
			return v;
		q->s += 2;
		v = q_atom(q) && v;
	}
}

static int q_or(struct qeval *q)
{
	int v = q_and(q);

	for (;;) {
		qskip(q);
		if (q->s[0] != '|' || q->s[1] != '|')
			return v;
		q->s += 2;
		v = q_and(q) || v;
	}
}

/* 1 if the file may match, 0 if not, -1 if the query does not parse. */
static int query_match(const struct query *qr, const char *buf, size_t len)
{
	struct qeval q = { qr->text, buf, len, 0 };
	int v;

	if (!qr->text)
		return 1;	/* opts->no_query */
	v = q_or(&q);

	qskip(&q);
	if (q.bad || *q.s)
		return -1;
	return v;
}

/* ---------------------------------------------------------- processes */

struct rule {
	char *path;		/* absolute */
	char *name;		/* basename */
	struct strvec options;	/* from its "// Options:" line */
	struct query query;
	int headers;		/* --include-headers: also .h files */
	enum pf_rule kind;	/* for prefilter_keep() */
};

/* Does the rule read the headers a file includes (--all-includes)? */
static int rule_reads_headers(const struct rule *r)
{
	size_t i;

	for (i = 0; i < r->options.nr; i++)
		if (!strcmp(r->options.v[i], "--all-includes") ||
		    !strcmp(r->options.v[i], "--recursive-includes"))
			return 1;
	return 0;
}

static const char *spatch_prog(const struct cocci_opts *opts)
{
	const char *s = opts->spatch;

	if (!s || !*s)
		s = getenv("SPATCH");
	return s && *s ? s : "spatch";
}

/* Is @prog runnable (a path, or found in $PATH)? */
static int find_program(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *cand;
	int ok = 0;

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	if (!path)
		return 0;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !ok;
	     dir = strtok_r(NULL, ":", &save)) {
		cand = xasprintf("%s/%s", *dir ? dir : ".", prog);
		ok = !access(cand, X_OK) && !is_dir(cand);
		free(cand);
	}
	free(copy);
	return ok;
}

struct proc {
	pid_t pid;
	char *out, *err;	/* temporary files */
	size_t group;		/* index of the group it runs */
	off_t seen;		/* bytes of err read for progress */
	size_t handled;		/* "HANDLING: " lines seen in them */
	char last;		/* the last byte read */
};

/* Start argv in @cwd with stdout and stderr to the named files. */
static pid_t spawn(char **argv, const char *cwd, const char *out, const char *err)
{
	pid_t pid, parent = getpid();
	int fd;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error("fork: %s", strerror(errno));
		return -1;
	}
	if (pid)
		return pid;
	/* die with us: a killed audit or gate leaves no spatch behind */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || dup2(fd, 1) < 0)
		_exit(126);
	close(fd);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || dup2(fd, 2) < 0)
		_exit(126);
	close(fd);
	if (cwd && chdir(cwd) < 0)
		_exit(126);
	execvp(argv[0], argv);
	_exit(127);
}

/* The last non-empty line of a file, for error messages. */
static char *last_line(const char *path)
{
	size_t len;
	char *buf = read_file(path, SIZE_MAX, &len), *end, *start, *line;

	if (!buf)
		return xstrdup("(no output)");
	end = buf + len;
	while (end > buf && isspace((unsigned char)end[-1]))
		end--;
	start = end;
	while (start > buf && start[-1] != '\n')
		start--;
	line = start == end ? xstrdup("(no output)") :
		xstrndup(start, (size_t)(end - start));
	free(buf);
	return line;
}

/* The file named by the last "HANDLING: " line of spatch's stderr, or NULL. */
static char *last_handled(const char *path)
{
	size_t len;
	char *buf = read_file(path, SIZE_MAX, &len), *p, *found = NULL;

	if (!buf)
		return NULL;
	for (p = buf; (p = strstr(p, "HANDLING: ")); p += 10)
		if (p == buf || p[-1] == '\n')
			found = p + 10;
	if (found)
		found = xstrndup(found, strcspn(found, "\n"));
	free(buf);
	return found;
}

/* Describe how a child ended; NULL if it exited 0. */
static char *exit_status(int status)
{
	if (WIFSIGNALED(status))
		return xasprintf("killed by signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
	if (WIFEXITED(status) && WEXITSTATUS(status))
		return xasprintf("exited with status %d", WEXITSTATUS(status));
	return NULL;
}

static int wait_for(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			error("waitpid: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------- rules */

static const char *mode_flag(const struct cocci_opts *opts)
{
	return opts->patch_out ? "patch" : "ptrguard";
}

static void rule_free(struct rule *r)
{
	free(r->path);
	free(r->name);
	strvec_clear(&r->options);
	free(r->query.text);
}

/* Read the "// Options:" line of a rule, as scripts/coccicheck does. */
static int rule_read_options(struct rule *r)
{
	size_t len, i;
	char *buf = read_file(r->path, SIZE_MAX, &len), *line, *opt, *save = NULL, *nl;

	if (!buf) {
		error("%s: %s", r->path, strerror(errno));
		return -1;
	}
	for (line = buf; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strncmp(line, "// Options:", 11))
			continue;
		for (opt = strtok_r(line + 11, " \t", &save); opt;
		     opt = strtok_r(NULL, " \t", &save))
			strvec_push(&r->options, xstrdup(opt));
	}
	free(buf);
	for (i = 0; i < r->options.nr; i++)
		if (!strcmp(r->options.v[i], "--include-headers"))
			r->headers = 1;
	return 0;
}

/*
 * Ask spatch for the rule's grep query.  This parses the rule, so a broken
 * rule is reported here, before any file is read.
 */
static int rule_query(const struct cocci_opts *opts, struct rule *r,
		      const char *tmpdir)
{
	char *out = xasprintf("%s/query.out", tmpdir);
	char *err = xasprintf("%s/query.err", tmpdir);
	/*
	 * The query of the records mode, in patch mode too: patch mode only
	 * rewrites calls that the records mode reports, and its own query
	 * can be weaker (rules matching any call, filtered in Python).
	 */
	char *argv[] = { (char *)spatch_prog(opts), "-D", "ptrguard",
			 "--parse-cocci", r->path, NULL };
	char *buf = NULL, *p, *why, *line;
	size_t len;
	int status, ret = -1;
	pid_t pid;

	pid = spawn(argv, NULL, out, err);
	if (pid < 0 || wait_for(pid, &status) < 0)
		goto out;
	why = exit_status(status);
	if (why) {
		line = last_line(err);
		error("%s: spatch cannot parse the rule (%s): %s", r->path, why, line);
		free(line);
		free(why);
		goto out;
	}
	buf = read_file(out, SIZE_MAX, &len);
	if (!buf) {
		error("%s: %s", out, strerror(errno));
		goto out;
	}
	p = strstr(buf, "\nGrep query\n");
	if (!p) {
		error("%s: spatch found no grep query in the rule: it would parse every file (%s)",
		      r->path, strstr(buf, "No grep query") ? "No grep query" :
		      "no \"Grep query\" line in spatch --parse-cocci");
		goto out;
	}
	p += strlen("\nGrep query\n");
	r->query.text = xstrndup(p, strcspn(p, "\n"));
	if (query_match(&r->query, "", 0) < 0) {
		error("%s: cannot read spatch's grep query '%s'", r->path, r->query.text);
		goto out;
	}
	ret = 0;
out:
	free(buf);
	unlink(out);
	unlink(err);
	free(out);
	free(err);
	return ret;
}

static int rules_load(const struct cocci_opts *opts, const char *tmpdir,
		      struct rule *rules, size_t *nrules)
{
	static const char * const names[] = { "seq_px.cocci", "seq_int_cast.cocci" };
	size_t i, n = opts->casts ? 2 : 1;
	char *path;

	*nrules = 0;
	for (i = 0; i < n; i++) {
		struct rule *r = &rules[*nrules];

		memset(r, 0, sizeof(*r));
		path = xasprintf("%s/%s", opts->rules_dir, names[i]);
		if (access(path, R_OK) < 0 || !(r->path = realpath(path, NULL))) {
			error("%s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
		r->name = xstrdup(names[i]);
		r->kind = prefilter_rule(names[i]);
		(*nrules)++;
		if (rule_read_options(r) < 0 ||
		    (!opts->no_query && rule_query(opts, r, tmpdir) < 0))
			return -1;
	}
	return 0;
}

/* --------------------------------------------------------- file lists */

struct cand {
	char *file;		/* relative to the root */
	size_t size;
	unsigned int rules;	/* bit i: rule i may match */
};

struct walk {
	const char *root;	/* absolute */
	size_t rootlen;
	struct rule *rules;
	size_t nrules;
	struct cand *cands;
	size_t ncands, alloc;
	size_t nscanned;
	size_t nquery;		/* files satisfying a grep query */
	int headers;		/* some rule wants .h files */
	int prefilter;		/* opts->prefilter */
	/*
	 * Files no rule can match that hold a format a wrapper could print
	 * (a %px, or a %p before v4.15): for the lexical model alone.
	 */
	struct strvec lexonly;
};

static int wanted_name(const char *name, int headers)
{
	size_t n = strlen(name);

	return n > 2 && name[n - 2] == '.' &&
		(name[n - 1] == 'c' || (headers && name[n - 1] == 'h'));
}

/* Prefilter one file: @abs is absolute, @rel relative to the root. */
static int walk_file(struct walk *w, const char *abs, const char *rel)
{
	unsigned int mask = 0;
	size_t len, i;
	char *buf;
	int m;

	buf = read_file(abs, SIZE_MAX, &len);
	if (!buf) {
		error("%s: cannot read: %s", rel,
		      errno == EINVAL ? "not a regular file" : strerror(errno));
		return -1;
	}
	w->nscanned++;
	for (i = 0; i < w->nrules; i++) {
		if (!w->rules[i].headers && rel[strlen(rel) - 1] == 'h')
			continue;
		m = query_match(&w->rules[i].query, buf, len);
		if (m)
			mask |= 1u << i;
	}
	if (mask)
		w->nquery++;
	if (mask && w->prefilter) {
		unsigned int bits = prefilter_scan(buf, len);

		for (i = 0; i < w->nrules; i++)
			if ((mask & (1u << i)) && !prefilter_keep(w->rules[i].kind, bits, abs))
				mask &= ~(1u << i);
	} else if (!mask && memmem(buf, len, "%p", 2) &&
		   prefilter_keep(PF_RULE_PX, prefilter_scan(buf, len), abs)) {
		strvec_push(&w->lexonly, xstrdup(rel));
	}
	free(buf);
	if (!mask)
		return 0;
	GROW(w->cands, w->ncands, w->alloc);
	w->cands[w->ncands].file = xstrdup(rel);
	w->cands[w->ncands].size = len;
	w->cands[w->ncands].rules = mask;
	w->ncands++;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * Walk a directory.  Symbolic links to directories are not followed (as
 * find(1) under spatch --dir does not), nor are hidden directories (.git,
 * .pc); symbolic links to files are read.
 */
static int walk_dir(struct walk *w, const char *abs)
{
	struct strvec names = { 0 };
	struct dirent *de;
	struct stat st;
	char *path;
	DIR *d;
	size_t i;
	int ret = 0;

	d = opendir(abs);
	if (!d) {
		error("%s: cannot read directory: %s",
		      abs[w->rootlen] ? abs + w->rootlen + 1 : ".", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			strvec_push(&names, xstrdup(de->d_name));
	closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), name_cmp);
	for (i = 0; i < names.nr && !ret; i++) {
		path = xasprintf("%s/%s", abs, names.v[i]);
		if (lstat(path, &st) < 0) {
			error("%s: %s", path + w->rootlen + 1, strerror(errno));
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk_dir(w, path);
		} else if (wanted_name(names.v[i], w->headers)) {
			ret = walk_file(w, path, path + w->rootlen + 1);
		}
		free(path);
	}
	strvec_clear(&names);
	return ret;
}

static int walk_path(struct walk *w, const char *path)
{
	char *abs = abspath(path);
	struct stat st;
	int ret;

	if (!abs) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	if (strncmp(abs, w->root, w->rootlen) ||
	    (abs[w->rootlen] && abs[w->rootlen] != '/')) {
		error("%s: not under the tree root %s", path, w->root);
		free(abs);
		return -1;
	}
	if (stat(abs, &st) < 0) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	} else if (S_ISDIR(st.st_mode)) {
		ret = walk_dir(w, abs);
	} else if (!wanted_name(abs, 1)) {
		error("%s: not a C source or header file", path);
		ret = -1;
	} else {
		ret = walk_file(w, abs, abs + w->rootlen + 1);
	}
	free(abs);
	return ret;
}

static int cand_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cand *)a)->file, ((const struct cand *)b)->file);
}

/* ------------------------------------------------------------ records */

struct collect {
	struct cocci_result *res;
	size_t falloc, calloc, ualloc, salloc;
};

/* Undo the record escapes (\\, \t, \n) in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

static int split_tabs(char *line, char **field, int max)
{
	int n = 0;

	field[n++] = line;
	for (; *line; line++) {
		if (*line != '\t')
			continue;
		*line = '\0';
		if (n == max)
			return -1;
		field[n++] = line + 1;
	}
	return n;
}

static int parse_uint(const char *s, unsigned int *v)
{
	char *end;
	unsigned long n;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > UINT_MAX)
		return -1;
	*v = (unsigned int)n;
	return 0;
}

/* A record's file name, made relative to the root. */
static char *rel_file(const char *root, const char *file)
{
	size_t n = strlen(root);

	if (!strncmp(file, root, n) && file[n] == '/')
		file += n + 1;
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	return xstrdup(file);
}

static int parse_record(struct collect *c, const char *root, char *line,
			const char *rule)
{
	struct cocci_result *res = c->res;
	char *copy = xstrdup(line), *f[10];
	unsigned int ln, col;
	int n, i;

	n = split_tabs(line, f, 10);
	if (n == 10 && !strcmp(f[0], "F") && !parse_uint(f[2], &ln) &&
	    !parse_uint(f[3], &col) && ln) {
		struct finding *fd;

		GROW(res->findings, res->nfindings, c->falloc);
		fd = &res->findings[res->nfindings++];
		for (i = 1; i < 10; i++)
			unescape(f[i]);
		fd->file = rel_file(root, f[1]);
		fd->line = ln;
		fd->column = col + 1;
		fd->cls = xstrdup(f[4]);
		fd->conversion = xstrdup(f[5]);
		fd->function = xstrdup(f[6]);
		fd->format = xstrdup(f[7]);
		fd->arg = xstrdup(f[8]);
		fd->message = xstrdup(f[9]);
		fd->lexical = 0;
	} else if (n == 5 && !strcmp(f[0], "C") && !parse_uint(f[2], &ln) && ln) {
		struct cocci_call *cl;

		GROW(res->calls, res->ncalls, c->calloc);
		cl = &res->calls[res->ncalls++];
		for (i = 1; i < 5; i++)
			unescape(f[i]);
		cl->file = rel_file(root, f[1]);
		cl->line = ln;
		cl->function = xstrdup(f[3]);
		cl->format = xstrdup(f[4]);
	} else {
		error("%s: malformed record from spatch: '%s'", rule, copy);
		free(copy);
		return -1;
	}
	free(copy);
	return 0;
}

static int parse_records(struct collect *c, const char *root, const char *out,
			 const char *rule)
{
	size_t len;
	char *buf = read_file(out, SIZE_MAX, &len), *line, *nl;
	int ret = 0;

	if (!buf) {
		error("%s: %s", out, strerror(errno));
		return -1;
	}
	for (line = buf; *line && !ret; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (*line)
			ret = parse_record(c, root, line, rule);
	}
	free(buf);
	return ret;
}

/*
 * The bad lines of one file in one parse: summed over the parse errors of
 * the "HANDLING:" section, then merged with the other sections (a header
 * is parsed once per file including it) by keeping the largest count.
 */
struct section {
	char **file;
	unsigned int *lines;
	size_t nr, alloc;
};

static void section_add(struct section *sec, char *file, unsigned int n)
{
	size_t i;

	for (i = 0; i < sec->nr; i++) {
		if (!strcmp(sec->file[i], file)) {
			sec->lines[i] += n;
			return;
		}
	}
	if (sec->nr >= sec->alloc) {
		sec->alloc = sec->alloc ? 2 * sec->alloc : 8;
		sec->file = xrealloc(sec->file, sec->alloc * sizeof(*sec->file));
		sec->lines = xrealloc(sec->lines, sec->alloc * sizeof(*sec->lines));
	}
	sec->file[sec->nr] = file;
	sec->lines[sec->nr++] = n;
}

static void section_flush(struct collect *c, const char *root, struct section *sec)
{
	struct cocci_result *res = c->res;
	size_t i, k;
	char *rel;

	for (i = 0; i < sec->nr; i++) {
		rel = rel_file(root, sec->file[i]);
		for (k = 0; k < res->nunparsed && strcmp(res->unparsed[k], rel); k++)
			;
		if (k == res->nunparsed) {
			GROW(res->unparsed, res->nunparsed, c->ualloc);
			res->unparsed_lines = xrealloc(res->unparsed_lines,
						       c->ualloc * sizeof(*res->unparsed_lines));
			res->unparsed[k] = rel;
			res->unparsed_lines[k] = 0;
			res->nunparsed++;
		} else {
			free(rel);
		}
		if (sec->lines[i] > res->unparsed_lines[k])
			res->unparsed_lines[k] = sec->lines[i];
	}
	sec->nr = 0;
}

/*
 * Where a block of skipped lines lies in @path: the lines spatch printed
 * ("bad: " each, "BAD:!!!!! " for the one with the error) are consecutive
 * lines of the file.  Of the places where they all match, the one that
 * puts the error line at @err_line (when the error is in this file), else
 * the one ending nearest @hint (the line where spatch found its footing
 * again).  0, or -1 if they match nowhere.
 */
static int locate_skip(const char *path, char **text, size_t n, size_t bad, unsigned int err_line,
		       unsigned int hint, unsigned int *first)
{
	size_t len, nl = 0, i, k;
	char *buf = read_file(path, SIZE_MAX, &len), *p, **lines = NULL;
	unsigned int best = 0, dist = ~0u, d;

	if (!buf || !n)
		goto out;
	for (p = buf; p < buf + len;) {
		char *e = memchr(p, '\n', (size_t)(buf + len - p));

		lines = xrealloc(lines, (nl + 1) * sizeof(*lines));
		lines[nl++] = p;
		if (!e)
			break;
		*e = '\0';
		if (e > p && e[-1] == '\r')
			e[-1] = '\0';
		p = e + 1;
	}
	for (i = 0; i + n <= nl; i++) {
		for (k = 0; k < n && !strcmp(lines[i + k], text[k]); k++)
			;
		if (k < n)
			continue;
		if (err_line && bad < n) {
			d = (unsigned int)(i + bad + 1) == err_line ? 0 : ~0u - 1;
		} else {
			unsigned int end = (unsigned int)(i + n);

			d = end > hint ? end - hint : hint - end;
		}
		if (d < dist) {
			dist = d;
			best = (unsigned int)i + 1;
		}
	}
out:
	free(lines);
	free(buf);
	if (!best)
		return -1;
	*first = best;
	return 0;
}

static void add_skip(struct collect *c, char *rel, unsigned int first, unsigned int last)
{
	struct cocci_result *res = c->res;

	GROW(res->skips, res->nskips, c->salloc);
	res->skips[res->nskips].file = rel;
	res->skips[res->nskips].first = first;
	res->skips[res->nskips].last = last;
	res->nskips++;
}

/* One block of "bad:" lines has ended: place it in its file. */
static void skip_flush(struct collect *c, const char *root, const char *file, char **text,
		       size_t n, size_t bad, unsigned int err_line, unsigned int hint, int headers)
{
	char *path, *rel;
	unsigned int first;

	if (!file || !n)
		return;
	rel = rel_file(root, file);
	path = file[0] == '/' ? xstrdup(file) : xasprintf("%s/%s", root, file);
	if (!locate_skip(path, text, n, bad, err_line, hint, &first))
		add_skip(c, rel, first, first + (unsigned int)n - 1);
	else if (!headers)
		/* not found again: the whole file counts as skipped */
		add_skip(c, rel, 1, ~0u);
	else
		/*
		 * With --all-includes, lines of a forced include (kconfig.h)
		 * are put on the file being handled: they are not its lines.
		 */
		free(rel);
	free(path);
}

/*
 * Read spatch's --verbose-parsing stderr.  "HANDLING: FILE" starts a file;
 * each "badcount: N" counts N lines spatch could not parse.  They belong
 * to the file named by the " = File \"F\", line L" line of the parse error
 * before them when F is in the tree (a header read for types, with
 * --all-includes), else (no such line, or F is spatch's own macro file
 * standard.h) to the file being handled.  The "bad:" lines after the
 * count are the skipped lines themselves, which skip_flush() places.
 */
static void parse_badcounts(struct collect *c, const char *root, const char *err,
			    int headers)
{
	struct section sec = { 0 };
	size_t len, nbad = 0, bad = 0, balloc = 0;
	char *buf = read_file(err, SIZE_MAX, &len), *line, *nl, *handling = NULL;
	char *pending = NULL, *q, *owner = NULL, **text = NULL;
	unsigned int n, err_line = 0, hint = 0, owner_err = 0;

	if (!buf)
		return;
	for (line = buf; *line; line = nl + 1) {
		int badline = !strncmp(line, "bad: ", 5) || !strncmp(line, "bad:", 4) ||
			!strncmp(line, "BAD:!!!!! ", 10);

		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (owner && badline) {
			if (line[0] == 'B')
				bad = nbad;
			GROW(text, nbad, balloc);
			text[nbad++] = line[0] == 'B' ? line + 10 : line[4] == ' ' ? line + 5 : line + 4;
			continue;
		}
		if (owner) {
			skip_flush(c, root, owner, text, nbad, bad, owner_err, hint, headers);
			owner = NULL;
		}
		if (!strncmp(line, "HANDLING: ", 10)) {
			section_flush(c, root, &sec);
			/* a group of several files has spaces: not ours */
			handling = strchr(line + 10, ' ') ? NULL : line + 10;
			pending = NULL;
			err_line = 0;
		} else if (!strncmp(line, " = File \"", 9)) {
			pending = line + 9;
			q = strchr(pending, '"');
			err_line = 0;
			if (q) {
				*q = '\0';
				if (!strncmp(q + 1, ", line ", 7))
					err_line = (unsigned int)strtoul(q + 8, NULL, 10);
			}
			if (pending[0] == '/' && strncmp(pending, root, strlen(root)))
				pending = NULL;	/* outside the tree: standard.h */
		} else if (!strncmp(line, "ERROR-RECOV: found sync", 23) && (q = strstr(line, "line "))) {
			hint = (unsigned int)strtoul(q + 5, NULL, 10);
		} else if (!strncmp(line, "badcount: ", 10) && !parse_uint(line + 10, &n)) {
			if (pending || handling) {
				section_add(&sec, pending ? pending : handling, n);
				owner = pending ? pending : handling;
				owner_err = pending ? err_line : 0;
				nbad = 0;
				bad = (size_t)-1;
			}
			pending = NULL;
		}
	}
	if (owner)
		skip_flush(c, root, owner, text, nbad, bad, owner_err, hint, headers);
	section_flush(c, root, &sec);
	free(text);
	free(sec.file);
	free(sec.lines);
	free(buf);
}

/* Drop the files whose every line parsed, sort the rest, merge duplicates. */
static void finish_unparsed(struct cocci_result *res)
{
	size_t i, j, k, n = 0;
	char *tf;
	unsigned int tl;

	for (i = 0; i < res->nunparsed; i++) {
		if (res->unparsed_lines[i]) {
			res->unparsed[n] = res->unparsed[i];
			res->unparsed_lines[n++] = res->unparsed_lines[i];
		} else {
			free(res->unparsed[i]);
		}
	}
	res->nunparsed = n;
	/* insertion sort: a few hundred entries at most */
	for (i = 1; i < n; i++) {
		tf = res->unparsed[i];
		tl = res->unparsed_lines[i];
		for (j = i; j > 0 && strcmp(res->unparsed[j - 1], tf) > 0; j--) {
			res->unparsed[j] = res->unparsed[j - 1];
			res->unparsed_lines[j] = res->unparsed_lines[j - 1];
		}
		res->unparsed[j] = tf;
		res->unparsed_lines[j] = tl;
	}
	/* the same file parsed by two rules: keep the larger count */
	for (i = 0, k = 0; i < n; i++) {
		if (k && !strcmp(res->unparsed[k - 1], res->unparsed[i])) {
			if (res->unparsed_lines[i] > res->unparsed_lines[k - 1])
				res->unparsed_lines[k - 1] = res->unparsed_lines[i];
			free(res->unparsed[i]);
			continue;
		}
		res->unparsed[k] = res->unparsed[i];
		res->unparsed_lines[k++] = res->unparsed_lines[i];
	}
	res->nunparsed = k;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int finding_cmp(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;
	int c;

	if ((c = cmp_str(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	if ((c = cmp_str(a->cls, b->cls)))
		return c;
	if ((c = cmp_str(a->conversion, b->conversion)))
		return c;
	if ((c = cmp_str(a->arg, b->arg)))
		return c;
	return cmp_str(a->message, b->message);
}

/* Duplicates: the same conversion at the same place, with the same class. */
static int finding_same(const struct finding *a, const struct finding *b)
{
	return !cmp_str(a->file, b->file) && a->line == b->line &&
		a->column == b->column && !cmp_str(a->cls, b->cls) &&
		!cmp_str(a->conversion, b->conversion);
}

static void finding_free(struct finding *f)
{
	free(f->file);
	free(f->cls);
	free(f->conversion);
	free(f->function);
	free(f->format);
	free(f->arg);
	free(f->message);
}

static int call_cmp(const void *pa, const void *pb)
{
	const struct cocci_call *a = pa, *b = pb;
	int c;

	if ((c = cmp_str(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return cmp_str(a->format, b->format);
}

static void call_free(struct cocci_call *c)
{
	free(c->file);
	free(c->function);
	free(c->format);
}

static int skip_cmp(const void *pa, const void *pb)
{
	const struct cocci_skip *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Sort the skipped regions; merge those that overlap (two rules, two parses). */
static void finish_skips(struct cocci_result *res)
{
	size_t i, n = 0;

	if (res->nskips)
		qsort(res->skips, res->nskips, sizeof(*res->skips), skip_cmp);
	for (i = 0; i < res->nskips; i++) {
		struct cocci_skip *p = n ? &res->skips[n - 1] : NULL, *q = &res->skips[i];

		if (p && !strcmp(p->file, q->file) && q->first <= p->last + 1 && p->last != ~0u) {
			if (q->last > p->last)
				p->last = q->last;
			free(q->file);
			continue;
		}
		res->skips[n++] = *q;
	}
	res->nskips = n;
}

static void finish_records(struct cocci_result *res)
{
	size_t i, n;

	if (res->nfindings)
		qsort(res->findings, res->nfindings, sizeof(*res->findings), finding_cmp);
	for (i = 0, n = 0; i < res->nfindings; i++) {
		if (n && finding_same(&res->findings[n - 1], &res->findings[i])) {
			finding_free(&res->findings[i]);
			continue;
		}
		res->findings[n++] = res->findings[i];
	}
	res->nfindings = n;
	if (res->ncalls)
		qsort(res->calls, res->ncalls, sizeof(*res->calls), call_cmp);
	for (i = 0, n = 0; i < res->ncalls; i++) {
		if (n && !call_cmp(&res->calls[n - 1], &res->calls[i])) {
			call_free(&res->calls[i]);
			continue;
		}
		res->calls[n++] = res->calls[i];
	}
	res->ncalls = n;
	finish_unparsed(res);
	finish_skips(res);
}

/* --------------------------------------------------------- patch mode */

struct diff_part {
	char *file;
	char *text;
};

/*
 * Split spatch's diff output into per-file parts ("diff -u -p a/F b/F"
 * headers), so that the parts of several processes come out sorted.
 */
static int collect_diff(struct diff_part **parts, size_t *nparts, size_t *alloc,
			const char *out)
{
	size_t len;
	char *buf = read_file(out, SIZE_MAX, &len), *p, *next, *name, *end;

	if (!buf) {
		error("%s: %s", out, strerror(errno));
		return -1;
	}
	p = buf;
	while (*p) {
		next = strstr(p, "\ndiff ");
		end = next ? next + 1 : buf + len;
		name = p;
		if (!strncmp(p, "diff ", 5)) {
			name = strstr(p, " b/");
			name = name ? name + 3 : p + 5;
		}
		GROW(*parts, *nparts, *alloc);
		(*parts)[*nparts].file = xstrndup(name, strcspn(name, " \n"));
		(*parts)[*nparts].text = xstrndup(p, (size_t)(end - p));
		(*nparts)++;
		p = end;
	}
	free(buf);
	return 0;
}

static int part_cmp(const void *pa, const void *pb)
{
	const struct diff_part *a = pa, *b = pb;

	return strcmp(a->file, b->file);
}

/* ----------------------------------------------------------- scheduling */

struct group {
	size_t rule;
	struct strvec files;
	size_t size;		/* bytes, for balancing */
	char *list;		/* --file-groups file */
};

static int group_size_cmp(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;

	return a->size < b->size ? 1 : a->size > b->size ? -1 : 0;
}

static int cand_size_cmp(const void *pa, const void *pb)
{
	const struct cand *a = *(const struct cand * const *)pa;
	const struct cand *b = *(const struct cand * const *)pb;

	if (a->size != b->size)
		return a->size < b->size ? 1 : -1;
	return strcmp(a->file, b->file);
}

/*
 * Split each rule's candidates into groups of about equal size (largest
 * file first into the smallest group), a few per job so that a slow group
 * does not leave a job idle for long, but few enough that spatch's
 * start-up (about half a second) stays small.
 */
static void make_groups(struct walk *w, unsigned int jobs, struct group **out,
			size_t *nout)
{
	struct group *g = NULL;
	struct cand **sorted;
	size_t ng = 0, r, i, n, k, per, best;

	sorted = xrealloc(NULL, (w->ncands + 1) * sizeof(*sorted));
	for (r = 0; r < w->nrules; r++) {
		for (i = 0, n = 0; i < w->ncands; i++)
			if (w->cands[i].rules & (1u << r))
				sorted[n++] = &w->cands[i];
		if (!n)
			continue;
		qsort(sorted, n, sizeof(*sorted), cand_size_cmp);
		per = (size_t)jobs * 3;
		if (per > (n + 19) / 20)
			per = (n + 19) / 20;	/* at least ~20 files a group */
		if (!per)
			per = 1;
		g = xrealloc(g, (ng + per) * sizeof(*g));
		memset(g + ng, 0, per * sizeof(*g));
		for (k = 0; k < per; k++)
			g[ng + k].rule = r;
		for (i = 0; i < n; i++) {
			best = ng;
			for (k = ng + 1; k < ng + per; k++)
				if (g[k].size < g[best].size)
					best = k;
			strvec_push(&g[best].files, xstrdup(sorted[i]->file));
			g[best].size += sorted[i]->size + 4096;
		}
		ng += per;
	}
	free(sorted);
	if (ng)
		qsort(g, ng, sizeof(*g), group_size_cmp);
	*out = g;
	*nout = ng;
}

static void progress(const struct cocci_opts *opts, size_t done, size_t total,
		     size_t files_done, size_t files_total)
{
	static size_t last_done = (size_t)-1, last_files = (size_t)-1;

	if (!opts->progress || (done == last_done && files_done == last_files))
		return;
	last_done = done;
	last_files = files_done;
	fprintf(stderr, "\rptrguard: spatch: %zu/%zu files (%zu/%zu groups)%s",
		files_done, files_total, done, total, done == total ? "\n" : "");
	fflush(stderr);
}

/*
 * Reap one of our spatch processes without blocking (and without reaping
 * children that are not ours).  Returns its index, @jobs if none ended,
 * or -1 after an error.
 */
static unsigned int reap(struct proc *procs, unsigned int jobs, int *status)
{
	unsigned int j;
	pid_t r;

	for (j = 0; j < jobs; j++) {
		if (procs[j].pid <= 0)
			continue;
		r = waitpid(procs[j].pid, status, WNOHANG);
		if (r == procs[j].pid)
			return j;
		if (r < 0 && errno != EINTR) {
			error("waitpid: %s", strerror(errno));
			return (unsigned int)-1;
		}
	}
	return jobs;
}

/* How many files the process has started, from the new part of its stderr. */
static size_t count_handled(struct proc *p)
{
	char buf[65536], *q;
	ssize_t n;
	int fd = open(p->err, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return p->handled;
	while ((n = pread(fd, buf, sizeof(buf) - 1, p->seen)) > 0) {
		buf[n] = '\0';
		/* a line start: after a newline, here or at the end of the last read */
		for (q = buf; (q = memmem(q, (size_t)(buf + n - q), "HANDLING: ", 10)); q++)
			if (q == buf ? (p->seen == 0 || p->last == '\n') : q[-1] == '\n')
				p->handled++;
		p->last = buf[n - 1];
		p->seen += n;
	}
	close(fd);
	return p->handled;
}

static void kill_all(struct proc *procs, unsigned int jobs)
{
	unsigned int j;
	int status;

	for (j = 0; j < jobs; j++) {
		if (procs[j].pid <= 0)
			continue;
		kill(procs[j].pid, SIGTERM);
		wait_for(procs[j].pid, &status);
		procs[j].pid = 0;
	}
}

/* The tree's include path and forced includes, as kbuild passes them. */
const char *const cocci_include_dirs[] = {
	"arch/x86/include", "arch/x86/include/generated", "include",
	"arch/x86/include/uapi", "arch/x86/include/generated/uapi",
	"include/uapi", "include/generated/uapi", NULL,
};
const char cocci_macro_file[] = "ptrguard-macros.h";

const char *const cocci_forced_includes[] = {
	"include/linux/compiler-version.h", "include/linux/kconfig.h", NULL,
};

/* Build a spatch command line for one group. */
static void group_argv(const struct cocci_opts *opts, const char *root,
		       const struct rule *r, const struct group *g, struct strvec *av)
{
	size_t i;

	strvec_push(av, xstrdup(spatch_prog(opts)));
	strvec_push(av, xstrdup("-D"));
	strvec_push(av, xstrdup(mode_flag(opts)));
	strvec_push(av, xstrdup("--quiet"));
	if (opts->patch_out) {
		/* "diff -u -p a/FILE b/FILE" headers, FILE relative to the root */
		strvec_push(av, xstrdup("--patch"));
		strvec_push(av, xstrdup("."));
	} else {
		strvec_push(av, xstrdup("--no-show-diff"));
		strvec_push(av, xstrdup("--verbose-parsing"));
	}
	/*
	 * The files are prefiltered already: no second token scan in spatch
	 * (which also tries "git grep" once per file group).
	 */
	strvec_push(av, xstrdup("--no-scanner"));
	if (opts->python) {
		strvec_push(av, xstrdup("--python"));
		strvec_push(av, xstrdup(opts->python));
	}
	strvec_push(av, xstrdup("--cocci-file"));
	strvec_push(av, xstrdup(r->path));
	/* the kernel macros that spatch's own standard.h lacks, next to the rule */
	{
		char *dir = xstrdup(r->path), *slash = strrchr(dir, '/'), *mf;

		if (slash)
			*slash = '\0';
		mf = xasprintf("%s/%s", slash ? dir : ".", cocci_macro_file);
		if (!access(mf, R_OK)) {
			strvec_push(av, xstrdup("--macro-file"));
			strvec_push(av, mf);
		} else {
			free(mf);
		}
		free(dir);
	}
	for (i = 0; i < r->options.nr; i++)
		strvec_push(av, xstrdup(r->options.v[i]));
	/* the include path of scripts/coccicheck, for rules that read headers */
	for (i = 0; cocci_include_dirs[i]; i++) {
		strvec_push(av, xstrdup("-I"));
		strvec_push(av, xstrdup(cocci_include_dirs[i]));
	}
	/* and its forced includes, when the tree has them */
	for (i = 0; cocci_forced_includes[i]; i++) {
		char *path = xasprintf("%s/%s", root, cocci_forced_includes[i]);

		if (!access(path, R_OK)) {
			strvec_push(av, xstrdup("--include"));
			strvec_push(av, xstrdup(cocci_forced_includes[i]));
		}
		free(path);
	}
	strvec_push(av, xstrdup("--file-groups"));
	strvec_push(av, xstrdup(g->list));
}

static int write_group_list(struct group *g, const char *tmpdir, size_t idx)
{
	FILE *f;
	size_t i;

	g->list = xasprintf("%s/group%zu.list", tmpdir, idx);
	f = fopen(g->list, "w");
	if (!f) {
		error("%s: %s", g->list, strerror(errno));
		return -1;
	}
	/* one file per group: the rules look at one file at a time */
	for (i = 0; i < g->files.nr; i++)
		fprintf(f, "%s\n\n", g->files.v[i]);
	if (fclose(f)) {
		error("%s: %s", g->list, strerror(errno));
		return -1;
	}
	return 0;
}

static int run_groups(const struct cocci_opts *opts, struct walk *w,
		      const char *tmpdir, struct collect *c)
{
	unsigned int jobs = opts->jobs ? opts->jobs : 1, j, running = 0;
	struct diff_part *parts = NULL;
	size_t nparts = 0, palloc = 0;
	struct group *groups;
	struct proc *procs;
	size_t ngroups, next = 0, done = 0, fdone = 0, ftotal = 0, i;
	int ret = 0, status;

	make_groups(w, jobs, &groups, &ngroups);
	for (i = 0; i < ngroups; i++)
		ftotal += groups[i].files.nr;
	procs = xrealloc(NULL, jobs * sizeof(*procs));
	memset(procs, 0, jobs * sizeof(*procs));
	if (ngroups)
		progress(opts, 0, ngroups, 0, ftotal);
	while ((next < ngroups || running) && !ret) {
		/* start groups while a job is free */
		for (j = 0; j < jobs && next < ngroups && !ret; j++) {
			struct strvec av = { 0 };

			if (procs[j].pid > 0)
				continue;
			if (write_group_list(&groups[next], tmpdir, next) < 0) {
				ret = -1;
				break;
			}
			group_argv(opts, w->root, &w->rules[groups[next].rule], &groups[next], &av);
			if (opts->verbose) {
				fputs("ptrguard: (cd", stderr);
				fprintf(stderr, " %s &&", w->root);
				for (i = 0; i < av.nr; i++)
					fprintf(stderr, " %s", av.v[i]);
				fputs(")\n", stderr);
			}
			procs[j].out = xasprintf("%s/group%zu.out", tmpdir, next);
			procs[j].err = xasprintf("%s/group%zu.err", tmpdir, next);
			procs[j].group = next;
			procs[j].seen = 0;
			procs[j].handled = 0;
			procs[j].last = 0;
			procs[j].pid = spawn(av.v, w->root, procs[j].out, procs[j].err);
			strvec_clear(&av);
			if (procs[j].pid < 0) {
				procs[j].pid = 0;
				ret = -1;
				break;
			}
			running++;
			next++;
		}
		if (ret || !running)
			break;
		j = reap(procs, jobs, &status);
		if (j == (unsigned int)-1) {
			ret = -1;
			break;
		}
		if (j == jobs) {
			/* none ended yet: show how far spatch got, then wait a bit */
			struct timespec nap = { 0, 100 * 1000 * 1000 };

			if (opts->progress) {
				size_t now = fdone;

				for (i = 0; i < jobs; i++)
					if (procs[i].pid > 0)
						now += count_handled(&procs[i]);
				progress(opts, done, ngroups, now, ftotal);
			}
			nanosleep(&nap, NULL);
			continue;
		}
		running--;
		procs[j].pid = 0;
		{
			struct group *g = &groups[procs[j].group];
			const struct rule *r = &w->rules[g->rule];
			char *why = exit_status(status);

			if (why) {
				char *line = last_line(procs[j].err);

				char *at = last_handled(procs[j].err);

				if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
					error("%s: cannot run spatch", spatch_prog(opts));
				else if (at && !strncmp(line, "HANDLING: ", 10))
					error("spatch %s while handling %s with %s",
					      why, at, r->name);
				else if (at)
					error("spatch %s while handling %s with %s: %s",
					      why, at, r->name, line);
				else
					error("spatch %s with %s (%zu files from %s%s): %s",
					      why, r->name, g->files.nr, g->files.v[0],
					      g->files.nr > 1 ? ", ..." : "", line);
				free(at);
				free(line);
				free(why);
				ret = -1;
			} else if (opts->patch_out) {
				ret = collect_diff(&parts, &nparts, &palloc, procs[j].out);
			} else {
				ret = parse_records(c, w->root, procs[j].out, r->name);
				parse_badcounts(c, w->root, procs[j].err, rule_reads_headers(r));
			}
			done++;
			fdone += g->files.nr;
			progress(opts, done, ngroups, fdone, ftotal);
			if (!opts->verbose) {
				unlink(procs[j].out);
				unlink(procs[j].err);
			}
			unlink(g->list);
			free(procs[j].out);
			free(procs[j].err);
			procs[j].out = procs[j].err = NULL;
		}
	}
	if (ret) {
		if (opts->progress && done < ngroups)
			fputc('\n', stderr);
		kill_all(procs, jobs);
	}
	for (j = 0; j < jobs; j++) {
		if (procs[j].out) {
			unlink(procs[j].out);
			unlink(procs[j].err);
		}
		free(procs[j].out);
		free(procs[j].err);
	}
	free(procs);
	for (i = 0; i < ngroups; i++) {
		strvec_clear(&groups[i].files);
		if (groups[i].list)
			unlink(groups[i].list);
		free(groups[i].list);
	}
	free(groups);
	if (nparts)
		qsort(parts, nparts, sizeof(*parts), part_cmp);
	for (i = 0; i < nparts; i++) {
		if (!ret && fputs(parts[i].text, opts->patch_out) == EOF) {
			error("writing the patch: %s", strerror(errno));
			ret = -1;
		}
		free(parts[i].file);
		free(parts[i].text);
	}
	free(parts);
	(void)status;
	return ret;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---------------------------------------------------------------- API */

int finding_is_leak(const struct finding *f)
{
	const struct vocab_class *c = vocab_class(f->cls);

	return c && c->leak;
}

void cocci_result_free(struct cocci_result *res)
{
	size_t i;

	for (i = 0; i < res->nfindings; i++)
		finding_free(&res->findings[i]);
	free(res->findings);
	for (i = 0; i < res->ncalls; i++)
		call_free(&res->calls[i]);
	free(res->calls);
	for (i = 0; i < res->nunparsed; i++)
		free(res->unparsed[i]);
	free(res->unparsed);
	free(res->unparsed_lines);
	for (i = 0; i < res->nskips; i++)
		free(res->skips[i].file);
	free(res->skips);
	for (i = 0; i < res->nunjudged; i++) {
		free(res->unjudged[i].file);
		free(res->unjudged[i].callee);
		free(res->unjudged[i].why);
	}
	free(res->unjudged);
	memset(res, 0, sizeof(*res));
}

int cocci_run(const struct cocci_opts *opts, struct cocci_result *res)
{
	struct rule rules[2];
	struct collect c = { res, 0, 0, 0, 0 };
	struct timespec t0;
	struct walk w;
	char tmpl[] = "/tmp/ptrguard.XXXXXX";
	char *root = NULL, *tmpdir = NULL;
	size_t nrules = 0, i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	memset(&w, 0, sizeof(w));
	if (!opts->root || !opts->rules_dir) {
		error("cocci_run: no tree root or no rules directory");
		return -1;
	}
	if (!find_program(spatch_prog(opts))) {
		error("%s: not found (install coccinelle, or set SPATCH)",
		      spatch_prog(opts));
		return -1;
	}
	root = abspath(opts->root);
	if (!root || !is_dir(root)) {
		error("%s: %s", opts->root, !root ? strerror(errno) :
		      access(root, F_OK) ? strerror(ENOENT) : strerror(ENOTDIR));
		free(root);
		return -1;
	}
	tmpdir = mkdtemp(tmpl);
	if (!tmpdir) {
		error("mkdtemp: %s", strerror(errno));
		free(root);
		return -1;
	}
	if (rules_load(opts, tmpdir, rules, &nrules) < 0)
		goto out;

	w.root = root;
	w.rootlen = strlen(root);
	w.rules = rules;
	w.nrules = nrules;
	w.prefilter = opts->prefilter;
	for (i = 0; i < nrules; i++)
		w.headers |= rules[i].headers;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!opts->npaths) {
		if (walk_dir(&w, root) < 0)
			goto out;
	}
	for (i = 0; i < opts->npaths; i++)
		if (walk_path(&w, opts->paths[i]) < 0)
			goto out;
	/* the same file named twice, or by a file and its directory */
	if (w.ncands)
		qsort(w.cands, w.ncands, sizeof(*w.cands), cand_cmp);
	{
		size_t n = 0;

		for (i = 0; i < w.ncands; i++) {
			if (n && !strcmp(w.cands[n - 1].file, w.cands[i].file)) {
				free(w.cands[i].file);
				continue;
			}
			w.cands[n++] = w.cands[i];
		}
		w.ncands = n;
	}
	res->nscanned = w.nscanned;
	res->nquery = w.nquery;
	res->nfiles = w.ncands;
	if (opts->verbose) {
		fprintf(stderr, "ptrguard: prefilter: %zu files read, %zu match a grep query, %zu candidates, %.2f s\n",
			w.nscanned, w.nquery, w.ncands, seconds_since(&t0));
		for (i = 0; i < nrules; i++) {
			size_t k, n = 0;

			for (k = 0; k < w.ncands; k++)
				n += !!(w.cands[k].rules & (1u << i));
			fprintf(stderr, "ptrguard: prefilter: %s: %zu candidates\n", rules[i].name, n);
		}
	}
	if (run_groups(opts, &w, tmpdir, &c) < 0)
		goto out;
	finish_records(res);
	if (!opts->patch_out && !opts->no_lexical) {
		int *px_ran = xmalloc((w.lexonly.nr + w.ncands + 1) * sizeof(*px_ran));
		size_t k;

		for (i = 0; i < w.lexonly.nr; i++)
			px_ran[i] = 0;
		for (i = 0; i < w.ncands; i++) {
			px_ran[w.lexonly.nr] = 0;
			for (k = 0; k < nrules; k++)
				if ((w.cands[i].rules & (1u << k)) && rules[k].kind != PF_RULE_INT_CAST)
					px_ran[w.lexonly.nr] = 1;
			strvec_push(&w.lexonly, xstrdup(w.cands[i].file));
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		cocci_lexical(root, w.lexonly.v, px_ran, w.lexonly.nr, res);
		if (opts->verbose)
			fprintf(stderr, "ptrguard: lexical model: %zu files, %.2f s\n", w.lexonly.nr,
				seconds_since(&t0));
		free(px_ran);
		finish_records(res);
	}
	ret = 0;
out:
	if (ret)
		cocci_result_free(res);
	for (i = 0; i < w.ncands; i++)
		free(w.cands[i].file);
	free(w.cands);
	strvec_clear(&w.lexonly);
	for (i = 0; i < nrules; i++)
		rule_free(&rules[i]);
	if (opts->verbose)
		fprintf(stderr, "ptrguard: spatch outputs kept in %s\n", tmpdir);
	else if (rmdir(tmpdir) < 0)
		error("%s: %s (left behind)", tmpdir, strerror(errno));
	free(root);
	return ret;
}
