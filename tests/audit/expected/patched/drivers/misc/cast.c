// SPDX-License-Identifier: GPL-2.0
/* Fixture: a pointer cast to an integer and printed with %lx. */
#include <linux/seq_file.h>

struct cast_dev {
	void *regs;
};

static int cast_show(struct seq_file *m, void *v)
{
	struct cast_dev *dev = v;

	seq_printf(m, "regs %p\n", dev->regs);
	seq_printf(m, "self %p\n", dev);
	seq_printf(m, "count %lx\n", 16UL);
	return 0;
}
