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
		struct lex_slice_need need = { v, w->wrappers, w->nwrappers, 0, NULL, NULL, 0, 0,
					       lines, n };
		unsigned int (*casts)[2] = NULL, (*fields)[2] = NULL;

		if (r->kind == PF_RULE_INT_CAST)
			cast_calls(tv, buf, len, &casts, &need.ncasts, &fields, &need.nfields);
		need.cast_rule = r->kind == PF_RULE_INT_CAST;
		need.casts = (const unsigned int (*)[2])casts;
		need.fields = (const unsigned int (*)[2])fields;
		slice = lex_slice(buf, len, &need, &blanked);
		if (slice) {
			ret = cocci_mirror_file(w->root, mirror, file, slice, len);
			*nsliced += !ret;
		}
		free(slice);
		free(casts);
		free(fields);
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
	 * the cast rule's calls are read with the tree's wrappers, the same
	 * for every file of the tree: one copy a group, not one a file
	 */
	if (mirror && w->slice && r->kind == PF_RULE_INT_CAST && files->nr) {
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
