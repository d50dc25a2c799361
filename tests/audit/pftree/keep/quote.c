// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: the character literal '"' before the format must not
 * be read as the start of a string, which would hide the %px.
 */
#include <linux/seq_file.h>

static int quote_show(struct seq_file *m, void *v)
{
	seq_printf(m, *(char *)v == '"' ? "quote %px\n" : "%p\n", v);
	return 0;
}
