// SPDX-License-Identifier: GPL-2.0
/*
 * seq_ptr_guard: keep raw kernel addresses out of seq_file output.
 *
 * Since v4.15 plain %p prints a hashed value, and %pK hides the address
 * from readers kptr_restrict does not trust.  Nothing stops a show()
 * function from printing an address with %px, with %lx of a cast pointer,
 * or with %pS of an address that has no symbol, and every such site in a
 * /proc, debugfs or tracefs file hands KASLR and heap layout to whoever can
 * read it.  Finding them all by review has not worked; this checks the
 * output itself, at the one place it all goes through.
 *
 * Each seq_printf() is formatted with vsnprintf_walk(), which shows every
 * conversion to the guard as it prints it: one pass of vsnprintf()'s own
 * decoder.  Each is judged from its kind (include/linux/seq_ptr_kind.h,
 * shared with the userspace auditor) and the value it printed.
 * What happens then is the admin's choice: kernel.seq_ptr_guard = 0 off,
 * 1 log, 2 censor (print zeros in place of the address) or 3 refuse (fail
 * the record with -EPERM) for readers the kernel's own policy would not
 * show kernel addresses to, as kallsyms_show_value() judges them.
 *
 * A verdict any reader can observe must not tell them more than they
 * knew: which values count as addresses is decided from public facts
 * only (the conversion, the value's place in the fixed layout of the
 * address space, the reader's privilege and the %p settings), never from
 * whether memory is mapped or where KASLR put it.  Otherwise a user who
 * makes a file print values of their choosing could ask the guard where
 * kernel memory is.
 *
 * Copyright (C) 2026 ptrguard project
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/processor.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/seq_ptr_guard.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <kunit/visibility.h>

#include "printf_walk.h"

/* How deep %pV inside %pV is followed before the output counts as unsafe */
#define SEQ_PTR_MAX_DEPTH	4

/*
 * The window kernel addresses lie in: [seq_ptr_window, -MAX_ERRNO), and
 * on UML up to TASK_SIZE.  The bounds are public facts, the same on every
 * boot of this kernel: KASLR places text, modules, the direct map,
 * vmalloc, vmemmap and the fixmap anywhere inside them, so a value's
 * place relative to them says nothing about where it did.
 */
static unsigned long seq_ptr_window __ro_after_init = ULONG_MAX;
static unsigned long seq_ptr_window_end __ro_after_init;

static void __init seq_ptr_window_init(void)
{
	seq_ptr_window_end = -MAX_ERRNO;
#if defined(CONFIG_UML)
	/*
	 * No KASLR: physical memory, the image in it, vmalloc and the fixmap
	 * sit from the link address up to the top of the task size.  User
	 * processes may map the same numbers, so their values are judged as
	 * the kernel's: a false positive, never a secret.
	 */
	seq_ptr_window = PAGE_OFFSET;
	seq_ptr_window_end = TASK_SIZE;
#elif defined(CONFIG_X86_64)
	/* The kernel half of the canonical space (4- or 5-level paging) */
	seq_ptr_window = -(1UL << __VIRTUAL_MASK_SHIFT);
#elif defined(CONFIG_ARM64)
	/* TTBR1's range for the configured VA_BITS, the largest it can be */
	seq_ptr_window = _PAGE_OFFSET(VA_BITS);
#endif
}

/*
 * seq_ptr_is_kernel_addr - would printing @num give a kernel address away?
 * @num: the value, as the conversion took it
 *
 * True for every value in the window, mapped or not, and for nothing
 * else: NULL, error values (-MAX_ERRNO..-1), user-space values and counts
 * are not secrets.  On arm64, bit 55 picks the kernel's half whatever the
 * top byte holds (a KASAN tag, a pointer authentication code), so the
 * value is judged as the MMU would read it.  Range checks only: safe in
 * any context, and the answer depends on nothing a reader does not know.
 *
 * A signed decimal is no exception: on x86_64 a text or module address
 * printed with %ld reads as a negative number above INT_MIN, and a
 * negative long below -MAX_ERRNO is censored as one would be.
 */
static bool seq_ptr_is_kernel_addr(unsigned long long num)
{
	unsigned long v = num;

	if (num > ULONG_MAX)
		return false;
	if (IS_ENABLED(CONFIG_ARM64))
		v = sign_extend64(v, 55);
	return v >= seq_ptr_window && v < seq_ptr_window_end;
}

/*
 * %pS, %ps and %pB print "name+off/size" when kallsyms knows the address,
 * and the raw value in hex when it does not (or without CONFIG_KALLSYMS).
 * Before printing, mirror the lookups of symbol_string() in lib/vsprintf.c.
 */
