// SPDX-License-Identifier: GPL-2.0
/*
 * gate/plan.c: which rule runs on which touched file of each state, the
 * runs, and what they leave: the files whose text shows that no rule can
 * fire get none (cocci/prefilter.c, the lexical model's seq calls), the
 * others the rules their text asks for or the cache's findings
 * (gate/cache.c); seq_px.cocci runs once over both sides when it can.  A
 * line a patch adds where neither spatch nor the lexical model can read
 * the format is refused (check_unjudged()).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/gate.h"
#include "lib/keycache.h"
#include "model/lex.h"
#include "cocci/prefilter.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

/* What the rules need of a file: see file_needs(). */
enum { NEED_PX = 1, NEED_CAST = 2 };

/*
 * spatch judges what it parsed and the lexical model what spatch
 * skipped; the gate cannot vouch for a patch where it adds a line to a
 * seq-output call that prints values and whose format neither can read
 * (cocci_lexical(): in skipped lines, or a format that is no literal).  Skipped lines the patch does not
 * add to are no reason to refuse it.  Headers the cast rule reads are not
 * the patch's: only the files the job was given count.
 */
static int check_unjudged(const struct gate *g, const struct gate_job *job, size_t k, int combined)
{
	size_t i, j, l, nl;

	for (i = 0; i < job->res.nunjudged; i++) {
		const struct cocci_unjudged *u = &job->res.unjudged[i];
		unsigned int *lines;
		char *orig = combined ? gate_unbase_name(u->file) : NULL;

		if (orig) {
			free(orig);	/* the base side: no line of it is added */
			continue;
		}
		for (j = 0; j < job->nfiles && strcmp(job->files[j], u->file); j++)
			;
		if (j == job->nfiles)
			continue;
		lines = gate_added_lines(g, k, u->file, &nl);
		for (l = 0; l < nl; l++) {
			if (lines[l] < u->line || lines[l] > u->end_line)
				continue;
			if (cocci_skipped(&job->res, u->file, lines[l], lines[l]))
				error("gate: %s:%u: the patch adds to a %s() call in lines spatch cannot parse, and its format cannot be read from the text either (%s): the gate cannot check it",
				      u->file, lines[l], u->callee, u->why);
			else
				error("gate: %s:%u: the patch adds to a %s() call whose format neither spatch nor the lexical model can read (%s): the gate cannot check it",
				      u->file, lines[l], u->callee, u->why);
			free(lines);
			return -1;
		}
		free(lines);
	}
	return 0;
}

/*
 * A note per touched file with lines spatch skipped: where they are,
 * whether they were skipped before the patch too, and whether the patch
 * adds lines there.  Informational: the lexical model judged them.
 */
void gate_note_skipped(const struct gate *g, const struct gate_job *jobs)
{
	size_t k = g->nstates - 1, i, l, nl;
	const struct gate_job *job = &jobs[k];

	for (i = 0; i < job->nfiles; i++) {
		const char *f = job->files[i];
		unsigned int after, before, *lines, touched = 0;
		char *a = cocci_skip_text(&job->res, f, &after), *b;

		if (!a)
			continue;
		b = cocci_skip_text(&jobs[0].res, f, &before);
		lines = gate_added_lines(g, k, f, &nl);
		for (l = 0; l < nl; l++)
			touched += cocci_skipped(&job->res, f, lines[l], lines[l]);
		fprintf(stderr, "ptrguard: gate: note: %s: spatch cannot parse %u line%s (%s) %s%s%s%s; %s: the lexical model judged them\n",
			f, after, after == 1 ? "" : "s", a,
			b && !strcmp(a, b) ? "before and after the patch" : "after the patch",
			b && strcmp(a, b) ? " (lines " : "", b && strcmp(a, b) ? b : "",
			b && strcmp(a, b) ? " before it)" : "", touched ? "the patch adds lines there" : "untouched by the patch");
		free(lines);
		free(a);
		free(b);
	}
}

