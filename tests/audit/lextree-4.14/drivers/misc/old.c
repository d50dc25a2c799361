// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture (v4.14): plain %p printed the raw address then, except of a
 * __user pointer, which is no kernel address.  The second function is
 * one spatch cannot parse; the lexical model judges it the same way.
 */
#include <linux/seq_file.h>

struct demo_req {
	void __user *ubuf;
	void *kbuf;
};

static int old_show(struct seq_file *m, void *v)
{
	struct demo_req *r = m->private;

	seq_printf(m, "user %p kernel %p\n", r->ubuf, r->kbuf);
	seq_printf(m, "sym %pS\n", r->kbuf);
	return 0;
}

static int old_skipped_show(struct seq_file *m, void *v)
{
	struct demo_req *r = m->private;

	demo_lock(r) demo_unlock(r);
	seq_printf(m, "user %p kernel %p\n", r->ubuf, r->kbuf);
	return 0;
}
