// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep for the cast rule only: no seq call holds a cast, but a
 * local assigned a pointer cast is printed wide in the same function.
 */
#include <linux/seq_file.h>

struct held_obj {
	void *regs;
};

static int held_show(struct seq_file *m, void *v)
{
	struct held_obj *obj = v;
	unsigned long addr = (unsigned long)obj->regs;

	seq_printf(m, "regs %lx\n", addr);
	return 0;
}
