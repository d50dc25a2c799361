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

#include <linux/seq_ptr_kind.h>
#include <linux/kernel.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/types.h>

struct seq_file;

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

void seq_ptr_env_init(struct seq_ptr_env *env);
bool seq_ptr_guard_find(const struct seq_ptr_env *env, struct seq_ptr_leak *leak,
			const char *fmt, va_list args);
#if IS_ENABLED(CONFIG_KUNIT)
struct printf_conv;
enum seq_ptr_kind seq_ptr_conv_kind(const struct printf_conv *conv);
#endif

#endif /* CONFIG_SEQ_PTR_GUARD */

#endif /* _LINUX_SEQ_PTR_GUARD_H */
