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

static int seq_ptr_guard_mode __read_mostly = CONFIG_SEQ_PTR_GUARD_DEFAULT_MODE;

/*
 * The window kernel addresses lie in: [seq_ptr_window, -MAX_ERRNO), and
 * on UML up to TASK_SIZE.  The bounds are public facts, the same on every
 * boot of this kernel: KASLR places text, modules, the direct map,
 * vmalloc, vmemmap and the fixmap anywhere inside them, so a value's
 * place relative to them says nothing about where it did.
 *
 * Most values judged are counts and sizes, far below any address: values
 * below seq_ptr_min_addr are not looked at (one compare, inline in
 * seq_ptr_guard_num()).  It is the window's start, but on arm64, where
 * the top byte of a pointer may carry a tag (KASAN, TBI), all values with
 * bit 55 set are judged.  Until set at boot, nothing is.
 */
unsigned long seq_ptr_min_addr __ro_after_init = ULONG_MAX;
static unsigned long seq_ptr_window __ro_after_init = ULONG_MAX;
static unsigned long seq_ptr_window_end __ro_after_init;
DEFINE_STATIC_KEY_FALSE(seq_ptr_guard_active);
static DEFINE_MUTEX(seq_ptr_guard_lock);

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
	seq_ptr_min_addr = IS_ENABLED(CONFIG_ARM64) ? BIT(55) : seq_ptr_window;
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

static const char * const seq_ptr_action_names[SEQ_PTR_NR_ACTIONS] = {
	[SEQ_PTR_SHOW] = "shown",
	[SEQ_PTR_CENSOR] = "censored",
	[SEQ_PTR_REFUSE] = "refused",
};

/*
 * The name of a show() function, for the log and debugfs.  With no
 * symbol (or no CONFIG_KALLSYMS), %ps prints the address: no name to
 * keep, and nothing to put in a log that may be world-readable.
 */
static void seq_ptr_show_name(char *name, size_t size, const void *show)
{
	if (show)
		snprintf(name, size, "%ps", show);
	else
		strscpy(name, "seq_buf", size);
	if (!strncmp(name, "0x", 2))
		strscpy(name, "?", size);
}

/*
 * Log the leak, rate limited: the show() function and the conversion,
 * never the value itself, as the log is no safer a place for it.
 */
static void seq_ptr_report(const void *show, unsigned long key,
			   const char *fmt, const struct seq_ptr_leak *leak,
			   enum seq_ptr_action action)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);
	char name[40];

	if (!__ratelimit(&rs))
		return;
	seq_ptr_show_name(name, sizeof(name), show);
	pr_warn("%s: \"%.*s\"%s prints a kernel address (%s), %s to %s[%d]\n",
		name, leak->conv_len, leak->conv,
		leak->depth ? " in %pV" : "",
		seq_ptr_kind_name(leak->kind), seq_ptr_action_names[action],
		current->comm, task_pid_nr(current));
}

/*
 * May this seq_file reader see kernel addresses?  The kernel already has
 * an answer, the one /proc/kallsyms and /proc/modules give their readers:
 * kallsyms_show_value() of the credentials the file was opened with
 * (CAP_SYSLOG as kptr_restrict allows, or anyone when
 * perf_event_paranoid lets perf resolve addresses).  And only if the
 * reader still runs with them: a file opened by root and handed to (or
 * read after a setuid() by) someone else does not carry root's trust.
 */
static bool seq_ptr_file_reader_privileged(const struct file *file)
{
	const struct cred *opener, *cred;

	if (!file || !in_task())
		return false;

	opener = file->f_cred;
	cred = current_cred();
	if (!uid_eq(cred->euid, opener->euid) ||
	    !gid_eq(cred->egid, opener->egid) ||
	    !uid_eq(cred->euid, cred->uid) || !gid_eq(cred->egid, cred->gid))
		return false;

	return kallsyms_show_value(opener);
}

/*
 * One printf checked as it is formatted.  Most output shows the guard
 * nothing, so the state set for every call is kept to a few words (zeroing
 * it costs a few stores); the settings that decide a value, the mode and
 * the reader's privilege are looked at only when vsnprintf_walk() shows
 * one.
 */
