// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, drop: no conversion a rule reports.  Hashed and restricted
 * pointers, %% before "px", "%px" only in comments, character literals,
 * and a "%08" completed by the next literal (so not a %px).
 */
#include <linux/seq_file.h>

static int hashed_show(struct seq_file *m, void *v)
{
	char pct = '%', p = 'p', x = 'x', quote = '"';

	/* seq_printf(m, "%px\n", v); */
	seq_printf(m, "%p %pK %pS 100%%px\n", v, v, v);	// not "%px"
	seq_printf(m, "%c%c%c%c\n", pct, p, x, quote);
	seq_printf(m, "%08" "x %" "d\n", 1, 2);
	return 0;
}
