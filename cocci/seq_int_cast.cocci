// SPDX-License-Identifier: GPL-2.0-only
///
/// Find pointers cast to an integer and printed with a long-wide integer
/// conversion (%lx, %llx, %lu, %zx...) into seq_file output (/proc,
/// debugfs, tracefs).  Unlike %p, such a conversion is never hashed: the
/// reader sees the raw kernel address.  From
/// Documentation/core-api/printk-formats.rst:
///  Please consider whether or not you are leaking sensitive information
///  about the kernel memory layout before printing pointers with %px. %px
///  is functionally equivalent to %lx (or %lu).
/// Print the pointer itself with %p instead.
///
/// Whether the expression is a pointer is only known from its type, so
/// the headers must be parsed: this rule is several times slower than
/// seq_px.cocci.
///
// Confidence: High
// Copyright: (C) 2026 The ptrguard authors
// Options: --all-includes --include-headers-for-types
// Keywords: seq_printf, seq_buf_printf, trace_seq_printf, %lx
//

virtual patch
virtual context
virtual org
virtual report
virtual ptrguard

@initialize:python@
@@
"""
The Python side of ptrguard's rules, identical in cocci/seq_px.cocci and
cocci/seq_int_cast.cocci (tests/cocci/run checks it).  The SmPL rules find
the seq-output calls (pg_note_call) and classify their arguments
(pg_mark); these helpers re-lex each call's format from the source text,
decode its conversions as lib/vsprintf.c does, pair them with the
arguments, and print findings in the selected mode.  No at-sign, hash or
double backslash appears here: spatch's SmPL lexer would misread them.
"""
import os
import re
import sys

BS = chr(92)
TAB = chr(9)
NL = chr(10)
QUOTE = chr(34)
CMT_OPEN = '/' + '*'
CMT_CLOSE = '*' + '/'
CMT_LINE = '/' + '/'
FLAGS = '-+ 0' + chr(35)
INT_TYPES = 'diouxX'
WIDE = 'lLzZt'
USER_FIELDS = ('sival_ptr',)

pg_src = {}
pg_version = {}
pg_calls = {}
pg_marks = {}
pg_done = {}
pg_wrapfmt = {}
pg_user = {}


def pg_error(p, e):
    """Report a failure on stderr without ending the run: never hide a file."""
    try:
        where = '%s:%s' % (p.file, p.line)
    except Exception:
        where = '?'
    sys.stderr.write('ptrguard: rule error at %s: %s: %s' % (where, type(e).__name__, e) + NL)


def pg_source(path):
    """Text of a file (latin-1, so one byte is one column) and its line starts."""
    if path not in pg_src:
        if len(pg_src) > 64:
            pg_src.clear()
        with open(path, encoding='latin-1') as fp:
            text = fp.read()
        starts = [0]
        for m in re.finditer(NL, text):
            starts.append(m.end())
        pg_src[path] = (text, starts)
    return pg_src[path]


def pg_offset(path, line, col):
    text, starts = pg_source(path)
    return starts[int(line) - 1] + int(col)


def pg_linecol(path, off):
    text, starts = pg_source(path)
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if starts[mid] <= off:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1, off - starts[lo]


def pg_tree_version(path):
    """(VERSION, PATCHLEVEL) of the kernel tree holding path, from its top Makefile."""
    d = os.path.dirname(os.path.abspath(path))
    seen = []
    found = None
    while True:
        if d in pg_version:
            found = pg_version[d]
            break
        seen.append(d)
        mk = os.path.join(d, 'Makefile')
        if os.path.isfile(mk):
            try:
                with open(mk, encoding='latin-1') as fp:
                    head = fp.read(4096)
                v = re.search('^VERSION *= *([0-9]+)', head, re.M)
                p = re.search('^PATCHLEVEL *= *([0-9]+)', head, re.M)
                if v and p:
                    found = (int(v.group(1)), int(p.group(1)))
                    break
            except OSError:
                pass
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    for s in seen:
        pg_version[s] = found
    return found


def pg_hashes_p(path):
    """Plain %p is hashed from v4.15 on; a tree with no version is taken as current."""
    v = pg_tree_version(path)
    return v is None or v >= (4, 15)


