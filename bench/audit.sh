#!/bin/sh
# bench/audit.sh: `ptrguard audit` over the whole Linux 6.12 tree, side by
# side with the kernel's own `make coccicheck` running the same rule, and
# with grep.  Rounds alternate the tools so that a busy machine slows them
# alike; each figure is the median of RUNS rounds.
#
#   RUNS=3        rounds for the %px rule (seq_px.cocci)
#   CAST_RUNS=1   rounds with the cast rule too (seq_int_cast.cocci); 0 skips
#   J=2           jobs for both tools
#   KSRC=DIR      the tree (default: scripts/kernel-tree.sh)
#
# make coccicheck in report mode writes nothing in the tree (it prints its
# report); the script checks that afterwards with find -newer, and runs
# both tools on the pristine tree.  Prints the times, their ratio (the
# target is ptrguard <= 0.6x coccicheck), and how the findings compare:
# what grep misses and what it finds that is not a finding.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
cast_runs=${CAST_RUNS:-1}
j=${J:-2}
ptrguard=$top/build/ptrguard
ksrc=${KSRC:-$("$top/scripts/kernel-tree.sh")} || exit 2
out=$top/build/bench/audit
rm -rf "$out"
mkdir -p "$out"
echo 0 > "$top/build/bench/.rc"
stamp=$out/stamp
touch "$stamp"

die() { echo "bench/audit: $*" >&2; echo 1 > "$top/build/bench/.rc"; exit 1; }
[ -x "$ptrguard" ] || die "$ptrguard: not built (make)"
[ -d "$ksrc/kernel" ] || die "$ksrc: not a kernel tree"

now() { date +%s.%N; }
# elapsed START: seconds since START, 1 decimal
elapsed() { echo "$(now) $1" | awk '{ printf "%.1f", $1 - $2 }'; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }

# ptrguard's gcc lines and coccicheck's report lines, both as
# FILE:LINE:COLUMN(1-based):CLASS, sorted
norm_ptrguard() { sed -n 's/^\([^:]*\):\([0-9]*\):\([0-9]*\): \([^:]*\): .*/\1:\2:\3:\4/p' "$1" | sort -u; }
norm_coccicheck() {
	sed -n "s|^\(\./\)\{0,1\}\([^:]*\):\([0-9]*\):\([0-9]*\)-[0-9]*: \([a-z-]*\) .*|\2:\3:\4:\5|p" "$1" |
		sed "s|^$ksrc/||" | awk -F: '{ printf "%s:%s:%d:%s\n", $1, $2, $3 + 1, $4 }' | sort -u
}

# run_ptrguard TAG ARGS...: one ptrguard audit run, time appended to $out/TAG.times
run_ptrguard() {
	tag=$1
	shift
	t0=$(now)
	"$ptrguard" audit -j "$j" "$@" "$ksrc" > "$out/$tag.out" 2> "$out/$tag.err"
	rc=$?
	printf '%s ' "$(elapsed "$t0")" >> "$out/$tag.times"
	[ "$rc" -le 1 ] || die "ptrguard audit failed ($rc): $(tail -1 "$out/$tag.err")"
}

# run_coccicheck TAG RULE...: make coccicheck once per rule, times summed
run_coccicheck() {
	tag=$1
	shift
	: > "$out/$tag.out"
	t0=$(now)
	for rule in "$@"; do
		make -s -C "$ksrc" coccicheck COCCI="$rule" MODE=report J="$j" \
			>> "$out/$tag.out" 2>> "$out/$tag.err" ||
			die "make coccicheck failed: $(tail -1 "$out/$tag.err")"
	done
	printf '%s ' "$(elapsed "$t0")" >> "$out/$tag.times"
}

run_grep() {
	t0=$(now)
	(cd "$ksrc" && grep -rnE '%[-+ #0]*[0-9]*px' --include='*.[ch]' .) > "$out/grep.out"
	printf '%s ' "$(elapsed "$t0")" >> "$out/grep.times"
}

px=$top/cocci/seq_px.cocci
cast=$top/cocci/seq_int_cast.cocci
echo "tree: $ksrc"
echo "jobs: $j; rounds: $runs (px), $cast_runs (px + casts); load: $(cut -d' ' -f1-3 /proc/loadavg)"

