#!/bin/sh
# tests/fuzz/corpus.sh TARGET DIR: fill DIR with TARGET's seed corpus,
# copied from the fixtures of the other suites (nothing generated is kept
# in the repo).  Used by tests/fuzz/run and bench/fuzz.sh.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$1
dir=$2
mkdir -p "$dir"

# copy FILE...: each file under a name made of its path
copy() {
	for f in "$@"; do
		[ -f "$f" ] || continue
		cp "$f" "$dir/$(echo "${f#"$top"/}" | tr / _)"
	done
}

# lines FILE PREFIX: each line of FILE (comments and blank lines aside,
# the " => KINDS" of tests/model/cases cut) as a file of its own
lines() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$1" | sed 's/ =>.*$//' |
	awk -v d="$dir" -v p="$2" '{ f = sprintf("%s/%s-%03d", d, p, NR); printf "%s", $0 > f; close(f) }'
}

c_sources() {
	copy "$top"/tests/cocci/fixtures/*.c "$top"/tests/cocci/fixtures/*.h \
		"$top"/tests/cocci/fixtures/*.after
	copy $(find "$top/tests/audit" -type f \( -name '*.c' -o -name '*.h' \) | sort)
}

case $t in
patch)
	copy "$top"/tests/gate/cases/*.patch "$top"/tests/gate/cases/*.diff \
		"$top"/tests/gate/cases/*.mbox
	;;
fmt)
	lines "$top/tests/model/cases" cases
	lines "$top/tests/model/bad" bad
	;;
prefilter)
	c_sources
	;;
lex)
	c_sources
	;;
scan)
	copy $(find "$top/tests/scan/fixtures" -type f | sort)
	;;
*)
	echo "corpus.sh: $t: no such target" >&2
	exit 2
	;;
esac
