// SPDX-License-Identifier: GPL-2.0
/* A macro wrapper of seq_printf(): its calls are fixed too. */
#include "demo_decls.h"

#define other_printf(m, fmt, args...) seq_printf(m, fmt, ##args)

void other_show(struct seq_file *m, void *p);
void other_show(struct seq_file *m, void *p)
{
	other_printf(m, "p=%px\n",
		     p);
}
