#!/usr/bin/env python3
"""Check `ptrguard scan --json --ignored` findings against the annotations
of a layout fixture (tests/scan/fixtures/layouts/*): each line other than
comments is "REGION: VALUE", REGION the region the value must be reported
in, "none" for a value that must not be reported, "ignored" for one the
model must drop.  Prints one line a mismatch; exit 1 if any."""
import json
import sys

src, found = sys.argv[1], json.load(open(sys.argv[2]))
by_line = {}
for f in found:
    by_line.setdefault(f["line"], []).append(f)
bad = 0
for n, text in enumerate(open(src).read().splitlines(), 1):
    got = by_line.pop(n, [])
    if text.startswith("#"):
        want = None
    else:
        label, value = text.rsplit(": ", 1)
        want = label
    reported = [f for f in got if not f.get("ignored")]
    if want in (None, "none"):
        ok = not reported and (want is None or not got)
    elif want == "ignored":
        ok = len(got) == 1 and got[0].get("ignored")
    else:
        ok = len(reported) == 1 and reported[0]["region"] == want
    if not ok:
        bad += 1
        print("%s:%d: want %s, got %s" % (src, n, want or "nothing",
              [(f.get("region"), f.get("ignored", False)) for f in got]))
if by_line:
    bad += 1
    print("findings on no line:", by_line)
sys.exit(1 if bad else 0)
