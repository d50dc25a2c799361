// SPDX-License-Identifier: GPL-2.0
/*
 * gate_cache: the findings of the base side, kept between gate runs.
 *
 * Every patch to a file is gated against the same base version of it, so
 * the rule run on that version can be done once: its findings are kept
 * in $PTRGUARD_GATE_CACHE (default $PTRGUARD_CACHE/gate, that is
 * ~/.cache/ptrguard/gate), one entry per file content.
 *
 * An entry holds the findings of the rules that run on the file.  They
 * follow from the file's text and path, the tree's version (the Makefiles
 * above the file, for plain %p before v4.15), the forced includes, the
 * rules and the tools; and for seq_int_cast.cocci, which reads the headers
 * the file includes (not theirs: --all-includes), from those headers.  An
 * entry holds all of that, byte for byte, and is used only when all of it
 * is equal: a key, not a hash of one, so that no crafted file can pass
 * for another.  A header is named by every place spatch could find it:
 * the directory of the file, the tree's top and each -I directory of
 * spatch.c, with its content or its absence at each (tests/gate/run checks
 * that the lists here are spatch.c's).  A file with an #include that names
 * no file ("#include MACRO", #include_next) is never kept.
 * The lexical model's findings (cocci_lexical()) also follow from the
 * wrappers the headers of the tree declare: the key holds that list
 * (lex_vocab_tree()).  Only complete results are stored, with the lines
 * spatch skipped, each written to a temporary file and renamed into place.  An unreadable or
 * foreign entry is a miss; a failure to store is only a lost saving.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate.h"
#include "kernel.h"
#include "lex.h"
#include "ptrguard.h"

static const char magic[] = "ptrguard-gate-cache 2\n";

/* A growing buffer of key material. */
struct key {
	char *buf;
	size_t len, alloc;
};

static void key_add(struct key *k, const void *p, size_t n)
{
	if (k->len + n + 1 > k->alloc) {
		k->alloc = 2 * (k->len + n + 1);
		k->buf = xrealloc(k->buf, k->alloc);
	}
	memcpy(k->buf + k->len, p, n);
	k->len += n;
}

/* "NAME LEN\n" then the bytes: no two different sequences read the same. */
static void key_field(struct key *k, const char *name, const void *p, size_t n)
{
	char head[256];
	int h = snprintf(head, sizeof(head), "%s %zu\n", name, n);

	key_add(k, head, (size_t)h);
	key_add(k, p, n);
}

/* The content of @path, or a mark that it is absent. */
static void key_file(struct key *k, const char *name, const char *path, size_t max)
{
	size_t n;
	char *buf = read_file(path, max, &n);

	if (buf)
		key_field(k, name, buf, n);
	else
		key_field(k, "absent", name, strlen(name));
	free(buf);
}

/* Who @path is: a program is known by its place, size, time and inode. */
static int key_program(struct key *k, const char *name, const char *path)
{
	struct stat st;
	char *id;

	if (!path || stat(path, &st) < 0)
		return -1;
	id = xasprintf("%s %lld %lld.%09ld %llu", path, (long long)st.st_size,
		       (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		       (unsigned long long)st.st_ino);
	key_field(k, name, id, strlen(id));
	free(id);
	return 0;
}

/* @prog as execvp() would find it, or NULL. */
static char *which(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *cand = NULL;

	if (strchr(prog, '/'))
		return access(prog, X_OK) ? NULL : xstrdup(prog);
	if (!path)
		return NULL;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;

		cand = xasprintf("%s/%s", *dir ? dir : ".", prog);
		if (!stat(cand, &st) && S_ISREG(st.st_mode) && !access(cand, X_OK))
			break;
		free(cand);
		cand = NULL;
	}
	free(copy);
	return cand;
}

char *gate_python(void)
{
	const char *env = getenv("PTRGUARD_PYTHON");
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (env)
		return *env ? xstrdup(env) : NULL;
	if (!path)
		return NULL;
	/*
	 * spatch looks for "python3" on PATH, and starts it to find its
	 * library.  A python3 that is a script (the shims of pyenv) costs
	 * most of a second per spatch run here: take the first real one.
	 */
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *cand = xasprintf("%s/python3", *dir ? dir : "."), head[4];
		int fd = open(cand, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, head, sizeof(head));

		if (fd >= 0)
			close(fd);
		if (n == 4 && !memcmp(head, "\177ELF", 4) && !access(cand, X_OK))
			found = cand;
		else
			free(cand);
	}
	free(copy);
	return found;
}

