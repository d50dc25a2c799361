#!/bin/sh
# bench/fuzz.sh: the long fuzzing run of the libFuzzer targets of tests/fuzz
# (docs/testing.md, "Fuzzing"), one target at a time, each under nice -n 19.
#
#   FUZZ_SECONDS=600      per target
#   FUZZ_TARGETS="patch lex"   only these (default: every tests/fuzz/*.c target)
#   FUZZ_KEEP_CORPUS=1    go on from the corpus the last run left in
#                         build/fuzz/corpus-long/TARGET (default: start again
#                         from the seeds, so that the figures compare)
#
# Prints per target the executions, executions per second, libFuzzer's
# coverage (cov: edges, ft: features) and corpus at the end, and the crash
# input if any (kept in build/fuzz/crashes/TARGET/; a crash ends that
# target's run).  Exits non-zero if a target crashed.  Logs:
# build/fuzz/logs/long-TARGET.log.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
secs=${FUZZ_SECONDS:-600}
targets=${FUZZ_TARGETS:-}
if [ -z "$targets" ]; then
	for f in tests/fuzz/*.c; do
		t=$(basename "$f" .c)
		[ "$t" = stubs ] || targets="$targets $t"
	done
fi
command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 ||
	{ echo "bench/fuzz.sh: ${FUZZ_CC:-clang} is not installed (make setup)"; exit 2; }
nice -n 19 make -s fuzz || exit 2
mkdir -p build/fuzz/logs
rc=0
printf '%-10s %6s %12s %9s %6s %7s %7s  %s\n' target seconds execs exec/s cov ft corpus crash
for t in $targets; do
	corpus=build/fuzz/corpus-long/$t
	crashes=build/fuzz/crashes/$t
	log=build/fuzz/logs/long-$t.log
	if [ "${FUZZ_KEEP_CORPUS:-0}" != 1 ] || [ ! -d "$corpus" ]; then
		rm -rf "$corpus"
		tests/fuzz/corpus.sh "$t" "$corpus" || exit 2
	fi
	mkdir -p "$crashes"
	dict=
	[ -f "tests/fuzz/$t.dict" ] && dict=-dict=tests/fuzz/$t.dict
	start=$(date +%s)
	nice -n 19 "build/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		$dict -artifact_prefix="$crashes/" -print_final_stats=1 "$corpus" > "$log" 2>&1
	st=$?
	took=$(( $(date +%s) - start ))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p')
	crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
	if [ "$st" -ne 0 ]; then
		rc=1
		[ -n "$crash" ] || crash="exit $st, see $log"
	fi
	printf '%-10s %6s %12s %9s %6s %7s %7s  %s\n' "$t" "$took" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}" "${ft:-?}" "${corp:-?}" "${crash:-none}"
	if [ "$st" -ne 0 ]; then
		grep -E -e 'ERROR: |runtime error|invariant failed|die\(\)|SUMMARY' \
			-e '#[0-9]+ .* in .*(scripts|tests)/' "$log" | head -12 | sed 's/^/	/'
	fi
done
exit $rc
