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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cocci.h"
#include "kernel.h"
#include "lex.h"
#include "ptrguard.h"

/* The headers that may define a wrapper macro, kept for the table's later rounds. */
struct hdrs {
	char **name, **buf;
	size_t *len;
	size_t n, alloc;
};

/*
 * Call @fn for every header (.h) under @root/@dir, @rel its path from
 * @root; symbolic links are followed (the gate reads a tree of them).
 */
typedef void header_fn(void *ctx, const char *rel, const char *abs, const struct stat *st);

static void each_header(const char *root, const char *dir, int depth, header_fn *fn, void *ctx)
{
	char *path = xasprintf("%s/%s", root, dir);
	DIR *d = opendir(path);
	struct dirent *e;

	free(path);
	if (!d)
		return;
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
			if (S_ISDIR(st.st_mode) && depth < 32)
				each_header(root, rel, depth + 1, fn, ctx);
			else if (S_ISREG(st.st_mode) && is_h)
				fn(ctx, rel, abs, &st);
		}
		free(rel);
		free(abs);
	}
	closedir(d);
}

struct read_ctx {
	struct lex_vocab *v;
	struct hdrs *h;
};

/* Read a header's __printf() functions; keep it if it may define a wrapper macro. */
static void read_header(void *ctx, const char *rel, const char *abs, const struct stat *st)
{
	struct read_ctx *c = ctx;
	struct hdrs *h = c->h;
	size_t len;
	char *buf = read_file(abs, SIZE_MAX, &len);

	(void)st;
	if (!buf)
		return;
	lex_vocab_scan_header(c->v, buf, len, rel);
	/* a wrapper macro: a variadic one, or one over a *printf* name */
	if (memmem(buf, len, "define", 6) &&
	    (memmem(buf, len, "...", 3) || memmem(buf, len, "printf", 6))) {
		if (h->n == h->alloc) {
			h->alloc = h->alloc ? 2 * h->alloc : 64;
			h->name = xrealloc(h->name, h->alloc * sizeof(*h->name));
			h->buf = xrealloc(h->buf, h->alloc * sizeof(*h->buf));
			h->len = xrealloc(h->len, h->alloc * sizeof(*h->len));
		}
		h->name[h->n] = xstrdup(rel);
		h->buf[h->n] = buf;
		h->len[h->n++] = len;
		return;
	}
	free(buf);
}

static void read_headers(struct lex_vocab *v, struct hdrs *h, const char *root, const char *dir)
{
	struct read_ctx c = { v, h };

	each_header(root, dir, 0, read_header, &c);
}

static struct lex_vocab table;
static char *table_root;

/*
 * The cache of the table: one file per tree state in
 * $PTRGUARD_CACHE/wrappers (~/.cache/ptrguard/wrappers), named by a hash
 * of every header's path, size, modification time and inode (what git's
 * index compares), of the kernel's for out-of-tree sources, and of this
 * model's version.  PTRGUARD_CACHE=off: none.
 */
#define TABLE_MAGIC "ptrguard-wrappers 1"

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 0x100000001b3ULL;
	}
}

/* A header's path, size, modification time and inode, into the key. */
static void key_header(void *ctx, const char *rel, const char *abs, const struct stat *st)
{
	long long t[4] = { (long long)st->st_size, (long long)st->st_mtim.tv_sec,
			   (long long)st->st_mtim.tv_nsec, (long long)st->st_ino };

	(void)rel;
	fnv(ctx, abs, strlen(abs) + 1);
	fnv(ctx, t, sizeof(t));
}

static void key_headers(uint64_t *h, const char *root, const char *dir)
{
	each_header(root, dir, 0, key_header, h);
}

static char *table_cache_path(const char *root, const char *kdir)
{
	const char *top = getenv("PTRGUARD_CACHE"), *home = getenv("HOME");
	uint64_t h = 0xcbf29ce484222325ULL;
	char *dir, *path;
	size_t i;

	if (top && !strcmp(top, "off"))
		return NULL;
	if (top && *top)
		dir = xasprintf("%s/wrappers", top);
	else if (home && *home)
		dir = xasprintf("%s/.cache/ptrguard/wrappers", home);
	else
		return NULL;
	fnv(&h, TABLE_MAGIC, sizeof(TABLE_MAGIC));
	if (kdir)
		for (i = 0; cocci_include_dirs[i]; i++)
			key_headers(&h, kdir, cocci_include_dirs[i]);
	key_headers(&h, root, ".");
	path = xasprintf("%s/%016llx", dir, (unsigned long long)h);
	free(dir);
	return path;
}

