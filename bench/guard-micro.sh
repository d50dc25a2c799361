#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/guard-micro.sh: what the seq_file pointer guard costs per
# seq_printf(), mode 2 against mode 0, measured in the kernel itself.
#
# Builds the guarded tree (scripts/kernel-series.sh --apply) plus one
# bench-only KUnit suite, bench/guard-micro/seq_ptr_guard_bench.c, as a
# UML kernel in a scratch worktree ($PTRGUARD_CACHE/guard-bench, build
# dir build-uml-bench; about 5 minutes cold, seconds when warm), and runs
# it.  The suite times NCALLS seq_printf() calls of five real-looking
# formats, alternating modes 0 and 2 for 101 rounds, and reports per
# format the median ns per call in each mode and the median of the
# per-round ratios.  UML runs on the host CPU, so this isolates the
# hook's CPU cost from the qemu/TCG noise of bench/guard-overhead.sh.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
wt=$cache/guard-bench
build=$cache/build-uml-bench
log=$top/build/bench/guard-micro.kunit.log
mkdir -p "$(dirname "$log")"

die() { echo "bench/guard-micro: $*" >&2; exit 2; }

guard=$("$top/scripts/kernel-series.sh" --apply 2>"$log.apply" | tail -n 1) ||
	die "scripts/kernel-series.sh --apply failed (see $log.apply)"
head=$(git -C "$guard" rev-parse HEAD) || die "$guard: not a git tree"

if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$guard" worktree prune
	git -C "$guard" worktree add -q --detach "$wt" "$head" ||
		die "$wt: cannot add a worktree of $guard"
fi
git -C "$wt" checkout -q -f --detach "$head" || die "$wt: cannot check out $head"

# The bench suite goes in next to the real one; touch files only when
# their content changes, so that the build stays incremental.
cmp -s "$top/bench/guard-micro/seq_ptr_guard_bench.c" "$wt/lib/seq_ptr_guard_bench.c" ||
	cp "$top/bench/guard-micro/seq_ptr_guard_bench.c" "$wt/lib/seq_ptr_guard_bench.c"
grep -q seq_ptr_guard_bench.o "$wt/lib/Makefile" ||
	echo 'obj-$(CONFIG_SEQ_PTR_GUARD_KUNIT_TEST) += seq_ptr_guard_bench.o' >>"$wt/lib/Makefile"
cp "$top/tests/kunit/.kunitconfig" "$build.kunitconfig" 2>/dev/null ||
	die "tests/kunit/.kunitconfig: missing"

( cd "$wt" && python3 tools/testing/kunit/kunit.py run --build_dir="$build" \
	--kunitconfig="$build.kunitconfig" --jobs="${J:-2}" --raw_output=kunit \
	'seq_ptr_guard_bench' ) >"$log" 2>&1 || true
grep -q 'BENCH format=' "$log" || die "no BENCH lines (see $log)"

echo "seq_printf() with the guard: mode 2 vs mode 0, UML, median of 101 rounds"
awk '
/BENCH format=/ {
	for (i = 1; i <= NF; i++) {
		k = index($i, "="); if (k) F[substr($i, 1, k - 1)] = substr($i, k + 1)
	}
	printf "%-10s %10s %10s %10s %9s\n", F["format"], F["m0_ns"], F["m2_ns"],
		F["m2_ns"] - F["m0_ns"], sprintf("%.3f", F["ratio_milli"] / 1000)
}
BEGIN { printf "%-10s %10s %10s %10s %9s\n", "format", "m0 ns", "m2 ns", "+ns", "m2/m0" }
' "$log"
