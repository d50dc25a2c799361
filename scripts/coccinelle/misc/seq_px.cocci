// SPDX-License-Identifier: GPL-2.0-only
///
/// Find %px in the formats of seq_file, seq_buf and trace_seq output.
/// Such output makes /proc, debugfs and tracefs files, which are often
/// readable by every user: a raw kernel address there defeats KASLR.
/// From Documentation/core-api/printk-formats.rst:
///  Before using %px, consider if using %p is sufficient together with
///  enabling the 'no_hash_pointers' kernel parameter during debugging.
///
/// A %px is not reported when its value cannot be an address the reader
/// should not see: a NULL constant, a value set to NULL unless
/// kallsyms_show_value() allows it or chosen between NULL and an address
/// by a condition (as /proc/kallsyms does), a call in the branch taken
/// only when kallsyms_show_value() is true, or union sigval's sival_ptr,
/// a user-space pointer.  There is no patch mode: whether %p, %pK or no
/// address at all is right is for the file's maintainer to decide.
///
// Confidence: High
// Options: --no-includes --include-headers
// Keywords: seq_printf, seq_buf_printf, trace_seq_printf, %px
//

virtual context
virtual org
virtual report

@initialize:python@
@@
import re

conv = re.compile(r'%[-+ #0]*(\*|[0-9]*)(\.(\*|[0-9]*))?[hlLqjzZt]*(.)(.?)')

def px_args(fmt):
	"""The indexes of the arguments printed by a %px of a format literal."""
	text = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', fmt))
	args = []
	n = 0
	for m in conv.finditer(text):
		if m.group(4) == '%':
			continue
		n += (m.group(1) == '*') + (m.group(3) == '*')
		if m.group(4) == 'p' and m.group(5) == 'x':
			args.append(n)
		n += 1
	return args

// Every argument of a %px conversion: es holds the n arguments before it.
@r depends on context || org || report@
expression s, e;
constant char[] fmt;
expression list[n] es;
position pf, p;
@@

\(seq_printf\|seq_buf_printf\|trace_seq_printf\)(s, fmt@pf, es, e@p, ...)

// union sigval's sival_ptr is a user-space pointer, not a kernel address.
@script:python@
fmt << r.fmt;
n << r.n;
e << r.e;
@@

if int(n) not in px_args(fmt) or re.search(r'(\.|->)\s*sival_ptr$', e):
	cocci.include_match(False)

// A constant NULL prints only zeros.
@null_value@
position r.p, q;
@@

NULL@p@q

// The value was chosen for this reader: NULL unless a condition holds.
@gated_value exists@
identifier x;
expression c, v;
type T;
position r.p, q;
@@

(
x = \(c ? v : NULL\|c ? NULL : v\);
|
T x = \(c ? v : NULL\|c ? NULL : v\);
|
if (!kallsyms_show_value(...))
	x = NULL;
)
...
x@p@q

// The call runs only for readers allowed to see addresses.
@gated_call@
expression e;
position r.p, q;
statement S;
@@

(
if (kallsyms_show_value(...)) { <+... e@p@q ...+> } else S
|
if (kallsyms_show_value(...)) { <+... e@p@q ...+> }
|
if (!kallsyms_show_value(...)) S else { <+... e@p@q ...+> }
)

@px depends on r@
identifier fn;
expression r.s, e;
constant char[] r.fmt;
expression list r.es;
position r.pf;
position p != {null_value.q, gated_value.q, gated_call.q};
@@

fn(s, fmt@pf, es, e@p, ...)

@depends on context@
identifier px.fn;
expression r.s;
constant char[] r.fmt;
expression list r.es;
position px.p;
expression e;
@@

* fn(s, fmt, es, e@p, ...)

@script:python depends on org@
p << r.pf;
fn << px.fn;
@@

coccilib.org.print_todo(p[0], "WARNING: %%px in %s() output prints a raw kernel address; use %%p" % fn)

@script:python depends on report@
p << r.pf;
fn << px.fn;
@@

coccilib.report.print_report(p[0], "WARNING: %%px in %s() output prints a raw kernel address; use %%p" % fn)
