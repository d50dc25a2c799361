/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cocci: run the cocci/ rules with spatch over (part of) a kernel tree and
 * collect their machine-readable records (the "-D ptrguard" mode described
 * in docs/design.md).  Shared by `ptrguard audit` and `ptrguard gate`.
 */
#ifndef PTRGUARD_COCCI_H
#define PTRGUARD_COCCI_H

#include <stddef.h>
#include <stdio.h>

/* One "F" record: a conversion that may print a kernel address. */
struct finding {
	char *file;		/* relative to the tree root */
	unsigned int line;	/* 1-based */
	unsigned int column;	/* 1-based (spatch's column + 1) */
	char *cls;		/* a class of model/vocab.def: "px", "int-cast"... */
	char *conversion;	/* "%px", "%-16lx" */
	char *function;		/* enclosing function */
	char *format;		/* the format literal as written, escapes kept */
	char *arg;		/* the argument expression, as spatch prints it */
	char *message;		/* free text after "CLASS CONVERSION: " */
	/*
	 * Where the argument printed starts (1-based; 0: not known), for the
	 * rewriter when the format is not in the call (a variable's literal).
	 */
	unsigned int arg_line, arg_column;
	/*
	 * Judged by the lexical model alone (lex.h): spatch did not parse
	 * the call, or does not follow its wrapper or its format variable.
	 * A privilege check that zeroes the value was not looked for.
	 */
	int lexical;
};

/* Lines spatch skipped in a file: first..last (last ~0u: to the end). */
struct cocci_skip {
	char *file;
	unsigned int first, last;
};

/*
 * A seq-output call in lines spatch skipped that the lexical model cannot
 * judge either: its format is not made of literals, or it prints an
 * integer cast of an operand the model cannot type.
 */
struct cocci_unjudged {
	char *file;
	unsigned int line, end_line;
	char *callee;
	char *why;
};

/* One "C" record: a seq-output call the rules examined. */
struct cocci_call {
	char *file;		/* relative to the tree root */
	unsigned int line;	/* 1-based */
	char *function;
	char *format;		/* the format literal as written, escapes kept */
};

/* The rules of the rules directory, for cocci_opts.rules. */
#define COCCI_RULE_PX	(1u << 0)	/* seq_px.cocci */
#define COCCI_RULE_CAST	(1u << 1)	/* seq_int_cast.cocci */

struct cocci_opts {
	const char *root;	/* tree root (required) */
	/*
	 * Files or directories to examine, absolute or relative to the
	 * current directory; each must lie under @root.  NULL/0: the whole
	 * tree.
	 */
	const char * const *paths;
	size_t npaths;
	const char *rules_dir;	/* directory holding the .cocci files (required) */
	const char *spatch;	/* spatch program; NULL: $SPATCH or "spatch" */
	unsigned int jobs;	/* parallel spatch processes; 0 means 1 */
	/*
	 * Seconds a spatch process may run before it is killed and the run
	 * fails (the error names its files and the timeout); 0: no limit.
	 */
	unsigned int timeout;
	int casts;		/* also run seq_int_cast.cocci (slower) */
	/*
	 * The rules to run, COCCI_RULE_* bits; 0: seq_px.cocci, plus
	 * seq_int_cast.cocci when @casts is set.
	 */
	unsigned int rules;
	/*
	 * Also drop the files where a rule cannot report anything: no format
	 * literal with a conversion it reports (prefilter.h).  Findings and
	 * patches are the same; calls are then only counted, and listed, in
	 * the files spatch parses, so leave it off for --list-formats.
	 * COCCI_PREFILTER_CAST: only for seq_int_cast.cocci (--list-formats
	 * lists the calls seq_px.cocci parses in every file, and judges as
	 * the audit does).
	 */
	int prefilter;
#define COCCI_PREFILTER_CAST 2
	/*
	 * The caller has chosen the files (ptrguard gate): every file of
	 * @paths goes to spatch, and spatch is not started to print the
	 * rules' grep queries (a tenth of a second each).
	 */
	int no_query;
	const char *python;	/* spatch --python INTERPRETER; NULL: spatch_python()'s */
	/*
	 * Judge only the calls the rules saw, not the others by the lexical
	 * model alone: for a run of the cast rule alone, whose files a
	 * seq_px.cocci run judges too.
	 */
	int no_lexical;
	/*
	 * Keep what spatch prints for each file between runs, and use it
	 * when the file, its headers, the rules and the tools are the same
	 * (cocci/cache.c; $PTRGUARD_CACHE/spatch, PTRGUARD_CACHE=off: not).
	 */
	int cache;
	int progress;		/* show progress on stderr */
	int verbose;		/* echo spatch command lines and timings on stderr,
				 * keep spatch's output files */
};

struct cocci_result {
	struct finding *findings;	/* sorted by file, line, column, class; no duplicates */
	size_t nfindings;
	struct cocci_call *calls;	/* sorted by file, line; no duplicates */
	size_t ncalls;
	size_t nfiles;		/* candidate files given to spatch */
	size_t nscanned;	/* files under the paths that were prefiltered */
	size_t nquery;		/* files satisfying a rule's grep query (nfiles
				 * without opts->prefilter; more with it) */
	/*
	 * Files with lines spatch could not parse, sorted: candidates, and
	 * with --all-includes rules the tree's headers they read (a parse
	 * error located in spatch's own standard.h counts for the file being
	 * handled).  unparsed_lines: spatch's "badcount" for each, the
	 * largest over the parses of that file.
	 */
	char **unparsed;
	unsigned int *unparsed_lines;
	size_t nunparsed;
	/* where those lines are, sorted by file and line, merged */
	struct cocci_skip *skips;
	size_t nskips;
	/*
	 * The seq output calls read (a wrapper's own body is its callers):
	 * judged with a rule's facts (spatch parsed them), by the lexical
	 * model alone (spatch skipped them or cannot follow them), and read
	 * by the model where no rule can report (the format prefilter finds
	 * no conversion a rule reports in the file) or printing no value;
	 * with the calls not understood (@nunjudged), every one.
	 */
	size_t nspatch, nlexical, nquiet;
	struct cocci_unjudged *unjudged;	/* sorted by file and line */
	size_t nunjudged;
};

