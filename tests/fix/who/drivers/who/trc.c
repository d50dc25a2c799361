// SPDX-License-Identifier: GPL-2.0
/* A tracefs file created with TRACE_MODE_WRITE (0640). */
#include "who_decls.h"

static int trc_buf_show(struct seq_file *m, void *v)
{
	seq_printf(m, "buffer %px\n", m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(trc_buf);

void trc_init(struct dentry *d_tracer);
void trc_init(struct dentry *d_tracer)
{
	trace_create_file("who_buf", TRACE_MODE_WRITE, d_tracer, NULL, &trc_buf_fops);
}
