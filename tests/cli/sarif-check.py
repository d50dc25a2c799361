#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a SARIF log against what GitHub code scanning requires of it.

Usage: sarif-check.py FILE [MIN_RESULTS]

Structural checks of SARIF 2.1.0 as an upload reads it: version and
$schema, runs[].tool.driver.name and rules[].id, and for each result
ruleId (a rule of the driver; ruleIndex, if given, points at it), level,
message.text, locations[].physicalLocation.artifactLocation.uri (a file:///
URI with no host, or a relative reference whose uriBaseId is defined in
originalUriBaseIds as an absolute file:/// directory) and region.startLine.
Prints the first problem and exits 1; exits 0 when all hold.
"""
import json
import sys
from urllib.parse import urlsplit

LEVELS = ("none", "note", "warning", "error")


def fail(msg):
    print("sarif-check: " + msg)
    sys.exit(1)


def check_uri(run, art, where):
    uri = art.get("uri")
    if not isinstance(uri, str) or not uri:
        fail(where + ": artifactLocation.uri is not a string")
    if any(c in uri for c in ' "\\#?') or any(ord(c) < 0x21 or ord(c) > 0x7e for c in uri):
        fail(where + ": uri %r holds characters a URI cannot" % uri)
    u = urlsplit(uri)
    if u.scheme:
        if u.scheme != "file" or u.netloc or not u.path.startswith("/"):
            fail(where + ": uri %r: want file:///ABSOLUTE (no host)" % uri)
        if "uriBaseId" in art:
            fail(where + ": an absolute uri with a uriBaseId")
        return
    if uri.startswith("/"):
        fail(where + ": uri %r: an absolute path is not a relative reference" % uri)
    base = art.get("uriBaseId")
    bases = run.get("originalUriBaseIds", {})
    if not base or base not in bases:
        fail(where + ": relative uri %r without a uriBaseId defined in originalUriBaseIds" % uri)
    b = urlsplit(bases[base].get("uri", ""))
    if b.scheme != "file" or b.netloc or not b.path.startswith("/") or not b.path.endswith("/"):
        fail("originalUriBaseIds.%s.uri %r: want file:///DIR/" % (base, bases[base].get("uri")))


def main():
    if len(sys.argv) < 2:
        fail("usage: sarif-check.py FILE [MIN_RESULTS]")
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            log = json.load(f)
    except (OSError, ValueError) as e:
        fail("not JSON: %s" % e)
    if log.get("version") != "2.1.0":
        fail("version is %r, not \"2.1.0\"" % log.get("version"))
    if "sarif-2.1.0" not in str(log.get("$schema", "")):
        fail("$schema %r is not SARIF 2.1.0's" % log.get("$schema"))
    runs = log.get("runs")
    if not isinstance(runs, list) or not runs:
        fail("no runs")
    total = 0
    for n, run in enumerate(runs):
        driver = run.get("tool", {}).get("driver", {})
        if not isinstance(driver.get("name"), str) or not driver["name"]:
            fail("runs[%d].tool.driver.name missing" % n)
        rules = driver.get("rules", [])
        ids = [r.get("id") for r in rules]
        if not all(isinstance(i, str) and i for i in ids):
            fail("runs[%d]: a rule without an id" % n)
        if len(set(ids)) != len(ids):
            fail("runs[%d]: rule ids repeat" % n)
        results = run.get("results")
        if not isinstance(results, list):
            fail("runs[%d].results is not a list" % n)
        for k, r in enumerate(results):
            where = "runs[%d].results[%d]" % (n, k)
            if r.get("ruleId") not in ids:
                fail(where + ": ruleId %r is no rule of the driver" % r.get("ruleId"))
            if "ruleIndex" in r and ids[r["ruleIndex"]] != r["ruleId"]:
                fail(where + ": ruleIndex does not point at ruleId")
            if r.get("level") not in LEVELS:
                fail(where + ": level %r" % r.get("level"))
            text = r.get("message", {}).get("text")
            if not isinstance(text, str) or not text:
                fail(where + ": message.text missing")
            locs = r.get("locations")
            if not isinstance(locs, list) or not locs:
                fail(where + ": no locations")
            for loc in locs:
                pl = loc.get("physicalLocation", {})
                check_uri(run, pl.get("artifactLocation", {}), where)
                line = pl.get("region", {}).get("startLine")
                if not isinstance(line, int) or line < 1:
                    fail(where + ": region.startLine missing or < 1")
        for k, note in enumerate(run.get("invocations", [{}])[0].get("toolExecutionNotifications", [])
                                 if run.get("invocations") else []):
            for loc in note.get("locations", []):
                check_uri(run, loc.get("physicalLocation", {}).get("artifactLocation", {}),
                          "runs[%d] notification %d" % (n, k))
        total += len(results)
    if total < want:
        fail("%d results, want at least %d" % (total, want))
    sys.exit(0)


main()
