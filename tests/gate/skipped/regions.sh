#!/bin/sh
# regions.sh: the lines spatch skips in C files, as seq_px.cocci's runs see
# them (the options of its "// Options:" line, -D ptrguard), found with
# regions.awk.  One output line per file, in the order given:
#   FILE START-END START-END ...     (just FILE when spatch parsed it all)
# FILE as given, relative to DIR.  Up to J files at once (default 2, one
# spatch each).  Exits 2 if spatch fails on a file or a region cannot be
# placed (the message names the file).
# Usage: regions.sh DIR FILE...   (env: J, SPATCH, TOP: the ptrguard checkout)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../../.." && pwd)}
[ $# -ge 1 ] || { echo "usage: regions.sh DIR FILE..." >&2; exit 2; }
dir=$(cd "$1" && pwd) || exit 2
shift
[ $# -ge 1 ] || exit 0
rule=$top/cocci/seq_px.cocci
spatch=${SPATCH:-spatch}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regions.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# one file: FILE INDEX; writes $tmp/INDEX.out, or $tmp/INDEX.err on failure
one() {
	f=$1 i=$2
	mkdir "$tmp/w$i" || return
	(cd "$tmp/w$i" && exec timeout 600 "$spatch" --quiet --no-show-diff --verbose-parsing \
		--no-includes --include-headers -D ptrguard --cocci-file "$rule" "$dir/$f") \
		>/dev/null 2>"$tmp/w$i/stderr"
	st=$?
	if [ $st -ne 0 ]; then
		{ echo "regions.sh: $f: spatch exit status $st:"; tail -n 5 "$tmp/w$i/stderr"; } >"$tmp/$i.err"
	elif awk -v file="$dir/$f" -f "$here/regions.awk" "$tmp/w$i/stderr" "$dir/$f" \
		>"$tmp/$i.r" 2>"$tmp/$i.err"; then
		printf '%s' "$f" >"$tmp/$i.out"
		while read -r s e; do printf ' %s-%s' "$s" "$e"; done <"$tmp/$i.r" >>"$tmp/$i.out"
		echo >>"$tmp/$i.out"
		rm -f "$tmp/$i.err"
	fi
	rm -rf "$tmp/w$i"
}

i=0
for f in "$@"; do
	i=$((i + 1))
	echo "$i $f"
done >"$tmp/list"
export dir tmp spatch rule here
# xargs runs "sh -c" with the function's text: J at once
fn=$(sed -n '/^one() {$/,/^}$/p' "$0")
while read -r i f; do printf '%s\n%s\n' "$f" "$i"; done <"$tmp/list" |
	xargs -n 2 -P "${J:-2}" sh -c "$fn"'
one "$1" "$2"' sh
rc=0
while read -r i f; do
	if [ -f "$tmp/$i.out" ]; then
		cat "$tmp/$i.out"
	else
		[ -s "$tmp/$i.err" ] && cat "$tmp/$i.err" >&2 || echo "regions.sh: $f: no result" >&2
		rc=2
	fi
done <"$tmp/list"
exit $rc
