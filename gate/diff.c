// SPDX-License-Identifier: GPL-2.0
/*
 * gate_diff: which findings a patch adds and which it fixes.
 *
 * Line numbers move whenever a patch adds a line above a finding, so a
 * finding is identified by a fingerprint instead: the file (after
 * renames), the enclosing function, the class, the conversion, the format
 * literal with its pieces joined, and the argument without whitespace.
 * Moving leaky code inside its function, or reformatting a call over
 * several lines, keeps the fingerprint; copying a leak adds one more
 * finding with the same fingerprint, which is why findings are counted:
 * two identical leaks after the patch and one before is one new leak.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"
#include "lib/ptrguard.h"

/*
 * The format literal with its pieces joined: "a" "b" and "ab" are the same
 * format, and so are the same pieces split over lines differently.  Text
 * outside the quotes (a macro such as KERN_INFO) is kept without blanks.
 */
static void norm_format(const char *s, char *out)
{
	int in = 0;

	for (; *s; s++) {
		if (in) {
			if (*s == '\\' && s[1]) {
				*out++ = *s++;
				*out++ = *s;
			} else if (*s == '"') {
				in = 0;
			} else {
				*out++ = *s;
			}
		} else if (*s == '"') {
			in = 1;
		} else if (*s != ' ' && *s != '\t' && *s != '\n') {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* The argument without blanks: spatch may print it differently when it moves. */
static void norm_arg(const char *s, char *out)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n')
			*out++ = *s;
	*out = '\0';
}

struct keyed {
	const struct finding *f;
	char *key;
	char *path;	/* the file, after renames */
	int changed;	/* its line was added (after) or removed (before) */
	int used;
};

static const char *rename_path(const char *path, char *const *renames, size_t nrenames)
{
	size_t i;

	for (i = 0; i < nrenames; i++)
		if (!strcmp(path, renames[2 * i]))
			path = renames[2 * i + 1];
	return path;
}

static char *make_key(const struct finding *f, const char *path)
{
	size_t n = strlen(path) + strlen(f->function ? f->function : "") +
		   strlen(f->cls) + strlen(f->conversion) + strlen(f->format ? f->format : "") +
		   strlen(f->arg ? f->arg : "") + 8;
	char *k = xmalloc(n), *p = k;

	p += sprintf(p, "%s%c%s%c%s%c%s%c", path, 1, f->function ? f->function : "", 1,
		     f->cls, 1, f->conversion, 1);
	norm_format(f->format ? f->format : "", p);
	p += strlen(p);
	*p++ = 1;
	norm_arg(f->arg ? f->arg : "", p);
	return k;
}

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	if (a->f->line != b->f->line)
		return a->f->line < b->f->line ? -1 : 1;
	return a->f->column < b->f->column ? -1 : a->f->column > b->f->column;
}

/*
 * The line of a patch that added (kind '+') or removed ('-') @line of
 * @path: the one at that very place (with the text @text, if given), else,
 * unless @exact, the one with the text @text nearest to it (a hunk
 * applied at an offset).  Later patches first.
 */
static const struct patch_line *find_patch_line(const struct patch *const *patches,
						size_t npatches, char kind, const char *path,
						unsigned int line, const char *text,
						int exact, const struct patch **which)
{
	const struct patch_line *here = NULL, *best = NULL;
	const struct patch *here_p = NULL, *best_p = NULL;
	unsigned int bestdist = 0;
	size_t i, j, k;

	for (i = npatches; i-- > 0 && !here;) {
		const struct patch *p = patches[i];

		for (j = 0; j < p->nfiles && !here; j++) {
			const struct patch_file *pf = &p->files[j];
			const char *fp = kind == '+' ? pf->new_path : pf->old_path;

			if (!fp || strcmp(fp, path))
				continue;
			for (k = 0; k < pf->nlines; k++) {
				const struct patch_line *pl = &pf->lines[k];
				unsigned int d = pl->file_line > line ? pl->file_line - line :
					line - pl->file_line;

				if (pl->kind != kind || (text && strcmp(pl->text, text)))
					continue;
				if (!d) {
					here = pl;
					here_p = p;
					break;
				}
				if (text && (!best || d < bestdist)) {
					best = pl;
					best_p = p;
					bestdist = d;
				}
			}
		}
	}
	if (here) {
		*which = here_p;
		return here;
	}
	if (!text || exact || !best)
		return NULL;
	*which = best_p;
	return best;
}

/* Line @n (1-based) of @root/@path, without its newline; NULL if none. */
static char *file_line(const char *root, const char *path, unsigned int n)
{
	char *full;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = -1;
	unsigned int i;

	if (asprintf(&full, "%s/%s", root, path) < 0)
		die("out of memory");
	f = fopen(full, "r");
	free(full);
	if (!f)
		return NULL;
	for (i = 0; i < n; i++) {
		len = getline(&line, &cap, f);
		if (len < 0)
			break;
	}
	fclose(f);
	if (len < 0) {
		free(line);
		return NULL;
	}
	if (len && line[len - 1] == '\n')
		line[len - 1] = '\0';
	return line;
}

static struct keyed *key_all(const struct cocci_result *res, char *const *renames,
			     size_t nrenames, size_t *n, int before,
			     const struct patch *const *patches, size_t npatches,
			     const char *root)
{
	struct keyed *k = xmalloc(res->nfindings * sizeof(*k));
	size_t i, m = 0;

	for (i = 0; i < res->nfindings; i++) {
		const struct finding *f = &res->findings[i];
		const struct patch *which = NULL;
		char *text;

		if (!finding_is_leak(f))
			continue;
		k[m].f = f;
		k[m].path = xstrdup(before ? rename_path(f->file, renames, nrenames) : f->file);
		k[m].key = make_key(f, k[m].path);
		/*
		 * Exactly on a changed line: with one leak copied next to
		 * itself, the copy is new and the old one is not, though
		 * both read the same.
		 */
		text = file_line(root, f->file, f->line);
		k[m].changed = find_patch_line(patches, npatches, before ? '-' : '+', f->file,
					       f->line, text, 1, &which) != NULL;
		free(text);
		k[m].used = 0;
		m++;
	}
	if (m)
		qsort(k, m, sizeof(*k), keyed_cmp);
	*n = m;
	return k;
}

static void add_item(struct gate_diff *d, const struct finding *f, int fixed,
		     const struct patch *const *patches, size_t npatches, const char *root)
{
	struct gate_item *it;
	const struct patch *which = NULL;
	const struct patch_line *pl;
	char *text = file_line(root, f->file, f->line);

	d->items = realloc(d->items, (d->nitems + 1) * sizeof(*d->items));
	if (!d->items)
		die("out of memory");
	it = &d->items[d->nitems++];
	memset(it, 0, sizeof(*it));
	it->f = f;
	it->fixed = fixed;
	it->path = xstrdup(f->file);
	pl = find_patch_line(patches, npatches, fixed ? '-' : '+', f->file, f->line, text, 0,
			     &which);
	if (pl) {
		it->patch = which;
		it->input_line = pl->input_line;
		it->text = xstrdup(pl->text);
		it->mark = pl->kind;
	} else {
		it->text = xstrdup(text ? text : "");
		it->mark = ' ';
	}
	free(text);
	if (fixed)
		d->nfixed++;
	else
		d->nnew++;
}

/*
 * In one group of equal keys, the @excess findings of @k[lo, hi) that the
 * patch made: those on changed lines first, then the last ones.
 */
static void pick(struct keyed *k, size_t lo, size_t hi, size_t excess)
{
	size_t i;

	for (i = lo; i < hi && excess; i++)
		if (k[i].changed) {
			k[i].used = 1;
			excess--;
		}
	for (i = hi; i-- > lo && excess;)
		if (!k[i].used) {
			k[i].used = 1;
			excess--;
		}
}

static int item_cmp(const void *pa, const void *pb)
{
	const struct gate_item *a = pa, *b = pb;
	unsigned int pa_i = a->patch ? a->patch->index : 0, pb_i = b->patch ? b->patch->index : 0;
	int c;

	if (a->fixed != b->fixed)
		return a->fixed - b->fixed;
	if (pa_i != pb_i)
		return pa_i < pb_i ? -1 : 1;
	c = strcmp(a->path, b->path);
	if (c)
		return c;
	if (a->f->line != b->f->line)
		return a->f->line < b->f->line ? -1 : 1;
	return a->f->column < b->f->column ? -1 : a->f->column > b->f->column;
}

void gate_diff(const struct cocci_result *before, const struct cocci_result *after,
	       char *const *renames, size_t nrenames,
	       const struct patch *const *patches, size_t npatches,
	       const char *before_root, const char *after_root, struct gate_diff *d)
{
	size_t nb, na, i = 0, j = 0, first = d->nitems;
	struct keyed *kb = key_all(before, renames, nrenames, &nb, 1, patches, npatches,
				   before_root);
	struct keyed *ka = key_all(after, NULL, 0, &na, 0, patches, npatches, after_root);

	/* Merge the two sorted lists group by group. */
	while (i < nb || j < na) {
		const char *key = i < nb && (j >= na || strcmp(kb[i].key, ka[j].key) <= 0) ?
				  kb[i].key : ka[j].key;
		size_t bi = i, aj = j;

		while (i < nb && !strcmp(kb[i].key, key))
			i++;
		while (j < na && !strcmp(ka[j].key, key))
			j++;
		if (j - aj > i - bi)
			pick(ka, aj, j, (j - aj) - (i - bi));
		else if (i - bi > j - aj)
			pick(kb, bi, i, (i - bi) - (j - aj));
	}
	for (j = 0; j < na; j++)
		if (ka[j].used)
			add_item(d, ka[j].f, 0, patches, npatches, after_root);
	for (i = 0; i < nb; i++)
		if (kb[i].used)
			add_item(d, kb[i].f, 1, patches, npatches, before_root);
	if (d->nitems > first)
		qsort(d->items + first, d->nitems - first, sizeof(*d->items), item_cmp);
	for (i = 0; i < nb; i++) {
		free(kb[i].key);
		free(kb[i].path);
	}
	for (j = 0; j < na; j++) {
		free(ka[j].key);
		free(ka[j].path);
	}
	free(kb);
	free(ka);
}

void gate_diff_free(struct gate_diff *d)
{
	size_t i;

	for (i = 0; i < d->nitems; i++) {
		free(d->items[i].path);
		free(d->items[i].text);
	}
	free(d->items);
	memset(d, 0, sizeof(*d));
}
