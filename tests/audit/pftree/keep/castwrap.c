// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: a pointer cast printed wide through a macro wrapper
 * the file defines, whose name holds no "seq" (RTW_PRINT_SEL-style): a
 * call of it is a seq call for the cast check too.  Before December
 * 2026 the cast rule never saw this file, and the judge dropped the
 * cast of a call the cast rule had not parsed.
 */
#include <linux/seq_file.h>

struct drv_priv {
	void __iomem *regs;
};

#define DRV_DUMP(m, fmt, ...) seq_printf(m, fmt, ##__VA_ARGS__)
#define DRV_SEL(m, fmt, arg...) DRV_DUMP(m, fmt, ##arg)

static int castwrap_show(struct seq_file *m, void *v)
{
	struct drv_priv *priv = m->private;

	DRV_SEL(m, "regs %lx\n", (unsigned long)priv->regs);
	return 0;
}
