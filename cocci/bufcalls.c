// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_bufcalls: which formatting calls into a buffer the rules follow.
 *
 * The rules' buffer facts (cocci/rules/bufout.cocci.in, bufaway.cocci.in)
 * start from a formatting call into a buffer (vocab.def's PG_BUF_PRINTF:
 * snprintf()...) and follow the buffer to a seq writer, to another
 * function, to a return.  The judge reads those facts only for a call
 * whose format holds a conversion it judges (judge_buf(): a call with no
 * lexical finding is never judged, and one whose format the text cannot
 * read is a limit, not a call to judge); following every snprintf() of a
 * file was a large share of spatch's matching (bufaway alone 0.95 of
 * 2.6 s on 6.12's drivers/s390/block/dasd_eckd.c).  So each
 * group's spatch is given the lines of the calls the judge would read,
 * found by the lexical model (model/lex.h) as the judge finds them:
 * "FILE<TAB>LINE" records, FILE as the group's list names it.
 *
 * The lines depend on the file's text and this program only, both in the
 * spatch cache's key (cocci/cache.c; the records' file is not): plain %p
 * is read as unhashed whatever the tree's version (more calls on a tree
 * that hashes it, never fewer), and no wrapper table is read (a
 * formatting call is known by name, and its format by the file's text).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci/cocci_impl.h"
#include "model/lex.h"
#include "model/vocab.h"

static int pos_cmp(const void *pa, const void *pb)
{
	const unsigned int *a = pa, *b = pb;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/*
 * The lines of the calls of @buf whose long-wide conversions print an
 * integer cast (*@casts), or a field (*@fields): what the cast rule's
 * facts are read for, as the judge reads the file (@tv: the core
 * vocabulary and the tree's wrappers).
 */
static void cast_calls(const struct lex_vocab *tv, const char *buf, size_t len,
		       unsigned int (**casts)[2], size_t *ncasts,
		       unsigned int (**fields)[2], size_t *nfields)
{
	struct lex_file lf;
	size_t i, k;

	lex_scan(buf, len, tv, 1, &lf);
	*casts = xmalloc((lf.ncalls + 1) * sizeof(**casts));
	*fields = xmalloc((lf.ncalls + 1) * sizeof(**fields));
	*ncasts = *nfields = 0;
	for (i = 0; i < lf.ncalls; i++) {
		const struct lex_call *c = &lf.calls[i];
		int cast = 0, field = 0;

		for (k = 0; k < c->nfindings; k++) {
			const struct lex_finding *f = &c->findings[k];

			/*
			 * any cast: one the text reads as an integer from a
			 * member's or a file-scope name's declarations may
			 * still be a pointer to spatch's types
			 */
			cast |= !f->cls || !strcmp(f->cls, "int-cast") ||
				(!strcmp(f->cls, "int") && f->arg[0] == '(');
			field |= f->cls && !strcmp(f->cls, "int") &&
				(strstr(f->arg, "->") || strchr(f->arg, '.'));
		}
		if (cast) {
			(*casts)[*ncasts][0] = c->line;
			(*casts)[(*ncasts)++][1] = c->end_line;
		}
		if (field) {
			(*fields)[*nfields][0] = c->line;
			(*fields)[(*nfields)++][1] = c->end_line;
		}
	}
	lex_file_free(&lf);
}

/*
 * What seq_px.cocci's slice of @buf keeps (lex_slice()), read as the
 * judge reads the file (@tv, with a plain %p taken as unhashed whatever
 * the tree's version: more calls, never fewer): the lines of the calls
 * the judge reads the rule's facts for (a finding of a pointer
 * conversion, a literal with a macro in it), in @need->calls, the
 * callees of every call the model reads, in @need->read, and the lines
 * of its seq output calls, in @need->seq; @lf keeps the file's wrappers
 * @need names.
 */
static void px_calls(const struct lex_vocab *tv, const char *buf, size_t len,
		     struct lex_file *lf, struct lex_slice_need *need)
{
	unsigned int (*calls)[2], (*read)[2], *seq;
	size_t i, k, n = 0, nseq = 0;

	lex_scan(buf, len, tv, 0, lf);
	calls = xmalloc((lf->ncalls + 1) * sizeof(*calls));
	read = xmalloc((lf->ncalls + lf->nbodies + 1) * sizeof(*read));
	seq = xmalloc((lf->ncalls + 1) * sizeof(*seq));
	for (i = 0; i < lf->ncalls; i++) {
		const struct lex_call *c = &lf->calls[i];
		int ptr = c->macro;

		for (k = 0; k < c->nfindings; k++) {
			const char *cls = c->findings[k].cls;

			ptr |= cls && strcmp(cls, "int") && strcmp(cls, "int-cast");
		}
		if (ptr) {
			calls[n][0] = c->line;
			calls[n++][1] = c->end_line;
		}
		read[i][0] = c->line;
		read[i][1] = c->column;
		if (c->io != VOCAB_IO_BUF)
			seq[nseq++] = c->line;
	}
	for (k = 0; k < lf->nbodies; k++) {
		read[i + k][0] = lf->bodies[k][0];
		read[i + k][1] = lf->bodies[k][1];
	}
	qsort(read, i + k, sizeof(*read), pos_cmp);
	need->calls = (const unsigned int (*)[2])calls;
	need->ncalls = n;
	need->read = (const unsigned int (*)[2])read;
	need->nread = i + k;
	need->seq = seq;
	need->nseq = nseq;
	need->file_wrappers = lf->wrappers;
	need->nfile_wrappers = lf->nwrappers;
}

/*
 * Write the records of @file (relative to the tree) to @out, and with
 * @mirror its slice for rule @r there; -1 after error().
 */
static int file_buf_calls(const struct lex_vocab *v, const struct lex_vocab *tv,
			  const struct walk *w, const struct rule *r, const char *file, FILE *out,
			  const char *mirror, size_t *nsliced)
{
	char *abs = xasprintf("%s/%s", w->root, file), *buf, *slice;
	unsigned int *lines = NULL;
	struct lex_file lf;
	size_t len, i, n = 0, blanked;
	int ret = 0;

	buf = read_file(abs, SIZE_MAX, &len);
	if (!buf) {
		error("%s: %s", abs, strerror(errno));
		free(abs);
		return -1;
	}
	free(abs);
	lex_scan(buf, len, v, 0, &lf);
	lines = xmalloc((lf.ncalls + 1) * sizeof(*lines));
	for (i = 0; i < lf.ncalls; i++) {
		const struct lex_call *c = &lf.calls[i];

		if (c->io == VOCAB_IO_BUF && !c->opaque && c->nfindings) {
			fprintf(out, "%s\t%u\n", file, c->line);
			lines[n++] = c->line;
		}
	}
	if (mirror && w->slice) {
		struct lex_slice_need need = { 0 };
		unsigned int (*casts)[2] = NULL, (*fields)[2] = NULL;
		struct lex_file plf = { 0 };

		need.v = v;
		need.names = w->wrappers;
		need.nnames = w->nwrappers;
		need.lines = lines;
		need.nlines = n;
		need.cast_rule = r->kind == PF_RULE_INT_CAST;
		need.every_call = !need.cast_rule &&
				  (r->kind != PF_RULE_PX || w->slice != COCCI_SLICE_CALLS);
		if (need.cast_rule) {
			cast_calls(tv, buf, len, &casts, &need.ncalls, &fields, &need.nfields);
			need.calls = (const unsigned int (*)[2])casts;
			need.fields = (const unsigned int (*)[2])fields;
		} else if (!need.every_call) {
			need.v = tv;
			px_calls(tv, buf, len, &plf, &need);
		}
		slice = lex_slice(buf, len, &need, &blanked);
		if (slice) {
			ret = cocci_mirror_file(w->root, mirror, file, slice, len);
			*nsliced += !ret;
		}
		free(slice);
		free(casts);
		free(fields);
		if (!need.cast_rule && !need.every_call) {
			free((void *)need.calls);
			free((void *)need.read);
			free((void *)need.seq);
			lex_file_free(&plf);
		}
	}
	free(lines);
	lex_file_free(&lf);
	free(buf);
	return ret;
}

int cocci_buf_calls(const struct walk *w, const struct rule *r, const struct strvec *files,
		    const char *path, const char *mirror, size_t *nsliced)
{
	struct lex_vocab v = { 0 }, tv = { 0 };
	FILE *out = fopen(path, "w");
	size_t i;
	int ret = 0;

	*nsliced = 0;
	if (!out) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	lex_vocab_core(&v);
	/*
	 * the calls the slices keep are read with the tree's wrappers, the same
	 * for every file of the tree: one copy a group, not one a file
	 */
	if (mirror && w->slice && files->nr &&
	    (r->kind == PF_RULE_INT_CAST ||
	     (r->kind == PF_RULE_PX && w->slice == COCCI_SLICE_CALLS))) {
		lex_vocab_core(&tv);
		lex_vocab_tree(&tv, w->root, files->v[0]);
	}
	for (i = 0; i < files->nr && !ret; i++)
		ret = file_buf_calls(&v, &tv, w, r, files->v[i], out, mirror, nsliced);
	lex_vocab_free(&tv);
	lex_vocab_free(&v);
	if (fclose(out) && !ret) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	}
	return ret;
}
