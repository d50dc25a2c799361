// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the C lexical model (model/lex.c), driven as
 * `ptrguard calls` drives it: the core vocabulary, plus what
 * lex_vocab_scan_header() finds in the input read as a header (so that
 * the functions it declares are called in it too), then lex_scan().  The
 * input's length picks hashed or not (v4.15 and later, or before).
 *
 * Invariants: every call has its function and a position inside the
 * text, its closing line at or after its own; every finding is inside the
 * text and has its conversion, argument and format; only an opaque format
 * has no literal.
 */
#include "fuzz.h"
#include "model/lex.h"
#include "model/vocab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lex_vocab v = { 0 };
	struct lex_file lf;
	char *buf = fuzz_exact(data, size);
	unsigned int nlines = 1;
	size_t i, k;

	for (i = 0; i < size; i++)
		nlines += data[i] == '\n';
	lex_vocab_core(&v);
	lex_vocab_scan_header(&v, buf, size, "fuzz.h");
	lex_scan(buf, size, &v, (int)(size & 1), &lf);
	for (i = 0; i < lf.ncalls; i++) {
		const struct lex_call *c = &lf.calls[i];

		CHECK(c->fn && c->fn->name && c->function);
		CHECK(c->line >= 1 && c->line <= nlines && c->column >= 1);
		CHECK(c->end_line >= c->line && c->end_line <= nlines);
		/* a seq_put_* writer has no format: its function names the conversion */
		CHECK(c->opaque || c->nformats > 0 || c->io == VOCAB_IO_PUT);
		for (k = 0; k < c->nformats; k++)
			CHECK(c->formats[k] && c->formats[k][0] == '"');
		for (k = 0; k < c->nfindings; k++) {
			const struct lex_finding *f = &c->findings[k];

			/* a format held in a variable is where it is assigned */
			CHECK(f->line >= 1 && f->line <= nlines && f->column >= 1);
			CHECK(f->conversion && *f->conversion && f->arg && f->format);
			CHECK(f->cls || f->unknown_cast);
		}
	}
	lex_file_free(&lf);
	lex_vocab_free(&v);
	free(buf);
	return 0;
}
