#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the benchmarks: every bench/NAME.sh (or the ones named), in order.
# Each prints its own figures; this only sequences them and keeps a log in
# build/bench/NAME.log.  Exits non-zero if any benchmark failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
mkdir -p build/bench
if [ $# -gt 0 ]; then
	list=
	for b in "$@"; do list="$list bench/$b.sh"; done
else
	list=$(ls bench/*.sh 2>/dev/null)
fi
rc=0
for b in $list; do
	name=$(basename "$b" .sh)
	echo "=== bench $name"
	sh "$b" >"build/bench/$name.log" 2>&1
	st=$?
	cat "build/bench/$name.log"
	if [ "$st" -ne 0 ]; then
		echo "=== bench $name FAILED (exit $st)"
		rc=1
	fi
done
exit $rc
