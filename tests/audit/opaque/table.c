// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the only seq output call takes its format from a member of a
 * table of structs, which the lexical model cannot read (it reads an
 * element of an array of literals, not a member): not one finding, but
 * not clean either.  ptrguard audit must exit 1 and count the call as
 * not understood.
 */
#include <linux/seq_file.h>

struct fmt_entry {
	int id;
	const char *fmt;
};

static const struct fmt_entry fmts[] = { { 0, "%px\n" }, { 1, "%lu\n" } };

static int table_show(struct seq_file *m, void *v)
{
	seq_printf(m, fmts[m->index & 1].fmt, v);
	return 0;
}
