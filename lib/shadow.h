/* SPDX-License-Identifier: GPL-2.0 */
/* shadow: a scratch copy of a tree made of symbolic links (lib/shadow.c). */
#ifndef PTRGUARD_SHADOW_H
#define PTRGUARD_SHADOW_H

/*
 * A shadow tree: a directory whose entries are symlinks into the real
 * tree, except along the paths owned, where directories are real and the
 * files private.
 */
struct shadow {
	char *dir;		/* absolute path of the shadow root */
	const char *tree;	/* absolute path of the real tree */
};

/* Create @dir as a shadow of @tree (symlinks to its top-level entries, .git aside). */
int shadow_init(struct shadow *s, const char *tree, const char *dir);
/*
 * Make @rel ownable in @s: its directories real (one the tree lacks is
 * made empty), no entry at its place.  The path to write it at
 * (malloc()ed), or NULL after error().
 */
char *shadow_own_path(struct shadow *s, const char *rel);
/* rm -rf @dir without following symlinks, quietly (errno kept); -1 if it is still there. */
int shadow_remove(const char *dir);

#endif
