// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard_e2e - seq_file output with known address leaks, for tests/e2e
 *
 * Every file under /proc/ptrguard_e2e/ is a seq_file that prints one record
 * per line, "rec N ok", except for one record in the middle, "rec N
 * NAME=TEXT", whose TEXT comes from one printf conversion under test: a leak class (%px of a
 * kernel pointer, %p, %pK, %pS of an address with no symbol, %pV wrapping
 * %px, %lx of a pointer cast) or a clean control (%pS of a symbol, %pI4,
 * %pM, %px of a user-range value, of NULL, of an ERR_PTR, %lx of a small
 * number).  The e2e guest reads them with and without privileges under
 * every guard mode and checks which records arrive.
 *
 * The one kernel address the leaks print is that of a kmalloc'd object;
 * module init logs it once with printk (which the guard does not touch), so
 * the guest can look for its bytes in whatever a refused read delivered.
 *
 * Each file has its own show function and its own format literal (the
 * file name is in it), so each leak is a call site of its own for the
 * guard's "log once per call site" mode.  Two debugfs files
 * share the show functions of their /proc twins on purpose: same call site.
 *
 * Three leaks take other ways into a record: seq_put_decimal_ull() and
 * seq_put_decimal_ll() (no format; seq_put_hex_ll() and
 * seq_put_decimal_ull_width() are not exported to modules), seq_bprintf() (a printf recorded by bprintf() and printed
 * later, as BPF iterators do), each with a clean control.
 *
 * The oracle file, /proc/ptrguard_e2e/oracle (mode 0666), prints a value
 * its opener chooses: write "VIA HEX" to an open file, then read it from
 * the start; VIA is px (%px), lx (%lx), udec (seq_put_decimal_ull()) or
 * sdec (seq_put_decimal_ll() of the value as a long long).  The value is
 * the opener's own (kept with the open file), as a user-chosen value in a
 * real /proc file is: the e2e guest asks the guard about mapped and
 * unmapped kernel addresses through it and checks that the verdict does
 * not tell them apart.
 *
 * One leak is binary and not seq_file output at all: an ELF note whose
 * desc is the address of e2e_obj (the variable), relocated by the module
 * loader, which sysfs shows as /sys/module/ptrguard_e2e/notes/.note.PtrGuard
 * (as /sys/kernel/notes showed vmlinux's in CVE-2024-26816).  The live
 * scanner must find it there; the guard does not cover it.
 */
#include <linux/debugfs.h>
#include <linux/elfnote.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/* The record that carries the conversion under test, in the short files. */
#define E2E_SHORT	8
#define E2E_SHORT_AT	4
/* A file longer than one seq_file page, leaking far into it. */
#define E2E_LONG	2000
#define E2E_LONG_AT	1500
/* The pointer-heavy file for bench/guard-overhead.sh: no leak when hashed. */
#define E2E_HEAVY	1000

static void *e2e_obj;

/*
 * Name "PtrGuard" (9 bytes with the NUL, padded to 12) puts the desc at
 * byte 24 of the note file: 8-byte aligned, little-endian.
 */
ELFNOTE64("PtrGuard", 1, &e2e_obj);

static const u8 e2e_mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };
static const __be32 e2e_ip4 = cpu_to_be32(0x7f000001);

struct e2e_file {
	const char *name;
	int (*show)(struct seq_file *m, void *v);
	loff_t records;
};

static const struct e2e_file *e2e_file_of(struct seq_file *m);

static void *e2e_start(struct seq_file *m, loff_t *pos)
{
	return *pos < e2e_file_of(m)->records ? pos : NULL;
}

static void *e2e_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return *pos < e2e_file_of(m)->records ? pos : NULL;
}

static void e2e_stop(struct seq_file *m, void *v)
{
}

/*
 * Print record @v if it is a plain one and return true; return false for
 * the record at @at, which the caller prints with its conversion under test.
 */
static bool e2e_plain(struct seq_file *m, void *v, loff_t at)
{
	loff_t i = *(loff_t *)v;

	if (i == at)
		return false;
	seq_printf(m, "rec %lld ok\n", i);
	return true;
}

#define E2E_SHOW(name, fmt, arg)					\
static int e2e_show_##name(struct seq_file *m, void *v)		\
{									\
	if (!e2e_plain(m, v, E2E_SHORT_AT))				\
		seq_printf(m, "rec %d " #name "=" fmt "\n",		\
			   E2E_SHORT_AT, arg);					\
	return 0;							\
}

/* Leaks: each prints e2e_obj, raw at least in some configuration. */
E2E_SHOW(px, "%px", e2e_obj)
E2E_SHOW(p, "%p", e2e_obj)
E2E_SHOW(pK, "%pK", e2e_obj)
E2E_SHOW(pS_nosym, "%pS", e2e_obj)
E2E_SHOW(lx, "%lx", (unsigned long)e2e_obj)