struct seq_ptr_check {
	struct seq_ptr_leak leak;	/* the first leak, once found */
	struct seq_file *m;		/* NULL for a seq_buf */
	const char *end;		/* the end of the buffer formatted into */
	int kptr_restrict;		/* the one the walker was chosen by */
	bool found;
	u8 action;			/* enum seq_ptr_action: the gravest */
	u8 mode;			/* as read at the first leak */
	s8 privileged;			/* -1: not asked yet */
	u8 depth;			/* in %pV, censoring it */
};

static bool seq_ptr_check_privileged(const struct seq_ptr_check *c)
{
	if (c->m)
		return seq_ptr_file_reader_privileged(c->m->file);
	/*
	 * A seq_buf has no file and no records: the reader is whoever
	 * formats it (the task reading a tracefs file).
	 */
	return kallsyms_show_value(current_cred());
}

/*
 * What to do with one leak: show it, censor it, or refuse the record.
 * The reader's privilege is asked once per call, and only in modes that
 * need it.
 *
 * Only a conversion of a pointer refuses: users choose many of the
 * integers files print (an rlimit in /proc/PID/stat, a syscall argument),
 * and refusing those records would let them hide records from everyone
 * else.  And a record can be refused only while seq_read_iter() runs
 * ->show() for it (m->ptr_in_show): it then drops the record whole.
 * Anywhere else (a seq_buf, a BPF iterator's bpf_seq_read(), any caller
 * of ->show() of its own) there is no record to drop, and strict mode
 * censors.
 */
static enum seq_ptr_action seq_ptr_decide(struct seq_ptr_check *c, int mode,
					  enum seq_ptr_kind kind)
{
	if (mode == SEQ_PTR_GUARD_LOG)
		return SEQ_PTR_SHOW;
	if (c->privileged < 0)
		c->privileged = seq_ptr_check_privileged(c);
	if (c->privileged)
		return SEQ_PTR_SHOW;
	if (mode == SEQ_PTR_GUARD_REFUSE && kind != SEQ_PTR_INT && c->m &&
	    c->m->ptr_in_show)
		return SEQ_PTR_REFUSE;
	return SEQ_PTR_CENSOR;
}

/**
 * seq_ptr_censor - replace the digits of a printed value with zeros
 * @text: the text a conversion printed, in place
 * @len: its length
 *
 * What is left has the same length and shape ("0x", padding and sign
 * stay), so a parser of the file reads the same fields, as with %pK
 * under kptr_restrict 2, and nothing of the value.
 */
void seq_ptr_censor(char *text, int len)
{
	for (; len > 0; text++, len--)
		if (isxdigit(*text))
			*text = '0';
}

static int seq_ptr_check_conv(const struct printf_conv *conv, void *data);

/*
 * What vsnprintf_walk() shows the guard: only the values that can leak
 * under the settings of the call, so that most conversions cost no call
 * at all.  Indexed by kptr_restrict, which decides whether %pK can print
 * raw (seq_ptr_restricted_raw() may be true); its sysctl keeps it in 0..2,
 * and 3 is there so that two bits of it are a safe index.  Built at boot,
 * when no_hash_pointers is settled, from the kinds of
 * include/linux/seq_ptr_kind.h.  Integers below seq_ptr_min_addr are not
 * shown either.
 */
static struct printf_walker seq_ptr_walkers[4] __ro_after_init;

static bool seq_ptr_kind_shown(enum seq_ptr_kind kind, bool no_hash, bool pk)
{
	switch (kind) {
	case SEQ_PTR_RAW:
	case SEQ_PTR_SYMBOL:
	case SEQ_PTR_VA:
		return true;
	case SEQ_PTR_HASHED:
		return no_hash;
	case SEQ_PTR_RESTRICTED:
		return pk;
	default:
		return false;
	}
}

static void __init seq_ptr_walkers_init(void)
{
	int kr, c;

	for (kr = 0; kr < ARRAY_SIZE(seq_ptr_walkers); kr++) {
		struct printf_walker *f = &seq_ptr_walkers[kr];
		/* 2 and up: %pK prints zeros */
		bool pk = kr == 1 || (kr == 0 && no_hash_pointers);

		f->fn = seq_ptr_check_conv;
		f->min_num = seq_ptr_min_addr;
		for (c = 0; c < 256; c++)
			if (seq_ptr_kind_shown(seq_ptr_ext_kind(c),
					       no_hash_pointers, pk))
				f->ptr_ext[c / 8] |= 1 << (c % 8);
	}
}

