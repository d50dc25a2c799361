/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate: the pieces of `ptrguard gate` (patch parsing is in patch.h; the
 * command, its options and help, in builtin/gate.c).
 *
 *   gate/gate.c   the steps: patches read and applied, states, comparison
 *   gate/plan.c   which rule runs on which file of each state, the runs
 *   gate/tree.c   scratch copies of a tree: shadow trees, git apply, --range
 *   gate/run.c    the rules in child processes (runner.h), with a deadline
 *   gate/cache.c  the findings of a file's text, kept between runs
 *   gate/diff.c   fingerprints: which findings a patch adds or fixes
 *   gate/out.c    text, gcc, JSON and SARIF reports
 */
#ifndef PTRGUARD_GATE_H
#define PTRGUARD_GATE_H

#include <stddef.h>
#include <stdio.h>

#include "cocci/cocci.h"
#include "lib/parse-options.h"
#include "gate/patch.h"
#include "lib/shadow.h"

/* ---- gate/tree.c ---- */

/* Make the temporary directory holding all shadows; NULL after error(). */
char *gate_tmpdir(void);
/*
 * Make @rel a private copy in the shadow: its directories become real and
 * the file gets the content of @src_root/@rel (a real tree or another
 * shadow), or no file at all if that does not exist there.
 */
int shadow_own(struct shadow *s, const char *rel, const char *src_root);
/*
 * The same for the @n files @rels, from the blobs @rev:REL of the git
 * repository @repo, read by one git cat-file --batch (its request and
 * answer are kept in @tmpdir while it runs).
 */
int shadow_own_git(struct shadow *s, char *const *rels, size_t n, const char *repo,
		   const char *rev, const char *tmpdir);
/* Apply @p with git apply inside the shadow; reports "does not apply". */
int shadow_apply(struct shadow *s, const struct patch *p, const char *tmpdir);
/* Copy a file (mode 0644); -1 after error(). */
int gate_copy_file(const char *from, const char *to);
/* Does the shadow hold a regular file at @rel? */
int shadow_has_file(const struct shadow *s, const char *rel);

/* Check that @rev is a commit of the git tree @tree (named @name); copy it. */
int gate_git_base(const char *tree, const char *name, const char *rev, char **base_rev);
/* The mbox of `git format-patch` for @range in the git tree @tree. */
int gate_range_mbox(const char *tree, const char *name, const char *range, char **buf,
		    size_t *len, char **base_rev);

/* ---- gate/run.c ---- */

struct gate_job {
	const char *root;	/* a shadow root */
	char **files;		/* relative .c/.h files to check */
	size_t nfiles;
	const char *label;	/* for messages: "before", "after patch 2" */
	int casts;		/* run seq_int_cast.cocci, not seq_px.cocci */
	struct cocci_result res;	/* filled on success */
	char *why;		/* private to gate/run.c */
	void *arg;		/* private to gate/run.c */
};

struct gate_run_opts {
	const char *rules_dir;
	const char *spatch;	/* NULL: cocci's default */
	const char *python;	/* spatch --python; NULL: spatch's own choice */
	unsigned int jobs;	/* child processes at once */
	unsigned int timeout;	/* seconds per job; 0: none */
	int verbose;
	int progress;		/* a progress line on stderr (a terminal) */
};

/* Run every job (up to opts->jobs at once); -1 after error() on any failure. */
int gate_run_jobs(const struct gate_run_opts *opts, struct gate_job *jobs, size_t njobs);

/* ---- gate/cache.c ---- */

struct gate_cache {
	char *dir;		/* NULL: no cache */
	char *ident;		/* the key's part common to all files: tools, rule */
	size_t nident;
	int verbose;
};

/*
 * The cache of the tools and rules of @run: $PTRGUARD_GATE_CACHE ("" or
 * "off": none), else $PTRGUARD_CACHE/gate, else ~/.cache/ptrguard/gate.
 */
int gate_cache_init(struct gate_cache *c, const struct gate_run_opts *run);
void gate_cache_free(struct gate_cache *c);
/*
 * The findings of @rel as it is in the tree @root, of seq_px.cocci and,
 * with @cast, seq_int_cast.cocci, when stored: 1 and @res filled, else 0.
 * @side names the state for -v ("before the patches").
 */
int gate_cache_get(struct gate_cache *c, const char *root, const char *rel, int cast,
		   const char *side, struct cocci_result *res);
/* Store @res, the complete findings of those rules on @rel in @root (clean results only). */
void gate_cache_put(struct gate_cache *c, const char *root, const char *rel, int cast,
		    const char *side, const struct cocci_result *res);
/*
 * Which rules the text of @rel says can fire (gate/plan.c's file_needs()),
 * kept by content: the @len bytes of @buf, the path, and @deps, everything
 * else the answer follows from (the wrapper table's identity, the tree's
 * age, the options).  1 and *@need set when stored, else 0.
 */
int gate_needs_get(struct gate_cache *c, const char *rel, const char *buf, size_t len,
		   const char *deps, unsigned int *need);
void gate_needs_put(struct gate_cache *c, const char *rel, const char *buf, size_t len,
		    const char *deps, unsigned int need);

