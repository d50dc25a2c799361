// SPDX-License-Identifier: GPL-2.0
/* kver: the kernel version of a tree (kver.h). */
#include <stdlib.h>
#include <string.h>

#include "model/kver.h"

long kver_makefile_var(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p + n;

		if (strncmp(p, name, n))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != '=')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q >= '0' && *q <= '9')
			return strtol(q, NULL, 10);
	}
	return -1;
}

int kver_p_unhashed(long version, long patchlevel)
{
	return version < 4 || (version == 4 && patchlevel < 15);
}
