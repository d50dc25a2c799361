// SPDX-License-Identifier: GPL-2.0
/*
 * The alignment of the lines a fix changes (tests/fix/run, 8): a line the
 * rewrite touches is the patch's line, and checkpatch --strict must find
 * it as it asks, with the continuation lines of its call aligned with the
 * open parenthesis, even where the original was not.  Every other line
 * stays byte for byte.  The fixed file is tests/fix/expected/align.c.fixed.
 */
#include "align_decls.h"

struct align {
	void *buf;
	unsigned long len, old, flags;
	unsigned long first_counter_value, second_counter_value, third_counter_value;
};

/* 1. sound/pci/rme9652/hdspm.c: the cast goes, the line moves to the parenthesis. */
void align_cast(struct seq_file *m, struct align *d)
{
	seq_printf(m, "len: %lu buf: 0x%lx\n",
			d->len, (unsigned long)d->buf);
}

/* 2. Only the format changes: the line after it is checked, and moves. */
void align_next(struct seq_file *m, struct align *d)
{
	seq_printf(m, "buf %px len %lu\n",
		d->buf, d->len);
}

/*
 * 3. A call is aligned as a whole: the last line, untouched, moves with
 * the one before it.  The statement after it is not the fix's: it stays.
 */
void align_whole(struct seq_file *m, struct align *d)
{
	seq_printf(m, "buf %lx len %lu old %lu\n",
			(unsigned long)d->buf,
			d->len, d->old);
	seq_printf(m, "len %lu old %lu\n",
			d->len, d->old);
}

/* 4. Aligned already, with the tabs of the call's line then spaces: kept. */
void align_spaces(struct seq_file *m, struct align *d)
{
	seq_printf(m, "buf %px len %lu\n",
	           d->buf, d->len);
}

/* 5. A parenthesis that ends its line opens an indented block: kept. */
void align_block(struct seq_file *m, struct align *d)
{
	seq_printf(
		m, "buf %px\n", d->buf);
}

/*
 * 6. The parenthesis of max() moves with its line: the line aligned with
 * it moves too, and stays aligned.
 */
void align_nested(struct seq_file *m, struct align *d)
{
	seq_printf(m, "buf %px max %lu\n",
			d->buf, max(d->len,
				    d->old));
}

/* 7. Past 100 columns once aligned: cut after the last comma that fits. */
void align_cut(struct seq_file *m, struct align *d)
{
	seq_printf(m, "buf %lx counters %lu %lu %lu len %lu\n",
		(unsigned long)d->buf, d->first_counter_value, d->second_counter_value, d->third_counter_value, d->len);
}

/* 8. A lone string literal may run past 100 columns: aligned, not cut. */
void align_string(struct seq_file *m, struct align *d)
{
	seq_printf(m,
		"buffer of the alignment fixture, as it is in memory at the time of reading: %px\n",
		d->buf);
}

/*
 * 9. No comma to cut at, and checkpatch does not check the line (the line
 * before it is not the patch's): it keeps its indentation.
 */
void align_keep(struct seq_file *m, struct align *d)
{
	seq_printf(m, "flags %lu len %lu buf %lx\n",
		   d->flags, d->len,
	(unsigned long)d->buf);	/* the last words of a comment at the end of the line, as long as it goes */
}

/*
 * 10. Brackets that differ between the branches of a conditional do not
 * lose the count: the call after them is aligned with its own parenthesis.
 */
int align_cond(struct seq_file *m, struct align *d)
{
#ifdef ALIGN_OLD_KERNEL
	if (!m ||
#else
	if (!d ||
#endif
	    !m->private)
		return 0;
	seq_printf(m, "old %lu buf %px\n", d->old,
			d->buf);
	return 0;
}

/* 11. A macro body is left as it is (its line ends are aligned backslashes). */
#define ALIGN_SHOW(m, d) \
	seq_printf(m, "buf %px\n", \
			(d)->buf)

void align_macro(struct seq_file *m, struct align *d)
{
	ALIGN_SHOW(m, d);
}

/*
 * 12. The line before is the patch's, but it does not open the call as
 * checkpatch's check wants ("NAME(" at its start): the last line, past
 * 100 columns once aligned with the parenthesis it continues and with no
 * comma to cut at, keeps its indentation.
 */
void align_unchecked(struct seq_file *m, struct align *d)
{
	seq_printf(m, "buf %lx sum %lu\n",
			(unsigned long)d->buf, (d->first_counter_value +
			d->second_counter_value + d->third_counter_value + d->len + d->old + d->flags));
}
