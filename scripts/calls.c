// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard calls: the seq-output calls of C files as the lexical model
 * (lex.h) reads them.  What audit and gate fall back on where spatch
 * skips lines, shown for one file: for checking a verdict by hand, and
 * for the tests' annotated fixtures.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci.h"
#include "lex.h"
#include "prefilter.h"
#include "ptrguard.h"

static const char help[] =
"usage: ptrguard calls [--tree DIR] FILE...\n"
"\n"
"Lists each call of a seq output function (seq_printf() and its kin, the\n"
"file's own wrapper macros and functions, and the functions a header of\n"
"the tree declares with __printf() and a seq_file, seq_buf or trace_seq\n"
"parameter) as the lexical model reads it, one line per call:\n"
"\n"
"    FILE:LINE: CALLEE(format #N) in FUNCTION: \"LITERAL\" [| \"LITERAL\"...]\n"
"    FILE:LINE: CALLEE(format #N) in FUNCTION: cannot be read: WHY\n"
"\n"
"then one line per conversion that can print an address:\n"
"\n"
"    FILE:LINE:COLUMN:   CLASS CONVERSION of ARGUMENT\n"
"\n"
"CLASS is px, p-unhashed, int-cast, px-user, or cast? (a long-wide\n"
"conversion of an integer cast whose operand may be a pointer).  The tree\n"
"(--tree, or the first directory above FILE with Makefile, Kconfig and\n"
"MAINTAINERS) gives the headers and the version; without one, only the\n"
"seq_file, seq_buf and trace_seq functions are known and %p is hashed.\n"
"Exit status: 0, or 2 when a file cannot be read.\n";

static void print_file(const char *name, const struct lex_file *lf)
{
	size_t i, k;

	if (lf->broken)
		printf("%s: note: an unterminated comment or string literal: calls after it may be missed\n",
		       name);
	for (i = 0; i < lf->ncalls; i++) {
		const struct lex_call *c = &lf->calls[i];

		printf("%s:%u: %s(format #%u%s) in %s: ", name, c->line, c->fn->name, c->fn->fmt + 1,
		       c->fn->va ? ", va_list" : "", *c->function ? c->function : "(file scope)");
		if (c->opaque)
			printf("cannot be read: %s", c->opaque);
		for (k = 0; k < c->nformats; k++)
			printf("%s%s", k ? " | " : "", c->formats[k]);
		putchar('\n');
		for (k = 0; k < c->nfindings; k++) {
			const struct lex_finding *f = &c->findings[k];

			printf("%s:%u:%u:   %s %s of %s\n", name, f->line, f->column,
			       f->cls ? f->cls : "cast?", f->conversion, *f->arg ? f->arg : "(va_list)");
		}
	}
}

int cmd_calls(int argc, char **argv)
{
	const char *tree = NULL;
	int i, ret = EXIT_CLEAN;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(help, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(argv[i], "--tree") && i + 1 < argc) {
			tree = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			error("calls: %s: unknown option (see 'ptrguard calls --help')", argv[i]);
			return EXIT_ERROR;
		}
	}
	if (i == argc) {
		error("calls: no FILE given (see 'ptrguard calls --help')");
		return EXIT_ERROR;
	}
	for (; i < argc; i++) {
		struct lex_vocab v = { 0 };
		struct lex_file lf;
		size_t len;
		char *buf = read_file(argv[i], SIZE_MAX, &len), *root = NULL, *abs = NULL;
		int old = 0;

		if (!buf) {
			error("calls: %s: cannot read it", argv[i]);
			ret = EXIT_ERROR;
			continue;
		}
		lex_vocab_core(&v);
		abs = realpath(argv[i], NULL);
		if (tree)
			root = realpath(tree, NULL);
		else if (abs)
			root = cocci_find_root_quiet(abs);
		if (root && abs && !strncmp(abs, root, strlen(root)) && abs[strlen(root)] == '/') {
			lex_vocab_tree(&v, root, abs + strlen(root) + 1);
			old = prefilter_tree_is_old(abs);
		}
		lex_scan(buf, len, &v, !old, &lf);
		print_file(argv[i], &lf);
		lex_file_free(&lf);
		lex_vocab_free(&v);
		free(root);
		free(abs);
		free(buf);
	}
	if (fflush(stdout) || ferror(stdout)) {
		error("calls: cannot write the output");
		return EXIT_ERROR;
	}
	return ret;
}
