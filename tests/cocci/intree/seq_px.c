// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture of scripts/coccinelle/misc/seq_px.cocci, the in-tree rule: the
 * shapes it reports and the gated ones it leaves alone.  Compiles on its
 * own; the expected report lines are at the end.
 */
#include <stddef.h>

struct seq_file;
struct seq_buf;
struct trace_seq;
struct cred;
union sigval { int sival_int; void *sival_ptr; };

int seq_printf(struct seq_file *m, const char *f, ...)
	__attribute__((format(printf, 2, 3)));
int seq_buf_printf(struct seq_buf *s, const char *f, ...)
	__attribute__((format(printf, 2, 3)));
void trace_seq_printf(struct trace_seq *s, const char *f, ...)
	__attribute__((format(printf, 2, 3)));
int kallsyms_show_value(const struct cred *cred);

struct gate_iter {
	int show_value;
	void *addr;
};

void leaks(struct seq_file *m, struct seq_buf *b, struct trace_seq *t,
	   void *p, int n)
{
	seq_printf(m, "%d %px\n", n, p);
	seq_buf_printf(b, "%*d %px\n", n, n, p);
	trace_seq_printf(t, "%%px %px\n", p);
	seq_printf(m, "%p %pK %pS\n", p, p, p);
	seq_printf(m, "%px"
		   " %px\n", NULL, p);
	seq_printf(m, "%d%px\n", n, p);
}

/* A condition that is no privilege check gates nothing. */
void ungated(struct seq_file *m, void *p, void *d)
{
	void *q;

	q = d ? p : NULL;
	seq_printf(m, "%px\n", q);
}

void gated(struct seq_file *m, const struct cred *c, void *p,
	   union sigval *v, struct gate_iter *it)
{
	void *a, *b;
	void *z = p;

	a = kallsyms_show_value(c) ? p : NULL;
	seq_printf(m, "%px\n", a);
	it->show_value = kallsyms_show_value(c);
	b = it->show_value ? it->addr : NULL;
	seq_printf(m, "%px\n", b);
	if (!kallsyms_show_value(c))
		z = NULL;
	seq_printf(m, "%px\n", z);
	if (kallsyms_show_value(c))
		seq_printf(m, "%px\n", p);
	if (!kallsyms_show_value(c))
		seq_printf(m, "%px\n", NULL);
	else
		seq_printf(m, "%px\n", p);
	seq_printf(m, "%px\n", v->sival_ptr);
}

/*
 * check-report-start
31
32
33
35
37
46
 * check-report-end
 */
