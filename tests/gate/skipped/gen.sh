#!/bin/sh
# gen.sh: the patches of tests/gate/skipped, made from the pristine Linux
# 6.12 tree: one-file `diff -u a/FILE b/FILE` patches to real files where
# spatch skips lines (seq_px.cocci's options) and which print to seq
# files, each with the exit status `ptrguard gate` owes it (issue 13):
#
#   spatch judges what it parsed; a seq-output call in a region spatch
#   skipped is judged by the C lexical model; exit 2 only when a line the
#   patch adds lies in a skipped region and holds a seq-output call whose
#   format neither can read.  On 6.12 %px leaks (1), plain %p is hashed.
#
# Every expectation follows from how the patch is built, never from a run
# of ptrguard.  The skipped regions come from spatch itself, placed in the
# file by regions.awk (regions.sh); the statements and the places where a
# line can go from calls.awk; the choice of places from pick.awk.  F and M
# below are the function and first argument of an existing seq call
# statement (seq_printf, seq_buf_printf or trace_seq_printf) that the new
# line follows, with its indentation.
#
# Writes OUTDIR/NAME.patch and OUTDIR/MANIFEST, one line per patch:
#   NAME STATUS FILE PLACE LINE     (LINE: the first added line, patched file)
# NAME is FILE's path with "/" as "_", without ".c", a dot and the kind.
# Before writing them it checks its own construction with spatch on the
# patched files: a line meant to be in a skipped region must be in one
# after the patch, one meant to be parsed must not (CHECK=all: every patch;
# default: the patches whose status depends on it, the runtime formats).
#
# Usage: gen.sh TREE OUTDIR   (env: CHECK=all|some, J=2 spatch at once)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: gen.sh TREE OUTDIR" >&2; exit 2; }
tree=$(cd "$1" && pwd)
out=$2
check=${CHECK:-some}
far=20
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skipped-gen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
die() { echo "gen.sh: $*" >&2; exit 2; }

# The files, by role:
#   in    spatch skips lines inside a function that prints to a seq file,
#         with a seq call statement ending inside the skipped lines
#   scope the skipped lines hold no such statement (file-scope
#         DEFINE_PER_CPU and macro tables, or a function without one)
#   clean spatch parses every line (the controls: today's gate answers
#         these already)
# A wrapper shape W1..W7 after a file of role "in" is defined there too.
files='
in	arch/arm64/kvm/sys_regs.c	W1
in	arch/powerpc/kernel/process.c	W2
'

mkdir -p "$out"
: >"$tmp/manifest"
echo "$files" | awk 'NF' >"$tmp/files"
while read -r role f wraps; do
	[ -f "$tree/$f" ] || die "$f: not in $tree"
	echo "$f"
done <"$tmp/files" >"$tmp/list"
# shellcheck disable=SC2046
"$here/regions.sh" "$tree" $(cat "$tmp/list") >"$tmp/regions" || die "regions.sh failed"

