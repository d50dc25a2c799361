/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prefilter_impl.h: the reading of C text that prefilter.c (which files a
 * rule can report something in) lends prefilter_same.c (whether a change
 * can change what the rules report).  Not for other callers: prefilter.h
 * is the interface.
 */
#ifndef PTRGUARD_PREFILTER_IMPL_H
#define PTRGUARD_PREFILTER_IMPL_H

#include <stddef.h>

/* A spliced text (backslash-newlines removed), as both read it. */
struct pf_text {
	const char *t;
	size_t n;
};

/* Is @c a byte of a word (identifier or number)? */
int pf_word_byte(unsigned char c);
/* The first byte at or after @i of @t (@n bytes) that is no blank or comment. */
size_t pf_skip_blank(const char *t, size_t n, size_t i);
/* The end of the character literal at @i (an apostrophe), or 0 if it starts none. */
size_t pf_char_literal(const char *t, size_t n, size_t i);
/* Is @w (@len bytes) the word @name? */
int pf_is_word(const char *w, size_t len, const char *name);
/* Is @w a wrapper the rules were given (prefilter_set_wrappers())? */
int pf_is_wrapper(const char *w, size_t len);
/* Does @w hold "seq" or "SEQ", or is it such a wrapper? */
int pf_has_seq(const char *w, size_t len);
/* The length of the line splice at @buf[@i], or 0. */
size_t pf_splice_len(const char *buf, size_t len, size_t i);
/*
 * @buf without its line splices: a NUL-terminated copy (its length in
 * *@out), or NULL when @nul says @buf ends in a NUL and has none.
 */
char *pf_splice(const char *buf, size_t len, int nul, size_t *out);
/*
 * prefilter_scan() of @buf; @field_held (if not NULL) set when it assigns
 * a field an integer cast that may hold a pointer.
 */
unsigned int pf_scan_text(const char *buf, size_t len, int nul, int *field_held);

#endif
