// SPDX-License-Identifier: GPL-2.0
/*
 * Baselines of `ptrguard scan`: findings someone has accepted, kept out of
 * the exit status (they are still listed, marked "(baseline)").
 *
 * A finding is keyed by its file, its region and its kind, never by its
 * value: under KASLR values change at every boot.  The file is text:
 *
 *	# ptrguard scan baseline 1
 *	FILE<TAB>REGION<TAB>KIND
 *
 * one key a line, sorted, with `\`, tab and newline in FILE written `\\`,
 * `\t`, `\n`; KIND is text, le64 or path-name; a /proc/PID or task/TID
 * component is written PID (pids change from run to run).  Lines starting
 * with `#` after the first are comments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"

#define HEADER "# ptrguard scan baseline 1"

static void put(char **buf, size_t *n, size_t *cap, char c)
{
	if (*n + 2 > *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*buf = xrealloc(*buf, *cap);
	}
	(*buf)[(*n)++] = c;
	(*buf)[*n] = '\0';
}

static void puts_(char **buf, size_t *n, size_t *cap, const char *s)
{
	for (; *s; s++)
		put(buf, n, cap, *s);
}

/* Is the component [s, s+len) all digits, after "proc" or "task"? */
static bool pid_component(const char *start, const char *s, size_t len)
{
	const char *p;
	size_t plen;

	if (!len || strspn(s, "0123456789") < len)
		return false;
	if (s == start || s[-1] != '/')
		return false;
	for (p = s - 1; p > start && p[-1] != '/'; p--)
		;
	plen = (size_t)(s - 1 - p);
	return (plen == 4 && (!memcmp(p, "proc", 4) || !memcmp(p, "task", 4)));
}

/* The key of a finding, in *buf (grown as needed). */
static const char *make_key(const struct finding_rec *f, char **buf, size_t *cap)
{
	const char *s = f->file, *c;
	size_t n = 0;

	for (c = s; *c; ) {
		size_t len = strcspn(c, "/");

		if (pid_component(s, c, len)) {
			puts_(buf, &n, cap, "PID");
			c += len;
			continue;
		}
		for (; len; len--, c++) {
			if (*c == '\\')
				puts_(buf, &n, cap, "\\\\");
			else if (*c == '\t')
				puts_(buf, &n, cap, "\\t");
			else if (*c == '\n')
				puts_(buf, &n, cap, "\\n");
			else
				put(buf, &n, cap, *c);
		}
		if (*c == '/')
			put(buf, &n, cap, *c++);
	}
	put(buf, &n, cap, '\t');
	puts_(buf, &n, cap, f->hit.region ? f->hit.region : "kernel half");
	put(buf, &n, cap, '\t');
	puts_(buf, &n, cap, f->flags & REC_PATH ? "path-name" : f->hit.binary ? "le64" : "text");
	return *buf;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int baseline_load(struct baseline *b, const char *path)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	FILE *f = fopen(path, "re");

	memset(b, 0, sizeof(*b));
	if (!f) {
		error("scan: --baseline %s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		char *t1, *t2;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (lineno == 1 && strcmp(line, HEADER))
			goto not_baseline;
		if (line[0] == '#' || !line[0])
			continue;
		t1 = strchr(line, '\t');
		t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		if (!t1 || t1 == line || !t2 || t2 == t1 + 1 || !t2[1] || strchr(t2 + 1, '\t')) {
			error("scan: --baseline %s:%zu: want FILE<TAB>REGION<TAB>KIND", path, lineno);
			goto bad;
		}
		if (b->n == b->cap) {
			b->cap = b->cap ? 2 * b->cap : 64;
			b->keys = xrealloc(b->keys, b->cap * sizeof(*b->keys));
		}
		b->keys[b->n++] = xstrdup(line);
	}
	if (ferror(f)) {
		error("scan: --baseline %s: %s", path, strerror(errno));
		goto bad;
	}
	if (!lineno)
		goto not_baseline;
	free(line);
	fclose(f);
	qsort(b->keys, b->n, sizeof(*b->keys), cmp_str);
	return 0;
not_baseline:
	error("scan: --baseline %s: not a ptrguard scan baseline (want first line '%s')",
	      path, HEADER);
bad:
	free(line);
	fclose(f);
	baseline_free(b);
	return -1;
}

void baseline_mark(const struct baseline *b, struct scan_result *res)
{
	char *buf = NULL;
	size_t cap = 0, i;

	if (!b->n)		/* no baseline, or an empty one: no key to make */
		return;
	for (i = 0; i < res->nfound; i++) {
		struct finding_rec *f = &res->found[i];
		const char *k;

		if (f->hit.verdict != ADDR_KERNEL)
			continue;
		k = make_key(f, &buf, &cap);
		if (bsearch(&k, b->keys, b->n, sizeof(*b->keys), cmp_str)) {
			f->baseline = true;
			res->nbaseline++;
		}
	}
	free(buf);
}

int baseline_write(const struct scan_result *res, const char *path)
{
	char **keys = NULL, *buf = NULL;
	size_t n = 0, cap = 0, i;
	FILE *f;
	int rc = 0;

	for (i = 0; i < res->nfound; i++) {
		const struct finding_rec *r = &res->found[i];

		if (r->hit.verdict != ADDR_KERNEL)
			continue;
		keys = xrealloc(keys, (n + 1) * sizeof(*keys));
		keys[n++] = xstrdup(make_key(r, &buf, &cap));
	}
	free(buf);
	if (n)
		qsort(keys, n, sizeof(*keys), cmp_str);
	f = fopen(path, "we");
	if (!f) {
		error("scan: --write-baseline %s: %s", path, strerror(errno));
		rc = -1;
	} else {
		fprintf(f, "%s\n# FILE<TAB>REGION<TAB>KIND, written by ptrguard scan"
			" --write-baseline\n", HEADER);
		for (i = 0; i < n; i++)
			if (!i || strcmp(keys[i], keys[i - 1]))
				fprintf(f, "%s\n", keys[i]);
		if (fclose(f)) {
			error("scan: --write-baseline %s: %s", path, strerror(errno));
			rc = -1;
		}
	}
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	return rc;
}

void baseline_free(struct baseline *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->keys[i]);
	free(b->keys);
	memset(b, 0, sizeof(*b));
}