def pg_skip(t, i):
    """Skip blanks, comments and line continuations."""
    n = len(t)
    while i < n:
        c = t[i]
        if c in ' ' + TAB + NL + chr(13) + chr(12) + chr(11):
            i += 1
        elif c == BS and i + 1 < n and t[i + 1] == NL:
            i += 2
        elif t.startswith(CMT_OPEN, i):
            j = t.find(CMT_CLOSE, i + 2)
            i = n if j < 0 else j + 2
        elif t.startswith(CMT_LINE, i):
            j = t.find(NL, i)
            i = n if j < 0 else j + 1
        else:
            break
    return i


def pg_quoted(t, i):
    """End (past the closing quote) of the string or char literal at i."""
    q = t[i]
    i += 1
    n = len(t)
    while i < n:
        c = t[i]
        if c == BS:
            i += 2
        elif c == q:
            return i + 1
        elif c == NL:
            return -1
        else:
            i += 1
    return -1


def pg_call_args(t, i):
    """Spans (start, end) of the arguments of the call whose name starts at i."""
    n = len(t)
    while i < n and (t[i].isalnum() or t[i] == '_'):
        i += 1
    i = pg_skip(t, i)
    if i >= n or t[i] != '(':
        return None
    i += 1
    depth = 0
    args = []
    start = i
    while i < n:
        j = pg_skip(t, i)
        if j != i:
            i = j
            continue
        c = t[i]
        if c == QUOTE or c == chr(39):
            e = pg_quoted(t, i)
            if e < 0:
                return None
            i = e
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                if t[start:i].strip() or args:
                    args.append((start, i))
                return args
            depth -= 1
        elif c == ',' and depth == 0:
            args.append((start, i))
            start = i + 1
        i += 1
    return None


def pg_tokens(t, s, e):
    """Coarse tokens of t[s:e]: strings, punctuation, and words."""
    toks = []
    i = s
    while True:
        i = pg_skip(t, i)
        if i >= e:
            break
        c = t[i]
        if c == QUOTE:
            j = pg_quoted(t, i)
            if j < 0 or j > e:
                return None
            toks.append(('str', i, j))
            i = j
        elif c == chr(39):
            j = pg_quoted(t, i)
            if j < 0 or j > e:
                return None
            toks.append(('chr', i, j))
            i = j
        elif c.isalnum() or c == '_':
            j = i
            while j < e and (t[j].isalnum() or t[j] == '_'):
                j += 1
            toks.append(('word', i, j))
            i = j
        else:
            toks.append((c, i, i + 1))
            i += 1
    return toks


def pg_alts(toks):
    """Format alternatives of an argument: lists of string tokens, or None."""
    while (len(toks) >= 2 and toks[0][0] == '(' and toks[-1][0] == ')'
           and pg_matching(toks, 0) == len(toks) - 1):
        toks = toks[1:-1]
    if toks and all(k[0] == 'str' for k in toks):
        return [toks]
    depth = 0
    q = -1
    for idx, k in enumerate(toks):
        if k[0] in '([{':
            depth += 1
        elif k[0] in ')]}':
            depth -= 1
        elif k[0] == '?' and depth == 0:
            q = idx
            break
    if q < 0:
        return None
    depth = 0
    nest = 0
    for idx in range(q + 1, len(toks)):
        k = toks[idx][0]
        if k in '([{':
            depth += 1
        elif k in ')]}':
            depth -= 1
        elif k == '?' and depth == 0:
            nest += 1
        elif k == ':' and depth == 0:
            if nest:
                nest -= 1
                continue
            a = pg_alts(toks[q + 1:idx])
            b = pg_alts(toks[idx + 1:])
            if a is None or b is None:
                return None
            return a + b
    return None


def pg_matching(toks, i):
    depth = 0
    for j in range(i, len(toks)):
        if toks[j][0] == '(':
            depth += 1
        elif toks[j][0] == ')':
            depth -= 1
            if depth == 0:
                return j
    return -1


def pg_chars(t, pieces):
    """The characters of concatenated literal pieces, each with its file offset."""
    out = []
    for kind, s, e in pieces:
        i = s + 1
        while i < e - 1:
            if t[i] == BS and t[i + 1] == NL:
                i += 2
                continue
            if t[i] == BS:
                j = i + 1
                while j < e - 1 and t[j] == BS and t[j + 1] == NL:
                    j += 2
                out.append((t[i] + t[j], i))
                i = j + 1
                continue
            out.append((t[i], i))
            i += 1
    return out


