/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge_impl: what the judge's two halves share: judge.c judges one
 * file, files.c runs it over the files of an audit (threads, cache).
 */
#ifndef PTRGUARD_JUDGE_IMPL_H
#define PTRGUARD_JUDGE_IMPL_H

#include <stddef.h>

struct cocci_fact;
struct cocci_result;

/* The facts of one file, sorted by line and column. */
struct facts {
	const struct cocci_fact *x;
	size_t n;
};

/*
 * Judge the calls of @rel (relative to @root) into @res, with the rules'
 * facts @fs for it and the lines spatch skipped there (@res->skips):
 * @px_ran, @cast_ran: the rules ran on it; @old: its tree prints a plain
 * %p unhashed; @lexical: judge from the text where no rule parsed a
 * call; @casts: the cast rule ran in this audit.
 */
void judge_file(const char *root, const char *rel, int px_ran, int cast_ran, int old,
		int lexical, int casts, int verbose, const struct facts *fs,
		struct cocci_result *res);

#endif
