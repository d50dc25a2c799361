// SPDX-License-Identifier: GPL-2.0
/*
 * read_file(): the one way the tool reads a whole source, rule, log or
 * cache file into memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/ptrguard.h"

int read_file_into(const char *path, size_t max, char **bufp, size_t *allocp, size_t *len)
{
	struct stat st;
	char *buf = *bufp;
	size_t n = 0, alloc = *allocp, cap, want;
	ssize_t r;
	int fd, saved;

	/* Non-blocking: a FIFO named like a source file must not hang us. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail;
	}
	/*
	 * Room for @max bytes and the NUL; a file may grow while it is read.
	 * One byte more than its size, so that the read seeing the end needs
	 * no larger buffer.
	 */
	cap = max < SIZE_MAX ? max + 1 : SIZE_MAX;
	want = cap > 2 && (size_t)st.st_size < cap - 2 ? (size_t)st.st_size + 2 : cap;
	if (alloc < want) {
		free(buf);
		buf = xmalloc(want);
		alloc = want;
	}
	while (n < max) {
		if (n + 1 >= alloc) {
			if (alloc >= cap)
				break;
			alloc = alloc < cap / 2 ? alloc * 2 : cap;
			buf = xrealloc(buf, alloc);
		}
		r = read(fd, buf + n, (alloc < cap ? alloc : cap) - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*bufp = buf;
	*allocp = alloc;
	*len = n;
	return 0;
fail:
	saved = errno;
	close(fd);
	*bufp = buf;
	*allocp = alloc;
	errno = saved;
	return -1;
}

char *read_file(const char *path, size_t max, size_t *len)
{
	char *buf = NULL;
	size_t alloc = 0;
	int saved;

	if (read_file_into(path, max, &buf, &alloc, len) < 0) {
		saved = errno;
		free(buf);
		errno = saved;
		return NULL;
	}
	return buf;
}

int write_file_atomic(const char *path, const void *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	char *tmp = slash ? xasprintf("%.*s/.tmp.XXXXXX", (int)(slash - path), path) :
		    xstrdup(".tmp.XXXXXX");
	int fd = mkostemp(tmp, O_CLOEXEC), saved;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	int ok;

	if (!f) {
		saved = errno;
		if (fd >= 0)
			close(fd);
		free(tmp);
		errno = saved;
		return -1;
	}
	ok = fwrite(buf, 1, len, f) == len;
	ok = !fclose(f) && ok;
	if (!ok || rename(tmp, path) < 0) {
		saved = errno;
		unlink(tmp);
		free(tmp);
		errno = saved;
		return -1;
	}
	free(tmp);
	return 0;
}

int mkdir_p(const char *dir)
{
	char *p = xstrdup(dir), *slash;
	struct stat st;
	int ret;

	for (slash = strchr(p + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0700);
		*slash = '/';
	}
	mkdir(p, 0700);
	ret = !stat(p, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
	free(p);
	return ret;
}
