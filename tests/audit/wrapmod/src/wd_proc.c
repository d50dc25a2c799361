// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: /proc output of an out-of-tree driver that goes only through
 * the print macros and the __printf() function of its own header
 * (include/wd_debug.h): no seq_printf() is named in this file.
 */
#include <linux/module.h>
#include <linux/seq_file.h>
#include "../include/wd_debug.h"

struct wd_priv {
	void __iomem *regs;
	unsigned long tx_packets;
	const char *fmt;
};

static int wd_proc_show(struct seq_file *m, void *v)
{
	struct wd_priv *priv = m->private;

	WD_PRINT(m, "priv %px tx %lu\n", priv, priv->tx_packets);
	WD_PRINT(m, "regs 0x%lx\n", (unsigned long)priv->regs);
	WD_SEQ(m, "alias %px\n", priv);
	WD_DUMP(m, 1, "dump %px\n", priv);
	wd_seq_line(m, 2, "line %px\n", priv);
	WD_PRINT(m, "hashed %p tx %lu\n", priv, priv->tx_packets);
	WD_PRINT(m, priv->fmt, priv);
	return 0;
}

MODULE_LICENSE("GPL");

/*
 * check-output-start
src/wd_proc.c:21:20: warning: px: %px: raw kernel address in seq_file output; use %p (hashed) or %pK
src/wd_proc.c:22:22: warning: int-cast: %lx: pointer cast to an integer prints the raw address; print the pointer with %p
src/wd_proc.c:23:19: warning: px: %px: raw kernel address in seq_file output; use %p (hashed) or %pK
src/wd_proc.c:24:22: warning: px: %px: raw kernel address in seq_file output; use %p (hashed) or %pK
src/wd_proc.c:25:26: warning: px: %px: raw kernel address in seq_file output; use %p (hashed) or %pK
 * check-output-end
 */
