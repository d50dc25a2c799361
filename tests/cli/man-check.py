#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the rendered man page against what the program says of itself.

    man-check.py PAGE USAGE HELPDIR

PAGE is ptrguard(1) rendered as plain text (groff -man -Tascii, one long
line per paragraph); USAGE is `ptrguard --help`; HELPDIR/CMD holds
`ptrguard CMD --help` for each command USAGE lists.  The page must have,
for every command: its synopsis in SYNOPSIS, word for word the one of its
--help; a subsection "ptrguard CMD" in OPTIONS whose entries are the
entries of its --help's OPTIONS, no more, no fewer; and a subsection in
DESCRIPTION.  Prints one line per difference and exits 1 if there is any.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
from synopsis import section  # noqa: E402  (the one reader of --help sections)


def commands(usage):
    """The commands `ptrguard --help` lists under "commands:"."""
    out, inside = [], False
    for line in usage.splitlines():
        if line == "commands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            out.append(line.split()[0])
    return out


def words(lines):
    return " ".join(" ".join(lines).split())


def help_synopsis(text):
    return words(section(text.splitlines(), "SYNOPSIS"))


def help_options(text):
    """The entries of OPTIONS: "-j N, --jobs=N", "--[no-]casts"."""
    return [l.strip() for l in section(text.splitlines(), "OPTIONS")
            if re.match(r"    -", l)]


def page_sections(page):
    """{SECTION: [lines]} of the rendered page (headings at column 0)."""
    out, cur = {}, None
    for line in page.splitlines():
        if line and not line.startswith(" "):
            cur = line.strip()
            out.setdefault(cur, [])
        elif cur:
            out[cur].append(line)
    return out


def indent(line):
    return len(line) - len(line.lstrip(" "))


def page_synopses(lines):
    """{CMD: "ptrguard CMD ..."}: an entry starts at the section's indent."""
    out, cur, base = {}, None, None
    for line in lines:
        if not line.strip():
            continue
        if base is None:
            base = indent(line)
        if indent(line) == base:
            cur = line.split()[1] if len(line.split()) > 1 else ""
            out[cur] = []
        out[cur].append(line)
    return {c: words(l) for c, l in out.items()}


def page_subsections(lines):
    """{"ptrguard CMD": [lines]}: subsection headings are the least indented."""
    out, cur = {}, None
    sub = min((indent(l) for l in lines if l.strip()), default=0)
    for line in lines:
        if line.strip() and indent(line) == sub:
            cur = line.strip()
            out[cur] = []
        elif cur:
            out[cur].append(line)
    return out


def page_options(lines):
    """The entries of an OPTIONS subsection: its lines starting with "-"
    at the least indent (the tag; its text may follow on the same line)."""
    tags = [l for l in lines if l.strip()]
    base = min((indent(l) for l in tags), default=0)
    return [l.strip() for l in tags if indent(l) == base and l.strip().startswith("-")]


def main():
    page = open(sys.argv[1]).read()
    cmds = commands(open(sys.argv[2]).read())
    helpdir = sys.argv[3]
    bad = []
    if not cmds:
        bad.append("ptrguard --help lists no command")
    sec = page_sections(page)
    for name in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS",
                 "ENVIRONMENT", "FILES", "SEE ALSO"):
        if name not in sec:
            bad.append("no section " + name)
    syn = page_synopses(sec.get("SYNOPSIS", []))
    opts = page_subsections(sec.get("OPTIONS", []))
    desc = page_subsections(sec.get("DESCRIPTION", []))
    for c in cmds:
        text = open(os.path.join(helpdir, c)).read()
        want = help_synopsis(text)
        if syn.get(c) != want:
            bad.append("%s: SYNOPSIS has %r, --help %r" % (c, syn.get(c), want))
        if not any(k == "ptrguard " + c or k.startswith("ptrguard %s - " % c) for k in desc):
            bad.append("%s: no subsection in DESCRIPTION" % c)
        sub = "ptrguard " + c
        if sub not in opts:
            bad.append("%s: no subsection in OPTIONS" % c)
            continue
        want = help_options(text)
        got = page_options(opts[sub])
        for w in want:
            if not any(g == w or g.startswith(w + " ") for g in got):
                bad.append("%s: %s is in --help, not in the man page" % (c, w))
        for g in got:
            if not any(g == w or g.startswith(w + " ") for w in want):
                bad.append("%s: %s is in the man page, not in --help" % (c, g))
        if len(got) != len(want):
            bad.append("%s: %d options in the man page, %d in --help" % (c, len(got), len(want)))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
