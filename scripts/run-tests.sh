#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the test suites and print the closing "N passed, N failed" line.
#
# A suite is an executable tests/NAME/run.  It prints one line per test
# case, "PASS: what" or "FAIL: what" (anything else is log), and exits
# non-zero if anything failed.  A suite that exits non-zero without
# printing a FAIL line counts as one failure, so a crash is never a pass.
# Usage: run-tests.sh [SUITE...]   (default: every suite, in order)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export PTRGUARD="${PTRGUARD:-$top/build/ptrguard-san}"
export PTRGUARD_TOP="$top"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The guard series carries the git identity of whoever builds it
# (scripts/kernel-series.sh refuses to build it without one).  A machine
# with none, as a CI runner may be, builds it as the test suite.
if [ -z "${GIT_AUTHOR_NAME:-}$(git config user.name 2>/dev/null)" ] ||
   [ -z "${GIT_AUTHOR_EMAIL:-}$(git config user.email 2>/dev/null)" ]; then
	export GIT_AUTHOR_NAME="ptrguard test suite"
	export GIT_AUTHOR_EMAIL="tests@ptrguard.invalid"
fi

# The order puts the fast suites first.
order="model cli fuzz cocci audit fix gate scan harness kunit e2e"
if [ $# -gt 0 ]; then
	suites="$*"
else
	suites=
	for s in $order; do
		[ -x "tests/$s/run" ] && suites="$suites $s"
	done
	for d in tests/*/; do
		s=$(basename "$d")
		case " $order " in *" $s "*) continue ;; esac
		[ -x "tests/$s/run" ] && suites="$suites $s"
	done
fi

passed=0
failed=0
logdir=$top/build/test-logs
mkdir -p "$logdir"
for s in $suites; do
	if [ ! -x "tests/$s/run" ]; then
		echo "run-tests: tests/$s/run: no such suite" >&2
		failed=$((failed + 1))
		continue
	fi
	echo "=== suite $s"
	start=$(date +%s)
	# as it runs (make e2e-full's suites take hours), and into the log
	rm -f "$logdir/$s.rc"
	{ "tests/$s/run"; echo $? >"$logdir/$s.rc"; } 2>&1 | tee "$logdir/$s.log"
	rc=$(cat "$logdir/$s.rc" 2>/dev/null || echo 2)
	p=$(grep -c '^PASS: ' "$logdir/$s.log")
	f=$(grep -c '^FAIL: ' "$logdir/$s.log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: suite $s exited $rc without naming a failed test"
		f=1
	fi
	if [ "$rc" -eq 0 ] && [ "$f" -ne 0 ]; then
		echo "FAIL: suite $s reported failures but exited 0"
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: suite $s ran no test"
		f=1
	fi
	echo "=== suite $s: $p passed, $f failed ($(( $(date +%s) - start )) s)"
	passed=$((passed + p))
	failed=$((failed + f))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
