#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/gate.sh: `ptrguard gate` against `scripts/checkpatch.pl --no-tree`
# (the one every kernel patch already goes through), on the same one-file
# patches to the pristine Linux 6.12 tree.  Medians of RUNS runs each, side
# by side, and the ratio gate/checkpatch (target: <= 0.5).
#
# Three kinds of patch, each a small real-looking change (a comment and a
# line of code) made to a copy of the file and diffed with diff -u:
#   plain  files without seq_file output - most patches: the gate proves
#          from the text that no rule can fire and runs no spatch;
#   seq    files with seq_file output, the change in their first function:
#          spatch runs where the text says a rule can fire (seq_px.cocci
#          on a %px, seq_int_cast.cocci, which reads the headers, on a
#          cast in a seq call with a %lx-style conversion), before and
#          after, unless the text proves the change quiet;
#   print  the same change in the function that prints what a rule
#          reports: m_show()'s and s_show()'s %px, the pointer cast
#          snd_hdsp_proc_read() prints with %lx.
# The gate keeps the base side's seq_px.cocci findings in a cache
# (gate/cache.c), so each patch is timed twice: "cold", with an
# empty cache of its own for every run (the first patch to a file), and
# "warm", with the cache a first run of the same patch filled (the next
# patches to that file: the base side comes from the cache, the patched
# side is always checked afresh).  The three commands take turns, run by
# run, so that a change in the load of the machine hits them alike.
# Usage: bench/gate.sh   (env: RUNS=5, KSRC=tree, PTRGUARD=build/ptrguard)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ptrguard=${PTRGUARD:-$top/build/ptrguard}
runs=${RUNS:-5}
ksrc=${KSRC:-$("$top/scripts/kernel-tree.sh")}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gate-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

plain="drivers/char/mem.c lib/string.c fs/namei.c"
seq="kernel/module/procfs.c fs/proc/meminfo.c kernel/kallsyms.c"
print="kernel/module/procfs.c:%px kernel/kallsyms.c:%px sound/pci/rme9652/hdsp.c:hdsp->iobase)"

[ -x "$ptrguard" ] || { echo "bench/gate: $ptrguard: not built (make)" >&2; exit 2; }
[ -f "$ksrc/scripts/checkpatch.pl" ] || { echo "bench/gate: $ksrc: no checkpatch.pl" >&2; exit 2; }

