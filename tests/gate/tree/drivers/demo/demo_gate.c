// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's address file: the address is shown only to readers that
 * kallsyms_show_value() trusted when they opened it (tests/gate:
 * quiet-gate).
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>

#include "demo.h"

struct demo_iter {
	struct demo_obj *obj;
	int show_value;
};

static int demo_addr_show(struct seq_file *m, void *v)
{
	struct demo_iter *iter = m->private;
	void *value;

	value = iter->show_value ? (void *)iter->obj : NULL;
	seq_printf(m, "obj: %px\n", value);
	return 0;
}

static void demo_addr_start(struct demo_iter *iter, struct file *file)
{
	iter->show_value = kallsyms_show_value(file->f_cred);
}
