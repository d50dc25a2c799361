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
 * with the same relative names: a shadow of the tree (lib/shadow.c, the
 * gate's scratch trees).  Making it costs one readdir() and a few
 * hundred links per directory on the way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cocci/cocci_impl.h"
#include "lib/shadow.h"

int cocci_mirror_file(const char *root, const char *mirror, const char *rel, const char *text,
		      size_t len)
{
	struct shadow s = { (char *)mirror, root };
	struct stat st;
	char *path;
	FILE *f;
	int ret = 0;

	if (lstat(mirror, &st)) {
		struct shadow made;

		ret = shadow_init(&made, root, mirror);
		free(made.dir);
		if (ret < 0)
			return -1;
	}
	path = shadow_own_path(&s, rel);
	if (!path)
		return -1;
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

int cocci_mirror_remove(const char *mirror)
{
	if (shadow_remove(mirror) < 0) {
		error("%s: cannot remove", mirror);
		return -1;
	}
	return 0;
}
