// SPDX-License-Identifier: GPL-2.0
/*
 * Functions that print an address, for patches the gate must not take
 * for inert (tests/gate: inert-*): each edit below reads as a harmless
 * statement to a careless proof, yet adds a leak the rules find.
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>

#include "demo.h"

/* inert-digraph: "%> <%" closes the block before the %px and opens one */
static int demo_dg_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	if (kallsyms_show_value(m->file->f_cred)) {
		seq_puts(m, "obj: ");
		seq_printf(m, "%px\n", obj);
	}
	return 0;
}

/* inert-directive: a statement after the #pragma becomes the if's body */
static int demo_cfg_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "name: %s\n", obj->name);
	if (kallsyms_show_value(m->file->f_cred))
#pragma GCC diagnostic ignored "-Wformat"
		seq_printf(m, "obj: %px\n", obj);
	return 0;
}

/* inert-decl: spatch reads "addr * q;" as a declaration that ends addr's fact */
static int demo_held_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;
	unsigned long addr = (unsigned long)obj;
	int q = 2;
	addr * q;

	seq_printf(m, "obj: %px\n", obj);
	seq_printf(m, "addr: %lx\n", addr);
	return 0;
}