# ---- one patch ----
# ins LINE TEXT: TEXT (one or more lines) goes after LINE of the original
ins() {
	nins=$((nins + 1))
	printf '%s\n' "$2" >"$tmp/ins.$nins"
	echo "$1 $nins" >>"$tmp/ins.list"
}
# emit NAME STATUS PLACE: the patch of the insertions ins() listed, to $f
emit() {
	name=$slug.$1
	rm -rf "$tmp/p"
	mkdir -p "$tmp/p"
	awk -v list="$tmp/ins.list" -v dir="$tmp" '
		BEGIN { while ((getline l <list) > 0) { split(l, a, " "); at[a[1]] = at[a[1]] " " a[2] } }
		function put(L,   n, k, x, f, t) {
			n = split(at[L], x, " ")
			for (k = 1; k <= n; k++) {
				f = dir "/ins." x[k]
				while ((getline t <f) > 0) print t
				close(f)
			}
		}
		NR == 1 && (0 in at) { put(0) }
		{ print }
		NR in at { put(NR) }
	' "$tree/$f" >"$tmp/p/new"
	st=0
	diff -u --label "a/$f" --label "b/$f" "$tree/$f" "$tmp/p/new" >"$out/$name.patch" || st=$?
	[ $st -eq 1 ] || die "$name: diff exit status $st"
	first=$(awk '/^@@ / { split($3, a, ","); n = substr(a[1], 2) - 1; next }
		/^\+\+\+ / { next } /^\+/ { print n + 1; exit } /^[ ]/ { n++ }' "$out/$name.patch")
	echo "$name $2 $f $3 $first" >>"$tmp/manifest"
	cp "$tmp/p/new" "$tmp/chk.$name.c"
	rm -f "$tmp/ins.list" "$tmp"/ins.[0-9]*
	: >"$tmp/ins.list"
	nins=0
}

indent() { sed -n "${1}s/^\([ 	]*\).*/\1/p" "$tree/$f"; }
tabs() { awk -v n="$1" 'BEGIN { while (n-- > 0) printf "\t" }'; }
# the puts of F's family
puts_of() {
	case $1 in
	seq_printf) echo seq_puts ;;
	seq_buf_printf) echo seq_buf_puts ;;
	trace_seq_printf) echo trace_seq_puts ;;
	esac
}
# M as an operand: parenthesized unless a name or a chain of ->/. fields
paren() {
	if printf '%s\n' "$1" | grep -Eq '^[A-Za-z_][A-Za-z0-9_]*((->|\.)[A-Za-z_][A-Za-z0-9_]*)*$'; then
		echo "$1"
	else
		echo "($1)"
	fi
}
# the text of one wrapper shape: wrapdef K F
wrapdef() {
	case $1 in
	W1) printf '#define PG_W1(m, fmt, ...) %s(m, fmt, ##__VA_ARGS__)' "$2" ;;
	W2) printf '#define PG_W2(m, x...) %s(m, x)' "$2" ;;
	W3) printf '#define PG_W3(...) %s(__VA_ARGS__)' "$2" ;;
	W4) printf '#define PG_W4(m, fmt, ...) do { %s(m, fmt, ##__VA_ARGS__); } while (0)' "$2" ;;
	W5) printf '#define PG_W5(m, fmt, ...) do { if (m) %s(m, fmt, ##__VA_ARGS__); else pr_info(fmt, ##__VA_ARGS__); } while (0)' "$2" ;;
	W6) printf '#define PG_W6(m, fmt, ...) ((m) ? (void)%s(m, fmt, ##__VA_ARGS__) : (void)printk(fmt, ##__VA_ARGS__))' "$2" ;;
	W7) printf '#define PG_W7(m, x...)\t\t\t\\\n do {\t\t\t\t\t\\\n\tif (m)\t\t\t\t\\\n\t\t%s(m, x);\t\t\\\n\telse\t\t\t\t\\\n\t\tpr_cont(x);\t\t\\\n } while (0)' "$2" ;;
	*) die "$f: no wrapper shape $1" ;;
	esac
}

