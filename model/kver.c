// SPDX-License-Identifier: GPL-2.0
/* kver: the kernel version of a tree (kver.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ptrguard.h"
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

int kver_read(const char *dir, long *v, long *p)
{
	static const char *const release[] = {
		"include/config/kernel.release", "include/generated/utsrelease.h",
	};
	char *path = xasprintf("%s/Makefile", dir), *buf, *q;
	size_t len, i;

	buf = read_file(path, 65536, &len);
	free(path);
	if (buf) {
		*v = kver_makefile_var(buf, "VERSION");
		*p = kver_makefile_var(buf, "PATCHLEVEL");
		free(buf);
		if (*v >= 0 && *p >= 0)
			return 0;
	}
	for (i = 0; i < sizeof(release) / sizeof(release[0]); i++) {
		path = xasprintf("%s/%s", dir, release[i]);
		buf = read_file(path, 65536, &len);
		free(path);
		if (!buf)
			continue;
		for (q = buf; *q && (*q < '0' || *q > '9'); q++)
			;
		if (sscanf(q, "%ld.%ld", v, p) == 2) {
			free(buf);
			return 0;
		}
		free(buf);
	}
	return -1;
}
