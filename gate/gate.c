// SPDX-License-Identifier: GPL-2.0
/*
 * gate: `ptrguard gate`'s steps (gate.h): the patches read, applied to
 * shadow copies of the tree (gate/tree.c), the rules run on the files
 * they touch before and after (gate/run.c), the findings matched by
 * fingerprint (gate/diff.c) and reported (gate/out.c).  The command
 * itself, its options and help, is builtin/gate.c.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/gate.h"
#include "lib/kernel.h"
#include "lib/keycache.h"
#include "model/lex.h"
#include "lib/parse-options.h"
#include "cocci/prefilter.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

/* The comparison of two states per section: compare(), report(). */
struct comparison {
	struct gate_section *secs;
	size_t nsecs;
	struct cocci_result **filtered;	/* before and after, per section */
	const struct patch **pp;
	size_t nnew;
};

static char *gate_tmp_global;

static void cleanup_tmp(void)
{
	if (gate_tmp_global) {
		shadow_remove(gate_tmp_global);
		free(gate_tmp_global);
		gate_tmp_global = NULL;
	}
}

/* Is @path named NAME@suffix (".c", ".h")? */
int gate_has_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);

	return n > k && !strcmp(path + n - k, suffix);
}

static int is_c_source(const char *path)
{
	return gate_has_suffix(path, ".c") || gate_has_suffix(path, ".h");
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_path(char **v, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], path))
			return 1;
	return 0;
}

void gate_add_path(char ***v, size_t *n, const char *path)
{
	if (has_path(*v, *n, path))
		return;
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v || !((*v)[*n] = strdup(path)))
		die("out of memory");
	(*n)++;
}