static bool seq_ptr_symbol_resolves(unsigned long addr, char ext)
{
	unsigned long size, offset;

	if (!IS_ENABLED(CONFIG_KALLSYMS))
		return false;

	if (ext == 'B')		/* a return address: look up the call */
		addr--;
	else
		addr = (unsigned long)dereference_symbol_descriptor((void *)addr);

	/* The core kernel's own symbols: kallsyms knows them without a search */
	if (is_ksym_addr(addr))
		return true;

	return kallsyms_lookup_size_offset(addr, &size, &offset);
}

/*
 * Did this %pS print the raw value?  Once printed, the text tells: the hex
 * fallback of symbol_string() is "0x..." (after the spaces of a field
 * width), and no symbol name starts with a digit.  That spares a second
 * kallsyms search per %pS of a module address, as costly as the printing.
 * Too little of the text in the buffer to tell means the output did not
 * fit: the caller drops it and formats it again in a larger buffer.
 */
static bool seq_ptr_symbol_printed_raw(const struct printf_conv *conv)
{
	const char *s = conv->out;
	int n = conv->out_len;

	while (n && *s == ' ') {
		s++;
		n--;
	}
	return n >= 2 && s[0] == '0' && s[1] == 'x';
}

/*
 * Does %pK print the raw value to this reader?  The same test as
 * restricted_pointer() in lib/vsprintf.c; done once per call, and only when
 * a %pK of a kernel address is met.
 */
static bool seq_ptr_pk_reader(void)
{
	const struct cred *cred;

	if (in_hardirq() || in_serving_softirq() || in_nmi())
		return false;	/* %pK prints "pK-error" there */

	cred = current_cred();
	return has_capability_noaudit(current, CAP_SYSLOG) &&
	       uid_eq(cred->euid, cred->uid) && gid_eq(cred->egid, cred->gid);
}

static bool seq_ptr_restricted_raw(struct seq_ptr_env *env)
{
	switch (env->kptr_restrict) {
	case 0:
		/* %pK is plain %p then */
		return env->no_hash_pointers;
	case 1:
		if (env->pk_reader < 0)
			env->pk_reader = seq_ptr_pk_reader();
		return env->pk_reader;
	default:
		/* zeros */
		return false;
	}
}

/**
 * seq_ptr_env_init - take a snapshot of the settings that decide what prints
 * @env: filled in
 */
void seq_ptr_env_init(struct seq_ptr_env *env)
{
	env->no_hash_pointers = no_hash_pointers;
	env->kptr_restrict = READ_ONCE(kptr_restrict);
	env->pk_reader = -1;
}
EXPORT_SYMBOL_IF_KUNIT(seq_ptr_env_init);

/**
 * seq_ptr_conv_kind - kind of one decoded conversion
 * @conv: the conversion, as vsnprintf_walk() decoded it
 *
 * Return: the kind from include/linux/seq_ptr_kind.h, the same model the
 * userspace auditor applies to format literals.
 */
VISIBLE_IF_KUNIT enum seq_ptr_kind seq_ptr_conv_kind(const struct printf_conv *conv)
{
	return seq_ptr_type_kind(conv->conv, conv->qualifier, conv->ext);
}
EXPORT_SYMBOL_IF_KUNIT(seq_ptr_conv_kind);

struct seq_ptr_walk {
	struct seq_ptr_env env;
	struct seq_ptr_leak *leak;
	unsigned int depth;
};

static bool seq_ptr_walk(struct seq_ptr_walk *w, const char *fmt, va_list args);

static void seq_ptr_record(struct seq_ptr_walk *w, const struct printf_conv *conv,
			   enum seq_ptr_kind kind)
{
	w->leak->kind = kind;
	w->leak->depth = w->depth;
	w->leak->conv = conv->spec;
	w->leak->conv_len = conv->len;
}

/*
 * %pV prints another format with its own arguments.  Check it the same
 * way, one level deeper; an invalid struct va_format prints "(null)" or
 * "(efault)", like check_pointer() in lib/vsprintf.c.
 */
static bool seq_ptr_walk_va(struct seq_ptr_walk *w, const struct printf_conv *conv)
{
	const struct va_format *vaf = conv->ptr;
	int ret;

	if ((unsigned long)vaf < PAGE_SIZE || IS_ERR(vaf))
		return false;

	if (w->depth >= SEQ_PTR_MAX_DEPTH) {
		/* Too deep to follow: do not vouch for it. */
		seq_ptr_record(w, conv, SEQ_PTR_VA);
		return true;
	}

	w->depth++;
	ret = seq_ptr_walk(w, vaf->fmt, *vaf->va);
	w->depth--;

	return ret;
}

