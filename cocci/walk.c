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
#include <time.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"

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
	int known;		/* the index had it: not read again */
	long long id[KC_ID_LEN];	/* what the index compares (file_id()); id[0] < 0: none */
};

struct wlist {
	struct wfile *v;
	size_t nr, alloc;
};

/*
 * What says a file is unchanged, as git's index has it: device, inode,
 * size, modification and change times (of the file a link names).
 */
static void file_id(long long *id, const char *abs, const struct stat *lst)
{
	struct stat st;

	id[0] = -1;
	if (S_ISLNK(lst->st_mode) ? stat(abs, &st) < 0 : (st = *lst, 0))
		return;
	kc_stat_id(&st, id);
}

/* List the file @abs; @st: what lstat() said of it, or NULL (no index: no id) */
static void list_file(struct wlist *l, const struct walk *w, const char *abs,
		      const struct stat *st)
{
	GROW(l->v, l->nr, l->alloc);
	memset(&l->v[l->nr], 0, sizeof(l->v[l->nr]));
	l->v[l->nr].abs = xstrdup(abs);
	l->v[l->nr].rel = w->rootlen + 1;
	if (st)
		file_id(l->v[l->nr].id, abs, st);
	else
		l->v[l->nr].id[0] = -1;
	l->nr++;
}

/* ------------------------------------------------------------ the index */

/*
 * What the last walk of this tree found in each file, kept (with
 * opts->cache) in $PTRGUARD_CACHE/walk, one file per tree root: a file
 * whose file_id() is the same is not read again.  The index holds its
 * key (this program, the root, the rules' queries - which name the
 * wrappers - and what the walk keeps) and is used only when that is
 * equal.  A file changed in the last two seconds before a walk is not
 * kept: its next change could leave the times as they are.
 */
static const char index_magic[] = "ptrguard-walk-index 1\n";

struct windex {
	char *buf;		/* the index file, its records split in place */
	struct irec {
		const char *rel;
		long long id[KC_ID_LEN];
		unsigned int mask, bits;
		int has_p;
		int listed;	/* by this walk, which writes it anew */
	} *v;
	size_t n, alloc;
	size_t *slot;		/* open addressing over v, (size_t)-1: empty */
	size_t nslots;
};

static size_t name_hash(const char *s)
{
	return (size_t)kc_hash(s, strlen(s));
}

static void index_key(const struct walk *w, struct kc_key *k)
{
	char flags[64];
	size_t i;

	kc_add(k, index_magic, strlen(index_magic));
	if (kc_self(k) < 0)
		kc_field(k, "no program", "", 0);
	kc_field(k, "root", w->root, strlen(w->root));
	snprintf(flags, sizeof(flags), "%d %d %zu", w->headers, w->prefilter, w->nrules);
	kc_field(k, "walk", flags, strlen(flags));
	for (i = 0; i < w->nrules; i++) {
		const char *q = w->rules[i].query.text ? w->rules[i].query.text : "";

		snprintf(flags, sizeof(flags), "%d %d", (int)w->rules[i].kind, w->rules[i].headers);
		kc_field(k, "rule", flags, strlen(flags));
		kc_field(k, "query", q, strlen(q));
	}
}

static char *index_path(const struct walk *w)
{
	char *dir = kc_dir(NULL, "walk"), *path;

	if (!dir)
		return NULL;
	path = xasprintf("%s/%016zx", dir, name_hash(w->root));
	free(dir);
	return path;
}

static void index_free(struct windex *ix)
{
	free(ix->buf);
	free(ix->v);
	free(ix->slot);
	memset(ix, 0, sizeof(*ix));
}