/*
 * cocci_run - run the rules and collect their records
 *
 * Lists the .c files (and .h files, for rules with --include-headers)
 * under the paths, keeps those satisfying the rule's grep query (the
 * prefilter spatch would apply; a rule without one is refused) and, with
 * opts->prefilter, holding a conversion the rule reports, and runs
 * the rules on them with opts->jobs spatch processes (which die with the
 * caller, and are killed after opts->timeout seconds).  Directories
 * named .* and symbolic links to directories met
 * while walking are skipped.  Returns 0 and fills @res, or returns -1
 * after reporting the error once with error():
 * missing spatch, missing rules, unreadable or missing input, spatch
 * killed, timed out or exiting non-zero, malformed records.  @res is left empty
 * (safe to free) on error.
 */
/*
 * The kernel macro file in the rules directory, given to spatch with
 * --macro-file when it is there (see docs/auditor.md).
 */
extern const char cocci_macro_file[];
/*
 * The python3 spatch is to run the rules' scripts with (--python):
 * $PTRGUARD_PYTHON (empty: NULL, spatch's own choice), else the first
 * python3 on PATH that is a program, not a script; NULL if none.  Owned.
 */
char *spatch_python(void);

int cocci_run(const struct cocci_opts *opts, struct cocci_result *res);

/* Do lines @a..@b of @file meet a region spatch skipped (@res->skips)? */
int cocci_skipped(const struct cocci_result *res, const char *file, unsigned int a,
		  unsigned int b);

/*
 * The skipped lines of @file in @res as "a-b, c, d-end", malloc()ed, and
 * how many lines that is in *@count; NULL (and 0) if none.
 */
char *cocci_skip_text(const struct cocci_result *res, const char *file, unsigned int *count);

/*
 * A result as text, one record a line: "F" as the rules print it plus a
 * field, 1 for a lexical finding, then "S" (skipped lines), "J"
 * (unjudged calls), "U" (unparsed files), "N" (the counts) and "E"
 * (docs/design.md); no "C".  The gate's child processes answer so, and
 * its cache keeps it.  cocci_records_read() parses @buf in place into
 * @res and returns -1 if it is malformed or incomplete (no "E").
 */
void cocci_records_write(FILE *f, const struct cocci_result *res);
int cocci_records_read(char *buf, struct cocci_result *res);

/* Free everything cocci_run() put into @res, and zero it. */
void cocci_result_free(struct cocci_result *res);

/* Is this a leak class (px, p-unhashed, int-cast) rather than a low-confidence one? */
int finding_is_leak(const struct finding *f);

/*
 * cocci_find_root - the kernel tree root holding @path
 *
 * Walks up from @path (a file or directory) to the first directory that
 * holds Makefile, Kconfig and MAINTAINERS.  Returns a malloc()ed absolute
 * path, or NULL after reporting the error.
 */
char *cocci_find_root(const char *path);
/* The same, or NULL with nothing reported. */
char *cocci_find_root_quiet(const char *path);
/*
 * The kernel out-of-tree sources are built against, kernel_use(@kdir)
 * (lib/kernel.h), and its version (model/kver.h) told to the prefilter
 * (prefilter_set_old()) and to the rules (PTRGUARD_KERNEL_VERSION, read by
 * pg.py); a kernel with no version says so on stderr and keeps the
 * newest kernel's semantics.  0, or -1 after error().
 */
int cocci_use_kernel(const char *kdir);
/*
 * The root the @n @paths (none: ".") of `ptrguard audit` are relative to:
 * @tree (--tree), else the kernel tree above the first one; for sources
 * out of tree (@kernel, --kernel, or no kernel tree) their common
 * directory, with cocci_use_kernel(@kernel).  malloc()ed; NULL after error().
 */
char *cocci_paths_root(const char *tree, const char *kernel, char *const *paths, int n);
/*
 * The root of the one file at the absolute path @abs (`ptrguard calls`):
 * realpath(@tree) when given; @outside (a module built against another
 * tree), the top of its module (the highest directory above it with a
 * Kbuild or Makefile, else its own directory); else the kernel tree
 * above it.  malloc()ed, or NULL with nothing reported.
 */
char *cocci_file_root(const char *abs, const char *tree, int outside);
/*
 * An absolute, lexically normalised form of @path (".", ".." and "//"
 * resolved without following symbolic links); NULL if there is no
 * current directory.
 */
char *cocci_abspath(const char *path);
int cocci_is_dir(const char *path);

/*
 * cocci_rules_dir - the default rules directory of the running program
 *
 * Found from /proc/self/exe: ../cocci next to build/ (a build tree) or
 * ../share/ptrguard/cocci next to bin/ (after make install).  Returns a
 * malloc()ed path, or NULL after reporting the error.
 */
char *cocci_rules_dir(void);

#endif
