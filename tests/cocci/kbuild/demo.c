// SPDX-License-Identifier: GPL-2.0
/*
 * A debugfs-style show() in a kernel tree, for the make coccicheck cases:
 * one %px leak, one pointer printed through (unsigned long) and %lx, one
 * %px gated by kallsyms_show_value().
 */
#include <linux/seq_file.h>
#include <linux/kallsyms.h>
#include <linux/fs.h>

struct ptrguard_demo {
	void *buf;
	unsigned long len;
};

static int ptrguard_demo_show(struct seq_file *m, void *v)
{
	struct ptrguard_demo *d = m->private;

	seq_printf(m, "buf %px len %lu\n", d->buf, d->len);
	seq_printf(m, "at 0x%lx\n", (unsigned long)d->buf);
	seq_printf(m, "%px\n",
		   kallsyms_show_value(m->file->f_cred) ? d->buf : NULL);
	return 0;
}
