// SPDX-License-Identifier: GPL-2.0-only
///
/// Find %px in the formats of seq_file, seq_buf and trace_seq output,
/// which makes /proc, debugfs and tracefs files, often readable by every
/// user: a raw kernel address there defeats KASLR.  Not reported: a NULL
/// constant; a value NULL unless kallsyms_show_value(), or a field
/// holding its verdict, allows it (as /proc/kallsyms does), on one path
/// to the call; a call in the branch where kallsyms_show_value() is true;
/// union sigval's sival_ptr, a user-space pointer.  No patch mode: %p,
/// %pK or no address at all is the file maintainer's choice.
///
// Confidence: Moderate
// Options: --no-includes --include-headers
// Keywords: seq_printf, seq_buf_printf, trace_seq_printf, %px
//

virtual context
virtual org
virtual report

@initialize:python@
@@
import re

gates = set()

def gated(c):
	c = c.replace(' ', '')
	return 'kallsyms_show_value' in c or any(g in c for g in gates)

conv = re.compile(r'%[-+ #0]*(\*|[0-9]*)(\.(\*|[0-9]*))?[hlLqjzZt]*(.)')

def px_args(fmt):
	text = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', fmt))
	args = []
	n = 0
	for m in conv.finditer(text):
		if m.group(4) == '%':
			continue
		n += (m.group(1) == '*') + (m.group(3) == '*')
		if m.group(4) == 'p' and text[m.end():m.end() + 1] == 'x':
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

// A field holding a kallsyms_show_value() verdict (kallsyms.c's ->show_value).
@gate_field@
expression X;
identifier fld;
@@
X->fld = <+... kallsyms_show_value(...) ...+>;

@script:python@
fld << gate_field.fld;
@@
gates.add('->' + fld)

// The value was chosen for this reader: NULL unless the check allows it.
@gated_value exists@
identifier x;
expression c : script:python () { gated(c) };
expression v;
position r.p, q;
@@
(
x = \(c ? v : NULL\|c ? NULL : v\);
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
