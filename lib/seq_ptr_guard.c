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
 * What happens then is the admin's choice:
 * kernel.seq_ptr_guard = 0 off, 1 log, 2 refuse readers without
 * CAP_SYSLOG, 3 refuse everyone.
 *
 * Copyright (C) 2026 ptrguard project
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hash.h>
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
#include <linux/spinlock.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/vmalloc.h>
#include <asm/sections.h>
#include <kunit/visibility.h>

#define CREATE_TRACE_POINTS
#include <trace/events/seq_ptr_guard.h>

EXPORT_TRACEPOINT_SYMBOL_GPL(seq_ptr_guard_leak);

/* How deep %pV inside %pV is followed before the output counts as unsafe */
#define SEQ_PTR_MAX_DEPTH	4

static int seq_ptr_guard_mode __read_mostly = CONFIG_SEQ_PTR_GUARD_DEFAULT_MODE;

/*
 * Below every kernel address: zero is none, and where user and kernel
 * addresses never overlap, nothing below TASK_SIZE is one (as kmsan and
 * the synthetic trace events also take it).  Set at boot from TASK_SIZE
 * of a native task, the largest; most values judged are counts and
 * sizes, which this one compare settles, inline in seq_ptr_guard_num().
 */
unsigned long seq_ptr_min_addr __ro_after_init = 1;
DEFINE_STATIC_KEY_FALSE(seq_ptr_guard_active);
static DEFINE_MUTEX(seq_ptr_guard_lock);

/*
 * seq_ptr_is_kernel_addr - would printing @addr in hex give an address away?
 *
 * NULL, error values (-MAX_ERRNO..-1) and user-space values are not secrets.
 * Kernel text and data, module memory, vmalloc space (stacks, module-less
 * allocations) and the direct map (slab, page allocator) are.  Every test
 * here is a range check or a lockless tree walk, so this is safe in atomic
 * context.
 */
