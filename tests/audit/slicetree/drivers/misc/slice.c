// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: spatch is given a slice of this file (model/lex_slice.c).
 * unparsable()'s body holds no seq call, cast or field assignment: its
 * code is blanked, so spatch no longer fails on it and the file counts
 * as fully parsed.  slice_show() stays whole, and the cast rule types
 * d->regs from "../common/slice_dev.h", which spatch finds only if the
 * slice's mirror of the tree resolves "../" as the tree does: regs is a
 * pointer (int-cast), count an integer (nothing).
 */
#include "../common/slice_dev.h"

struct seq_file;
int seq_printf(struct seq_file *m, const char *fmt, ...);

static int unparsable(int x)
{
	return x 1 2 3;
}

static int slice_show(struct seq_file *m, struct slice_dev *d)
{
	seq_printf(m, "%lx %lx\n", (unsigned long)d->regs, (unsigned long)d->count);
	return unparsable(0);
}
