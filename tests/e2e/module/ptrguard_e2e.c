// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard_e2e - seq_file output with known pointer conversions, for tests/e2e
 *
 * /proc/ptrguard_e2e/fmt (0444, one seq_file) prints one line per
 * conversion under test, "NAME VALUE", all of the same kmalloc'd object
 * unless said otherwise:
 *
 *   px      %px
 *   pS, ps  %pS, %ps (a heap object has no symbol: "0x" and the hex value)
 *   pV      %pV wrapping "%px"
 *   p       %p (hashed, raw with no_hash_pointers)
 *   pK      %pK (kptr_restrict)
 *   lx      %lx of (unsigned long)obj: an integer
 *   dec     seq_put_decimal_ull() of it: an integer, no format
 *   px_null %px of NULL
 *   px_err  %px of ERR_PTR(-EINVAL)
 *   pS_sym  %pS of a function of this module (has a symbol)
 *   pS_null, pS_err  %pS of NULL, of ERR_PTR(-EINVAL) ("0x0", "0x" and
 *           the error's value: no symbol, and no address either)
 *
 * The e2e guest reads it as root and as an unprivileged user with the
 * sysctl kernel.seq_ptr_guard on and off, at each kptr_restrict, and
 * tests/e2e/check.awk decides from the lines which are raw, hashed (the
 * value the p line prints; "0x" and it for %pS and %ps) or unchanged.  Module init logs the object's
 * raw address once with printk (not seq_file output): the guest takes it
 * from the kernel log.
 *
 * /proc/ptrguard_e2e/heavy: 1,000 records of "%p %pK %pS %lx %pI4", several
 * seq_file pages (bench/guard-overhead.sh times it; the suite checks it in
 * the no_hash_pointers boot).
 *
 * One leak is binary and not seq_file output at all: an ELF note whose
 * desc is the address of e2e_obj (the variable), relocated by the module
 * loader, which sysfs shows as /sys/module/ptrguard_e2e/notes/.note.PtrGuard
 * (as /sys/kernel/notes showed vmlinux's in CVE-2024-26816).  The live
 * scanner must find it there (the scanner hook, bench/scan-vm.sh); the
 * guard does not cover it.
 */
#include <linux/elfnote.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#define E2E_HEAVY	1000

static void *e2e_obj;

/*
 * Name "PtrGuard" (9 bytes with the NUL, padded to 12) puts the desc at
 * byte 24 of the note file: 8-byte aligned, little-endian.
 */
ELFNOTE64("PtrGuard", 1, &e2e_obj);

static const __be32 e2e_ip4 = cpu_to_be32(0x7f000001);

static __printf(2, 3) void e2e_print_va(struct seq_file *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	seq_printf(m, "pV %pV\n", &vaf);
	va_end(args);
}

static int e2e_fmt_show(struct seq_file *m, void *v)
{
	seq_printf(m, "px %px\n", e2e_obj);
	seq_printf(m, "pS %pS\n", e2e_obj);
	seq_printf(m, "ps %ps\n", e2e_obj);
	e2e_print_va(m, "%px", e2e_obj);
	seq_printf(m, "p %p\n", e2e_obj);
	seq_printf(m, "pK %pK\n", e2e_obj);
	seq_printf(m, "lx %lx\n", (unsigned long)e2e_obj);
	seq_put_decimal_ull(m, "dec ", (unsigned long)e2e_obj);
	seq_putc(m, '\n');
	seq_printf(m, "px_null %px\n", NULL);
	seq_printf(m, "px_err %px\n", ERR_PTR(-EINVAL));
	seq_printf(m, "pS_sym %pS\n", e2e_fmt_show);
	seq_printf(m, "pS_null %pS\n", NULL);
	seq_printf(m, "pS_err %pS\n", ERR_PTR(-EINVAL));
	return 0;
}

static void *e2e_start(struct seq_file *m, loff_t *pos)
{
	return *pos < E2E_HEAVY ? pos : NULL;
}

static void *e2e_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return *pos < E2E_HEAVY ? pos : NULL;
}

static void e2e_stop(struct seq_file *m, void *v)
{
}

/* Several pointer conversions per record, none raw while hashing is on. */
static int e2e_heavy_show(struct seq_file *m, void *v)
{
	loff_t i = *(loff_t *)v;

	seq_printf(m, "rec %lld %p %pK %pS %lx %pI4\n", i, e2e_obj, e2e_obj,
		   e2e_stop, (unsigned long)i, &e2e_ip4);
	return 0;
}

static const struct seq_operations e2e_heavy_ops = {
	.start = e2e_start,
	.next = e2e_next,
	.stop = e2e_stop,
	.show = e2e_heavy_show,
};

static struct proc_dir_entry *e2e_proc;

static int __init e2e_init(void)
{
	e2e_obj = kmalloc(64, GFP_KERNEL);
	if (!e2e_obj)
		return -ENOMEM;

	e2e_proc = proc_mkdir("ptrguard_e2e", NULL);
	if (!e2e_proc ||
	    !proc_create_single("fmt", 0444, e2e_proc, e2e_fmt_show) ||
	    !proc_create_seq("heavy", 0444, e2e_proc, &e2e_heavy_ops)) {
		proc_remove(e2e_proc);
		kfree(e2e_obj);
		return -ENOMEM;
	}

	/* printk is not seq_file output: the guest learns the address here. */
	pr_info("ptrguard_e2e: obj %px\n", e2e_obj);
	return 0;
}

static void __exit e2e_exit(void)
{
	proc_remove(e2e_proc);
	kfree(e2e_obj);
}

module_init(e2e_init);
module_exit(e2e_exit);
MODULE_DESCRIPTION("seq_file files with known pointer conversions, for ptrguard's e2e test");
MODULE_LICENSE("GPL");
