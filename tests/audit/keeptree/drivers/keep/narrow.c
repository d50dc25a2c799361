// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: held() assigns a pointer cast to a local that show() prints
 * (int-held): its body stays.  narrow() casts a pointer to an unsigned
 * int, too narrow for the rules to follow (the address is cut): its
 * body is blanked.  (title() is the body kept for the rule's seq call.)
 */
struct seq_file;
int seq_printf(struct seq_file *m, const char *fmt, ...);

static void title(struct seq_file *m)
{
	seq_printf(m, "addr\n");
}

static int held(struct seq_file *m, void *p)
{
	unsigned long v = (unsigned long)p;

	seq_printf(m, "%lx\n", v);
	return 0;
}

static int narrow(void *p)
{
	unsigned int v = (unsigned int)p;

	return v 1 2;
}
