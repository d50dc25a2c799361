// SPDX-License-Identifier: GPL-2.0
/* Fixture: %px of a user-space pointer. */
#include <linux/seq_file.h>

struct user_req {
	void __user *ubuf;
};

static int user_show(struct seq_file *m, void *v)
{
	void __user *ubuf = ((struct user_req *)v)->ubuf;

	seq_printf(m, "buf %px\n", ubuf);
	return 0;
}
