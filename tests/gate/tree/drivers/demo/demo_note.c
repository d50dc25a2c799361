// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/demo/note: the object's address, and its flags through a wrapper
 * of this file's own whose name holds no "seq" (tests/gate: quiet-inert-own);
 * and an address held in an integer, cleared before it is printed
 * (quiet-inert-addr).
 */
#include <linux/seq_file.h>

#include "demo.h"

#define NOTE(m, fmt, ...) seq_printf(m, "note: " fmt, ##__VA_ARGS__)

int demo_note_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;
	unsigned long flags = obj->flags;

	seq_printf(m, "obj: %px\n", obj);
	NOTE(m, "flags: %lx\n", flags);
	return 0;
}

/* Clears what it is handed: the address below never reaches the file. */
static void demo_note_clear(unsigned long *val)
{
	*val = 0;
}

int demo_note_addr_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;
	unsigned long addr = (unsigned long)obj;

	demo_note_clear(&addr);
	seq_printf(m, "addr: %lx\n", addr);
	return 0;
}
