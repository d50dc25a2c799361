#!/bin/sh
# Run the benchmarks: every bench/NAME.sh (or the ones named), in order.
# Each prints its own figures; this only sequences them and keeps a log.
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
	sh "$b" 2>&1 | tee "build/bench/$name.log"
	st=$(cat "build/bench/.rc" 2>/dev/null || echo 0)
	[ "$st" = 0 ] || rc=1
done
exit $rc
