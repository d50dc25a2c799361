// SPDX-License-Identifier: GPL-2.0
/*
 * e2e-sockets: hold sockets open so /proc/net/unix and /proc/net/tcp have
 * records to print (each one a %pK of a struct sock).
 *
 *   e2e-sockets N
 *
 * Opens N unix socket pairs and one listening TCP socket (any address,
 * port chosen by the kernel), prints "ready" and waits for a signal.
 * Exit status 2 on a setup error.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <errno.h>

int main(int argc, char **argv)
{
	struct sockaddr_in sin;
	int i, n, pair[2], tcp;

	if (argc != 2 || (n = atoi(argv[1])) < 0) {
		fprintf(stderr, "usage: e2e-sockets N\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) {
			fprintf(stderr, "e2e-sockets: socketpair %d: %s\n", i, strerror(errno));
			return 2;
		}
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	tcp = socket(AF_INET, SOCK_STREAM, 0);
	if (tcp < 0 || bind(tcp, (struct sockaddr *)&sin, sizeof(sin)) || listen(tcp, 1)) {
		fprintf(stderr, "e2e-sockets: tcp listener: %s\n", strerror(errno));
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