/* Load the index of @w's tree, if its key is @key; an empty one if not. */
static void index_load(const struct walk *w, const struct kc_key *key, struct windex *ix)
{
	char *path = index_path(w), *p, *end, *nl, *tab;
	size_t len, i, h;

	memset(ix, 0, sizeof(*ix));
	if (!path)
		return;
	ix->buf = read_file(path, SIZE_MAX, &len);
	free(path);
	if (!ix->buf || len < key->len + 1 || memcmp(ix->buf, key->buf, key->len) ||
	    ix->buf[key->len] != '\n')
		goto bad;
	end = ix->buf + len;
	for (p = ix->buf + key->len + 1; p < end; p = nl + 1) {
		struct irec r = { 0 };
		int got;

		nl = memchr(p, '\n', (size_t)(end - p));
		tab = nl ? memchr(p, '\t', (size_t)(nl - p)) : NULL;
		if (!tab)
			goto bad;
		*tab = *nl = '\0';
		r.rel = p;
		got = sscanf(tab + 1, "%lld %lld %lld %lld %lld %lld %lld %u %u %d",
			     &r.id[0], &r.id[1], &r.id[2], &r.id[3], &r.id[4], &r.id[5],
			     &r.id[6], &r.mask, &r.bits, &r.has_p);
		if (got != 10)
			goto bad;
		GROW(ix->v, ix->n, ix->alloc);
		ix->v[ix->n++] = r;
	}
	ix->nslots = 2 * ix->n + 1;
	ix->slot = xmalloc(ix->nslots * sizeof(*ix->slot));
	memset(ix->slot, 0xff, ix->nslots * sizeof(*ix->slot));
	for (i = 0; i < ix->n; i++) {
		for (h = name_hash(ix->v[i].rel) % ix->nslots; ix->slot[h] != (size_t)-1;
		     h = (h + 1) % ix->nslots)
			;
		ix->slot[h] = i;
	}
	return;
bad:
	index_free(ix);
}

/* Take what the index says of @f, if @f is as the index saw it. */
static void index_use(struct windex *ix, struct wfile *f)
{
	const char *rel = f->abs + f->rel;
	size_t h;

	if (!ix->nslots || f->id[0] < 0)
		return;
	for (h = name_hash(rel) % ix->nslots; ix->slot[h] != (size_t)-1; h = (h + 1) % ix->nslots) {
		struct irec *r = &ix->v[ix->slot[h]];

		if (strcmp(r->rel, rel))
			continue;
		r->listed = 1;
		if (memcmp(r->id, f->id, sizeof(f->id)))
			return;
		f->mask = r->mask;
		f->bits = r->bits;
		f->has_p = r->has_p;
		f->len = (size_t)f->id[2];	/* its size, for balancing spatch's groups */
		f->known = 1;
		return;
	}
}

/*
 * Write the index of this walk, and what the last one saw of the files
 * this one did not list (best effort: a failure is only a lost saving).
 */
static void index_save(const struct walk *w, const struct kc_key *key, const struct wlist *l,
		       const struct windex *ix, time_t start)
{
	char *path = index_path(w), *dir, *text = NULL;
	size_t i, len = 0;
	FILE *f;

	if (!path)
		return;
	dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	f = mkdir_p(dir) < 0 ? NULL : open_memstream(&text, &len);
	if (f) {
		fwrite(key->buf, 1, key->len, f);
		fputc('\n', f);
		for (i = 0; i < l->nr; i++) {
			const struct wfile *v = &l->v[i];
			const char *rel = v->abs + v->rel;

			if (v->err || v->id[0] < 0 || strpbrk(rel, "\t\n") || kc_racy(v->id, start))
				continue;
			fprintf(f, "%s\t%lld %lld %lld %lld %lld %lld %lld %u %u %d\n", rel,
				v->id[0], v->id[1], v->id[2], v->id[3], v->id[4], v->id[5],
				v->id[6], v->mask, v->bits, v->has_p);
		}
		for (i = 0; i < ix->n; i++) {
			const struct irec *r = &ix->v[i];

			if (!r->listed)
				fprintf(f, "%s\t%lld %lld %lld %lld %lld %lld %lld %u %u %d\n",
					r->rel, r->id[0], r->id[1], r->id[2], r->id[3], r->id[4],
					r->id[5], r->id[6], r->mask, r->bits, r->has_p);
		}
		if (!fclose(f) && !write_file_atomic(path, text, len))
			kc_prune(dir, 256LL << 20);
	}
	free(text);
	free(dir);
	free(path);
}

/*
 * Does @buf hold "%p"?  By memchr() for '%' (rare in C; memchr() is
 * vectorized, glibc's memmem() a generic loop, which perf showed high):
 * this runs over every file of the tree.
 */
