// SPDX-License-Identifier: GPL-2.0
/*
 * run_threads(): the one way ptrguard works in threads - the walk's
 * readers (cocci/walk.c) and the judge (judge/judge.c) each take the next
 * item of a shared counter until none is left.
 */
#include <pthread.h>
#include <stdlib.h>

#include "lib/ptrguard.h"

void run_threads(unsigned int n, size_t nwork, void *(*fn)(void *), void *arg)
{
	unsigned int k, started = 0;
	pthread_t *t;

	if (!n)
		n = 1;
	if (n > nwork)
		n = nwork ? (unsigned int)nwork : 1;
	t = xmalloc(n * sizeof(*t));
	/* the caller works too; a thread that cannot start is not needed */
	for (k = 1; k < n; k++)
		if (!pthread_create(&t[started], NULL, fn, arg))
			started++;
	fn(arg);
	for (k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	free(t);
}
