// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_root: where things are - the kernel tree holding a path, the root
 * the paths of a command line are relative to (in a tree or out of it),
 * the rules directory of the running program, a path made absolute.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"
#include "cocci/prefilter.h"
#include "lib/kernel.h"
#include "model/kver.h"

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

/*
 * The directory holding all @paths (each made absolute; a file stands for
 * its directory): the root of out-of-tree sources.  NULL after error().
 */
static char *common_dir(char *const *paths, int n)
{
	char *dir = NULL;
	int i;

	for (i = 0; i < n; i++) {
		char *p = cocci_abspath(paths[i]), *slash;
		size_t k = 0, last = 0;

		if (!p || access(p, F_OK) < 0) {
			error("%s: %s", paths[i], strerror(errno));
			free(p);
			free(dir);
			return NULL;
		}
		if (!cocci_is_dir(p)) {
			slash = strrchr(p, '/');
			slash[slash == p ? 1 : 0] = '\0';
		}
		if (!dir) {
			dir = p;
			continue;
		}
		/* the longest common prefix that ends at a '/' */
		while (dir[k] && dir[k] == p[k])
			if (dir[k++] == '/')
				last = k - 1;
		if (!dir[k] && (p[k] == '/' || !p[k]))
			last = k;
		dir[last ? last : 1] = '\0';
		free(p);
	}
	return dir;
}

int cocci_use_kernel(const char *kdir)
{
	long v = -1, p = -1;

	if (kernel_use(kdir) < 0)
		return -1;
	if (!kernel_dir())
		return 0;
	if (kver_read(kernel_dir(), &v, &p) < 0) {
		error("%s: no VERSION in its Makefile nor a kernel release: the newest kernel's semantics (%%p hashed)",
		      kernel_arg());
	} else {
		char ver[64];

		snprintf(ver, sizeof(ver), "%ld.%ld", v, p);
		prefilter_set_old(kver_p_unhashed(v, p));
		setenv("PTRGUARD_KERNEL_VERSION", ver, 1);
	}
	return 0;
}

char *cocci_paths_root(const char *tree, const char *kernel, char *const *paths, int n)
{
	char *const dot[] = { ".", NULL };
	char *root;
	int outside;

	if (!n) {
		paths = dot;
		n = 1;
	}
	if (tree) {
		if (access(tree, F_OK) < 0) {
			error("--tree %s: %s", tree, strerror(errno));
			return NULL;
		}
		root = cocci_abspath(tree);
		outside = kernel || !kernel_is_tree(root);
	} else if (kernel) {
		root = NULL;
		outside = 1;
	} else {
		if (access(paths[0], F_OK) < 0) {
			error("%s: %s", paths[0], strerror(errno));
			return NULL;
		}
		root = cocci_find_root_quiet(paths[0]);
		outside = !root;
	}
	if (outside && !root)
		root = common_dir(paths, n);
	if (outside && root && cocci_use_kernel(kernel) < 0) {
		free(root);
		return NULL;
	}
	return root;
}

/*
 * The top of the out-of-tree module holding the absolute path @abs: the
 * highest directory of the chain above it that has a Kbuild or Makefile
 * (its headers may be beside the file's directory: include/ next to src/);
 * the file's own directory if none has.
 */
static char *module_top(const char *abs)
{
	char *d = xstrdup(abs), *top = NULL, *slash;

	while ((slash = strrchr(d, '/')) && slash != d) {
		char *kb, *mk;
		int has;

		*slash = '\0';
		kb = xasprintf("%s/Kbuild", d);
		mk = xasprintf("%s/Makefile", d);
		has = !access(kb, F_OK) || !access(mk, F_OK);
		free(kb);
		free(mk);
		if (has) {
			free(top);
			top = xstrdup(d);
		} else if (top) {
			break;
		}
	}
	free(d);
	return top;
}

/* The directory of the absolute path @abs. */
static char *dir_of(const char *abs)
{
	char *d = xstrdup(abs), *slash = strrchr(d, '/');

	slash[slash == d ? 1 : 0] = '\0';
	return d;
}

char *cocci_file_root(const char *abs, const char *tree, int outside)
{
	char *root;

	if (tree)
		return realpath(tree, NULL);
	if (outside)
		return (root = module_top(abs)) ? root : dir_of(abs);
	return cocci_find_root_quiet(abs);
}
