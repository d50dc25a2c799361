// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the only seq output call takes its format from a table the
 * lexical model cannot read (an indexed array of formats): not one
 * finding, but not clean either.  ptrguard audit must exit 1 and count
 * the call as not understood.
 */
#include <linux/seq_file.h>

static const char *const fmts[] = { "%px\n", "%lu\n" };

static int table_show(struct seq_file *m, void *v)
{
	seq_printf(m, fmts[m->index & 1], v);
	return 0;
}
