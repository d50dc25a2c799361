#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/audit.sh: `ptrguard audit` over the whole Linux 6.12 tree, side by
# side with the kernel's own `make coccicheck` running the same rule, and
# with grep.  Rounds alternate the tools so that a busy machine slows them
# alike; each figure is the median of RUNS rounds.
#
#   RUNS=3        rounds for the %px rule (seq_px.cocci)
#   CAST_RUNS=1   rounds with the cast rule too (seq_int_cast.cocci); 0 skips
#   J=2           jobs for both tools
#   KSRC=DIR      the tree (default: scripts/kernel-tree.sh)
#   SUBDIR=DIR    only this subtree (coccicheck M=DIR), for a quick check
#
# make coccicheck writes into the tree it checks (spatch --jobs keeps its
# children's output in a directory of the current directory), so it runs
# on a hard-link copy ($PTRGUARD_CACHE/bench-linux, cp -al, made once);
# ptrguard runs on the pristine tree, which the script checks afterwards
# with find -newer.  Prints the times, their ratio (the
# target is ptrguard <= 0.6x coccicheck), and how the findings compare:
# what grep misses and what it finds that is not a finding.
#
# Where the difference comes from: both tools spend their time parsing
# files.  spatch (and so coccicheck) parses every file its grep query
# keeps (~1,250 files naming a seq printf); ptrguard's prefilter
# (scripts/prefilter.c) gives spatch only the files whose format literals
# hold a conversion the rule reports (%px; for the cast rule a long-wide
# conversion and an integer cast in one seq call): a few dozen.  Equal
# findings from both show that it drops no file with a finding.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
cast_runs=${CAST_RUNS:-1}
j=${J:-2}
ptrguard=$top/build/ptrguard
ksrc=${KSRC:-$("$top/scripts/kernel-tree.sh")} || exit 2
sub=${SUBDIR:-}
sub=${sub%/}
target=$ksrc${sub:+/$sub}
mflag=${sub:+M=$sub}
out=${BENCH_OUT:-$top/build/bench/audit}
rm -rf "$out"
mkdir -p "$out"
echo 0 > "$top/build/bench/.rc"
stamp=$out/stamp
touch "$stamp"

die() { echo "bench/audit: $*" >&2; echo 1 > "$top/build/bench/.rc"; exit 1; }
[ -x "$ptrguard" ] || die "$ptrguard: not built (make)"
[ -d "$ksrc/kernel" ] || die "$ksrc: not a kernel tree"
copy=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}/bench-linux
if [ ! -f "$copy/MAINTAINERS" ]; then
	rm -rf "$copy"
	# "$ksrc/.": a symbolic link to a tree must not be copied as the link
	mkdir -p "$copy" && cp -al "$ksrc/." "$copy" || die "cp -al $ksrc/. $copy failed"
fi

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
last() { awk '{ print $NF }' "$1"; }
ratio() { echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else printf "n/a" }'; }

# ptrguard's gcc lines and coccicheck's report lines, both as
# FILE:LINE:COLUMN(1-based):CLASS, sorted
norm_ptrguard() { sed -n 's/^\([^:]*\):\([0-9]*\):\([0-9]*\): [a-z]*: \([^:]*\): .*/\1:\2:\3:\4/p' "$1" | sort -u; }
norm_coccicheck() {
	sed -n "s|^\(\./\)\{0,1\}\([^:]*\):\([0-9]*\):\([0-9]*\)-[0-9]*: \([a-z-]*\) .*|\2:\3:\4:\5|p" "$1" |
		sed -e "s|^$ksrc/||" -e "s|^$copy/||" | awk -F: '{ printf "%s:%s:%d:%s\n", $1, $2, $3 + 1, $4 }' | sort -u
}

# timed TAG CMD...: run CMD, append its wall time to $out/TAG.times and its
# CPU time (user + system, children included) to $out/TAG.cpu
timed() {
	tag=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$out/$tag.time1" "$@"
	rc=$?
	# the last line: time(1) puts "Command exited with non-zero status" first
	tail -1 "$out/$tag.time1" | awk '{ printf "%.1f ", $1 }' >> "$out/$tag.times"
	tail -1 "$out/$tag.time1" | awk '{ printf "%.1f ", $2 + $3 }' >> "$out/$tag.cpu"
	return $rc
}

