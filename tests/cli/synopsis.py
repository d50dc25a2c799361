#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the --help text of a ptrguard command on stdin and print what its
SYNOPSIS and OPTIONS say, one line each, for tests/cli/run to try out:

    opt GROUP REQUIRED SPELLING ARG NEG   an option of the synopsis
    arg GROUP REQUIRED TEXT - -           an argument of the synopsis
    alias SHORT LONG ARG NEG              an OPTIONS entry "-j N, --jobs=N",
                                          "-v, --[no-]verbose"

GROUP numbers the synopsis items: the options of one "[a | b]" share it.
REQUIRED is 1 outside brackets; SPELLING is "-j" or "--tree"; ARG the
argument's name or "-"; NEG "neg" for "--[no-]X", else "-".  A synopsis
that cannot be read this way is an error (exit 1, the item named).
"""
import re
import sys


def section(lines, name):
    """The lines of the --help section @name (its title line a word in
    capitals alone), up to the next title; man-check.py reads it too."""
    out, inside = [], False
    for line in lines:
        if line == name:
            inside = True
        elif inside and line and not line.startswith(" "):
            break
        elif inside:
            out.append(line)
    return out


def split_top(text, sep):
    """Split at @sep outside brackets and parentheses."""
    parts, depth, cur, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if depth == 0 and text.startswith(sep, i):
            parts.append(cur)
            cur, i = "", i + len(sep)
            continue
        cur += ch
        i += 1
    parts.append(cur)
    return [p for p in parts if p]


def option(alt):
    m = re.fullmatch(r"-([A-Za-z0-9])(?: (\S+))?", alt)
    if m:
        return "-" + m.group(1), m.group(2) or "-", "-"
    m = re.fullmatch(r"--(\[no-\])?([a-z][a-z0-9-]*)(?:=(\S+))?", alt)
    if m:
        return "--" + m.group(2), m.group(3) or "-", "neg" if m.group(1) else "-"
    return None


def main():
    lines = sys.stdin.read().split("\n")
    syn = " ".join(l.strip() for l in section(lines, "SYNOPSIS") if l.strip())
    m = re.match(r"ptrguard (\S+)(.*)", syn)
    if not m:
        sys.exit("synopsis.py: no 'ptrguard CMD' synopsis")
    items = []
    for tok in split_top(m.group(2).strip(), " "):
        # "-o OUT" and "< LITERALS" are one item each
        if items and (re.fullmatch(r"-[A-Za-z0-9]", items[-1]) and tok[0].isupper() or
                      items[-1] == "<"):
            items[-1] += " " + tok
        else:
            items.append(tok)
    for group, item in enumerate(items, 1):
        required = 1
        if item[0] == "[" and item[-1] == "]":
            item, required = item[1:-1], 0
        elif item[0] == "(" and item[-1] == ")":
            item = item[1:-1]
        for alt in split_top(item, " | "):
            o = option(alt) if alt.startswith("-") and alt != "-" else None
            if o:
                print("opt", group, required, *o)
            elif alt.startswith("-") and alt != "-":
                sys.exit("synopsis.py: %s: not an option spelling" % alt)
            else:
                print("arg", group, required, alt.replace(" ", "_"), "-", "-")
    for line in section(lines, "OPTIONS"):
        m = re.fullmatch(r"    -(\S)(?: (\S+))?, --(\[no-\])?([a-z][a-z0-9-]*)(?:=(\S+))?", line)
        if m:
            print("alias", "-" + m.group(1), "--" + m.group(4), m.group(5) or "-",
                  "neg" if m.group(3) else "-")


if __name__ == "__main__":
    main()
