// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: %px handed to local wrappers, whose own bodies hold no
 * literal at all: the literal is at the wrapper's call.
 */
#include <linux/seq_file.h>

static __printf(2, 3) void wrap_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	seq_vprintf(m, fmt, args);
	va_end(args);
}

#define WRAP(m, fmt, ...) seq_printf(m, fmt, ##__VA_ARGS__)

static int wrapper_show(struct seq_file *m, void *v)
{
	wrap_printf(m, "fn %px\n", v);
	WRAP(m, "macro %px\n", v);
	return 0;
}