static const struct printf_walker *seq_ptr_walker(int kptr_restrict)
{
	return &seq_ptr_walkers[kptr_restrict & 3];
}

/*
 * Censor a %pV whose nested format prints an address: format it again,
 * over its own text, with every nested leak censored as it is printed.
 * The same arguments print the same text; if the text was cut by the end
 * of the buffer (seq_file formats the record again in a larger one), or
 * comes out different, all of it is zeroed.
 */
static void seq_ptr_censor_va(struct seq_ptr_check *c,
			      const struct printf_conv *conv)
{
	const struct va_format *vaf = conv->ptr;
	struct seq_ptr_check nested = {
		.m = c->m,
		.end = conv->out + conv->out_len + 1,
		.kptr_restrict = c->kptr_restrict,
		.depth = c->depth + 1,	/* seq_ptr_check_conv() censors there */
	};
	va_list ap;
	int len = -1;

	if (conv->out + conv->out_len < c->end &&
	    c->depth < SEQ_PTR_MAX_DEPTH) {
		va_copy(ap, *vaf->va);
		len = vsnprintf_walk(conv->out, conv->out_len + 1, vaf->fmt, ap,
				     seq_ptr_walker(c->kptr_restrict), &nested);
		va_end(ap);
	}
	if (len != conv->out_len)
		memset(conv->out, '0', conv->out_len);
}

/*
 * The vsnprintf_walk() callback.  Each leak is shown, censored as it is
 * printed, or refused (formatting stops); the first, or the first that is
 * refused, is the one reported.  A conversion printed past the end of the
 * buffer is not looked at: nothing of it is there to censor, and
 * seq_file formats the record again in a larger buffer, where it is
 * judged.  A mode switched to 0 since the walk began lets the output
 * through, as the walk would not have begun.
 */
