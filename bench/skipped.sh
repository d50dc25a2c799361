#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/skipped.sh: the lines spatch skips (cannot parse) in the files our
# rules parse on the Linux 6.12 tree, without and with the kernel macro
# file cocci/rules/ptrguard-macros.h, side by side.
#
#   J=2           spatch processes at a time
#   KSRC=DIR      the tree (default: scripts/kernel-tree.sh)
#   MACROS=FILE   the macro file (default: cocci/rules/ptrguard-macros.h)
#   SETS="seq cast"   what to measure: seq, px (a quick subset of seq), cast
#   SUBDIR=DIR    only the files under this directory of the tree, for a
#                 quick check
#
# It runs spatch itself, as ptrguard audit does (the rule's Options, the
# tree's -I paths and forced includes, one file per --file-groups group,
# from the tree root), not through ptrguard:
#
#   seq   seq_px.cocci over every file that names a seq printf (the rules'
#         grep query: ~1,250 files), as spatch parses them without
#         ptrguard's prefilter (ptrguard audit --no-prefilter); the
#         row for the files `ptrguard audit` gives the rule (those whose
#         format literals hold a %px, or a conversion cut by the end of a
#         literal: 35 on 6.12) is taken from the same runs;
#   px    only those files (a quick check);
#   cast  seq_int_cast.cocci (--all-includes) over the files with a seq
#         call that has a long-wide integer conversion in a literal and an
#         integer cast at the start of an argument: a small superset of
#         what `ptrguard audit` gives it (86 files against 81 on 6.12).
#         Lines skipped in the headers it reads for types are counted
#         apart, each (header, error line) once.
#
# The file selection is a Python re-implementation of the test of
# cocci/prefilter.c (literals joined, comments dropped), so that the
# bench does not depend on the CLI.  A skipped line is one that spatch's
# --verbose-parsing counts in a "badcount: N" line; lines skipped in
# spatch's own standard.h (a builtin macro that does not parse) count for
# the file being parsed, as ptrguard audit counts them.  (spatch --parse-c
# would be twice as fast but counts more: it also parses the inside of
# string literals, which the rules do not ask for, and fails on odd
# formats, e.g. 1,411 lines instead of 117 in drivers/scsi/dc395x.c.)
#
# The rules run in -D ptrguard mode, the only one they have: they print
# facts, not findings (ptrguard's C judge decides the classes).  Their
# records, tab-separated,
#   C FILE LINE COLUMN FUNCTION       a seq output call spatch parsed
#   M FILE LINE COLUMN ARG MARK WHAT  a fact (MARK gated, null or ptr)
# are compared without and with the macro file: the bench fails if a call
# or a fact is lost with the macros (one gained is a line that now parses,
# and is counted).  For the cast rule a third column adds
# --no-saved-typedefs, unless the rule's Options already have it.  Single
# runs on a shared machine: wall times are rough.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
j=${J:-2}
ksrc=${KSRC:-$("$top/scripts/kernel-tree.sh")} || exit 2
macros=${MACROS:-$top/cocci/ptrguard-macros.h}
sets=${SETS:-seq cast}
sub=${SUBDIR:-}
sub=${sub%/}
out=${BENCH_OUT:-$top/build/bench/skipped}
px_rule=$top/build/cocci/seq_px.cocci
cast_rule=$top/build/cocci/seq_int_cast.cocci
incs="-I arch/x86/include -I arch/x86/include/generated -I include -I arch/x86/include/uapi
 -I arch/x86/include/generated/uapi -I include/uapi -I include/generated/uapi"
forced="--include include/linux/compiler-version.h --include include/linux/kconfig.h"

die() { echo "bench/skipped: $*" >&2; exit 2; }
command -v spatch >/dev/null || die "spatch not installed"
command -v python3 >/dev/null || die "python3 not installed"
[ -d "$ksrc/kernel" ] || die "$ksrc: not a kernel tree"
[ -z "$sub" ] || [ -d "$ksrc/$sub" ] || die "SUBDIR=$sub: not a directory of $ksrc"
[ -r "$macros" ] || die "$macros: no macro file"
case $j in ''|*[!0-9]*|0) die "J=$j: not a number of jobs" ;; esac
rm -rf "$out"
mkdir -p "$out" || exit 2
stamp=$out/stamp
touch "$stamp"

