// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, drop for both rules: no %px, and no seq call whose arguments
 * hold both a long-wide conversion and a cast to an integer type (a cast
 * whose parenthesized operand is divided is not the argument).
 */
#include <linux/seq_file.h>

struct nocast_obj {
	unsigned long flags;
	void *regs;
};

static int nocast_show(struct seq_file *m, void *v)
{
	struct nocast_obj *obj = v;

	seq_printf(m, "flags %lx\n", obj->flags);
	seq_printf(m, "low %x\n", (u32)(unsigned long)obj->regs);
	seq_printf(m, "pages %lu\n", (unsigned long)(obj->flags >> 2) / 4);
	seq_printf(m, "regs %p at %lx\n", obj->regs, *(unsigned long *)v);
	pr_info("regs %lx\n", (unsigned long)obj->regs);
	return 0;
}
