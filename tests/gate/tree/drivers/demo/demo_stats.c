// SPDX-License-Identifier: GPL-2.0
/* Counters of the demo driver, printed after its state. */
#include <linux/seq_file.h>

#include "demo.h"

static unsigned long demo_opens;
static unsigned long demo_reads;

int demo_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "opens: %lu\n", demo_opens);
	seq_printf(m, "reads: %lu\n", demo_reads);
	return 0;
}
