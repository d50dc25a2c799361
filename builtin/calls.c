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
#include <unistd.h>

#include "cocci/cocci.h"
#include "lib/kernel.h"
#include "model/lex.h"
#include "model/tokenize.h"
#include "lib/parse-options.h"
#include "cocci/prefilter.h"
#include "model/vocab.h"
#include "lib/ptrguard.h"

static const struct cmd_help help = {
	.name = "calls",
	.summary = "list the seq output calls of C files as the lexical model reads them",
	.args = "FILE...",
	.description =
"    Lists each call of a seq output function (seq_printf() and its kin, the\n"
"    file's own wrapper macros and functions, and the functions a header of\n"
"    the tree declares with __printf() and a seq_file, seq_buf or trace_seq\n"
"    parameter, and the wrapper macros every header of the tree defines,\n"
"    object-like aliases such as #define W seq_printf included) as the\n"
"    lexical model reads it, one line per call:\n"
"\n"
"        FILE:LINE: CALLEE(format #N) in FUNCTION: \"LITERAL\" [| \"LITERAL\"...]\n"
"        FILE:LINE: CALLEE(format #N) in FUNCTION: cannot be read: WHY\n"
"\n"
"    A wrapper macro of a header shows the path its format takes and where\n"
"    it is defined: CALLEE(format #N, via W -> seq_printf, HEADER:LINE); a\n"
"    __printf() function of a header, CALLEE(format #N, HEADER:LINE).  The\n"
"    writers of one number (seq_put_hex_ll()...) and the formatting calls\n"
"    into a buffer (snprintf()...) are listed too, as\n"
"\n"
"        FILE:LINE: CALLEE(value #N) in FUNCTION: a number, no format\n"
"        FILE:LINE: CALLEE(format #N, into a buffer) in FUNCTION: \"LITERAL\"\n"
"\n"
"    (a buffer counts when it reaches seq output, which spatch shows the\n"
"    audit),\n"
"\n"
"    then one line per conversion that can print an address:\n"
"\n"
"        FILE:LINE:COLUMN:   CLASS CONVERSION of ARGUMENT\n"
"\n"
"    CLASS is px, p-unhashed, int-cast, px-user, or cast? (a long-wide\n"
"    conversion of an integer cast whose operand may be a pointer).  The tree\n"
"    (--tree, or the first directory above FILE with Makefile, Kconfig and\n"
"    MAINTAINERS) gives the headers and the version; for an out-of-tree\n"
"    FILE, the kernel of --kernel does; without either, only the seq_file,\n"
"    seq_buf and trace_seq functions are known and %p is hashed.\n",
	.trailer =
"EXIT STATUS\n"
"    0, or 2 when a file cannot be read (or on a usage or write error).\n",
};

/* The conversions (or the written number) of a call that can print an address. */
static void print_findings(const char *name, const struct lex_call *c)
{
	size_t k;

	for (k = 0; k < c->nfindings; k++) {
		const struct lex_finding *f = &c->findings[k];

		if (f->cls && !strcmp(f->cls, "int"))
			continue;
		printf("%s:%u:%u:   %s %s of %s\n", name, f->line, f->column,
		       f->cls ? f->cls : "cast?", f->conversion, *f->arg ? f->arg : "(va_list)");
	}
}

