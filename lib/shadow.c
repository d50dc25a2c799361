// SPDX-License-Identifier: GPL-2.0
/*
 * shadow: a scratch copy of a tree made of symbolic links.
 *
 * Copying or checking out a kernel tree costs seconds and a gigabyte; a
 * run changes a handful of its files.  A shadow tree is a directory of
 * symlinks to the real tree's top-level entries; owning a path replaces
 * each directory along it by a real directory of symlinks (one level of
 * entries, so the cost is that of a few readdir()s), and the file itself
 * by a private one.  spatch run there sees every header through the
 * links ("../x.h", -I paths), and the real tree is never written: the
 * gate's states of a patched tree (gate/tree.c), and the slices spatch
 * is given for the rules (cocci/slice.c).
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/ptrguard.h"
#include "lib/shadow.h"

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);	/* a symlink is removed, never followed */
	return 0;
}

int shadow_remove(const char *dir)
{
	struct stat st;
	int saved = errno, gone;

	if (!dir)
		return 0;
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	gone = lstat(dir, &st) < 0;
	/* quiet: a cleanup at exit must not change what a failed write left */
	errno = saved;
	return gone ? 0 : -1;
}


/* Fill the (real, empty) directory @dir with links to the entries of @target. */
static int link_entries(const char *dir, const char *target, int top)
{
	DIR *d = opendir(target);
	struct dirent *e;

	if (!d) {
		error("%s: %s", target, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char *from, *to;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		/* A .git link would turn the shadow into a work tree of that repo. */
		if (top && !strcmp(e->d_name, ".git"))
			continue;
		from = xasprintf("%s/%s", target, e->d_name);
		to = xasprintf("%s/%s", dir, e->d_name);
		if (symlink(from, to)) {
			error("symlink %s: %s", to, strerror(errno));
			free(from);
			free(to);
			closedir(d);
			return -1;
		}
		free(from);
		free(to);
	}
	closedir(d);
	return 0;
}


int shadow_init(struct shadow *s, const char *tree, const char *dir)
{
	s->tree = tree;
	s->dir = strdup(dir);
	if (!s->dir)
		die("out of memory");
	if (mkdir(dir, 0700)) {
		error("mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	return link_entries(dir, tree, 1);
}


/*
 * Make the directory @rel (relative, may be "") real in the shadow.  If
 * the real tree has no such directory, the shadow gets an empty one only
 * when @create is set; git apply makes new directories itself.
 */
static int own_dir(struct shadow *s, const char *rel)
{
	char *path = xasprintf("%s/%s", s->dir, rel);
	char *target = xasprintf("%s/%s", s->tree, rel);
	struct stat st;
	int ret = 0;

	if (lstat(path, &st)) {
		/* Not in the real tree: a directory the patch creates. */
		if (mkdir(path, 0700) && errno != EEXIST) {
			error("mkdir %s: %s", path, strerror(errno));
			ret = -1;
		}
	} else if (S_ISLNK(st.st_mode)) {
		if (stat(target, &st) || !S_ISDIR(st.st_mode)) {
			error("%s: not a directory in the tree", target);
			ret = -1;
		} else if (unlink(path) || mkdir(path, 0700)) {
			error("%s: %s", path, strerror(errno));
			ret = -1;
		} else {
			ret = link_entries(path, target, 0);
		}
	} else if (!S_ISDIR(st.st_mode)) {
		error("%s: a file where the patch needs a directory", rel);
		ret = -1;
	}
	free(path);
	free(target);
	return ret;
}


/*
 * Make @rel ownable in @s: its directories real, no entry at its place.
 * The path to write it at (malloc()ed), or NULL after error().
 */
char *shadow_own_path(struct shadow *s, const char *rel)
{
	char *copy, *slash, *path;
	struct stat st;

	if (!*rel || rel[0] == '/' || strstr(rel, "../") || !strcmp(rel, "..")) {
		error("%s: path outside the tree", rel);
		return NULL;
	}
	copy = xstrdup(rel);
	for (slash = strchr(copy, '/'); slash; slash = strchr(slash + 1, '/')) {
		int ret;

		*slash = '\0';
		ret = own_dir(s, copy);
		*slash = '/';
		if (ret) {
			free(copy);
			return NULL;
		}
	}
	free(copy);
	path = xasprintf("%s/%s", s->dir, rel);
	if (!lstat(path, &st)) {
		if (S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode)) {
			error("%s: a directory where the patch has a file", rel);
			free(path);
			return NULL;
		}
		if (unlink(path)) {
			error("%s: %s", path, strerror(errno));
			free(path);
			return NULL;
		}
	}
	return path;
}
