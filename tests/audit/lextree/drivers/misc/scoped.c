// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the lexical model reads a name by the declarations in its
 * scope (spatch cannot parse scoped_show(): a statement macro used
 * without its semicolon).  scoped_write()'s user buffer "buf" and its
 * local "long base" say nothing of scoped_show()'s names; a file-scope
 * variable and a struct member hold in every function.  A local of a
 * type the model does not know (a typedef, which may be a pointer's)
 * leaves its name unknown; an array is its address.  shapes_show():
 * a member matched by name only (another struct's integer, a pointer
 * local elsewhere: unknown), a later declarator "*obj" (not "else obj
 * ="), a function pointer; scoped_early()'s #ifdef branches each open a
 * brace, scoped_dead()'s #if 0 holds its closing one, and neither ends a
 * function early nor late; SCOPED_DUMP()'s buf is its parameter, not
 * scoped_write()'s.
 */
#include <linux/seq_file.h>

struct scoped {
	void *base;
	unsigned long count;
};

static char __user *ubuf;

static long scoped_write(struct scoped *s, const char __user *buf, unsigned long n)
{
	long base = n;

	return base + !!buf + !!s;
}

static int scoped_show(struct seq_file *m, void *v)
{
	struct scoped *s = m->private;
	void *buf = s->base;
	unsigned long count = s->count;

	scoped_lock(s) scoped_unlock(s);
	seq_printf(m, "buf %px at %lx\n", buf, (unsigned long)s->base);
	seq_printf(m, "user %px count %lx\n", ubuf, (unsigned long)count);
	return 0;
}

typedef struct scoped *scoped_handle;

static int typed_show(struct seq_file *m, void *v)
{
	scoped_handle h = m->private;
	char name[16];
	unsigned int id = 0;

	scoped_lock(h) scoped_unlock(h);
	seq_printf(m, "%lx %lx %lx\n", (unsigned long)h, (unsigned long)name, (unsigned long)id);
	return 0;
}

/* scoped_hw is a header's struct: this file's member "hwbase" is another's. */
struct scoped_stats {
	unsigned long hwbase;
};

static void scoped_poke(struct scoped_hw *w)
{
	void *hwbase = w->hwbase;

	scoped_write(NULL, hwbase, 0);
}

#define SCOPED_DUMP(sq, buf) seq_printf(sq, "dump %px\n", buf)

static int scoped_early(int x)
{
#ifdef CONFIG_SCOPED
	if (x) {
#else
	if (!x) {
#endif
		x++;
	}
	return x;
}

static int scoped_dead(int x)
{
	if (x > 4) {
		x--;
#if 0
		x++; }
#else
	}
#endif
	return x;
}

static int shapes_show(struct seq_file *m, void *v)
{
	struct scoped_hw *w = m->private;
	struct scoped *s = m->private, *obj;
	void (*fn)(void) = NULL;

	if (s)
		obj = s;
	else
		obj = NULL;
	scoped_lock(w) scoped_unlock(w);
	seq_printf(m, "%lx %lx %lx\n", (unsigned long)w->hwbase, (unsigned long)obj,
		   (unsigned long)fn);
	SCOPED_DUMP(m, s->base);
	return 0;
}
