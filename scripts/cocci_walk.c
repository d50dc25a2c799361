// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_walk: the files each rule runs on.  The walk reads every .c file
 * (and .h file, for a rule with --include-headers) under the paths once
 * and keeps those satisfying a rule's grep query - the prefilter spatch
 * applies before parsing a file, done here so that no spatch process
 * reads a file that cannot match - and, with opts->prefilter, holding a
 * conversion the rule reports (prefilter.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cocci_impl.h"

static int wanted_name(const char *name, int headers)
{
	size_t n = strlen(name);

	return n > 2 && name[n - 2] == '.' &&
		(name[n - 1] == 'c' || (headers && name[n - 1] == 'h'));
}

/* Prefilter one file: @abs is absolute, @rel relative to the root. */
static int walk_file(struct walk *w, const char *abs, const char *rel)
{
	unsigned int mask = 0;
	size_t len, i;
	char *buf;
	int m;

	buf = read_file(abs, SIZE_MAX, &len);
	if (!buf) {
		error("%s: cannot read: %s", rel,
		      errno == EINVAL ? "not a regular file" : strerror(errno));
		return -1;
	}
	w->nscanned++;
	for (i = 0; i < w->nrules; i++) {
		if (!w->rules[i].headers && rel[strlen(rel) - 1] == 'h')
			continue;
		m = query_match(&w->rules[i].query, buf, len);
		if (m)
			mask |= 1u << i;
	}
	if (mask)
		w->nquery++;
	if (mask && w->prefilter) {
		unsigned int bits = prefilter_scan(buf, len);

		for (i = 0; i < w->nrules; i++)
			if ((mask & (1u << i)) && !prefilter_keep(w->rules[i].kind, bits, abs))
				mask &= ~(1u << i);
		/* no rule can report here: the model still lists the calls it cannot read */
		if (!mask)
			strvec_push(&w->lexonly, xstrdup(rel));
	} else if (!mask && memmem(buf, len, "%p", 2) &&
		   prefilter_keep(PF_RULE_PX, prefilter_scan(buf, len), abs)) {
		strvec_push(&w->lexonly, xstrdup(rel));
	}
	free(buf);
	if (!mask)
		return 0;
	GROW(w->cands, w->ncands, w->alloc);
	w->cands[w->ncands].file = xstrdup(rel);
	w->cands[w->ncands].size = len;
	w->cands[w->ncands].rules = mask;
	w->ncands++;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * Walk a directory.  Symbolic links to directories are not followed (as
 * find(1) under spatch --dir does not), nor are hidden directories (.git,
 * .pc); symbolic links to files are read.
 */
static int walk_dir(struct walk *w, const char *abs)
{
	struct strvec names = { 0 };
	struct dirent *de;
	struct stat st;
	char *path;
	DIR *d;
	size_t i;
	int ret = 0;

	d = opendir(abs);
	if (!d) {
		error("%s: cannot read directory: %s",
		      abs[w->rootlen] ? abs + w->rootlen + 1 : ".", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			strvec_push(&names, xstrdup(de->d_name));
	closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), name_cmp);
	for (i = 0; i < names.nr && !ret; i++) {
		path = xasprintf("%s/%s", abs, names.v[i]);
		if (lstat(path, &st) < 0) {
			error("%s: %s", path + w->rootlen + 1, strerror(errno));
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk_dir(w, path);
		} else if (wanted_name(names.v[i], w->headers)) {
			ret = walk_file(w, path, path + w->rootlen + 1);
		}
		free(path);
	}
	strvec_clear(&names);
	return ret;
}

static int walk_path(struct walk *w, const char *path)
{
	char *abs = cocci_abspath(path);
	struct stat st;
	int ret;

	if (!abs) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	if (strncmp(abs, w->root, w->rootlen) ||
	    (abs[w->rootlen] && abs[w->rootlen] != '/')) {
		error("%s: not under the tree root %s", path, w->root);
		free(abs);
		return -1;
	}
	if (stat(abs, &st) < 0) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	} else if (S_ISDIR(st.st_mode)) {
		ret = walk_dir(w, abs);
	} else if (!wanted_name(abs, 1)) {
		error("%s: not a C source or header file", path);
		ret = -1;
	} else {
		ret = walk_file(w, abs, abs + w->rootlen + 1);
	}
	free(abs);
	return ret;
}

static int cand_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cand *)a)->file, ((const struct cand *)b)->file);
}

int walk_paths(struct walk *w, const char * const *paths, size_t npaths)
{
	size_t i, n = 0;

	if (!npaths && walk_dir(w, w->root) < 0)
		return -1;
	for (i = 0; i < npaths; i++)
		if (walk_path(w, paths[i]) < 0)
			return -1;
	/* the same file named twice, or by a file and its directory */
	if (w->ncands)
		qsort(w->cands, w->ncands, sizeof(*w->cands), cand_cmp);
	for (i = 0; i < w->ncands; i++) {
		if (n && !strcmp(w->cands[n - 1].file, w->cands[i].file)) {
			free(w->cands[i].file);
			continue;
		}
		w->cands[n++] = w->cands[i];
	}
	w->ncands = n;
	return 0;
}

void walk_free(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->ncands; i++)
		free(w->cands[i].file);
	free(w->cands);
	strvec_clear(&w->lexonly);
}
