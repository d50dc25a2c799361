// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_lex: judge with the lexical model (lex.h) what the rules did not.
 *
 * spatch reports a call only if it parsed it and the rule follows its
 * callee and its format.  Each seq-output call the lexical model finds in
 * a file is matched with the rule's "C" records (one per call examined,
 * at the line of the callee's name): a call with none, or lying in lines
 * spatch skipped, is judged here instead.  Its findings are marked
 * lexical (no privilege check was looked for); a call in skipped lines
 * whose format the model cannot read either is listed as unjudged, for
 * the gate to refuse when a patch adds it.  Integer casts stay with the
 * cast rule, which knows types, except in skipped lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci.h"
#include "lex.h"
#include "prefilter.h"
#include "ptrguard.h"
#include "vocab.h"

/* The message the rules give a finding of class @cls. */
static const char *message_of(const char *cls)
{
	const struct vocab_class *c = vocab_class(cls);

	return c ? c->message : "";
}

int cocci_skipped(const struct cocci_result *res, const char *file, unsigned int a, unsigned int b)
{
	size_t i;

	for (i = 0; i < res->nskips; i++)
		if (!strcmp(res->skips[i].file, file) && res->skips[i].first <= b &&
		    res->skips[i].last >= a)
			return 1;
	return 0;
}

/* Did the rule examine a call whose name is on @line of @file? */
static int examined(const struct cocci_result *res, const char *file, unsigned int line)
{
	size_t lo = 0, hi = res->ncalls;

	/* res->calls is sorted by file, then line */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(res->calls[mid].file, file);

		if (c < 0 || (!c && res->calls[mid].line < line))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < res->ncalls && !strcmp(res->calls[lo].file, file) && res->calls[lo].line == line;
}

static void add_unjudged(struct cocci_result *res, const char *file, const struct lex_call *c,
			 const char *why)
{
	struct cocci_unjudged *u;

	res->unjudged = xrealloc(res->unjudged, (res->nunjudged + 1) * sizeof(*res->unjudged));
	u = &res->unjudged[res->nunjudged++];
	u->file = xstrdup(file);
	u->line = c->line;
	u->end_line = c->end_line;
	u->callee = xstrdup(c->fn->name);
	u->why = xstrdup(why);
}

static void add_finding(struct cocci_result *res, const char *file, const struct lex_call *c,
			const struct lex_finding *lf)
{
	struct finding *f;

	res->findings = xrealloc(res->findings, (res->nfindings + 1) * sizeof(*res->findings));
	f = &res->findings[res->nfindings++];
	f->file = xstrdup(file);
	f->line = lf->line;
	f->column = lf->column;
	f->cls = xstrdup(lf->cls);
	f->conversion = xstrdup(lf->conversion);
	f->function = xstrdup(c->function);
	f->format = xstrdup(lf->format);
	f->arg = xstrdup(lf->arg);
	f->message = xstrdup(message_of(lf->cls));
	f->lexical = 1;
}

static void judge_file(const char *root, const char *rel, int px_ran, struct cocci_result *res)
{
	char *abs = xasprintf("%s/%s", root, rel), *buf;
	struct lex_vocab v = { 0 };
	struct lex_file lf;
	size_t len, i, k;

	buf = read_file(abs, SIZE_MAX, &len);
	if (!buf) {
		/* spatch read it a moment ago; it would have said if it could not */
		free(abs);
		return;
	}
	lex_vocab_core(&v);
	lex_vocab_tree(&v, root, rel);
	lex_scan(buf, len, &v, !prefilter_tree_is_old(abs), &lf);
	for (i = 0; i < lf.ncalls; i++) {
		const struct lex_call *c = &lf.calls[i];
		int in_skip = cocci_skipped(res, rel, c->line, c->end_line), unknown = 0;

		/*
		 * Where the %px rule did not run, the prefilter found no format
		 * it reports: the cast rule saw every call it parsed.
		 */
		/*
		 * A format neither the rules nor the model can read, of a call
		 * that prints values: not understood, wherever it is (a call
		 * with nothing after its format prints no value; a wrapper's
		 * own body is judged at its callers).
		 */
		if (c->opaque) {
			if (in_skip || (c->nvalues && !c->body))
				add_unjudged(res, rel, c, c->opaque);
			continue;
		}
		if (!in_skip && (!px_ran || examined(res, rel, c->line)))
			continue;
		res->nlexical++;
		for (k = 0; k < c->nfindings; k++) {
			const struct lex_finding *f = &c->findings[k];

			if (!f->cls) {
				if (in_skip && !unknown++)
					add_unjudged(res, rel, c,
						     "an integer cast of an operand that may be a pointer");
			} else if (in_skip || strcmp(f->cls, "int-cast")) {
				add_finding(res, rel, c, f);
			}
		}
	}
	/* a comment or literal that never ends: no call after it can be trusted to be found */
	if (lf.broken && cocci_skipped(res, rel, 1, ~0u)) {
		struct lex_fn fn = { (char *)"(text)", 0, 0, (char *)"", NULL };
		struct lex_call whole = { 0 };

		whole.line = 1;
		whole.end_line = ~0u;
		whole.fn = &fn;
		add_unjudged(res, rel, &whole, "the text does not lex: an unterminated comment or string literal");
	}
	lex_file_free(&lf);
	lex_vocab_free(&v);
	free(buf);
	free(abs);
}

static int unjudged_cmp(const void *pa, const void *pb)
{
	const struct cocci_unjudged *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

void cocci_lexical(const char *root, char *const *files, const int *px_ran, size_t nfiles,
		   struct cocci_result *res)
{
	size_t i;

	for (i = 0; i < nfiles; i++)
		judge_file(root, files[i], px_ran[i], res);
	if (res->nunjudged)
		qsort(res->unjudged, res->nunjudged, sizeof(*res->unjudged), unjudged_cmp);
}

char *cocci_skip_text(const struct cocci_result *res, const char *file, unsigned int *count)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		die("out of memory");
	*count = 0;
	for (i = 0; i < res->nskips; i++) {
		const struct cocci_skip *s = &res->skips[i];

		if (strcmp(s->file, file))
			continue;
		fprintf(m, "%s%u", *count ? ", " : "", s->first);
		if (s->last == ~0u)
			fputs("-end", m);
		else if (s->last != s->first)
			fprintf(m, "-%u", s->last);
		*count += s->last == ~0u ? 1 : s->last - s->first + 1;
	}
	fclose(m);
	if (!*count) {
		free(text);
		return NULL;
	}
	return text;
}
