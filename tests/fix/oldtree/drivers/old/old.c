// SPDX-License-Identifier: GPL-2.0
/* Before v4.15, plain %p is not hashed: ptrguard fix makes it %pK. */
#include "old_decls.h"

void old_show(struct seq_file *m, void *p);
void old_show(struct seq_file *m, void *p)
{
	seq_printf(m, "obj %p\n", p);
}
