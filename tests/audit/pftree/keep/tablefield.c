// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: the long-wide conversion is in an array of formats,
 * not in the call, and the field printed is assigned a pointer cast:
 * the cast rule's field fact is needed.  Before December 2026 the file
 * was left out for the cast rule, and the lexical model could not read
 * the format either.
 */
#include <linux/seq_file.h>

struct tf_info {
	unsigned long base;
};

static const char *const tf_fmts[] = { "id: %d\n", "base: %lx\n" };

static void tf_setup(struct tf_info *info, void *regs)
{
	info->base = (unsigned long)regs;
}

static int tf_show(struct seq_file *m, struct tf_info *info)
{
	seq_printf(m, tf_fmts[1], info->base);
	return 0;
}
