// SPDX-License-Identifier: GPL-2.0
/*
 * What `ptrguard scan` reads when given no ROOT: /proc, /sys, and the
 * debugfs and tracefs mounts outside them, from /proc/self/mounts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* Undo the octal escapes of /proc/self/mounts (\040 for a space). */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* /proc, /sys, and debugfs/tracefs mounts outside them (room for one more). */
size_t scan_default_roots(char ***roots)
{
	static char *fixed[] = { "/proc", "/sys" };
	char *line = NULL;
	size_t cap = 0, n = 0, i;
	char **r = calloc(64, sizeof(*r));
	struct stat st;
	FILE *f;

	if (!r)
		die("scan: out of memory");
	for (i = 0; i < 2; i++)
		if (!stat(fixed[i], &st))
			r[n++] = xstrdup(fixed[i]);
	f = fopen("/proc/self/mounts", "re");
	while (f && n < 63 && getline(&line, &cap, f) > 0) {
		char *save = NULL, *mnt, *type;

		strtok_r(line, " ", &save);
		mnt = strtok_r(NULL, " ", &save);
		type = strtok_r(NULL, " ", &save);
		if (!mnt || !type || (strcmp(type, "debugfs") && strcmp(type, "tracefs")))
			continue;
		unescape(mnt);
		for (i = 0; i < n; i++)
			if (under(mnt, r[i]))
				break;
		if (i == n)
			r[n++] = xstrdup(mnt);
	}
	free(line);
	if (f)
		fclose(f);
	*roots = r;
	return n;
}
