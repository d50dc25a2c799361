/* SPDX-License-Identifier: GPL-2.0 */
/*
 * away: where a formatted buffer leaves its function (the judge's
 * px-away and int-away notes), from the rules' "away" facts.
 */
#ifndef PTRGUARD_JUDGE_AWAY_H
#define PTRGUARD_JUDGE_AWAY_H

#include <stddef.h>

struct cocci_fact;

/*
 * The ways the buffer of the formatting call at @line:@column leaves its
 * function that do not end in a PG_BUF_SINK, as a message's tail
 * ("passed to g() at line 12, stored at line 14"), malloc()ed; NULL
 * when there is none.  @x: the @n facts of the call's file.
 */
char *judge_away(const struct cocci_fact *x, size_t n, unsigned int line, unsigned int column);

#endif