/* Move the findings of base copies in @after to @before, under their own names. */
static void split_combined(struct cocci_result *after, struct cocci_result *before)
{
	size_t i, n = 0;

	before->findings = realloc(before->findings, (before->nfindings + after->nfindings + 1) *
				   sizeof(*before->findings));
	if (!before->findings)
		die("out of memory");
	for (i = 0; i < after->nfindings; i++) {
		struct finding *f = &after->findings[i];
		char *orig = gate_unbase_name(f->file);

		if (orig) {
			free(f->file);
			f->file = orig;
			before->findings[before->nfindings++] = *f;
		} else {
			after->findings[n++] = *f;
		}
	}
	after->nfindings = n;
	before->skips = xrealloc(before->skips, (before->nskips + after->nskips + 1) *
				 sizeof(*before->skips));
	for (i = 0, n = 0; i < after->nskips; i++) {
		struct cocci_skip *k = &after->skips[i];
		char *orig = gate_unbase_name(k->file);

		if (orig) {
			free(k->file);
			k->file = orig;
			before->skips[before->nskips++] = *k;
		} else {
			after->skips[n++] = *k;
		}
	}
	after->nskips = n;
}

/* Do the patches touch a header? */
static int touches_header(const struct gate *g)
{
	size_t i;

	for (i = 0; i < g->ntouched; i++)
		if (gate_has_suffix(g->touched[i], ".h"))
			return 1;
	return 0;
}

/*
 * One seq_px.cocci run for both sides: when it must run on both, with a
 * single state to compare and no header touched, the base version of
 * each file it needs is copied next to the patched files, under another
 * name, and the rule runs once over all: spatch starts once, not twice.  A touched
 * header would give the base copies the patched header: then the two
 * sides run apart.  seq_int_cast.cocci runs on each side apart: with two
 * files in one spatch process it reported the casts of the first file
 * only (spatch 1.1.1: drivers/gpu/drm/drm_debugfs.c and a copy of it).
 */
static int combine_states(struct gate *g, struct plan *plan)
{
	size_t i;

	if (g->series || g->nstates != 2 || !plan[0].npx || !plan[1].npx || touches_header(g))
		return 0;
	for (i = 0; i < plan[0].npx; i++) {
		char *b = gate_base_name(plan[0].px[i]);
		int clash = shadow_has_file(&g->states[1], b);

		free(b);
		if (clash)
			return 0;
	}
	for (i = 0; i < plan[0].npx; i++) {
		char *b = gate_base_name(plan[0].px[i]), *from, *to;
		int rc;

		from = xasprintf("%s/%s", g->states[0].dir, plan[0].px[i]);
		to = xasprintf("%s/%s", g->states[1].dir, b);
		rc = gate_copy_file(from, to);
		free(from);
		free(to);
		if (rc) {
			free(b);
			return -1;
		}
		gate_add_path(&plan[1].px, &plan[1].npx, b);
		free(b);
	}
	gate_free_paths(plan[0].px, plan[0].npx);
	plan[0].px = NULL;
	plan[0].npx = 0;
	return 1;
}

/*
 * The functions that print to seq output in state @k, for the gate's own
 * reading of a file: the base state's wrapper table (the tree's when the
 * patches touch no header), and when the patches touch headers, what
 * those headers define in this state on top of it (a wrapper they add;
 * one they remove stays, which only costs a rule run).  The state's own
 * table, which takes every header of the tree to make, is left to the
 * rule runs.  Made once per state (gate_plan_runs() keeps the room).  The
 * prefilter is given its wrappers too, as cocci_run() gives it the
 * table's.
 */
static const struct lex_vocab *state_vocab(const struct gate *g, size_t k)
{
	struct lex_vocab *v = &g->vocab[k];
	const char **names;
	size_t i, n = 0;

	if (g->vocab_made[k])
		goto given;
	g->vocab_made[k] = 1;
	lex_vocab_core(v);
	/* the tree's, with the touched headers of state @k (share_wrapper_table()) */
	lex_vocab_tree(v, g->states[k].dir, NULL);
given:
	names = xmalloc((v->nfns + 1) * sizeof(*names));
	for (i = 0; i < v->nfns; i++)
		if (strcmp(v->fns[i].origin, "core"))
			names[n++] = v->fns[i].name;
	prefilter_set_wrappers(names, n);	/* copied */
	free(names);
	return v;
}

