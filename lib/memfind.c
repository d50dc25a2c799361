// SPDX-License-Identifier: GPL-2.0
/*
 * mem_find: memmem() for the short needles the model and the prefilter
 * look for over every header of a tree ("define", "__printf", a line
 * splice).  glibc's memmem() is a generic loop here (a tenth of a
 * --no-casts audit's CPU under perf); memchr() is vectorized, so the
 * needle's last byte is found with it and the rest compared.
 */
#include <string.h>

#include "lib/ptrguard.h"

const char *mem_find(const char *buf, size_t len, const char *needle, size_t n)
{
	const char *p, *end = buf + len;
	unsigned char last;

	if (!n)
		return buf;
	if (n > len)
		return NULL;
	last = (unsigned char)needle[n - 1];
	for (p = buf + n - 1; p < end && (p = memchr(p, last, (size_t)(end - p))); p++)
		if (!memcmp(p - (n - 1), needle, n - 1))
			return p - (n - 1);
	return NULL;
}
