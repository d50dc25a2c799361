// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the only seq output call takes its format from a member of a
 * table of structs that the file changes at run time (table_set()), so
 * the lexical model cannot read it (it reads a table only as its
 * initializer leaves it): not one finding, but not clean either.
 * ptrguard audit must exit 1 and count the call as not understood.
 */
#include <linux/seq_file.h>

struct fmt_entry {
	int id;
	const char *fmt;
};

static struct fmt_entry fmts[] = { { 0, "%p\n" }, { 1, "%lu\n" } };

void table_set(int i, const char *fmt)
{
	fmts[i & 1].fmt = fmt;
}

static int table_show(struct seq_file *m, void *v)
{
	seq_printf(m, fmts[m->index & 1].fmt, v);
	return 0;
}
