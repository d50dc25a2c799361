// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: show() formats an address into a buffer and hands it to
 * put_buf(), which prints it (int-buf at the %lx): the rules follow a
 * buffer one call away, so put_buf()'s body stays (title() is the body
 * kept for the rule's seq call), and so does that of outer(), which
 * calls show().  far() calls outer(), two calls away from the
 * formatting: its body is blanked.
 */
struct seq_file;
int seq_printf(struct seq_file *m, const char *fmt, ...);
int snprintf(char *buf, unsigned long size, const char *fmt, ...);

static void title(struct seq_file *m)
{
	seq_printf(m, "addr\n");
}

static void put_buf(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s\n", s);
}

static void show(struct seq_file *m, void *p)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lx", (unsigned long)p);
	put_buf(m, buf);
}

static int outer(struct seq_file *m)
{
	show(m, 0);
	return 0;
}

static int far(struct seq_file *m)
{
	outer(m);
	return 1 2 3;
}
