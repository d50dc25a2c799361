#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/gate-judge.sh: how often `ptrguard gate` can judge a one-line change
# to a file with seq_file output.  For EVERY .c file of the tree that calls
# seq_printf, seq_buf_printf or trace_seq_printf, a one-line patch adds the
# leak  F(M, "%px\n", M);  after the first seq call statement inside a
# function (F and M, the function and its first argument, copied from that
# statement, with its indentation): "first".  For a file where spatch
# skips lines, a second patch adds the same leak inside the first skipped
# region that lies in a function: after a seq call statement that ends
# there, or else at a statement place there, printing to the function's
# struct seq_file * (seq_buf, trace_seq) parameter or to the first
# argument of a seq call of the function or of the file: "skipped".
# Each patch is gated alone against the pristine tree; every one adds a
# leak, so
#   exit 1  judged, the leak is found
#   exit 0  judged, and the leak is missed!
#   exit 2  refused: the gate could not check the change
# Prints the counts per kind, the share of patches (and of files) the
# gate judged, and the files missed or refused with the gate's message.
#
# The skipped regions come from tests/gate/skipped/regions.sh (spatch with
# seq_px.cocci's options, regions.awk), the statements and statement
# places from tests/gate/skipped/calls.awk: the oracle of the gate tests,
# not the gate's own reading.  J gates at once (default 2), each with -j 1,
# sharing one gate cache in a temporary directory.  The whole tree takes
# tens of minutes (two spatch runs per patched file, one more per file for
# the regions); LIMIT=N takes N files spread evenly over the sorted list.
# Usage: bench/gate-judge.sh   (env: KSRC=tree, PTRGUARD=build/ptrguard,
#        J=2, LIMIT=N, FILES="a.c b.c": these files (relative to the tree),
#        KEEP=DIR: keep the patches and the gates' outputs there)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
ptrguard=${PTRGUARD:-$top/build/ptrguard}
ksrc=${KSRC:-$("$top/scripts/kernel-tree.sh")} || exit 2
jobs=${J:-2}
skd=$top/tests/gate/skipped
[ -x "$ptrguard" ] || { echo "bench/gate-judge: $ptrguard: not built (make)" >&2; exit 2; }
[ -d "$ksrc" ] || { echo "bench/gate-judge: $ksrc: no such tree" >&2; exit 2; }
if [ -n "${KEEP:-}" ]; then
	tmp=$KEEP
	rm -rf "$tmp/p" "$tmp/res" "$tmp/cache"
	mkdir -p "$tmp"
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/gate-judge.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT INT TERM
fi
now() { date +%s; }
t0=$(now)

if [ -n "${FILES:-}" ]; then
	printf '%s\n' $FILES >"$tmp/all"
else
	(cd "$ksrc" && grep -rlE --include='*.c' '\b(seq_printf|seq_buf_printf|trace_seq_printf)[[:space:]]*\(' .) |
		sed 's#^\./##' | LC_ALL=C sort >"$tmp/all"
fi
total=$(wc -l <"$tmp/all")
if [ -n "${LIMIT:-}" ] && [ "$LIMIT" -lt "$total" ]; then
	awk -v n="$LIMIT" -v t="$total" 'BEGIN { k = 0 } NR - 1 >= k * t / n { print; k++ }' "$tmp/all" >"$tmp/files"
else
	cp "$tmp/all" "$tmp/files"
fi
nfiles=$(wc -l <"$tmp/files")
echo "gate-judge: $nfiles of the $total .c files of $ksrc that call seq_printf, seq_buf_printf or trace_seq_printf"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, J=$jobs"

# ---- where spatch skips lines ----
# shellcheck disable=SC2046
J=$jobs "$skd/regions.sh" "$ksrc" $(cat "$tmp/files") >"$tmp/regions" 2>"$tmp/regions.err"
st=$?
t1=$(now)
nreg=$(awk 'NF > 1' "$tmp/regions" | wc -l)
echo "skipped regions: $nreg files where spatch skips lines ($((t1 - t0)) s)"
if [ $st -ne 0 ]; then
	echo "gate-judge: regions.sh failed on some files; they are left out:" >&2
	cat "$tmp/regions.err" >&2
