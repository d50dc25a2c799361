#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/gate-history.sh: `ptrguard gate` against `scripts/checkpatch.pl
# --no-tree` on the real commits of a repository, oldest first, as a CI
# job sees them: each commit gated once with --range C~1..C, the cache
# carried from commit to commit (the base side of a file is often the
# patched side of an earlier commit), then every commit gated a second
# time (a CI rerun: everything from the cache).  checkpatch reads the
# same commit as git format-patch writes it.  CPU time (user + system)
# of each, its median and worst over the commits, and the ratios.
#
# Usage: bench/gate-history.sh
#   REPO=DIR   a git repository (default: aircrack-ng/rtl8812au, cloned
#              from the fetch mirror into the cache when it is there)
#   KSRC=DIR   the kernel tree (default: scripts/kernel-tree.sh, 6.12);
#              a module repository is gated with --kernel KSRC
#   N=40       how many commits, the last N of the first-parent history
#              that touch a .c or .h file (merges skipped)
#   PTRGUARD=build/ptrguard
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ptrguard=${PTRGUARD:-$top/build/ptrguard}
ksrc=${KSRC:-$("$top/scripts/kernel-tree.sh")}
n=${N:-40}
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
mirror=/work/.mirror/aircrack-ng+rtl8812au/repo
repo=${REPO:-}
if [ -z "$repo" ]; then
	repo=$cache/bench-rtl8812au
	if [ ! -d "$repo/.git" ]; then
		# not every machine has the fetch mirror: say so, measure nothing
		[ -e "$mirror" ] || { echo "bench/gate-history: SKIP: no REPO=DIR given and no $mirror"; exit 0; }
		git clone -q "$mirror" "$repo"
	fi
fi
[ -x "$ptrguard" ] || { echo "bench/gate-history: $ptrguard: not built (make)" >&2; exit 2; }
[ -f "$ksrc/scripts/checkpatch.pl" ] || { echo "bench/gate-history: $ksrc: no checkpatch.pl" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gate-history.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

kernel=
[ -f "$repo/Makefile" ] && grep -q '^VERSION = ' "$repo/Makefile" || kernel="--kernel $ksrc"
git -C "$repo" rev-list --first-parent --no-merges -n "$n" HEAD -- '*.c' '*.h' |
	tac >"$tmp/commits"

# cpu CMD...: run it, print its CPU seconds (user + system of it and its
# children) and exit status
cpu() {
	/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err" && st=0 || st=$?
	# the last line: time writes "Command exited with ..." before it
	tail -n 1 "$tmp/t" | awk -v st="$st" '{ printf "%.2f %d\n", $1 + $2, st }'
}

export PTRGUARD_GATE_CACHE="$tmp/cache"
printf '%-12s %6s %10s %10s %10s %s\n' commit files checkpatch gate gate-again exit
: >"$tmp/rows"
for pass in 1 2; do
	while read -r c; do
		if [ $pass = 1 ]; then
			git -C "$repo" format-patch -q -1 --stdout "$c" >"$tmp/p.patch"
			set -- $(cpu perl "$ksrc/scripts/checkpatch.pl" --no-tree -q "$tmp/p.patch")
			cp=$1
			# shellcheck disable=SC2086 # $kernel: words
			set -- $(cpu "$ptrguard" gate -q --tree "$repo" $kernel --range "$c~1..$c")
			echo "$c $cp $1 $2" >>"$tmp/rows"
		else
			# shellcheck disable=SC2086
			set -- $(cpu "$ptrguard" gate -q --tree "$repo" $kernel --range "$c~1..$c")
			files=$(git -C "$repo" show --format= --name-only "$c" | grep -c '\.[ch]$' || true)
			awk -v c="$c" -v again="$1" -v files="$files" '$1 == c {
				printf "%-12.12s %6d %10s %10s %10s %s\n", c, files, $2, $3, again, $4 }' \
				"$tmp/rows" | tee -a "$tmp/table"
		fi
	done <"$tmp/commits"
done
cat >"$tmp/sum.awk" <<'SUM'
	{ cp = cp " " $3; g = g " " $4; a = a " " $5; r = r " " ($3 > 0 ? $4 / $3 : 0)
	  ra = ra " " ($3 > 0 ? $5 / $3 : 0)
	  if ($4 > gw) gw = $4; if ($5 > aw) aw = $5
	  if ($3 > 0 && $4 / $3 > rw) rw = $4 / $3 }
	END {
		printf "median CPU: checkpatch %.2f s, gate %.2f s, gate again %.2f s\n",
			median(cp), median(g), median(a)
		printf "ratio gate/checkpatch: median %.2f, worst %.2f; again: median %.2f\n",
			median(r), rw, median(ra)
		printf "worst gate %.2f s, worst gate again %.2f s\n", gw, aw
	}
SUM
awk -f "$top/bench/median.awk" -f "$tmp/sum.awk" "$tmp/table"