/* The lexical model's reading of @rel in state @k, whose text is @buf, with state_vocab(). */
static void read_calls(const struct gate *g, size_t k, const char *rel, const char *buf,
		       size_t len, struct lex_file *lf)
{
	char *path = xasprintf("%s/%s", g->states[k].dir, rel);

	lex_scan(buf, len, state_vocab(g, k), !prefilter_tree_is_old(path), lf);
	free(path);
}

/*
 * Does the text name one of the calls every rule starts from (their
 * spatch "Grep query": the seq-output functions of model/vocab.def, the
 * writers without a format, the wrappers of the tree and of the file)?  A
 * file naming none of them cannot have a finding.  And does it hold a
 * seq-output call whose format is not made of literals (@opaque)?
 */
static int has_seq_output(const char *buf, size_t len, const struct lex_file *lf, int *opaque)
{
	size_t i;
	int ret = 0;

	*opaque = 0;
	for (i = 0; i < lf->ncalls; i++) {
		const struct lex_call *c = &lf->calls[i];

		if (c->io == VOCAB_IO_BUF)
			continue;	/* snprintf(): only a buffer a seq call writes */
		ret = 1;
		*opaque |= c->opaque && !c->io;
	}
	for (i = 0; i < vocab_nseq_outputs && !ret; i++) {
		const char *name = vocab_seq_outputs[i].name;

		ret = memmem(buf, len, name, strlen(name)) != NULL;
	}
	return ret;
}

/*
 * Which rules must run on @root/@rel, from its text alone.  Without a
 * seq-output call no rule can match, but a %px (or a %p, before v4.15)
 * handed to a wrapper declared in a header still needs the lexical model,
 * which runs with seq_px.cocci.  Otherwise (but with --no-prefilter:
 * both) prefilter.h says which rule can report something:
 * seq_int_cast.cocci needs a long-wide integer conversion and a cast to
 * an integer type in the arguments of a seq call (or of a formatting
 * call whose buffer reaches one), seq_px.cocci a %px (or a %p, before
 * v4.15).  seq_px.cocci also
 * runs wherever the cast rule does: its run, which reads no header, is
 * the one whose skipped lines are the file's own.  A file that cannot be
 * read needs both: cocci_run() reports it.  The answer is kept in the
 * gate's cache (gate_needs_get()), so a patch gated again reads no C.
 */
static unsigned int file_needs(struct gate *g, size_t k, const char *rel)
{
	char *path = xasprintf("%s/%s", g->states[k].dir, rel), *buf, *deps = NULL;
	unsigned int bits, need = NEED_PX | NEED_CAST;
	struct lex_file lf;
	size_t len;
	int opaque;

	buf = read_file(path, SIZE_MAX, &len);
	if (buf) {
		/*
		 * The answer follows from the text, the state's wrappers (its
		 * table's identity), the tree's age and --no-prefilter: a
		 * file gated before is not read again as C.
		 */
		deps = xasprintf("wrappers %s old %d no-prefilter %d",
				 lex_vocab_table_id(g->states[k].dir),
				 prefilter_tree_is_old(path), g->no_prefilter);
		if (gate_needs_get(&g->cache, rel, buf, len, deps, &need))
			goto out;
		read_calls(g, k, rel, buf, len, &lf);
		need = has_seq_output(buf, len, &lf, &opaque) ? NEED_PX | NEED_CAST : 0;
		lex_file_free(&lf);
		if (need && !g->no_prefilter) {
			bits = prefilter_scan(buf, len);
			if (prefilter_keep(PF_RULE_INT_CAST, bits, path))
				need = NEED_PX | NEED_CAST;
			else
				need = prefilter_keep(PF_RULE_PX, bits, path) ? NEED_PX : 0;
		}
		if (!need && opaque) {
			/*
			 * A format no model can read: only spatch's parse says
			 * whether a line added to it lies in skipped lines.
			 */
			need = NEED_PX;
		} else if (!need && memmem(buf, len, "%p", 2) &&
			   prefilter_keep(PF_RULE_PX, prefilter_scan(buf, len), path)) {
			/* a %px for a wrapper the lexical model may know (cocci_lexical()) */
			need = NEED_PX;
		}
		gate_needs_put(&g->cache, rel, buf, len, deps, need);
	}
out:
	free(deps);
	free(buf);
	free(path);
	return need;
}

