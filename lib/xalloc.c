// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation helpers that cannot fail: running out of memory is reported
 * once, through die(), like every other error at the edge.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ptrguard.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* A NULL string duplicates as "": callers store optional fields this way. */
char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		die("out of memory");
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		die("out of memory");
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	return s;
}
