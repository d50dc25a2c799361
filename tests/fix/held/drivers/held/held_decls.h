/* SPDX-License-Identifier: GPL-2.0 */
/* Just enough of the kernel for the fixtures to compile with gcc -fsyntax-only. */
#ifndef HELD_DECLS_H
#define HELD_DECLS_H

#define NULL ((void *)0)
#define __printf(a, b) __attribute__((format(printf, a, b)))

struct seq_file {
	void *private;
};
struct cred;
struct dentry;
struct file_operations {
	int (*show)(struct seq_file *m, void *v);
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
__printf(3, 4) int snprintf(char *buf, unsigned long size, const char *fmt, ...);
int kallsyms_show_value(const struct cred *cred);
struct dentry *debugfs_create_file(const char *name, unsigned short mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);
#define DEFINE_SHOW_ATTRIBUTE(name) \
	static const struct file_operations name##_fops = { .show = name##_show }

#endif
