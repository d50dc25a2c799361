// SPDX-License-Identifier: GPL-2.0
/* Fixture: %px of kernel pointers, printed to every reader. */
#include <linux/seq_file.h>

struct leak_obj {
	void *priv;
	unsigned long flags;
};

static int leak_show(struct seq_file *m, void *v)
{
	struct leak_obj *obj = v;

	seq_printf(m, "obj %px flags %lu\n", obj, obj->flags);
	seq_printf(m, "priv=%px\tname=%s\n", obj->priv, "leak");
	seq_printf(m, "%p %pK\n", obj, obj->priv);
	return 0;
}

static int leak_twice_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%px-%px\n", v, m);
	return 0;
}
