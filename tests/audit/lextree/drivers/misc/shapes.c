// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: wrappers of seq_printf() in every shape the kernel writes them,
 * and formats held in local variables.  Each %px below is a leak.
 */
#include <linux/demo_print.h>
#include <linux/seq_file.h>

#define W_FMT(m, fmt, ...)	seq_printf(m, fmt, ##__VA_ARGS__)
#define W_PACK(m, x...)		seq_printf(m, x)
#define W_ANON(...)		seq_printf(__VA_ARGS__)
#define W_DO(m, fmt, args...)	do { seq_printf(m, fmt, ## args); } while (0)
#define W_TERN(m, fmt, ...)	((m) ? seq_printf(m, fmt, ##__VA_ARGS__) : \
				 printk(fmt, ##__VA_ARGS__))
#define W_IF(m, fmt, ...)					\
do {								\
	if (m)							\
		seq_printf(m, fmt, ##__VA_ARGS__);		\
	else							\
		pr_info(fmt, ##__VA_ARGS__);			\
} while (0)
#define W_PFX(m, fmt, ...)	seq_printf(m, "demo: " fmt, ##__VA_ARGS__)
#define W_W(m, x...)		W_PACK(m, x)

static int shapes_show(struct seq_file *m, void *v)
{
	W_FMT(m, "fmt %px\n", v);
	W_PACK(m, "pack %px\n", v);
	W_ANON(m, "anon %px\n", v);
	W_DO(m, "do %px\n", v);
	W_TERN(m, "tern %px\n", v);
	W_IF(m, "if %px\n", v);
	W_PFX(m, "pfx %px\n", v);
	W_W(m, "twice %px\n", v);
	W_FMT(m, "hashed %p\n", v);
	return 0;
}

static int headers_show(struct seq_file *m, void *v)
{
	demo_seq_print(m, "hdr %px\n", v);
	demo_buf_dbg(1, m->private, "buf %d %px\n", 2, v);
	demo_log("console %px\n", v);
	return 0;
}

static int vars_show(struct seq_file *m, void *v)
{
	const char *f = m->private ? "var %px\n" : "var %p\n";
	static const char tail[] = "tail %px\n";
	char buf[16];

	seq_printf(m, f, v);
	seq_printf(m, tail, v);
	snprintf(buf, sizeof(buf), "%%p");
	seq_printf(m, buf, v);
	return 0;
}
