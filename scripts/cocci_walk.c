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
#include <pthread.h>
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

/*
 * A file to read, and what reading it found: which rules' queries hold,
 * the prefilter's bits, whether it holds a %p.  The files are listed
 * first (in the walk's order), then read by w->jobs threads, then kept or
 * dropped in order: the result does not depend on the threads.
 */
struct wfile {
	char *abs;
	size_t rel;		/* offset of the relative name in abs */
	size_t len;
	unsigned int mask;	/* bit i: rule i's query holds */
	unsigned int bits;	/* prefilter_scan(), if it ran */
	int has_p;		/* a %p, in a file no query keeps */
	int err;		/* errno of a failed read */
};

struct wlist {
	struct wfile *v;
	size_t nr, alloc;
};

static void list_file(struct wlist *l, const struct walk *w, const char *abs)
{
	GROW(l->v, l->nr, l->alloc);
	memset(&l->v[l->nr], 0, sizeof(l->v[l->nr]));
	l->v[l->nr].abs = xstrdup(abs);
	l->v[l->nr].rel = w->rootlen + 1;
	l->nr++;
}

/*
 * Read one file into the thread's buffer (in a worker thread: nothing
 * here touches the walk).
 */
static void read_one(const struct walk *w, struct wfile *f, char **bufp, size_t *alloc,
		     unsigned char *found)
{
	const char *rel = f->abs + f->rel;
	struct query_found qf = { &w->words, found };
	size_t i;
	char *buf;

	if (read_file_into(f->abs, SIZE_MAX, bufp, alloc, &f->len) < 0) {
		f->err = errno ? errno : EIO;
		return;
	}
	buf = *bufp;
	query_words_scan(&w->words, buf, f->len, found);
	for (i = 0; i < w->nrules; i++) {
		if (!w->rules[i].headers && rel[strlen(rel) - 1] == 'h')
			continue;
		if (query_match(&w->rules[i].query, buf, f->len, &qf))
			f->mask |= 1u << i;
	}
	if (f->mask && w->prefilter)
		f->bits = prefilter_scan(buf, f->len);
	else if (!f->mask && memmem(buf, f->len, "%p", 2))
		f->has_p = 1, f->bits = prefilter_scan(buf, f->len);
}

struct readers {
	const struct walk *w;
	struct wlist *l;
	pthread_mutex_t lock;
	size_t next;
};

static void *reader(void *arg)
{
	struct readers *r = arg;
	unsigned char *found = xmalloc(r->w->words.n + 1);
	size_t i, alloc = 0;
	char *buf = NULL;

	for (;;) {
		pthread_mutex_lock(&r->lock);
		i = r->next++;
		pthread_mutex_unlock(&r->lock);
		if (i >= r->l->nr)
			break;
		read_one(r->w, &r->l->v[i], &buf, &alloc, found);
	}
	free(found);
	free(buf);
	return NULL;
}

static void read_all(const struct walk *w, struct wlist *l)
{
	struct readers r = { w, l, PTHREAD_MUTEX_INITIALIZER, 0 };
	unsigned int n = w->jobs ? w->jobs : 1, k, started = 0;
	pthread_t *t;

	if (n > l->nr)
		n = l->nr ? (unsigned int)l->nr : 1;
	t = xmalloc(n * sizeof(*t));
	/* the calling thread is a reader too; a thread that cannot start is not needed */
	for (k = 1; k < n; k++)
		if (!pthread_create(&t[started], NULL, reader, &r))
			started++;
	reader(&r);
	for (k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	free(t);
}

/* Keep or drop a file that was read: @abs is absolute, @rel relative to the root. */
static int keep_file(struct walk *w, const struct wfile *f)
{
	const char *abs = f->abs, *rel = f->abs + f->rel;
	unsigned int mask = f->mask;
	size_t i;

	if (f->err) {
		error("%s: cannot read: %s", rel,
		      f->err == EINVAL ? "not a regular file" : strerror(f->err));
		return -1;
	}
	w->nscanned++;
	if (mask)
		w->nquery++;
	if (mask && w->prefilter) {
		for (i = 0; i < w->nrules; i++)
			if ((mask & (1u << i)) && !prefilter_keep(w->rules[i].kind, f->bits, abs))
				mask &= ~(1u << i);
		/* no rule can report here: the model still lists the calls it cannot read */
		if (!mask)
			strvec_push(&w->lexonly, xstrdup(rel));
	} else if (!mask && f->has_p && prefilter_keep(PF_RULE_PX, f->bits, abs)) {
		strvec_push(&w->lexonly, xstrdup(rel));
	}
	if (!mask)
		return 0;
	GROW(w->cands, w->ncands, w->alloc);
	w->cands[w->ncands].file = xstrdup(rel);
	w->cands[w->ncands].size = f->len;
	w->cands[w->ncands].rules = mask;
	w->cands[w->ncands].cached = 0;
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
static int walk_dir(struct walk *w, struct wlist *l, const char *abs)
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
			ret = walk_dir(w, l, path);
		} else if (wanted_name(names.v[i], w->headers)) {
			list_file(l, w, path);
		}
		free(path);
	}
	strvec_clear(&names);
	return ret;
}

static int walk_path(struct walk *w, struct wlist *l, const char *path)
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
		ret = walk_dir(w, l, abs);
	} else if (!wanted_name(abs, 1)) {
		error("%s: not a C source or header file", path);
		ret = -1;
	} else {
		list_file(l, w, abs);
		ret = 0;
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
	struct wlist l = { NULL, 0, 0 };
	size_t i, n = 0;
	int ret = 0;

	if (!npaths)
		ret = walk_dir(w, &l, w->root);
	for (i = 0; i < npaths && !ret; i++)
		ret = walk_path(w, &l, paths[i]);
	for (i = 0; i < w->nrules; i++)
		query_words_add(&w->words, &w->rules[i].query);
	if (!ret)
		read_all(w, &l);
	query_words_free(&w->words);
	for (i = 0; i < l.nr; i++) {
		if (!ret)
			ret = keep_file(w, &l.v[i]);
		free(l.v[i].abs);
	}
	free(l.v);
	if (ret)
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
