/* SPDX-License-Identifier: GPL-2.0 */
/* Just enough of the kernel for the fixtures to compile with gcc -fsyntax-only. */
#ifndef WHO_DECLS_H
#define WHO_DECLS_H

#define NULL ((void *)0)
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define S_IRUGO 0444
#define S_IRUSR 0400
#define PAGE_SIZE 4096

struct seq_file {
	void *private;
};
struct seq_buf {
	char *buffer;
};
struct dentry;
struct proc_dir_entry;
struct device;
struct device_attribute {
	const char *name;
};
struct inode;
struct file;
struct file_operations {
	int (*open)(struct inode *inode, struct file *file);
};
struct proc_ops {
	int (*proc_open)(struct inode *inode, struct file *file);
};
struct Scsi_Host {
	void *hostdata;
};
struct scsi_host_template {
	const char *proc_name;
	int (*show_info)(struct seq_file *m, struct Scsi_Host *host);
};
struct seq_operations {
	int (*show)(struct seq_file *m, void *v);
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
__printf(2, 3) int seq_buf_printf(struct seq_buf *s, const char *fmt, ...);
void seq_buf_init(struct seq_buf *s, char *buf, unsigned int size);
int seq_buf_used(struct seq_buf *s);
int seq_open(struct file *file, const struct seq_operations *ops);
int single_open(struct file *file, int (*show)(struct seq_file *, void *), void *data);
struct proc_dir_entry *proc_mkdir(const char *name, struct proc_dir_entry *parent);
struct proc_dir_entry *proc_create_single(const char *name, unsigned short mode,
					  struct proc_dir_entry *parent,
					  int (*show)(struct seq_file *, void *));
struct proc_dir_entry *proc_create(const char *name, unsigned short mode,
				   struct proc_dir_entry *parent, const struct proc_ops *ops);
struct proc_dir_entry *proc_create_seq(const char *name, unsigned short mode,
				       struct proc_dir_entry *parent,
				       const struct seq_operations *ops);
struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
struct dentry *debugfs_create_file(const char *name, unsigned short mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);
struct dentry *trace_create_file(const char *name, unsigned short mode, struct dentry *parent,
				 void *data, const struct file_operations *fops);
#define TRACE_MODE_WRITE 0640
#define DEFINE_SHOW_ATTRIBUTE(name) \
	static int name##_open(struct inode *inode, struct file *file) \
	{ return single_open(file, name##_show, (void *)inode); } \
	static const struct file_operations name##_fops = { .open = name##_open }
#define DEVICE_ATTR_RO(_name) \
	struct device_attribute dev_attr_##_name = { .name = #_name }

#endif
