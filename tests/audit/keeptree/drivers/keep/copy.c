// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: set_base() assigns a pointer cast to ->base, copy_base()
 * copies ->base to ->shown, show() prints ->shown (int-field, it holds
 * the pointer): those bodies stay.  copy_count() copies ->count, a field
 * no cast reaches: its body is blanked.
 */
struct seq_file;
int seq_printf(struct seq_file *m, const char *fmt, ...);

struct copy_dev {
	unsigned long base, shown, count, total;
};

static void set_base(struct copy_dev *d, void *p)
{
	d->base = (unsigned long)p;
}

static void copy_base(struct copy_dev *a, struct copy_dev *b)
{
	a->shown = b->base;
}

static int copy_count(struct copy_dev *a, struct copy_dev *b)
{
	a->total = b->count;
	return 1 2 3;
}

static int show(struct seq_file *m, struct copy_dev *d)
{
	seq_printf(m, "%lx\n", d->shown);
	return 0;
}
