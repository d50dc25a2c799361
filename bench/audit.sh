#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/audit.sh: `ptrguard audit` over the whole Linux 6.12 tree, side by
# side with the kernel's own `make coccicheck` running the in-tree %px
# rule, and with grep.  Rounds alternate the tools so that a busy machine
# slows them alike; each figure is the median of RUNS rounds.
#
#   RUNS=3        rounds for %px: ptrguard audit --no-casts against
#                 make coccicheck COCCI=scripts/coccinelle/misc/seq_px.cocci
#                 MODE=report, and grep
#   CAST_RUNS=1   rounds with the cast rule too: ptrguard audit --casts
#                 against ptrguard audit --no-prefilter --casts; 0 skips
#   RE_RUNS=3     rounds of a re-audit with both rules and the caches
#                 (cocci/cache.c, the walk's index): unchanged, and after
#                 a change to one file (CHANGED, default
#                 kernel/module/procfs.c), on a hard-link copy of the tree
#                 whose CHANGED is a copy of its own; 0 skips
#   J=2           jobs for both tools
#   KSRC=DIR      the tree (default: scripts/kernel-tree.sh)
#   SUBDIR=DIR    only this subtree (coccicheck M=DIR), for a quick check
#
# ptrguard's own rules (build/cocci/*.cocci) print facts for its C judge
# and have no report mode, so the %px rounds run the rule a kernel
# maintainer runs, scripts/coccinelle/misc/seq_px.cocci of this repository
# ($top, not the tree's: 6.12 has none).  It reports each seq_printf,
# seq_buf_printf or trace_seq_printf call with an ungated %px once, at the
# start of its format literal (coccilib's FILE:LINE:COL-COL, columns from
# 0); ptrguard reports each conversion, at the %.  Both sides are keyed by
# FILE:LINE of the format literal's first token (ptrguard's positions are
# mapped to it by reading the file), and the in-tree rule's keys must equal
# those of the audit's px findings (the ungated class; px-gated and the
# other classes are not compared): the bench fails if they differ.
#
# For the cast rule there is no coccicheck rule any more.  The baseline is
# what coccicheck would have spatch parse: ptrguard audit --no-prefilter
# --casts runs both fact rules (-D ptrguard) over every file their grep
# queries keep, where ptrguard audit --casts gives spatch only the files
# its prefilter keeps.  Their findings must be equal (the prefilter drops
# no file with a finding): the bench fails if they differ.
#
# make coccicheck writes into the tree it checks (spatch --jobs keeps its
# children's output in a directory of the current directory), so it runs
# on a hard-link copy ($PTRGUARD_CACHE/bench-linux, cp -al, made once);
# ptrguard runs on the pristine tree, which the script checks afterwards
# with find -newer.  Every round but the re-audits runs with --no-cache:
# the first audit of a tree.  Prints the times, their ratio (the
# target is ptrguard <= 0.6x coccicheck), and how the findings compare:
# what grep misses and what it finds that is not a finding.
#
# Where the difference comes from: both tools spend their time parsing
# files.  spatch (and so coccicheck) parses every file its grep query
# keeps (~1,250 files naming a seq printf); ptrguard's prefilter
# (cocci/prefilter.c) gives spatch only the files whose format literals
# hold a conversion the rule reports (%px; for the cast rule a long-wide
# conversion and an integer cast in one seq call): a few dozen.
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