static int has_pct_p(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while ((p = memchr(p, '%', (size_t)(end - p))) && ++p < end)
		if (*p == 'p')
			return 1;
	return 0;
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
		f->bits = prefilter_scan_read(buf, f->len);
	else if (!f->mask && has_pct_p(buf, f->len))
		/* for keep_file()'s prefilter_keep(PF_RULE_PX): the literals alone */
		f->has_p = 1, f->bits = prefilter_scan_formats(buf, f->len);
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
		if (r->l->v[i].known)
			continue;
		read_one(r->w, &r->l->v[i], &buf, &alloc, found);
	}
	free(found);
	free(buf);
	return NULL;
}

static void read_all(const struct walk *w, struct wlist *l)
{
	struct readers r = { w, l, PTHREAD_MUTEX_INITIALIZER, 0 };

	run_threads(w->jobs, l->nr, reader, &r);
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
			if ((mask & (1u << i)) &&
			    (w->prefilter != COCCI_PREFILTER_CAST ||
			     w->rules[i].kind == PF_RULE_INT_CAST) &&
			    !prefilter_keep(w->rules[i].kind, f->bits, abs))
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

/* A directory entry, and its type as readdir() gives it (DT_UNKNOWN: ask lstat()). */
struct dentry {
	char *name;
	unsigned char type;
};

static int dentry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dentry *)a)->name, ((const struct dentry *)b)->name);
}

/*
 * Walk a directory.  Symbolic links to directories are not followed (as
 * find(1) under spatch --dir does not), nor are hidden directories (.git,
 * .pc); symbolic links to files are read.  An entry is stat()ed only
 * when readdir() does not say what it is, or when the index compares
 * what stat() says: most of a tree is neither a directory nor a file
 * the walk reads.
 */
static int walk_dir(struct walk *w, struct wlist *l, const char *abs)
{
	struct dentry *names = NULL;
	size_t n = 0, alloc = 0, i;
	struct dirent *de;
	struct stat st;
	char *path;
	DIR *d;
	int ret = 0;

	d = opendir(abs);
	if (!d) {
		error("%s: cannot read directory: %s",
		      abs[w->rootlen] ? abs + w->rootlen + 1 : ".", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			GROW(names, n, alloc);
			names[n].name = xstrdup(de->d_name);
			names[n++].type = de->d_type;
		}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), dentry_cmp);
	for (i = 0; i < n && !ret; i++) {
		unsigned char type = names[i].type;
		int wanted = wanted_name(names[i].name, w->headers);

		if (type != DT_UNKNOWN && type != DT_DIR && !wanted)
			continue;
		path = xasprintf("%s/%s", abs, names[i].name);
		if (type == DT_DIR) {
			ret = walk_dir(w, l, path);
		} else if (type == DT_REG && !w->index) {
			list_file(l, w, path, NULL);
		} else if (lstat(path, &st) < 0) {
			error("%s: %s", path + w->rootlen + 1, strerror(errno));
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk_dir(w, l, path);
		} else if (wanted) {
			list_file(l, w, path, &st);
		}
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i].name);
	free(names);
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
		list_file(l, w, abs, &st);
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
	struct windex ix = { 0 };
	struct kc_key key = { 0 };
	time_t start = time(NULL);
	size_t i, n = 0;
	int ret = 0;

	if (!npaths)
		ret = walk_dir(w, &l, w->root);
	for (i = 0; i < npaths && !ret; i++)
		ret = walk_path(w, &l, paths[i]);
	if (!ret && w->index) {
		index_key(w, &key);
		index_load(w, &key, &ix);
		for (i = 0; i < l.nr; i++)
			index_use(&ix, &l.v[i]);
		for (i = 0; i < l.nr; i++)
			w->nknown += l.v[i].known;
	}
	for (i = 0; i < w->nrules; i++)
		query_words_add(&w->words, &w->rules[i].query);
	if (!ret)
		read_all(w, &l);
	query_words_free(&w->words);
	if (!ret && w->index)
		index_save(w, &key, &l, &ix, start);
	index_free(&ix);
	free(key.buf);
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
