/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vsnprintf_walk() and bstr_printf_walk(): vsnprintf() and bstr_printf()
 * with a callback that watches each value as it is printed.  Private to
 * lib/: the seq_file pointer guard (lib/seq_ptr_guard.c) is the one user,
 * and its KUnit suite; exported only for KUnit.
 */
#ifndef _LIB_PRINTF_WALK_H
#define _LIB_PRINTF_WALK_H

#include <linux/stdarg.h>
#include <linux/types.h>

/**
 * struct printf_conv - One conversion of a format, as vsnprintf() reads it
 * @spec: The conversion in the format string, from its '%'
 * @len: Its length, %p extension characters included
 * @conv: The conversion character: 'p', or for integers 'd', 'i', 'u', 'o',
 *	'x' or 'X'
 * @qualifier: For integers: 0, 'H' (hh), 'h', 'l', 'L' (ll), 'z' or 't'
 * @ext: For 'p': the character right after it, which selects the extension
 * @num: For integers: the value, converted as vsnprintf() does
 * @ptr: For 'p': the argument
 * @out: The text printed for the conversion; NULL when none of it is in
 *	the buffer (a walk with no buffer, or one too small).  The callback
 *	may rewrite it in place, keeping its length
 * @out_len: How much of that text is in the buffer: less than it printed
 *	when the buffer is too small
 */
struct printf_conv {
	const char *spec;
	int len;
	char conv;
	char qualifier;
	char ext;
	union {
		unsigned long long num;
		const void *ptr;
	};
	char *out;
	int out_len;
};

typedef int (*printf_walk_fn)(const struct printf_conv *conv, void *data);

/**
 * struct printf_walker - what vsnprintf_walk() shows, and to whom
 * @fn: Called with each value shown
 * @min_num: Integers below this value are not shown (as unsigned long
 *	long: a negative int is a large value)
 * @ptr_ext: Bitmap over the character right after "%p" (bit c % 8 of byte
 *	c / 8): a %p conversion is shown only if the bit of its character is set
 *
 * Usually built once and shared by every call, which only brings its data.
 */
struct printf_walker {
	printf_walk_fn fn;
	unsigned long long min_num;
	u8 ptr_ext[256 / 8];
};

int vsnprintf_walk(char *buf, size_t size, const char *fmt, va_list args,
		   const struct printf_walker *walker, void *data);
#ifdef CONFIG_BINARY_PRINTF
int bstr_printf_walk(char *buf, size_t size, const char *fmt,
		     const u32 *bin_buf, const struct printf_walker *walker,
		     void *data);
#endif

#endif /* _LIB_PRINTF_WALK_H */
