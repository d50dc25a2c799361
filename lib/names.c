// SPDX-License-Identifier: GPL-2.0
/*
 * names_has: is a word (pointer and length, not NUL-terminated: a token
 * of a text) one of a list of names sorted by strcmp()?  The prefilter's
 * and the slices' lists of wrappers are read this way.
 */
#include <string.h>

#include "lib/ptrguard.h"

int names_has(char *const *names, size_t n, const char *w, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(names[mid], w, len);

		if (!c)	/* equal over @len: a longer name sorts after */
			c = names[mid][len] ? 1 : 0;
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}
