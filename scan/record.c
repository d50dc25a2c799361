// SPDX-License-Identifier: GPL-2.0
/*
 * What the walk records: each file's findings, sorted and handed over as
 * one group; the files skipped and why; at the end, all the groups made
 * one sorted array of findings (struct scan_result).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"
#include "scan/walk.h"

void skip_file(struct scan *s, const char *path, bool err, const char *fmt, ...)
{
	struct scan_result *r = s->res;
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&s->lock);
	GROW(r->skip, r->nskip, r->capskip);
	r->skip[r->nskip].file = xstrdup(path);
	r->skip[r->nskip].reason = xstrdup(why);
	r->skip[r->nskip].error = err;
	r->nskip++;
	pthread_mutex_unlock(&s->lock);
}

void on_hit(void *ctx, const struct scan_hit *h)
{
	struct filectx *f = ctx;

	if (h->verdict == ADDR_IGNORED) {
		__atomic_fetch_add(&f->s->res->nignored, 1, __ATOMIC_RELAXED);
		if (!f->s->o->ignored)
			return;
	}
	GROW(f->rec, f->n, f->cap);
	f->rec[f->n] = (struct finding_rec){ .hit = *h, .flags = f->flags };
	f->n++;
}

/* The order of findings in one file: path name first, then by offset. */
static int cmp_in_file(const struct finding_rec *x, const struct finding_rec *y)
{
	if ((x->flags & REC_PATH) != (y->flags & REC_PATH))
		return (x->flags & REC_PATH) ? -1 : 1;
	if (x->hit.offset != y->hit.offset)
		return x->hit.offset < y->hit.offset ? -1 : 1;
	return (int)x->hit.binary - (int)y->hit.binary;
}

/*
 * Hand the file's findings over as one group, sorted here: they come
 * nearly in order (a chunk's binary values before its text), so an
 * insertion sort is about linear.  scan_run sorts the groups by name.
 */
void publish(struct filectx *f, unsigned int flags)
{
	struct scan *s = f->s;
	struct scan_result *r = s->res;
	size_t i, j, nkernel = 0;
	char *file;

	if (!f->n)
		return;
	file = xstrdup(f->path);
	for (i = 0; i < f->n; i++) {
		struct finding_rec t;

		f->rec[i].file = file;
		f->rec[i].flags |= flags;
		nkernel += f->rec[i].hit.verdict == ADDR_KERNEL;
		if (!i || cmp_in_file(&f->rec[i - 1], &f->rec[i]) <= 0)
			continue;	/* in order: the usual case, no copy */
		t = f->rec[i];
		for (j = i; j > 0 && cmp_in_file(&f->rec[j - 1], &t) > 0; j--)
			f->rec[j] = f->rec[j - 1];
		f->rec[j] = t;
	}
	pthread_mutex_lock(&s->lock);
	GROW(r->names, r->nnames, r->capnames);
	r->names[r->nnames++] = file;
	GROW(s->groups, s->ngroups, s->capgroups);
	s->groups[s->ngroups++] = (struct group){ file, f->rec, f->n };
	r->nfound += f->n;
	r->nkernel += nkernel;
	pthread_mutex_unlock(&s->lock);
	s->hits += f->n;
	f->rec = NULL;
	f->n = f->cap = 0;
}

static int cmp_found(const void *a, const void *b)
{
	const struct finding_rec *x = a, *y = b;
	int c = x->file == y->file ? 0 : strcmp(x->file, y->file);

	return c ? c : cmp_in_file(x, y);
}

/* Groups by name, a path name's group before its file's. */
static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return cmp_found(x->rec, y->rec);
}

/*
 * The findings of all groups, in order, as one array: the largest group's
 * array (/proc/kallsyms's 40,000 findings in the e2e guest) grown to hold
 * them all, its findings moved to their place and the others copied
 * around them, instead of a copy of everything into new memory (every
 * page of which the kernel must fault in and clear).
 */
void collect(struct scan *s, struct scan_result *r)
{
	bool merge = false;
	size_t i, n = 0, big = 0, before = 0;

	if (!s->ngroups)
		return;
	qsort(s->groups, s->ngroups, sizeof(*s->groups), cmp_group);
	for (i = 1; i < s->ngroups; i++)
		if (s->groups[i].n > s->groups[big].n)
			big = i;
	for (i = 0; i < big; i++)
		before += s->groups[i].n;
	r->found = xrealloc(s->groups[big].rec, r->nfound * sizeof(*r->found));
	r->capfound = r->nfound;
	memmove(r->found + before, r->found, s->groups[big].n * sizeof(*r->found));
	for (i = 0; i < s->ngroups; i++) {
		struct group *g = &s->groups[i];
		const struct finding_rec *first = i == big ? r->found + n : g->rec;

		/* Two groups of one name and kind (a file under two roots). */
		if (i && !strcmp(g->file, g[-1].file) &&
		    (first->flags & REC_PATH) == (r->found[n - 1].flags & REC_PATH))
			merge = true;
		if (i != big) {
			memcpy(r->found + n, g->rec, g->n * sizeof(*g->rec));
			free(g->rec);
		}
		n += g->n;
	}
	if (merge)
		qsort(r->found, r->nfound, sizeof(*r->found), cmp_found);
}

void scan_result_free(struct scan_result *res)
{
	size_t i;

	for (i = 0; i < res->nnames; i++)
		free(res->names[i]);
	free(res->names);
	for (i = 0; i < res->nskip; i++) {
		free(res->skip[i].file);
		free(res->skip[i].reason);
	}
	free(res->found);
	free(res->skip);
}

