// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_skip: the lines spatch could not parse.  With --verbose-parsing,
 * spatch's stderr says which files had such lines ("badcount: N" after
 * "HANDLING: FILE") and prints the lines themselves ("bad:", "BAD:!!!!!"),
 * which are found again in the file here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci/cocci_impl.h"
#include "lib/kernel.h"

/*
 * The bad lines of one file in one parse: summed over the parse errors of
 * the "HANDLING:" section, then merged with the other sections (a header
 * is parsed once per file including it) by keeping the largest count.
 */
struct section {
	char **file;
	unsigned int *lines;
	size_t nr, alloc;
};

static void section_add(struct section *sec, char *file, unsigned int n)
{
	size_t i;

	for (i = 0; i < sec->nr; i++) {
		if (!strcmp(sec->file[i], file)) {
			sec->lines[i] += n;
			return;
		}
	}
	if (sec->nr >= sec->alloc) {
		sec->alloc = sec->alloc ? 2 * sec->alloc : 8;
		sec->file = xrealloc(sec->file, sec->alloc * sizeof(*sec->file));
		sec->lines = xrealloc(sec->lines, sec->alloc * sizeof(*sec->lines));
	}
	sec->file[sec->nr] = file;
	sec->lines[sec->nr++] = n;
}

static void section_flush(struct collect *c, const char *root, struct section *sec)
{
	struct cocci_result *res = c->res;
	size_t i, k;
	char *rel;

	for (i = 0; i < sec->nr; i++) {
		rel = cocci_rel_file(root, sec->file[i]);
		for (k = 0; k < res->nunparsed && strcmp(res->unparsed[k], rel); k++)
			;
		if (k == res->nunparsed) {
			GROW(res->unparsed, res->nunparsed, c->ualloc);
			res->unparsed_lines = xrealloc(res->unparsed_lines,
						       c->ualloc * sizeof(*res->unparsed_lines));
			res->unparsed[k] = rel;
			res->unparsed_lines[k] = 0;
			res->nunparsed++;
		} else {
			free(rel);
		}
		if (sec->lines[i] > res->unparsed_lines[k])
			res->unparsed_lines[k] = sec->lines[i];
	}
	sec->nr = 0;
}

/*
 * Is @bad, a line spatch printed, line @orig of the file?  spatch may
 * have read a slice of it (model/lex_slice.c: code bytes turned into
 * blanks, nothing moved), so a blank stands for any byte.
 */
static int same_line(const char *orig, const char *bad)
{
	for (; *orig && *bad; orig++, bad++)
		if (*orig != *bad && *bad != ' ')
			return 0;
	return !*orig && !*bad;
}

/*
 * Where a block of skipped lines lies in @path: the lines spatch printed
 * ("bad: " each, "BAD:!!!!! " for the one with the error) are consecutive
 * lines of the file.  Of the places where they all match, the one that
 * puts the error line at @err_line (when the error is in this file), else
 * the one ending nearest @hint (the line where spatch found its footing
 * again).  0, or -1 if they match nowhere.
 */
static int locate_skip(const char *path, char **text, size_t n, size_t bad, unsigned int err_line,
		       unsigned int hint, unsigned int *first)
{
	size_t len, nl = 0, alloc = 0, i, k;
	char *buf = read_file(path, SIZE_MAX, &len), *p, **lines = NULL;
	unsigned int best = 0, dist = ~0u, d;

	if (!buf || !n)
		goto out;
	for (p = buf; p < buf + len;) {
		char *e = memchr(p, '\n', (size_t)(buf + len - p));

		GROW(lines, nl + 1, alloc);
		lines[nl++] = p;
		if (!e)
			break;
		*e = '\0';
		if (e > p && e[-1] == '\r')
			e[-1] = '\0';
		p = e + 1;
	}
	for (i = 0; i + n <= nl; i++) {
		for (k = 0; k < n && same_line(lines[i + k], text[k]); k++)
			;
		if (k < n)
			continue;
		if (err_line && bad < n) {
			d = (unsigned int)(i + bad + 1) == err_line ? 0 : ~0u - 1;
		} else {
			unsigned int end = (unsigned int)(i + n);

			d = end > hint ? end - hint : hint - end;
		}
		if (d < dist) {
			dist = d;
			best = (unsigned int)i + 1;
		}
	}
out:
	free(lines);
	free(buf);
	if (!best)
		return -1;
	*first = best;
	return 0;
}

static void add_skip(struct collect *c, char *rel, unsigned int first, unsigned int last)
{
	struct cocci_result *res = c->res;

	GROW(res->skips, res->nskips, c->salloc);
	res->skips[res->nskips].file = rel;
	res->skips[res->nskips].first = first;
	res->skips[res->nskips].last = last;
	res->nskips++;
}

