// SPDX-License-Identifier: GPL-2.0
/*
 * gate_tree: scratch copies of a kernel tree for `ptrguard gate`.
 *
 * The states of a patched tree are shadows of it (lib/shadow.c): the
 * files a patch touches are private copies, git apply writes only to
 * them (it refuses to write beyond a symlink, so a slip would fail
 * loudly), and the real tree is never written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gate/gate.h"
#include "lib/ptrguard.h"
#include "lib/runner.h"

char *gate_tmpdir(void)
{
	/*
	 * A shadow is a few hundred symlinks: on tmpfs that is a millisecond,
	 * on the disk here it was 0.3 s.  $TMPDIR wins when set.
	 */
	const char *t = getenv("TMPDIR");
	struct stat st;
	char *dir, *abs;

	if (!t || !*t)
		t = !stat("/dev/shm", &st) && S_ISDIR(st.st_mode) && !access("/dev/shm", W_OK) ?
		    "/dev/shm" : "/tmp";
	dir = xasprintf("%s/ptrguard-gate.XXXXXX", t);

	if (!mkdtemp(dir)) {
		error("gate: cannot create a temporary directory %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	/*
	 * Absolute: git apply and spatch run in the shadow trees, not here,
	 * and a relative $TMPDIR would name another place there.
	 */
	abs = realpath(dir, NULL);
	if (!abs) {
		error("gate: %s: %s", dir, strerror(errno));
		rmdir(dir);
	}
	free(dir);
	return abs;
}

static int copy_file(const char *from, const char *to, mode_t mode)

{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0) {
		error("gate: %s: %s", from, strerror(errno));
		return -1;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode & 0777);
	if (out < 0) {
		error("gate: %s: %s", to, strerror(errno));
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (n < 0)
		error("gate: copying %s: %s", from, strerror(errno));
	close(in);
	if (close(out) && n >= 0) {
		error("gate: %s: %s", to, strerror(errno));
		n = -1;
	}
	return n < 0 ? -1 : 0;
}

/*
 * git apply in a shadow: no repository may be found around it (a hook
 * exports GIT_DIR; TMPDIR may lie in a work tree), or paths would be
 * taken relative to that repository and silently skipped.  The
 * environment of ours without GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE,
 * GIT_PREFIX and GIT_CEILING_DIRECTORIES, then the last set to the
 * directory above @cwd (absolute): NULL-terminated, malloc()ed strings
 * in a malloc()ed array.
 */
static char **no_outer_repo(const char *cwd)
{
	static const char *const drop[] = {
		"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_PREFIX=",
		"GIT_CEILING_DIRECTORIES=", NULL,
	};
	size_t n = 0, i, k;
	char **env, *real, *slash;

	while (environ[n])
		n++;
	env = xmalloc((n + 2) * sizeof(*env));
	for (i = 0, n = 0; environ[i]; i++) {
		for (k = 0; drop[k] && strncmp(environ[i], drop[k], strlen(drop[k])); k++)
			;
		if (!drop[k])
			env[n++] = xstrdup(environ[i]);
	}
	/*
	 * git stops below a ceiling, never at it, and takes absolute ones
	 * only: the ceiling is the real directory above @cwd
	 */
	real = realpath(cwd, NULL);
	slash = real ? strrchr(real, '/') : NULL;
	env[n++] = slash && slash != real ?
		   xasprintf("GIT_CEILING_DIRECTORIES=%.*s", (int)(slash - real), real) :
		   xstrdup("GIT_CEILING_DIRECTORIES=/");
	env[n] = NULL;
	free(real);
	return env;
}

/*
 * Run @argv in @cwd with stdin from @in_fd, stdout to @out_fd, stderr to
 * @err_fd (-1: /dev/null); its exit status, 128 + the signal that killed
 * it, or -1 after error().
 */
static int run(const char *const *argv, const char *cwd, int in_fd, int out_fd, int err_fd)
{
	struct run_cmd cmd = {
		.argv = (char *const *)argv, .cwd = cwd, .fd = { in_fd, out_fd, err_fd },
		.env = cwd ? no_outer_repo(cwd) : NULL,
	};
	pid_t pid = run_start(&cmd);
	int status;
	size_t i;

	for (i = 0; cmd.env && cmd.env[i]; i++)
		free(cmd.env[i]);
	free((char **)cmd.env);
	if (pid < 0 || run_wait(pid, &status) < 0)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* Write the blob @rev:@rel of the repository @repo to @to; 1 if absent. */
static int git_blob(const char *repo, const char *rev, const char *rel, const char *to)
{
	char *spec = xasprintf("%s:%s", rev, rel);
	const char *check[] = { "git", "-C", repo, "cat-file", "-e", spec, NULL };
	const char *show[] = { "git", "-C", repo, "cat-file", "blob", spec, NULL };
	int fd, rc;

	if (run(check, NULL, -1, -1, -1)) {
		free(spec);
		return 1;
	}
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		error("gate: %s: %s", to, strerror(errno));
		free(spec);
		return -1;
	}
	rc = run(show, NULL, -1, fd, -1);
	close(fd);
	if (rc) {
		error("gate: git cat-file blob %s failed in %s", spec, repo);
		free(spec);
		return -1;
	}
	free(spec);
	return 0;
}

int gate_copy_file(const char *from, const char *to)
{
	return copy_file(from, to, 0644);
}

int shadow_own(struct shadow *s, const char *rel, const char *src_root)
{
	char *path = shadow_own_path(s, rel), *src;
	struct stat st;
	int ret = 0;

	if (!path)
		return -1;
	src = xasprintf("%s/%s", src_root, rel);
	if (!stat(src, &st)) {
		if (S_ISREG(st.st_mode))
			ret = copy_file(src, path, st.st_mode);
		else {
			error("gate: %s: not a regular file", src);
			ret = -1;
		}
	}
	free(src);
	free(path);
	return ret;
}

/* Write @n bytes of @p to a new file @path (0644); -1 after error(). */
static int write_blob(const char *path, const char *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t w = 0;

	if (fd < 0) {
		error("gate: %s: %s", path, strerror(errno));
		return -1;
	}
	while (n && (w = write(fd, p, n)) > 0) {
		p += w;
		n -= (size_t)w;
	}
	if (w < 0 || close(fd)) {
		error("gate: %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Read the answer of git cat-file --batch at *@p (up to @end) to the
 * request @spec: the blob written to @path, nothing for a missing one; 0,
 * or -1 after error() (a tree or a commit where the patch has a file, an
 * answer cut short).
 */
static int batch_blob(const char **p, const char *end, const char *spec, const char *path,
		      const char *repo)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p)), *sp;
	size_t n = nl ? (size_t)(nl - *p) : 0, slen = strlen(spec);
	unsigned long long size;
	char *e;

	if (!nl)
		goto cut;
	if (n == slen + 8 && !memcmp(*p, spec, slen) && !memcmp(*p + slen, " missing", 8)) {
		*p = nl + 1;
		return 0;
	}
	sp = memchr(*p, ' ', n);
	if (!sp || (size_t)(nl - sp) < 6 || memcmp(sp, " blob ", 6)) {
		error("gate: git cat-file blob %s failed in %s", spec, repo);
		return -1;
	}
	errno = 0;
	size = strtoull(sp + 6, &e, 10);
	if (e != nl || errno || size >= (unsigned long long)(end - nl) - 1 ||
	    nl[1 + size] != '\n')
		goto cut;
	*p = nl + 2 + size;
	return write_blob(path, nl + 1, (size_t)size);
cut:
	error("gate: git cat-file --batch in %s: its answer for %s is cut short", repo, spec);
	return -1;
}

int shadow_own_git(struct shadow *s, char *const *rels, size_t n, const char *repo,
		   const char *rev, const char *tmpdir)
{
	char *in = xasprintf("%s/cat-file.in", tmpdir), *out = xasprintf("%s/cat-file.out", tmpdir);
	const char *argv[] = { "git", "-C", repo, "cat-file", "--batch", NULL };
	char **paths = xmalloc((n + 1) * sizeof(*paths)), *text = NULL;
	const char *p, *end;
	size_t i, len = 0, asked = 0;
	int ret = 0, ifd = -1, ofd = -1;
	FILE *f;

	for (i = 0; i < n; i++)
		paths[i] = NULL;
	f = fopen(in, "w");
	if (!f) {
		error("gate: %s: %s", in, strerror(errno));
		ret = -1;
	}
	for (i = 0; i < n && !ret; i++) {
		paths[i] = shadow_own_path(s, rels[i]);
		if (!paths[i])
			ret = -1;
		else if (strchr(rels[i], '\n'))
			ret = git_blob(repo, rev, rels[i], paths[i]) < 0 ? -1 : 0; /* no batch line names it */
		else
			asked += fprintf(f, "%s:%s\n", rev, rels[i]) > 0;
	}
	if (f && fclose(f) && !ret) {
		error("gate: %s: %s", in, strerror(errno));
		ret = -1;
	}
	/* one git for all the files, not two a file: 224 processes for a 112-file commit */
	if (!ret && asked) {
		ifd = open(in, O_RDONLY);
		ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (ifd < 0 || ofd < 0 || run(argv, NULL, ifd, ofd, -1)) {
			error("gate: git cat-file --batch failed in %s", repo);
			ret = -1;
		}
		if (ifd >= 0)
			close(ifd);
		if (ofd >= 0)
			close(ofd);
		text = ret ? NULL : read_file(out, SIZE_MAX, &len);
		if (!ret && !text) {
			error("gate: %s: %s", out, strerror(errno));
			ret = -1;
		}
	}
	p = text;
	end = text ? text + len : NULL;
	for (i = 0; i < n && !ret && text; i++) {
		char *spec;

		if (strchr(rels[i], '\n'))
			continue;
		spec = xasprintf("%s:%s", rev, rels[i]);
		ret = batch_blob(&p, end, spec, paths[i], repo);
		free(spec);
	}
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(text);
	unlink(in);
	unlink(out);
	free(in);
	free(out);
	return ret;
}

int shadow_has_file(const struct shadow *s, const char *rel)
{
	char *path = xasprintf("%s/%s", s->dir, rel);
	struct stat st;
	int ret = !lstat(path, &st) && S_ISREG(st.st_mode);

	free(path);
	return ret;
}

/* The first line of @path that says why, for a one-line message. */
static char *first_error_line(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], *best = NULL;

	if (!f)
		return strdup("(no message)");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "error: ", 7)) {
			free(best);
			best = strdup(line + 7);
			break;
		}
		if (!best && *line)
			best = strdup(line);
	}
	fclose(f);
	return best ? best : strdup("(no message)");
}

