# SPDX-License-Identifier: GPL-2.0
"""
The Python side of ptrguard's rules: it prints facts, never findings.

spatch knows what the text does not say: which calls it parsed, the C
type of an expression, the privilege checks around a call.  The rules
report that and nothing else; ptrguard's C judge (model/lex.c and
judge/judge.c) reads each call's format from the source, decodes
it as lib/vsprintf.c does and decides every class.  Two records, one
line each, fields separated by tabs:

  C  FILE LINE COLUMN FUNCTION       spatch parsed this seq-output call
                                     (the position of the callee's name)
  M  FILE LINE COLUMN ARG MARK WHAT  a fact about argument ARG (0-based,
                                     or "call" for the whole call):
                                       gated  the value printed, or the
                                              call, depends on a privilege
                                              check (WHAT: the field that
                                              holds the check, if any)
                                       null   the value is a constant NULL
                                       ptr    an integer cast of an
                                              expression of pointer type
                                              (WHAT: that expression)

No at-sign or double backslash appears here: spatch's SmPL lexer would
misread them.
"""
import os
import sys

BS = chr(92)
TAB = chr(9)
NL = chr(10)

pg_seen = set()


def pg_error(p, e):
    """Report a failure on stderr without ending the run: never hide a file."""
    try:
        where = '%s:%s' % (p.file, p.line)
    except Exception:
        where = '?'
    sys.stderr.write('ptrguard: rule error at %s: %s: %s' % (where, type(e).__name__, e) + NL)


def pg_esc(s):
    return str(s).replace(BS, BS + BS).replace(TAB, BS + 't').replace(NL, BS + 'n')


def pg_record(fields):
    line = TAB.join(pg_esc(f) for f in fields)
    if line not in pg_seen:
        pg_seen.add(line)
        print(line)


def pg_note_call(p):
    pg_record(['C', p.file, p.line, p.column, p.current_element])


def pg_mark(p, arg, mark, what=''):
    pg_record(['M', p.file, p.line, p.column, arg, mark, what])


# The pointers each field is assigned, per file and field name, in the
# order met (the field rules of seq_int_cast.cocci).
pg_fields = {}


def pg_field_cast(p, fld, what):
    whats = pg_fields.setdefault((p.file, str(fld)), [])
    if what not in whats:
        whats.append(what)


# The fields each field is copied from, per file and field name
# (X->fld = Y->src), with where; and what spatch's types say of each
# copy's source: absent (untyped), False (typed, not wide), True (wide).
pg_copies = {}
pg_copy_wide = {}


def pg_field_copy(p, fld, src):
    pg_copies.setdefault((p.file, str(fld)), []).append((str(src), (p.line, p.column)))


def pg_copy_type(p, wide):
    key = (p.file, p.line, p.column)
    pg_copy_wide[key] = pg_copy_wide.get(key, False) or wide


def pg_copy_sources(file, fld):
    for src, at in pg_copies.get((file, fld), ()):
        if pg_copy_wide.get((file,) + at, True):
            yield src


def pg_field_print(p, arg, fld):
    # the field, then the fields it is copied from, and theirs, in order
    names = [str(fld)]
    for name in names:
        for src in pg_copy_sources(p.file, name):
            if src not in names:
                names.append(src)
    for name in names:
        for what in pg_fields.get((p.file, name), ()):
            pg_mark(p, arg, 'field', what)


# The calls where a local declared with an error pointer may hold
# something else (seq_px.cocci's errother rule): no "err" fact there.
pg_err_vetoed = set()


def pg_err_other(p, v):
    pg_err_vetoed.add((p.file, p.line, p.column, str(v)))


def pg_err_var(p, arg, v):
    if (p.file, p.line, p.column, str(v)) not in pg_err_vetoed:
        pg_mark(p, arg, 'err')


# The seq calls that print a function's result, per file and function
# name; the formatting calls into a buffer in those functions, per
# buffer; joined by each return of the buffer (bufout.cocci.in's
# bufprint, bufret and bufreturn rules).
pg_buf_prints = {}
pg_buf_calls = {}


def pg_bare(e):
    e = str(e).strip()
    while e.startswith('(') and e.endswith(')'):
        e = e[1:-1].strip()
    return e


def pg_buf_print(p, fn):
    lines = pg_buf_prints.setdefault((p.file, str(fn)), [])
    if p.line not in lines:
        lines.append(p.line)


def pg_buf_call(p, buf):
    key = (p.file, p.current_element, pg_bare(buf))
    pg_buf_calls.setdefault(key, []).append(p)


# The lines of the formatting calls into a buffer whose format the judge
# reads, as (absolute file, line) pairs: ptrguard's -D pg_bufcalls file
# of "FILE<TAB>LINE" records (cocci/bufcalls.c).  None without it: every
# call.  The buffer rules start only from those calls (pg_buf_wanted()):
# the judge reads no buffer fact of another.
pg_buf_lines = None


def pg_buf_read(path):
    global pg_buf_lines
    lines = set()
    with open(path) as f:
        for rec in f:
            file, line = rec.rstrip(NL).split(TAB)
            lines.add((os.path.abspath(file), line))
    pg_buf_lines = lines


def pg_buf_wanted(p):
    return pg_buf_lines is None or (os.path.abspath(p[0].file), p[0].line) in pg_buf_lines


# The functions that return a formatted buffer no seq call prints, with
# their formatting calls; the calls of those functions whose result is
# handed to another function, with its name and line (bufout.cocci.in's
# bufcand, bufusearg and bufuse rules).
pg_buf_away_fns = {}
pg_buf_use_args = {}


def pg_buf_return(p, what):
    fn = p.current_element
    for call in pg_buf_calls.get((p.file, fn, pg_bare(what)), ()):
        lines = pg_buf_prints.get((p.file, fn), ())
        for line in lines:
            pg_mark(call, 0, 'buf', line)
        if not lines:
            pg_mark(call, 0, 'away', 'return %s %s' % (fn, p.line))
            calls = pg_buf_away_fns.setdefault((p.file, fn), [])
            if call not in calls:
                calls.append(call)


# The names the functions of the file write with a seq call, per file
# and function, with the writers' lines; the parameters among them, per
# file, function and index (bufout.cocci.in's bufparamuse and
# bufparamdecl rules).
pg_buf_param_uses = {}
pg_buf_params = {}


def pg_buf_param_use(pw, p):
    lines = pg_buf_param_uses.setdefault((pw.file, pw.current_element, str(p)), [])
    if pw.line not in lines:
        lines.append(pw.line)


def pg_buf_param(pg, g, p, k):
    lines = pg_buf_param_uses.get((pg.file, str(g), str(p)))
    if lines:
        pg_buf_params[(pg.file, str(g), k)] = lines


def pg_buf_pass(pb, g, k, pa):
    lines = pg_buf_params.get((pb.file, str(g), k), ())
    for line in lines:
        pg_mark(pb, 0, 'buf', line)
    if not lines:
        pg_mark(pb, 0, 'away', 'pass %s %s' % (g, pa.line))


def pg_buf_use_arg(pc, s, ps):
    pg_buf_use_args[(pc.file, pc.line, pc.column)] = (str(s), ps.line)


def pg_buf_use(pc, fn):
    to = pg_buf_use_args.get((pc.file, pc.line, pc.column), ('-', pc.line))
    for call in pg_buf_away_fns.get((pc.file, str(fn)), ()):
        pg_mark(call, 0, 'away', 'call %s %s %s' % (fn, to[0], to[1]))
