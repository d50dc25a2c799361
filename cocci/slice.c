// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_mirror_file: the tree as spatch reads it when some of its files
 * are given as slices (model/lex_slice.c).
 *
 * spatch finds a file's headers from where the file is: "x.h" and
 * "../x.h" beside it, the -I paths and the forced includes from its
 * working directory.  A slice written anywhere else would lose them, and
 * one written into the tree would change the user's files.  So a run's
 * slices go into a directory of its own that reads as the tree: the root
 * and each directory on the way to a slice are real directories holding
 * a symbolic link to every entry of the tree's, and spatch runs there
 * with the same relative names.  Making it costs one readdir() and a few
 * hundred links per directory on the way, once a run.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"

/* Make @dir a real directory reading as @src (a link to each of its entries). */
static int mirror_dir(const char *src, const char *dir)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (!lstat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	if (!lstat(dir, &st) && unlink(dir) < 0) {
		error("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (mkdir(dir, 0700) < 0) {
		error("%s: %s", dir, strerror(errno));
		return -1;
	}
	d = opendir(src);
	if (!d) {
		error("%s: %s", src, strerror(errno));
		return -1;
	}
	while (!ret && (errno = 0, de = readdir(d))) {
		char *from, *to;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		from = xasprintf("%s/%s", src, de->d_name);
		to = xasprintf("%s/%s", dir, de->d_name);
		if (symlink(from, to) < 0) {
			error("%s: %s", to, strerror(errno));
			ret = -1;
		}
		free(from);
		free(to);
	}
	if (!ret && errno) {
		error("%s: %s", src, strerror(errno));
		ret = -1;
	}
	closedir(d);
	return ret;
}

int cocci_mirror_file(const char *root, const char *mirror, const char *rel, const char *text,
		      size_t len)
{
	char *path, *slash;
	const char *p;
	FILE *f;
	int ret = 0;

	if (mirror_dir(root, mirror) < 0)
		return -1;
	for (p = rel; (slash = strchr(p, '/')); p = slash + 1) {
		char *sub = xstrndup(rel, (size_t)(slash - rel));
		char *src = xasprintf("%s/%s", root, sub), *dst = xasprintf("%s/%s", mirror, sub);

		ret = mirror_dir(src, dst);
		free(sub);
		free(src);
		free(dst);
		if (ret < 0)
			return -1;
	}
	path = xasprintf("%s/%s", mirror, rel);
	if (unlink(path) < 0 && errno != ENOENT) {
		error("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	f = fopen(path, "wx");
	if (!f || fwrite(text, 1, len, f) != len) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	}
	if (f && fclose(f) && !ret) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	}
	free(path);
	return ret;
}

/* Remove @path: a link or a file, or a directory and what it holds (no link followed). */
static int remove_path(const char *path)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : (error("%s: %s", path, strerror(errno)), -1);
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0) {
			error("%s: %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	d = opendir(path);
	if (!d) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = xasprintf("%s/%s", path, de->d_name);
		if (remove_path(sub) < 0)
			ret = -1;
		free(sub);
	}
	closedir(d);
	if (!ret && rmdir(path) < 0) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

int cocci_mirror_remove(const char *mirror)
{
	return remove_path(mirror);
}
