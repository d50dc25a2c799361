// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses held in integers: ptrguard fix prints a held local and the
 * text a helper formats as the pointers they are (%p, the integer cast
 * back to void *, or the cast gone), and leaves an address range out,
 * saying why.  The field is a note: rewritten with --all only.
 */
#include "held_decls.h"

struct held {
	void *base;
	unsigned long off;
	unsigned long mmio;	/* the base again, as an integer */
	unsigned long len;
};

static char info[64];

void held_setup(struct held *h, void *p);
void held_setup(struct held *h, void *p)
{
	h->base = p;
	h->mmio = (unsigned long)p;
}

static const char *held_info(struct held *h)
{
	snprintf(info, sizeof(info), "at 0x%lx", (unsigned long)h->base);
	return info;
}

static int held_show(struct seq_file *m, void *v)
{
	struct held *h = m->private;
	unsigned long addr;

	addr = (unsigned long)((char *)h->base + h->off);
	seq_printf(m, "reg 0x%08lx = %lu\n",
			addr, h->off);
	seq_printf(m, "mmio 0x%lx\n", h->mmio);
	seq_printf(m, "window 0x%lx-0x%lx\n", h->mmio, h->mmio + h->len - 1);
	seq_printf(m, "%s\n", held_info(h));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(held);

void held_init(void);
void held_init(void)
{
	debugfs_create_file("held", 0400, NULL, NULL, &held_fops);
}