# ptrguard's gcc lines as FILE:LINE:COLUMN(1-based):CLASS, sorted
norm_ptrguard() { sed -n 's/^\([^:]*\):\([0-9]*\):\([0-9]*\): [a-z]*: \([^:]*\): .*/\1:\2:\3:\4/p' "$1" | sort -u; }
# the in-tree rule's report lines, FILE:LINE:COL-COL: MESSAGE (COL from 0,
# the start of the format literal), as FILE:LINE, sorted
norm_coccicheck() {
	sed -n "s|^\(\./\)\{0,1\}\([^:]*\):\([0-9]*\):\([0-9]*\)-[0-9]*: .*|\2:\3|p" "$1" |
		sed -e "s|^$ksrc/||" -e "s|^$copy/||" | sort -u
}
# literal_start: FILE:LINE:COLUMN(1-based) of conversions on stdin, each
# as FILE:LINE of the first token of the run of adjacent string literals
# (the format) that holds it, read from the tree; sorted
literal_start() {
	python3 -c '
import re, sys
TOK = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|\x27(?:\\.|[^\x27\\\n])*\x27|/\*.*?\*/|//[^\n]*|\s+|[A-Za-z_]\w*|.", re.S)
runs = {}
def starts(path):
    """(start line, [(line, col, end line, end col)] of its literals) per run."""
    if path in runs:
        return runs[path]
    text = open(sys.argv[1] + "/" + path, encoding="latin-1").read()
    out, cur, line, col = [], None, 1, 1
    for m in TOK.finditer(text):
        t = m.group()
        if t.startswith("\""):
            if cur is None:
                cur = (line, [])
                out.append(cur)
            cur[1].append((line, col, line, col + len(t)))
        elif not (t.isspace() or t.startswith("/*") or t.startswith("//")):
            cur = None
        nl = t.count("\n")
        if nl:
            line += nl
            col = len(t) - t.rindex("\n")
        else:
            col += len(t)
    runs[path] = out
    return out
for key in sys.stdin.read().split():
    f, l, c = key.rsplit(":", 2)
    l, c = int(l), int(c)
    start = l
    for s, lits in starts(f):
        if any(a == l and b <= c < d for a, b, _, d in lits):
            start = s
            break
    print("%s:%d" % (f, start))
' "$ksrc" | sort -u
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

# run_coccicheck TAG RULE: make coccicheck MODE=report with RULE
run_coccicheck() {
	timed "$1" make -s -C "$copy" coccicheck COCCI="$2" MODE=report J="$j" $mflag \
		> "$out/$1.out" 2> "$out/$1.err" ||
		die "make coccicheck failed: $(tail -1 "$out/$1.err")"
}

run_grep() {
	timed grep sh -c 'cd "$1" && grep -rnE "%[-+ #0]*[0-9]*px" --include="*.[ch]" ${2:-.}' sh "$ksrc" "$sub" \
		> "$out/grep.out"
}

px=$top/scripts/coccinelle/misc/seq_px.cocci
cast=$top/build/cocci/seq_int_cast.cocci
[ -f "$px" ] || die "$px: no in-tree rule"
command -v python3 > /dev/null || die "python3 not installed"
echo "tree: $target"
echo "jobs: $j; rounds: $runs (px), $cast_runs (casts); load: $(cut -d' ' -f1-3 /proc/loadavg)"

i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	run_ptrguard px --no-cache --no-casts
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
	run_ptrguard casts --no-cache --casts
	run_ptrguard np-casts --no-cache --no-prefilter --casts
	echo "round $i with casts: ptrguard $(last "$out/casts.times") s, without prefilter $(last "$out/np-casts.times") s"
done

# Re-audits: the caches of $out/cache, filled by one audit of the copy.
re_runs=${RE_RUNS:-3}
changed=${CHANGED:-kernel/module/procfs.c}
if [ "$re_runs" -gt 0 ]; then
	recopy=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}/bench-linux-re
	if [ ! -f "$recopy/MAINTAINERS" ]; then
		rm -rf "$recopy"
		mkdir -p "$recopy" && cp -al "$ksrc/." "$recopy" || die "cp -al $ksrc/. $recopy failed"
	fi
	# CHANGED becomes a file of the copy's own: changing it leaves $ksrc as it is
	cp "$ksrc/$changed" "$recopy/$changed.new" && mv "$recopy/$changed.new" "$recopy/$changed" ||
		die "$changed: cannot copy"
	rm -rf "$out/cache"
	target_saved=$target
	target=$recopy${sub:+/$sub}
	PTRGUARD_CACHE=$out/cache run_ptrguard re-cold --casts
	sleep 3	# the walk's index keeps no file changed in the last two seconds
	i=0
	while [ "$i" -lt "$re_runs" ]; do
		i=$((i + 1))
		PTRGUARD_CACHE=$out/cache run_ptrguard re-same --casts
		cmp -s "$out/re-cold.out" "$out/re-same.out" || die "re-audit: the findings differ from the first audit's"
		printf '/* bench/audit.sh: round %s */\n' "$i" >> "$recopy/$changed"
		PTRGUARD_CACHE=$out/cache run_ptrguard re-one --casts
		cmp -s "$out/re-cold.out" "$out/re-one.out" || die "re-audit after a comment: the findings differ"
		echo "re-audit round $i: unchanged $(last "$out/re-same.times") s, $changed changed $(last "$out/re-one.times") s"
	done
	cp "$ksrc/$changed" "$recopy/$changed"
	target=$target_saved
fi

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
echo "  make coccicheck J=$j (in-tree)    ${tc} s   cpu ${cc} s"
echo "  grep -rnE '%...px'                ${tg} s   cpu ${cg} s"
echo "  ratio ptrguard/coccicheck: wall $(ratio "$tp" "$tc"), cpu $(ratio "$cp" "$cc") (target <= 0.60)"
echo "  ratio ptrguard/grep: wall $(ratio "$tp" "$tg")"
echo "  $(tail -1 "$out/px.err")"
explain() {
	sed -n 's/.* with seq output calls, \([0-9]*\) parsed,.*/\1/p' "$1" | tail -1
}
# the files spatch parses for the in-tree rule: those its grep query keeps
q=$(spatch --parse-cocci "$px" 2>/dev/null | sed -n '/^Grep query/{n;p;q;}' |
	grep -oE '[A-Za-z_][A-Za-z0-9_]*' | paste -sd'|' -)
