/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of cocci_run() (cocci.h), one job a file:
 *
 *   cocci/root.c     tree roots, the rules directory, absolute paths
 *   cocci/rules.c    the rules: their options and spatch's grep query
 *   cocci/walk.c     the file walk: which files each rule runs on
 *   cocci/spatch.c   spatch's command line and what a failed run said
 *   cocci/groups.c   the files split in groups, run in the runner's pool
 *   cocci/cache.c    what spatch printed per file, kept between audits
 *   cocci/records.c  the records: reading spatch's, writing and reading ours
 *   cocci/skip.c     the lines spatch skipped ("badcount:", "bad:")
 *   cocci/sort.c     sorting and merging a result, freeing it
 *   judge/judge.c    the judge: what each call prints, for every call
 *   cocci/run.c      cocci_run(): the steps in order
 */
#ifndef PTRGUARD_COCCI_IMPL_H
#define PTRGUARD_COCCI_IMPL_H

#include <stdlib.h>
#include <string.h>

#include "cocci/cocci.h"
#include "lib/keycache.h"
#include "cocci/prefilter.h"
#include "lib/ptrguard.h"

#define GROW(arr, nr, alloc) do {					\
	if ((nr) >= (alloc)) {						\
		(alloc) = (alloc) ? 2 * (alloc) : 16;			\
		(arr) = xrealloc((arr), (alloc) * sizeof(*(arr)));	\
	}								\
} while (0)

/* A NULL-terminated, growing array of malloc()ed strings. */
struct strvec {
	char **v;
	size_t nr, alloc;
};