/*
 * The tree's wrapper table (lex.h), made once here on the tree, for the
 * cache keys and the rule runs (forked) to share, rather than once per run
 * and per key in each shadow tree: each state's is the tree's, with the
 * headers the patches touch read again in that state (their wrappers,
 * and wrappers among them; a wrapper of an untouched header over a new
 * one of a touched header is not seen).
 */
static void share_wrapper_table(const struct gate *g)
{
	const char **headers = xmalloc((g->ntouched + 1) * sizeof(*headers));
	size_t i, n = 0;

	for (i = 0; i < g->ntouched; i++)
		if (gate_has_suffix(g->touched[i], ".h"))
			headers[n++] = g->touched[i];
	lex_vocab_table(g->tree);
	for (i = 0; i < g->nstates; i++)
		lex_vocab_table_overlay(g->states[i].dir, g->tree, headers, n);
	free(headers);
}

/*
 * The gate runs the two rules apart (cocci_opts.rules): seq_px.cocci once
 * over both sides of a combined run (combine_states()), seq_int_cast.cocci
 * on each side alone (it loses findings in the second file of a run), and
 * both at once on two cores.  Both must be there before any runs.
 */
static int check_cast_rule(const struct gate *g)
{
	char *target = xasprintf("%s/seq_int_cast.cocci", g->rules);
	int ret = 0;

	if (access(target, R_OK)) {
		error("gate: %s: %s", target, strerror(errno));
		ret = -1;
	}
	free(target);
	return ret;
}

/* Move the findings of @from into @into. */
static void merge_result(struct cocci_result *into, struct cocci_result *from)
{
	size_t i;

	into->nlexical += from->nlexical;
	into->nspatch += from->nspatch;
	into->nquiet += from->nquiet;
	into->skips = xrealloc(into->skips, (into->nskips + from->nskips + 1) * sizeof(*into->skips));
	for (i = 0; i < from->nskips; i++)
		into->skips[into->nskips++] = from->skips[i];
	from->nskips = 0;
	into->unjudged = xrealloc(into->unjudged, (into->nunjudged + from->nunjudged + 1) *
				  sizeof(*into->unjudged));
	for (i = 0; i < from->nunjudged; i++)
		into->unjudged[into->nunjudged++] = from->unjudged[i];
	from->nunjudged = 0;
	if (!from->nfindings)
		return;
	into->findings = realloc(into->findings,
				 (into->nfindings + from->nfindings) * sizeof(*into->findings));
	if (!into->findings)
		die("out of memory");
	for (i = 0; i < from->nfindings; i++)
		into->findings[into->nfindings++] = from->findings[i];
	from->nfindings = 0;
}

/*
 * Which rule runs on which file of each state.  Each file gets the rules
 * its text says can fire (file_needs()); its findings in any state may
 * come from the cache instead (gate/cache.c), which keeps them by the
 * file's text, the headers it reads and the tools: the base side of the
 * next patch to a file, the patched side of the same patch gated again,
 * the state a series' next patch starts from.  A patched side from the
 * cache still answers check_unjudged().  seq_px.cocci runs once for both
 * states when they can be combined (combine_states()).  -1 after error().
 */