int gate_cache_init(struct gate_cache *c, const struct gate_run_opts *run)
{
	const char *env = getenv("PTRGUARD_GATE_CACHE"), *top = getenv("PTRGUARD_CACHE");
	const char *home = getenv("HOME"), *sp = run->spatch;
	struct key k = { 0 };
	char exe[4096], *path, *spatch;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	c->verbose = run->verbose;
	if (env && (!*env || !strcmp(env, "off")))
		return 0;
	/* out-of-tree: the key does not hold the kernel's headers */
	if (kernel_outside())
		return 0;
	if (env)
		c->dir = xstrdup(env);
	else if (top && *top)
		c->dir = xasprintf("%s/gate", top);
	else if (home && *home)
		c->dir = xasprintf("%s/.cache/ptrguard/gate", home);
	else
		return 0;

	/* The tools: this program (its prefilter, its spatch options), spatch, python. */
	key_add(&k, magic, strlen(magic));
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (!sp || !*sp)
		sp = getenv("SPATCH");
	spatch = which(sp && *sp ? sp : "spatch");
	if (n > 0)
		exe[n] = '\0';
	if (n <= 0 || key_program(&k, "ptrguard", exe) ||
	    key_program(&k, "spatch", spatch) ||
	    (run->python && key_program(&k, "python", run->python))) {
		free(spatch);
		free(k.buf);
		free(c->dir);
		c->dir = NULL;
		return 0;
	}
	free(spatch);
	path = xasprintf("%s/seq_px.cocci", run->rules_dir);
	key_file(&k, "rule", path, SIZE_MAX);
	free(path);
	path = xasprintf("%s/seq_int_cast.cocci", run->rules_dir);
	key_file(&k, "cast rule", path, SIZE_MAX);
	free(path);
	path = xasprintf("%s/%s", run->rules_dir, cocci_macro_file);
	key_file(&k, "macros", path, SIZE_MAX);
	free(path);
	c->ident = k.buf;
	c->nident = k.len;
	return 0;
}

void gate_cache_free(struct gate_cache *c)
{
	free(c->dir);
	free(c->ident);
	memset(c, 0, sizeof(*c));
}

/* Every place of the header @name that @from (relative to @root) includes. */
static void key_header(struct key *k, const char *root, const char *from, const char *name)
{
	const char *slash = strrchr(from, '/');
	char *path;
	size_t i;

	key_field(k, "include", name, strlen(name));
	path = slash ? xasprintf("%s/%.*s/%s", root, (int)(slash - from), from, name) :
	       xasprintf("%s/%s", root, name);
	key_file(k, "here", path, SIZE_MAX);
	free(path);
	path = xasprintf("%s/%s", root, name);
	key_file(k, "top", path, SIZE_MAX);
	free(path);
	for (i = 0; cocci_include_dirs[i]; i++) {
		path = xasprintf("%s/%s/%s", root, cocci_include_dirs[i], name);
		key_file(k, cocci_include_dirs[i], path, SIZE_MAX);
		free(path);
	}
}

/*
 * The headers @rel includes, each by every place it could be found.  Any
 * line whose first word after '#' begins with "include" counts, in
 * comments and #if 0 too (more key, never less); -1 if one names no file.
 */
static int key_includes(struct key *k, const char *root, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel), *buf, *p, *e, *name;
	size_t len;
	int ret = 0;

	buf = read_file(path, SIZE_MAX, &len);
	free(path);
	if (!buf)
		return -1;
	for (p = buf; p && ret == 0; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#')
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		if (strncmp(p, "include", 7))
			continue;
		p += 7;
		if (!strncmp(p, "_next", 5)) {
			ret = -1;
			break;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '<' && *p != '"') {
			ret = -1;
			break;
		}
		e = strchr(p + 1, *p == '<' ? '>' : '"');
		if (!e || memchr(p, '\n', (size_t)(e - p))) {
			ret = -1;
			break;
		}
		name = xstrndup(p + 1, (size_t)(e - p - 1));
		key_header(k, root, rel, name);
		free(name);
	}
	free(buf);
	return ret;
}

/*
 * The whole key of @rel in the tree @root (a shadow), for the rules of
 * @cast (0: seq_px.cocci; 1: both).  -1 if it cannot be made.
 */
