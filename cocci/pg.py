# SPDX-License-Identifier: GPL-2.0
"""
The Python side of ptrguard's rules.  The SmPL rules find the seq-output
calls (pg_note_call) and classify their arguments (pg_mark); these helpers
re-lex each call's format from the source text, decode its conversions as
lib/vsprintf.c does, give each the kind of include/linux/seq_ptr_kind.h
(the PG_ tables above this text are made from that header and from
scripts/vocab.def when the rule is built), pair them with the arguments,
and print findings in the selected mode.  No at-sign or double backslash
appears here: spatch's SmPL lexer would misread them.
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
DIGITS = '0123456789'
CONVERSIONS = 'cspdiouxX'
ESCAPES = {'n': NL, 't': TAB, 'r': chr(13), 'a': chr(7), 'b': chr(8),
           'f': chr(12), 'v': chr(11), 'e': chr(27)}

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
    """(VERSION, PATCHLEVEL) of the kernel tree holding path, from its top Makefile.

    For sources outside a kernel tree, ptrguard names the kernel they are
    built against in PTRGUARD_KERNEL_VERSION ("6.12", or "current").
    """
    env = os.environ.get('PTRGUARD_KERNEL_VERSION')
    if env:
        m = re.match(r'([0-9]+)\.([0-9]+)$', env)
        return (int(m.group(1)), int(m.group(2))) if m else None
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
    """The characters of concatenated literal pieces, each with its file
    offset; an escape sequence is one character, spelled as written."""
    out = []
    for kind, s, e in pieces:
        i = s + 1
        while i < e - 1:
            if t[i] == BS and t[i + 1] == NL:
                i += 2
                continue
            if t[i] != BS:
                out.append((t[i], i))
                i += 1
                continue
            j = i + 1
            while j < e - 1 and t[j] == BS and t[j + 1] == NL:
                j += 2
            text = BS + t[j]
            j += 1
            if text[1] in '01234567':
                while j < e - 1 and len(text) < 4 and t[j] in '01234567':
                    text += t[j]
                    j += 1
            elif text[1] == 'x':
                while j < e - 1 and t[j] in DIGITS + 'abcdefABCDEF':
                    text += t[j]
                    j += 1
            out.append((text, i))
            i = j
    return out


def pg_byte(c):
    """The character an escape sequence (or a plain character) stands for."""
    if len(c) == 1:
        return c
    if c[1] in '01234567':
        return chr(int(c[1:], 8) & 255)
    if c[1] == 'x' and len(c) > 2:
        return chr(int(c[2:], 16) & 255)
    return ESCAPES.get(c[1], c[1])


def pg_isalnum(c):
    """isalnum() of the kernel's lib/ctype.c: ASCII, and the Latin-1 letters."""
    o = ord(c)
    if o >= 192:
        return o != 215 and o != 247
    return o < 128 and c.isalnum()


def pg_kind(conv, qual, ext):
    """The seq_ptr_kind.h kind of a decoded conversion, by name."""
    if conv == 'p':
        return PG_EXT_KIND.get(ext[:1], PG_EXT_DEFAULT)
    return PG_TYPE_KIND.get(conv + qual, 'none')


def pg_literal(chars):
    """The format as one C literal: pieces joined, escapes kept."""
    return QUOTE + ''.join(c for c, o in chars) + QUOTE


def pg_conversions(chars):
    """Conversions of a format, decoded as format_decode() and vsnprintf()
    of lib/vsprintf.c do: flags, a width (a '*' takes an int), a precision,
    a qualifier (h hh l ll L z t: 'H' stands for hh, 'L' for ll), the
    conversion, and after a 'p' every alphanumeric character.  A %% takes
    nothing; the walk ends where vsnprintf() ends: at the end of the
    format, at a NUL and at an unsupported conversion."""
    b = [pg_byte(c) for c, o in chars]
    n = b.index(chr(0)) if chr(0) in b else len(b)
    convs = []
    i = 0
    while i < n:
        if b[i] != '%':
            i += 1
            continue
        start = i
        i += 1
        stars = 0
        while i < n and b[i] in FLAGS:
            i += 1
        if i < n and b[i] == '*':
            stars += 1
            i += 1
        else:
            while i < n and b[i] in DIGITS:
                i += 1
        if i < n and b[i] == '.':
            i += 1
            if i < n and b[i] == '*':
                stars += 1
                i += 1
            else:
                while i < n and b[i] in DIGITS:
                    i += 1
        qual = ''
        if i < n and b[i] in 'hlLzt':
            qual = b[i]
            i += 1
            if qual in 'hl' and i < n and b[i] == qual:
                qual = qual.upper()
                i += 1
        conv = b[i] if i < n else ''
        i += 1
        if conv != '%' and (conv == '' or conv not in CONVERSIONS):
            if stars:
                convs.append({'off': chars[start][1], 'text': '', 'conv': '',
                              'qual': qual, 'ext': '', 'stars': stars, 'kind': None,
                              'takes': False, 'span': []})
            break
        ext = ''
        if conv == 'p':
            while i < n and pg_isalnum(b[i]):
                ext += b[i]
                i += 1
        text = ''.join(c for c, o in chars[start:i])
        convs.append({'off': chars[start][1], 'text': text, 'conv': conv,
                      'qual': qual, 'ext': ext, 'stars': stars,
                      'kind': pg_kind(conv, qual, ext) if conv != '%' else None,
                      'takes': conv != '%',
                      'span': [o for c, o in chars[start:i]]})
    return convs