static inline void strvec_push(struct strvec *sv, char *s)
{
	GROW(sv->v, sv->nr + 1, sv->alloc);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

static inline void strvec_clear(struct strvec *sv)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

/* ---- cocci/root.c ---- */

/* cocci_abspath(), cocci_is_dir(): in cocci.h */

/* ---- cocci/rules.c ---- */

/*
 * A rule's prefilter, as spatch prints it after "Grep query": identifiers
 * combined with "||", "&&" and parentheses.
 */
struct query {
	char *text;		/* NULL: the rule has no query */
};

struct rule {
	char *path;		/* absolute */
	char *name;		/* basename */
	struct strvec options;	/* from its "// Options:" line */
	struct query query;
	int headers;		/* --include-headers: also .h files */
	enum pf_rule kind;	/* for prefilter_keep() */
	/*
	 * The rule given the wrappers of the tree (rule_add_wrappers()), a
	 * file of the run's temporary directory that rule_free() removes; it
	 * is then r->path too.  NULL: the rule as built.
	 */
	char *tmp;
	char *built;		/* the rule as built, once r->path is r->tmp */
};

#define COCCI_NRULES 2

/*
 * Load the rules of opts->rules (or seq_px.cocci, plus seq_int_cast.cocci
 * with opts->casts) from opts->rules_dir into @rules, each given the
 * @wrappers (rule_add_wrappers()), and unless opts->no_query their grep
 * queries (spatch --parse-cocci, run in @tmpdir's files).  -1 after
 * error(); *@nrules counts what to free.
 */
int rules_load(const struct cocci_opts *opts, const char *tmpdir,
	       const struct strvec *wrappers, struct rule *rules, size_t *nrules);
/*
 * Give rule @r, as built, the @n wrappers @names (the tree's and the
 * audited files' own): each is a seq output call of the rule (its grep
 * query, its "seqcall" rule, the fact rules' "seq|SEQ" names).  Written
 * to @tmpdir; a rule without a "seqcall" rule is left as it is.  -1
 * after error().
 */
int rule_add_wrappers(struct rule *r, char *const *names, size_t n, const char *tmpdir);
void rule_free(struct rule *r);
/* Does the rule read the headers a file includes (--all-includes)? */
int rule_reads_headers(const struct rule *r);
/*
 * Every word of the rules' queries, looked for in a file all at once: one
 * pass over the file that reads each maximal run of word bytes (a word
 * occurs where such a run equals it) and looks it up among the words,
 * once its length and last byte are those of some word.  A pass per
 * word (or per distinct ending, with memmem()) cost the walk a third of
 * ptrguard's own time.  query_words_add() each rule's query, then for
 * each file query_words_scan() into a found[] array of qw->n bytes (the
 * caller's, one per thread) and give both to query_match().
 */
struct query_words {
	struct query_word {
		const char *w;
		size_t len;
	} *word;
	size_t n, alloc;
	/* open addressing over word[], by kc_hash(); (size_t)-1: empty */
	size_t *slot;
	size_t nslots;
	uint64_t lens;		/* bit n: a word of n bytes (63: longer) */
	unsigned char last[32];	/* bit c: a word ends in byte c */
	int anchor;		/* a byte every word holds, rare in C; -1: none */
};

struct query_found {
	const struct query_words *qw;
	const unsigned char *found;
};

void query_words_add(struct query_words *qw, const struct query *qr);
void query_words_scan(const struct query_words *qw, const char *buf, size_t len,
		      unsigned char *found);
void query_words_free(struct query_words *qw);

/*
 * 1 if a file holding @buf may match, 0 if not, -1 if the query does not
 * parse.  With @qf (else NULL), the words are not looked for in @buf but
 * read from qf->found, filled by query_words_scan() from the same file.
 */
int query_match(const struct query *qr, const char *buf, size_t len,
		const struct query_found *qf);

/* ---- cocci/walk.c ---- */

struct cand {
	char *file;		/* relative to the root */
	size_t size;
	unsigned int rules;	/* bit i: rule i may match */
	unsigned int cached;	/* bit i: rule i's output came from the cache */
	size_t group;		/* cocci/groups.c's, while it makes them */
};

struct walk {
	const char *root;	/* absolute */
	size_t rootlen;
	struct rule *rules;
	size_t nrules;
	struct cand *cands;
	size_t ncands, alloc;
	size_t nscanned;
	size_t nquery;		/* files satisfying a grep query */
	int headers;		/* some rule wants .h files */
	int prefilter;		/* opts->prefilter */
	unsigned int jobs;	/* threads reading the files */
	int index;		/* opts->cache: use and keep the walk's index */
	size_t nknown;		/* files the index had, not read again */
	struct query_words words;	/* of the rules' queries, while reading */
	/*
	 * Files no rule can match that hold a format a wrapper could print
	 * (a %px, or a %p before v4.15), and files with seq output where no
	 * rule can report (the format prefilter): for the lexical model
	 * alone, which lists the calls it cannot read there.
	 */
	struct strvec lexonly;
	/*
	 * The wrappers the rules were given (rule_add_wrappers()), sorted:
	 * what cocci_buf_calls() keeps the bodies of, when @slice.
	 */
	char **wrappers;
	size_t nwrappers;
	/*
	 * 0: spatch reads the files whole; COCCI_SLICE_OUTPUT: their slices
	 * (model/lex_slice.c), seq_px.cocci's keeping every body that names
	 * seq output (--list-formats lists each call spatch parses);
	 * COCCI_SLICE_CALLS: keeping the calls the judge reads its facts for
	 */
	int slice;
};

#define COCCI_SLICE_OUTPUT 1
#define COCCI_SLICE_CALLS 2

/*
 * Fill w->cands with the files under @paths (NULL/0: the whole tree at
 * w->root) that a rule may match, sorted and unique.  -1 after error().
 */
int walk_paths(struct walk *w, const char * const *paths, size_t npaths);
void walk_free(struct walk *w);

/* ---- spatch.c ---- */

/* The spatch program: opts->spatch, else $SPATCH, else "spatch". */
const char *spatch_prog(const struct cocci_opts *opts);
/*
 * The environment spatch runs with (struct run_cmd's env): the caller's,
 * with OCaml's collector set for speed unless the caller set it.
 */
char *const *spatch_env(void);
/* Is @prog runnable (a path, or found in $PATH)? */
int spatch_found(const char *prog);
/*
 * The spatch command line that runs @r on the files listed in @list
 * (a --file-groups file) in the tree @root.
 */
void spatch_argv(const struct cocci_opts *opts, const char *root, const struct rule *r,
		 const char *list, struct strvec *av);
/* The last non-empty line of a file, for error messages; malloc()ed. */
char *spatch_last_line(const char *path);
/* The file named by the last "HANDLING: " line of spatch's stderr, or NULL. */
char *spatch_last_handled(const char *path);

/* ---- cocci/groups.c ---- */

struct collect;

/*
 * Run the rules on w->cands: groups of files, opts->jobs spatch processes
 * at once through the runner's pool, each killed after opts->timeout
 * seconds.  Records go to @c; in patch mode the diff goes to
 * opts->patch_out.  -1 after error().
 */
int cocci_spatch_run(const struct cocci_opts *opts, struct walk *w, const char *tmpdir,
		     struct collect *c);

/* ---- cocci/bufcalls.c ---- */

/*
 * Write to @path the "FILE<TAB>LINE" records of the formatting calls into
 * a buffer of @files (relative to @root) whose format the judge reads:
 * the calls the rules' buffer facts start from (-D pg_bufcalls=@path).
 * With @mirror, also write there each file's slice for rule @r
 * (model/lex_slice.c: the bodies the rule cannot match in blanked),
 * under a copy of the tree made of links (cocci/slice.c); *@nsliced
 * counts the files written.  -1 after error().
 */
int cocci_buf_calls(const struct walk *w, const struct rule *r, const struct strvec *files,
		    const char *path, const char *mirror, size_t *nsliced);

/* ---- cocci/slice.c ---- */

/*
 * Write @len bytes of @text as @rel under @mirror, a directory that
 * reads as the tree @root: each directory on the way to @rel is a real
 * one holding a symbolic link to every entry of the tree's (so that
 * "#include "../x.h"" and the -I paths find the tree's files), and @rel
 * is the text.  spatch run there sees the tree with @rel replaced.  -1
 * after error().
 */
int cocci_mirror_file(const char *root, const char *mirror, const char *rel, const char *text,
		      size_t len);
/* Remove such a @mirror (its links, never what they name); none is no error. */
int cocci_mirror_remove(const char *mirror);

/* ---- cocci/records.c ---- */

/*
 * A fact a rule printed (cocci/rules/pg.py): a call spatch parsed ("C"), or
 * what spatch knows of one of its arguments ("M").
 */
struct cocci_fact {
	char *file;		/* relative to the root */
	unsigned int line, column;	/* of the callee's name, 1-based */
	int cast_rule;		/* printed by seq_int_cast.cocci */
	int arg;		/* the argument, 0-based; -1: the call */
	/*
	 * 'C' parsed; 'g' gated, 'n' NULL, 'p' pointer cast, 'h' an integer
	 * local holding a pointer cast, 'f' a field assigned one in the file,
	 * 'b' a buffer formatted here is written to seq output, 'a' it
	 * leaves the function otherwise (judge/away.c), 'u' a cast spatch
	 * could not type, 'e' an error pointer
	 */
	char mark;
	/*
	 * the gate field, the cast's operand (p, h, f), the writer's line
	 * (b), how the buffer leaves (a: "pass G LINE"...), or ""
	 */
	char *what;
};

/* A result being filled, with the room of its arrays. */
struct collect {
	struct cocci_result *res;
	size_t falloc, calloc, ualloc, salloc, jalloc;
	struct cocci_fact *facts;	/* the rules' records, in no order */
	size_t nfacts, xalloc;
};

void cocci_facts_free(struct collect *c);

/* A record's file name, made relative to @root (NULL: only "./" dropped). */
char *cocci_rel_file(const char *root, const char *file);
int cocci_parse_uint(const char *s, unsigned int *v);
/* Read the "C" and "M" records rule @r printed into file @out. */
int cocci_parse_records(struct collect *c, const char *root, const char *out,
			const struct rule *r);

/* ---- cocci/skip.c ---- */

/*
 * Read spatch's --verbose-parsing stderr (file @err): the files with
 * lines it could not parse, and where those lines are.
 */
void cocci_parse_badcounts(struct collect *c, const char *root, const char *err,
			   int headers);

/* ---- cocci/cache.c ---- */

/* What spatch printed per file and rule, kept between audits (opts->cache). */
struct cocci_cache {
	char *dir;		/* NULL: nothing kept */
	struct kc_key ident[COCCI_NRULES];	/* the key's part common to a rule's files */
	size_t hits, stored;
};

void cocci_cache_init(struct cocci_cache *cc, const struct cocci_opts *opts,
		      const struct walk *w);
void cocci_cache_free(struct cocci_cache *cc);
/*
 * Read what rule @ri printed for @rel into @c, as a run would: 1 if it
 * was kept, 0 if not, -1 after error().
 */
int cocci_cache_replay(struct cocci_cache *cc, struct collect *c, const struct walk *w,
		       size_t ri, const char *rel, const char *tmpdir);
/* Keep the part of each of @files in a group's spatch output (@out, @err). */
void cocci_cache_store(struct cocci_cache *cc, const struct walk *w, size_t ri,
		       const struct strvec *files, const char *out, const char *err);

/* ---- judge/judge.c ---- */

/*
 * Add to @names the wrappers the @nfiles @files (relative to @root)
 * define for themselves (lex.h), unless known: the rules must see their
 * calls too.
 */
void cocci_file_wrappers(const char *root, char *const *files, size_t nfiles,
			 struct strvec *names);
/*
 * The judge: every seq-output call of @files the lexical model finds,
 * with the facts the rules printed (@c->facts) where spatch parsed it
 * (px_ran[i], cast_ran[i]: the rules ran on file i); with @lexical, the
 * calls they did not see too (marked lexical) and the ones nobody can
 * read (unjudged); with @casts (the cast rule is in the run), also the
 * integer casts of calls the cast rule did not see outside the lines
 * spatch skipped (a call it expands as a macro, a file its prefilter
 * left out).  Where the cast rule and the model both read a cast,
 * their verdicts are compared: with @verbose, each disagreement is named
 * on stderr (and one thread judges; else @jobs threads).  With @cache
 * (and without @verbose), each file's judgement is kept between runs
 * ($PTRGUARD_CACHE/judge) and taken from there when nothing it follows
 * from changed.
 */
void cocci_judge(const char *root, char *const *files, const int *px_ran, const int *cast_ran,
		 size_t nfiles, unsigned int jobs, int lexical, int casts, int verbose, int cache,
		 struct collect *c);

/* ---- cocci/sort.c ---- */

/* Sort a result's arrays, drop duplicates, merge skipped regions. */
void cocci_finish(struct cocci_result *res);

#endif
