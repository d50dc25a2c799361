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
		gate_rmtree(gate_tmp_global);
		free(gate_tmp_global);
		gate_tmp_global = NULL;
	}
}

/* Is @path named NAME@suffix (".c", ".h")? */
static int has_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);

	return n > k && !strcmp(path + n - k, suffix);
}

static int is_c_source(const char *path)
{
	return has_suffix(path, ".c") || has_suffix(path, ".h");
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

static void add_path(char ***v, size_t *n, const char *path)
{
	if (has_path(*v, *n, path))
		return;
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v || !((*v)[*n] = strdup(path)))
		die("out of memory");
	(*n)++;
}

static void free_paths(char **v, size_t n)
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
	if ((g->kernel_arg || !kernel_is_tree(g->tree)) && kernel_use(g->kernel_arg) < 0)
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
				add_path(&g->touched, &g->ntouched, f->old_path);
			if (f->new_path)
				add_path(&g->touched, &g->ntouched, f->new_path);
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
	for (i = 0; i < g->ntouched && !ret; i++) {
		if (k == 0)
			ret = shadow_own(s, g->touched[i], g->tree, g->base_rev);
		else
			ret = shadow_own(s, g->touched[i], g->states[from].dir, NULL);
	}
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
			add_path(v, n, path);
	}
}

/*
 * The base copy of a file in the combined run: "dir/foo.c" is checked as
 * "dir/foo.ptrguard-base.c" next to the patched file (see gate_main()).
 */
static const char base_suffix[] = ".ptrguard-base.c";

static char *base_name(const char *path)
{
	char *s;

	if (asprintf(&s, "%.*s%s", (int)(strlen(path) - 2), path, base_suffix) < 0)
		die("out of memory");
	return s;
}

/* "dir/foo.ptrguard-base.c" -> "dir/foo.c", or NULL for any other name. */
static char *unbase_name(const char *name)
{
	size_t n = strlen(name), k = strlen(base_suffix);
	char *s;

	if (!has_suffix(name, base_suffix))
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
static unsigned int *added_lines(const struct gate *g, size_t k, const char *rel, size_t *nlines)
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
		char *orig = combined ? unbase_name(u->file) : NULL;

		if (orig) {
			free(orig);	/* the base side: no line of it is added */
			continue;
		}
		for (j = 0; j < job->nfiles && strcmp(job->files[j], u->file); j++)
			;
		if (j == job->nfiles)
			continue;
		lines = added_lines(g, k, u->file, &nl);
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
static void note_skipped(const struct gate *g, const struct gate_job *jobs)
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
		lines = added_lines(g, k, f, &nl);
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
		char *orig = unbase_name(f->file);

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
		char *orig = unbase_name(k->file);

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
		if (has_suffix(g->touched[i], ".h"))
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
		char *b = base_name(plan[0].px[i]);
		int clash = shadow_has_file(&g->states[1], b);

		free(b);
		if (clash)
			return 0;
	}
	for (i = 0; i < plan[0].npx; i++) {
		char *b = base_name(plan[0].px[i]), *from, *to;
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
		add_path(&plan[1].px, &plan[1].npx, b);
		free(b);
	}
	free_paths(plan[0].px, plan[0].npx);
	plan[0].px = NULL;
	plan[0].npx = 0;
	return 1;
}

/* The findings of @res in the files @paths: a shallow copy. */
static struct cocci_result *filter(const struct cocci_result *res, char **paths, size_t n)
{
	struct cocci_result *r = calloc(1, sizeof(*r));
	size_t i, j;

	if (!r || !(r->findings = calloc(res->nfindings + 1, sizeof(*r->findings))) ||
	    !(r->skips = calloc(res->nskips + 1, sizeof(*r->skips))))
		die("out of memory");
	for (i = 0; i < res->nfindings; i++)
		for (j = 0; j < n; j++)
			if (!strcmp(res->findings[i].file, paths[j])) {
				r->findings[r->nfindings++] = res->findings[i];
				break;
			}
	/* kept in the cache, for note_skipped() */
	for (i = 0; i < res->nskips; i++)
		for (j = 0; j < n; j++)
			if (!strcmp(res->skips[i].file, paths[j])) {
				r->skips[r->nskips++] = res->skips[i];
				break;
			}
	/* and for check_unjudged(), when a patched side comes from the cache */
	for (i = 0; i < res->nunjudged; i++)
		for (j = 0; j < n; j++)
			if (!strcmp(res->unjudged[i].file, paths[j])) {
				r->unjudged = xrealloc(r->unjudged,
						       (r->nunjudged + 1) * sizeof(*r->unjudged));
				r->unjudged[r->nunjudged++] = res->unjudged[i];
				break;
			}
	return r;
}

/* Free what filter() made (the findings themselves are @res's). */
static void filtered_free(struct cocci_result *r)
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

/*
 * The functions that print to seq output in state @k, for the gate's own
 * reading of a file: the base state's wrapper table (the tree's when the
 * patches touch no header), and when the patches touch headers, what
 * those headers define in this state on top of it (a wrapper they add;
 * one they remove stays, which only costs a rule run).  The state's own
 * table, which takes every header of the tree to make, is left to the
 * rule runs.  Made once per state (plan_runs() keeps the room).  The
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

/* What the rules need of a file: see file_needs(). */
enum { NEED_PX = 1, NEED_CAST = 2 };

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
 * read needs both: cocci_run() reports it.
 */