def pg_literal(chars):
    """The format as one C literal: pieces joined, escapes kept."""
    return QUOTE + ''.join(c for c, o in chars) + QUOTE


def pg_conversions(chars):
    """Conversions of a format, decoded as lib/vsprintf.c format_decode() does."""
    convs = []
    n = len(chars)
    i = 0
    while i < n:
        if chars[i][0] != '%':
            i += 1
            continue
        start = i
        i += 1
        stars = 0
        while i < n and chars[i][0] in FLAGS:
            i += 1
        if i < n and chars[i][0] == '*':
            stars += 1
            i += 1
        else:
            while i < n and chars[i][0].isdigit():
                i += 1
        if i < n and chars[i][0] == '.':
            i += 1
            if i < n and chars[i][0] == '*':
                stars += 1
                i += 1
            else:
                while i < n and chars[i][0].isdigit():
                    i += 1
        qual = ''
        if i < n and chars[i][0] in 'hlLzZt':
            qual = chars[i][0]
            i += 1
            if qual in 'hl' and i < n and chars[i][0] == qual:
                qual = qual + qual
                i += 1
        if i >= n:
            break
        conv = chars[i][0]
        i += 1
        ext = ''
        if conv == 'p':
            while i < n and len(chars[i][0]) == 1 and chars[i][0].isalnum():
                ext += chars[i][0]
                i += 1
        text = ''.join(c for c, o in chars[start:i])
        convs.append({'off': chars[start][1], 'text': text, 'conv': conv,
                      'qual': qual, 'ext': ext, 'stars': stars,
                      'takes': conv in 'cspdiouxXn',
                      'span': [o for c, o in chars[start:i]]})
    return convs


def pg_is_wide_int(cv):
    return cv['conv'] in INT_TYPES and cv['qual'][:1] in WIDE and cv['qual'] != ''


def pg_key(p):
    return (p.file, int(p.line), int(p.column))


def pg_note_call(p, fmtidx, va):
    k = pg_key(p)
    if k not in pg_calls:
        pg_calls[k] = (int(fmtidx), va, p.current_element)


def pg_mark(p, argidx, cls, why, extra=''):
    k = pg_key(p) + (argidx,)
    if k not in pg_marks:
        pg_marks[k] = (cls, why, extra)


def pg_is_call(p):
    try:
        return pg_key(p[0]) in pg_calls
    except Exception as e:
        pg_error(p[0], e)
        return False


def pg_norm(t, s, e):
    """Argument text with comments and continuations removed, blanks squeezed."""
    toks = pg_tokens(t, s, e)
    if toks is None:
        return ' '.join(t[s:e].split())
    out = ''
    prev = None
    for k in toks:
        word = t[k[1]:k[2]]
        if k[0] == 'str':
            word = word.replace(BS + NL, '')
        if prev is not None and prev != k[1]:
            out += ' '
        out += word
        prev = k[2]
    return out


