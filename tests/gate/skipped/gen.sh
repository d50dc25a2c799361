#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# gen.sh: the patches of tests/gate/skipped, made from the pristine Linux
# 6.12 tree: one-file `diff -u a/FILE b/FILE` patches to real files where
# spatch skips lines (seq_px.cocci's options) and which print to seq
# files, each with the exit status `ptrguard gate` owes it (issue 13):
#
#   spatch judges what it parsed; a seq-output call in a region spatch
#   skipped is judged by the C lexical model; exit 2 when a line the
#   patch adds holds a seq-output call printing values whose format
#   neither can read (issue 25: in a skipped region or not; before, only
#   in one).  On 6.12 %px leaks (1), plain %p is hashed.
#
# Every expectation follows from how the patch is built, never from a run
# of ptrguard.  The skipped regions come from spatch itself, placed in the
# file by regions.awk (regions.sh; with the gate's macro file
# cocci/rules/ptrguard-macros.h when there is one); the statements and the
# places where a line can go from calls.awk; the choice of places from
# pick.awk.  F and M below are the function and first argument of an
# existing seq call statement (seq_printf, seq_buf_printf or
# trace_seq_printf) that the new line follows, with its indentation.
#
# Writes OUTDIR/NAME.patch and OUTDIR/MANIFEST, one line per patch:
#   NAME STATUS FILE PLACE LINE     (LINE: the first added line, patched file)
# NAME is FILE's path with "/" as "_", without ".c", a dot and the kind.
# Before writing them it checks its own construction with spatch on the
# patched files: a line meant to be in a skipped region must be in one
# after the patch, one meant to be parsed must not (CHECK=all: every patch;
# default: the runtime formats, the only ones whose status depends on it:
# 2 in a skipped region, 0 where spatch parses the line).  Notes about
# slots left empty go to stderr; fewer than MIN patches (60) is an error.
#
# Usage: gen.sh TREE OUTDIR   (env: CHECK=all|some, J=2 spatch at once, MIN)
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
note() { echo "gen.sh: note: $*" >&2; }

