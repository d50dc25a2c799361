// SPDX-License-Identifier: GPL-2.0
/* A /proc file created with mode 0: proc makes it 0444. */
#include "who_decls.h"

struct stats {
	void *slab;
};

static int who_stats_show(struct seq_file *m, void *v)
{
	struct stats *s = m->private;

	seq_printf(m, "slab %px\n", s->slab);
	return 0;
}

void who_stats_init(void);
void who_stats_init(void)
{
	struct proc_dir_entry *dir = proc_mkdir("who", NULL);

	proc_create_single("stats", 0, dir, who_stats_show);
}
