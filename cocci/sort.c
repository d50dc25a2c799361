// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_sort: a result put in order - findings and calls sorted, the
 * duplicates two rules or two parses give dropped, skipped regions
 * merged - and freed.
 */
#include <stdlib.h>
#include <string.h>

#include "cocci/cocci_impl.h"

/* Drop the files whose every line parsed, sort the rest, merge duplicates. */
static void finish_unparsed(struct cocci_result *res)
{
	size_t i, j, k, n = 0;
	char *tf;
	unsigned int tl;

	for (i = 0; i < res->nunparsed; i++) {
		if (res->unparsed_lines[i]) {
			res->unparsed[n] = res->unparsed[i];
			res->unparsed_lines[n++] = res->unparsed_lines[i];
		} else {
			free(res->unparsed[i]);
		}
	}
	res->nunparsed = n;
	/* insertion sort: a few hundred entries at most */
	for (i = 1; i < n; i++) {
		tf = res->unparsed[i];
		tl = res->unparsed_lines[i];
		for (j = i; j > 0 && strcmp(res->unparsed[j - 1], tf) > 0; j--) {
			res->unparsed[j] = res->unparsed[j - 1];
			res->unparsed_lines[j] = res->unparsed_lines[j - 1];
		}
		res->unparsed[j] = tf;
		res->unparsed_lines[j] = tl;
	}
	/* the same file parsed by two rules: keep the larger count */
	for (i = 0, k = 0; i < n; i++) {
		if (k && !strcmp(res->unparsed[k - 1], res->unparsed[i])) {
			if (res->unparsed_lines[i] > res->unparsed_lines[k - 1])
				res->unparsed_lines[k - 1] = res->unparsed_lines[i];
			free(res->unparsed[i]);
			continue;
		}
		res->unparsed[k] = res->unparsed[i];
		res->unparsed_lines[k++] = res->unparsed_lines[i];
	}
	res->nunparsed = k;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int finding_cmp(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;
	int c;

	if ((c = cmp_str(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	if ((c = cmp_str(a->cls, b->cls)))
		return c;
	if ((c = cmp_str(a->conversion, b->conversion)))
		return c;
	if ((c = cmp_str(a->arg, b->arg)))
		return c;
	return cmp_str(a->message, b->message);
}

/* Duplicates: the same conversion at the same place, with the same class. */
static int finding_same(const struct finding *a, const struct finding *b)
{
	return !cmp_str(a->file, b->file) && a->line == b->line &&
		a->column == b->column && !cmp_str(a->cls, b->cls) &&
		!cmp_str(a->conversion, b->conversion);
}

static void finding_free(struct finding *f)
{
	free(f->file);
	free(f->cls);
	free(f->conversion);
	free(f->function);
	free(f->format);
	free(f->arg);
	free(f->message);
}

static int call_cmp(const void *pa, const void *pb)
{
	const struct cocci_call *a = pa, *b = pb;
	int c;

	if ((c = cmp_str(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return cmp_str(a->format, b->format);
}

static void call_free(struct cocci_call *c)
{
	free(c->file);
	free(c->function);
	free(c->format);
}

static int skip_cmp(const void *pa, const void *pb)
{
	const struct cocci_skip *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Sort the skipped regions; merge those that overlap (two rules, two parses). */
static void finish_skips(struct cocci_result *res)
{
	size_t i, n = 0;

	if (res->nskips)
		qsort(res->skips, res->nskips, sizeof(*res->skips), skip_cmp);
	for (i = 0; i < res->nskips; i++) {
		struct cocci_skip *p = n ? &res->skips[n - 1] : NULL, *q = &res->skips[i];

		if (p && !strcmp(p->file, q->file) && q->first <= p->last + 1 && p->last != ~0u) {
			if (q->last > p->last)
				p->last = q->last;
			free(q->file);
			continue;
		}
		res->skips[n++] = *q;
	}
	res->nskips = n;
}

void cocci_finish(struct cocci_result *res)
{
	size_t i, n;

	if (res->nfindings)
		qsort(res->findings, res->nfindings, sizeof(*res->findings), finding_cmp);
	for (i = 0, n = 0; i < res->nfindings; i++) {
		if (n && finding_same(&res->findings[n - 1], &res->findings[i])) {
			finding_free(&res->findings[i]);
			continue;
		}
		res->findings[n++] = res->findings[i];
	}
	res->nfindings = n;
	if (res->ncalls)
		qsort(res->calls, res->ncalls, sizeof(*res->calls), call_cmp);
	for (i = 0, n = 0; i < res->ncalls; i++) {
		if (n && !call_cmp(&res->calls[n - 1], &res->calls[i])) {
			call_free(&res->calls[i]);
			continue;
		}
		res->calls[n++] = res->calls[i];
	}
	res->ncalls = n;
	finish_unparsed(res);
	finish_skips(res);
}

void cocci_result_free(struct cocci_result *res)
{
	size_t i;

	for (i = 0; i < res->nfindings; i++)
		finding_free(&res->findings[i]);
	free(res->findings);
	for (i = 0; i < res->ncalls; i++)
		call_free(&res->calls[i]);
	free(res->calls);
	for (i = 0; i < res->nunparsed; i++)
		free(res->unparsed[i]);
	free(res->unparsed);
	free(res->unparsed_lines);
	for (i = 0; i < res->nskips; i++)
		free(res->skips[i].file);
	free(res->skips);
	for (i = 0; i < res->nunjudged; i++) {
		free(res->unjudged[i].file);
		free(res->unjudged[i].callee);
		free(res->unjudged[i].why);
	}
	free(res->unjudged);
	memset(res, 0, sizeof(*res));
}