# The files.  Each role has a fixed list of candidate files, in order; a
# candidate that is what its role says fills the next slot of that role,
# and the slot says which patches it gets (KINDS below).  What spatch
# skips depends on the macro file the gate gives it (scoped_guard() in it
# took most of the seq-printing functions out of the skipped lines), so
# the lists hold more candidates than slots; with a given tree, spatch
# and macro file the choice is fixed.  The roles:
#   in    spatch skips lines inside a function that prints to a seq file,
#         and a seq call statement ends in them: the new lines follow it
#   param spatch skips lines inside a function with a struct seq_file *
#         (seq_buf, trace_seq) parameter, but no seq call statement ends
#         in them: the new lines go there, printing to that parameter
#   fn    neither, but spatch skips lines inside a function (one that
#         prints nothing): the new lines go there, F and M copied from a
#         seq call statement of the file (the -far one)
#   scope spatch skips lines only outside functions (DEFINE_PER_CPU, macro
#         tables), or none of the above
#   clean spatch parses every line (the controls)
# Measured on Debian's 6.12.118: of the 1,239 .c files that call
# seq_printf, seq_buf_printf or trace_seq_printf, spatch skips lines in 296
# without the macro file, in 11 of them in a seq call statement (most lose
# a whole function to scoped_guard() or with_intel_runtime_pm()); with
# the macro file of 2026-12-04, in 239, and only rtw88/debug.c ("case
# A...B:") and trace_probe.c (a function name made by a macro) keep a
# seq call statement in skipped lines.
cands='
in	drivers/net/wireless/realtek/rtw88/debug.c kernel/trace/trace_probe.c kernel/irq/proc.c kernel/sched/core.c drivers/thunderbolt/debugfs.c drivers/pinctrl/pinmux.c drivers/platform/x86/intel/pmc/core.c drivers/pinctrl/intel/pinctrl-baytrail.c drivers/pinctrl/intel/pinctrl-cherryview.c drivers/gpu/drm/i915/gt/intel_rc6.c kernel/trace/trace_events_hist.c
param	fs/proc/array.c fs/proc/task_mmu.c drivers/gpu/drm/i915/gt/intel_gt_pm_debugfs.c drivers/gpu/drm/i915/gt/intel_sseu_debugfs.c
fn	drivers/gpu/drm/amd/amdgpu/amdgpu_debugfs.c kernel/bpf/task_iter.c fs/tracefs/inode.c kernel/trace/trace_events_filter.c arch/powerpc/kernel/process.c net/ipv4/ipconfig.c mm/swapfile.c net/ax25/af_ax25.c drivers/clk/clk.c net/netrom/nr_route.c kernel/bpf/cgroup_iter.c drivers/cxl/core/hdm.c lib/sbitmap.c mm/memcontrol.c
scope	mm/vmstat.c arch/x86/kernel/irq.c block/blk-mq-debugfs.c fs/proc/base.c arch/alpha/kernel/irq.c kernel/module/main.c
clean	kernel/module/procfs.c kernel/trace/trace_output.c lib/codetag.c mm/memcontrol-v1.c
'
# The slots: ROLE then the kinds of the file that fills it.  A kind the
# file has no place for (a -next or -far statement, a comment place) is
# left out with a note.
slots='
in	px-in p-in puts-in runtime-in localfmt-in localfmt-assign-in localfmt-p-in comment-in comment-next px-far runtime-far w1 w2
in	px-in p-in puts-in runtime-in localfmt-in localfmt-assign-in localfmt-p-in comment-in comment-next p-next puts-next px-far runtime-far w3 w4
in	px-in p-in runtime-in localfmt-in comment-in px-far w5 w6
in	px-in puts-in runtime-in localfmt-assign-in comment-next p-far w7
param	px-in p-in runtime-in localfmt-in comment-in px-far w1
param	px-in puts-in runtime-in localfmt-assign-in comment-next p-far w2
fn	px-in p-in runtime-in localfmt-in comment-in px-far runtime-far w1
fn	px-in puts-in runtime-in localfmt-assign-in comment-next px-far w2
fn	px-in p-in runtime-in localfmt-p-in comment-in p-far w3
fn	px-in puts-in runtime-in localfmt-in comment-next runtime-far w4
fn	px-in p-in runtime-in localfmt-assign-in comment-in px-far w5
fn	px-in puts-in runtime-in localfmt-p-in comment-next w6
fn	px-in p-in runtime-in localfmt-in comment-in px-far w7
scope	px-far p-far puts-far runtime-far comment-far code-far comment-next
scope	px-far p-far runtime-far comment-far comment-next
scope	px-far puts-far runtime-far code-far comment-next w6
scope	px-far p-far runtime-far comment-far comment-next
clean	px-far p-far runtime-far comment-far w1 w2 w3
clean	px-far p-far runtime-far w5
clean	px-far puts-far runtime-far w7
'
# KINDS, and the exit status each owes.  The new statement is
#   px        F(M, "%px\n", M);                                   1
#   p         F(M, "%p\n", M);                                    0
#   puts      seq_puts(M, "x\n");  (seq_buf_puts, trace_seq_puts) 0
#   localfmt  { const char *pg_f = M ? "%px\n" : "x\n"; F(M, pg_f, M); }    1
#   localfmt-assign  { const char *pg_f = "x\n"; if (M) pg_f = "%px\n"; F(M, pg_f, M); }  1
#   localfmt-p  { const char *pg_f = M ? "%p\n" : "x\n"; F(M, pg_f, M); }   0
#   runtime   F(M, M->buf, M);  (->buffer for seq_buf, trace_seq): a format no
#             model can read, printing a value: 2 wherever it is (the gate
#             cannot see it; issue 25), in a skipped region or not
#   comment   a comment line                                      0
#   code      barrier();                                          0
# placed
#   -in       after the seq call statement of a skipped region (role in), or
#             at a statement place of one (roles param and fn), or (comment)
#             at a statement place of one
#   -next     after a seq call statement that ends just before or at the end
#             of a skipped region; (comment) just before or after one
#   -far      after a seq call statement 20 lines or more from every skipped
#             region (the farthest one, at least 3 lines away, if none is);
#             (comment, code) at a statement place 20 lines or more away
#   wN        wrapper shape N (wrapdef below) defined after the #includes,
#             called with "%px" (1) and "%p" (0) after the -in (roles in,
#             param, fn) and the -far seq call statements: four patches
#             (two for roles scope and clean, or without a -far statement)