options() { sed -n 's|^// Options:||p' "$1"; }

# The rule's grep query as an extended regex of the identifiers it names.
query() {
	spatch -D ptrguard --parse-cocci "$1" 2>/dev/null | sed -n '/^Grep query/{n;p;q;}' |
		grep -oE '[A-Za-z_][A-Za-z0-9_]*' | paste -sd'|' -
}

q=$(query "$px_rule")
[ -n "$q" ] || die "$px_rule: no grep query"
(cd "$ksrc" && grep -rlwE --include='*.[ch]' "$q" "${sub:-.}" | sed 's|^\./||' | sort) > "$out/seq.list"

# Which files a rule can report something in: see cocci/prefilter.c.
python3 - "$ksrc" "$out/seq.list" > "$out/select.txt" <<'EOF'
import re, sys
INT = set("""unsigned signed long int short char u8 u16 u32 u64 s8 s16 s32 s64
__u32 __u64 __s64 uintptr_t intptr_t ulong size_t ssize_t uint32_t uint64_t
int64_t phys_addr_t resource_size_t ptrdiff_t kernel_ulong_t""".split())
CONV = re.compile(r'%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d*|\*))?(hh|h|ll|l|L|z|Z|t)?([A-Za-z%]?)')
TOK = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*'
                 r'|\\\n|[A-Za-z_]\w*|\S', re.S)
IDENT = re.compile(r'[A-Za-z_]\w*$')

def kinds(lit):
    """What the conversions of a joined literal can print: px, long, cut."""
    out, i = set(), 0
    while True:
        i = lit.find('%', i)
        if i < 0:
            return out
        m = CONV.match(lit, i)
        q, c = m.group(1), m.group(2)
        if c == '':
            # cut by the end of the literal, or a non-ASCII byte where the
            # conversion character is due: anything
            if m.end() == len(lit) or ord(lit[m.end()]) >= 0x80:
                out.add('cut')
        elif c == 'p' and lit.startswith('x', m.end()):
            out.add('px')
        elif q in ('l', 'll', 'L', 'z', 'Z', 't') and c in 'diouxX':
            out.add('long')
        i = m.end()

def int_cast_at(toks, i):
    """Does toks[i] == '(' open a cast to an integer type?"""
    words, j = [], i + 1
    while j < len(toks) and IDENT.match(toks[j]):
        words.append(toks[j])
        j += 1
    return (j < len(toks) and toks[j] == ')' and any(w in INT for w in words) and
            all(w in INT or w in ('const', 'volatile') or w.startswith('__') for w in words))

def select(path):
    text = open(path, encoding='latin-1').read()
    toks = [t for t in TOK.findall(text) if not t.startswith(('/*', '//', '\\\n'))]
    runs, i = {}, 0                  # first token of a run of literals -> kinds
    while i < len(toks):
        if toks[i].startswith('"'):
            j, lit = i, ''
            while j < len(toks) and toks[j].startswith('"'):
                lit += toks[j][1:-1]
                j += 1
            runs[i] = kinds(lit)
            i = j
        else:
            i += 1
    found = set().union(*runs.values()) if runs else set()
    res = []
    if found & {'px', 'cut'}:
        res.append('px')
    if not found & {'long', 'cut'}:
        return res
    for i, t in enumerate(toks[:-1]):
        if toks[i + 1] != '(' or not IDENT.match(t) or not re.search('seq|SEQ', t):
            continue
        depth, lw, cast, argstart = 0, False, False, False
        for j in range(i + 1, len(toks)):
            x = toks[j]
            if x in '([{':
                if depth == 1 and argstart and x == '(' and int_cast_at(toks, j):
                    cast = True
                depth += 1
            elif x in ')]}':
                depth -= 1
                if depth == 0:
                    break
            if runs.get(j, set()) & {'long', 'cut'}:
                lw = True
            argstart = depth == 1 and x in '(,'
        if lw and cast:
            res.append('cast')
            break
    return res

root = sys.argv[1]
for f in open(sys.argv[2]).read().split():
    try:
        for kind in select(root + '/' + f):
            print(kind, f)
    except OSError:
        pass
