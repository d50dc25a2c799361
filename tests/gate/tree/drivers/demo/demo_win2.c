// SPDX-License-Identifier: GPL-2.0
/*
 * As demo_win.c, with the declaration the lexical model reads for
 * w->base in helper(), a function that prints nothing (tests/gate:
 * quiet-filewide).
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

static int helper(int x)
{
	long base = 0;
	return x + 1;
}

static int obj_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "obj: %px\n", obj);
	return 0;
}
