// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's log: demo_log() writes to the kernel log for now, and the
 * show function hands it the object's address.  Harmless until demo_log()
 * prints to the seq_file instead (tests/gate: quiet-wrapper).
 */
#include <linux/printk.h>
#include <linux/seq_file.h>

#include "demo.h"

static void demo_log(struct seq_file *m, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

static unsigned long demo_log_level(const struct demo_obj *obj)
{
	return obj->flags & 7;
}

int demo_log_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "level: %lu\n", demo_log_level(obj));
	demo_log(m, "obj: %px\n", obj);
	return 0;
}