EOF
[ -s "$out/seq.list" ] || die "no file of $ksrc names a seq printf"
awk '$1 == "px" { print $2 }' "$out/select.txt" > "$out/px.list"
# the cast rule has no --include-headers: .c files only
awk '$1 == "cast" && $2 ~ /\.c$/ { print $2 }' "$out/select.txt" > "$out/cast.list"

# count DIR: per-file skipped lines from the spatch stderr files DIR/*.err.
# Writes DIR/files (lines skipped in each file parsed, "N FILE") and
# DIR/headers (lines skipped in other files the run read, each
# (file, error line) counted once, with its largest count).
count() {
	awk -v files="$1/files" -v headers="$1/headers" '
	/^HANDLING: / { cur = $2; if (NF > 2) cur = ""; pend = ""; next }
	/^ = File "/ {
		pend = $0; sub(/^ = File "/, "", pend); line = pend
		sub(/".*/, "", pend); sub(/^[^"]*", line /, "", line); sub(/,.*/, "", line)
		if (pend ~ /^\//) pend = ""	# in standard.h: counts for the file parsed
		next
	}
	/^badcount: / {
		n = $2 + 0
		if (pend == "" || pend == cur) {
			if (cur != "") f[cur] += n
		} else if (n > h[pend SUBSEP line]) {
			h[pend SUBSEP line] = n
		}
		pend = ""
	}
	END {
		for (k in f) if (f[k] > 0) print f[k], k > files
		for (k in h) { split(k, p, SUBSEP); hs[p[1]] += h[k] }
		for (k in hs) if (hs[k] > 0) print hs[k], k > headers
		close(files); close(headers)
	}' "$1"/*.err
	touch "$1/files" "$1/headers"
	sort -k2 "$1/files" -o "$1/files"
	sort -k2 "$1/headers" -o "$1/headers"
}

sum() { awk '{ n++; s += $1 } END { printf "%d %d", n, s }' "$1"; }

# rule TAG RULE LIST [spatch options]: the rule over LIST, one file per
# group, in J processes, as ptrguard audit runs it
rule() {
	tag=$1 r=$2 list=$3
	shift 3
	d=$out/$tag
	mkdir -p "$d"
	[ -s "$list" ] || die "$tag: no file to parse"
	awk -v d="$d" -v j="$j" '{ print $0 "\n" > (d "/g" (NR % j) ".groups") }' "$list"
	t0=$(date +%s)
	for g in "$d"/g*.groups; do
		# the options are words: split them
		# shellcheck disable=SC2046,SC2086
		(cd "$ksrc" && spatch -D ptrguard --quiet --no-show-diff --verbose-parsing \
			--no-scanner --cocci-file "$r" $(options "$r") $incs $forced "$@" \
			--file-groups "$g" > "${g%.groups}.out" 2> "${g%.groups}.err"
		echo $? > "${g%.groups}.rc") &
	done
	wait
	echo $(($(date +%s) - t0)) > "$d/wall"
	for rc in "$d"/g*.rc; do
		[ "$(cat "$rc")" = 0 ] || die "spatch failed ($(cat "$rc")) with $r: $(tail -1 "${rc%.rc}.err")"
	done
	# C FILE LINE COLUMN FUNCTION; M FILE LINE COLUMN ARG MARK WHAT
	grep -h '^C	' "$d"/g*.out | sort > "$d/C"
	grep -h '^M	' "$d"/g*.out | sort > "$d/M"
	count "$d"
}

# kept KIND A B: the records of two runs (without, with the macros);
# none may be lost
kept() {
	lost=$(comm -23 "$2" "$3" | wc -l)
	gained=$(comm -13 "$2" "$3" | wc -l)
	echo "$1: $(wc -l < "$2") without, $(wc -l < "$3") with ($gained more, $lost lost)"
	if [ "$lost" -gt 0 ]; then
		comm -23 "$2" "$3" | head -10 | cut -f2- | tr '\t' ' ' | cut -c1-160 | sed 's/^/      lost: /'
		echo 1 > "$out/.differ"
	fi
}

# only LIST FILES: the lines of FILES ("N FILE") whose FILE is in LIST
only() { awk 'NR == FNR { want[$1] = 1; next } want[$2]' "$1" "$2"; }

row() {	# row LABEL FILE...: files and lines of each FILE side by side
	label=$1
	shift
	printf '%-36s' "$label"
	for f in "$@"; do
		# shellcheck disable=SC2046
		set -- $(sum "$f")
		printf '%7s %8s   ' "$1" "$2"
	done
	echo
}

echo "tree: $ksrc${sub:+/$sub} ($(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$ksrc/Makefile" | paste -sd. -))"
echo "spatch: $(spatch --version | head -1 | sed 's/ compiled.*//'); macro file: ${macros#"$top"/}; jobs: $j; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "files: $(wc -l < "$out/seq.list") name a seq printf; $(wc -l < "$out/px.list") for seq_px.cocci, $(wc -l < "$out/cast.list") for seq_int_cast.cocci"
echo
printf '%-36s%-18s   %-18s   %s\n' "skipped lines" "  without macros" "  with macros" ""
printf '%-36s%7s %8s   %7s %8s\n' "" files lines files lines

