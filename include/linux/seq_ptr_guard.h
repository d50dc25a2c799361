/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keep raw kernel addresses out of seq_file output.
 *
 * See Documentation/admin-guide/sysctl/kernel.rst (seq_ptr_guard) for the
 * modes and lib/seq_ptr_guard.c for what counts as an address.  The
 * hooks are for fs/seq_file.c and lib/seq_buf.c, which are built in:
 * the static key and the threshold they read are not exported.
 */
#ifndef _LINUX_SEQ_PTR_GUARD_H
#define _LINUX_SEQ_PTR_GUARD_H

#include <linux/jump_label.h>
#include <linux/seq_ptr_kind.h>
#include <linux/kernel.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/types.h>

struct seq_file;

/*
 * The modes of kernel.seq_ptr_guard.  "Unprivileged" is a reader the
 * kernel would not show addresses to: !kallsyms_show_value() of the
 * credentials the file was opened with.
 */
enum seq_ptr_guard_mode {
	SEQ_PTR_GUARD_OFF,		/* no checks, no cost */
	SEQ_PTR_GUARD_LOG,		/* log the call site, print as usual */
	SEQ_PTR_GUARD_CENSOR,		/* print zeros to the unprivileged */
	SEQ_PTR_GUARD_REFUSE,		/* fail their read of the record */
};

/* What became of one leak: the names the log, debugfs and tracing use */
enum seq_ptr_action {
	SEQ_PTR_SHOW,
	SEQ_PTR_CENSOR,
	SEQ_PTR_REFUSE,
	SEQ_PTR_NR_ACTIONS
};

/**
 * struct seq_ptr_env - what decides whether a conversion prints an address
 * @no_hash_pointers: plain %p prints raw values
 * @kptr_restrict: the kernel.kptr_restrict setting
 * @pk_reader: %pK prints raw values to this reader when kptr_restrict is 1:
 *	1 yes, 0 no, -1 not known yet (checked on first use, as %pK does)
 *
 * This is a snapshot of the global settings taken once per printf call, so
 * that one decision sees one consistent state, and so that tests can ask
 * about other states than the running kernel's.
 */
struct seq_ptr_env {
	bool no_hash_pointers;
	int kptr_restrict;
	int pk_reader;
};

/**
 * struct seq_ptr_leak - the first conversion found to print an address
 * @kind: what kind of conversion it is
 * @conv: its text in the format, "%px" in "a=%px\n" (not NUL-terminated)
 * @conv_len: the length of that text
 * @depth: how many %pV it is nested in
 */
struct seq_ptr_leak {
	enum seq_ptr_kind kind;
	const char *conv;
	int conv_len;
	unsigned int depth;
};

#ifdef CONFIG_SEQ_PTR_GUARD

DECLARE_STATIC_KEY_FALSE(seq_ptr_guard_active);
extern unsigned long seq_ptr_min_addr;

void seq_ptr_env_init(struct seq_ptr_env *env);
void seq_ptr_censor(char *text, int len);
bool seq_ptr_guard_find(const struct seq_ptr_env *env, struct seq_ptr_leak *leak,
			const char *fmt, va_list args);
#if IS_ENABLED(CONFIG_KUNIT)
struct printf_conv;
enum seq_ptr_kind seq_ptr_conv_kind(const struct printf_conv *conv);
int seq_ptr_guard_set_mode(int mode);
#endif

int __seq_ptr_guard_vsnprintf(struct seq_file *m, char *buf, size_t size,
			      const char *fmt, va_list args);

/**
 * seq_ptr_guard_vsnprintf - vsnprintf() for seq output, unless it leaks
 * @m: the seq_file being filled, or NULL for a seq_buf
 * @buf: where to format
 * @size: room at @buf
 * @fmt: the format
 * @args: its arguments
 *
 * Return: what vsnprintf() returns, with any address it printed censored
 * for a reader who may not see it, or -EPERM if the guard refused the
 * output; a seq_file's record is then marked refused, and seq_read_iter()
 * fails it with -EPERM.
 */
static inline int seq_ptr_guard_vsnprintf(struct seq_file *m, char *buf,
					  size_t size, const char *fmt,
					  va_list args)
{
	if (static_branch_unlikely(&seq_ptr_guard_active))
		return __seq_ptr_guard_vsnprintf(m, buf, size, fmt, args);
	return vsnprintf(buf, size, fmt, args);
}

#ifdef CONFIG_BINARY_PRINTF
int __seq_ptr_guard_bstr_printf(struct seq_file *m, char *buf, size_t size,
				const char *fmt, const u32 *bin_buf);

/**
 * seq_ptr_guard_bstr_printf - bstr_printf() for seq output, unless it leaks
 * @m: the seq_file being filled, or NULL for a seq_buf
 * @buf: where to format
 * @size: room at @buf
 * @fmt: the format
 * @bin_buf: its arguments, as vbin_printf() recorded them
 *
 * Return: as seq_ptr_guard_vsnprintf().
 */
static inline int seq_ptr_guard_bstr_printf(struct seq_file *m, char *buf,
					    size_t size, const char *fmt,
					    const u32 *bin_buf)
{
	if (static_branch_unlikely(&seq_ptr_guard_active))
		return __seq_ptr_guard_bstr_printf(m, buf, size, fmt, bin_buf);
	return bstr_printf(buf, size, fmt, bin_buf);
}
#endif

bool __seq_ptr_guard_num(struct seq_file *m, unsigned long long num,
			 const char *conv, unsigned long site);

/**
 * seq_ptr_guard_num - must a seq_put_*() writer censor this number?
 * @m: the seq_file being filled
 * @num: the value it is about to print
 * @conv: the conversion that amounts to, for the log ("%llx"...)
 *
 * Most numbers are counts and sizes, below every kernel address: one
 * compare here settles them without a call (/proc/meminfo prints some 50
 * per read).  Always inlined: _RET_IP_ is then the writer's caller, which
 * names the call site.
 *
 * Return: true if the writer must seq_ptr_censor() what it prints.
 */
static __always_inline bool seq_ptr_guard_num(struct seq_file *m,
					      unsigned long long num,
					      const char *conv)
{
	if (static_branch_unlikely(&seq_ptr_guard_active) &&
	    num >= seq_ptr_min_addr)
		return __seq_ptr_guard_num(m, num, conv, _RET_IP_);
	return false;
}

#else /* !CONFIG_SEQ_PTR_GUARD */

static inline int seq_ptr_guard_vsnprintf(struct seq_file *m, char *buf,
					  size_t size, const char *fmt,
					  va_list args)
{
	return vsnprintf(buf, size, fmt, args);
}

#ifdef CONFIG_BINARY_PRINTF
static inline int seq_ptr_guard_bstr_printf(struct seq_file *m, char *buf,
					    size_t size, const char *fmt,
					    const u32 *bin_buf)
{
	return bstr_printf(buf, size, fmt, bin_buf);
}
#endif

static inline bool seq_ptr_guard_num(struct seq_file *m,
				     unsigned long long num, const char *conv)
{
	return false;
}

static inline void seq_ptr_censor(char *text, int len)
{
}

#endif /* CONFIG_SEQ_PTR_GUARD */

#endif /* _LINUX_SEQ_PTR_GUARD_H */
