// SPDX-License-Identifier: GPL-2.0
/* A debugfs file created with mode 0444: debugfs itself is root's (0700). */
#include "who_decls.h"

static int dbg_state_show(struct seq_file *m, void *v)
{
	seq_printf(m, "state %px\n", m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dbg_state);

void dbg_init(void);
void dbg_init(void)
{
	struct dentry *d = debugfs_create_dir("who", NULL);

	debugfs_create_file("state", 0444, d, NULL, &dbg_state_fops);
}
