// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: spatch cannot parse skipped_show() (a statement macro used
 * without its semicolon): the lexical model judges its calls.
 */
#include <linux/seq_file.h>

struct demo {
	unsigned long *table;
	unsigned long count;
	void *priv;
};

static int skipped_show(struct seq_file *m, void *v)
{
	struct demo *d = m->private;
	void *p = d->priv;

	demo_lock(d) demo_unlock(d);
	seq_printf(m, "obj %px\n", v);
	seq_printf(m, "hashed %p\n", v);
	seq_printf(m, "table %lx\n", (unsigned long)d->table);
	seq_printf(m, "priv %lx at %lx\n", (unsigned long)p, (unsigned long)&d->count);
	seq_printf(m, "count %lu\n", (unsigned long)d->count);
	seq_printf(m, "size %lx\n", (unsigned long)demo_size(d));
	seq_printf(m, d->priv, v);
	return 0;
}

static int parsed_show(struct seq_file *m, void *v)
{
	struct demo *d = m->private;

	seq_printf(m, "count %lu\n", (unsigned long)d->count);
	seq_printf(m, "obj %px\n", v);
	return 0;
}