/* ---- gate/diff.c ---- */

/* A finding the patches add (new) or remove (fixed), placed in a patch. */
struct gate_item {
	const struct finding *f;
	int fixed;			/* 0: new, 1: fixed */
	const struct patch *patch;	/* where its line was added/removed, or NULL */
	unsigned int input_line;	/* line in the patch input, 0 if none */
	char *path;			/* the file as the patch names it (new path) */
	char *text;			/* the line: as added/removed, or as in the file */
	char mark;			/* '+', '-' or ' ' (the line is unchanged context) */
};

struct gate_diff {
	struct gate_item *items;
	size_t nitems;
	size_t nnew, nfixed;
};

/*
 * gate_diff - compare the findings before and after some patches
 * @before/@after: findings on the touched files in the two states
 * @renames: old path -> new path pairs (2 * nrenames strings)
 * @patches/@npatches: the patches between the two states, to place lines
 * @after_root/@before_root: the shadows, to read lines not in the patch
 *
 * Findings match by fingerprint (file after renames, function, class,
 * normalised format and argument) with multiplicity.  Only leak classes
 * count.  Appends to @d.
 */
void gate_diff(const struct cocci_result *before, const struct cocci_result *after,
	       char *const *renames, size_t nrenames,
	       const struct patch *const *patches, size_t npatches,
	       const char *before_root, const char *after_root, struct gate_diff *d);
void gate_diff_free(struct gate_diff *d);

/* ---- gate/out.c ---- */

struct gate_section {
	const struct patch *patch;	/* NULL: the whole set at once */
	struct gate_diff diff;
	size_t nchecked;		/* touched .c/.h files run through the rules */
};

/* @fmt: FORMAT_CHECKPATCH, FORMAT_TEXT, FORMAT_JSON or FORMAT_SARIF. */
void gate_output(enum pg_format fmt, const struct gate_section *secs, size_t nsecs,
		 int series, size_t npatches, size_t nchecked, const char *base);

/* ---- gate/gate.c: the steps ---- */

/* The files each rule runs on, in one state. */
struct plan {
	char **px, **cast;
	size_t npx, ncast;
};

struct gate {
	const char *tree_arg;
	const char *kernel_arg;		/* --kernel KDIR */
	char *tree;			/* realpath of the tree */
	enum pg_format format;		/* --format (default: checkpatch) */
	int no_notes;			/* --quiet */
	int no_prefilter;		/* --no-prefilter: every rule everywhere */
	const char *range;
	const char *base_arg;		/* --base REV */
	char *base_rev;			/* --range, --base: the base commit */
	int series;
	struct gate_run_opts run;
	char *rules;
	struct patch_series ps;
	char **touched;			/* every path any patch names, sorted, unique */
	size_t ntouched;
	char *tmp;			/* holds the shadows; removed at exit */
	char *python;			/* spatch_python() */
	struct shadow *states;		/* series: n + 1; otherwise 2 */
	size_t nstates;

	/* the rule runs: list_files(), plan_runs(), judge_states() */
	struct gate_job *jobs;		/* per state: the sources touched there, findings */
	struct plan *plan;		/* per state: which rule runs on which of them */
	int combined;			/* see combine_states() */
	char **checked;			/* every file of the jobs */
	size_t nchecked;
	struct plan *store;		/* per state: the files to cache (cast: both rules) */
	struct gate_cache cache;
	/* per state: the gate's own reading's vocabulary (state_vocab()), made once */
	struct lex_vocab *vocab;
	int *vocab_made;
};

/*
 * The gate, step by step: read the patches, apply them to scratch copies
 * of the tree, judge the base and the patched states with the rules,
 * compare, report.  Exit status, or -1 after error().
 */
int gate_main(struct gate *g, char **inputs, size_t ninputs);
/* Free what gate_main() made, and remove the scratch copies. */
void gate_free(struct gate *g);

/* Helpers of the steps (gate/gate.c), for gate/plan.c. */
int gate_has_suffix(const char *path, const char *suffix);
void gate_add_path(char ***v, size_t *n, const char *path);
void gate_free_paths(char **v, size_t n);
/* The name of the base copy of @path in a combined run, and back (NULL: not one). */
char *gate_base_name(const char *path);
char *gate_unbase_name(const char *name);
/* The lines the patches add to @rel in state @k, sorted; their count in *@nlines. */
unsigned int *gate_added_lines(const struct gate *g, size_t k, const char *rel, size_t *nlines);
/* The findings, skips and unjudged calls of @res in the files @paths; gate_filtered_free(). */
struct cocci_result *gate_filter(const struct cocci_result *res, char **paths, size_t n);
void gate_filtered_free(struct cocci_result *r);

/* ---- gate/plan.c: the rule runs ---- */

/* Which rule runs on which file of each state; -1 after error(). */
int gate_plan_runs(struct gate *g);
/* Run them, and check what the patches add; -1 after error(). */
int gate_judge_states(struct gate *g);
/* Keep each state's findings in the cache. */
void gate_store_states(struct gate *g);
/* A note per touched file with lines spatch skipped. */
void gate_note_skipped(const struct gate *g, const struct gate_job *jobs);

#endif
