// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/demo/info: a line formatted by a helper into its own buffer,
 * which the show function prints (tests/gate: ret-leak).
 */
#include <linux/seq_file.h>

#include "demo.h"

static const char *demo_info(struct demo_obj *obj)
{
	static char info[64];

	snprintf(info, sizeof(info), "demo %s", obj->name);
	return info;
}

static int demo_info_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "%s\n", demo_info(obj));
	return 0;
}
