// SPDX-License-Identifier: GPL-2.0
/* Fixture: an out-of-tree driver, clean before the patch. */
#include <linux/module.h>
#include <linux/seq_file.h>

struct mydrv {
	void __iomem *base;
	unsigned long irqs;
};

static int mydrv_show(struct seq_file *m, void *v)
{
	struct mydrv *drv = m->private;

	seq_printf(m, "irqs %lu\n", drv->irqs);
	return 0;
}

MODULE_LICENSE("GPL");
