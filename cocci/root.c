// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_root: where things are - the kernel tree holding a path, the rules
 * directory of the running program, a path made absolute.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"
#include "lib/kernel.h"

/*
 * Without following symbolic links, so that paths inside a tree of
 * symlinks, like the gate's shadow trees, stay inside it.
 */
char *cocci_abspath(const char *path)
{
	char cwd[PATH_MAX], *full, *out, *seg, *save = NULL;
	size_t n = 0;

	if (path[0] == '/') {
		full = xstrdup(path);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return NULL;
		full = xasprintf("%s/%s", cwd, path);
	}
	out = xrealloc(NULL, strlen(full) + 2);
	for (seg = strtok_r(full, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..")) {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
			continue;
		}
		out[n++] = '/';
		memcpy(out + n, seg, strlen(seg));
		n += strlen(seg);
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	free(full);
	return out;
}

char *cocci_find_root_quiet(const char *path)
{
	struct stat st;
	char *dir, *slash;

	if (stat(path, &st) < 0)
		return NULL;
	dir = cocci_abspath(path);
	if (!dir)
		return NULL;
	if (!S_ISDIR(st.st_mode)) {
		slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
	}
	for (;;) {
		if (kernel_is_tree(dir))
			return dir;
		if (!strcmp(dir, "/"))
			break;
		slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
	}
	free(dir);
	return NULL;
}

char *cocci_find_root(const char *path)
{
	struct stat st;
	char *dir;

	if (stat(path, &st) < 0) {
		error("%s: %s", path, strerror(errno));
		return NULL;
	}
	dir = cocci_find_root_quiet(path);
	if (!dir)
		error("%s: not inside a kernel tree (no directory above it holds Makefile, Kconfig and MAINTAINERS; use --tree DIR)",
		      path);
	return dir;
}

int cocci_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

char *cocci_rules_dir(void)
{
	char exe[PATH_MAX];
	char *cand, *slash;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0) {
		error("/proc/self/exe: %s (use --rules DIR)", strerror(errno));
		return NULL;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	/* build/ptrguard -> build/cocci (made by make); bin/ptrguard -> ../share/ptrguard/cocci */
	cand = xasprintf("%s/cocci", exe);
	if (cocci_is_dir(cand))
		return cand;
	free(cand);
	cand = xasprintf("%s/../share/ptrguard/cocci", exe);
	if (cocci_is_dir(cand))
		return cand;
	error("no rules directory next to %s (looked for cocci and ../share/ptrguard/cocci; use --rules DIR)",
	      exe);
	free(cand);
	return NULL;
}
