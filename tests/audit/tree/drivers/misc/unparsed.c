// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: spatch cannot parse the first function (standard.h expands
 * DEFINE_PER_CPU into something its parser rejects), but still examines
 * the rest of the file.
 */
#include <linux/percpu.h>
#include <linux/seq_file.h>

static DEFINE_PER_CPU(struct seq_file *, last_seq);

static int broken_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%px\n", v);
	return 0;
}

static int after_show(struct seq_file *m, void *v)
{
	seq_printf(m, "after %px\n", v);
	return 0;
}
