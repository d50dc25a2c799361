#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/gate-proof.sh: the gate's proof that a patch changes no finding
# (prefilter_same_findings(): quiet functions, inert statements), checked
# against the full run on real code.  For every function of the tree
# that calls a seq function and whose own text holds what a rule reports
# (a %px, or a long-wide conversion and a cast to an integer type; the
# awk below, not the gate's reading), three one-function patches add
# statements no rule reads:
#   top  a declaration of a new name and a read of it, first in the body;
#   mid  a fixed pr_debug() line after a statement a quarter into it;
#   end  a read of jiffies before the body's last return.
# Each patch is gated twice: as it is (-v says when the proof decided),
# and with --no-prefilter (both rules on both sides, no proof).  The two
# must print the same and exit the same, except that the full run may
# refuse (exit 2) a file whose text no rule needs but whose lines neither
# spatch nor the lexical model can read: it fails closed where the text
# proves nothing can be found (counted apart).  Prints the counts and
# every difference.
# Usage: bench/gate-proof.sh   (env: KSRC=tree, PTRGUARD=build/ptrguard,
#        LIMIT=N functions spread evenly over the list, KEEP=DIR)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
ptrguard=${PTRGUARD:-$top/build/ptrguard}
ksrc=${KSRC:-$("$top/scripts/kernel-tree.sh")} || exit 2
[ -x "$ptrguard" ] || { echo "bench/gate-proof: $ptrguard: not built (make)" >&2; exit 2; }
[ -d "$ksrc" ] || { echo "bench/gate-proof: $ksrc: no such tree" >&2; exit 2; }
tmp=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/gate-proof.XXXXXX")}
mkdir -p "$tmp"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT INT TERM

# "OPEN MID END CLOSE" line numbers of each such function: "{" and "}"
# alone at column 0; MID the first statement line (one tab in, ending in
# ";", after a line ending a statement, a blank or a "{") from a quarter
# into the body; END the last line starting "\treturn"; 0 when none.
cat >"$tmp/funcs.awk" <<'AWK'
/^\{$/ { open = NR; body = ""; n = 0; next }
open && /^\}/ {
	if (body ~ /seq_[a-z_]*\(/ && (body ~ /%px/ || (body ~ /%(ll|l|z)[xud]/ &&
	    body ~ /\((unsigned long|u64|uintptr_t|unsigned long long|long)\) *[a-z&(]/))) {
		mid = 0; end = 0
		for (i = int(n / 4) + 1; i <= n && !mid; i++)
			if (line[i] ~ /^\t[^\t ].*;$/ && line[i] !~ /^\t(return|break|goto|continue)/ &&
			    line[i - 1] ~ /;$|^$|\{$/)
				mid = open + i
		for (i = n; i > 0 && !end; i--)
			if (line[i] ~ /^\treturn/)
				end = open + i
		print open, mid, end, NR
	}
	open = 0
	next
}
open { n++; line[n] = $0; body = body "\n" $0 }
AWK

(cd "$ksrc" && grep -rlE --include='*.c' 'seq_printf|seq_buf_printf|trace_seq_printf|seq_put' . ) |
	sed 's|^\./||' | sort >"$tmp/files"
while read -r f; do
	awk -f "$tmp/funcs.awk" "$ksrc/$f" | sed "s|^|$f |"
done <"$tmp/files" >"$tmp/funcs"
if [ -n "${LIMIT:-}" ]; then
	awk -v n="$(wc -l <"$tmp/funcs")" -v k="$LIMIT" 'NR == 1 || int((NR - 1) * k / n) != int((NR - 2) * k / n)' \
		"$tmp/funcs" >"$tmp/funcs.sel"
	mv "$tmp/funcs.sel" "$tmp/funcs"
fi

# patch FILE LINE KIND TEXT: TEXT inserted after LINE (KIND end: before it)
mkpatch() {
	f=$1 at=$2 kind=$3 text=$4 out=$5
	mkdir -p "$tmp/a/$(dirname "$f")" "$tmp/b/$(dirname "$f")"
	cp "$ksrc/$f" "$tmp/a/$f"
	# ENVIRON, not -v: awk would read the "\n" of the literal as a newline
	TEXT=$text awk -v at="$at" -v kind="$kind" '
		kind == "end" && NR == at { print ENVIRON["TEXT"] }
		{ print }
		kind != "end" && NR == at { print ENVIRON["TEXT"] }' "$ksrc/$f" >"$tmp/b/$f"
	(cd "$tmp" && diff -u "a/$f" "b/$f") >"$out"
	rm -rf "$tmp/a" "$tmp/b"
}

total=0 proven=0 same=0 differ=0 leak=0 refused=0
: >"$tmp/report"
: >"$tmp/refused"
while read -r f open mid end close; do
	for kind in top mid end; do
		case $kind in
		top) at=$open text=$(printf '\tint pg_inert = 0;\n\n\t(void)pg_inert;') ;;
		mid) at=$mid text=$(printf '\tpr_debug("ptrguard: inert\\n");') ;;
		end) at=$end text=$(printf '\t(void)jiffies;') ;;
		esac
		[ "$at" -gt 0 ] || continue
		p=$tmp/$(echo "$f" | tr / _).$close.$kind.patch
		mkpatch "$f" "$at" "$kind" "$text" "$p"
		total=$((total + 1))
		st=0; "$ptrguard" gate -v --tree "$ksrc" "$p" >"$p.out" 2>"$p.err" || st=$?
		sf=0; "$ptrguard" gate -q --no-prefilter --tree "$ksrc" "$p" >"$p.full" 2>"$p.ferr" || sf=$?
		sn=no
		if grep -q 'from the text: no rule runs' "$p.err"; then
			sn=yes proven=$((proven + 1))
		fi
		[ "$st" -eq 1 ] && leak=$((leak + 1))
		if [ "$st" -eq "$sf" ] && cmp -s "$p.out" "$p.full" &&
		   { [ "$st" -ne 2 ] || cmp -s "$p.err" "$p.ferr"; }; then
			same=$((same + 1))
		elif [ "$sf" -eq 2 ] && [ "$st" -eq 0 ]; then
			# the full run reads what no rule needs, and fails closed
			refused=$((refused + 1))
			{
				echo "-- $f:$at $kind: refused with --no-prefilter (proof: $sn)"
				sed 's/^/    /' "$p.ferr"
			} >>"$tmp/refused"
		else
			differ=$((differ + 1))
			{
				echo "== $f:$at $kind: exit $st, with --no-prefilter $sf (proof: $sn)"
				diff "$p.out" "$p.full" | sed 's/^/    /'
				grep -v '^ptrguard: gate: .*: the same findings' "$p.err" | sed 's/^/    stderr: /'
				sed 's/^/    full stderr: /' "$p.ferr"
			} >>"$tmp/report"
		fi
	done
done <"$tmp/funcs"
cat "$tmp/refused" "$tmp/report"
echo "tree: $ksrc"
echo "$(wc -l <"$tmp/funcs") functions, $total patches: $proven proven unchanged from the text," \
	"$same the same as with --no-prefilter, $refused refused only by it, $differ different," \
	"$leak with a new leak"
[ "$differ" -eq 0 ] && [ "$leak" -eq 0 ]
