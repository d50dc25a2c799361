// SPDX-License-Identifier: GPL-2.0
/*
 * A function that prints nothing, with a "}" in column 0 before its own
 * end, before one that prints a gated %px and whose head starts with a
 * typedef's name (tests/gate: quiet-skip2).  The parameter's name holds
 * "seq", so that spatch's slice keeps the body (quiet-skip's fixture).
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>

static void demo_skip2_set(int *seqp)
{
	if (*seqp) {
		*seqp = 1;
}
}

myint_t demo_skip2_show(struct seq_file *m, void *v)
{
	if (kallsyms_show_value(m->file->f_cred))
		seq_printf(m, "%px\n", v);
	return 0;
}
