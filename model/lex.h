/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lex: the C lexical model of seq-output calls.
 *
 * spatch parses C; where it cannot (an unknown macro, an odd declarator),
 * it skips lines, and a rule sees nothing there.  This model reads the
 * same text as tokens only (comments, literals, line splices, directives,
 * brackets): it finds each call of a seq-output function or of a wrapper
 * of one, the format it is given and the arguments after it, and judges
 * each conversion by model/format.c, the decoder of the other userspace parts.  It
 * knows no types: a privilege check that zeroes a value is not seen, a
 * __user pointer only by its declaration in the file's text, and a cast
 * only when its operand is visibly a pointer.
 */
#ifndef PTRGUARD_LEX_H
#define PTRGUARD_LEX_H

#include <stddef.h>

/* A function that prints a format to seq_file output. */
struct lex_fn {
	char *name;
	unsigned int fmt;	/* 0-based index of the format argument */
	int va;			/* takes a va_list, not the values */
	char *origin;		/* where it was found: "core", "FILE:LINE" */
	/*
	 * The callees a wrapper hands its format on to, down to a core
	 * function ("DRV_SEQ -> seq_printf"), or NULL (core, __printf()).
	 */
	char *path;
};

/* The seq-output functions a file can call. */
struct lex_vocab {
	struct lex_fn *fns;
	size_t nfns, alloc;
};

/* Add @name (@len bytes) unless known: its format is argument @fmt (0-based). */
void lex_vocab_add(struct lex_vocab *v, const char *name, size_t len, unsigned int fmt, int va,
		   const char *origin);
/* The same, for a wrapper that hands its format to @callee. */
void lex_vocab_add_via(struct lex_vocab *v, const char *name, size_t len, unsigned int fmt, int va,
		       const char *origin, const struct lex_fn *callee);
/* The seq_file, seq_buf and trace_seq printf functions and their va_list twins. */
void lex_vocab_core(struct lex_vocab *v);
/*
 * Add the functions a header declares with __printf(N, M) and a
 * struct seq_file *, struct seq_buf * or struct trace_seq * parameter
 * (gfs2_print_dbg() in fs/gfs2/glock.h).  @name names the header.
 */
void lex_vocab_scan_header(struct lex_vocab *v, const char *buf, size_t len, const char *name);
/*
 * Add what the headers of @root declare and define for a file @rel of
 * it: lex_vocab_table(@root), every header of the tree (for sources
 * outside a kernel tree, kernel.h, the module's and the kernel's include
 * path).
 */
void lex_vocab_tree(struct lex_vocab *v, const char *root, const char *rel);
/*
 * Add the wrapper macros the header text @buf defines over what @v knows:
 * function-like ones (as lex_scan() finds them in a file) and object-like
 * aliases ("#define DRV_SEQ seq_printf").  Origins are "macro:@name:LINE".
 * 1 if something was added (a wrapper of it may be in another header).
 */
int lex_vocab_scan_macros(struct lex_vocab *v, const char *buf, size_t len, const char *name);
/*
 * The tree-wide wrapper table of @root (a kernel tree, or an out-of-tree
 * module's directory with the kernel of kernel.h): every wrapper macro and
 * __printf() function of every header of the tree (of the module and of
 * the kernel's include path), to a fixed point.  Read once per process.
 * Names are global: a macro two drivers define is taken from the first.
 */
const struct lex_vocab *lex_vocab_table(const char *root);
/*
 * Let lex_vocab_table(@alias) answer with the table already made for
 * @root: a tree of links to @root's files whose headers are all @root's
 * (the gate's shadow trees, when a patch touches no header).
 */
void lex_vocab_table_alias(const char *alias, const char *root);
/*
 * The same for a tree whose headers are @root's but for the @n headers
 * @headers (relative paths), whose text in @alias is its own: the table is
 * @root's with those read again (the gate's shadow trees, when a patch
 * touches headers), with an identity of its own.
 */
void lex_vocab_table_overlay(const char *alias, const char *root, const char *const *headers,
			     size_t n);
/*
 * An identity of the table lex_vocab_table(@root) answers with: a new one
 * whenever the table is made from the headers, the cached one when it
 * comes from the cache (for a key of results that depend on the table).
 */
const char *lex_vocab_table_id(const char *root);
/* The callee path of @f as `ptrguard calls` shows it: "seq_printf" or "W -> seq_printf". */
char *lex_fn_path(const struct lex_fn *f);
const struct lex_fn *lex_vocab_find(const struct lex_vocab *v, const char *name, size_t len);
void lex_vocab_copy(struct lex_vocab *to, const struct lex_vocab *from);
void lex_vocab_free(struct lex_vocab *v);
void lex_fn_release(struct lex_fn *f);

