/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough for the fixtures of pftree/: the cast rule reads the headers
 * (-I include) for the types of u64 and uintptr_t.
 */
#ifndef _LINUX_SEQ_FILE_H
#define _LINUX_SEQ_FILE_H

typedef unsigned long long u64;
typedef unsigned long uintptr_t;

struct seq_file;

void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void seq_put_hex_ll(struct seq_file *m, const char *delimiter, unsigned long long v,
		    unsigned int width);
int snprintf(char *buf, unsigned long size, const char *fmt, ...);
int sprintf(char *buf, const char *fmt, ...);

#endif
