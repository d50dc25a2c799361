/* SPDX-License-Identifier: GPL-2.0 */
/*
 * patch: read patches (git format-patch files, mbox series, plain unified
 * diffs) into what the gate needs: the files each patch touches, and its
 * added and removed lines with their line numbers in the patch input and
 * in the file.  Applying is left to git apply; this only parses, and
 * refuses what it cannot read (empty, corrupt or binary-only patches).
 */
#ifndef PTRGUARD_PATCH_H
#define PTRGUARD_PATCH_H

#include <stddef.h>

/* One added ('+') or removed ('-') line of a hunk. */
struct patch_line {
	char kind;		/* '+' or '-' */
	unsigned int input_line;	/* 1-based line in the patch input */
	unsigned int file_line;	/* line in the new file ('+') or old one ('-') */
	char *text;		/* without the leading +/- and the newline */
};

/* One file of a patch: a "diff --git" section or a ---/+++ pair. */
struct patch_file {
	char *old_path;		/* NULL when the file is created */
	char *new_path;		/* NULL when the file is deleted */
	int is_rename;
	int is_copy;
	int is_binary;		/* "GIT binary patch" or "Binary files ... differ" */
	unsigned int nhunks;
	struct patch_line *lines;
	size_t nlines;
};

struct patch {
	char *input;		/* the file it came from ("-" is "<stdin>") */
	unsigned int index;	/* 1-based position in the whole series */
	unsigned int nth;	/* 1-based position among its input's patches */
	unsigned int count;	/* how many patches its input holds */
	char *subject;		/* "Subject:" without "[PATCH n/m]", or NULL */
	unsigned int first_line;	/* 1-based line in the input where it starts */
	char *text;		/* its own text, to feed git apply */
	size_t len;
	struct patch_file *files;
	size_t nfiles;
	char *cover;		/* a cover letter: its "[PATCH 0/N]"; then no files */
};

struct patch_series {
	struct patch *patches;
	size_t npatches;
	int verbose;		/* say on stderr which cover letters are skipped */
};

/*
 * patch_read_file - read one input and append its patches to @series
 * @path: a file name, or "-" for stdin
 *
 * An mbox holding several patches gives several entries.  A cover letter
 * (a mail with no diff whose subject is "[PATCH 0/N]", N > 0, as git
 * format-patch --cover-letter writes it) is no patch: it is left out
 * (said on stderr when @series->verbose), and the patches after it are
 * numbered without it.  Returns 0, or -1 after reporting once, naming the
 * input (and the patch in it): no such file, empty input, no diff in a
 * patch that is no cover letter, a corrupt hunk, or a patch whose every
 * file is binary.
 */
int patch_read_file(const char *path, struct patch_series *series);

/* Parse @len bytes of @buf (named @name in messages) like patch_read_file(). */
int patch_read_buf(const char *name, const char *buf, size_t len,
		   struct patch_series *series);

void patch_series_free(struct patch_series *series);

/* The name of a patch for messages: "INPUT" or "INPUT (patch N/M)". */
const char *patch_name(const struct patch *p, char *buf, size_t size);

#endif
