// SPDX-License-Identifier: GPL-2.0
/* /proc/demo/users: printed through the demo's own macro only. */
#include "demo.h"
#include "demo_info.h"

int demo_users_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	DEMO_INFO(m, "users: %u\n", obj->users);
	return 0;
}
