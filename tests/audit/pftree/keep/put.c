// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep for the cast rule only: a seq_put_hex_ll() takes a
 * pointer cast (its only literal is the delimiter, no format).
 */
#include <linux/seq_file.h>

static int put_show(struct seq_file *m, void *v)
{
	seq_put_hex_ll(m, " ", (unsigned long)v, 16);
	return 0;
}