static int seq_ptr_check_conv(const struct printf_conv *conv, void *data)
{
	struct seq_ptr_check *c = data;
	struct seq_ptr_leak leak;
	struct seq_ptr_walk w = {
		/* as seq_ptr_env_init(), with the kptr_restrict of the walker */
		.env = {
			.no_hash_pointers = no_hash_pointers,
			.kptr_restrict = c->kptr_restrict,
			.pk_reader = -1,
		},
		.leak = &leak,
	};
	enum seq_ptr_action action;
	int mode;

	if (!conv->out || !seq_ptr_walk_conv(conv, &w))
		return 0;

	if (c->depth) {
		action = SEQ_PTR_CENSOR;	/* inside a %pV being censored */
	} else {
		mode = READ_ONCE(seq_ptr_guard_mode);
		if (mode == SEQ_PTR_GUARD_OFF)
			return 0;
		action = seq_ptr_decide(c, mode, leak.kind);
		if (!c->found || action > c->action) {
			c->leak = leak;
			c->action = action;
			c->mode = mode;
		}
		c->found = true;
	}

	switch (action) {
	case SEQ_PTR_REFUSE:
		return -EPERM;
	case SEQ_PTR_CENSOR:
		if (seq_ptr_conv_kind(conv) == SEQ_PTR_VA)
			seq_ptr_censor_va(c, conv);
		else
			seq_ptr_censor(conv->out, conv->out_len);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Out of the way of the common case: report the leak, and refuse it or
 * not.  What a privileged reader is shown in modes 2 and 3 is what the
 * kernel means to show them (root reading /proc/kallsyms): not reported.
 * Nor is output that did not fit (@len >= @size): seq_file formats it
 * again, and a seq_buf keeps only what fits.
 */
static noinline int seq_ptr_guard_found(struct seq_ptr_check *c,
					const char *fmt, int len, size_t size)
{
	struct seq_file *m = c->m;

	if (c->action == SEQ_PTR_REFUSE) {
		seq_ptr_report(m->op ? m->op->show : NULL, (unsigned long)fmt,
			       fmt, &c->leak, c->action);
		m->ptr_refused = true;
		return -EPERM;
	}
	if (len >= size ||
	    (c->action == SEQ_PTR_SHOW && c->mode != SEQ_PTR_GUARD_LOG))
		return len;
	seq_ptr_report(m && m->op ? m->op->show : NULL, (unsigned long)fmt,
		       fmt, &c->leak, c->action);
	return len;
}

/*
 * seq_buf output is checked only where a reader formats it: a task
 * reading a tracefs file, with interrupts on.  The same trace_seq code
 * also prints to the console: ftrace_dump() (on an oops, from sysrq, from
 * the ftrace "dump" probes, in any context, NMI included) runs with
 * interrupts off, and the kernel log is not a seq_file reader's to
 * censor.
 */
static bool seq_ptr_seq_buf_reader(void)
{
	return in_task() && !irqs_disabled() && !oops_in_progress;
}

/**
 * __seq_ptr_guard_vsnprintf - vsnprintf() for seq output, unless it leaks
 * @m: the seq_file being filled, or NULL for a seq_buf
 * @buf: where to format
 * @size: room at @buf
 * @fmt: the format
 * @args: its arguments
 *
 * Formats in one pass with vsnprintf_walk(), judging each value as it is
 * printed, so that checking costs no second decoding of @fmt.
 *
 * Return: what vsnprintf() returns, or -EPERM if the output is refused:
 * @buf then holds a partial result that must not be used.  A refusal
 * marks the seq_file's record; seq_read_iter() then drops it whole and
 * fails the read with -EPERM at that record (see seq_show() in
 * fs/seq_file.c).
 */
int __seq_ptr_guard_vsnprintf(struct seq_file *m, char *buf, size_t size,
			      const char *fmt, va_list args)
{
	struct seq_ptr_check c = {
		.m = m,
		.end = buf + size,
		.kptr_restrict = READ_ONCE(kptr_restrict),
		.privileged = -1,
	};
	int len;

	if (m && m->ptr_refused)	/* the record is lost anyway */
		return -EPERM;
	if (!m && !seq_ptr_seq_buf_reader())
		return vsnprintf(buf, size, fmt, args);

	len = vsnprintf_walk(buf, size, fmt, args,
			     seq_ptr_walker(c.kptr_restrict), &c);
	if (likely(!c.found))
		return len;
	return seq_ptr_guard_found(&c, fmt, len, size);
}
EXPORT_SYMBOL_IF_KUNIT(__seq_ptr_guard_vsnprintf);

#ifdef CONFIG_BINARY_PRINTF
/**
 * __seq_ptr_guard_bstr_printf - bstr_printf() for seq output, unless it leaks
 * @m: the seq_file being filled, or NULL for a seq_buf
 * @buf: where to format
 * @size: room at @buf
 * @fmt: the format
 * @bin_buf: its arguments, as vbin_printf() recorded them
 *
 * seq_bprintf() (BPF iterators' bpf_seq_printf()) and seq_buf_bprintf()
 * (trace_printk() output) print a printf recorded earlier.  The values
 * kept in @bin_buf are judged as __seq_ptr_guard_vsnprintf() judges
 * them; the %p conversions vbin_printf() printed when it recorded them
 * are text by now, out of reach (Documentation/admin-guide/sysctl/kernel.rst).
 *
 * Return: as __seq_ptr_guard_vsnprintf().
 */
int __seq_ptr_guard_bstr_printf(struct seq_file *m, char *buf, size_t size,
				const char *fmt, const u32 *bin_buf)
{
	struct seq_ptr_check c = {
		.m = m,
		.end = buf + size,
		.kptr_restrict = READ_ONCE(kptr_restrict),
		.privileged = -1,
	};
	int len;

	if (m && m->ptr_refused)	/* the record is lost anyway */
		return -EPERM;
	if (!m && !seq_ptr_seq_buf_reader())
		return bstr_printf(buf, size, fmt, bin_buf);

	len = bstr_printf_walk(buf, size, fmt, bin_buf,
			       seq_ptr_walker(c.kptr_restrict), &c);
	if (likely(!c.found))
		return len;
	return seq_ptr_guard_found(&c, fmt, len, size);
}
EXPORT_SYMBOL_IF_KUNIT(__seq_ptr_guard_bstr_printf);
#endif

/**
 * __seq_ptr_guard_num - judge a number a seq_put_*() writer would print
 * @m: the seq_file being filled
 * @num: the value
 * @conv: the conversion that amounts to, for the log
 * @site: the writer's caller, which keys the log line as a format would
 *
 * seq_put_hex_ll() and seq_put_decimal_*() print numbers with no format
 * to judge (as /proc/PID/stat once printed wchan).  A value that is a
 * kernel address is judged as a pointer-wide integer conversion of it
 * would be: shown, or censored, never refused (see seq_ptr_decide());
 * user-space values (the ranges of /proc/PID/maps) and counts pass.
 *
 * Return: true if the writer must censor what it prints.
 */
bool __seq_ptr_guard_num(struct seq_file *m, unsigned long long num,
			 const char *conv, unsigned long site)
{
	struct seq_ptr_check c = {
		.m = m,
		.leak = {
			.kind = SEQ_PTR_INT,
			.conv = conv,
		},
		.privileged = -1,
	};
	int mode;

	if (m->ptr_refused || !seq_ptr_is_kernel_addr(num))
		return false;

	mode = READ_ONCE(seq_ptr_guard_mode);
	if (mode == SEQ_PTR_GUARD_OFF)
		return false;
	c.action = seq_ptr_decide(&c, mode, SEQ_PTR_INT);
	if (c.action == SEQ_PTR_SHOW && mode != SEQ_PTR_GUARD_LOG)
		return false;
	c.leak.conv_len = strlen(conv);
	seq_ptr_report(m->op ? m->op->show : NULL, site, conv, &c.leak,
		       c.action);
	return c.action == SEQ_PTR_CENSOR;
}
EXPORT_SYMBOL_IF_KUNIT(__seq_ptr_guard_num);

/* Callers hold seq_ptr_guard_lock, or run before anyone else can. */
static void seq_ptr_guard_apply(int mode)
{
	WRITE_ONCE(seq_ptr_guard_mode, mode);
	if (mode == SEQ_PTR_GUARD_OFF)
		static_branch_disable(&seq_ptr_guard_active);
	else
		static_branch_enable(&seq_ptr_guard_active);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * seq_ptr_guard_set_mode - switch modes, for tests
 * @mode: the new mode, SEQ_PTR_GUARD_OFF..SEQ_PTR_GUARD_REFUSE
 *
 * Return: the previous mode.
 */
int seq_ptr_guard_set_mode(int mode)
{
	int old;

	mutex_lock(&seq_ptr_guard_lock);
	old = seq_ptr_guard_mode;
	seq_ptr_guard_apply(mode);
	mutex_unlock(&seq_ptr_guard_lock);
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(seq_ptr_guard_set_mode);
#endif

#ifdef CONFIG_SYSCTL
/* Reading is free; changing the mode takes CAP_SYS_ADMIN, as kptr_restrict. */
static int seq_ptr_guard_sysctl(const struct ctl_table *table, int write,
				void *buffer, size_t *lenp, loff_t *ppos)
{
	struct ctl_table t = *table;
	int mode, ret;

	if (write && !capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&seq_ptr_guard_lock);
	mode = seq_ptr_guard_mode;
	t.data = &mode;
	ret = proc_dointvec_minmax(&t, write, buffer, lenp, ppos);
	if (!ret && write)
		seq_ptr_guard_apply(mode);
	mutex_unlock(&seq_ptr_guard_lock);
	return ret;
}

static struct ctl_table seq_ptr_guard_table[] = {
	{
		.procname	= "seq_ptr_guard",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= seq_ptr_guard_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_THREE,	/* SEQ_PTR_GUARD_REFUSE */
	},
};
#endif

static int __init seq_ptr_guard_setup(char *str)
{
	int mode;

	if (kstrtoint(str, 0, &mode) || mode < SEQ_PTR_GUARD_OFF ||
	    mode > SEQ_PTR_GUARD_REFUSE) {
		pr_warn("seq_ptr_guard=%s: expected 0..%d, keeping %d\n",
			str, SEQ_PTR_GUARD_REFUSE, seq_ptr_guard_mode);
		return 1;
	}
	seq_ptr_guard_mode = mode;
	return 1;
}
__setup("seq_ptr_guard=", seq_ptr_guard_setup);

static int __init seq_ptr_guard_init(void)
{
	seq_ptr_window_init();
	seq_ptr_walkers_init();
#ifdef CONFIG_SYSCTL
	register_sysctl_init("kernel", seq_ptr_guard_table);
#endif
	seq_ptr_guard_apply(seq_ptr_guard_mode);
	return 0;
}
early_initcall(seq_ptr_guard_init);
