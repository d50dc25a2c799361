// SPDX-License-Identifier: GPL-2.0
/*
 * What /proc/demo/info prints: the object's name, then its base.  The
 * gate's quiet-function cases change one function each (tests/gate/run).
 */
#include <linux/seq_file.h>

#include "demo.h"

struct demo_info {
	unsigned long base;
	const char *label;
};

static const struct demo_fmt { const char *fmt; } demo_info_fmts[] = { { "id: %d\n" }, { "base: %lx\n" } };

static int demo_info_name(struct seq_file *m, const struct demo_obj *obj)
{
	seq_printf(m, "name: %s\n", obj->name);
	seq_puts(m, "--\n");
	return 0;
}

static int demo_info_base(struct seq_file *m, struct demo_info *info)
{
	seq_printf(m, demo_info_fmts[1].fmt, info->base);
	return 0;
}

static void demo_info_setup(struct demo_info *info, struct demo_obj *obj)
{
	info->label = obj->name;
	info->base = obj->flags;
}

int demo_info_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;
	struct demo_info info;

	demo_info_setup(&info, obj);
	demo_info_name(m, obj);
	return demo_info_base(m, &info);
}
