// SPDX-License-Identifier: GPL-2.0
/* Fixture: an out-of-tree driver with a %px leak and a cast leak. */
#include <linux/module.h>
#include <linux/seq_file.h>

struct mydrv {
	void __iomem *base;
	unsigned long irqs;
};

static int mydrv_show(struct seq_file *m, void *v)
{
	struct mydrv *drv = m->private;

	seq_printf(m, "drv %px irqs %lu\n", drv, drv->irqs);
	seq_printf(m, "base %lx\n", (unsigned long)drv->base);
	seq_printf(m, "hashed %p\n", drv);
	return 0;
}

MODULE_LICENSE("GPL");
