/* SPDX-License-Identifier: GPL-2.0 */
/* The few seq_file declarations the gate fixture tree uses. */
#ifndef _LINUX_SEQ_FILE_H
#define _LINUX_SEQ_FILE_H

struct seq_file {
	char *buf;
	unsigned long size;
	void *private;
};

void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
void seq_put_decimal_ull(struct seq_file *m, const char *delimiter, unsigned long long num);
void seq_put_hex_ll(struct seq_file *m, const char *delimiter, unsigned long long v,
		    unsigned int width);

#endif