nq=$(cd "$ksrc" && grep -rlwE --include='*.[ch]' "${q:-seq_printf|seq_buf_printf|trace_seq_printf}" ${sub:-.} | wc -l)
echo "  (coccicheck parses the $nq files that name a seq printf; ptrguard's prefilter"
echo "   gives spatch $(explain "$out/px.err") files: those whose literals hold a %px)"

# the audit's px findings (ungated) and the in-tree rule's reports, both
# by FILE:LINE of the format literal
norm_ptrguard "$out/px.out" > "$out/px.all"
awk -F: '$4 == "px" { print $1 ":" $2 ":" $3 }' "$out/px.all" | literal_start > "$out/px.keys"
norm_coccicheck "$out/cc-px.out" > "$out/cc-px.keys"
if cmp -s "$out/px.keys" "$out/cc-px.keys"; then
	echo "  same $(wc -l < "$out/px.keys") findings: the in-tree rule's reports = the audit's px findings"
	echo "   ($(grep -c ':px$' "$out/px.all") conversions), by file and line of the format literal"
else
	echo "  FINDINGS DIFFER, by file and line of the format literal (audit px < > in-tree rule):"
	diff "$out/px.keys" "$out/cc-px.keys" | grep '^[<>]' | sed 's/^/    /'
	echo 1 > "$top/build/bench/.rc"
fi
# grep: by file and line of the conversion, every class of the audit
cut -d: -f1,2 "$out/px.all" | sort -u > "$out/px.lines"
sed 's|^\./||' "$out/grep.out" | cut -d: -f1,2 | sort -u > "$out/grep.lines"
missed=$(comm -23 "$out/px.lines" "$out/grep.lines")
extra=$(comm -13 "$out/px.lines" "$out/grep.lines" | wc -l)
echo "  grep: $(wc -l < "$out/grep.lines") lines; it misses $(printf '%s' "$missed" | grep -c .) of the $(wc -l < "$out/px.lines") finding lines (all classes):"
printf '%s\n' "$missed" | grep . | sed 's/^/    /'
echo "  grep lines that are no finding: $extra (printk/pr_*, comments, docs, tools/, non-seq output);"
echo "  by top directory:"
comm -13 "$out/px.lines" "$out/grep.lines" | cut -d/ -f1 | sort | uniq -c | sort -rn | head -8 | sed 's/^/    /'
echo "  ptrguard's classes: $(cut -d: -f4 "$out/px.all" | sort | uniq -c | tr '\n' ' ' | tr -s ' ')"

if [ -s "$out/casts.times" ]; then
	tp=$(median < "$out/casts.times")
	tc=$(median < "$out/np-casts.times")
	cp=$(median < "$out/casts.cpu")
	cc=$(median < "$out/np-casts.cpu")
	echo
	echo "%px and cast rules, ${sub:-whole tree}, median of $cast_runs (wall, and CPU user+sys):"
	echo "  ptrguard audit -j $j --casts                 ${tp} s   cpu ${cp} s"
	echo "  ptrguard audit -j $j --no-prefilter --casts  ${tc} s   cpu ${cc} s"
	echo "  ratio prefilter/no prefilter: wall $(ratio "$tp" "$tc"), cpu $(ratio "$cp" "$cc")"
	echo "  $(tail -1 "$out/casts.err")"
	echo "  (spatch parses $(explain "$out/casts.err") files with the prefilter, $(explain "$out/np-casts.err") without:"
	echo "   every file the rules' grep queries keep, as coccicheck would)"
	norm_ptrguard "$out/casts.out" > "$out/casts.keys"
	norm_ptrguard "$out/np-casts.out" > "$out/np-casts.keys"
	if cmp -s "$out/casts.keys" "$out/np-casts.keys"; then
		echo "  same $(wc -l < "$out/casts.keys") findings from both (file, line, column, class)"
	else
		echo "  FINDINGS DIFFER (prefilter < > no prefilter):"
		diff "$out/casts.keys" "$out/np-casts.keys" | grep '^[<>]' | head -20 | sed 's/^/    /'
		echo 1 > "$top/build/bench/.rc"
	fi
fi
if [ -s "$out/re-same.times" ]; then
	echo
	echo "re-audit with both rules and the caches, ${sub:-whole tree}, median of $re_runs (wall, and CPU user+sys):"
	echo "  first audit of the copy (caches empty)    $(last "$out/re-cold.times") s   cpu $(last "$out/re-cold.cpu") s"
	echo "  again, nothing changed                    $(median < "$out/re-same.times") s   cpu $(median < "$out/re-same.cpu") s"
	echo "  again, $changed changed   $(median < "$out/re-one.times") s   cpu $(median < "$out/re-one.cpu") s"
	echo "  (the same findings each time; the target is <= 2 s after a change to one file)"
fi
echo "(outputs in $out)"