void gate_free_paths(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int check_tree(struct gate *g)
{
	struct stat st;

	if (stat(g->tree_arg, &st)) {
		error("gate: --tree %s: %s", g->tree_arg, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		error("gate: --tree %s: not a directory", g->tree_arg);
		return -1;
	}
	g->tree = realpath(g->tree_arg, NULL);
	if (!g->tree) {
		error("gate: --tree %s: %s", g->tree_arg, strerror(errno));
		return -1;
	}
	/* an out-of-tree module's repository: the kernel it is built against */
	if ((g->kernel_arg || !kernel_is_tree(g->tree)) && cocci_use_kernel(g->kernel_arg) < 0)
		return -1;
	return 0;
}

static int read_patches(struct gate *g, char **inputs, size_t ninputs)
{
	size_t i, j;

	if (g->range) {
		char *buf;
		size_t len;
		int rc;

		if (gate_range_mbox(g->tree, g->tree_arg, g->range, &buf, &len, &g->base_rev))
			return -1;
		if (!len) {
			error("gate: --range %s: no commits in the range", g->range);
			free(buf);
			return -1;
		}
		rc = patch_read_buf(g->range, buf, len, &g->ps);
		free(buf);
		if (rc)
			return -1;
	} else {
		if (g->base_arg && gate_git_base(g->tree, g->tree_arg, g->base_arg, &g->base_rev))
			return -1;
		g->ps.verbose = g->run.verbose > 0;
		for (i = 0; i < ninputs; i++) {
			if (!strcmp(inputs[i], "-"))
				for (j = 0; j < i; j++)
					if (!strcmp(inputs[j], "-")) {
						error("gate: - (stdin) given twice");
						return -1;
					}
			if (patch_read_file(inputs[i], &g->ps))
				return -1;
		}
		/* every input read, and each a cover letter alone */
		if (ninputs && !g->ps.npatches) {
			error("gate: %s: a cover letter and no patch: nothing to gate",
			      strcmp(inputs[ninputs - 1], "-") ? inputs[ninputs - 1] : "<stdin>");
			return -1;
		}
	}
	/* Every path, and no binary change to a source file. */
	for (i = 0; i < g->ps.npatches; i++) {
		const struct patch *p = &g->ps.patches[i];

		for (j = 0; j < p->nfiles; j++) {
			const struct patch_file *f = &p->files[j];
			const char *path = f->new_path ? f->new_path : f->old_path;
			char name[512];

			if (f->is_binary && is_c_source(path)) {
				error("gate: %s: binary change to %s: the rules cannot check it",
				      patch_name(p, name, sizeof(name)), path);
				return -1;
			}
			if (f->old_path)
				gate_add_path(&g->touched, &g->ntouched, f->old_path);
			if (f->new_path)
				gate_add_path(&g->touched, &g->ntouched, f->new_path);
		}
	}
	qsort(g->touched, g->ntouched, sizeof(*g->touched), cmp_strp);
	return 0;
}

/* State k: the base with the first @applied patches applied. */
static int make_state(struct gate *g, size_t k, size_t from, size_t applied)
{
	struct shadow *s = &g->states[k];
	char *dir;
	size_t i;
	int ret = 0;

	if (asprintf(&dir, "%s/s%zu", g->tmp, k) < 0)
		die("out of memory");
	ret = shadow_init(s, g->tree, dir);
	free(dir);
	if (!ret && k == 0 && g->base_rev)
		ret = shadow_own_git(s, g->touched, g->ntouched, g->tree, g->base_rev, g->tmp);
	else
		for (i = 0; i < g->ntouched && !ret; i++)
			ret = shadow_own(s, g->touched[i], k == 0 ? g->tree : g->states[from].dir);
	for (i = k == 0 ? 0 : from == k - 1 && g->series ? applied - 1 : 0;
	     i < applied && !ret; i++)
		ret = shadow_apply(s, &g->ps.patches[i], g->tmp);
	return ret;
}

/* The C files of @p (old or new side) that exist in @s. */
static void patch_sources(const struct patch *p, const struct shadow *s, int new_side,
			  char ***v, size_t *n)
{
	size_t j;

	for (j = 0; j < p->nfiles; j++) {
		const char *path = new_side ? p->files[j].new_path : p->files[j].old_path;

		if (path && is_c_source(path) && shadow_has_file(s, path))
			gate_add_path(v, n, path);
	}
}

/*
 * The base copy of a file in the combined run: "dir/foo.c" is checked as
 * "dir/foo.ptrguard-base.c" next to the patched file (see gate_main()).
 */
static const char base_suffix[] = ".ptrguard-base.c";

char *gate_base_name(const char *path)
{
	char *s;

	if (asprintf(&s, "%.*s%s", (int)(strlen(path) - 2), path, base_suffix) < 0)
		die("out of memory");
	return s;
}

/* "dir/foo.ptrguard-base.c" -> "dir/foo.c", or NULL for any other name. */
char *gate_unbase_name(const char *name)
{
	size_t n = strlen(name), k = strlen(base_suffix);
	char *s;

	if (!gate_has_suffix(name, base_suffix))
		return NULL;
	if (asprintf(&s, "%.*s.c", (int)(n - k), name) < 0)
		die("out of memory");
	return s;
}

/*
 * The lines of @rel, in state @k, that the patches into that state add:
 * the "+" lines of the one patch that touches it, or, when several do
 * (their line numbers shift each other), every line between the head and
 * the tail the two states have in common.  A malloc()ed array.
 */
unsigned int *gate_added_lines(const struct gate *g, size_t k, const char *rel, size_t *nlines)
{
	size_t first = g->series ? k - 1 : 0, last = g->series ? k : g->ps.npatches;
	size_t i, j, l, touching = 0, n = 0;
	const struct patch_file *only = NULL;
	unsigned int *out = NULL;

	for (i = first; i < last; i++)
		for (j = 0; j < g->ps.patches[i].nfiles; j++) {
			const struct patch_file *f = &g->ps.patches[i].files[j];

			if (f->new_path && !strcmp(f->new_path, rel)) {
				touching++;
				only = f;
			}
		}
	if (touching == 1) {
		for (l = 0; l < only->nlines; l++) {
			if (only->lines[l].kind != '+')
				continue;
			out = realloc(out, (n + 1) * sizeof(*out));
			if (!out)
				die("out of memory");
			out[n++] = only->lines[l].file_line;
		}
	} else if (touching > 1) {
		char *pa = xasprintf("%s/%s", g->states[first].dir, rel);
		char *pb = xasprintf("%s/%s", g->states[k].dir, rel);
		size_t la = 0, lb = 0, head = 0, tail = 0, nb = 0;
		char *a = read_file(pa, SIZE_MAX, &la), *b = read_file(pb, SIZE_MAX, &lb);

		/* count lines; then the common head and tail, in lines */
		for (i = 0; b && i < lb; i++)
			nb += b[i] == '\n';
		nb += lb && b[lb - 1] != '\n';
		for (i = 0; a && b && i < la && i < lb && a[i] == b[i]; i++)
			head += a[i] == '\n';
		for (i = 1; a && b && i <= la && i <= lb && a[la - i] == b[lb - i]; i++)
			tail += a[la - i] == '\n' && i > 1;
		if (head + tail > nb)
			tail = nb > head ? nb - head : 0;
		for (l = head + 1; l + tail <= nb; l++) {
			out = realloc(out, (n + 1) * sizeof(*out));
			if (!out)
				die("out of memory");
			out[n++] = (unsigned int)l;
		}
		free(a);
		free(b);
		free(pa);
		free(pb);
	}
	*nlines = n;
	return out;
}

/* Is @file one of the @n @paths? */
static int in_paths(const char *file, char *const *paths, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (!strcmp(file, paths[j]))
			return 1;
	return 0;
}

/*
 * The findings of @res in the files @paths: a shallow copy.  Each list is
 * allocated once, at most as long as @res's: a patched side with
 * thousands of unjudged calls is not a realloc() a call.
 */
struct cocci_result *gate_filter(const struct cocci_result *res, char **paths, size_t n)
{
	struct cocci_result *r = calloc(1, sizeof(*r));
	size_t i;

	if (!r || !(r->findings = calloc(res->nfindings + 1, sizeof(*r->findings))) ||
	    !(r->skips = calloc(res->nskips + 1, sizeof(*r->skips))) ||
	    !(r->unjudged = calloc(res->nunjudged + 1, sizeof(*r->unjudged))))
		die("out of memory");
	for (i = 0; i < res->nfindings; i++)
		if (in_paths(res->findings[i].file, paths, n))
			r->findings[r->nfindings++] = res->findings[i];
	/* kept in the cache, for gate_note_skipped() */
	for (i = 0; i < res->nskips; i++)
		if (in_paths(res->skips[i].file, paths, n))
			r->skips[r->nskips++] = res->skips[i];
	/* and for check_unjudged(), when a patched side comes from the cache */
	for (i = 0; i < res->nunjudged; i++)
		if (in_paths(res->unjudged[i].file, paths, n))
			r->unjudged[r->nunjudged++] = res->unjudged[i];
	return r;
}

/* Free what gate_filter() made (the findings themselves are @res's). */
void gate_filtered_free(struct cocci_result *r)
{
	free(r->findings);
	free(r->skips);
	free(r->unjudged);
	free(r);
}

static void renames_of(const struct patch *p, char ***v, size_t *n)
{
	size_t j;

	for (j = 0; j < p->nfiles; j++) {
		const struct patch_file *f = &p->files[j];

		if (!f->is_rename)
			continue;
		*v = realloc(*v, (*n + 1) * 2 * sizeof(**v));
		if (!*v)
			die("out of memory");
		(*v)[2 * *n] = f->old_path;
		(*v)[2 * *n + 1] = f->new_path;
		(*n)++;
	}
}

/* The rules directory and the python3 spatch is to use. */
static int find_tools(struct gate *g)
{
	if (!g->rules && !(g->rules = cocci_rules_dir()))
		return -1;
	g->run.rules_dir = g->rules;
	g->run.python = g->python = spatch_python();
	return 0;
}

/*
 * The states, in shadow trees of a scratch directory: the base, then
 * after each patch (--series) or after all.
 */
static int apply_patches(struct gate *g)
{
	size_t k, n = g->ps.npatches;

	g->tmp = gate_tmpdir();
	if (!g->tmp)
		return -1;
	gate_tmp_global = strdup(g->tmp);
	atexit(cleanup_tmp);
	g->nstates = g->series ? n + 1 : 2;
	g->states = calloc(g->nstates, sizeof(*g->states));
	if (!g->states)
		die("out of memory");
	for (k = 0; k < g->nstates; k++) {
		size_t applied = g->series ? k : (k ? n : 0);

		if (make_state(g, k, k ? k - 1 : 0, applied))
			return -1;
	}
	return 0;
}

/* One job per state: the sources touched next to it, and its label. */
static void list_files(struct gate *g)
{
	size_t i, k, n = g->ps.npatches;

	g->jobs = calloc(g->nstates, sizeof(*g->jobs));
	if (!g->jobs)
		die("out of memory");
	for (k = 0; k < g->nstates; k++) {
		struct gate_job *j = &g->jobs[k];
		char *label;

		j->root = g->states[k].dir;
		for (i = 0; i < n; i++) {
			/* before patch i+1 is state i; after it, state i+1 */
			if (!g->series || i + 1 == k)
				patch_sources(&g->ps.patches[i], &g->states[k], 1, &j->files,
					      &j->nfiles);
			if (!g->series || i == k)
				patch_sources(&g->ps.patches[i], &g->states[k], 0, &j->files,
					      &j->nfiles);
		}
		if (k == 0)
			label = strdup("before the patches");
		else if (!g->series)
			label = strdup(n > 1 ? "after the patches" : "after the patch");
		else if (asprintf(&label, "after patch %zu", k) < 0)
			label = NULL;
		if (!label)
			die("out of memory");
		j->label = label;
		for (i = 0; i < j->nfiles; i++)
			gate_add_path(&g->checked, &g->nchecked, j->files[i]);
	}
}

/*
 * The findings the patches add and fix: per patch (--series), or for the
 * whole set, the findings of the files the patches touch before and after.
 */
static void compare(const struct gate *g, struct comparison *c)
{
	size_t i, k, n = g->ps.npatches;
	char **renames = NULL;
	size_t nrenames = 0;

	c->nsecs = g->series ? n : 1;
	c->secs = calloc(c->nsecs, sizeof(*c->secs));
	c->filtered = calloc(2 * c->nsecs, sizeof(*c->filtered));
	c->pp = calloc(n, sizeof(*c->pp));
	if (!c->secs || !c->filtered || !c->pp)
		die("out of memory");
	for (i = 0; i < n; i++)
		c->pp[i] = &g->ps.patches[i];
	for (k = 0; k < c->nsecs; k++) {
		size_t b = g->series ? k : 0, a = g->series ? k + 1 : 1, first = g->series ? k : 0;
		size_t count = g->series ? 1 : n;
		char **bf = NULL, **af = NULL;
		size_t nbf = 0, naf = 0;

		for (i = first; i < first + count; i++) {
			patch_sources(c->pp[i], &g->states[b], 0, &bf, &nbf);
			patch_sources(c->pp[i], &g->states[a], 1, &af, &naf);
			renames_of(c->pp[i], &renames, &nrenames);
		}
		c->filtered[2 * k] = gate_filter(&g->jobs[b].res, bf, nbf);
		c->filtered[2 * k + 1] = gate_filter(&g->jobs[a].res, af, naf);
		c->secs[k].patch = g->series ? c->pp[k] : NULL;
		for (i = 0; i < naf; i++)
			gate_add_path(&bf, &nbf, af[i]);
		c->secs[k].nchecked = nbf;
		gate_diff(c->filtered[2 * k], c->filtered[2 * k + 1], renames, nrenames,
			  c->pp + first, count, g->states[b].dir, g->states[a].dir,
			  &c->secs[k].diff);
		c->nnew += c->secs[k].diff.nnew;
		free(renames);
		renames = NULL;
		nrenames = 0;
		gate_free_paths(bf, nbf);
		gate_free_paths(af, naf);
	}
}

/* The notes on skipped lines, then the report; the exit status. */
static int report(const struct gate *g, const struct comparison *c)
{
	if (!g->no_notes)
		gate_note_skipped(g, g->jobs);
	gate_output(g->format, c->secs, c->nsecs, g->series, g->ps.npatches, g->nchecked, g->tree);
	return c->nnew ? EXIT_FINDINGS : EXIT_CLEAN;
}

static void comparison_free(struct comparison *c)
{
	size_t k;

	for (k = 0; k < c->nsecs; k++) {
		gate_diff_free(&c->secs[k].diff);
		gate_filtered_free(c->filtered[2 * k]);
		gate_filtered_free(c->filtered[2 * k + 1]);
	}
	free(c->secs);
	free(c->filtered);
	free(c->pp);
}

/* Free what list_files() and gate_plan_runs() made. */
static void runs_free(struct gate *g)
{
	size_t k;

	for (k = 0; g->vocab && k < g->nstates; k++)
		if (g->vocab_made[k])
			lex_vocab_free(&g->vocab[k]);
	free(g->vocab);
	free(g->vocab_made);
	for (k = 0; g->plan && k < g->nstates; k++) {
		gate_free_paths(g->plan[k].px, g->plan[k].npx);
		gate_free_paths(g->plan[k].cast, g->plan[k].ncast);
	}
	free(g->plan);
	for (k = 0; g->store && k < g->nstates; k++) {
		gate_free_paths(g->store[k].px, g->store[k].npx);
		gate_free_paths(g->store[k].cast, g->store[k].ncast);
	}
	free(g->store);
	if (g->plan)
		gate_cache_free(&g->cache);
	for (k = 0; g->jobs && k < g->nstates; k++) {
		cocci_result_free(&g->jobs[k].res);
		gate_free_paths(g->jobs[k].files, g->jobs[k].nfiles);
		free((char *)g->jobs[k].label);
	}
	free(g->jobs);
	gate_free_paths(g->checked, g->nchecked);
}

/* A thread's work: the wrapper table of @tree (gate_main()). */
static void *load_table(void *tree)
{
	lex_vocab_table(tree);
	return NULL;
}

/*
 * The gate, step by step: read the patches, apply them to scratch copies
 * of the tree, judge the base and the patched states with the rules,
 * compare, report.  Exit status, or -1 after error().
 */
int gate_main(struct gate *g, char **inputs, size_t ninputs)
{
	struct comparison c = { 0 };
	pthread_t table;
	int ret, loading;

	if (check_tree(g) || read_patches(g, inputs, ninputs))
		return -1;
	/*
	 * The tree's wrapper table (share_wrapper_table()) is made or
	 * checked while the patches apply: nothing else reads it meanwhile.
	 */
	loading = !pthread_create(&table, NULL, load_table, g->tree);
	ret = find_tools(g) || apply_patches(g) ? -1 : 0;
	if (loading)
		pthread_join(table, NULL);
	if (ret)
		return -1;
	list_files(g);
	ret = gate_plan_runs(g);
	if (!ret)
		ret = gate_judge_states(g);
	if (!ret) {
		gate_store_states(g);
		compare(g, &c);
		ret = report(g, &c);
		comparison_free(&c);
	}
	runs_free(g);
	return ret;
}

void gate_free(struct gate *g)
{
	size_t k;

	for (k = 0; k < g->nstates; k++)
		free(g->states[k].dir);
	free(g->states);
	patch_series_free(&g->ps);
	gate_free_paths(g->touched, g->ntouched);
	free(g->tree);
	free(g->base_rev);
	free(g->rules);
	free(g->tmp);
	free(g->python);
	cleanup_tmp();
}