mkdir -p "$out"
rm -f "$out"/*.patch "$out/MANIFEST"
: >"$tmp/manifest"
echo "$cands" | awk 'NF' | while read -r role list; do
	for f in $list; do
		[ -f "$tree/$f" ] || die "$f: not in $tree"
		echo "$f"
	done
done | awk '!seen[$0]++' >"$tmp/list"
# shellcheck disable=SC2046
"$here/regions.sh" "$tree" $(cat "$tmp/list") >"$tmp/regions" || die "regions.sh failed"

# the role FILE is: in, param, fn, scope or clean (calls.awk, pick.awk)
role_of() {
	regs=$(awk -v f="$1" '$1 == f { $1 = ""; print }' "$tmp/regions")
	awk -f "$here/calls.awk" "$tree/$1" >"$tmp/calls"
	awk -v regs="$regs" -v far=$far -f "$here/pick.awk" "$tmp/calls" >"$tmp/pick"
	if [ -z "$regs" ]; then echo clean
	elif [ -n "$(get in 2)" ]; then echo in
	elif [ -n "$(get gapparam 2)" ]; then echo param
	elif [ -n "$(get gapin 2)" ] && [ -n "$(get far 2)" ]; then echo fn
	else echo scope
	fi
}
# field I of pick.awk's line KEY
get() { awk -F '	' -v k="$1" -v i="$2" '$1 == k { print $i }' "$tmp/pick"; }

# fill the slots: "ROLE FILE KINDS..." lines
echo "$slots" | awk 'NF' >"$tmp/slots"
echo "$cands" | awk 'NF' | while read -r role list; do
	nslots=$(awk -v r="$role" '$1 == r' "$tmp/slots" | wc -l)
	used=0
	for f in $list; do
		[ $used -lt "$nslots" ] || break
		[ "$(role_of "$f")" = "$role" ] || continue
		used=$((used + 1))
		awk -v r="$role" -v n=$used -v f="$f" -F '	' \
			'$1 == r && ++k == n { print r "\t" f "\t" $2 }' "$tmp/slots"
	done
	[ $used -eq "$nslots" ] || note "role $role: $used of $nslots slots filled (candidates: $list)"
done >"$tmp/files"

# ---- one patch ----
# ins LINE TEXT: TEXT (one or more lines) goes after LINE of the original
ins() {
	nins=$((nins + 1))
	printf '%s\n' "$2" >"$tmp/ins.$nins"
	echo "$1 $nins" >>"$tmp/ins.list"
}
# emit KIND STATUS PLACE: the patch of what ins() listed, to $f, as $slug.KIND
emit() {
	name=$slug.$1
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
		{ print }
		NR in at { put(NR) }
	' "$tree/$f" >"$tmp/new"
	dst=0
	diff -u --label "a/$f" --label "b/$f" "$tree/$f" "$tmp/new" >"$out/$name.patch" || dst=$?
	[ $dst -eq 1 ] || die "$name: diff exit status $dst"
	first=$(awk '/^@@ / { split($3, a, ","); n = substr(a[1], 2) - 1; next }
		/^\+\+\+ / { next } /^\+/ { print n + 1; exit } /^ / { n++ }' "$out/$name.patch")
	echo "$name $2 $f $3 $first" >>"$tmp/manifest"
	mv "$tmp/new" "$tmp/chk.$name.c"
	rm -f "$tmp"/ins.[0-9]*
	: >"$tmp/ins.list"
	nins=0
}

# the indentation of line N of $f
indent() { sed -n "${1}s/^\([ 	]*\).*/\1/p" "$tree/$f"; }
tabs() { awk -v n="$1" 'BEGIN { while (n-- > 0) printf "\t" }'; }
# the first line of the call statement that ends on line N
callstart() { awk -F '	' -v e="$1" '$1 == "call" && $3 == e { print $2; exit }' "$tmp/calls"; }
# the puts of F's family
puts_of() {
	case $1 in
	seq_printf) echo seq_puts ;;
	seq_buf_printf) echo seq_buf_puts ;;
	trace_seq_printf) echo trace_seq_puts ;;
	esac
}
# the printf of a parameter type
printf_of() {
	case $1 in
	seq_file) echo seq_printf ;;
	seq_buf) echo seq_buf_printf ;;
	trace_seq) echo trace_seq_printf ;;
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
# the text of wrapper shape N calling F: wrapdef N F
wrapdef() {
	case $1 in
	1) printf '#define PG_W1(m, fmt, ...) %s(m, fmt, ##__VA_ARGS__)' "$2" ;;
	2) printf '#define PG_W2(m, x...) %s(m, x)' "$2" ;;
	3) printf '#define PG_W3(...) %s(__VA_ARGS__)' "$2" ;;
	4) printf '#define PG_W4(m, fmt, ...) do { %s(m, fmt, ##__VA_ARGS__); } while (0)' "$2" ;;
	5) printf '#define PG_W5(m, fmt, ...) do { if (m) %s(m, fmt, ##__VA_ARGS__); else pr_info(fmt, ##__VA_ARGS__); } while (0)' "$2" ;;
	6) printf '#define PG_W6(m, fmt, ...) ((m) ? (void)%s(m, fmt, ##__VA_ARGS__) : (void)printk(fmt, ##__VA_ARGS__))' "$2" ;;
	# the shape of SEQ_printf in kernel/sched/debug.c
	7) printf '#define PG_W7(m, x...)\t\t\t\\\n do {\t\t\t\t\t\\\n\tif (m)\t\t\t\t\\\n\t\t%s(m, x);\t\t\\\n\telse\t\t\t\t\\\n\t\tpr_cont(x);\t\t\\\n } while (0)' "$2" ;;
	*) die "$f: no wrapper shape w$1" ;;
	esac
}
# statement KIND F M INDENT: the text of a new statement
statement() {
	mp=$(paren "$3")
	case $2 in seq_printf) fld=buf ;; *) fld=buffer ;; esac
	case $1 in
	px) printf '%s\n' "$4$2($3, \"%px\\n\", $3);" ;;
	p) printf '%s\n' "$4$2($3, \"%p\\n\", $3);" ;;
	puts) printf '%s\n' "$4$(puts_of "$2")($3, \"x\\n\");" ;;
	localfmt) printf '%s\n' "$4{ const char *pg_f = $mp ? \"%px\\n\" : \"x\\n\"; $2($3, pg_f, $3); }" ;;
	localfmt-assign) printf '%s\n' "$4{ const char *pg_f = \"x\\n\"; if ($mp) pg_f = \"%px\\n\"; $2($3, pg_f, $3); }" ;;
	localfmt-p) printf '%s\n' "$4{ const char *pg_f = $mp ? \"%p\\n\" : \"x\\n\"; $2($3, pg_f, $3); }" ;;
	runtime) printf '%s\n' "$4$2($3, $mp->$fld, $3);" ;;
	*) die "$f: no statement kind $1" ;;
	esac
}
# the exit status owed for statement KIND at PLACE (in, next, far)
status_of() {
	case $1-$2 in
	localfmt-p-*) echo 0 ;;
	px-* | localfmt-*) echo 1 ;;	# localfmt, localfmt-assign
	runtime-*) echo 2 ;;	# in a skipped region or not (issue 25)
	*) echo 0 ;;
	esac
}

