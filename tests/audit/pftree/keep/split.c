// SPDX-License-Identifier: GPL-2.0
/* Prefilter, keep: %px split over adjacent literals, a comment between. */
#include <linux/seq_file.h>

static int split_show(struct seq_file *m, void *v)
{
	seq_printf(m, "a %" "px\n", v);
	seq_printf(m, "b %-8" /* width */ "p"
		   "x|\n", v);
	seq_printf(m, "c %p\
x\n", v);
	return 0;
}
