// SPDX-License-Identifier: GPL-2.0
/* /proc/demo/flags: text and numbers written without a format. */
#include <linux/seq_file.h>

#include "demo.h"

int demo_flags_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_puts(m, "flags:");
	seq_put_decimal_ull(m, " ", obj->flags);
	seq_putc(m, '\n');
	return 0;
}