int gate_plan_runs(struct gate *g)
{
	size_t i, k;

	g->plan = calloc(g->nstates, sizeof(*g->plan));
	g->store = calloc(g->nstates, sizeof(*g->store));
	g->vocab = calloc(g->nstates, sizeof(*g->vocab));
	g->vocab_made = calloc(g->nstates, sizeof(*g->vocab_made));
	if (!g->plan || !g->store || !g->vocab || !g->vocab_made)
		die("out of memory");
	share_wrapper_table(g);
	gate_cache_init(&g->cache, &g->run);
	for (k = 0; k < g->nstates; k++) {
		struct plan *pl = &g->plan[k];

		for (i = 0; i < g->jobs[k].nfiles; i++) {
			const char *f = g->jobs[k].files[i];
			unsigned int need = file_needs(g, k, f);
			struct cocci_result r;

			if (need) {
				int cast = !!(need & NEED_CAST);

				if (gate_cache_get(&g->cache, g->states[k].dir, f, cast, g->jobs[k].label, &r)) {
					struct gate_job one = g->jobs[k];
					int bad;

					one.res = r;
					one.files = (char **)&f;
					one.nfiles = 1;
					bad = k && check_unjudged(g, &one, k, 0);
					merge_result(&g->jobs[k].res, &r);
					cocci_result_free(&r);
					if (bad)
						return -1;
					need = 0;
				} else if (cast) {
					gate_add_path(&g->store[k].cast, &g->store[k].ncast, f);
				} else {
					gate_add_path(&g->store[k].px, &g->store[k].npx, f);
				}
			}
			if (need & NEED_CAST)
				gate_add_path(&pl->cast, &pl->ncast, f);
			if (need & NEED_PX)
				gate_add_path(&pl->px, &pl->npx, f);
		}
	}
	g->combined = combine_states(g, g->plan);
	return g->combined < 0 ? -1 : 0;
}

/*
 * Judge the base and the patched states: the rule runs of gate_plan_runs(),
 * all at once (gate/run.c), per state seq_int_cast.cocci alone and
 * seq_px.cocci.  A run left without files does not start: no file would
 * mean the whole tree to cocci_run().  Each run's findings go to its
 * state's job.  -1 after error().
 */
int gate_judge_states(struct gate *g)
{
	struct gate_job *run = calloc(2 * g->nstates + 1, sizeof(*run));
	size_t m = 0, k, *owner = calloc(2 * g->nstates + 1, sizeof(*owner));
	int ret;

	if (!run || !owner)
		die("out of memory");
	for (k = 0; k < g->nstates; k++) {
		/* The slow one first, so that two jobs at once finish together. */
		if (g->plan[k].ncast) {
			run[m] = g->jobs[k];
			run[m].files = g->plan[k].cast;
			run[m].nfiles = g->plan[k].ncast;
			run[m].casts = 1;
			owner[m++] = k;
		}
		if (g->plan[k].npx) {
			run[m] = g->jobs[k];
			run[m].files = g->plan[k].px;
			run[m].nfiles = g->plan[k].npx;
			run[m].casts = 0;
			if (g->combined)
				run[m].label = "before and after the patch";
			owner[m++] = k;
		}
	}
	if (m && check_cast_rule(g))
		ret = -1;
	else
		ret = gate_run_jobs(&g->run, run, m);
	for (k = 0; k < m; k++) {
		struct gate_job *j = &g->jobs[owner[k]];

		/* a line added where neither spatch nor the lexical model sees */
		if (!ret && check_unjudged(g, &run[k], owner[k], g->combined))
			ret = -1;
		merge_result(&j->res, &run[k].res);
		cocci_result_free(&run[k].res);
	}
	free(run);
	free(owner);
	if (ret)
		return -1;
	if (g->combined)
		split_combined(&g->jobs[1].res, &g->jobs[0].res);
	return 0;
}

/* Each state's findings of the files the rules ran on, for the next gate of them. */
void gate_store_states(struct gate *g)
{
	size_t i, k;

	for (k = 0; k < g->nstates; k++) {
		for (i = 0; i < g->store[k].npx + g->store[k].ncast; i++) {
			int cast = i >= g->store[k].npx;
			char **f = cast ? &g->store[k].cast[i - g->store[k].npx] : &g->store[k].px[i];
			struct cocci_result *r = gate_filter(&g->jobs[k].res, f, 1);

			gate_cache_put(&g->cache, g->states[k].dir, *f, cast, g->jobs[k].label, r);
			gate_filtered_free(r);
		}
	}
}
