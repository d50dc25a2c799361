// SPDX-License-Identifier: GPL-2.0
/*
 * scan-floor: the floor under `ptrguard scan`: read each file of a list
 * once and do nothing with the bytes.  bench/scan.sh and bench/scan-vm.sh
 * time it beside the scanner on the files the scanner read (its
 * --debug-list-files list): same files, same order, same number of
 * threads, the same read sizes (the first read asks for 1 KiB, each read
 * that fills its buffer doubles the next, up to 64 KiB; /dev/kmsg, which
 * returns one record a read, gets 64 KiB reads).  Nothing of the scanner
 * is linked in: no walk, no matching, no output.
 *
 * Usage: scan-floor [-j N] LIST
 * LIST holds paths, each ended by a NUL byte.  Prints "files N bytes B
 * errors E" on stdout.  Exit status 0, or 2 (one line on stderr) when
 * LIST cannot be read or the usage is wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIRST_READ 1024
#define MAX_READ 65536

static char **paths;
static size_t npaths;
static atomic_size_t next;
static atomic_ullong bytes, errors;

static void *reader(void *arg)
{
	unsigned char *buf = malloc(MAX_READ);
	size_t i;

	(void)arg;
	if (!buf)
		return NULL;
	while ((i = atomic_fetch_add(&next, 1)) < npaths) {
		int kmsg = !strcmp(paths[i], "/dev/kmsg");
		size_t ask = kmsg ? MAX_READ : FIRST_READ;
		unsigned long long total = 0;
		int fd = open(paths[i], O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);

		if (fd < 0) {
			atomic_fetch_add(&errors, 1);
			continue;
		}
		for (;;) {
			ssize_t r = read(fd, buf, ask);

			if (r > 0) {
				total += (unsigned long long)r;
				if ((size_t)r == ask && ask < MAX_READ)
					ask *= 2;
				continue;
			}
			if (r < 0 && (errno == EINTR || (kmsg && errno == EPIPE)))
				continue;
			if (r < 0 && errno != EAGAIN)
				atomic_fetch_add(&errors, 1);
			break;
		}
		close(fd);
		atomic_fetch_add(&bytes, total);
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[16];
	char *list = NULL, *p, *end;
	size_t len = 0, cap = 0, k;
	long jobs = 1;
	int fd, i;

	if (argc == 4 && !strcmp(argv[1], "-j")) {
		jobs = strtol(argv[2], &end, 10);
		if (*end || jobs < 1 || jobs > 16) {
			fprintf(stderr, "scan-floor: -j %s: want 1 to 16\n", argv[2]);
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: scan-floor [-j N] LIST\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	for (;;) {
		ssize_t r;

		if (fd < 0)
			break;
		if (cap - len < MAX_READ) {
			cap = cap ? 2 * cap : 4 * MAX_READ;
			if (!(list = realloc(list, cap + 1)))
				break;
		}
		r = read(fd, list + len, cap - len);
		if (r > 0)
			len += (size_t)r;
		else if (!(r < 0 && errno == EINTR))
			break;
	}
	if (fd < 0 || !list || (len && list[len - 1])) {
		fprintf(stderr, "scan-floor: %s: %s\n", argv[1],
			fd < 0 ? strerror(errno) : !list ? "out of memory" :
			"not a list of NUL-terminated paths");
		return 2;
	}
	close(fd);
	for (p = list; p < list + len; p += strlen(p) + 1)
		npaths++;
	paths = malloc((npaths + 1) * sizeof(*paths));
	if (!paths) {
		fprintf(stderr, "scan-floor: out of memory\n");
		return 2;
	}
	for (k = 0, p = list; p < list + len; p += strlen(p) + 1)
		paths[k++] = p;
	for (i = 0; i < jobs; i++)
		if (pthread_create(&tid[i], NULL, reader, NULL)) {
			fprintf(stderr, "scan-floor: cannot start a thread\n");
			return 2;
		}
	for (i = 0; i < jobs; i++)
		pthread_join(tid[i], NULL);
	printf("files %zu bytes %llu errors %llu\n", npaths,
	       (unsigned long long)bytes, (unsigned long long)errors);
	return 0;
}