fi

# ---- the patches ----
mkdir -p "$tmp/p" "$tmp/res"
: >"$tmp/list"
: >"$tmp/noplace"
i=0
while read -r f regs; do
	i=$((i + 1))
	awk -f "$skd/calls.awk" "$ksrc/$f" >"$tmp/calls"
	# "KIND LINE INDENT-DEPTH-OR-CALLSTART F M": INDENT taken from the
	# call's first line (call) or DEPTH tabs (place)
	awk -F '\t' -v regs="$regs" '
		BEGIN {
			nr = split(regs, rr, " ")
			for (r = 1; r <= nr; r++) { split(rr[r], se, "-"); S[r] = se[1] + 0; E[r] = se[2] + 0 }
		}
		$1 == "call" { nc++; cl[nc] = $2 + 0; ce[nc] = $3 + 0; cok[nc] = $5 == 1 && $6 == 1; cf[nc] = $7; cm[nc] = $8 }
		$1 == "gap" && $3 > 0 && $4 == 1 { ng++; gl[ng] = $2 + 0; gd[ng] = $3 }
		$1 == "func" { nf++; fo[nf] = $2 + 0; fc[nf] = $3 + 0; ft[nf] = $5; fp[nf] = $6 }
		END {
			for (c = 1; c <= nc; c++)
				if (cok[c]) { print "first\t" ce[c] "\tcall " cl[c] "\t" cf[c] "\t" cm[c]; break }
			if (c > nc) print "none\tfirst"
			infn = 0
			for (r = 1; r <= nr; r++) {
				# the functions the region lies in
				for (j = 1; j <= nf; j++) {
					if (!(S[r] < fc[j] && E[r] > fo[j])) continue
					infn = 1
					for (c = 1; c <= nc; c++)
						if (cok[c] && ce[c] >= S[r] && ce[c] < E[r] && ce[c] > fo[j] && ce[c] < fc[j]) {
							print "skipped\t" ce[c] "\tcall " cl[c] "\t" cf[c] "\t" cm[c]
							exit
						}
					F = M = ""
					if (ft[j] != "-") {
						F = ft[j] == "seq_file" ? "seq_printf" : ft[j] "_printf"
						M = fp[j]
					}
					for (c = 1; c <= nc && F == ""; c++)
						if (cl[c] > fo[j] && cl[c] < fc[j]) { F = cf[c]; M = cm[c] }
					for (c = 1; c <= nc && F == ""; c++) { F = cf[c]; M = cm[c] }
					for (g = 1; g <= ng && F != ""; g++)
						if (gl[g] >= S[r] && gl[g] < E[r] && gl[g] > fo[j] && gl[g] < fc[j]) {
							print "skipped\t" gl[g] "\tdepth " gd[g] "\t" F "\t" M
							exit
						}
				}
			}
			if (nr) print "none\t" (infn ? "skipped" : "scope")
		}' "$tmp/calls" >"$tmp/places"
	awk -v f="$f" '$1 == "none" { print f, $2 }' "$tmp/places" >>"$tmp/noplace"
	grep -v '^none' "$tmp/places" | while IFS='	' read -r kind L how F M; do
		case $how in
		call*) ind=$(sed -n "${how#call }s/^\([ 	]*\).*/\1/p" "$ksrc/$f") ;;
		depth*) ind=$(awk -v n="${how#depth }" 'BEGIN { while (n-- > 0) printf "\t" }') ;;
		esac
		name=$(printf '%04d' $i).$kind
		printf '%s%s(%s, "%%px\\n", %s);\n' "$ind" "$F" "$M" "$M" >"$tmp/line"
		awk -v at="$L" -v lf="$tmp/line" '{ print } NR == at { while ((getline t <lf) > 0) print t }' \
			"$ksrc/$f" >"$tmp/new"
		diff -u --label "a/$f" --label "b/$f" "$ksrc/$f" "$tmp/new" >"$tmp/p/$name.patch"
		echo "$name $kind $f $((L + 1))" >>"$tmp/list"
	done