: >"$tmp/ins.list"
nins=0
while read -r role f wraps; do
	slug=$(echo "${f%.c}" | tr / _)
	regs=$(awk -v f="$f" '$1 == f { $1 = ""; print }' "$tmp/regions")
	awk -f "$here/calls.awk" "$tree/$f" >"$tmp/calls"
	awk -v regs="$regs" -v far=$far -f "$here/pick.awk" "$tmp/calls" >"$tmp/pick"
	get() { awk -F '	' -v k="$1" -v i="$2" '$1 == k { print $i }' "$tmp/pick"; }
	case $role in
	in | scope) [ -n "$regs" ] || die "$f: spatch skips no line in it (role $role)" ;;
	clean) [ -z "$regs" ] || die "$f: spatch skips lines$regs (role clean)" ;;
	*) die "$f: role $role" ;;
	esac
	if [ $role = in ]; then
		[ -n "$(get in 2)" ] || die "$f: no seq call statement ends in a skipped region$regs"
	elif [ $role = scope ]; then
		[ -z "$(get in 2)" ] || die "$f: a seq call statement ends in a skipped region (role scope)"
	fi
	[ -n "$(get far 2)" ] || die "$f: no seq call statement $far lines or more from the skipped regions"

	# A: after the seq call statement in a skipped region (role in)
	if [ $role = in ]; then
		L=$(get in 2) F=$(get in 3) M=$(get in 4)
		i=$(indent "$L")
		# the statement's first line holds the indentation
		s=$(awk -F '	' -v e="$L" '$1 == "call" && $3 == e { print $2; exit }' "$tmp/calls")
		i=$(indent "$s")
		MP=$(paren "$M")
		case $F in seq_printf) fld=buf ;; *) fld=buffer ;; esac
		ins "$L" "$i$F($M, \"%px\\n\", $M);"; emit px-in 1 in
		ins "$L" "$i$F($M, \"%p\\n\", $M);"; emit p-in 0 in
		ins "$L" "$i$(puts_of "$F")($M, \"x\\n\");"; emit puts-in 0 in
		ins "$L" "$i{ const char *pg_f = $MP ? \"%px\\n\" : \"x\\n\"; $F($M, pg_f, $M); }"
		emit localfmt-in 1 in
		ins "$L" "$i{ const char *pg_f = \"x\\n\"; if ($MP) pg_f = \"%px\\n\"; $F($M, pg_f, $M); }"
		emit localfmt-assign-in 1 in
		ins "$L" "$i{ const char *pg_f = $MP ? \"%p\\n\" : \"x\\n\"; $F($M, pg_f, $M); }"
		emit localfmt-p-in 0 in
		ins "$L" "$i$F($M, $MP->$fld, $M);"; emit runtime-in 2 in
		# wrappers: defined after the #includes, called here and far
		incl=$(get incl 2)
		for w in $wraps; do
			[ -n "$incl" ] || die "$f: no #include $((far / 4)) lines or more from the skipped regions"
			lw=$(echo $w | tr W w)
			LF=$(get far 2) FF=$(get far 3) MF=$(get far 4)
			iF=$(awk -F '	' -v e="$LF" '$1 == "call" && $3 == e { print $2; exit }' "$tmp/calls")
			iF=$(indent "$iF")
			for conv in px p; do
				st=0
				[ $conv = px ] && st=1
				ins "$incl" "
$(wrapdef $w "$F")"
				ins "$L" "${i}PG_$w($M, \"%$conv\\n\", $M);"
				emit "$lw-$conv-in" $st top+in
				ins "$incl" "
$(wrapdef $w "$FF")"
				ins "$LF" "${iF}PG_$w($MF, \"%$conv\\n\", $MF);"
				emit "$lw-$conv-far" $st top+far
			done
		done
	fi
	# B: next to a skipped region
	if [ $role != clean ]; then
		L=$(get next 2)
		if [ -n "$L" ]; then
			F=$(get next 3) M=$(get next 4)
			s=$(awk -F '	' -v e="$L" '$1 == "call" && $3 == e { print $2; exit }' "$tmp/calls")
			i=$(indent "$s")
			ins "$L" "$i$F($M, \"%p\\n\", $M);"; emit p-next 0 next
			ins "$L" "$i$(puts_of "$F")($M, \"x\\n\");"; emit puts-next 0 next
		fi
		L=$(get gapnext 2)
		[ -n "$L" ] || die "$f: no place next to a skipped region"
		ins "$L" "$(tabs "$(get gapnext 3)")/* ptrguard test: a comment next to lines spatch skips */"
		emit comment-next 0 next
	fi
	if [ $role = in ]; then
		L=$(get gapin 2)
		[ -n "$L" ] || die "$f: no statement place in a skipped region"
		ins "$L" "$(tabs "$(get gapin 3)")/* ptrguard test: a comment in lines spatch skips */"
		emit comment-in 0 in
	fi
	# C: far from every skipped region (anywhere, in a clean file)
	L=$(get far 2) F=$(get far 3) M=$(get far 4)
	s=$(awk -F '	' -v e="$L" '$1 == "call" && $3 == e { print $2; exit }' "$tmp/calls")
	i=$(indent "$s")
	MP=$(paren "$M")
	case $F in seq_printf) fld=buf ;; *) fld=buffer ;; esac
	ins "$L" "$i$F($M, \"%px\\n\", $M);"; emit px-far 1 far
	ins "$L" "$i$F($M, \"%p\\n\", $M);"; emit p-far 0 far
	ins "$L" "$i$F($M, $MP->$fld, $M);"; emit runtime-far 0 far
	if [ $role != in ]; then
		ins "$L" "$i$(puts_of "$F")($M, \"x\\n\");"; emit puts-far 0 far
	fi
	L=$(get gapfar 2)
	if [ -n "$L" ]; then
		ins "$L" "$(tabs "$(get gapfar 3)")/* ptrguard test: a comment far from lines spatch skips */"
		emit comment-far 0 far
		if [ $role = scope ]; then
			ins "$L" "$(tabs "$(get gapfar 3)")barrier();"
			emit code-far 0 far
		fi
	fi
	if [ $role = clean ]; then
		incl=$(get incl 2)
		[ -n "$incl" ] || die "$f: no #include at the top"
		for w in $wraps; do
			lw=$(echo $w | tr W w)
			for conv in px p; do
				st=0
				[ $conv = px ] && st=1
				ins "$incl" "
