// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: the format is a macro of this file, whose literal
 * holds a %px.  The lexical model reads the macro's literal (since
 * December 2026; before, no finding): px, placed at the #define.
 */
#include <linux/seq_file.h>

#define SHOW_FMT "obj %px\n"

static int define_show(struct seq_file *m, void *v)
{
	seq_printf(m, SHOW_FMT, v);
	return 0;
}
