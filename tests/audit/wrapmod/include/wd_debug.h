/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixture: an out-of-tree driver's print macros, as a real Wi-Fi driver
 * has them: an object-like alias of seq_printf, a variadic wrapper over
 * the alias, and a __printf() function of its own.
 */
#ifndef WD_DEBUG_H
#define WD_DEBUG_H

#include <linux/seq_file.h>

#define WD_SEQ seq_printf
#define WD_PRINT(m, fmt, ...) WD_SEQ(m, fmt, ##__VA_ARGS__)
#define WD_DUMP(m, lvl, fmt, args...)		\
	do {					\
		if (lvl)			\
			WD_PRINT(m, fmt, ##args);	\
	} while (0)

__printf(3, 4) void wd_seq_line(struct seq_file *m, int indent, const char *fmt, ...);

#endif
