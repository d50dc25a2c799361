// SPDX-License-Identifier: GPL-2.0
/*
 * Gate fixture: spatch cannot parse the per-cpu declaration (standard.h
 * expands DEFINE_PER_CPU into something its parser rejects) nor the first
 * function (a statement macro used without its semicolon), before and
 * after any patch.  The lexical model judges what it skips.
 */
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "demo.h"

static DEFINE_PER_CPU(struct demo_obj *, demo_last);

static int demo_percpu_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "name: %s\n", obj->name);
	demo_lock(obj) demo_unlock(obj);
	seq_printf(m, "last: %px\n", this_cpu_read(demo_last));
	return 0;
}

static int demo_percpu_users_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	seq_printf(m, "users: %u\n", obj->users);
	return 0;
}
