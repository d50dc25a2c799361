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
	char *cls;		/* "px", "p-unhashed", "int-cast", "px-gated", "px-user" */
	char *conversion;	/* "%px", "%-16lx" */
	char *function;		/* enclosing function */
	char *format;		/* the format literal as written, escapes kept */
	char *arg;		/* the argument expression, as spatch prints it */
	char *message;		/* free text after "CLASS CONVERSION: " */
};

/* One "C" record: a seq-output call the rules examined. */
struct cocci_call {
	char *file;		/* relative to the tree root */
	unsigned int line;	/* 1-based */
	char *function;
	char *format;		/* the format literal as written, escapes kept */
};

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
	int casts;		/* also run seq_int_cast.cocci (slower) */
	/*
	 * Also drop the files where a rule cannot report anything: no format
	 * literal with a conversion it reports (prefilter.h).  Findings and
	 * patches are the same; calls are then only counted, and listed, in
	 * the files spatch parses, so leave it off for --list-formats.
	 */
	int prefilter;
	/*
	 * The caller has chosen the files (ptrguard gate): every file of
	 * @paths goes to spatch, and spatch is not started to print the
	 * rules' grep queries (a tenth of a second each).
	 */
	int no_query;
	const char *python;	/* spatch --python INTERPRETER; NULL: spatch's own */
	int progress;		/* show progress on stderr */
	int verbose;		/* echo spatch command lines and timings on stderr,
				 * keep spatch's output files */
	/*
	 * Patch mode: run the rules with "-D patch" instead of "-D ptrguard"
	 * and write the unified diff (paths relative to the root, a/ b/
	 * prefixes) to @patch_out; no records are collected.
	 */
	FILE *patch_out;
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
};

/*
 * cocci_run - run the rules and collect their records
 *
 * Lists the .c files (and .h files, for rules with --include-headers)
 * under the paths, keeps those satisfying the rule's grep query (the
 * prefilter spatch would apply; a rule without one is refused) and, with
 * opts->prefilter, holding a conversion the rule reports, and runs
 * the rules on them with opts->jobs spatch processes (which die with the
 * caller).  Directories named .* and symbolic links to directories met
 * while walking are skipped.  Returns 0 and fills @res, or returns -1
 * after reporting the error once with error():
 * missing spatch, missing rules, unreadable or missing input, spatch
 * killed or exiting non-zero, malformed records.  @res is left empty
 * (safe to free) on error.
 */
/*
 * The include path (relative to the tree root) and the forced includes
 * every spatch run gets; NULL-terminated.  The gate's cache keys on the
 * same headers.
 */
extern const char *const cocci_include_dirs[];
extern const char *const cocci_forced_includes[];

int cocci_run(const struct cocci_opts *opts, struct cocci_result *res);

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

/*
 * cocci_rules_dir - the default rules directory of the running program
 *
 * Found from /proc/self/exe: ../cocci next to build/ (a build tree) or
 * ../share/ptrguard/cocci next to bin/ (after make install).  Returns a
 * malloc()ed path, or NULL after reporting the error.
 */
char *cocci_rules_dir(void);

#endif