# run_ptrguard TAG ARGS...: one ptrguard audit run
run_ptrguard() {
	tag=$1
	shift
	timed "$tag" "$ptrguard" audit -j "$j" "$@" "$target" > "$out/$tag.out" 2> "$out/$tag.err"
	rc=$?
	[ "$rc" -le 1 ] || die "ptrguard audit failed ($rc): $(tail -1 "$out/$tag.err")"
}

# run_coccicheck TAG RULE...: make coccicheck, once per rule, in one timing
run_coccicheck() {
	tag=$1
	shift
	: > "$out/$tag.out"
	rules="$*"
	timed "$tag" sh -c 'for rule in $1; do
		make -s -C "$2" coccicheck COCCI="$rule" MODE=report J="$3" $4 || exit 1
	done' sh "$rules" "$copy" "$j" "$mflag" >> "$out/$tag.out" 2>> "$out/$tag.err" ||
		die "make coccicheck failed: $(tail -1 "$out/$tag.err")"
}

run_grep() {
	timed grep sh -c 'cd "$1" && grep -rnE "%[-+ #0]*[0-9]*px" --include="*.[ch]" ${2:-.}' sh "$ksrc" "$sub" \
		> "$out/grep.out"
}

px=$top/build/cocci/seq_px.cocci
cast=$top/build/cocci/seq_int_cast.cocci
echo "tree: $target"
echo "jobs: $j; rounds: $runs (px), $cast_runs (px + casts); load: $(cut -d' ' -f1-3 /proc/loadavg)"

i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	run_ptrguard px --no-casts
	run_coccicheck cc-px "$px"
	run_grep
	echo "round $i: ptrguard $(last "$out/px.times") s, coccicheck $(last "$out/cc-px.times") s, grep $(last "$out/grep.times") s (load $(cut -d' ' -f1 /proc/loadavg))"
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
	echo "round $i with casts: ptrguard $(last "$out/casts.times") s, coccicheck $(last "$out/cc-casts.times") s"
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
cp=$(median < "$out/px.cpu")
cc=$(median < "$out/cc-px.cpu")
cg=$(median < "$out/grep.cpu")
echo "%px rule, ${sub:-whole tree}, median of $runs (wall, and CPU user+sys):"
echo "  ptrguard audit -j $j --no-casts   ${tp} s   cpu ${cp} s"
echo "  make coccicheck J=$j              ${tc} s   cpu ${cc} s"
echo "  grep -rnE '%...px'                ${tg} s   cpu ${cg} s"
echo "  ratio ptrguard/coccicheck: wall $(ratio "$tp" "$tc"), cpu $(ratio "$cp" "$cc") (target <= 0.60)"
echo "  ratio ptrguard/grep: wall $(ratio "$tp" "$tg")"
echo "  $(tail -1 "$out/px.err")"
explain() {
	sed -n 's/.* with seq output calls, \([0-9]*\) parsed,.*/\1/p' "$1" | tail -1
}
nq=$(sed -n 's/.*files read, \([0-9]*\) with seq output calls.*/\1/p' "$out/px.err" | tail -1)
echo "  (coccicheck parses the ${nq:-?} files that name a seq printf; ptrguard's prefilter"
echo "   gives spatch $(explain "$out/px.err") of them: those whose literals hold a %px)"

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
	cp=$(median < "$out/casts.cpu")
	cc=$(median < "$out/cc-casts.cpu")
	echo
	echo "%px and cast rules, ${sub:-whole tree}, median of $cast_runs (wall, and CPU user+sys):"
	echo "  ptrguard audit -j $j --casts      ${tp} s   cpu ${cp} s"
	echo "  make coccicheck J=$j (both rules) ${tc} s   cpu ${cc} s"
	echo "  ratio ptrguard/coccicheck: wall $(ratio "$tp" "$tc"), cpu $(ratio "$cp" "$cc") (target <= 0.60)"
	echo "  $(tail -1 "$out/casts.err")"
	echo "  (both rules: ptrguard's spatch runs parse $(explain "$out/casts.err") distinct files, coccicheck"
	echo "   parses the ${nq:-?} files naming a seq printf once per rule)"
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
