// SPDX-License-Identifier: GPL-2.0
/* A /proc file created with mode 0444, through seq_operations and proc_ops. */
#include "who_decls.h"

static int table_seq_show(struct seq_file *m, void *v)
{
	seq_printf(m, "entry %px\n", v);
	return 0;
}

static const struct seq_operations table_sops = {
	.show = table_seq_show,
};

static int table_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &table_sops);
}

static const struct proc_ops table_proc_ops = {
	.proc_open = table_open,
};

void table_init(void);
void table_init(void)
{
	proc_create("who_table", 0444, NULL, &table_proc_ops);
}
