// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep for the cast rule only: a buffer a snprintf() formats a
 * pointer cast into (%lx) is written by seq_puts() in the same function
 * (the rules look for it in a file that calls a seq printf).
 */
#include <linux/seq_file.h>

static int bufcast_show(struct seq_file *m, void *v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lx", (unsigned long)v);
	seq_puts(m, buf);
	seq_printf(m, "\n");
	return 0;
}
