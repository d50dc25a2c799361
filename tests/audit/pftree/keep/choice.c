// SPDX-License-Identifier: GPL-2.0
/* Prefilter, keep: a ?: choice of literals, one of them with %px. */
#include <linux/seq_file.h>

static int choice_show(struct seq_file *m, void *v)
{
	int raw = m != NULL;

	seq_printf(m, raw ? "raw %px\n" : "hashed %p\n", v);
	return 0;
}
