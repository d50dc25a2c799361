/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix: `ptrguard fix`, a git format-patch series that fixes the leaks an
 * audit finds.  fix.c owns the options and the steps; each step is a
 * file of its own:
 *   fix/edit.c    the byte edits of one file (the conversion, the cast)
 *   fix/align.c   the changed calls' continuation lines, aligned as checkpatch asks
 *   fix/run.c     running git, perl and the compiler, output captured
 *   fix/msg.c     subject prefix, commit message, Fixes:, To/Cc
 *   fix/series.c  the scratch repository and git format-patch
 *   fix/check.c   the proofs: apply, checkpatch, build, re-audit
 *   fix/held.c    which findings the series takes, the rewrite of an
 *                 address held in an integer, and the ones left out
 */
#ifndef PTRGUARD_FIX_H
#define PTRGUARD_FIX_H

#include <stddef.h>
#include <stdint.h>

#include "cocci/cocci.h"

/* One patch of the series: a file, or the files of one directory. */
struct fix_unit {
	char *name;			/* the file, or the directory (--per-dir) */
	char **files;			/* relative to the tree root, sorted */
	size_t nfiles;
	const struct finding **findings;	/* those fixed, by file, line, column */
	size_t nfindings;
	char *subject;			/* "tracing: Do not leak ..." */
	char *message;			/* the body, trailers included */
	char *patch;			/* path of the patch file, once written */
	char **to, **cc;		/* from get_maintainer.pl */
	size_t nto, ncc;
	char **nofixes;			/* "FILE:LINE: why it has no Fixes: tag" */
	size_t nnofixes;
	int who;			/* enum fix_who_rank: who can read it; the series order */
};

struct fix_ctx {
	const char *root;		/* the tree (absolute) */
	int git;			/* the tree is the top of a git work tree */
	char *name, *email;		/* the user's git identity */
	const char *out;		/* -o DIR */
	const char *build;		/* --check-build DIR, or NULL */
	char *tmp;			/* scratch directory */
	struct fix_unit *units;
	size_t nunits;
	const struct cocci_opts *cocci;	/* how the audit ran (re-audit the same way) */
	char **left;			/* "FILE:LINE: CLASS CONV (FUNC()): why", fix_left_out() */
	size_t nleft;
};

/* fix/units.c */
/*
 * Group the findings of @res (sorted by file) that a fix applies to
 * (vocab.def's fix; the low-confidence ones too with @all) into c->units:
 * one a file, or one a directory with @per_dir.
 */
void fix_make_units(struct fix_ctx *c, const struct cocci_result *res, int per_dir, int all);
/* The series' order: by who can read the file, most exposed first (stable). */
void fix_order_units(struct fix_ctx *c);
void fix_free_units(struct fix_ctx *c);

/* fix/edit.c */
/*
 * The text of @file (@len bytes) with @findings fixed, malloc()ed, its
 * length in *@newlen; NULL after error() when a finding cannot be found
 * again in the text.
 */
char *fix_apply(const char *file, const char *text, size_t len,
		const struct finding *const *findings, size_t n, size_t *newlen);

/* Where the operand of the integer casts that open t[s..e) starts. */
size_t fix_operand(const char *t, size_t s, size_t e);

/* One byte edit: t[start..end) becomes @text. */
struct fix_edit {
	size_t start, end;
	const char *text;
};
/* qsort() order of edits: ascending start. */
int fix_edit_cmp(const void *a, const void *b);
/*
 * @text (@len bytes) with the @n edits @ed applied, in ascending order and
 * none overlapping another, then the calls they changed aligned
 * (fix_align()): malloc()ed, its length in *@newlen.
 */
char *fix_edits_apply(const char *text, size_t len, const struct fix_edit *ed, size_t n,
		      size_t *newlen);

/* fix/align.c */
/*
 * @text (@len bytes) with the continuation lines of the calls that the
 * edits at byte offsets @at (@nat of them) changed aligned with their open
 * parenthesis, where checkpatch --strict would ask for it; malloc()ed,
 * its length in *@newlen.  Every other line stays byte for byte.
 */
char *fix_align(const char *text, size_t len, const size_t *at, size_t nat, size_t *newlen);

/* fix/run.c */
/*
 * Run @argv in @cwd (NULL: here); its standard output, malloc()ed and
 * NUL-terminated, in *@out (may be NULL), standard error in *@err (may be
 * NULL).  Returns the exit status, or -1 after error() when it could not
 * run or was killed.  @in, when not NULL, is a file for its standard input.
 */
int fix_run(const char *cwd, const char *in, char **out, char **err, char *const argv[]);
/* The first line of @s, malloc()ed, without its newline. */
char *fix_first_line(const char *s);
/* Write @n bytes of @data to @path (made with its directories); -1 after error(). */
int fix_write(const char *path, const char *data, size_t n);
/* mkdir -p; -1 after error(). */
int fix_mkdirs(const char *dir);

/* fix/msg.c */
/* Subject and message of @u (the findings and files set), into @u. */
int fix_message(const struct fix_ctx *c, struct fix_unit *u);
/* To and Cc of @u from scripts/get_maintainer.pl on its patch, into @u. */
int fix_maintainers(const struct fix_ctx *c, struct fix_unit *u);

/* fix/who.c */
/* Who can read a file, most exposed first: the order of the series. */
enum fix_who_rank { FIX_WHO_EVERYONE, FIX_WHO_UNKNOWN, FIX_WHO_ROOT };
struct fix_who {
	int rank;			/* enum fix_who_rank */
	char *readers;			/* "every user", "root", ... */
	char *fact;			/* the sentence that says why, with the path; or NULL */
};
/*
 * Who can read what @func prints, from how @text (the tree's @file) registers
 * its output: a proc, debugfs, tracefs, securityfs or sysfs file, or a
 * subsystem's helper.
 */
void fix_who(const char *file, const char *text, size_t len, const char *func, struct fix_who *w);
void fix_who_free(struct fix_who *w);

/* fix/series.c */
/* Commit the units in a scratch repository and write the series to c->out. */
int fix_series(struct fix_ctx *c);
/* Once every check passed: the cover letter says what they proved. */
int fix_cover_checked(const struct fix_ctx *c);

/* fix/held.c */
/*
 * Does the series fix @f (with --all: @all)?  1: yes; 0: no, and *@why
 * (when @why is not NULL) says why, malloc()ed: a range, a low-confidence
 * note, a class with no rewrite.
 */
int fix_takes(const struct finding *f, int all, char **why);
/*
 * Each finding of @res the series does not take, with its reason: into
 * c->left (the cover letter lists them) and, unless @quiet, on stderr.
 */
void fix_left_out(struct fix_ctx *c, const struct cocci_result *res, int all, int quiet);
/*
 * @text (@len bytes) of @file with @findings fixed: those of fix_apply(),
 * and an address held in an integer (int-held, int-field, int-buf) printed
 * with %p of the integer cast back to void *.  malloc()ed, its length in
 * *@newlen; NULL after error().
 */
char *fix_file(const char *file, const char *text, size_t len,
	       const struct finding *const *findings, size_t n, size_t *newlen);

/* fix/check.c */
/* Prove each patch; prints one line per patch and check.  -1: a check failed. */
int fix_check(struct fix_ctx *c, const struct cocci_result *before);

#endif
