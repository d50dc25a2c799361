// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: set_base() assigns a pointer cast to ->base.  copy_two()
 * copies ->base to ->near (followed at once) and ->mid to ->far, where
 * ->mid becomes a copy of ->base only in copy_mid(), further down: the
 * slice must read copy_two() again once ->mid is known, so that
 * copy_far(), which copies ->far to ->shown, stays and show() prints a
 * field that holds the pointer (int-field).
 */
struct seq_file;
int seq_printf(struct seq_file *m, const char *fmt, ...);

struct chain_dev {
	unsigned long base, near, mid, far, shown;
};

static void copy_far(struct chain_dev *a, struct chain_dev *b)
{
	a->shown = b->far;
}

static void copy_two(struct chain_dev *a, struct chain_dev *b)
{
	a->far = b->mid;
	a->near = b->base;
}

static void copy_mid(struct chain_dev *a, struct chain_dev *b)
{
	a->mid = b->base;
}

static void set_base(struct chain_dev *d, void *p)
{
	d->base = (unsigned long)p;
}

static void title(struct seq_file *m)
{
	seq_printf(m, "chain\n");
}

static int show(struct seq_file *m, struct chain_dev *d)
{
	seq_printf(m, "%lx\n", d->shown);
	return 0;
}
