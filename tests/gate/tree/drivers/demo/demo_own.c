// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/demo/own: printed through a macro of this file's own.  Its
 * callers hand demo_own_line() a format it does not use yet
 * (tests/gate: quiet-own-wrapper).
 */
#include <linux/seq_file.h>

#include "demo.h"

#define OWN(m, fmt, ...) seq_printf(m, "own: " fmt, ##__VA_ARGS__)

static void demo_own_line(struct seq_file *m, const char *fmt, unsigned long v)
{
	OWN(m, "%s\n", "line");
}

int demo_own_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	demo_own_line(m, "%lx\n", (unsigned long)obj);
	return 0;
}
