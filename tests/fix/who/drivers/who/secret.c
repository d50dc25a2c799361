// SPDX-License-Identifier: GPL-2.0
/* A /proc file created with mode 0400: root's only. */
#include "who_decls.h"

static int secret_show(struct seq_file *m, void *v)
{
	seq_printf(m, "key at %px\n", m->private);
	return 0;
}

static const struct seq_operations secret_sops = {
	.show = secret_show,
};

void secret_init(void);
void secret_init(void)
{
	proc_create_seq("who_secret", S_IRUSR, NULL, &secret_sops);
}
