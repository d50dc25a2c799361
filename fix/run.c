// SPDX-License-Identifier: GPL-2.0
/*
 * fix_run: run git, perl and the compiler for `ptrguard fix` through the
 * one runner (runner.h), their output captured; and small file helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"
#include "lib/runner.h"

/* The whole of a temporary file, NUL-terminated. */
static char *slurp(FILE *f)
{
	size_t n = 0, cap = 4096, r;
	char *buf = xmalloc(cap);

	rewind(f);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	buf[n] = 0;
	return buf;
}

int fix_run(const char *cwd, const char *in, char **out, char **err, char *const argv[])
{
	FILE *o = tmpfile(), *e = tmpfile();
	int infd = -1, status, ret = -1;
	struct run_cmd cmd = { .argv = argv, .cwd = cwd };
	pid_t pid;

	if (!o || !e) {
		error("fix: a temporary file: %s", strerror(errno));
		goto done;
	}
	if (in) {
		infd = open(in, O_RDONLY);
		if (infd < 0) {
			error("fix: %s: %s", in, strerror(errno));
			goto done;
		}
	}
	cmd.fd[0] = infd;
	cmd.fd[1] = fileno(o);
	cmd.fd[2] = fileno(e);
	pid = run_start(&cmd);
	if (pid < 0 || run_wait(pid, &status) < 0)
		goto done;
	if (!WIFEXITED(status)) {
		error("fix: %s: killed by signal %d", argv[0], WTERMSIG(status));
		goto done;
	}
	ret = WEXITSTATUS(status);
	if (out)
		*out = slurp(o);
	if (err)
		*err = slurp(e);
done:
	if (infd >= 0)
		close(infd);
	if (o)
		fclose(o);
	if (e)
		fclose(e);
	return ret;
}

char *fix_first_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? xstrndup(s, (size_t)(nl - s)) : xstrdup(s);
}

int fix_mkdirs(const char *dir)
{
	char *p = xstrdup(dir), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			error("fix: %s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST) {
		error("fix: %s: %s", p, strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

int fix_write(const char *path, const char *data, size_t n)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	FILE *f;

	if (slash) {
		*slash = 0;
		if (*dir && fix_mkdirs(dir) < 0) {
			free(dir);
			return -1;
		}
	}
	free(dir);
	f = fopen(path, "w");
	if (!f) {
		error("fix: %s: %s", path, strerror(errno));
		return -1;
	}
	if ((fwrite(data, 1, n, f) != n) | (fclose(f) != 0)) {
		error("fix: %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
