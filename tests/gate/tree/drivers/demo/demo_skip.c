// SPDX-License-Identifier: GPL-2.0
/*
 * A function that prints nothing before one that prints a gated %px and
 * whose head starts with no C keyword (tests/gate: quiet-skip).  Its
 * local's name holds "seq": spatch's slice (model/lex_slice.c) keeps
 * the body, as it keeps every body naming a seq function, so that
 * spatch reads the line the patch breaks.
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>

#include "demo.h"

static int demo_skip_helper(int a)
{
	int seqno = a + 1;

	return seqno;
}

bool demo_skip_show(struct seq_file *m, void *v)
{
	struct demo_obj *obj = m->private;

	if (kallsyms_show_value(m->file->f_cred))
		seq_printf(m, "obj: %px\n", obj);
	return true;
}