static void print_file(const char *name, const struct lex_file *lf)
{
	size_t i, k;

	if (lf->broken)
		printf("%s: note: an unterminated comment or string literal: calls after it may be missed\n",
		       name);
	for (i = 0; i < lf->ncalls; i++) {
		const struct lex_call *c = &lf->calls[i];
		const char *o = c->fn->origin;

		/* text written as it is (seq_puts()): no value, no format */
		if (c->io == VOCAB_IO_TEXT)
			continue;
		if (c->io == VOCAB_IO_PUT) {
			printf("%s:%u: %s(value #%u) in %s: a number, no format\n", name, c->line,
			       c->fn->name, c->fn->fmt + 1, *c->function ? c->function : "(file scope)");
			print_findings(name, c);
			continue;
		}
		printf("%s:%u: %s(format #%u%s%s", name, c->line, c->fn->name, c->fn->fmt + 1,
		       c->fn->va ? ", va_list" : "", c->io == VOCAB_IO_BUF ? ", into a buffer" : "");
		/* a wrapper of a header: the path its format takes, and where it is defined */
		if (!strncmp(o, "macro:", 6) && strchr(o + 6, ':'))
			printf(", via %s, %s", c->fn->path ? c->fn->path : "?", o + 6);
		else if (!c->io && strcmp(o, "core") && strncmp(o, "macro:", 6) &&
			 strncmp(o, "function:", 9))
			printf(", %s", o);
		printf(") in %s: ", *c->function ? c->function : "(file scope)");
		if (c->opaque)
			printf("cannot be read: %s", c->opaque);
		for (k = 0; k < c->nformats; k++)
			printf("%s%s", k ? " | " : "", c->formats[k]);
		putchar('\n');
		print_findings(name, c);
	}
}

/*
 * --tokens (hidden, for the tests): the tokens of model/tokenize.c, one a
 * line, "FILE:LINE:COLUMN: KIND SPELLING" (column 0-based); KIND ends in
 * "!" for a literal or comment that never closes and "#" in a directive.
 * The spelling is escaped: \\ \n \r \t \s (a blank) \0 \xHH.
 */
static void print_tokens(const char *name, const char *buf, size_t len)
{
	static const char *const kinds[] = {
		[TOK_NAME] = "name", [TOK_NUMBER] = "number", [TOK_STRING] = "string",
		[TOK_CHAR] = "char", [TOK_PUNCT] = "punct", [TOK_OTHER] = "other",
		[TOK_HEADER] = "header", [TOK_COMMENT] = "comment",
	};
	struct tok_state s;
	struct token k;
	size_t i;

	tok_start(&s, buf, len, 1);
	while (tok_next(&s, &k)) {
		printf("%s:%u:%u: %s%s%s ", name, k.line, k.col, kinds[k.kind],
		       k.flags & TOKF_OPEN ? "!" : "", k.dir ? "#" : "");
		for (i = k.off; i < k.off + k.len; i++) {
			unsigned char c = (unsigned char)buf[i];

			if (c == '\\')
				fputs("\\\\", stdout);
			else if (c == '\n')
				fputs("\\n", stdout);
			else if (c == '\r')
				fputs("\\r", stdout);
			else if (c == '\t')
				fputs("\\t", stdout);
			else if (c == ' ')
				fputs("\\s", stdout);
			else if (c == 0)
				fputs("\\0", stdout);
			else if (c < 0x20 || c >= 0x7f)
				printf("\\x%02x", c);
			else
				putchar(c);
		}
		putchar('\n');
	}
}

int cmd_calls(int argc, char **argv)
{
	const char *tree = NULL, *kdir = NULL;
	int tokens = 0;
	const struct option opts[] = {
		OPT__TREE(&tree, "The kernel tree FILE belongs to: its headers and version."),
		OPT__KERNEL(&kdir, "FILE is out of tree, built against the kernel source or build\n"
			    "tree KDIR: its headers and version."),
		{ OPTION_BOOL, 0, "tokens", &tokens, NULL, "", PARSE_OPT_HIDDEN, NULL, 0, 0, 0 },
		OPT_END(),
	};
	int i, n, ret = EXIT_CLEAN;

	n = parse_options(argc, argv, opts, &help);
	if (n < 0)
		return EXIT_ERROR;
	if (!n) {
		error("no FILE given (see 'ptrguard calls --help')");
		return EXIT_ERROR;
	}
	if (kdir && cocci_use_kernel(kdir) < 0)
		return EXIT_ERROR;
	for (i = 0; i < n; i++) {
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
		if (tokens) {
			print_tokens(argv[i], buf, len);
			free(buf);
			continue;
		}
		lex_vocab_core(&v);
		abs = realpath(argv[i], NULL);
		if (abs)
			root = cocci_file_root(abs, tree, kdir != NULL);
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
	return ret;	/* stdout is checked at exit (ptrguard.c) */
}