static bool seq_ptr_is_kernel_addr(unsigned long addr)
{
	if (addr < seq_ptr_min_addr || IS_ERR_VALUE(addr))
		return false;

	return __is_kernel(addr) || is_kernel_inittext(addr) ||
	       is_module_address(addr) || is_vmalloc_addr((const void *)addr) ||
	       virt_addr_valid((const void *)addr);
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
		leaks = conv->num <= ULONG_MAX &&
			seq_ptr_is_kernel_addr((unsigned long)conv->num);
		break;
	case SEQ_PTR_RAW:
		leaks = seq_ptr_is_kernel_addr(addr);
		break;
	case SEQ_PTR_HASHED:
		leaks = w->env.no_hash_pointers && seq_ptr_is_kernel_addr(addr);
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
		 */
		if (conv->out)
			leaks = seq_ptr_symbol_printed_raw(conv) &&
				seq_ptr_is_kernel_addr(addr);
		else
			leaks = seq_ptr_is_kernel_addr(addr) &&
				!seq_ptr_symbol_resolves(addr, conv->ext);
		break;
	case SEQ_PTR_VA:
		/* A nested leak is recorded where it is found. */
		return seq_ptr_walk_va(w, conv);
	default:
		/*
		 * SEQ_PTR_PHYS: physical and bus addresses are not KASLR'd;
		 * SEQ_PTR_NONE: an int is too narrow to hold an address.
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

/*
 * The call sites found printing an address, for the log and for debugfs,
 * each keyed by its format (for the seq_put_*() writers, the caller's
 * address).  A site keeps copies of what names it, so that nothing here
 * points into a module that may be gone.  Slots are claimed with cmpxchg()
 * and never reused: two sites whose keys hash alike must not share counts.
 * When the table is full, further sites are still logged, under the rate
 * limit, and counted in seq_ptr_sites_lost.
 */
#define SEQ_PTR_SITE_BITS	6
#define SEQ_PTR_SITE_REPORTED	0	/* bit in ->flags: its line is logged */

struct seq_ptr_site {
	unsigned long key;		/* 0: a free slot */
	unsigned long flags;
	bool ready;			/* the names below are filled in */
	enum seq_ptr_kind kind;
	char show[40];			/* "%ps" of the show() function */
	char fmt[48];			/* the format, cut */
	char conv[16];			/* the conversion found, cut */
	char comm[TASK_COMM_LEN];	/* the last reader: seq_ptr_sites_lock */
	atomic_long_t logged;		/* found and printed (mode 1, privileged) */
	atomic_long_t refused;
};

static struct seq_ptr_site seq_ptr_sites[1 << SEQ_PTR_SITE_BITS];
static atomic_long_t seq_ptr_sites_lost;
static DEFINE_SPINLOCK(seq_ptr_sites_lock);

static void seq_ptr_site_fill(struct seq_ptr_site *site, const void *show,
			      const char *fmt, const struct seq_ptr_leak *leak)
{
	site->kind = leak->kind;
	strscpy(site->conv, leak->conv,
		min_t(size_t, leak->conv_len + 1, sizeof(site->conv)));
	strscpy(site->fmt, fmt);
	if (show)
		snprintf(site->show, sizeof(site->show), "%ps", show);
	else
		strscpy(site->show, "seq_buf");
	/* No symbol: %ps printed the address, which is no name to keep */
	if (!strncmp(site->show, "0x", 2))
		strscpy(site->show, "?");
	/* Pairs with seq_ptr_sites_show(): the names are filled in */
	smp_store_release(&site->ready, true);
}

/* The site of @key, claimed and named if new; NULL if the table is full */
static struct seq_ptr_site *seq_ptr_site_get(unsigned long key,
					     const void *show, const char *fmt,
					     const struct seq_ptr_leak *leak)
{
	unsigned int h = hash_long(key, SEQ_PTR_SITE_BITS);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(seq_ptr_sites); i++) {
		struct seq_ptr_site *site =
			&seq_ptr_sites[(h + i) & (ARRAY_SIZE(seq_ptr_sites) - 1)];
		unsigned long old = READ_ONCE(site->key);

		if (!old) {
			old = cmpxchg(&site->key, 0UL, key);
			if (!old) {
				seq_ptr_site_fill(site, show, fmt, leak);
				return site;
			}
		}
		if (old == key)
			return site;
	}
	return NULL;
}

/*
 * Count the leak at its site and trace it, every time; log one line per
 * site, rate limited.  A site is marked logged only once its line passed
 * the rate limit, so a burst cannot silence a site for good.  The value
 * itself is never logged or traced: neither is a safer place for it.
 */
static void seq_ptr_report(const void *show, unsigned long key,
			   const char *fmt, const struct seq_ptr_leak *leak,
			   bool refused)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);
	struct seq_ptr_site *site = seq_ptr_site_get(key, show, fmt, leak);
	unsigned long flags;

	trace_seq_ptr_guard_leak(show, leak, refused);
	if (site) {
		atomic_long_inc(refused ? &site->refused : &site->logged);
		spin_lock_irqsave(&seq_ptr_sites_lock, flags);
		strscpy(site->comm, current->comm);
		spin_unlock_irqrestore(&seq_ptr_sites_lock, flags);
		if (test_bit(SEQ_PTR_SITE_REPORTED, &site->flags))
			return;
	} else {
		atomic_long_inc(&seq_ptr_sites_lost);
	}

	if (!__ratelimit(&rs))
		return;
	if (site && test_and_set_bit(SEQ_PTR_SITE_REPORTED, &site->flags))
		return;

	if (show)
		pr_warn("%ps: \"%.*s\"%s prints a kernel address (%s)%s%s[%d]\n",
			show, leak->conv_len, leak->conv,
			leak->depth ? " in %pV" : "",
			seq_ptr_kind_name(leak->kind),
			refused ? ", refused to " : ", read by ",
			current->comm, task_pid_nr(current));
	else
		pr_warn("seq_buf: \"%.*s\"%s prints a kernel address (%s)%s%s[%d]\n",
			leak->conv_len, leak->conv,
			leak->depth ? " in %pV" : "",
			seq_ptr_kind_name(leak->kind),
			refused ? ", refused to " : ", read by ",
			current->comm, task_pid_nr(current));
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * seq_ptr_guard_site_counts - how often the site of @key leaked, for tests
 * @key: the format of a seq_printf() call site
 * @logged: times it was found and printed
 * @refused: times it was refused
 *
 * Return: false if the site is not in the table.
 */