/* The seq-output functions the lexical model knows in @rel: core, headers. */
static void key_vocab(struct key *k, const char *root, const char *rel)
{
	struct lex_vocab v = { 0 };
	size_t i;

	lex_vocab_core(&v);
	lex_vocab_tree(&v, root, rel);
	for (i = 0; i < v.nfns; i++) {
		char *one = xasprintf("%s %u %d", v.fns[i].name, v.fns[i].fmt, v.fns[i].va);

		key_field(k, "wrapper", one, strlen(one));
		free(one);
	}
	lex_vocab_free(&v);
}

static int file_key(const struct gate_cache *c, const char *root, const char *rel,
		    int cast, struct key *k)
{
	char *path, *dir, *slash;
	size_t i;

	k->len = 0;
	key_add(k, c->ident, c->nident);
	key_field(k, "rules", cast ? "both" : "seq_px.cocci", cast ? 4 : 12);
	key_field(k, "path", rel, strlen(rel));
	for (i = 0; cocci_forced_includes[i]; i++) {
		path = xasprintf("%s/%s", root, cocci_forced_includes[i]);
		key_file(k, cocci_forced_includes[i], path, SIZE_MAX);
		/* kconfig.h includes generated/autoconf.h */
		if (cast && !access(path, F_OK) && key_includes(k, root, cocci_forced_includes[i]) < 0) {
			free(path);
			return -1;
		}
		free(path);
	}
	/* The rule reads the version from the first Makefile above the file that has one. */
	dir = xstrdup(rel);
	for (;;) {
		slash = strrchr(dir, '/');
		path = slash ? (*slash = '\0', xasprintf("%s/%s/Makefile", root, dir)) :
		       xasprintf("%s/Makefile", root);
		key_file(k, slash ? dir : ".", path, 4096);
		free(path);
		if (!slash)
			break;
	}
	free(dir);
	path = xasprintf("%s/%s", root, rel);
	key_file(k, "file", path, SIZE_MAX);
	free(path);
	key_vocab(k, root, rel);
	return cast ? key_includes(k, root, rel) : 0;
}

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static char *entry_path(const struct gate_cache *c, const struct key *k)
{
	return xasprintf("%s/%016llx", c->dir, (unsigned long long)fnv1a(k->buf, k->len));
}

int gate_cache_get(struct gate_cache *c, const char *root, const char *rel, int cast,
		   struct cocci_result *res)
{
	struct key k = { 0 };
	char *path, *buf, *p, *end;
	size_t len, keylen;
	int hit = 0;

	if (!c->dir)
		return 0;
	if (file_key(c, root, rel, cast, &k) < 0) {
		free(k.buf);
		return 0;
	}
	path = entry_path(c, &k);
	buf = read_file(path, SIZE_MAX, &len);
	free(path);
	if (buf && len > strlen(magic) && !memcmp(buf, magic, strlen(magic))) {
		p = buf + strlen(magic);
		keylen = strtoul(p, &end, 10);
		if (end != p && *end == '\n' && keylen == k.len &&
		    (size_t)(buf + len - (end + 1)) >= keylen &&
		    !memcmp(end + 1, k.buf, keylen)) {
			struct cocci_result r = { 0 };

			if (!cocci_records_read(end + 1 + keylen, &r)) {
				*res = r;
				hit = 1;
			} else {
				cocci_result_free(&r);
			}
		}
	}
	free(buf);
	free(k.buf);
	if (hit && c->verbose)
		fprintf(stderr, "ptrguard: gate: %s before the patches: from the cache\n", rel);
	return hit;
}

void gate_cache_put(struct gate_cache *c, const char *root, const char *rel, int cast,
		    const struct cocci_result *res)
{
	struct key k = { 0 };
	char *path, *tmp;
	FILE *f;
	int fd, ok;

	if (!c->dir)
		return;
	if (mkdir_p(c->dir) < 0)
		return;
	if (file_key(c, root, rel, cast, &k) < 0) {
		free(k.buf);
		return;
	}
	path = entry_path(c, &k);
	tmp = xasprintf("%s/.tmp.XXXXXX", c->dir);
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		if (fd >= 0)
			close(fd);
		ok = 0;
	} else {
		fputs(magic, f);
		fprintf(f, "%zu\n", k.len);
		fwrite(k.buf, 1, k.len, f);
		cocci_records_write(f, res);
		ok = !ferror(f);
		ok = !fclose(f) && ok;
	}
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
	else if (c->verbose)
		fprintf(stderr, "ptrguard: gate: %s before the patches: stored in the cache\n", rel);
	free(tmp);
	free(path);
	free(k.buf);
}
