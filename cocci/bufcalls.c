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

/* Write the records of @file (relative to @root) to @out; -1 after error(). */
static int file_buf_calls(const struct lex_vocab *v, const char *root, const char *file,
			  FILE *out)
{
	char *abs = xasprintf("%s/%s", root, file), *buf;
	struct lex_file lf;
	size_t len, i;

	buf = read_file(abs, SIZE_MAX, &len);
	if (!buf) {
		error("%s: %s", abs, strerror(errno));
		free(abs);
		return -1;
	}
	free(abs);
	lex_scan(buf, len, v, 0, &lf);
	for (i = 0; i < lf.ncalls; i++) {
		const struct lex_call *c = &lf.calls[i];

		if (c->io == VOCAB_IO_BUF && !c->opaque && c->nfindings)
			fprintf(out, "%s\t%u\n", file, c->line);
	}
	lex_file_free(&lf);
	free(buf);
	return 0;
}

int cocci_buf_calls(const char *root, const struct strvec *files, const char *path)
{
	struct lex_vocab v = { 0 };
	FILE *out = fopen(path, "w");
	size_t i;
	int ret = 0;

	if (!out) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	lex_vocab_core(&v);
	for (i = 0; i < files->nr && !ret; i++)
		ret = file_buf_calls(&v, root, files->v[i], out);
	lex_vocab_free(&v);
	if (fclose(out) && !ret) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	}
	return ret;
}
