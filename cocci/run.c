// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_run: run the cocci/ rules with spatch, judge what they saw.
 *
 * cocci_run() takes five steps, each in a file of its own (cocci_impl.h):
 *
 *  1. load the rules and ask spatch for each one's "Grep query"
 *     (cocci/rules.c);
 *  2. walk the paths and keep the files a rule may match (cocci/walk.c);
 *  3. give the rules the wrappers the candidates define for themselves,
 *     run spatch on them in groups, opts->jobs at once, each with a
 *     deadline (cocci/groups.c, runner.c), reading the facts the rules
 *     print ("C" and "M" records, cocci/records.c) and the lines spatch
 *     skipped (cocci/skip.c) of each group as it ends;
 *  4. sort and deduplicate (cocci/sort.c);
 *  5. judge every call, with spatch's facts where it parsed it, by the
 *     lexical model alone where not (judge/judge.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"
#include "model/lex.h"
#include "model/vocab.h"

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---------------------------------------------------------------- API */

int finding_is_leak(const struct finding *f)
{
	const struct vocab_class *c = vocab_class(f->cls);

	return c && c->leak;
}

/* The tree root, absolute; NULL after error(). */
static char *tree_root(const struct cocci_opts *opts)
{
	char *root;

	if (!opts->root || !opts->rules_dir) {
		error("cocci_run: no tree root or no rules directory");
		return NULL;
	}
	if (!spatch_found(spatch_prog(opts))) {
		error("%s: not found (install coccinelle, or set SPATCH)",
		      spatch_prog(opts));
		return NULL;
	}
	root = cocci_abspath(opts->root);
	if (!root || !cocci_is_dir(root)) {
		error("%s: %s", opts->root, !root ? strerror(errno) :
		      access(root, F_OK) ? strerror(ENOENT) : strerror(ENOTDIR));
		free(root);
		return NULL;
	}
	return root;
}

/* Step 2: the candidate files, and what the walk counted. */
static int find_files(const struct cocci_opts *opts, struct walk *w, struct cocci_result *res)
{
	struct timespec t0;
	size_t i, k, n;

	for (i = 0; i < w->nrules; i++)
		w->headers |= w->rules[i].headers;
	w->prefilter = opts->prefilter;
	w->jobs = opts->jobs;
	w->index = opts->cache;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (walk_paths(w, opts->paths, opts->npaths) < 0)
		return -1;
	if (!w->nscanned && !opts->no_query) {
		error("%s: no C source (.c or .h file) to audit",
		      opts->npaths ? opts->paths[0] : opts->root);
		return -1;
	}
	res->nscanned = w->nscanned;
	res->nquery = w->nquery;
	res->nfiles = w->ncands;
	if (!opts->verbose)
		return 0;
	fprintf(stderr, "ptrguard: prefilter: %zu files read (%zu unchanged since the last walk), %zu match a grep query, %zu candidates, %.2f s\n",
		w->nscanned, w->nknown, w->nquery, w->ncands, seconds_since(&t0));
	for (i = 0; i < w->nrules; i++) {
		for (k = 0, n = 0; k < w->ncands; k++)
			n += !!(w->cands[k].rules & (1u << i));
		fprintf(stderr, "ptrguard: prefilter: %s: %zu candidates\n", w->rules[i].name, n);
	}
	return 0;
}

/*
 * The wrappers the rules are given: the tree's (lex.h's table, also for
 * the format prefilter), and with @w those the candidate files define
 * for themselves.
 */
static void wrapper_names(const char *root, const struct walk *w, struct strvec *names)
{
	const struct lex_vocab *t = lex_vocab_table(root);
	size_t i;

	strvec_clear(names);
	for (i = 0; i < t->nfns; i++)
		if (strcmp(t->fns[i].origin, "core"))
			strvec_push(names, xstrdup(t->fns[i].name));
	if (!w) {
		prefilter_set_wrappers((const char **)names->v, names->nr);
		return;
	}
	for (i = 0; i < w->ncands; i++)
		cocci_file_wrappers(root, &w->cands[i].file, 1, names);
}

/*
 * Step 5: the judge, over the candidates (did seq_px.cocci, did
 * seq_int_cast.cocci run on each) and the files no rule keeps that hold
 * a format a wrapper could print.
 */
static void judge(const struct cocci_opts *opts, struct walk *w, struct collect *c)
{
	size_t n = w->lexonly.nr + w->ncands + 1, i, k;
	int *px_ran = xmalloc(n * sizeof(*px_ran)), *cast_ran = xmalloc(n * sizeof(*cast_ran));
	int casts = 0;
	struct timespec t0;

	memset(px_ran, 0, n * sizeof(*px_ran));
	memset(cast_ran, 0, n * sizeof(*cast_ran));
	for (i = 0; i < w->ncands; i++) {
		size_t at = w->lexonly.nr;

		for (k = 0; k < w->nrules; k++) {
			if (!(w->cands[i].rules & (1u << k)))
				continue;
			if (w->rules[k].kind == PF_RULE_INT_CAST)
				cast_ran[at] = 1;
			else
				px_ran[at] = 1;
		}
		strvec_push(&w->lexonly, xstrdup(w->cands[i].file));
	}
	for (k = 0; k < w->nrules; k++)
		casts |= w->rules[k].kind == PF_RULE_INT_CAST;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cocci_judge(w->root, w->lexonly.v, px_ran, cast_ran, w->lexonly.nr, opts->jobs,
		    !opts->no_lexical, casts, opts->verbose, opts->cache, c);
	if (opts->verbose)
		fprintf(stderr, "ptrguard: judge: %zu files, %.2f s\n", w->lexonly.nr,
			seconds_since(&t0));
	free(px_ran);
	free(cast_ran);
}

static int run(const struct cocci_opts *opts, struct cocci_result *res);

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Without an interpreter named, spatch looks for "python3" on PATH and
 * starts it to find its library: through a pyenv shim (a script) that
 * took 0.25 s of each spatch process here, more than the %px rule's own
 * start (0.18 s).  Every command that runs the rules gets spatch_python()'s.
 */
int cocci_run(const struct cocci_opts *opts, struct cocci_result *res)
{
	struct cocci_opts o = *opts;
	char *python = NULL;
	int ret;

	if (!o.python)
		o.python = python = spatch_python();
	ret = run(&o, res);
	free(python);
	return ret;
}

static int run(const struct cocci_opts *opts, struct cocci_result *res)
{
	struct rule rules[COCCI_NRULES];
	struct collect c = { res, 0, 0, 0, 0, 0, NULL, 0, 0 };
	struct strvec names = { 0 };
	struct walk w;
	char tmpl[] = "/tmp/ptrguard.XXXXXX";
	char *root, *tmpdir;
	size_t nrules = 0, i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	memset(&w, 0, sizeof(w));
	root = tree_root(opts);
	if (!root)
		return -1;
	tmpdir = mkdtemp(tmpl);
	if (!tmpdir) {
		error("mkdtemp: %s", strerror(errno));
		free(root);
		return -1;
	}
	w.root = root;
	w.rootlen = strlen(root);
	w.rules = rules;
	wrapper_names(root, NULL, &names);
	if (rules_load(opts, tmpdir, &names, rules, &nrules) < 0)
		goto out;
	w.nrules = nrules;
	if (find_files(opts, &w, res) < 0)
		goto out;
	wrapper_names(root, &w, &names);
	for (i = 0; i < nrules; i++)
		if (rule_add_wrappers(&rules[i], names.v, names.nr, tmpdir) < 0)
			goto out;
	/* what the slices keep (cocci/bufcalls.c): the names the rules were given */
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), name_cmp);
	w.wrappers = names.v;
	w.nwrappers = names.nr;
	/* the bench's --no-prefilter baseline gives spatch every call too */
	w.slice = opts->prefilter == 1 ? COCCI_SLICE_CALLS : COCCI_SLICE_OUTPUT;
	if (cocci_spatch_run(opts, &w, tmpdir, &c) < 0)
		goto out;
	cocci_finish(res);
	judge(opts, &w, &c);
	cocci_finish(res);
	ret = 0;
out:
	cocci_facts_free(&c);
	strvec_clear(&names);
	if (ret)
		cocci_result_free(res);
	walk_free(&w);
	for (i = 0; i < nrules; i++)
		rule_free(&rules[i]);
	if (opts->verbose)
		fprintf(stderr, "ptrguard: spatch outputs kept in %s\n", tmpdir);
	else if (rmdir(tmpdir) < 0)
		error("%s: %s (left behind)", tmpdir, strerror(errno));
	free(root);
	return ret;
}