# A one-file patch: a comment above the first function (or the first
# whose body holds the text $3) and a declaration inside it, as git
# format-patch would carry them (a/ b/ paths).
make_patch() {
	f=$1 out=$2 holds=${3:-}
	mkdir -p "$tmp/a/$(dirname "$f")" "$tmp/b/$(dirname "$f")"
	cp "$ksrc/$f" "$tmp/a/$f"
	# the first line of the function's head: the one after a blank line
	head=$(awk -v holds="$holds" '
		/^$/ { blank = NR }
		/^\{$/ { start = blank + 1; body = 1 }
		body && (holds == "" || index($0, holds)) { print start; exit }
		/^\}/ { body = 0 }' "$ksrc/$f")
	[ -n "$head" ] || { echo "bench/gate: $f: no function holding \"$holds\"" >&2; exit 2; }
	awk -v head="$head" '
		NR == head { print "/* bench: a comment the patch adds */"; fn = 1 }
		{ print }
		fn && /^\{$/ { print "\tint bench_unused = 0;\n\n\t(void)bench_unused;"; fn = 0 }
	' "$ksrc/$f" >"$tmp/b/$f"
	{
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
		printf 'From: Bench <bench@example.org>\nSubject: [PATCH] %s: bench change\n\n' "$f"
		printf 'Signed-off-by: Bench <bench@example.org>\n---\n'
		(cd "$tmp" && diff -u "a/$f" "b/$f") || true
	} >"$out"
	rm -rf "$tmp/a" "$tmp/b"
}

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# "WALL CPU" seconds taken by "$@" (CPU: user + system, children included),
# stdout/stderr discarded
timeit() {
	/usr/bin/time -o "$tmp/time" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
	# the last line: time writes "Command exited with non-zero status" first
	tail -n 1 "$tmp/time" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}

# medians of the two columns of "WALL CPU" lines
medians() {
	cat >"$tmp/m"
	w=$(cut -d' ' -f1 "$tmp/m" | median)
	c=$(cut -d' ' -f2 "$tmp/m" | median)
	echo "$w $c"
}

[ -x /usr/bin/time ] || { echo "bench/gate: /usr/bin/time: not installed (package time)" >&2; exit 2; }
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / ($2 > 0 ? $2 : 0.001) }'; }
echo "ptrguard gate vs checkpatch.pl --no-tree, $runs runs each, medians (s)"
echo "tree: $ksrc; load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
printf '%-6s %-22s | %7s %7s %5s %7s %5s | %7s %7s %5s %7s %5s\n' kind file \
	"cp wall" cold ratio warm ratio "cp cpu" cold ratio warm ratio
for kind in plain seq print; do
	eval files=\$$kind
	for spec in $files; do
		f=${spec%%:*} holds=
		[ "$f" = "$spec" ] || holds=${spec#*:}
		p=$tmp/$(echo "$f" | tr / _).$kind.patch
		make_patch "$f" "$p" "$holds"
		# The gate must check the patch, not fail on it; this run also
		# fills the warm cache.
		warm=$tmp/cache-warm
		rm -rf "$warm"
		st=0
		PTRGUARD_GATE_CACHE=$warm "$ptrguard" gate --tree "$ksrc" "$p" >"$tmp/out" 2>&1 || st=$?
		if [ "$st" -eq 2 ]; then
			echo "bench/gate: the gate failed on $f:" >&2
			cat "$tmp/out" >&2
			exit 1
		fi
		: >"$tmp/cp"; : >"$tmp/cold"; : >"$tmp/warm"
		i=0
		while [ $i -lt "$runs" ]; do
			timeit perl "$ksrc/scripts/checkpatch.pl" --no-tree -q "$p" >>"$tmp/cp"
			rm -rf "$tmp/cache-cold"
			timeit env PTRGUARD_GATE_CACHE="$tmp/cache-cold" "$ptrguard" gate --tree "$ksrc" "$p" >>"$tmp/cold"
			timeit env PTRGUARD_GATE_CACHE="$warm" "$ptrguard" gate --tree "$ksrc" "$p" >>"$tmp/warm"
			i=$((i + 1))
		done
		set -- $(medians <"$tmp/cp") $(medians <"$tmp/cold") $(medians <"$tmp/warm")
		cw=$1 cc=$2 gw=$3 gc=$4 ww=$5 wc=$6
		printf '%-6s %-22s | %7s %7s %5s %7s %5s | %7s %7s %5s %7s %5s\n' "$kind" "$f" \
			"$cw" "$gw" "$(ratio "$gw" "$cw")" "$ww" "$(ratio "$ww" "$cw")" \
			"$cc" "$gc" "$(ratio "$gc" "$cc")" "$wc" "$(ratio "$wc" "$cc")"
		echo "$kind $cw $gw $ww $cc $gc $wc" >>"$tmp/all"
	done
done
for kind in plain seq print; do
	awk -v k="$kind" '$1 == k { cw += $2; gw += $3; ww += $4; cc += $5; gc += $6; wc += $7; n++ }
		END { if (n) printf "%-6s mean of medians: checkpatch %.3f s, gate cold %.3f s " \
			"(ratio %.2f), warm %.3f s (ratio %.2f); cpu ratio cold %.2f, warm %.2f\n",
			k, cw / n, gw / n, gw / cw, ww / n, ww / cw, gc / cc, wc / cc }' "$tmp/all"
done