/* One block of "bad:" lines has ended: place it in its file. */
static void skip_flush(struct collect *c, const char *root, const char *file, char **text,
		       size_t n, size_t bad, unsigned int err_line, unsigned int hint, int headers)
{
	char *path, *rel;
	unsigned int first;

	if (!file || !n)
		return;
	rel = cocci_rel_file(root, file);
	path = file[0] == '/' ? xstrdup(file) : xasprintf("%s/%s", root, file);
	if (!locate_skip(path, text, n, bad, err_line, hint, &first))
		add_skip(c, rel, first, first + (unsigned int)n - 1);
	else if (!headers)
		/* not found again: the whole file counts as skipped */
		add_skip(c, rel, 1, ~0u);
	else
		/*
		 * With --all-includes, lines of a forced include (kconfig.h)
		 * are put on the file being handled: they are not its lines.
		 */
		free(rel);
	free(path);
}

/* Is @path under the kernel that out-of-tree sources are built against? */
static int in_kernel(const char *path)
{
	const char *k = kernel_dir();
	size_t n = k ? strlen(k) : 0;

	return k && !strncmp(path, k, n) && path[n] == '/';
}

/*
 * Read spatch's --verbose-parsing stderr.  "HANDLING: FILE" starts a file;
 * each "badcount: N" counts N lines spatch could not parse.  They belong
 * to the file named by the " = File \"F\", line L" line of the parse error
 * before them when F is in the tree (a header read for types, with
 * --all-includes), else (no such line, or F is spatch's own macro file
 * standard.h) to the file being handled.  The "bad:" lines after the
 * count are the skipped lines themselves, which skip_flush() places.
 */
void cocci_parse_badcounts(struct collect *c, const char *root, const char *err,
			   int headers)
{
	struct section sec = { 0 };
	size_t len, nbad = 0, bad = 0, balloc = 0;
	char *buf = read_file(err, SIZE_MAX, &len), *line, *nl, *handling = NULL;
	char *pending = NULL, *q, *owner = NULL, **text = NULL;
	unsigned int n, err_line = 0, hint = 0, owner_err = 0;
	int kernel_err = 0;

	if (!buf)
		return;
	for (line = buf; *line; line = nl + 1) {
		int badline = !strncmp(line, "bad: ", 5) || !strncmp(line, "bad:", 4) ||
			!strncmp(line, "BAD:!!!!! ", 10);

		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (owner && badline) {
			if (line[0] == 'B')
				bad = nbad;
			GROW(text, nbad, balloc);
			text[nbad++] = line[0] == 'B' ? line + 10 : line[4] == ' ' ? line + 5 : line + 4;
			continue;
		}
		if (owner) {
			skip_flush(c, root, owner, text, nbad, bad, owner_err, hint, headers);
			owner = NULL;
		}
		if (!strncmp(line, "HANDLING: ", 10)) {
			section_flush(c, root, &sec);
			/* a group of several files has spaces: not ours */
			handling = strchr(line + 10, ' ') ? NULL : line + 10;
			pending = NULL;
			err_line = 0;
			kernel_err = 0;
		} else if (!strncmp(line, " =File \"", 8) && in_kernel(line + 8)) {
			kernel_err = 1;	/* "semantic error" in a header of that kernel */
			pending = NULL;
		} else if (!strncmp(line, " = File \"", 9)) {
			pending = line + 9;
			kernel_err = 0;
			q = strchr(pending, '"');
			err_line = 0;
			if (q) {
				*q = '\0';
				if (!strncmp(q + 1, ", line ", 7))
					err_line = (unsigned int)strtoul(q + 8, NULL, 10);
			}
			if (in_kernel(pending)) {
				kernel_err = 1;	/* a header of the kernel of out-of-tree sources */
				pending = NULL;
			} else if (pending[0] == '/' && strncmp(pending, root, strlen(root))) {
				pending = NULL;	/* outside the tree: standard.h */
			}
		} else if (!strncmp(line, "ERROR-RECOV: found sync", 23) && (q = strstr(line, "line "))) {
			hint = (unsigned int)strtoul(q + 5, NULL, 10);
		} else if (!strncmp(line, "badcount: ", 10) && !cocci_parse_uint(line + 10, &n)) {
			if (kernel_err) {
				/* not the sources' lines: the lexical model need not judge them */
			} else if (pending || handling) {
				section_add(&sec, pending ? pending : handling, n);
				owner = pending ? pending : handling;
				owner_err = pending ? err_line : 0;
				nbad = 0;
				bad = (size_t)-1;
			}
			pending = NULL;
			kernel_err = 0;
		}
	}
	if (owner)
		skip_flush(c, root, owner, text, nbad, bad, owner_err, hint, headers);
	section_flush(c, root, &sec);
	free(text);
	free(sec.file);
	free(sec.lines);
	free(buf);
}