bool seq_ptr_guard_site_counts(const void *key, long *logged, long *refused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(seq_ptr_sites); i++) {
		struct seq_ptr_site *site = &seq_ptr_sites[i];

		if (READ_ONCE(site->key) == (unsigned long)key) {
			*logged = atomic_long_read(&site->logged);
			*refused = atomic_long_read(&site->refused);
			return true;
		}
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(seq_ptr_guard_site_counts);
#endif

/*
 * May this seq_file reader see kernel addresses in mode 2?  Like %pK, but
 * judged on the credentials the file was opened with, and only if the
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

	return !security_capable(opener, &init_user_ns, CAP_SYSLOG,
				 CAP_OPT_NOAUDIT);
}

static bool seq_ptr_refuse(int mode, bool privileged)
{
	return mode == SEQ_PTR_GUARD_REFUSE ||
	       (mode == SEQ_PTR_GUARD_REFUSE_UNPRIV && !privileged);
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
	int kptr_restrict;		/* the one the walker was chosen by */
	bool found;
	bool refuse;
};

static bool seq_ptr_check_privileged(const struct seq_ptr_check *c)
{
	if (c->m)
		return seq_ptr_file_reader_privileged(c->m->file);
	/*
	 * A seq_buf has no file and no records: the reader is whoever
	 * formats it (the task reading a tracefs file).
	 */
	return in_task() && seq_ptr_pk_reader();
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
 * The vsnprintf_walk() callback.  The first leak decides: stop formatting
 * if it is refused; in log mode, note it and print on.  A mode switched to
 * 0 since the walk began lets the output through, as the walk would not
 * have begun.
 */
static int seq_ptr_check_conv(const struct printf_conv *conv, void *data)
{
	struct seq_ptr_check *c = data;
	struct seq_ptr_walk w = {
		/* as seq_ptr_env_init(), with the kptr_restrict of the walker */
		.env = {
			.no_hash_pointers = no_hash_pointers,
			.kptr_restrict = c->kptr_restrict,
			.pk_reader = -1,
		},
		.leak = &c->leak,
	};
	int mode;

	if (c->found)
		return 0;
	if (!seq_ptr_walk_conv(conv, &w))
		return 0;

	mode = READ_ONCE(seq_ptr_guard_mode);
	if (mode == SEQ_PTR_GUARD_OFF)
		return 0;
	c->found = true;
	c->refuse = seq_ptr_refuse(mode, mode == SEQ_PTR_GUARD_REFUSE_UNPRIV &&
				   seq_ptr_check_privileged(c));
	return c->refuse ? -EPERM : 0;
}

/* Out of the way of the common case: log the leak, and refuse it or not. */
static noinline int seq_ptr_guard_found(struct seq_ptr_check *c,
					const char *fmt, int len)
{
	struct seq_file *m = c->m;

	seq_ptr_report(m && m->op ? m->op->show : NULL, (unsigned long)fmt,
		       fmt, &c->leak, c->refuse);
	if (!c->refuse)
		return len;
	if (m)
		m->ptr_refused = true;
	return -EPERM;
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
		.kptr_restrict = READ_ONCE(kptr_restrict),
	};
	int len;

	if (m && m->ptr_refused)	/* the record is lost anyway */
		return -EPERM;

	len = vsnprintf_walk(buf, size, fmt, args,
			     seq_ptr_walker(c.kptr_restrict), &c);
	if (likely(!c.found))
		return len;
	return seq_ptr_guard_found(&c, fmt, len);
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
		.kptr_restrict = READ_ONCE(kptr_restrict),
	};
	int len;

	if (m && m->ptr_refused)	/* the record is lost anyway */
		return -EPERM;

	len = bstr_printf_walk(buf, size, fmt, bin_buf,
			       seq_ptr_walker(c.kptr_restrict), &c);
	if (likely(!c.found))
		return len;
	return seq_ptr_guard_found(&c, fmt, len);
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
 * would be; user-space values (the ranges of /proc/PID/maps) and counts
 * pass.
 *
 * Return: true if it is refused; the record is then marked, and
 * seq_show() in fs/seq_file.c fails it.
 */
