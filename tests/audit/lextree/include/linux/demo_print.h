/* SPDX-License-Identifier: GPL-2.0 */
/* Wrappers declared in a header of the tree, found by their __printf(). */
#ifndef DEMO_PRINT_H
#define DEMO_PRINT_H

struct seq_file;
struct seq_buf;

__printf(2, 3) void demo_seq_print(struct seq_file *m, const char *fmt, ...);
extern __printf(3, 4)
void demo_buf_dbg(int level, struct seq_buf *s, const char *fmt, ...);
void demo_seq_vprint(struct seq_file *m, const char *fmt, va_list ap) __printf(2, 0);

/* no seq_file: not a seq output function */
__printf(1, 2) void demo_log(const char *fmt, ...);

#endif
