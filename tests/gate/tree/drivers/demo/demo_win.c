// SPDX-License-Identifier: GPL-2.0
/*
 * win_show() holds a hexadecimal float spatch cannot parse, so the
 * lexical model reads its call, and it takes w->base for an integer
 * while the file declares a "long base" (tests/gate: inert-filewide).
 */
#include <linux/seq_file.h>

#include "demo.h"

struct demo_win {
	void *base;
};

static int win_show(struct seq_file *m, void *v)
{
	struct demo_win *w = m->private;
	int scale = 0x1p3;

	seq_printf(m, "base: %lx %d\n", (unsigned long)w->base, scale);
	return 0;
}

static int obj_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;
	long base = 0;

	seq_printf(m, "obj: %px\n", obj);
	return 0;
}
