// SPDX-License-Identifier: GPL-2.0
/* Fixture: plain %p in a tree older than v4.15 prints the raw address. */
#include <linux/seq_file.h>

static int old_show(struct seq_file *m, void *v)
{
	seq_printf(m, "obj %p name %s\n", v, "old");
	seq_printf(m, "restricted %pK\n", v);
	return 0;
}