/* Read a cached table: "MAGIC" then "NAME FMT VA ORIGIN PATH|-" lines.  0 if whole. */
static int table_load(const char *path)
{
	size_t len, n = 0;
	char *buf = read_file(path, SIZE_MAX, &len), *line, *nl;
	int ok = 0;

	if (!buf)
		return -1;
	if (len && buf[len - 1] == '\n' && !strncmp(buf, TABLE_MAGIC "\n", sizeof(TABLE_MAGIC))) {
		ok = 1;
		for (line = buf + sizeof(TABLE_MAGIC); ok && *line; line = nl + 1) {
			char name[256], origin[1024], fpath[1024];
			unsigned int fmt;
			int va;

			nl = strchr(line, '\n');
			*nl = '\0';
			if (sscanf(line, "%255s %u %d %1023s %1023s", name, &fmt, &va, origin, fpath) != 5) {
				ok = 0;
				break;
			}
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
	}
	free(buf);
	if (!ok || !n) {
		lex_vocab_free(&table);
		return -1;
	}
	return 0;
}

/* Store the table; a failure only loses the saving.  Paths hold no blank: " -> " is "->". */
static void table_store(const char *path)
{
	char *tmp = xasprintf("%s.%ld", path, (long)getpid()), *dir = xstrdup(path);
	FILE *f;
	size_t i;

	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	f = fopen(tmp, "w");
	if (f) {
		int bad = 0;

		fputs(TABLE_MAGIC "\n", f);
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
		if (fclose(f) || bad || rename(tmp, path))
			unlink(tmp);
	}
	free(tmp);
	free(dir);
}

/* Trees whose headers are another's (lex_vocab_table_alias()), real paths. */
static char **alias_from, **alias_to;
static size_t naliases;

void lex_vocab_table_alias(const char *alias, const char *root)
{
	char *a = realpath(alias, NULL), *r = realpath(root, NULL);

	if (!a || !r) {
		free(a);
		free(r);
		return;
	}
	alias_from = xrealloc(alias_from, (naliases + 1) * sizeof(*alias_from));
	alias_to = xrealloc(alias_to, (naliases + 1) * sizeof(*alias_to));
	alias_from[naliases] = a;
	alias_to[naliases++] = r;
}

const struct lex_vocab *lex_vocab_table(const char *root)
{
	/* out-of-tree sources: the kernel's include path too */
	const char *kdir = kernel_outside() ? kernel_dir() : NULL;
	struct hdrs h = { 0 };
	size_t i, round;
	char *cache;
	int more;

	if (naliases) {
		char *real = realpath(root, NULL);

		for (i = 0; real && i < naliases; i++)
			if (!strcmp(real, alias_from[i]) && table_root &&
			    !strcmp(table_root, alias_to[i])) {
				free(real);
				return &table;
			}
		free(real);
	}
	if (table_root && !strcmp(table_root, root))
		return &table;
	lex_vocab_free(&table);
	free(table_root);
	table_root = xstrdup(root);
	cache = table_cache_path(root, kdir);
	if (cache && !table_load(cache)) {
		free(cache);
		return &table;
	}
	lex_vocab_core(&table);
	if (kdir)
		for (i = 0; cocci_include_dirs[i]; i++)
			read_headers(&table, &h, kdir, cocci_include_dirs[i]);
	read_headers(&table, &h, root, ".");
	/* a wrapper over a wrapper of another header: to a fixed point */
	for (round = 0, more = 1; more && round < 8; round++) {
		more = 0;
		for (i = 0; i < h.n; i++)
			more |= lex_vocab_scan_macros(&table, h.buf[i], h.len[i], h.name[i]);
	}
	for (i = 0; i < h.n; i++) {
		free(h.name[i]);
		free(h.buf[i]);
	}
	free(h.name);
	free(h.buf);
	free(h.len);
	if (cache)
		table_store(cache);
	free(cache);
	return &table;
}

void lex_vocab_tree(struct lex_vocab *v, const char *root, const char *rel)
{
	(void)rel;	/* every header of the tree is in its table */
	lex_vocab_copy(v, lex_vocab_table(root));
}