def pg_format_kinds(line):
    """Kinds of a line of C string literals, as ptrguard fmt prints them:
    one per argument taken, a '*' width or precision first.  The
    differential test (tests/model) runs it over every seq-output format
    of a tree; None if the line is not made of string literals."""
    toks = pg_tokens(line, 0, len(line))
    if not toks or any(k[0] != 'str' for k in toks):
        return None
    kinds = []
    for cv in pg_conversions(pg_chars(line, toks)):
        kinds += ['none'] * cv['stars']
        if cv['takes']:
            kinds.append(cv['kind'])
    return ','.join(kinds)


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
            if cv['kind'] == 'raw':
                cls, why = 'px', PG_MESSAGES['px']
                if mark and mark[0] in ('px-gated', 'px-user'):
                    cls, why = mark[0], mark[1]
                elif gate:
                    cls, why = gate[0], gate[1]
            elif cv['kind'] == 'hashed' and cv['ext'] == '' and not hashed:
                cls, why = 'p-unhashed', PG_MESSAGES['p-unhashed']
                if mark and mark[0] == 'px-user':
                    cls, why = mark[0], mark[1]
            elif cv['kind'] == 'int' and mark and mark[0] == 'int-cast':
                cls, why = 'int-cast', PG_MESSAGES['int-cast']
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


def pg_has_leak(p):
    try:
        r = pg_analyze(p[0])
        return bool(r) and any(f['cls'] in PG_LEAKS for f in r[2])
    except Exception as e:
        pg_error(p[0], e)
        return False


def pg_esc(s):
    return s.replace(BS, BS + BS).replace(TAB, BS + 't').replace(NL, BS + 'n')


class PgPos:
    """Where a finding is, for coccilib's printers: the conversion inside
    the format, which is not where the SmPL matched (the call)."""

    def __init__(self, file, line, column, column_end):
        self.file = file
        self.line = line
        self.column = column
        self.column_end = column_end


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
        at = PgPos(p.file, f['line'], f['col'], f['end'])
        if mode == 'report':
            coccilib.report.print_report(at, msg)
        else:
            coccilib.org.print_todo(at, msg.replace('[', '(').replace(']', ')'))


def pg_operand(t, s, e):
    """Start of the operand of the integer casts that open t[s:e]: each
    leading (word...) group is a cast, as the int-cast patterns match."""
    toks = pg_tokens(t, s, e)
    if not toks:
        return s
    i = 0
    while i < len(toks) and toks[i][0] == '(':
        j = pg_matching(toks, i)
        if j < 0 or j + 1 >= len(toks) or j == i + 1:
            break
        if not all(k[0] == 'word' for k in toks[i + 1:j]):
            break
        i = j + 1
    return toks[i][1] if i < len(toks) else s


def pg_edits(p):
    """The edits that fix one leaking call, as (start, end, text) offsets
    into the file: only the conversion inside the literal (%px to %p, %p
    to %pK) and, for a cast, the conversion (to %p) and the cast itself
    (removed); comments, line breaks and the other arguments stay."""
    r = pg_analyze(p)
    if not r:
        return None
    func, forms, found, args = r
    t, starts = pg_source(p.file)
    edits = set()
    for f in found:
        cv = f['cv']
        if f['cls'] == 'px':
            x = [o for o in cv['span'] if t[o] == 'x']
            edits.add((x[-1], x[-1] + 1, ''))
        elif f['cls'] == 'p-unhashed':
            edits.add((cv['span'][-1] + 1, cv['span'][-1] + 1, 'K'))
        elif f['cls'] == 'int-cast':
            edits.add((cv['span'][0], cv['span'][-1] + 1, '%p'))
            a = args[f['argidx']]
            edits.add((pg_skip(t, a[0]), pg_operand(t, a[0], a[1]), ''))
    return (t, args, sorted(edits, reverse=True)) if edits else None


def pg_new_arg(p, idx):
    """Argument idx of a leaking call with its edits applied, as the text
    of one expression (None: the argument does not change).  Only this
    expression is reprinted by spatch: a single literal or a cast comes
    out as written; a format of several literals is joined on one line,
    because spatch takes adjacent literals as one token."""
    r = pg_edits(p)
    if not r or idx >= len(r[1]):
        return None
    t, args, edits = r
    s, e = args[idx]
    toks = pg_tokens(t, s, e)
    if not toks:
        return None
    s, e = toks[0][1], toks[-1][2]
    mine = [x for x in edits if s <= x[0] and x[1] <= e]
    if not mine:
        return None
    text = t[s:e]
    for a, b, new in mine:
        text = text[:a - s] + new + text[b - s:]
    if len(toks) == 1:
        return text
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
    if name in PG_USER_FIELDS:
        return True
    k = (p.file, name)
    if k not in pg_user:
        t, starts = pg_source(p.file)
        ws = '[ ' + TAB + NL + ']*'
        pat = '__user' + ws + '[*]' + ws + '(const' + ws + ')?' + re.escape(name) + '(?![A-Za-z0-9_])'
        pg_user[k] = re.search(pat, t) is not None
    return pg_user[k]