def pg_analyze(p):
    """Findings of one seq-output call: (alternatives, findings) or None."""
    k = pg_key(p)
    if k in pg_done:
        return pg_done[k]
    pg_done[k] = None
    if k not in pg_calls:
        return None
    fmtidx, va, func = pg_calls[k]
    t, starts = pg_source(p.file)
    off = pg_offset(p.file, p.line, p.column)
    args = pg_call_args(t, off)
    if args is None or fmtidx >= len(args):
        return None
    toks = pg_tokens(t, args[fmtidx][0], args[fmtidx][1])
    alts = pg_alts(toks) if toks else None
    if not alts:
        return None
    hashed = pg_hashes_p(p.file)
    forms = []
    found = []
    for pieces in alts:
        chars = pg_chars(t, pieces)
        forms.append(pg_literal(chars))
        ai = fmtidx + 1
        for cv in pg_conversions(chars):
            ai += cv['stars']
            idx = None
            if cv['takes']:
                idx = ai
                ai += 1
            argtext = ''
            if idx is not None and not va and idx < len(args):
                argtext = pg_norm(t, args[idx][0], args[idx][1])
            mark = pg_marks.get(k + (idx,))
            gate = pg_marks.get(k + ('call',))
            cls = None
            why = ''
            if cv['conv'] == 'p' and cv['ext'][:1] == 'x':
                cls, why = 'px', 'raw kernel address in seq_file output; use %p (hashed) or %pK'
                if mark and mark[0] in ('px-gated', 'px-user'):
                    cls, why = mark[0], mark[1]
                elif gate:
                    cls, why = gate[0], gate[1]
            elif cv['conv'] == 'p' and cv['ext'] == '' and not hashed:
                cls, why = 'p-unhashed', 'plain %p prints the raw address before v4.15; use %pK'
                if mark and mark[0] == 'px-user':
                    cls, why = mark[0], mark[1]
            elif pg_is_wide_int(cv) and mark and mark[0] == 'int-cast':
                cls, why = 'int-cast', 'pointer cast to an integer prints the raw address; print the pointer with %p'
            if cls is None or cls not in pg_classes:
                continue
            line, col = pg_linecol(p.file, cv['off'])
            l2, c2 = pg_linecol(p.file, cv['span'][-1])
            end = c2 + 1 if l2 == line else col + len(cv['text'])
            found.append({'cls': cls, 'conv': cv['text'], 'line': line, 'col': col,
                          'end': end, 'why': why, 'arg': argtext, 'format': forms[-1],
                          'argidx': idx, 'cv': cv, 'extra': mark[2] if mark else ''})
    pg_done[k] = (func, forms, found, args)
    return pg_done[k]


LEAKS = ('px', 'p-unhashed', 'int-cast')


def pg_has_leak(p):
    try:
        r = pg_analyze(p[0])
        return bool(r) and any(f['cls'] in LEAKS for f in r[2])
    except Exception as e:
        pg_error(p[0], e)
        return False


def pg_esc(s):
    return s.replace(BS, BS + BS).replace(TAB, BS + 't').replace(NL, BS + 'n')


def pg_emit(p, mode):
    r = pg_analyze(p)
    if not r:
        return
    func, forms, found, args = r
    if mode == 'ptrguard':
        for f in forms if pg_call_records else []:
            print(TAB.join(['C', pg_esc(p.file), str(p.line), pg_esc(func), pg_esc(f)]))
        for f in found:
            print(TAB.join(['F', pg_esc(p.file), str(f['line']), str(f['col']), f['cls'],
                            pg_esc(f['conv']), pg_esc(func), pg_esc(f['format']),
                            pg_esc(f['arg']), pg_esc(f['why'])]))
        return
    for f in found:
        msg = '%s %s: %s' % (f['cls'], f['conv'], f['why'])
        if mode == 'report':
            print('%s:%d:%d-%d: %s' % (p.file, f['line'], f['col'], f['end'], msg))
        else:
            msg = msg.replace('[', '(').replace(']', ')')
            print('* TODO [[view:%s::face=ovl-face1::linb=%d::colb=%d::cole=%d][%s]]'
                  % (p.file, f['line'], f['col'], f['end'], msg))


def pg_new_call(p):
    """The call with each leak rewritten: %px to %p, %p to %pK, (cast)ptr with %lx to ptr with %p."""
    r = pg_analyze(p)
    if not r:
        return None
    func, forms, found, args = r
    t, starts = pg_source(p.file)
    off = pg_offset(p.file, p.line, p.column)
    edits = []
    for f in found:
        cv = f['cv']
        if f['cls'] == 'px':
            x = [o for o in cv['span'] if t[o] == 'x']
            edits.append((x[-1], x[-1] + 1, ''))
        elif f['cls'] == 'p-unhashed':
            edits.append((cv['span'][-1] + 1, cv['span'][-1] + 1, 'K'))
        elif f['cls'] == 'int-cast':
            edits.append((cv['span'][0], cv['span'][-1] + 1, '%p'))
            a = args[f['argidx']]
            edits.append((a[0], a[1], ' ' + f['extra']))
    if not edits:
        return None
    end = args[-1][1] + 1 if args else off
    while t[end - 1] != ')':
        end += 1
    text = t[off:end]
    for s, e, new in sorted(set(edits), reverse=True):
        text = text[:s - off] + new + text[e - off:]
    return pg_norm(text, 0, len(text))