i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	run_ptrguard px --no-casts
	run_coccicheck cc-px "$px"
	run_grep
	echo "round $i: ptrguard $(tail -c 8 "$out/px.times"), coccicheck $(tail -c 8 "$out/cc-px.times"), grep $(tail -c 6 "$out/grep.times")"
done

if [ "$cast_runs" -gt 0 ] && [ ! -f "$cast" ]; then
	echo "casts: skipped, $cast does not exist"
	cast_runs=0
fi
i=0
while [ "$i" -lt "$cast_runs" ]; do
	i=$((i + 1))
	run_ptrguard casts --casts
	run_coccicheck cc-casts "$px" "$cast"
	echo "round $i with casts: ptrguard $(tail -c 8 "$out/casts.times"), coccicheck $(tail -c 8 "$out/cc-casts.times")"
done

if [ -n "$(find "$ksrc" -newer "$stamp" -print -quit)" ]; then
	echo "WARNING: files in $ksrc changed during the bench:"
	find "$ksrc" -newer "$stamp" | head
	echo 1 > "$top/build/bench/.rc"
fi

echo
tp=$(median < "$out/px.times")
tc=$(median < "$out/cc-px.times")
tg=$(median < "$out/grep.times")
echo "%px rule, whole tree, median of $runs:"
echo "  ptrguard audit -j $j --no-casts   ${tp} s"
echo "  make coccicheck J=$j              ${tc} s"
echo "  grep -rnE '%...px'                ${tg} s"
echo "  ratio ptrguard/coccicheck: $(ratio "$tp" "$tc") (target <= 0.60); ptrguard/grep: $(ratio "$tp" "$tg")"
echo "  ptrguard: $(tail -1 "$out/px.err")"

norm_ptrguard "$out/px.out" > "$out/px.keys"
norm_coccicheck "$out/cc-px.out" > "$out/cc-px.keys"
if cmp -s "$out/px.keys" "$out/cc-px.keys"; then
	echo "  same $(wc -l < "$out/px.keys") findings from both (file, line, column, class)"
else
	echo "  findings differ (ptrguard < > coccicheck):"
	diff "$out/px.keys" "$out/cc-px.keys" | grep '^[<>]' | sed 's/^/    /'
fi
# grep: by file and line
cut -d: -f1,2 "$out/px.keys" | sort -u > "$out/px.lines"
sed 's|^\./||' "$out/grep.out" | cut -d: -f1,2 | sort -u > "$out/grep.lines"
missed=$(comm -23 "$out/px.lines" "$out/grep.lines")
extra=$(comm -13 "$out/px.lines" "$out/grep.lines" | wc -l)
echo "  grep: $(wc -l < "$out/grep.lines") lines; it misses $(printf '%s' "$missed" | grep -c .) of the $(wc -l < "$out/px.lines") finding lines:"
printf '%s\n' "$missed" | grep . | sed 's/^/    /'
echo "  grep lines that are no finding: $extra (printk/pr_*, comments, docs, tools/, non-seq output);"
echo "  by top directory:"
comm -13 "$out/px.lines" "$out/grep.lines" | cut -d/ -f1 | sort | uniq -c | sort -rn | head -8 | sed 's/^/    /'
echo "  ptrguard's classes: $(cut -d: -f4 "$out/px.keys" | sort | uniq -c | tr '\n' ' ' | tr -s ' ')"

if [ -s "$out/casts.times" ]; then
	tp=$(median < "$out/casts.times")
	tc=$(median < "$out/cc-casts.times")
	echo
	echo "%px and cast rules, whole tree, median of $cast_runs:"
	echo "  ptrguard audit -j $j --casts      ${tp} s"
	echo "  make coccicheck J=$j (both rules) ${tc} s"
	echo "  ratio ptrguard/coccicheck: $(ratio "$tp" "$tc") (target <= 0.60)"
	echo "  ptrguard: $(tail -1 "$out/casts.err")"
	norm_ptrguard "$out/casts.out" > "$out/casts.keys"
	norm_coccicheck "$out/cc-casts.out" > "$out/cc-casts.keys"
	if cmp -s "$out/casts.keys" "$out/cc-casts.keys"; then
		echo "  same $(wc -l < "$out/casts.keys") findings from both"
	else
		echo "  findings differ (ptrguard < > coccicheck):"
		diff "$out/casts.keys" "$out/cc-casts.keys" | grep '^[<>]' | head -20 | sed 's/^/    /'
	fi
fi
echo "(outputs in $out)"
