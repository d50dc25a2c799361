// SPDX-License-Identifier: GPL-2.0
/*
 * lex_table: the tree-wide wrapper table of the lexical model (lex.h):
 * every header of a tree (of an out-of-tree module and of its kernel's
 * include path) read once, its __printf() functions and wrapper macros
 * followed to a fixed point, and the result cached per tree state.  The
 * reading of one header is lex.c's (lex_vocab_scan_header(),
 * lex_vocab_scan_macros()).
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/kernel.h"
#include "lib/keycache.h"
#include "model/lex.h"
#include "lib/ptrguard.h"

/* The headers that may define a wrapper macro, kept for the table's later rounds. */
struct hdrs {
	char **name, **buf;
	size_t *len;
	size_t n, alloc;
};

/*
 * The wrapper macros the @n header texts @buf (@len bytes each, named
 * @name; a NULL text is skipped) define over what @v knows, to a fixed
 * point: a wrapper over a wrapper of another header is found in a later
 * round (8 at most).
 */
static void scan_macros_fixed(struct lex_vocab *v, char *const *buf, const size_t *len,
			      char *const *name, size_t n)
{
	size_t i, round;
	int more;

	for (round = 0, more = 1; more && round < 8; round++) {
		more = 0;
		for (i = 0; i < n; i++)
			if (buf[i])
				more |= lex_vocab_scan_macros(v, buf[i], len[i], name[i]);
	}
}

/*
 * What the table was made from, for its cache: each directory read, each
 * header and each directory that could not be read, by base (0: the
 * tree, 1: the kernel of an out-of-tree module) and path from it, with
 * the identity git's index compares (device, inode, size, modification
 * and change times; kc_stat_id()), and for a directory a digest of the
 * entries the table reads there (its headers and subdirectories): a
 * header added, removed or renamed changes the directory's times, and
 * so does an object file a build writes beside it, which the digest
 * tells apart.
 */
struct seen {
	struct seen_rec {
		char kind;	/* 'D' directory, 'H' header, 'A' absent */
		int base;
		char *rel;
		long long id[KC_ID_LEN];
		unsigned long long names;	/* 'D': dir_entries()'s digest */
		int depth;			/* 'D': dir_entries()'s @depth */
	} *v;
	size_t n, alloc;
	int base;	/* of the records being added */
};

/* Room for one more record of @s: the new one, not yet filled. */
static struct seen_rec *seen_push(struct seen *s)
{
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 1024;
		s->v = xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	return &s->v[s->n++];
}

static void seen_add(struct seen *s, char kind, const char *rel, const struct stat *st)
{
	struct seen_rec *r;

	if (!s)
		return;
	r = seen_push(s);
	r->kind = kind;
	r->base = s->base;
	r->rel = xstrdup(rel);
	r->names = 0;
	r->depth = 0;
	if (st)
		kc_stat_id(st, r->id);
	else
		memset(r->id, 0, sizeof(r->id));
}

static void seen_free(struct seen *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].rel);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* The digest of a directory that cannot be read (dir_entries() never gives it, but by chance). */
#define UNREADABLE (~0ULL)

/* A name and its kind ('d', 'h', 'x': a header not there) in a directory's digest. */
static unsigned long long name_hash(const char *s, int kind)
{
	return kc_hash(s, strlen(s)) * 4 + (kind == 'd') + 2 * (kind == 'x');
}

/*
 * The entries of the open directory @d (@root/@dir) the table reads:
 * subdirectories (@depth below 32) and headers (.h), symbolic links
 * followed (the gate reads a tree of them), hidden ones skipped.  @fn
 * (if not NULL) is called for each; the result is a digest of their
 * names and kinds that readdir()'s order does not change.
 */
typedef void entry_fn(void *ctx, const char *rel, const char *abs, const struct stat *st,
		      int is_dir);

