// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: the format is a macro of this file.  The rules examine
 * only literal formats (they re-lex the call), so there is no finding,
 * but the file is parsed: the literal of the #define holds a %px.
 */
#include <linux/seq_file.h>

#define SHOW_FMT "obj %px\n"

static int define_show(struct seq_file *m, void *v)
{
	seq_printf(m, SHOW_FMT, v);
	return 0;
}
