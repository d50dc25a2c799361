// SPDX-License-Identifier: GPL-2.0
/* Fixture: seq output that prints no raw address. */
#include <linux/seq_file.h>

static int clean_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%p %pK %pS\n", v, v, v);
	seq_puts(m, "nothing to see\n");
	return 0;
}
