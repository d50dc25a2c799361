#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# regions.sh: the lines spatch skips in C files, as seq_px.cocci's runs see
# them (the options of its "// Options:" line, -D ptrguard, and the macro
# file cocci/rules/ptrguard-macros.h when there is one, as the gate gives it),
# found with regions.awk.  One output line per file, in the order given:
#   FILE START-END START-END ...     (just FILE when spatch parsed it all)
# FILE as given, relative to DIR.
#
# spatch takes up to 50 files per run (fewer to keep J runs going), each
# its own file group (its
# "HANDLING: FILE" line starts the file's part of stderr), J runs at once
# (default 2): starting spatch costs more than parsing a file.  A file
# whose run failed or said nothing of it is run again alone.  Exits 2 if
# spatch fails on a file alone or a region cannot be placed (the message
# names the file).
# Usage: regions.sh DIR FILE...   (env: J, SPATCH, TOP: the ptrguard checkout)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../../.." && pwd)}
[ $# -ge 1 ] || { echo "usage: regions.sh DIR FILE..." >&2; exit 2; }
dir=$(cd "$1" && pwd) || exit 2
shift
[ $# -ge 1 ] || exit 0
rule=$top/build/cocci/seq_px.cocci
macros=
[ -f "$top/cocci/ptrguard-macros.h" ] && macros="--macro-file $top/cocci/ptrguard-macros.h"
spatch=${SPATCH:-spatch}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regions.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# chunk C: spatch on the files of $tmp/C.list ("INDEX FILE" lines); the
# stderr part of each file goes to $tmp/INDEX.stderr
chunk() {
	c=$1
	mkdir "$tmp/w$c" || return
	awk -v d="$dir" '{ print d "/" $2; print "" }' "$tmp/$c.list" >"$tmp/w$c/groups"
	(cd "$tmp/w$c" && exec timeout 1200 "$spatch" --quiet --no-show-diff --verbose-parsing \
		--no-includes --include-headers -D ptrguard $macros --cocci-file "$rule" \
		--file-groups groups) >/dev/null 2>"$tmp/w$c/stderr"
	st=$?
	if [ $st -eq 0 ]; then
		awk -v d="$dir" -v t="$tmp" '
			FNR == NR { idx[d "/" $2] = $1; next }
			/^HANDLING: / {
				if (out != "") close(out)
				f = substr($0, 11)
				out = (f in idx) ? t "/" idx[f] ".stderr" : ""
			}
			out != "" { print >out }
		' "$tmp/$c.list" "$tmp/w$c/stderr"
	else
		echo "spatch exit status $st" >"$tmp/w$c/failed"
	fi
	# a file the run said nothing of, or all of a failed run: alone
	while read -r i f; do
		[ -f "$tmp/$i.stderr" ] && continue
		(cd "$tmp/w$c" && exec timeout 600 "$spatch" --quiet --no-show-diff --verbose-parsing \
			--no-includes --include-headers -D ptrguard $macros --cocci-file "$rule" "$dir/$f") \
			>/dev/null 2>"$tmp/w$c/one"
		st=$?
		if [ $st -eq 0 ]; then
			mv "$tmp/w$c/one" "$tmp/$i.stderr"
		else
			{ echo "regions.sh: $f: spatch exit status $st:"; tail -n 5 "$tmp/w$c/one"; } >"$tmp/$i.err"
		fi
	done <"$tmp/$c.list"
	rm -rf "$tmp/w$c"
}

jobs=${J:-2}
per=$((($# + jobs - 1) / jobs))
[ $per -le 50 ] || per=50
i=0
for f in "$@"; do
	i=$((i + 1))
	echo "$i $f" >>"$tmp/$(((i - 1) / per)).list"
	echo "$i $f"
done >"$tmp/list"
export dir tmp spatch rule macros
fn=$(sed -n '/^chunk() {$/,/^}$/p' "$0")
# xargs runs "sh -c" with the function's text: J at once
ls "$tmp" | sed -n 's/^\([0-9]*\)\.list$/\1/p' | sort -n |
	xargs -n 1 -P "$jobs" sh -c "$fn"'
chunk "$1"' sh
rc=0
while read -r i f; do
	if [ -f "$tmp/$i.stderr" ] &&
	   awk -v file="$dir/$f" -f "$here/regions.awk" "$tmp/$i.stderr" "$dir/$f" >"$tmp/$i.r" 2>"$tmp/$i.err"; then
		printf '%s' "$f"
		while read -r s e; do printf ' %s-%s' "$s" "$e"; done <"$tmp/$i.r"
		echo
	else
		if [ -s "$tmp/$i.err" ]; then cat "$tmp/$i.err" >&2; else echo "regions.sh: $f: no result" >&2; fi
		rc=2
	fi
done <"$tmp/list"
exit $rc
