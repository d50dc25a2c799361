// SPDX-License-Identifier: GPL-2.0
/*
 * For make coccicheck MODE=patch: the rewrite touches only the conversion
 * and the cast; comments between the arguments, line breaks and alignment
 * stay as written.
 */
#include <linux/seq_file.h>
#include <linux/trace_seq.h>

struct ptrguard_layout {
	void *buf;
	unsigned long len;
};

#define layout_printf(m, fmt, args...) seq_printf(m, fmt, ##args)

static int ptrguard_layout_show(struct seq_file *m, void *v)
{
	struct ptrguard_layout *l = m->private;

	seq_printf(m, "id %d at %px len %lu\n",
		   1,			/* which one */
		   l->buf,		/* the buffer */
		   l->len);		/* its length */
	seq_printf(m,
		   /* a leading comment */
		   "buf 0x%016lx\n",
		   (unsigned long)	/* no longer a pointer */
		   l->buf);
	layout_printf(m, "wrapped %px\n",
		      l->buf);
	seq_printf(m, "a line longer than spatch wraps: %lu %lu %lu %lu %lu %px\n", l->len, l->len, l->len, l->len, l->len, l->buf);
	return 0;
}

static void ptrguard_layout_trace(struct trace_seq *s, struct ptrguard_layout *l)
{
	trace_seq_printf(s, "%-8lu%px\n", l->len,
			 /* keep me */ l->buf);
}
