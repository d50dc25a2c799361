// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: a literal ends inside a conversion ("%08") that a
 * macro completes.  No literal holds a %px, yet the file is parsed; the
 * lexical model reads the macro of the file, %08px (px).
 */
#include <linux/seq_file.h>

#define PTR_CONV "px"

static int partial_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%08" PTR_CONV "\n", v);
	return 0;
}