done <"$tmp/regions"
t2=$(now)
echo "patches: $(wc -l <"$tmp/list") ($((t2 - t1)) s)"

# ---- the gates ----
export ptrguard ksrc tmp
export PTRGUARD_GATE_CACHE="$tmp/cache"
awk '{ print $1 }' "$tmp/list" |
	xargs -n 1 -P "$jobs" sh -c '
		"$ptrguard" gate -j 1 --tree "$ksrc" "$tmp/p/$1.patch" \
			>"$tmp/res/$1.out" 2>"$tmp/res/$1.err" </dev/null
		echo $? >"$tmp/res/$1.st"
	' sh
t3=$(now)
echo "gates: $((t3 - t2)) s"
echo

while read -r name kind f line; do
	st=none msg=
	[ -f "$tmp/res/$name.st" ] && read -r st <"$tmp/res/$name.st"
	if [ "$st" != 1 ] && [ "$st" != 0 ]; then
		msg=$(grep -m 1 '^ptrguard: gate:' "$tmp/res/$name.err" 2>/dev/null | sed 's/^ptrguard: gate: //')
		[ -n "$msg" ] || msg=$(head -n 1 "$tmp/res/$name.err" 2>/dev/null)
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$st" "$f" "$line" "$msg"
done <"$tmp/list" >"$tmp/results"

awk -F '\t' -v nfiles="$nfiles" -v nreg="$nreg" \
	-v scope="$(grep -c ' scope$' "$tmp/noplace")" -v nofirst="$(grep -c ' first$' "$tmp/noplace")" \
	-v noskip="$(grep -c ' skipped$' "$tmp/noplace")" '
	function pct(a, b) { return b ? sprintf("%.1f %%", 100 * a / b) : "-" }
	{
		n[$1]++; s[$1, $2]++
		if ($2 != 0 && $2 != 1) bad[$3] = 1
		seen[$3] = 1
	}
	END {
		printf "%-8s %7s %9s %9s %9s %7s %9s\n", "kind", "patches", "exit 1", "exit 0", "exit 2", "other", "judged"
		split("first skipped", k, " ")
		for (i = 1; i <= 2; i++) {
			K = k[i]
			o = n[K] - s[K, 0] - s[K, 1] - s[K, 2]
			printf "%-8s %7d %9d %9d %9d %7d %9s\n", K, n[K], s[K, 1], s[K, 0], s[K, 2], o,
				pct(s[K, 0] + s[K, 1], n[K])
			T += n[K]; T1 += s[K, 1]; T0 += s[K, 0]; T2 += s[K, 2]; TO += o
		}
		printf "%-8s %7d %9d %9d %9d %7d %9s\n", "all", T, T1, T0, T2, TO, pct(T0 + T1, T)
		for (f in seen) { nf++; if (!(f in bad)) ok++ }
		print ""
		printf "files: %d; %d with skipped lines, %d of them in a function (%d without a " \
			"statement place there); %d without a seq call statement in a function\n",
			nfiles, nreg, nreg - scope, noskip, nofirst
		printf "leak found (exit 1): %s of the patches\n", pct(T1, T)
		printf "the gate judges a one-line change (exit 0 or 1): %s of the patches; " \
			"every patch of the file: %d of %d files (%s)\n", pct(T0 + T1, T), ok, nf, pct(ok, nf)
	}' "$tmp/results"

echo
echo "missed (exit 0, the leak was not found):"
awk -F '\t' '$2 == 0 { printf "  %s:%s (%s)\n", $3, $4, $1; n++ } END { if (!n) print "  none" }' "$tmp/results"
echo "refused (exit 2) or failed:"
awk -F '\t' '$2 != 0 && $2 != 1 { printf "  %s:%s (%s, exit %s): %s\n", $3, $4, $1, $2, $5; n++ } END { if (!n) print "  none" }' "$tmp/results"
echo "no place for a patch (first: no seq call statement in a function; skipped: no statement place in the skipped lines of a function, or no seq call to take F and M from):"
awk '$2 != "scope" { printf "  %s (%s)\n", $1, $2; n++ } END { if (!n) print "  none" }' "$tmp/noplace"
echo
echo "time: $(($(now) - t0)) s"