/* What one conversion of a call prints, judged from the text. */
struct lex_finding {
	unsigned int line, column;	/* of the conversion, 1-based */
	/*
	 * px, p-unhashed, int-cast, px-user; NULL: see unknown_cast; "int":
	 * a long-wide integer conversion whose argument shows no pointer
	 */
	const char *cls;
	char *conversion;
	char *arg;		/* the argument, blanks squeezed */
	char *format;		/* the literal it is in, as written */
	/* a long-wide conversion of an integer cast whose operand may be a pointer */
	int unknown_cast;
	/* the 0-based argument of the call it prints, -1 for none (a va_list) */
	int argidx;
	unsigned int arg_line, arg_column;	/* where that argument starts, 1-based */
	char *message;		/* a message of its own; NULL: the class's */
	/* for a cast whose operand is visibly a pointer: how the text shows it */
	const char *pointer;
};

/* One call of a seq-output function or wrapper. */
struct lex_call {
	unsigned int line, column;	/* of the callee's name, 1-based */
	unsigned int end_line;	/* of its closing parenthesis */
	const struct lex_fn *fn;
	char *function;		/* enclosing function or macro, "" at file scope */
	char **formats;		/* each literal the format can be, as written */
	size_t nformats;
	/*
	 * Why the format cannot be read from the text (it is computed, a
	 * parameter, a variable assigned something else), or NULL.
	 */
	const char *opaque;
	int macro;		/* a word (a macro or a parameter) among the literals */
	/*
	 * In the body of a wrapper function that hands on its own format
	 * (SEQ_printf()): its callers are the calls to judge.
	 */
	int body;
	/*
	 * VOCAB_IO_NONE (0) for a seq printf or a wrapper; VOCAB_IO_PUT for a
	 * seq_put_* writer (no format: one finding for its value, the
	 * conversion named by the function); VOCAB_IO_BUF for a formatting
	 * call into a buffer (snprintf()), whose findings count only where
	 * spatch shows the buffer reaching seq output.
	 */
	int io;
	/* arguments after the format (a va_list counts as one) */
	unsigned int nvalues;
	struct lex_finding *findings;
	size_t nfindings;
};

struct lex_file {
	struct lex_call *calls;
	size_t ncalls;
	/* the wrappers the file defines (macros, functions), beyond @v's */
	char **wrappers;
	size_t nwrappers;
	/* where a wrapper's own body calls the function it wraps (line, column) */
	unsigned int (*bodies)[2];
	size_t nbodies;
	/* the text does not lex: an unterminated comment or string literal */
	int broken;
};

/*
 * lex_scan - the seq-output calls of the C text @buf and their findings
 * @v: the functions known before the file; the file's own wrappers (macros
 *     of every variadic shape, variadic functions handing their format to
 *     a va_list variant) are added to a copy
 * @hashed: plain %p is hashed (v4.15 and later)
 */
void lex_scan(const char *buf, size_t len, const struct lex_vocab *v, int hashed,
	      struct lex_file *out);
void lex_file_free(struct lex_file *f);
/*
 * Is the last name of the expression @expr (as spatch prints it: "d ->
 * ubuf") declared "__user *NAME" in the C text @buf, where the function
 * of line @line reads it (0: anywhere in the file), or a uapi user
 * pointer field of vocab.def?  spatch's parser drops __user, so only the
 * text can say.
 */
int lex_user_expr(const char *buf, size_t len, const char *expr, unsigned int line);

/* What a rule needs of a file's function bodies (lex_slice()). */
struct lex_slice_need {
	/*
	 * The seq output functions known (@v) and the wrappers the rule was
	 * given (@names, sorted by strcmp())
	 */
	const struct lex_vocab *v;
	char *const *names;
	size_t nnames;
	/*
	 * The lines (first, last) of the calls whose facts the judge reads:
	 * for seq_int_cast.cocci, a long-wide conversion of an integer cast
	 * (@calls) or of a field (@fields), and the bodies assigning an
	 * integer cast; for seq_px.cocci, a pointer conversion (@calls), and
	 * a name of a seq output function (@v, @names, @file_wrappers) that
	 * is not the callee of a call the model reads (@read: line and
	 * 1-based column of each callee, sorted), where spatch may parse a
	 * call the model does not.  @every_call (seq_px.cocci, for
	 * --list-formats): every body naming a seq output function instead.
	 */
	int cast_rule, every_call;
	const unsigned int (*calls)[2], (*fields)[2], (*read)[2];
	size_t ncalls, nfields, nread;
	char *const *file_wrappers;
	size_t nfile_wrappers;
	/*
	 * The lines of the seq output calls the model reads (NULL: a body
	 * naming one calls one): the rules' facts depend on their "seqcall"
	 * matching somewhere in the file, so one such body stays.
	 */
	const unsigned int *seq;
	size_t nseq;
	/* both: formatting calls into a buffer the rules follow */
	const unsigned int *lines;
	size_t nlines;
};
/*
 * lex_slice - the C text @buf with the code of every function body that
 * holds nothing @need names replaced by blanks (lines and columns kept),
 * malloc()ed and NUL-terminated, or NULL when no body can go; *@blanked
 * counts the bodies blanked.  model/lex_slice.c says what a rule needs.
 */
char *lex_slice(const char *buf, size_t len, const struct lex_slice_need *need,
		size_t *blanked);

#endif