/* Clean controls: no kernel address in any configuration. */
E2E_SHOW(pS_sym, "%pS", e2e_stop)
E2E_SHOW(pI4, "%pI4", &e2e_ip4)
E2E_SHOW(pM, "%pM", e2e_mac)
E2E_SHOW(px_user, "%px", (void *)0x7ffc1000UL)
E2E_SHOW(px_null, "%px", NULL)
E2E_SHOW(px_err, "%px", ERR_PTR(-ENOENT))
E2E_SHOW(lx_small, "%lx", 0x1234UL)

/*
 * The same through seq_put_decimal_ull(), which prints with no format
 * (seq_put_hex_ll() is not exported to modules; /proc/PID/maps uses it).
 */
#define E2E_PUT_DEC(name, val)						\
static int e2e_show_##name(struct seq_file *m, void *v)		\
{									\
	if (!e2e_plain(m, v, E2E_SHORT_AT)) {				\
		seq_printf(m, "rec %d ", E2E_SHORT_AT);			\
		seq_put_decimal_ull(m, #name "=", (unsigned long)(val));	\
		seq_putc(m, '\n');					\
	}								\
	return 0;							\
}

E2E_PUT_DEC(put_dec, e2e_obj)			/* a leak */
E2E_PUT_DEC(put_dec_user, 0x7ffc1000UL)		/* clean */

/* seq_put_decimal_ll(): the address as a (negative) long long */
static int e2e_show_put_dec_ll(struct seq_file *m, void *v)
{
	if (!e2e_plain(m, v, E2E_SHORT_AT)) {
		seq_printf(m, "rec %d ", E2E_SHORT_AT);
		seq_put_decimal_ll(m, "put_dec_ll=", (long)e2e_obj);
		seq_putc(m, '\n');
	}
	return 0;
}

/*
 * The same through seq_bprintf(), which prints a printf recorded earlier
 * by bprintf() (as BPF iterators' bpf_seq_printf() does).
 */
#define E2E_BPRINTF(name, fmt, arg)					\
static int e2e_show_##name(struct seq_file *m, void *v)		\
{									\
	u32 bin[8];							\
									\
	if (!e2e_plain(m, v, E2E_SHORT_AT)) {				\
		bprintf(bin, ARRAY_SIZE(bin), "rec %d " #name "=" fmt "\n",	\
			E2E_SHORT_AT, arg);				\
		seq_bprintf(m, "rec %d " #name "=" fmt "\n", bin);	\
	}								\
	return 0;							\
}

E2E_BPRINTF(bprintf, "%lx", (unsigned long)e2e_obj)	/* a leak */
E2E_BPRINTF(bprintf_user, "%lx", 0x7ffc1000UL)		/* clean */

static __printf(2, 3) void e2e_print_va(struct seq_file *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	seq_printf(m, "rec %d pV=%pV\n", E2E_SHORT_AT, &vaf);
	va_end(args);
}

static int e2e_show_pV(struct seq_file *m, void *v)
{
	if (!e2e_plain(m, v, E2E_SHORT_AT))
		e2e_print_va(m, "%px", e2e_obj);
	return 0;
}

static int e2e_show_px_long(struct seq_file *m, void *v)
{
	if (!e2e_plain(m, v, E2E_LONG_AT))
		seq_printf(m, "rec %d px_long=%px\n", E2E_LONG_AT, e2e_obj);
	return 0;
}

/* Several pointer conversions per record, none raw while hashing is on. */
static int e2e_show_heavy(struct seq_file *m, void *v)
{
	loff_t i = *(loff_t *)v;

	seq_printf(m, "rec %lld %p %pK %pS %lx %pI4\n", i, e2e_obj, e2e_obj,
		   e2e_stop, (unsigned long)i, &e2e_ip4);
	return 0;
}

static const struct e2e_file e2e_files[] = {
	{ "px", e2e_show_px, E2E_SHORT },
	{ "p", e2e_show_p, E2E_SHORT },
	{ "pK", e2e_show_pK, E2E_SHORT },
	{ "pS_nosym", e2e_show_pS_nosym, E2E_SHORT },
	{ "pV", e2e_show_pV, E2E_SHORT },
	{ "lx", e2e_show_lx, E2E_SHORT },
	{ "pS_sym", e2e_show_pS_sym, E2E_SHORT },
	{ "pI4", e2e_show_pI4, E2E_SHORT },
	{ "pM", e2e_show_pM, E2E_SHORT },
	{ "px_user", e2e_show_px_user, E2E_SHORT },
	{ "px_null", e2e_show_px_null, E2E_SHORT },
	{ "px_err", e2e_show_px_err, E2E_SHORT },
	{ "lx_small", e2e_show_lx_small, E2E_SHORT },
	{ "put_dec", e2e_show_put_dec, E2E_SHORT },
	{ "put_dec_user", e2e_show_put_dec_user, E2E_SHORT },
	{ "put_dec_ll", e2e_show_put_dec_ll, E2E_SHORT },
	{ "bprintf", e2e_show_bprintf, E2E_SHORT },
	{ "bprintf_user", e2e_show_bprintf_user, E2E_SHORT },
	{ "px_long", e2e_show_px_long, E2E_LONG },
	{ "heavy", e2e_show_heavy, E2E_HEAVY },
};

/* The debugfs twins: same show functions, so the same call sites. */
static const char *const e2e_debugfs_names[] = { "px", "lx" };

static struct seq_operations e2e_ops[ARRAY_SIZE(e2e_files)];

static const struct e2e_file *e2e_file_of(struct seq_file *m)
{
	return &e2e_files[m->op - e2e_ops];
}

static int e2e_debugfs_open(struct inode *inode, struct file *file)
{
	return seq_open(file, inode->i_private);
}

static const struct file_operations e2e_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = e2e_debugfs_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* The oracle file: one record, a value and conversion its opener wrote. */
enum e2e_via { E2E_VIA_NONE, E2E_VIA_PX, E2E_VIA_LX, E2E_VIA_UDEC, E2E_VIA_SDEC };

struct e2e_oracle {
	enum e2e_via via;
	u64 val;
};

static int e2e_oracle_show(struct seq_file *m, void *v)
{
	struct e2e_oracle *o = m->private;

	switch (o->via) {
	case E2E_VIA_PX:
		seq_printf(m, "px=%px\n", (void *)(unsigned long)o->val);
		break;
	case E2E_VIA_LX:
		seq_printf(m, "lx=%lx\n", (unsigned long)o->val);
		break;
	case E2E_VIA_UDEC:
		seq_put_decimal_ull(m, "udec=", o->val);
		seq_putc(m, '\n');
		break;
	case E2E_VIA_SDEC:
		seq_put_decimal_ll(m, "sdec=", (long long)o->val);
		seq_putc(m, '\n');
		break;
	default:
		seq_puts(m, "none\n");
		break;
	}
	return 0;
}

static int e2e_oracle_open(struct inode *inode, struct file *file)
{
	struct e2e_oracle *o = kzalloc(sizeof(*o), GFP_KERNEL);
	int ret;

	if (!o)
		return -ENOMEM;
	ret = single_open(file, e2e_oracle_show, o);
	if (ret)
		kfree(o);
	return ret;
}

static int e2e_oracle_release(struct inode *inode, struct file *file)
{
	kfree(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

/* "VIA HEX": px, lx, udec or sdec, and the value in hex */
static ssize_t e2e_oracle_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct e2e_oracle *o = ((struct seq_file *)file->private_data)->private;
	static const char *const vias[] = { "px ", "lx ", "udec ", "sdec " };
	char buf[40];
	size_t i, n;
	u64 val;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	for (i = 0; i < ARRAY_SIZE(vias); i++) {
		n = strlen(vias[i]);
		if (!strncmp(buf, vias[i], n))
			break;
	}
	if (i == ARRAY_SIZE(vias) || kstrtou64(strim(buf + n), 16, &val))
		return -EINVAL;
	o->via = E2E_VIA_PX + i;
	o->val = val;
	return count;
}

static const struct proc_ops e2e_oracle_ops = {
	.proc_open = e2e_oracle_open,
	.proc_read = seq_read,
	.proc_write = e2e_oracle_write,
	.proc_lseek = seq_lseek,
	.proc_release = e2e_oracle_release,
};

static struct proc_dir_entry *e2e_proc;
static struct dentry *e2e_debugfs;

static int __init e2e_init(void)
{
	size_t i, j;

	e2e_obj = kmalloc(64, GFP_KERNEL);
	if (!e2e_obj)
		return -ENOMEM;

	e2e_proc = proc_mkdir("ptrguard_e2e", NULL);
	if (!e2e_proc)
		goto fail;
	for (i = 0; i < ARRAY_SIZE(e2e_files); i++) {
		e2e_ops[i].start = e2e_start;
		e2e_ops[i].next = e2e_next;
		e2e_ops[i].stop = e2e_stop;
		e2e_ops[i].show = e2e_files[i].show;
		if (!proc_create_seq(e2e_files[i].name, 0444, e2e_proc,
				     &e2e_ops[i]))
			goto fail;
	}
	if (!proc_create("oracle", 0666, e2e_proc, &e2e_oracle_ops))
		goto fail;

	e2e_debugfs = debugfs_create_dir("ptrguard_e2e", NULL);
	for (j = 0; j < ARRAY_SIZE(e2e_debugfs_names); j++)
		for (i = 0; i < ARRAY_SIZE(e2e_files); i++)
			if (!strcmp(e2e_files[i].name, e2e_debugfs_names[j]))
				debugfs_create_file(e2e_files[i].name, 0444,
						    e2e_debugfs, &e2e_ops[i],
						    &e2e_debugfs_fops);

	/* printk is not seq_file output: the guest learns the address here. */
	pr_info("ptrguard_e2e: obj %px\n", e2e_obj);
	return 0;

fail:
	proc_remove(e2e_proc);
	kfree(e2e_obj);
	return -ENOMEM;
}

static void __exit e2e_exit(void)
{
	debugfs_remove(e2e_debugfs);
	proc_remove(e2e_proc);
	kfree(e2e_obj);
}

module_init(e2e_init);
module_exit(e2e_exit);
MODULE_DESCRIPTION("seq_file files with known address leaks, for ptrguard's e2e test");
MODULE_LICENSE("GPL");