: >"$tmp/ins.list"
nins=0
while IFS='	' read -r role f kinds; do
	slug=$(echo "${f%.c}" | tr / _)
	[ "$(role_of "$f")" = "$role" ] || die "$f: not of role $role"
	# the places: -in (statement), -far (statement), -next (statement)
	farL=$(get far 2) farF=$(get far 3) farM=$(get far 4)
	[ -z "$farL" ] || farI=$(indent "$(callstart "$farL")")
	nextL=$(get next 2) nextF=$(get next 3) nextM=$(get next 4)
	[ -z "$nextL" ] || nextI=$(indent "$(callstart "$nextL")")
	case $role in
	in)
		inL=$(get in 2) inF=$(get in 3) inM=$(get in 4)
		inI=$(indent "$(callstart "$inL")") ;;
	param)
		inL=$(get gapparam 2) inF=$(printf_of "$(get gapparam 4)") inM=$(get gapparam 5)
		inI=$(tabs "$(get gapparam 3)") ;;
	fn)
		inL=$(get gapin 2) inF=$farF inM=$farM
		inI=$(tabs "$(get gapin 3)") ;;
	*) inL= ;;
	esac
	incl=$(get incl 2)
	for k in $kinds; do
		case $k in
		comment-in | comment-next | comment-far | code-far)
			case $k in
			*-in) g=gapin what="in lines spatch skips" ;;
			*-next) g=gapnext what="next to lines spatch skips" ;;
			*) g=gapfar what="far from lines spatch skips" ;;
			esac
			L=$(get $g 2)
			[ -n "$L" ] || { note "$f: no place for $k"; continue; }
			case $k in
			code-*) ins "$L" "$(tabs "$(get $g 3)")barrier();" ;;
			*) ins "$L" "$(tabs "$(get $g 3)")/* ptrguard test: a comment $what */" ;;
			esac
			emit "$k" 0 "${k#*-}" ;;
		*-in)
			[ -n "$inL" ] || die "$f: no place for $k"
			ins "$inL" "$(statement "${k%-in}" "$inF" "$inM" "$inI")"
			emit "$k" "$(status_of "${k%-in}" in)" in ;;
		*-next)
			[ -n "$nextL" ] || { note "$f: no place for $k"; continue; }
			ins "$nextL" "$(statement "${k%-next}" "$nextF" "$nextM" "$nextI")"
			emit "$k" "$(status_of "${k%-next}" next)" next ;;
		*-far)
			[ -n "$farL" ] || { note "$f: no place for $k"; continue; }
			ins "$farL" "$(statement "${k%-far}" "$farF" "$farM" "$farI")"
			emit "$k" "$(status_of "${k%-far}" far)" far ;;
		w[1-7])
			n=${k#w}
			[ -n "$incl" ] || { note "$f: no #include $((far / 4)) lines or more from the skipped regions: no $k"; continue; }
			for conv in px p; do
				st=0
				[ $conv = px ] && st=1
				if [ -n "$inL" ]; then
					ins "$incl" "
$(wrapdef "$n" "$inF")"
					ins "$inL" "${inI}PG_W$n($inM, \"%$conv\\n\", $inM);"
					emit "$k-$conv-in" $st top+in
				fi
				[ -n "$farL" ] || continue
				ins "$incl" "
$(wrapdef "$n" "$farF")"
				ins "$farL" "${farI}PG_W$n($farM, \"%$conv\\n\", $farM);"
				emit "$k-$conv-far" $st top+far
			done ;;
		*) die "$f: no kind $k" ;;
		esac
	done
done <"$tmp/files"
npatch=$(wc -l <"$tmp/manifest")
[ "$npatch" -ge "${MIN:-60}" ] || die "only $npatch patches (MIN=${MIN:-60}): not enough files of each role"

# ---- check the construction: where spatch skips lines in the patched files ----
# in: the added line after the anchor (the last added line) must be skipped;
# far: no added line may be skipped.  "next" has nothing to check: the
# line is harmless wherever spatch puts it.
awk -v all="$check" '
	($4 == "in" || $4 == "top+in" || $4 == "far" || $4 == "top+far") &&
	(all == "all" || $1 ~ /\.runtime-/) { print $1 ".c" }
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
