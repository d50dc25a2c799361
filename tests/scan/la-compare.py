#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Compare the findings of scripts/leaking_addresses.pl and `ptrguard scan`
# as (file, address) pairs.  Used by tests/scan/run (the superset check)
# and bench/scan.sh (the findings diff).
#
# usage: la-compare.py PERL_OUTPUT SCAN_JSON SCAN_IGNORED_JSON [--superset] [--dmesg]
# With --superset, exit 1 if the Perl script found a pair that we neither
# report nor ignore with a stated reason.  With --dmesg its "dmesg:" lines
# are compared with our /dev/kmsg findings (scan --dmesg); else dropped.
import collections
import json
import re
import sys

# leaking_addresses.pl's x86_64 (4-level) pattern and its false-positive
# filters, applied to its output lines to recover the values it flagged.
PAT = re.compile(r'\b(0x)?(ffff[0-9a-fA-F]{12})\b')
HALF = 0xffff800000000000


def perl_fp(h):
    v = int(h, 16)
    return re.fullmatch(r'[fF]{15}[0-9a-f]', h) or \
        0xffffffffff600000 <= v <= 0xffffffffff601000


def perl_pairs(path, dmesg):
    pairs = set()
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if (line.startswith('dmesg: ') and not dmesg) or ': ' not in line:
            continue
        name = line.startswith('Path name may contain address: ')
        f, text = line.split(': ', 1)
        if name:
            f = text
        elif f == 'dmesg':
            f = '/dev/kmsg'
        for m in PAT.finditer(text):
            if perl_fp(m.group(2)):
                continue
            g = f
            if name:    # the path component that holds the value
                g = f[:f.index(m.group(0)) + len(m.group(0))]
                g = f[:len(g) + len(f[len(g):].split('/', 1)[0])]
            pairs.add((g, int(m.group(2), 16)))
    return pairs


def main():
    perl = perl_pairs(sys.argv[1], '--dmesg' in sys.argv)
    ours = {(d['file'], int(d['address'], 16)) for d in json.load(open(sys.argv[2]))}
    why = {(d['file'], int(d['address'], 16)): d['reason']
           for d in json.load(open(sys.argv[3])) if d.get('ignored')}
    for p in perl - ours:
        if p[1] < HALF and p not in why:
            why[p] = 'below the kernel half (non-canonical with 4-level paging)'
    common = perl & ours
    ponly, oonly = perl - ours, ours - perl
    print(f"findings (file, address): perl {len(perl)} in {len({f for f, _ in perl})} files, "
          f"ours {len(ours)} in {len({f for f, _ in ours})} files, common {len(common)}")
    explained = collections.Counter(why[p] for p in ponly if p in why)
    print(f"perl only: {len(ponly)} ({sum(explained.values())} not addresses by our model, on purpose)")
    for r, n in explained.most_common():
        print(f"  {n:7d}  {r}")
    bad = sorted(p for p in ponly if p not in why)
    for f, v in bad[:20]:
        print(f"  unexplained: {f}: {v:016x}")
    print(f"ours only: {len(oonly)}")
    for f, n in collections.Counter(f for f, _ in oonly).most_common(8):
        print(f"  {n:7d}  {f}")
    return 1 if bad and '--superset' in sys.argv else 0


sys.exit(main())
