// SPDX-License-Identifier: GPL-2.0
/* Prefilter, keep: %px with flags and widths, after a %% and a %p. */
#include <linux/seq_file.h>

static int width_show(struct seq_file *m, void *v)
{
	seq_printf(m, "100%% %p %-#016px|%*px\n", m, v, 8, v);
	return 0;
}
