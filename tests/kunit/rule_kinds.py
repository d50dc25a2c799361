#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The rules' own format decoder, run outside spatch: the @initialize:python@
block of a built rule (build/cocci/seq_px.cocci), exactly as spatch runs
it, applied to format literals read one per line on stdin.  Prints the
kinds of each line as `ptrguard fmt` does, so that the two outputs
compare line by line (tests/kunit/run: the three-way differential).

    rule_kinds.py RULE.cocci < formats.txt > kinds.txt
"""
import sys


def initialize_block(path):
    with open(path, encoding='latin-1') as f:
        lines = f.read().split('\n')
    try:
        start = lines.index('@initialize:python@')
    except ValueError:
        sys.exit('rule_kinds: %s: no @initialize:python@ rule' % path)
    if lines[start + 1] != '@@':
        sys.exit('rule_kinds: %s: @initialize:python@ not followed by @@' % path)
    body = []
    for line in lines[start + 2:]:
        if line.startswith('@') or line.startswith('//'):
            break
        body.append(line)
    return '\n'.join(body)


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: rule_kinds.py RULE.cocci < formats > kinds')
    env = {'__name__': 'pg_rule'}
    exec(compile(initialize_block(sys.argv[1]), sys.argv[1], 'exec'), env)
    decode = env['pg_format_kinds']
    status = 0
    stdin = open(sys.stdin.fileno(), encoding='latin-1', newline='\n')
    out = open(sys.stdout.fileno(), 'w', encoding='latin-1', newline='\n')
    for n, line in enumerate(stdin, 1):
        kinds = decode(line.rstrip('\n'))
        if kinds is None:
            sys.stderr.write('rule_kinds: stdin:%d: not C string literals\n' % n)
            kinds = ''
            status = 2
        out.write(kinds + '\n')
    out.flush()
    return status


if __name__ == '__main__':
    sys.exit(main())
