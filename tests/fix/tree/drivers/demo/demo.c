// SPDX-License-Identifier: GPL-2.0
/*
 * A driver that leaks kernel addresses into a debugfs file: ptrguard fix
 * must rewrite the conversions and the cast, and nothing else.
 */
#include "demo_decls.h"

struct demo {
	void *buf;
	unsigned long len;
};

static struct demo the_demo;

static int demo_state_show(struct seq_file *m, void *v)
{
	struct demo *d = m->private;

	seq_printf(m, "buf %px len %lu\n",
		   d->buf,		/* the buffer */
		   d->len);		/* its length */
	seq_printf(m,
		   /* where it lives */
		   "at 0x%016lx\n",
		   (unsigned long)	/* was a pointer */
		   d->buf);
	seq_printf(m, "first %d "	/* two pieces */
		   "then %px\n", 1, d->buf);
	seq_printf(m, "gated %px\n", kallsyms_show_value(NULL) ? d->buf : NULL);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(demo_state);

void demo_init(void);
void demo_init(void)
{
	debugfs_create_file("state", 0444, NULL, &the_demo, &demo_state_fops);
}
