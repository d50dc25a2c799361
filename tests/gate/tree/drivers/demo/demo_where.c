// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/demo/where: a helper formats the object's address into its own
 * buffer for the kernel log; the show function prints its name
 * (tests/gate: ret-quiet).
 */
#include <linux/seq_file.h>

#include "demo.h"

static const char *demo_where(struct demo_obj *obj)
{
	static char where[64];

	snprintf(where, sizeof(where), "at %px", obj);
	return where;
}

void demo_log(struct demo_obj *obj)
{
	printk("demo %s\n", demo_where(obj));
}

static int demo_where_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "name %s\n", obj->name);
	return 0;
}
