// SPDX-License-Identifier: GPL-2.0
/*
 * read_file(): the one way the tool reads a whole source, rule, log or
 * cache file into memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptrguard.h"

char *read_file(const char *path, size_t max, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	size_t n = 0, alloc, cap;
	ssize_t r;
	int fd, saved;

	/* Non-blocking: a FIFO named like a source file must not hang us. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail;
	}
	/* Room for @max bytes and the NUL; a file may grow while it is read. */
	cap = max < SIZE_MAX ? max + 1 : SIZE_MAX;
	alloc = (size_t)st.st_size < cap - 1 ? (size_t)st.st_size + 1 : cap;
	buf = xmalloc(alloc);
	while (n < max) {
		if (n + 1 >= alloc) {
			if (alloc == cap)
				break;
			alloc = alloc < cap / 2 ? alloc * 2 : cap;
			buf = xrealloc(buf, alloc);
		}
		r = read(fd, buf + n, alloc - n - 1);
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
	*len = n;
	return buf;
fail:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
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