bool __seq_ptr_guard_num(struct seq_file *m, unsigned long long num,
			 const char *conv, unsigned long site)
{
	struct seq_ptr_leak leak = {
		.kind = SEQ_PTR_INT,
		.conv = conv,
	};
	bool refuse;
	int mode;

	if (m->ptr_refused)	/* the record is lost anyway */
		return true;
	if (num > ULONG_MAX || !seq_ptr_is_kernel_addr((unsigned long)num))
		return false;

	mode = READ_ONCE(seq_ptr_guard_mode);
	if (mode == SEQ_PTR_GUARD_OFF)
		return false;
	refuse = seq_ptr_refuse(mode, mode == SEQ_PTR_GUARD_REFUSE_UNPRIV &&
				seq_ptr_file_reader_privileged(m->file));
	leak.conv_len = strlen(conv);
	seq_ptr_report(m->op ? m->op->show : NULL, site, conv, &leak, refuse);
	if (refuse)
		m->ptr_refused = true;
	return refuse;
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

/*
 * debugfs: seq_ptr_guard/sites, one line per call site found printing an
 * address, as key=value words: the show() function, the conversion, its
 * kind, how many times it was logged and printed, how many times refused,
 * the last reader, and the format (quoted, escaped as %pE escapes).  Root
 * only, as debugfs is; still, no value is kept to show.
 */
static int seq_ptr_sites_show(struct seq_file *m, void *v)
{
	unsigned int i;
	long lost;

	for (i = 0; i < ARRAY_SIZE(seq_ptr_sites); i++) {
		struct seq_ptr_site *site = &seq_ptr_sites[i];
		char comm[TASK_COMM_LEN];
		unsigned long flags;

		/* Pairs with seq_ptr_site_fill(): a site being named is skipped */
		if (!smp_load_acquire(&site->ready))
			continue;
		spin_lock_irqsave(&seq_ptr_sites_lock, flags);
		strscpy(comm, site->comm);
		spin_unlock_irqrestore(&seq_ptr_sites_lock, flags);
		seq_printf(m, "show=\"%s\" conv=\"%s\" kind=%s logged=%ld refused=%ld comm=\"%*pE\" fmt=\"%*pE\"\n",
			   site->show, site->conv,
			   seq_ptr_kind_name(site->kind),
			   atomic_long_read(&site->logged),
			   atomic_long_read(&site->refused),
			   (int)strlen(comm), comm,
			   (int)strlen(site->fmt), site->fmt);
	}
	lost = atomic_long_read(&seq_ptr_sites_lost);
	if (lost)
		seq_printf(m, "# %ld leaks at sites the table had no room for\n",
			   lost);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(seq_ptr_sites);

static int __init seq_ptr_guard_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("seq_ptr_guard", NULL);

	debugfs_create_file("sites", 0400, dir, NULL, &seq_ptr_sites_fops);
	return 0;
}
late_initcall(seq_ptr_guard_debugfs_init);

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
	if (IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE))
		seq_ptr_min_addr = TASK_SIZE;
	seq_ptr_walkers_init();
#ifdef CONFIG_SYSCTL
	register_sysctl_init("kernel", seq_ptr_guard_table);
#endif
	seq_ptr_guard_apply(seq_ptr_guard_mode);
	return 0;
}
early_initcall(seq_ptr_guard_init);