for s in $sets; do
	case $s in
	seq|px)
		list=$out/$s.list
		rule "${s}0" "$px_rule" "$list"
		rule "${s}1" "$px_rule" "$list" --macro-file "$macros"
		only "$out/px.list" "$out/${s}0/files" > "$out/${s}0/px-files"
		only "$out/px.list" "$out/${s}1/files" > "$out/${s}1/px-files"
		row "seq_px.cocci ($(wc -l < "$out/px.list") files it parses)" "$out/${s}0/px-files" "$out/${s}1/px-files"
		[ "$s" = seq ] &&
			row "  all $(wc -l < "$list") naming a seq printf" "$out/${s}0/files" "$out/${s}1/files"
		echo "    $(kept "seq calls parsed" "$out/${s}0/C" "$out/${s}1/C")"
		echo "    $(kept "facts" "$out/${s}0/M" "$out/${s}1/M")"
		echo "    wall $(cat "$out/${s}0/wall") s without, $(cat "$out/${s}1/wall") s with"
		if [ "$s" = seq ]; then
			echo "    most lines still skipped with macros:"
			sort -rn "$out/${s}1/files" | head -8 | awk '{ printf "      %6d %s\n", $1, $2 }'
		fi
		;;
	cast)
		rule cast0 "$cast_rule" "$out/cast.list"
		rule cast1 "$cast_rule" "$out/cast.list" --macro-file "$macros"
		extra=
		if ! options "$cast_rule" | grep -q -- --no-saved-typedefs; then
			rule cast2 "$cast_rule" "$out/cast.list" --macro-file "$macros" --no-saved-typedefs
			extra=$out/cast2
		fi
		row "seq_int_cast.cocci ($(wc -l < "$out/cast.list") files)" "$out/cast0/files" "$out/cast1/files" ${extra:+"$extra/files"}
		row "  headers it read for types" "$out/cast0/headers" "$out/cast1/headers" ${extra:+"$extra/headers"}
		[ -n "$extra" ] && echo "    (third column: with macros and --no-saved-typedefs)"
		echo "    $(kept "seq calls parsed" "$out/cast0/C" "$out/cast1/C")"
		echo "    $(kept "facts" "$out/cast0/M" "$out/cast1/M")"
		if [ -n "$extra" ]; then
			echo "    with --no-saved-typedefs: $(kept "seq calls parsed" "$out/cast0/C" "$out/cast2/C")"
			echo "    with --no-saved-typedefs: $(kept "facts" "$out/cast0/M" "$out/cast2/M")"
		fi
		echo "    wall $(cat "$out/cast0/wall") s without, $(cat "$out/cast1/wall") s with${extra:+, $(cat "$out/cast2/wall") s with --no-saved-typedefs}"
		;;
	*)
		die "SETS: unknown set '$s' (seq px cast)"
		;;
	esac
done

if [ -n "$(find "$ksrc" -newer "$stamp" -print -quit)" ]; then
	echo "WARNING: files in $ksrc changed during the bench"
	exit 1
fi
echo "(outputs in $out)"
[ ! -f "$out/.differ" ]
