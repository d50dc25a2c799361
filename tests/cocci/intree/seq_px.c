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

void leaks(struct seq_file *m, struct seq_buf *b, struct trace_seq *t,
	   void *p, int n)
{
	seq_printf(m, "%d %px\n", n, p);
	seq_buf_printf(b, "%*d %px\n", n, n, p);
	trace_seq_printf(t, "%%px %px\n", p);
	seq_printf(m, "%p %pK %pS\n", p, p, p);
	seq_printf(m, "%px"
		   " %px\n", NULL, p);
}

void gated(struct seq_file *m, const struct cred *c, void *p,
	   union sigval *v, int show)
{
	void *a = show ? p : NULL;
	void *z = p;

	seq_printf(m, "%px\n", a);
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
26
27
28
30
 * check-report-end
 */
