/* SPDX-License-Identifier: GPL-2.0 */
/* The only place that says which field of slice_dev is a pointer. */
struct slice_dev {
	void *regs;
	unsigned long count;
};