static unsigned int file_needs(const struct gate *g, size_t k, const char *rel)
{
	char *path = xasprintf("%s/%s", g->states[k].dir, rel), *buf;
	unsigned int bits, need = NEED_PX | NEED_CAST;
	struct lex_file lf;
	size_t len;
	int opaque;

	buf = read_file(path, SIZE_MAX, &len);
	if (buf) {
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
		free(buf);
	}
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
		if (has_suffix(g->touched[i], ".h"))
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
			add_path(&g->checked, &g->nchecked, j->files[i]);
	}
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
static int plan_runs(struct gate *g)
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
					add_path(&g->store[k].cast, &g->store[k].ncast, f);
				} else {
					add_path(&g->store[k].px, &g->store[k].npx, f);
				}
			}
			if (need & NEED_CAST)
				add_path(&pl->cast, &pl->ncast, f);
			if (need & NEED_PX)
				add_path(&pl->px, &pl->npx, f);
		}
	}
	g->combined = combine_states(g, g->plan);
	return g->combined < 0 ? -1 : 0;
}

/*
 * Judge the base and the patched states: the rule runs of plan_runs(),
 * all at once (gate/run.c), per state seq_int_cast.cocci alone and
 * seq_px.cocci.  A run left without files does not start: no file would
 * mean the whole tree to cocci_run().  Each run's findings go to its
 * state's job.  -1 after error().
 */
static int judge_states(struct gate *g)
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
static void store_states(struct gate *g)
{
	size_t i, k;

	for (k = 0; k < g->nstates; k++) {
		for (i = 0; i < g->store[k].npx + g->store[k].ncast; i++) {
			int cast = i >= g->store[k].npx;
			char **f = cast ? &g->store[k].cast[i - g->store[k].npx] : &g->store[k].px[i];
			struct cocci_result *r = filter(&g->jobs[k].res, f, 1);

			gate_cache_put(&g->cache, g->states[k].dir, *f, cast, g->jobs[k].label, r);
			filtered_free(r);
		}
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
		c->filtered[2 * k] = filter(&g->jobs[b].res, bf, nbf);
		c->filtered[2 * k + 1] = filter(&g->jobs[a].res, af, naf);
		c->secs[k].patch = g->series ? c->pp[k] : NULL;
		for (i = 0; i < naf; i++)
			add_path(&bf, &nbf, af[i]);
		c->secs[k].nchecked = nbf;
		gate_diff(c->filtered[2 * k], c->filtered[2 * k + 1], renames, nrenames,
			  c->pp + first, count, g->states[b].dir, g->states[a].dir,
			  &c->secs[k].diff);
		c->nnew += c->secs[k].diff.nnew;
		free(renames);
		renames = NULL;
		nrenames = 0;
		free_paths(bf, nbf);
		free_paths(af, naf);
	}
}

/* The notes on skipped lines, then the report; the exit status. */
static int report(const struct gate *g, const struct comparison *c)
{
	if (!g->no_notes)
		note_skipped(g, g->jobs);
	gate_output(g->format, c->secs, c->nsecs, g->series, g->ps.npatches, g->nchecked, g->tree);
	return c->nnew ? EXIT_FINDINGS : EXIT_CLEAN;
}

static void comparison_free(struct comparison *c)
{
	size_t k;

	for (k = 0; k < c->nsecs; k++) {
		gate_diff_free(&c->secs[k].diff);
		filtered_free(c->filtered[2 * k]);
		filtered_free(c->filtered[2 * k + 1]);
	}
	free(c->secs);
	free(c->filtered);
	free(c->pp);
}

/* Free what list_files() and plan_runs() made. */
static void runs_free(struct gate *g)
{
	size_t k;

	for (k = 0; g->vocab && k < g->nstates; k++)
		if (g->vocab_made[k])
			lex_vocab_free(&g->vocab[k]);
	free(g->vocab);
	free(g->vocab_made);
	for (k = 0; g->plan && k < g->nstates; k++) {
		free_paths(g->plan[k].px, g->plan[k].npx);
		free_paths(g->plan[k].cast, g->plan[k].ncast);
	}
	free(g->plan);
	for (k = 0; g->store && k < g->nstates; k++) {
		free_paths(g->store[k].px, g->store[k].npx);
		free_paths(g->store[k].cast, g->store[k].ncast);
	}
	free(g->store);
	if (g->plan)
		gate_cache_free(&g->cache);
	for (k = 0; g->jobs && k < g->nstates; k++) {
		cocci_result_free(&g->jobs[k].res);
		free_paths(g->jobs[k].files, g->jobs[k].nfiles);
		free((char *)g->jobs[k].label);
	}
	free(g->jobs);
	free_paths(g->checked, g->nchecked);
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
	ret = plan_runs(g);
	if (!ret)
		ret = judge_states(g);
	if (!ret) {
		store_states(g);
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
	free_paths(g->touched, g->ntouched);
	free(g->tree);
	free(g->base_rev);
	free(g->rules);
	free(g->tmp);
	free(g->python);
	cleanup_tmp();
}
