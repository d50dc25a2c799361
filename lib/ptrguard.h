/* SPDX-License-Identifier: GPL-2.0 */
/* ptrguard: the subcommands and the few helpers they share. */
#ifndef PTRGUARD_H
#define PTRGUARD_H

#include <stddef.h>

/* Exit statuses, the same for every subcommand. */
enum {
	EXIT_CLEAN = 0,		/* nothing found */
	EXIT_FINDINGS = 1,	/* something found */
	EXIT_ERROR = 2,		/* usage, input or tool error */
};

int cmd_audit(int argc, char **argv);
int cmd_calls(int argc, char **argv);
int cmd_fix(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_scan(int argc, char **argv);

/* The command error() and die() name (usage.c): "ptrguard: CMD: ...". */
void usage_set_command(const char *name);
/* Report an error once, at the edge: "ptrguard: <what>: <why>". */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Report and exit with EXIT_ERROR. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Allocation that cannot fail (lib/xalloc.c): out of memory dies. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The contents of the regular file @path, at most @max bytes (SIZE_MAX for
 * all), NUL-terminated, its length in *@len (lib/readfile.c).  NULL
 * with errno set if it cannot be opened or read or is not a regular file.
 */
char *read_file(const char *path, size_t max, size_t *len);
/* memmem() of the @n-byte @needle in @buf (@len bytes), by memchr(): lib/memfind.c. */
const char *mem_find(const char *buf, size_t len, const char *needle, size_t n);
/* Is the word @w (@len bytes) one of the @n @names, sorted by strcmp()?  lib/names.c. */
int names_has(char *const *names, size_t n, const char *w, size_t len);
/*
 * The same into *@buf, a malloc()ed buffer of *@alloc bytes (NULL and 0
 * at first) that grows as needed and stays the caller's: for a loop over
 * many files.  0, or -1 with errno set.
 */
int read_file_into(const char *path, size_t max, char **buf, size_t *alloc, size_t *len);
/*
 * Replace @path with @len bytes of @buf at once: written to a temporary
 * file of its directory, then renamed over it.  0, or -1 with errno set
 * (and @path as it was).
 */
int write_file_atomic(const char *path, const void *buf, size_t len);

/*
 * Run @fn(@arg) in @n threads (at most @nwork; 0: one), the calling
 * thread one of them, and wait for all.  @fn takes work from @arg until
 * none is left, so a thread that cannot be started costs only time
 * (lib/threads.c).
 */
void run_threads(unsigned int n, size_t nwork, void *(*fn)(void *), void *arg);
/* mkdir -p @dir (mode 0700); -1 if it is not a directory afterwards (readfile.c). */
int mkdir_p(const char *dir);

#endif
