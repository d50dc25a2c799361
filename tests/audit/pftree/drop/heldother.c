// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, drop for both rules: a local assigned a pointer cast in one
 * function and a local of the same name printed in another; a narrow
 * cast; a cast with arithmetic, after it or after its parenthesized
 * operand; a snprintf() of a cast into a buffer no
 * seq call is given (a sysfs show()).
 */
#include <linux/seq_file.h>

struct other_obj {
	void *regs;
	unsigned long addr;
};

static unsigned long other_addr(struct other_obj *obj)
{
	unsigned long addr = (unsigned long)obj->regs;

	return addr >> 12;
}

static int other_show(struct seq_file *m, void *v)
{
	struct other_obj *obj = v;
	unsigned long addr = obj->addr + other_addr(obj);
	unsigned long low = (unsigned int)(unsigned long)v;
	unsigned long n = (unsigned long)v - 1;
	unsigned long q = (unsigned long)(obj->addr - 1) / 4;

	seq_printf(m, "addr %lx %lx %lu %lu\n", addr, low, n, q);
	return 0;
}

static int other_sysfs_show(struct other_obj *obj, char *page)
{
	return sprintf(page, "%lx\n", (unsigned long)obj->regs);
}