static unsigned long long dir_entries(const char *root, const char *dir, DIR *d, int depth,
				      entry_fn *fn, void *ctx)
{
	unsigned long long digest = 0;
	struct dirent *e;

	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		int is_h = n > 2 && !strcmp(e->d_name + n - 2, ".h");
		char *rel, *abs;
		struct stat st;

		if (e->d_name[0] == '.' || (e->d_type != DT_DIR && e->d_type != DT_LNK &&
					    e->d_type != DT_UNKNOWN && !is_h))
			continue;
		rel = strcmp(dir, ".") ? xasprintf("%s/%s", dir, e->d_name) : xstrdup(e->d_name);
		abs = xasprintf("%s/%s", root, rel);
		if (stat(abs, &st) == 0) {
			int is_dir = S_ISDIR(st.st_mode) && depth < 32;

			if (is_dir || (S_ISREG(st.st_mode) && is_h)) {
				digest += name_hash(e->d_name, is_dir ? 'd' : 'h');
				if (fn)
					fn(ctx, rel, abs, &st, is_dir);
			}
		} else if (is_h) {
			/* a link to a header not there yet (a generated one) */
			digest += name_hash(e->d_name, 'x');
			if (fn)
				fn(ctx, rel, abs, NULL, 0);
		}
		free(rel);
		free(abs);
	}
	return digest;
}

/*
 * Call @fn for every header (.h) under @root/@dir, @rel its path from
 * @root.  Each directory and header is recorded in @seen (if not NULL).
 */
typedef void header_fn(void *ctx, const char *rel, const char *abs, const struct stat *st);

struct walk_ctx {
	const char *root;
	int depth;
	header_fn *fn;
	void *ctx;
	struct seen *seen;
};

static void each_header(const char *root, const char *dir, int depth, header_fn *fn, void *ctx,
			struct seen *seen);

static void walk_entry(void *arg, const char *rel, const char *abs, const struct stat *st,
		       int is_dir)
{
	struct walk_ctx *w = arg;

	if (is_dir) {
		each_header(w->root, rel, w->depth + 1, w->fn, w->ctx, w->seen);
	} else if (!st) {
		seen_add(w->seen, 'A', rel, NULL);
	} else {
		seen_add(w->seen, 'H', rel, st);
		w->fn(w->ctx, rel, abs, st);
	}
}

static void each_header(const char *root, const char *dir, int depth, header_fn *fn, void *ctx,
			struct seen *seen)
{
	char *path = xasprintf("%s/%s", root, dir);
	DIR *d = opendir(path);
	struct walk_ctx w = { root, depth, fn, ctx, seen };
	unsigned long long digest = UNREADABLE;
	struct stat dst;
	size_t at;

	if (!d && !stat(path, &dst) && S_ISDIR(dst.st_mode)) {
		/* there, but not to be read: so it stays, until it changes */
		seen_add(seen, 'D', dir, &dst);
	} else if (!d || fstat(dirfd(d), &dst)) {
		seen_add(seen, 'A', dir, NULL);
		if (d)
			closedir(d);
		free(path);
		return;
	} else {
		seen_add(seen, 'D', dir, &dst);
	}
	free(path);
	/* its record's place: the array moves as the subdirectories' are added */
	at = seen ? seen->n - 1 : 0;
	if (d) {
		digest = dir_entries(root, dir, d, depth, walk_entry, &w);
		closedir(d);
	}
	if (seen) {
		seen->v[at].names = digest;
		seen->v[at].depth = depth;
	}
}

/* The headers listed by the directory walk, then read in threads. */
struct hread {
	struct hfile {
		char *rel, *abs;
		struct lex_vocab v;	/* its __printf() functions */
		char *buf;		/* its text, when it may define a wrapper macro */
		size_t len;
	} *f;
	size_t n, alloc;
	pthread_mutex_t lock;
	size_t next;
};