def pg_wrapper_macro(p, fmt):
    """Name and format index of the function-like macro whose body holds p, if fmt is its parameter."""
    t, starts = pg_source(p.file)
    line = int(p.line)
    i = line - 1
    while i > 0:
        prev = t[starts[i - 1]:starts[i]].rstrip(NL)
        if not prev.endswith(BS):
            break
        i -= 1
    head = t[starts[i]:starts[line - 1] + 1 + int(p.column)]
    blank = '[ ' + TAB + ']*'
    m = re.match(blank + chr(35) + blank + 'define[ ' + TAB + ']+([A-Za-z_][A-Za-z0-9_]*)[(]([^)]*)[)]', head)
    if not m:
        return None
    params = [x.strip() for x in m.group(2).split(',')]
    # a named variadic pack ("x...") is the name x
    names = [x[:-3].strip() if x.endswith('...') else x for x in params]
    if fmt not in names or '...' not in params[-1]:
        return None
    return m.group(1), names.index(fmt)


def pg_user_name(p, name):
    """Is name declared as a __user pointer in this file, or a known uapi user-pointer field?"""
    if name in USER_FIELDS:
        return True
    k = (p.file, name)
    if k not in pg_user:
        t, starts = pg_source(p.file)
        ws = '[ ' + TAB + NL + ']*'
        pat = '__user' + ws + '[*]' + ws + '(const' + ws + ')?' + re.escape(name) + '(?![A-Za-z0-9_])'
        pg_user[k] = re.search(pat, t) is not None
    return pg_user[k]

pg_classes = ('int-cast',)
pg_call_records = False

// The seq_file printf family: the format is argument 1 of each.  The names
// are spelled out (not an identifier set) so that spatch's grep prefilter
// keeps only the files that call one of them.
@seqcall@
position pc;
@@
(
seq_printf@pc(...)
|
seq_buf_printf@pc(...)
|
trace_seq_printf@pc(...)
)

@script:python@
pc << seqcall.pc;
@@
try:
    pg_note_call(pc[0], 1, False)
except Exception as e:
    pg_error(pc[0], e)

// The va_list variants: only a literal format handed to them is examined.
@seqvcall@
position pc;
@@
(
seq_vprintf@pc(...)
|
seq_buf_vprintf@pc(...)
|
trace_seq_vprintf@pc(...)
)

@script:python@
pc << seqvcall.pc;
@@
try:
    pg_note_call(pc[0], 1, True)
except Exception as e:
    pg_error(pc[0], e)

// A local function wrapper: a variadic function that hands its own format
// and its va_list to a va_list variant (SEQ_printf in kernel/time/timer_list.c).
@fnwrap depends on seqvcall@
identifier w, fmt, ap;
parameter list[n] ps;
expression s;
type R, T;
@@
R w(ps, T fmt, ...)
{
	<+...
(
	seq_vprintf(s, fmt, ap)
|
	seq_buf_vprintf(s, fmt, ap)
|
	trace_seq_vprintf(s, fmt, ap)
)
	...+>
}

@fnwrapcall@
identifier fnwrap.w;
position pc;
@@
w@pc(...)

@script:python@
pc << fnwrapcall.pc;
n << fnwrap.n;
@@
try:
    pg_note_call(pc[0], int(n), False)
except Exception as e:
    pg_error(pc[0], e)

// A local macro wrapper: a variadic function-like macro whose body passes
// one of its parameters as the format of a seq_file printf
// (warn_or_seq_printf in mm/kmemleak.c).  spatch sees the call inside the
// #define body; the macro's name and parameters are read from the text.
// (A script rule that rejects every match would end the processing of the
// file, so a call that is not in such a macro gets a name that never occurs.)
@macbody depends on seqcall@
identifier fmt;
expression s;
position pm;
@@
(
seq_printf@pm(s, fmt, ...)
|
seq_buf_printf@pm(s, fmt, ...)
|
trace_seq_printf@pm(s, fmt, ...)
)

@script:python macwrap@
pm << macbody.pm;
fmt << macbody.fmt;
w;
@@
r = None
try:
    r = pg_wrapper_macro(pm[0], fmt)
except Exception as e:
    pg_error(pm[0], e)
if r is None:
    coccinelle.w = cocci.make_ident('ptrguard_no_wrapper_')
else:
    pg_wrapfmt[(pm[0].file, r[0])] = r[1]
    coccinelle.w = cocci.make_ident(r[0])

@macwrapcall@
identifier macwrap.w;
position pc;
@@
w@pc(...)

