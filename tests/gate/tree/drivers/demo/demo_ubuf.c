// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/demo/buf: a write handler whose user buffer is named "buf", and a
 * show function whose kernel buffer is named "buf" too (tests/gate:
 * user-elsewhere).
 */
#include <linux/seq_file.h>
#include <linux/fs.h>

#include "demo.h"

static ssize_t demo_buf_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	return count;
}

static int demo_buf_show(struct seq_file *m, void *v)
{
	struct demo_obj *buf = m->private;

	seq_printf(m, "buf: %p\n", buf);
	return 0;
}
