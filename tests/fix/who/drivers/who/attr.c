// SPDX-License-Identifier: GPL-2.0
/* A sysfs attribute (0444) whose show function writes through a seq_buf. */
#include "who_decls.h"

static int base_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct seq_buf s;

	seq_buf_init(&s, buf, PAGE_SIZE);
	seq_buf_printf(&s, "%px\n", dev);
	return seq_buf_used(&s);
}
static DEVICE_ATTR_RO(base);
