#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What the seq_file guard costs a reader, measured inside the e2e VM.
#
# One boot of the guarded kernel (hashing on) reads, as an unprivileged
# user, a pointer-free file (/proc/meminfo, /proc/self/maps) and
# pointer-heavy ones (the test module's "heavy" file: 1,000 records of
# %lld %p %pK %pS %lx %pI4; /proc/net/unix with 1,000 sockets) in batches
# of $BMS ms, $PAIRS pairs of batches per file: one batch in guard mode 0,
# one in mode 1, back to back, in alternating order (e2e-read -T -A 0,1
# switches the mode between batches).  Each pair gives a ratio m1/m0 of
# the mean times per read; printed: the median ratio and its quartiles.
# The same run with mode 0 on both sides (-A 0,0) shows what the method
# itself reads as a difference.  One boot of the pristine kernel measures
# the same files (without switching); m0/pristine compares two boots, a
# ratio of medians.
#
# Each pair of boots runs twice.  First with qemu's -icount shift=0: the
# guest's clock then counts the instructions it ran (1 ns each), so the
# ratios are ratios of instructions executed, exact and repeatable (the
# m0/m0 control reads 1.000), and m0/pristine is meaningful across boots.
# Then on the host's clock under TCG (no KVM here): time, with TCG's own
# cost model and the host's noise (quartiles of several percent; m0/
# pristine moves with the boot).  Neither is the time on hardware: the
# first says how much more work the guard does, the second what it costs
# in this emulator.
#
# Environment: BMS (batch length in ms, default 40), PAIRS (default 120;
# the instruction-count boots use ICOUNT_PAIRS, default 10: their pairs do
# not vary), METHODS (default "icount time"), FLAVOURS (default "guard
# plain"; "guard" alone gives the m1/m0 and m0/m0 columns without
# building the pristine kernel), PTRGUARD_CACHE, J.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
e2e=$top/tests/e2e
out=$top/build/e2e
bms=${BMS:-40}
pairs=${PAIRS:-120}
icount_pairs=${ICOUNT_PAIRS:-10}
methods=${METHODS:-icount time}
mkdir -p "$out"
export PTRGUARD_CACHE=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}

# prepare FLAVOUR: kernel, module and initramfs; sets kdir and initrd.
prepare() {
	kdir=$("$e2e/kernel.sh" "$1") || return 1
	mdir=$out/module-$1
	rm -rf "$mdir"
	mkdir -p "$mdir"
	cp "$e2e/module/Kbuild" "$e2e/module/ptrguard_e2e.c" "$mdir/"
	make -C "$kdir" M="$mdir" ARCH=x86_64 modules >"$out/module-$1.log" 2>&1 ||
		{ echo "guard-overhead: module build failed (see $out/module-$1.log)" >&2; return 1; }
	initrd=$out/initramfs-$1.cpio.gz
	"$e2e/initramfs.sh" "$initrd" "$mdir/ptrguard_e2e.ko" >/dev/null
}

# run FLAVOUR METHOD: one bench boot; its BENCH lines, kernel and method
# named, on stdout.
run() {
	log=$out/bench-$1-$2.log
	qemu_args= clock=$tsc n=$pairs
	if [ "$2" = icount ]; then
		# 1 instruction = 1 ns: a 1 GHz TSC; sleep=off: idle time is skipped
		qemu_args="-icount shift=0,sleep=off"
		clock="tsc_early_khz=1000000 tsc=reliable"
		n=$icount_pairs
	fi
	E2E_QEMU_ARGS=$qemu_args "$e2e/boot.sh" "$kdir/arch/x86/boot/bzImage" \
		"$initrd" "$log" $clock e2e.run=bench e2e.boot="$1" e2e.bms="$bms" \
		e2e.bpairs="$n" || return 1
	grep -q '^E2E-END' "$log" || { echo "guard-overhead: $1 boot did not finish (see $log)" >&2; return 1; }
	cs=$(sed -n 's/^INFO clocksource=//p' "$log")
	[ "$cs" = tsc ] || { echo "guard-overhead: $1 boot timed with clocksource '$cs', not tsc (see $log)" >&2; return 1; }
	sed -n "s/^BENCH /BENCH method=$2 /p" "$log"
}

# Under TCG the guest's TSC is the host's, but the guest's PIT calibration
# of it often fails; the clocksource is then jiffies, which moves in 4 ms
# steps.  Give the guest the host's TSC frequency (constant here) and keep
# the clocksource watchdog from dropping the TSC.
tsc=
if grep -qw constant_tsc /proc/cpuinfo; then
	khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
	[ -n "$khz" ] && tsc="tsc_early_khz=$khz tsc=reliable"
fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT
rc=0
for flavour in ${FLAVOURS:-guard plain}; do
	prepare $flavour || { rc=1; continue; }
	for method in $methods; do
		run $flavour $method >>"$results" || rc=1
	done
done

awk '
{
	for (i = 2; i <= NF; i++) {
		k = index($i, "="); F[substr($i, 1, k - 1)] = substr($i, k + 1)
	}
	key = F["method"] " " F["boot"] " " F["modes"] " " F["file"]
	for (k in F) V[key " " k] = F[k]
	if (F["rc"] != 0 || F["ok"] != F["runs"] || F["runs"] == 0) bad = bad " " key
	files[F["file"]] = 1
	if (!(F["method"] in seen)) { seen[F["method"]] = 1; methods[++nm] = F["method"] }
	delete F
}
function us(key) { return (key " a_ns") in V ? sprintf("%.1f", V[key " a_ns"] / 1000) : "-" }
function m2(key) { return (key " b_ns") in V ? sprintf("%.1f", V[key " b_ns"] / 1000) : "-" }
function ratio(key) {
	return (key " ratio") in V ? sprintf("%.3f [%.3f-%.3f]", V[key " ratio"], V[key " q1"], V[key " q3"]) : "-"
}
END {
	for (i = 1; i <= nm; i++) {
		m = methods[i]
		if (m == "icount")
			print "Instructions executed (qemu -icount; 1 us = 1,000 instructions)"
		else
			print "Time under TCG (host clock)"
		printf "%-26s %9s %9s %9s %21s %21s %9s\n", "file (median us/read)", "pristine",
			"guard m0", "guard m1", "m1/m0 [quartiles]", "m0/m0 [quartiles]", "m0/prist"
		for (f in files) {
			p = m " plain - " f; g = m " guard 0,1 " f; c = m " guard 0,0 " f
			printf "%-26s %9s %9s %9s %21s %21s %9s\n", f, us(p), us(g), m2(g),
				ratio(g), ratio(c),
				((p " a_ns") in V && (g " a_ns") in V) ? sprintf("%.3f", V[g " a_ns"] / V[p " a_ns"]) : "-"
		}
	}
	if (bad != "") { print "guard-overhead: reads failed in:" bad; exit 1 }
}' "$results" || rc=1
echo "guard-overhead: per file, pairs of $bms ms batches ($icount_pairs counting instructions, $pairs timed), order alternating; unprivileged reader"
exit $rc