static void list_header(void *ctx, const char *rel, const char *abs, const struct stat *st)
{
	struct hread *r = ctx;

	(void)st;
	if (r->n == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 1024;
		r->f = xrealloc(r->f, r->alloc * sizeof(*r->f));
	}
	memset(&r->f[r->n], 0, sizeof(r->f[r->n]));
	r->f[r->n].rel = xstrdup(rel);
	r->f[r->n++].abs = xstrdup(abs);
}

/* Read a header's __printf() functions; keep it if it may define a wrapper macro. */
static void read_header(struct hfile *f)
{
	size_t len;
	char *buf = read_file(f->abs, SIZE_MAX, &len);

	if (!buf)
		return;
	lex_vocab_scan_header(&f->v, buf, len, f->rel);
	/* a wrapper macro: a variadic one, or one over a *printf* name */
	if (mem_find(buf, len, "define", 6) &&
	    (mem_find(buf, len, "...", 3) || mem_find(buf, len, "printf", 6))) {
		f->buf = buf;
		f->len = len;
		return;
	}
	free(buf);
}

static void *read_some(void *arg)
{
	struct hread *r = arg;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&r->lock);
		i = r->next++;
		pthread_mutex_unlock(&r->lock);
		if (i >= r->n)
			return NULL;
		read_header(&r->f[i]);
	}
}

/*
 * Read every header under @root/@dir into @v and @h.  The directories
 * are walked first (recorded in @seen), the headers then read by a few
 * threads (25,000 files on a kernel tree), and what each gave is added
 * in the walk's order: the table is the same as one read in a row (the
 * first header to declare a function names it).
 */
static void read_headers(struct lex_vocab *v, struct hdrs *h, const char *root, const char *dir,
			 struct seen *seen)
{
	struct hread r = { NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER, 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;

