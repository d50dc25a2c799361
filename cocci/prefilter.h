/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prefilter: which of the cocci/ rules can report anything in a file,
 * decided from its text before spatch parses it.
 *
 * The rules only report conversions of format literals written in the
 * file itself (they re-lex the format from the source), so a file whose
 * literals hold no conversion a rule reports cannot give that rule a
 * finding.  The conversions are decoded by model/format.c, the one decoder of the
 * userspace tools, which decodes as vsnprintf() and the rules do.  The answer
 * is conservative: anything the scan cannot rule out counts as present.
 */
#ifndef PTRGUARD_PREFILTER_H
#define PTRGUARD_PREFILTER_H

#include <stddef.h>
#include <stdint.h>

/* What prefilter_scan() found in a file; bits of its result. */
enum {
	/* a %px (flags and width allowed) in a literal */
	PF_RAW = 1u << 0,
	/* a %p of any extension: plain %p leaks on trees before v4.15 */
	PF_PTR = 1u << 1,
	/* a long-wide integer conversion: %lx %llu %zx %tx %Lx %Zx... */
	PF_WIDE_INT = 1u << 2,
	/*
	 * a call whose name contains "seq" or "SEQ" and whose arguments hold
	 * both a literal with a long-wide integer conversion (PF_WIDE_INT)
	 * and, at the start of an argument (after "(" or ","), a cast to an
	 * integer type of seq_int_cast.cocci's list: "(unsigned long)",
	 * "(u64)", "(const size_t)"...  Nested parentheses count too.
	 */
	PF_INT_CAST = 1u << 3,
};

/*
 * prefilter_scan - the PF_* bits that hold for the C text @buf
 *
 * Reads @buf as C after line splicing: comments and character literals
 * are skipped, adjacent string literals are joined, and each run of them
 * is walked by fmt_next() as the rules read a format: as written, escapes
 * not decoded.  A run that ends inside a conversion ("%", "%08", the start
 * of a format completed by a macro) or holds a conversion character the
 * rules could read otherwise sets PF_RAW, PF_PTR and PF_WIDE_INT.
 * Every literal counts, in #define bodies and #if 0 blocks too.
 */
unsigned int prefilter_scan(const char *buf, size_t len);
/*
 * The same for a text with a NUL at @buf[@len], as read_file() leaves it:
 * read in place when it has no line to splice (no copy).
 */
unsigned int prefilter_scan_read(const char *buf, size_t len);

/*
 * The wrapper names the rules are given besides seq_printf() and its kin
 * (the tree's wrapper table, lex.h): a call of one counts as a call named
 * *seq* for PF_INT_CAST and for prefilter_same_findings().  Copied.
 */
void prefilter_set_wrappers(const char *const *names, size_t n);

/* The bits of prefilter_scan() that rule @name ("seq_px.cocci", ...) needs. */
enum pf_rule {
	PF_RULE_PX,		/* seq_px.cocci: px, px-gated, px-user, p-unhashed */
	PF_RULE_INT_CAST,	/* seq_int_cast.cocci: int-cast */
	PF_RULE_OTHER,		/* unknown rule: no prefilter, keep every file */
};
enum pf_rule prefilter_rule(const char *name);

/*
 * prefilter_keep - can rule @r report something in the file at @path,
 * given @bits = prefilter_scan() of its text?
 *
 * seq_px: PF_RAW, or PF_PTR in a tree older than v4.15 (VERSION and
 * PATCHLEVEL of the first Makefile above @path that has them, as the rule
 * reads them; cached per directory).  seq_int_cast: PF_INT_CAST.  Other
 * rules: always.
 */
int prefilter_keep(enum pf_rule r, unsigned int bits, const char *path);

/* Is the tree holding @path older than v4.15 (plain %p not hashed)?  As prefilter_keep(). */
int prefilter_tree_is_old(const char *path);
/*
 * Sources outside a kernel tree (kernel.h): the version is the kernel's,
 * not a Makefile's above the file: @old for every path (-1: look again).
 */
void prefilter_set_old(int old);

/*
 * What the lexical model says of the seq calls in lines @first..@last of
 * text @which (0: before, 1: after) of prefilter_same_findings(): 1 if
 * each prints nothing a rule reports - its format read from literals that
 * hold no conversion it judges, no value written without a format, no
 * wrapper's own body - or, with @none, if there is no such call at all.
 * The gate asks it (gate.c); the prefilter knows only names, not which of
 * a call's arguments is its format, nor the wrappers a file defines.
 */
struct pf_judge {
	int (*quiet_calls)(void *ctx, int which, unsigned int first, unsigned int last,
			   int none);
	/*
	 * The calls the lexical model reads in those lines, their callees,
	 * formats and counts in order (not their lines), as a fingerprint;
	 * 0 when it cannot read the text.
	 */
	uint64_t (*calls_print)(void *ctx, int which, unsigned int first, unsigned int last);
	void *ctx;
};

/*
 * prefilter_same_findings - can no rule tell the two texts apart?
 *
 * True if @after differs from @before only inside the bodies of function
 * definitions (same count and order of top-level declarations and
 * definitions, same text outside those bodies, same function heads) and
 * each such function, before and after, is quiet: none of the words a
 * rule reads file-wide (a typedef, __user, the privilege checks of the
 * px-gated rules), no literal with a conversion prefilter_scan() reports,
 * no field assigned an integer cast (a field fact reaches every print of
 * the field), no seq-output function or wrapper named other than in a
 * call, the same preprocessor lines, and either @j (NULL: none) says
 * every call the lexical model finds there - of a seq function, of a
 * wrapper of the tree or of the file - prints nothing a rule reports
 * (then it is no local seq wrapper either), or, without @j, no call of a
 * name holding "seq" or "SEQ" or of a tree's wrapper.  The rules report
 * a call in the function that holds it, by the conversions of its
 * format: such a change can give no finding and take none away, so no
 * rule needs to run.  A function that is not quiet passes too when the
 * change only adds or removes inert statements (with @j only): between
 * the statements the two bodies share at their start and at their end,
 * each statement, before and after, is a declaration or an expression in
 * plain C that spatch parses (no control flow, label, "?:", brace,
 * digraph, ++ or op=, reserved name; only integer numbers) whose every
 * name is new to the file, but a C word, a member and a function called
 * outside a declarator; it assigns only a declaration's initializers and
 * names nothing a rule reads (a seq function or wrapper, a writer, a
 * buffer printf, a privilege check, __user, typedef) and no literal a
 * rule reports; the statement before them is whole, the one after
 * starts no else or while; and @j finds no call in their lines and the
 * same calls in the whole function.  Either way, neither text may hold
 * what spatch, GCC, the lexical model and this reading take apart (a
 * carriage return alone, a vertical tab, a form feed, a line splice
 * outside a directive, a {{coccinelle:...}} tag, an apostrophe that
 * opens no character literal as the prefilter reads one, a string left
 * open); each changed function must end in a "}" in column 0 and start
 * no other line of its body there but a directive or a label (spatch's
 * skip of what it cannot parse stops at the first); and the lexical model
 * must read the declarations of every name both texts hold alike
 * (file-wide, for casts in lines spatch cannot parse).
 * The facts a rule gathers about the calls - arguments, types, casts
 * held in locals, privilege conditions - are then the same.  False
 * whenever the text cannot be split in balanced top-level pieces.
 */
int prefilter_same_findings(const char *before, size_t blen,
			    const char *after, size_t alen, const struct pf_judge *j);

#endif