/*
 * seq_ptr_walk_conv - does this conversion print a kernel address?
 *
 * The policy, one kind at a time.  Hashed output is not an address; an
 * integer is one only if its value is; %pS is one only when it falls back
 * to hex.
 */
static int seq_ptr_walk_conv(const struct printf_conv *conv, void *data)
{
	struct seq_ptr_walk *w = data;
	enum seq_ptr_kind kind = seq_ptr_conv_kind(conv);
	unsigned long addr = (unsigned long)conv->ptr;
	bool leaks;

	switch (kind) {
	case SEQ_PTR_INT:
		leaks = seq_ptr_is_kernel_addr(conv->num);
		break;
	case SEQ_PTR_RAW:
		leaks = seq_ptr_is_kernel_addr(addr);
		break;
	case SEQ_PTR_HASHED:
		leaks = w->env.no_hash_pointers &&
			seq_ptr_is_kernel_addr(addr);
		break;
	case SEQ_PTR_RESTRICTED:
		leaks = seq_ptr_restricted_raw(&w->env) &&
			seq_ptr_is_kernel_addr(addr);
		break;
	case SEQ_PTR_SYMBOL:
		/*
		 * Printed, the text tells, and most print a name: then not
		 * even the address is looked at.  Not in a buffer (a walk of
		 * the values, seq_ptr_walk()), only a kallsyms lookup can tell.
		 * Either way the verdict adds nothing to what %pS itself
		 * shows: a name, or hex.
		 */
		if (!seq_ptr_is_kernel_addr(addr))
			leaks = false;
		else if (conv->out)
			leaks = seq_ptr_symbol_printed_raw(conv);
		else
			leaks = !seq_ptr_symbol_resolves(addr, conv->ext);
		break;
	case SEQ_PTR_VA:
		/* A nested leak is recorded where it is found. */
		return seq_ptr_walk_va(w, conv);
	default:
		/*
		 * SEQ_PTR_PHYS: physical, bus and resource addresses are a
		 * different space (/proc/iomem zeroes them for non-admins on
		 * its own; x86_64 randomizes the physical load address too:
		 * not covered).  SEQ_PTR_NONE: an int-wide conversion cannot
		 * print a 64-bit address whole (a truncated one can still
		 * carry x86_64's text offset: not covered either).
		 */
		leaks = false;
		break;
	}

	if (leaks)
		seq_ptr_record(w, conv, kind);
	return leaks;
}

static int seq_ptr_walk_fn(const struct printf_conv *conv, void *data)
{
	return seq_ptr_walk_conv(conv, data) ? -EPERM : 0;
}

/* Shows seq_ptr_walk_conv() every value; the walk's settings judge them */
static const struct printf_walker seq_ptr_walk_all = {
	.fn = seq_ptr_walk_fn,
	.min_num = 1,
	.ptr_ext = { [0 ... sizeof(seq_ptr_walk_all.ptr_ext) - 1] = 0xff },
};

/*
 * Would vsnprintf(@fmt, @args) print a kernel address?  Walks the values
 * with vsnprintf_walk() itself, formatting into no buffer, on a copy of
 * @args.
 */
static bool seq_ptr_walk(struct seq_ptr_walk *w, const char *fmt, va_list args)
{
	va_list ap;
	int ret;

	va_copy(ap, args);
	ret = vsnprintf_walk(NULL, 0, fmt, ap, &seq_ptr_walk_all, w);
	va_end(ap);
	return ret < 0;
}

/**
 * seq_ptr_guard_find - find the first conversion that prints a kernel address
 * @env: the settings to judge by, see seq_ptr_env_init()
 * @leak: filled in when one is found
 * @fmt: the format
 * @args: its arguments, not consumed
 *
 * Return: true if vsnprintf(@fmt, @args) would print a kernel address.
 */
bool seq_ptr_guard_find(const struct seq_ptr_env *env, struct seq_ptr_leak *leak,
			const char *fmt, va_list args)
{
	struct seq_ptr_walk w = { .env = *env, .leak = leak };

	return seq_ptr_walk(&w, fmt, args);
}
EXPORT_SYMBOL_IF_KUNIT(seq_ptr_guard_find);

static int __init seq_ptr_guard_init(void)
{
	seq_ptr_window_init();
	return 0;
}
early_initcall(seq_ptr_guard_init);
