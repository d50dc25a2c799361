// SPDX-License-Identifier: GPL-2.0
/* Fixture: %px whose value is zeroed unless the reader is privileged. */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>

static int gated_show(struct seq_file *m, void *v)
{
	void *addr = v;

	if (!kallsyms_show_value(m->file->f_cred))
		addr = NULL;
	seq_printf(m, "%px %s\n", addr, "gated");
	return 0;
}
