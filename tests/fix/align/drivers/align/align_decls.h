/* SPDX-License-Identifier: GPL-2.0 */
/* Just enough of the kernel for the fixtures to compile with gcc -fsyntax-only. */
#ifndef ALIGN_DECLS_H
#define ALIGN_DECLS_H

#define __printf(a, b) __attribute__((format(printf, a, b)))
#define max(a, b) ((a) > (b) ? (a) : (b))

struct seq_file {
	void *private;
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);

#endif
