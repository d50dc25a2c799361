// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: dump() formats a %px into a buffer it hands to log_line()
 * (px-away).  The rule follows the buffer only in a file where its
 * seq call matched, and the file's only seq calls are in show() and
 * title(), which print no pointer: one of them (show(), the first) stays
 * for that, not open_it(), which names a seq_file but calls no seq
 * function.  title() is blanked: its broken statement is not parsed.
 */
struct seq_file;
int seq_printf(struct seq_file *m, const char *fmt, ...);
int snprintf(char *buf, unsigned long size, const char *fmt, ...);
void log_line(const char *s);

static int open_it(void *f)
{
	struct seq_file *sf = f;

	return sf != 0;
}

static int show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", 1);
	return 0;
}

static void dump(void *p)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "at %px", p);
	log_line(buf);
}

static void title(struct seq_file *m)
{
	seq_printf(m, "title %s\n", "x");
	return 1 2 3;
}
