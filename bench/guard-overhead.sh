#!/bin/sh
# What the seq_file guard costs a reader, measured inside the e2e VM.
#
# One boot of the guarded kernel (hashing on) reads, as an unprivileged
# user, a pointer-free file (/proc/meminfo, /proc/self/maps) and
# pointer-heavy ones (the test module's "heavy" file: 1,000 records of
# %lld %p %pK %pS %lx %pI4; /proc/net/unix with 1,000 sockets) in batches
# of $BMS ms, $PAIRS pairs of batches per file: one batch in guard mode 0,
# one in mode 2, back to back, in alternating order (e2e-read -T -A 0,2
# switches the mode between batches).  Each pair gives a ratio m2/m0 of
# the mean times per read; printed: the median ratio and its quartiles.
# The same run with mode 0 on both sides (-A 0,0) shows what the method
# itself reads as a difference.  One boot of the pristine kernel measures
# the same files (without switching); m0/pristine compares two boots, a
# ratio of medians, and moves with the boot under TCG.  Times are under
# TCG (no KVM here): compare the ratios, not the absolute figures.
#
# Environment: BMS (batch length in ms, default 40), PAIRS (default 120),
# PTRGUARD_CACHE, J.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
e2e=$top/tests/e2e
out=$top/build/e2e
bms=${BMS:-40}
pairs=${PAIRS:-120}
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

# run FLAVOUR: one bench boot; its BENCH lines, kernel named, on stdout.
run() {
	log=$out/bench-$1.log
	"$e2e/boot.sh" "$kdir/arch/x86/boot/bzImage" "$initrd" "$log" $tsc \
		e2e.run=bench e2e.boot="$1" e2e.bms="$bms" e2e.bpairs="$pairs" || return 1
	grep -q '^E2E-END' "$log" || { echo "guard-overhead: $1 boot did not finish (see $log)" >&2; return 1; }
	cs=$(sed -n 's/^INFO clocksource=//p' "$log")
	[ "$cs" = tsc ] || { echo "guard-overhead: $1 boot timed with clocksource '$cs', not tsc (see $log)" >&2; return 1; }
	grep '^BENCH ' "$log"
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
if [ -x "$top/scripts/kernel-series.sh" ]; then
	if prepare guard && run guard >>"$results"; then :; else rc=1; fi
else
	echo "guard-overhead: scripts/kernel-series.sh missing: no guarded kernel" >&2
	rc=1
fi
if prepare plain && run plain >>"$results"; then :; else rc=1; fi

awk '
{
	for (i = 2; i <= NF; i++) {
		k = index($i, "="); F[substr($i, 1, k - 1)] = substr($i, k + 1)
	}
	key = F["boot"] " " F["modes"] " " F["file"]
	for (k in F) V[key " " k] = F[k]
	if (F["rc"] != 0 || F["ok"] != F["runs"] || F["runs"] == 0) bad = bad " " key
	files[F["file"]] = 1
}
function us(key) { return (key " a_ns") in V ? sprintf("%.1f", V[key " a_ns"] / 1000) : "-" }
function m2(key) { return (key " b_ns") in V ? sprintf("%.1f", V[key " b_ns"] / 1000) : "-" }
function ratio(key) {
	return (key " ratio") in V ? sprintf("%.3f [%.3f-%.3f]", V[key " ratio"], V[key " q1"], V[key " q3"]) : "-"
}
END {
	printf "%-26s %9s %9s %9s %21s %21s %9s\n", "file (median us/read)", "pristine",
		"guard m0", "guard m2", "m2/m0 [quartiles]", "m0/m0 [quartiles]", "m0/prist"
	for (f in files) {
		p = "plain - " f; g = "guard 0,2 " f; c = "guard 0,0 " f
		printf "%-26s %9s %9s %9s %21s %21s %9s\n", f, us(p), us(g), m2(g),
			ratio(g), ratio(c),
			((p " a_ns") in V && (g " a_ns") in V) ? sprintf("%.2f", V[g " a_ns"] / V[p " a_ns"]) : "-"
	}
	if (bad != "") { print "guard-overhead: reads failed in:" bad; exit 1 }
}' "$results" || rc=1
echo "guard-overhead: $pairs pairs of $bms ms batches per file, order alternating; unprivileged reader; TCG"
exit $rc
