// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep for the cast rule only: pointers cast to integers and
 * printed with long-wide conversions, one of them split over literals,
 * one with its operand in parentheses (the cast is still the whole
 * argument: the paren isomorphism lets the rule match it; followed by a
 * binary operator it would not be, drop/nocast.c).  No %px: the %px rule
 * does not parse this file.
 */
#include <linux/seq_file.h>

struct cast_obj {
	void *regs;
};

static int cast_show(struct seq_file *m, void *v)
{
	struct cast_obj *obj = v;

	seq_printf(m, "regs %lx\n", (unsigned long)obj->regs);
	seq_printf(m, "obj %" "llx\n", (u64)(uintptr_t)obj);
	seq_printf(m, "regs %lx\n", (unsigned long)(obj->regs));
	return 0;
}
