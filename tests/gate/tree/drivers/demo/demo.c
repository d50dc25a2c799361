// SPDX-License-Identifier: GPL-2.0
/*
 * A demo driver for the ptrguard gate tests: /proc/demo/state prints the
 * state of a demo object, and /proc/demo/debug still prints its address.
 */
#include <linux/seq_file.h>

#include "demo.h"

static int demo_state_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "name: %s\n", obj->name);
	seq_printf(m, "flags: %lx\n", obj->flags);
	seq_printf(m, "users: %u\n", obj->users);
	return 0;
}

static int demo_debug_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "name: %s\n", obj->name);
	seq_printf(m, "obj: %px\n", obj);
	return 0;
}

int demo_show(struct seq_file *m, void *v)
{
	demo_state_show(m, v);
	demo_debug_show(m, v);
	return demo_stats_show(m, v);
}
