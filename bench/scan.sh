#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/scan.sh: `ptrguard scan` against the kernel's own
# scripts/leaking_addresses.pl (pristine 6.12 tree) on this host.
#
# Three configurations, each run BENCH_RUNS times (default 5) alternately:
#   full:     /proc (pid 1 only, as the Perl script does) and /sys
#   kernel:   /sys/kernel alone
#   fixtures: tests/scan/fixtures (known content: the findings diff shows
#             where the two disagree by design; its times mean little)
# The Perl script has its roots hard-coded (@DIRS = /proc, /sys); for the
# second configuration a copy with that one line changed is made under
# $TMPDIR at run time.  It also reads dmesg in every configuration: its "dmesg:"
# lines are compared with our --dmesg findings in the first configuration.
#
# Each configuration also times the floor (build/scan-floor, bench/
# scan-floor.c: the files the scanner reads, listed by an untimed
# `ptrguard scan --debug-list-files`, each read once with the scanner's
# number of threads, nothing done with the bytes) and the default scan
# (listed: what others than root can read) beside `--all --json`, and
# runs the default scan once more per round with --debug-times (the
# phases, builtin/scan.c print_times).
#
# Prints the median wall and CPU (user+sys) times and their ratios
# (default scan / floor, Perl / default scan, Perl / --all), the median of
# each phase, then a findings diff over (file, address) pairs from the
# last run of each (tests/scan/la-compare.py): common, Perl only (and
# which of those our model drops on purpose, with its reason), ours only
# (by file).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli=${PTRGUARD_BENCH_CLI:-$top/build/ptrguard}
floor=$top/build/scan-floor
runs=${BENCH_RUNS:-5}
ksrc=$("$top/scripts/kernel-tree.sh") || { echo "bench/scan: no kernel tree" >&2; exit 2; }
pl=$ksrc/scripts/leaking_addresses.pl
[ -r "$pl" ] || { echo "bench/scan: $pl: not found" >&2; exit 2; }
command -v perl >/dev/null || { echo "bench/scan: perl not installed" >&2; exit 2; }
[ -x "$cli" ] || { echo "bench/scan: $cli: build it first (make)" >&2; exit 2; }
[ -x "$floor" ] || { echo "bench/scan: $floor: build it first (make build/scan-floor)" >&2; exit 2; }
jobs=$(nproc 2>/dev/null || echo 1)
[ "$jobs" -le 16 ] || jobs=16	# the scanner's default -j
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

fx=$top/tests/scan/fixtures
sed "s|^my @DIRS = .*|my @DIRS = ('/sys/kernel');|" "$pl" >"$tmp/la-kernel.pl"
sed "s|^my @DIRS = .*|my @DIRS = ('$fx');|" "$pl" >"$tmp/la-fixtures.pl"
cp "$pl" "$tmp/la-full.pl"
grep -q "^my @DIRS = ('/sys/kernel');" "$tmp/la-kernel.pl" ||
	{ echo "bench/scan: could not retarget the Perl script" >&2; exit 2; }

# timed NAME CMD...: run CMD, stdout to $tmp/NAME.out, append "wall cpu".
timed() {
	name=$1; shift
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/time" >>"$tmp/$name.times"
}

median() {	# column $2 of file $1
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "bench/scan: $runs runs per tool and configuration; host $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench/scan: baseline $pl"
for conf in full kernel fixtures; do
	case $conf in
	full)	set -- --dmesg --pids=1 /proc /sys ;;
	kernel)	set -- /sys/kernel ;;
	*)	set -- --kallsyms "$fx/kallsyms" "$fx" ;;
	esac
	"$cli" scan --all --no-progress --debug-list-files "$tmp/files-$conf" "$@" \
		>/dev/null 2>&1
	: >"$tmp/phases-$conf"
	i=0
	while [ "$i" -lt "$runs" ]; do
		timed "pl-$conf" perl "$tmp/la-$conf.pl"
		timed "fl-$conf" "$floor" -j "$jobs" "$tmp/files-$conf"
		timed "pd-$conf" "$cli" scan --no-progress "$@"
		timed "pg-$conf" "$cli" scan --all --json --no-progress "$@"
		"$cli" scan --no-progress --debug-times "$@" 2>&1 >/dev/null |
			sed -n 's/^scan: times (s): //p' >>"$tmp/phases-$conf"
		i=$((i + 1))
	done
	"$cli" scan --json --ignored --no-progress "$@" >"$tmp/pg-$conf.ign" 2>/dev/null
	pw=$(median "$tmp/pl-$conf.times" 1); pc=$(median "$tmp/pl-$conf.times" 2)
	gw=$(median "$tmp/pg-$conf.times" 1); gc=$(median "$tmp/pg-$conf.times" 2)
	fw=$(median "$tmp/fl-$conf.times" 1); fc=$(median "$tmp/fl-$conf.times" 2)
	dw=$(median "$tmp/pd-$conf.times" 1); dc=$(median "$tmp/pd-$conf.times" 2)
	echo
	echo "== $conf ($*)"
	echo "floor: $(cat "$tmp/fl-$conf.out") in $(tr '\0' '\n' <"$tmp/files-$conf" | wc -l) listed files, $jobs thread(s)"
	printf '%-32s %10s %10s\n' "median of $runs" "wall s" "cpu s"
	printf '%-32s %10s %10s\n' "floor (scan-floor)" "$fw" "$fc"
	printf '%-32s %10s %10s\n' "ptrguard scan (default)" "$dw" "$dc"
	printf '%-32s %10s %10s\n' "leaking_addresses.pl" "$pw" "$pc"
	printf '%-32s %10s %10s\n' "ptrguard scan --all --json" "$gw" "$gc"
	awk -v pw="$pw" -v pc="$pc" -v gw="$gw" -v gc="$gc" -v fw="$fw" -v fc="$fc" \
	    -v dw="$dw" -v dc="$dc" '
	function r(a, b) { return b > 0 ? sprintf("%.2fx", a / b) : "n/a" }
	BEGIN {
		printf "%-32s %10s %10s\n", "ratio default scan / floor", r(dw, fw), r(dc, fc)
		printf "%-32s %10s %10s\n", "ratio perl / default scan", r(pw, dw), r(pc, dc)
		printf "%-32s %10s %10s\n", "ratio perl / --all --json", r(pw, gw), r(pc, gc) }'
	awk "$(cat "$top/bench/median.awk")"'
	{
		for (i = 1; i <= NF; i++) {
			k = index($i, "="); f = substr($i, 1, k - 1)
			if (!(f in v)) order[++nf] = f
			v[f] = v[f] " " substr($i, k + 1)
		}
	}
	END {
		if (!nf) exit
		printf "phases of the default scan (--debug-times, median, s):"
		for (i = 1; i <= nf; i++)
			printf " %s=%s", order[i], median(v[order[i]])
		printf "\n"
	}' "$tmp/phases-$conf"
	grep -h 'timed out' "$tmp/pl-$conf.err" | sort | uniq -c | sed 's/^/perl: /'
	dm=; [ "$conf" = full ] && dm=--dmesg
	python3 "$top/tests/scan/la-compare.py" "$tmp/pl-$conf.out" "$tmp/pg-$conf.out" "$tmp/pg-$conf.ign" $dm
done