int shadow_apply(struct shadow *s, const struct patch *p, const char *tmpdir)
{
	char *pfile = xasprintf("%s/patch.%u", tmpdir, p->index);
	char *efile = xasprintf("%s/apply.err", tmpdir);
	const char *argv[] = { "git", "apply", "-p1", "--whitespace=nowarn", pfile, NULL };
	char name[512];
	int fd, efd, rc;

	fd = open(pfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, p->text, p->len) != (ssize_t)p->len) {
		error("gate: %s: %s", pfile, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(pfile);
		free(efile);
		return -1;
	}
	close(fd);
	efd = open(efile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (efd < 0) {
		error("gate: %s: %s", efile, strerror(errno));
		free(pfile);
		free(efile);
		return -1;
	}
	rc = run(argv, s->dir, -1, -1, efd);
	close(efd);
	if (rc == 127) {
		error("gate: git: not found (git apply applies the patches)");
	} else if (rc) {
		char *why = first_error_line(efile);

		error("gate: %s: does not apply: %s", patch_name(p, name, sizeof(name)), why);
		free(why);
	}
	free(pfile);
	free(efile);
	return rc ? -1 : 0;
}

/* Read all of @fd into a buffer. */
static int slurp_fd(int fd, char **buf, size_t *len)
{
	size_t alloc = 65536;
	ssize_t n;

	*len = 0;
	*buf = malloc(alloc);
	if (!*buf)
		die("out of memory");
	while ((n = read(fd, *buf + *len, alloc - *len)) > 0) {
		*len += (size_t)n;
		if (alloc - *len < 4096) {
			alloc *= 2;
			*buf = realloc(*buf, alloc);
			if (!*buf)
				die("out of memory");
		}
	}
	return n < 0 ? -1 : 0;
}

/* Is @tree the top of a git work tree?  Reports why not, naming @name. */
static int check_git_top(const char *tree, const char *name, const char *what)
{
	const char *isrepo[] = { "git", "-C", tree, "rev-parse", "--git-dir", NULL };
	const char *top[] = { "git", "-C", tree, "rev-parse", "--show-toplevel", NULL };
	char *tmpl, *out = NULL, *real;
	size_t n = 0;
	int tfd, rc;

	if (run(isrepo, NULL, -1, -1, -1)) {
		error("gate: %s needs a git repository: %s is not one", what, name);
		return -1;
	}
	/*
	 * Paths in git's output start at the top of the work tree: a tree
	 * that is a subdirectory of a repository would get wrong paths.
	 */
	tmpl = strdup("/tmp/ptrguard-top.XXXXXX");
	tfd = tmpl ? mkstemp(tmpl) : -1;
	if (tfd < 0)
		die("gate: cannot create a temporary file");
	unlink(tmpl);
	free(tmpl);
	rc = run(top, NULL, -1, tfd, -1);
	lseek(tfd, 0, SEEK_SET);
	if (!rc && !slurp_fd(tfd, &out, &n) && n) {
		out[n - 1] = '\0';	/* the newline */
		real = realpath(out, NULL);
		rc = !real || strcmp(real, tree);
		free(real);
	} else {
		rc = 1;
	}
	free(out);
	close(tfd);
	if (rc) {
		error("gate: %s needs a git repository: %s is not the top of one", what, name);
		return -1;
	}
	return 0;
}

int gate_git_base(const char *tree, const char *name, const char *rev, char **base_rev)
{
	char *spec;
	int rc;

	if (check_git_top(tree, name, "--base"))
		return -1;
	spec = xasprintf("%s^{commit}", rev);
	{
		const char *verify[] = { "git", "-C", tree, "rev-parse", "--verify", "-q", spec, NULL };

		rc = run(verify, NULL, -1, -1, -1);
	}
	free(spec);
	if (rc) {
		error("gate: --base %s: unknown revision in %s", rev, name);
		return -1;
	}
	*base_rev = strdup(rev);
	if (!*base_rev)
		die("out of memory");
	return 0;
}

int gate_range_mbox(const char *tree, const char *name, const char *range, char **buf,
		    size_t *len, char **base_rev)
{
	const char *dots = strstr(range, "..");
	char *base, *tmpl;
	int fd, rc;

	if (!dots || dots == range || strstr(range, "...") || !dots[2]) {
		error("gate: --range %s: expected A..B", range);
		return -1;
	}
	if (check_git_top(tree, name, "--range"))
		return -1;
	base = strndup(range, (size_t)(dots - range));
	if (!base)
		die("out of memory");
	{
		char *spec = xasprintf("%s^{commit}", base);
		const char *verify[] = { "git", "-C", tree, "rev-parse", "--verify", "-q", spec, NULL };
		char *tip = xasprintf("%s^{commit}", dots + 2);
		const char *verify2[] = { "git", "-C", tree, "rev-parse", "--verify", "-q", tip, NULL };

		rc = run(verify, NULL, -1, -1, -1) || run(verify2, NULL, -1, -1, -1);
		free(spec);
		free(tip);
		if (rc) {
			error("gate: --range %s: unknown revision in %s", range, name);
			free(base);
			return -1;
		}
	}
	tmpl = strdup("/tmp/ptrguard-range.XXXXXX");
	fd = mkstemp(tmpl);
	if (fd < 0) {
		error("gate: %s: %s", tmpl, strerror(errno));
		free(tmpl);
		free(base);
		return -1;
	}
	unlink(tmpl);
	free(tmpl);
	{
		const char *fp[] = { "git", "-C", tree, "-c", "diff.noprefix=false",
				     "format-patch", "--stdout", "-M", "--binary",
				     "--no-signature", range, NULL };

		rc = run(fp, NULL, -1, fd, 2);
	}
	if (rc) {
		error("gate: --range %s: git format-patch failed in %s", range, name);
		close(fd);
		free(base);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	rc = slurp_fd(fd, buf, len);
	close(fd);
	if (rc) {
		error("gate: --range %s: reading git format-patch output: %s", range,
		      strerror(errno));
		free(*buf);
		free(base);
		return -1;
	}
	*base_rev = base;
	return 0;
}
