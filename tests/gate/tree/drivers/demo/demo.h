/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DEMO_H
#define DEMO_H

struct demo_obj {
	const char *name;
	unsigned long flags;
	unsigned int users;
	void *priv;
};

int demo_stats_show(struct seq_file *m, void *v);

#endif
