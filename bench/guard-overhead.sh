#!/bin/sh
# What the seq_file guard costs a reader, measured inside the e2e VM.
#
# One boot of the guarded kernel (hashing on) reads, as an unprivileged
# user, a pointer-free file (/proc/meminfo, /proc/self/maps) and
# pointer-heavy ones (the test module's "heavy" file: 1,000 records of
# %p %pK %pS %lx %pI4; /proc/net/unix with 1,000 sockets) for 5 batches of $BMS ms each
# in guard mode 0 and mode 2, back to back per file, for 7 rounds; one boot
# of the pristine kernel does the same in its only mode.  Printed: the
# median over the rounds of each round's median time per whole read; the
# median over the rounds of each round's mode 2 / mode 0 ratio (the two
# timings of a round are adjacent, so host load moves both alike); and
# guarded mode 0 / pristine (different boots: a ratio of medians).  Times
# are under TCG (no KVM here): compare the ratios, not the absolute figures.
#
# Environment: BMS (batch length in ms, default 200), PTRGUARD_CACHE, J.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
e2e=$top/tests/e2e
out=$top/build/e2e
bms=${BMS:-200}
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
	"$e2e/boot.sh" "$kdir/arch/x86/boot/bzImage" "$initrd" "$log" \
		e2e.run=bench e2e.boot="$1" e2e.bms="$bms" || return 1
	grep -q '^E2E-END' "$log" || { echo "guard-overhead: $1 boot did not finish (see $log)" >&2; return 1; }
	grep '^BENCH ' "$log"
}

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

awk "$(cat "$top/bench/median.awk")"'
{
	for (i = 2; i <= NF; i++) {
		k = index($i, "="); F[substr($i, 1, k - 1)] = substr($i, k + 1)
	}
	key = F["boot"] " " F["mode"] " " F["file"]
	t[key] = t[key] " " F["median_ns"]
	ns[key " " F["round"]] = F["median_ns"]
	if (F["boot"] == "guard" && F["mode"] == 2) {
		m0 = ns["guard 0 " F["file"] " " F["round"]]
		if (m0 > 0) r[F["file"]] = r[F["file"]] " " F["median_ns"] / m0
	}
	if (F["ok"] != F["runs"]) bad = bad " " key
	files[F["file"]] = 1
}
END {
	printf "%-28s %12s %12s %12s %9s %9s\n", "file (median us/read)", "pristine", "guard m0", "guard m2", "m2/m0", "m0/prist"
	for (f in files) {
		p = median(t["plain 0 " f]); g0 = median(t["guard 0 " f]); g2 = median(t["guard 2 " f])
		printf "%-28s %12s %12s %12s %9s %9s\n", f,
			p == "" ? "-" : sprintf("%.1f", p / 1000),
			g0 == "" ? "-" : sprintf("%.1f", g0 / 1000),
			g2 == "" ? "-" : sprintf("%.1f", g2 / 1000),
			r[f] == "" ? "-" : sprintf("%.3f", median(r[f])),
			(g0 == "" || p == "") ? "-" : sprintf("%.2f", g0 / p)
	}
	if (bad != "") { print "guard-overhead: reads failed in:" bad; exit 1 }
}' "$results" || rc=1
echo "guard-overhead: 5 batches of $bms ms per timing, 7 rounds (m2/m0: median of per-round ratios), unprivileged reader, TCG"
exit $rc