	each_header(root, dir, 0, list_header, &r, seen);
	run_threads(cpus < 1 ? 1 : cpus > 4 ? 4 : (unsigned int)cpus, r.n, read_some, &r);
	for (i = 0; i < r.n; i++) {
		struct hfile *f = &r.f[i];

		lex_vocab_copy(v, &f->v);
		lex_vocab_free(&f->v);
		if (f->buf) {
			if (h->n == h->alloc) {
				h->alloc = h->alloc ? 2 * h->alloc : 64;
				h->name = xrealloc(h->name, h->alloc * sizeof(*h->name));
				h->buf = xrealloc(h->buf, h->alloc * sizeof(*h->buf));
				h->len = xrealloc(h->len, h->alloc * sizeof(*h->len));
			}
			h->name[h->n] = f->rel;
			h->buf[h->n] = f->buf;
			h->len[h->n++] = f->len;
		} else {
			free(f->rel);
		}
		free(f->abs);
	}
	free(r.f);
}

static struct lex_vocab table;
static char *table_root;
/*
 * Which table this is (lex_vocab_table_id()): made when the table is
 * made from the headers, kept with it in the cache, so that results
 * that depend on it (judge/judge.c's judge cache) can name it in a key.
 */
static char table_id[33];

/* A fresh identity: 128 random bits, or this process and the time. */
static void new_table_id(void)
{
	unsigned char r[16];
	ssize_t got = getrandom(r, sizeof(r), 0);
	struct timespec ts;
	size_t i;

	if (got != (ssize_t)sizeof(r)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(table_id, sizeof(table_id), "p%ld.%lld.%ld", (long)getpid(),
			 (long long)ts.tv_sec, ts.tv_nsec);
		return;
	}
	for (i = 0; i < sizeof(r); i++)
		snprintf(table_id + 2 * i, 3, "%02x", r[i]);
}

/*
 * The cache of the table, in $PTRGUARD_CACHE/wrappers (keycache.h): one
 * entry per tree (its key: this program, the tree's and the kernel's
 * places), holding what the table was made from (struct seen), the
 * table's identity and the table.  The entry is used when every
 * directory and header it lists is still the file it was: a header
 * changed in place changes its own times, one added, removed or renamed
 * those of its directory, whose entries are then listed again
 * (same_entries()).  So a run stat()s the ~31,000 places of a kernel
 * tree (in threads) and reads no header.  A table made while a place it
 * read was changing (in the last two seconds, as git's racy index) is
 * not kept.
 */
#define TABLE_MAGIC "ptrguard-wrappers 4\n"

static void table_key(struct kc_key *k, const char *root, const char *kdir)
{
	size_t i;

	if (kc_self(k) < 0)
		kc_field(k, "no program", "", 0);
	kc_field(k, "root", root, strlen(root));
	if (kdir) {
		kc_field(k, "kernel", kdir, strlen(kdir));
		for (i = 0; kernel_include_dirs[i]; i++)
			kc_field(k, "include", kernel_include_dirs[i], strlen(kernel_include_dirs[i]));
	}
}

/* Checking the places of a cached table, in threads: is each as it was? */
struct check {
	int base[2];		/* the tree's and the kernel's directories, open */
	const char *path[2];	/* and their paths */
	int refreshed;		/* a directory changed, but not its headers and subdirectories */
	struct seen *seen;
	pthread_mutex_t lock;
	size_t next;
	int changed;
};

#define CHECK_BATCH 512

static int same_entries(const char *base, const struct seen_rec *r);

/*
 * Is the place of @r, now @st, changed?  A directory whose times changed
 * is not, if it holds the same headers and subdirectories: then its new
 * identity is taken into @r, and *@refreshed set for the entry to be
 * stored again.
 */
static int place_changed(const struct check *c, struct seen_rec *r, const struct stat *st,
			 int *refreshed)
{
	long long id[KC_ID_LEN];

	kc_stat_id(st, id);
	if (!memcmp(id, r->id, sizeof(id)))
		return 0;
	if (r->kind != 'D' || !same_entries(c->path[r->base], r))
		return 1;
	memcpy(r->id, id, sizeof(id));
	*refreshed = 1;
	return 0;
}

/*
 * Does directory @r (under @base) still hold the headers and
 * subdirectories it held?  Its times change with any entry (a build's
 * object files); its record is then read again, not the whole tree.
 */
static int same_entries(const char *base, const struct seen_rec *r)
{
	char *path = xasprintf("%s/%s", base, r->rel);
	DIR *d = opendir(path);
	int same = d ? dir_entries(base, r->rel, d, r->depth, NULL, NULL) == r->names :
		   r->names == UNREADABLE;

	if (d)
		closedir(d);
	free(path);
	return same;
}

static void *check_places(void *arg)
{
	struct check *c = arg;

	for (;;) {
		size_t i, from, to;
		int changed, refreshed = 0;

		pthread_mutex_lock(&c->lock);
		from = c->next;
		c->next += CHECK_BATCH;
		changed = c->changed;
		pthread_mutex_unlock(&c->lock);
		if (changed || from >= c->seen->n)
			break;
		to = from + CHECK_BATCH < c->seen->n ? from + CHECK_BATCH : c->seen->n;
		for (i = from; i < to && !changed; i++) {
			struct seen_rec *r = &c->seen->v[i];
			struct stat st;

			/* from the tree's directory: fewer names to look up */
			if (fstatat(c->base[r->base], r->rel, &st, 0))
				changed = r->kind != 'A';
			else if (r->kind == 'A' || (r->kind == 'D') != !!S_ISDIR(st.st_mode))
				changed = 1;
			else
				changed = place_changed(c, r, &st, &refreshed);
		}
		if (changed || refreshed) {
			pthread_mutex_lock(&c->lock);
			c->changed |= changed;
			c->refreshed |= refreshed;
			pthread_mutex_unlock(&c->lock);
		}
	}
	return NULL;
}

/*
 * The places of a cached entry: "KIND BASE ID... NAMES DEPTH REL" lines
 * and one "I ID" (the table's identity, into @id), up to a "T" line.
 * The text after it, or NULL if the entry is not whole.
 */
static char *parse_places(char *p, struct seen *seen, char *id, size_t idsize)
{
	*id = '\0';
	for (;;) {
		struct seen_rec r = { 0 };
		char *nl = strchr(p, '\n'), *e;
		size_t i;

		if (!nl)
			return NULL;
		*nl = '\0';
		if (!strcmp(p, "T"))
			return *id ? nl + 1 : NULL;
		if (p[0] == 'I' && p[1] == ' ') {
			if (*id || !p[2] || strlen(p + 2) >= idsize)
				return NULL;
			strcpy(id, p + 2);
			p = nl + 1;
			continue;
		}
		if ((p[0] != 'D' && p[0] != 'H' && p[0] != 'A') || p[1] != ' ' ||
		    (p[2] != '0' && p[2] != '1') || p[3] != ' ')
			return NULL;
		r.kind = p[0];
		r.base = p[2] - '0';
		for (p += 4, i = 0; i < KC_ID_LEN; i++, p = e + 1) {
			r.id[i] = strtoll(p, &e, 10);
			if (e == p || *e != ' ')
				return NULL;
		}
		r.names = strtoull(p, &e, 16);
		if (e == p || *e != ' ')
			return NULL;
		p = e + 1;
		r.depth = (int)strtol(p, &e, 10);
		if (e == p || *e != ' ')
			return NULL;
		r.rel = e + 1;
		*seen_push(seen) = r;
		p = nl + 1;
	}
}

/* Read the table lines: "NAME FMT VA ORIGIN PATH|-".  0 if whole. */
static int parse_table(char *line)
{
	size_t n = 0;
	char *nl;

	for (; *line; line = nl + 1) {
		char name[256], origin[1024], fpath[1024];
		unsigned int fmt;
		int va;

		nl = strchr(line, '\n');
		if (!nl)
			return -1;
		*nl = '\0';
		if (sscanf(line, "%255s %u %d %1023s %1023s", name, &fmt, &va, origin, fpath) != 5)
			return -1;
		lex_vocab_add(&table, name, strlen(name), fmt, va, origin);
		if (strcmp(fpath, "-")) {	/* "A->B" was "A -> B" */
			char *out = xmalloc(3 * strlen(fpath) + 1), *o = out, *p;

			for (p = fpath; *p; p++) {
				if (p[0] == '-' && p[1] == '>') {
					o = stpcpy(o, " -> ");
					p++;
				} else {
					*o++ = *p;
				}
			}
			*o = '\0';
			table.fns[table.nfns - 1].path = out;
		}
		n++;
	}
	return n ? 0 : -1;
}

static void table_store(const char *dir, const struct kc_key *key, const struct seen *seen,
			time_t start);

/*
 * The cached table of @key, if every place it was made from is as it
 * was (or, for a directory, holds what it held).  0 if so.
 */
static int table_load(const char *dir, const struct kc_key *key, const char *root,
		      const char *kdir)
{
	struct check c = { { -1, -1 }, { root, kdir ? kdir : root }, 0, NULL,
			   PTHREAD_MUTEX_INITIALIZER, 0, 0 };
	struct seen seen = { 0 };
	size_t len;
	char *buf = kc_get(dir, TABLE_MAGIC, key, &len), *rest, id[sizeof(table_id)];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ret = -1;

	if (!buf)
		return -1;
	rest = parse_places(buf, &seen, id, sizeof(id));
	c.base[0] = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c.base[1] = kdir ? open(kdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : c.base[0];
	if (rest && seen.n && c.base[0] >= 0 && c.base[1] >= 0) {
		c.seen = &seen;
		run_threads(cpus < 1 ? 1 : cpus > 4 ? 4 : (unsigned int)cpus,
			    (seen.n + CHECK_BATCH - 1) / CHECK_BATCH, check_places, &c);
		if (!c.changed)
			ret = parse_table(rest);
		if (!ret)
			strcpy(table_id, id);
		/* the directories' new times, for the next run */
		if (!ret && c.refreshed)
			table_store(dir, key, &seen, time(NULL));
	}
	if (ret)
		lex_vocab_free(&table);
	if (c.base[1] >= 0 && c.base[1] != c.base[0])
		close(c.base[1]);
	if (c.base[0] >= 0)
		close(c.base[0]);
	free(seen.v);	/* the paths point into buf */
	free(buf);
	return ret;
}

/*
 * Store the table and its places; a failure only loses the saving.
 * Paths hold no blank: " -> " is "->".
 */
static void table_store(const char *dir, const struct kc_key *key, const struct seen *seen,
			time_t start)
{
	char *text = NULL;
	size_t i, len = 0;
	FILE *f = open_memstream(&text, &len);
	int bad = 0;

	if (!f)
		return;
	for (i = 0; i < seen->n; i++) {
		const struct seen_rec *r = &seen->v[i];
		size_t j;

		/* racy: changed while it was read, or a name the lines cannot hold */
		if (kc_racy(r->id, start) || strchr(r->rel, '\n'))
			bad = 1;
		fprintf(f, "%c %d", r->kind, r->base);
		for (j = 0; j < KC_ID_LEN; j++)
			fprintf(f, " %lld", r->id[j]);
		fprintf(f, " %llx %d %s\n", r->names, r->depth, r->rel);
	}
	fprintf(f, "I %s\nT\n", table_id);
	for (i = 0; i < table.nfns; i++) {
		const struct lex_fn *fn = &table.fns[i];

		if (strpbrk(fn->origin, " \t\n"))
			bad = 1;
		fprintf(f, "%s %u %d %s ", fn->name, fn->fmt, fn->va, fn->origin);
		if (fn->path) {
			const char *p;

			for (p = fn->path; *p; p++)
				if (*p != ' ')
					fputc(*p, f);
			fputc('\n', f);
		} else {
			fputs("-\n", f);
		}
	}
	/* an entry of 6.12 is about 3 MB; a rebuilt ptrguard makes new ones */
	if (!fclose(f) && !bad && !kc_put(dir, TABLE_MAGIC, key, text, len))
		kc_prune(dir, 128LL << 20);
	free(text);
}

/*
 * Trees whose headers are another's (lex_vocab_table_alias()), real paths,
 * but for the headers of @over (relative paths), whose text in the alias
 * is its own: its table is @root's with those headers read again
 * (overlay_table()), made on the first question, with an identity of its
 * own.
 */
struct alias {
	char *from, *to;
	char **over;
	size_t nover;
	int made;
	struct lex_vocab v;
	char id[33];
};
static struct alias *aliases;
static size_t naliases;

void lex_vocab_table_alias(const char *alias, const char *root)
{
	lex_vocab_table_overlay(alias, root, NULL, 0);
}

void lex_vocab_table_overlay(const char *alias, const char *root, const char *const *headers,
			     size_t n)
{
	char *a = realpath(alias, NULL), *r = realpath(root, NULL);
	struct alias *e;
	size_t i;

	if (!a || !r) {
		free(a);
		free(r);
		return;
	}
	aliases = xrealloc(aliases, (naliases + 1) * sizeof(*aliases));
	e = &aliases[naliases++];
	memset(e, 0, sizeof(*e));
	e->from = a;
	e->to = r;
	e->over = xmalloc((n + 1) * sizeof(*e->over));
	for (i = 0; i < n; i++)
		e->over[i] = xstrdup(headers[i]);
	e->nover = n;
}

/*
 * @e's table: the base table (loaded), with the wrappers its own headers
 * declare and define, to a fixed point among them.  A wrapper of the
 * base's other headers over a new wrapper of these is not seen (the full
 * table of the alias would be a walk of every header).  Its identity
 * follows the base's and those headers' text.
 */
static const struct lex_vocab *overlay_table(struct alias *e)
{
	struct kc_key k = { 0 };
	char **buf = xmalloc((e->nover + 1) * sizeof(*buf));
	size_t *len = xmalloc((e->nover + 1) * sizeof(*len));
	size_t i;

	if (e->made)
		goto done;
	lex_vocab_copy(&e->v, &table);
	kc_add(&k, table_id, strlen(table_id));
	for (i = 0; i < e->nover; i++) {
		char *path = xasprintf("%s/%s", e->from, e->over[i]);

		buf[i] = read_file(path, SIZE_MAX, &len[i]);
		free(path);
		kc_field(&k, "header", e->over[i], strlen(e->over[i]));
		kc_field(&k, "text", buf[i] ? buf[i] : "", buf[i] ? len[i] : 0);
		if (buf[i])
			lex_vocab_scan_header(&e->v, buf[i], len[i], e->over[i]);
	}
	scan_macros_fixed(&e->v, buf, len, e->over, e->nover);
	for (i = 0; i < e->nover; i++)
		free(buf[i]);
	snprintf(e->id, sizeof(e->id), "o%016llx", (unsigned long long)kc_hash(k.buf, k.len));
	free(k.buf);
	e->made = 1;
done:
	free(buf);
	free(len);
	return &e->v;
}

/* The alias entry of @root whose base table is loaded, or NULL. */
static struct alias *alias_of(const char *root)
{
	char *real;
	size_t i;

	if (!naliases || !table_root)
		return NULL;
	real = realpath(root, NULL);
	for (i = 0; real && i < naliases; i++)
		if (!strcmp(real, aliases[i].from) && !strcmp(table_root, aliases[i].to)) {
			free(real);
			return &aliases[i];
		}
	free(real);
	return NULL;
}

const struct lex_vocab *lex_vocab_table(const char *root)
{
	/* out-of-tree sources: the kernel's include path too */
	const char *kdir = kernel_outside() ? kernel_dir() : NULL;
	struct hdrs h = { 0 };
	struct seen seen = { 0 };
	struct kc_key key = { 0 };
	size_t i;
	time_t start = time(NULL);
	char *dir;
	struct alias *a = alias_of(root);

	if (a)
		return a->nover ? overlay_table(a) : &table;
	if (table_root && !strcmp(table_root, root))
		return &table;
	lex_vocab_free(&table);
	free(table_root);
	table_root = xstrdup(root);
	dir = kc_dir(NULL, "wrappers");
	if (dir) {
		table_key(&key, root, kdir);
		if (!table_load(dir, &key, root, kdir)) {
			free(key.buf);
			free(dir);
			return &table;
		}
	}
	new_table_id();
	lex_vocab_core(&table);
	if (kdir) {
		seen.base = 1;
		for (i = 0; kernel_include_dirs[i]; i++)
			read_headers(&table, &h, kdir, kernel_include_dirs[i], &seen);
		seen.base = 0;
	}
	read_headers(&table, &h, root, ".", &seen);
	/* a wrapper over a wrapper of another header: to a fixed point */
	scan_macros_fixed(&table, h.buf, h.len, h.name, h.n);
	for (i = 0; i < h.n; i++) {
		free(h.name[i]);
		free(h.buf[i]);
	}
	free(h.name);
	free(h.buf);
	free(h.len);
	if (dir)
		table_store(dir, &key, &seen, start);
	seen_free(&seen);
	free(key.buf);
	free(dir);
	return &table;
}

const char *lex_vocab_table_id(const char *root)
{
	struct alias *a;

	lex_vocab_table(root);
	a = alias_of(root);
	return a && a->nover ? a->id : table_id;
}

void lex_vocab_tree(struct lex_vocab *v, const char *root, const char *rel)
{
	(void)rel;	/* every header of the tree is in its table */
	lex_vocab_copy(v, lex_vocab_table(root));
}
