#!/bin/sh
# bench/gate.sh: `ptrguard gate` against `scripts/checkpatch.pl --no-tree`
# (the one every kernel patch already goes through), on the same one-file
# patches to the pristine Linux 6.12 tree.  Medians of RUNS runs each, side
# by side, and the ratio gate/checkpatch (target: <= 0.5).
#
# Two kinds of patch, both a small real-looking change (a comment and a
# line of code) made to a copy of the file and diffed with diff -u:
#   plain  files without seq_file output - most patches: the gate proves
#          from the text that no rule can fire and runs no spatch;
#   seq    files with seq_file output: spatch runs before and after, with
#          seq_px.cocci and seq_int_cast.cocci (all headers).
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

[ -x "$ptrguard" ] || { echo "bench/gate: $ptrguard: not built (make)" >&2; exit 2; }
[ -f "$ksrc/scripts/checkpatch.pl" ] || { echo "bench/gate: $ksrc: no checkpatch.pl" >&2; exit 2; }

# A one-file patch: a comment above the first function and a declaration
# inside it, as git format-patch would carry them (a/ b/ paths).
make_patch() {
	f=$1 out=$2
	mkdir -p "$tmp/a/$(dirname "$f")" "$tmp/b/$(dirname "$f")"
	cp "$ksrc/$f" "$tmp/a/$f"
	awk '
		!done && /^[a-z].*\(.*\)$/ { print "/* bench: a comment the patch adds */"; fn = 1 }
		{ print }
		fn && /^\{$/ { print "\tint bench_unused = 0;\n\n\t(void)bench_unused;"; fn = 0; done = 1 }
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
echo "ptrguard gate vs checkpatch.pl --no-tree, $runs runs each, medians (s)"
echo "tree: $ksrc; load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
printf '%-6s %-24s %9s %9s %6s   %9s %9s %6s\n' kind file "cp wall" "gate wall" ratio \
	"cp cpu" "gate cpu" ratio
for kind in plain seq; do
	eval files=\$$kind
	for f in $files; do
		p=$tmp/$(echo "$f" | tr / _).patch
		make_patch "$f" "$p"
		# The gate must check the patch, not fail on it.
		st=0
		"$ptrguard" gate --tree "$ksrc" "$p" >"$tmp/out" 2>&1 || st=$?
		if [ "$st" -eq 2 ]; then
			echo "bench/gate: the gate failed on $f:" >&2
			cat "$tmp/out" >&2
			exit 1
		fi
		set -- $(i=0; while [ $i -lt "$runs" ]; do
			timeit perl "$ksrc/scripts/checkpatch.pl" --no-tree -q "$p"; i=$((i + 1)); done | medians)
		cw=$1 cc=$2
		set -- $(i=0; while [ $i -lt "$runs" ]; do
			timeit "$ptrguard" gate --tree "$ksrc" "$p"; i=$((i + 1)); done | medians)
		gw=$1 gc=$2
		printf '%-6s %-24s %9s %9s %6s   %9s %9s %6s\n' "$kind" "$f" "$cw" "$gw" \
			"$(echo "$gw $cw" | awk '{ printf "%.2f", $1 / $2 }')" "$cc" "$gc" \
			"$(echo "$gc $cc" | awk '{ printf "%.2f", $1 / ($2 > 0 ? $2 : 0.001) }')"
		echo "$kind $cw $gw $cc $gc" >>"$tmp/all"
	done
done
for kind in plain seq; do
	awk -v k="$kind" '$1 == k { cw += $2; gw += $3; cc += $4; gc += $5; n++ }
		END { if (n) printf "%-6s mean of medians: wall checkpatch %.3f s, gate %.3f s, ratio %.2f; cpu ratio %.2f\n", k, cw / n, gw / n, gw / cw, gc / cc }' "$tmp/all"
done