$(wrapdef $w "$F")"
				ins "$L" "${i}PG_$w($M, \"%$conv\\n\", $M);"
				emit "$lw-$conv-far" $st top+far
			done
		done
	fi
done <"$tmp/files"

# ---- check the construction: where spatch skips lines in the patched files ----
# in: the added line after the anchor (the last added line) must be skipped;
# far: no added line may be skipped.  "next" has nothing to check: the
# line is harmless wherever spatch puts it.
awk -v all="$check" '
	($4 == "in" || $4 == "top+in" || $4 == "far" || $4 == "top+far") &&
	(all == "all" || $2 == 2 || $1 ~ /\.runtime-/) { print $1 ".c" }
' "$tmp/manifest" >"$tmp/tocheck"
if [ -s "$tmp/tocheck" ]; then
	mkdir "$tmp/chk"
	while read -r c; do mv "$tmp/chk.$c" "$tmp/chk/$c"; done <"$tmp/tocheck"
	# shellcheck disable=SC2046
	(cd "$tmp/chk" && "$here/regions.sh" . $(cat "$tmp/tocheck")) >"$tmp/chk.regions" ||
		die "regions.sh failed on the patched files"
	bad=$(awk -v out="$out" '
		FNR == NR { r[$1] = $0; next }
		{
			c = $1 ".c"
			if (!(c in r)) next
			n = split(r[c], x, " ")
			# the added lines, from the patch
			pf = out "/" $1 ".patch"
			na = 0
			while ((getline l <pf) > 0) {
				if (l ~ /^@@ /) { split(l, h, " "); split(h[3], a, ","); ln = substr(a[1], 2) - 1; continue }
				if (l ~ /^\+\+\+ /) continue
				if (l ~ /^\+/) add[++na] = ++ln
				else if (l ~ /^ /) ln++
			}
			close(pf)
			for (k = 1; k <= na; k++) {
				inr = 0
				for (i = 2; i <= n; i++) {
					split(x[i], se, "-")
					if (add[k] >= se[1] + 0 && add[k] <= se[2] + 0) inr = 1
				}
				if ($4 ~ /in$/ && k == na && !inr)
					print $1 ": added line " add[k] " is not in a skipped region after the patch:" r[c]
				if ($4 ~ /in$/ && k < na && inr)
					print $1 ": the #define, line " add[k] ", is in a skipped region after the patch"
				if ($4 ~ /far$/ && inr)
					print $1 ": added line " add[k] " is in a skipped region after the patch"
			}
		}' "$tmp/chk.regions" "$tmp/manifest")
	[ -z "$bad" ] || die "the construction does not hold:
$bad"
fi
mv "$tmp/manifest" "$out/MANIFEST"
