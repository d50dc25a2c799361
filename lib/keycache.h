/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keycache: results kept between runs, each under its whole key.
 *
 * A key is every byte a result follows from (the tools, the rules, the
 * file, the headers spatch reads for it), written as named fields.  An
 * entry is named by a hash of its key but holds the key itself, and is
 * used only when that key is equal, byte for byte: no crafted file can
 * pass for another.  Entries are written to a temporary file and renamed
 * into place; an unreadable or foreign entry is a miss, and a failure to
 * store is only a lost saving.  The gate (gate/cache.c) and the audit
 * (cocci/cache.c) keep their results so.
 */
#ifndef PTRGUARD_KEYCACHE_H
#define PTRGUARD_KEYCACHE_H

#include <stddef.h>
#include <stdint.h>

struct kc_key {
	char *buf;
	size_t len, alloc;
};

void kc_add(struct kc_key *k, const void *p, size_t n);
/* "NAME LEN\n" then the bytes: no two different sequences read the same. */
void kc_field(struct kc_key *k, const char *name, const void *p, size_t n);
/* The content of @path (at most @max bytes), or a mark that it is absent. */
void kc_file(struct kc_key *k, const char *name, const char *path, size_t max);
/*
 * Which file @st is, as git's index knows it: device, inode, size,
 * modification and change times (seconds, nanoseconds), into @id.
 */
#define KC_ID_LEN 7
#define KC_ID_MTIME 3	/* the seconds of each time, for a racy check */
#define KC_ID_CTIME 5
struct stat;
void kc_stat_id(const struct stat *st, long long *id);
/*
 * Was the file of @id changed in the two seconds before @start (as git's
 * racy index has it)?  A second change within the clock's step could
 * leave its times as they are: what was read of it is not to be kept.
 */
int kc_racy(const long long *id, long long start);
/*
 * Which file @path is, as git's index knows it: device, inode, size,
 * modification and change times; or a mark that it is absent.
 */
void kc_stat(struct kc_key *k, const char *name, const char *path);
/* Who the program @path is: its place, size, time and inode.  -1 if none. */
int kc_program(struct kc_key *k, const char *name, const char *path);
/*
 * The headers @rel (relative to @root) includes, each by every place
 * spatch could find it: the file's directory, the tree's top and each
 * directory of @dirs (NULL-terminated, relative to @root, or to the
 * kernel's tree for sources outside one: lib/kernel.h), with its content
 * or its absence at each (@by_stat: which file it is, kc_stat(), instead
 * of its content: a much smaller key for a local cache).  The caller
 * names the include path its tool is given (kernel_include_dirs[]): the
 * library knows no tool.  Any line whose first word after '#' begins
 * with "include" counts, in comments and #if 0 too (more key, never
 * less); -1 if one names no file (#include MACRO, #include_next).
 */
int kc_includes(struct kc_key *k, const char *root, const char *rel, const char *const *dirs,
		int by_stat);

/* The 64-bit FNV-1a hash of @n bytes at @p (entries' names, digests). */
uint64_t kc_hash(const char *p, size_t n);
/* kc_program() of this program (/proc/self/exe).  -1 if unknown. */
int kc_self(struct kc_key *k);
/* @prog as execvp() would find it (malloc()ed), or NULL. */
char *kc_which(const char *prog);
/*
 * The cache directory @sub: $@env when set ("" or "off": none), else
 * $PTRGUARD_CACHE/@sub ("off": none), else ~/.cache/ptrguard/@sub;
 * malloc()ed, or NULL for none.
 */
char *kc_dir(const char *env, const char *sub);

/*
 * The payload stored in @dir under @key with the first line @magic, or
 * NULL: malloc()ed, NUL-terminated, its length in *@len.
 */
char *kc_get(const char *dir, const char *magic, const struct kc_key *key, size_t *len);
/*
 * Store @n bytes of @payload under @key; 0, or -1 (nothing stored).  A
 * hit of kc_get() marks the entry used.
 */
int kc_put(const char *dir, const char *magic, const struct kc_key *key,
	   const void *payload, size_t n);

/*
 * When the entries of @dir take more than @max bytes, remove the least
 * recently used (stored or hit) until they take three quarters of it.
 */
void kc_prune(const char *dir, long long max);

#endif
