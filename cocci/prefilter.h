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
 * prefilter_scan_read() of the literals alone: PF_RAW, PF_PTR and
 * PF_WIDE_INT as it sets them, nothing of the calls (PF_INT_CAST).
 */
unsigned int prefilter_scan_formats(const char *buf, size_t len);

/*
 * The wrapper names the rules are given besides seq_printf() and its kin
 * (the tree's wrapper table, lex.h): a call of one counts as a call named
 * *seq* for PF_INT_CAST.  Copied.
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

#endif