@script:python@
pc << macwrapcall.pc;
w << macwrap.w;
@@
try:
    pg_note_call(pc[0], pg_wrapfmt[(pc[0].file, w)], False)
except Exception as e:
    pg_error(pc[0], e)

// Class int-cast: a pointer converted to an integer, (unsigned long)ptr,
// (u64)(uintptr_t)ptr or (unsigned long)&obj.  The conversion that prints it
// decides: a long-wide one (%lx, %llu...) prints the whole address.
@intcast depends on seqcall disable drop_cast@
typedef u8, u16, u32, u64, s32, s64, __u32, __u64, __s64, uintptr_t, intptr_t,
        ulong, uint32_t, uint64_t, int64_t, phys_addr_t,
        resource_size_t, kernel_ulong_t;
type I = {unsigned long, long, unsigned long long, long long, unsigned int,
          int, unsigned, u32, u64, s32, s64, __u32, __u64, __s64, uintptr_t,
          intptr_t, ulong, size_t, ssize_t, uint32_t, uint64_t, int64_t,
          phys_addr_t, resource_size_t, ptrdiff_t, kernel_ulong_t};
type I2 = {unsigned long, long, unsigned long long, long long, u64, s64,
           __u64, __s64, uintptr_t, intptr_t, ulong, size_t, uint64_t,
           kernel_ulong_t};
type T;
T *P;
identifier f =~ "seq|SEQ";
expression list[n] es;
position pc;
@@
(
f@pc(es, (I)P, ...)
|
f@pc(es, (I)(I2)P, ...)
)

@script:python@
pc << intcast.pc;
n << intcast.n;
P << intcast.P;
@@
try:
    pg_mark(pc[0], int(n), 'int-cast', '', P)
except Exception as e:
    pg_error(pc[0], e)

// The same for the address of an object: (unsigned long)&obj.
@intcastaddr depends on seqcall disable drop_cast@
type I = {unsigned long, long, unsigned long long, long long, unsigned int,
          int, unsigned, u32, u64, s32, s64, __u32, __u64, __s64, uintptr_t,
          intptr_t, ulong, size_t, ssize_t, uint32_t, uint64_t, int64_t,
          phys_addr_t, resource_size_t, ptrdiff_t, kernel_ulong_t};
expression E;
identifier f =~ "seq|SEQ";
expression list[n] es;
position pc;
@@
f@pc(es, (I)&E, ...)

@script:python@
pc << intcastaddr.pc;
n << intcastaddr.n;
E << intcastaddr.E;
@@
try:
    pg_mark(pc[0], int(n), 'int-cast', '', '&' + E)
except Exception as e:
    pg_error(pc[0], e)

// Every seq-output call found above, once all its arguments are classified.
@final depends on seqcall || seqvcall@
identifier f;
position pc : script:python() { pg_is_call(pc) };
@@
f@pc(...)

@script:python depends on report && !ptrguard@
pc << final.pc;
@@
try:
    pg_emit(pc[0], 'report')
except Exception as e:
    pg_error(pc[0], e)

@script:python depends on org && !ptrguard@
pc << final.pc;
@@
try:
    pg_emit(pc[0], 'org')
except Exception as e:
    pg_error(pc[0], e)

@script:python depends on ptrguard@
pc << final.pc;
@@
try:
    pg_emit(pc[0], 'ptrguard')
except Exception as e:
    pg_error(pc[0], e)

// The calls that print a leak: marked in context mode, rewritten in patch
// mode.  px-gated and px-user calls are left alone.
@leak depends on (seqcall || seqvcall) && (context || patch) && !ptrguard@
identifier f;
position pc : script:python() { pg_has_leak(pc) };
@@
f@pc(...)

@ctx depends on context && !patch && !ptrguard@
identifier f;
position leak.pc;
@@
* f@pc(...)

@script:python fix depends on patch && !ptrguard@
pc << leak.pc;
call;
@@
s = None
try:
    s = pg_new_call(pc[0])
except Exception as e:
    pg_error(pc[0], e)
if s is None:
    cocci.include_match(False)
else:
    coccinelle.call = cocci.make_expr(s)

@depends on patch && !ptrguard@
identifier f;
position leak.pc;
expression fix.call;
@@
- f@pc(...)
+ call
