#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/scan-vm.sh: `ptrguard scan` against the kernel's own
# scripts/leaking_addresses.pl (pristine 6.12 tree), side by side in ONE
# boot of the e2e guest (tests/e2e: the pristine "plain" kernel under qemu,
# no_hash_pointers, kptr_restrict 0, debugfs and tracefs mounted, the test
# module loaded).  The initramfs carries the host's perl for the script
# (tests/e2e/initramfs.sh --perl) and build/ptrguard-static.
#
# The guest (guest-init.sh, e2e.run=scanbench) runs BENCH_RUNS rounds
# (default 5), each: the Perl script; the floor (bench/scan-floor.c: the
# files the scanner reads, listed by an untimed `ptrguard scan
# --debug-list-files` before the rounds, read once each, as many threads
# as the scanner, nothing done with the bytes); `ptrguard scan --dmesg
# --pids=1 /proc /sys` (the default scan: listed are the findings others
# than root can read); the same with --all (every finding, text) and with
# --all --json; the order reversed every other round; then, untimed, the
# default scan with --debug-times (its phases).  All walk the same roots:
# /proc with /proc/1 the only pid directory, /sys (debugfs and tracefs are
# mounted below it), and the kernel log.  Times are busybox time's, in the
# guest, which by default runs under qemu's -icount, so that they count
# instructions (SCANVM_CLOCK below), with its TSC frequency given (a vDSO
# clock for --debug-times).
#
# Printed: median wall, user and system seconds of each run and the ratios
# (the default scan / the floor, the script / the default scan, and the
# script / each scan), the median of each phase, then the findings diff of
# the last round: the Perl
# script's output against the --json findings as (file, address) pairs
# (tests/scan/la-compare.py, which re-applies the script's pattern and
# false-positive filters to its output lines), and the binary findings
# (le64) that only we report.
#
# Normalisation: tracefs is mounted at /sys/kernel/tracing and automounted
# at /sys/kernel/debug/tracing; the guest checks that both are the same
# directory (device and inode).  The Perl script reads it under both paths,
# the scanner enters a directory once, so before comparing, both sides'
# paths under /sys/kernel/tracing/ are rewritten to /sys/kernel/debug/
# tracing/.  In /proc/timer_list, the active timers of processes
# (hrtimer_wakeup: a sleeping task, such as our own watchdog or the timeout
# wrapper; it_real_fn: an alarm, such as the script's own) belong to
# whichever process sleeps at that moment, so the script's are listed and
# set aside.  The script's "dmesg:" lines are compared with our /dev/kmsg
# findings.  Nothing else is rewritten.
#
# Exit status: 0 when ours is a superset of the script's findings (every
# pair found, or dropped by our model with a stated reason, listed), our
# scan found the test module's ELF note (/sys/module/ptrguard_e2e/notes/
# .note.PtrGuard: offset 24, le64, the kallsyms address of e2e_obj) and the
# script did not, and both tools finished in every round without timing
# out; 1 otherwise; 2 on a setup error.
#
# Environment: BENCH_RUNS, SCANVM_CLOCK (icount or time), PTRGUARD_CACHE,
# J, E2E_TIMEOUT (boot.sh);
# SCANVM_LOG=FILE judges that serial log again without building or booting.
# Outputs: build/e2e/scanvm.log (serial console), build/e2e/scanvm/ (the
# decoded outputs of the last round).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
e2e=$top/tests/e2e
out=$top/build/e2e
res=$out/scanvm
runs=${BENCH_RUNS:-5}
export PTRGUARD_CACHE=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}

die() {
	echo "scan-vm: $*" >&2
	exit 2
}

mkdir -p "$out"
rm -rf "$res"
mkdir -p "$res"
command -v python3 >/dev/null || die "python3: not found (the findings diff needs it)"
log=$out/scanvm.log
if [ -n "${SCANVM_LOG:-}" ]; then
	log=$SCANVM_LOG		# judge an earlier boot's log again
	[ -r "$log" ] || die "$log: cannot read it"
else
make -s -C "$top" build/ptrguard-static >"$out/scanvm-static.log" 2>&1 ||
	die "build/ptrguard-static: build failed (see $out/scanvm-static.log)"
kdir=$("$e2e/kernel.sh" plain) || die "plain kernel: build failed (see $out/kernel-plain.log)"
mdir=$out/module-scanvm
rm -rf "$mdir"
mkdir -p "$mdir"
cp "$e2e/module/Kbuild" "$e2e/module/ptrguard_e2e.c" "$mdir/"
make -C "$kdir" M="$mdir" ARCH=x86_64 modules >"$out/module-scanvm.log" 2>&1 ||
	die "test module: build failed (see $out/module-scanvm.log)"
initrd=$out/initramfs-scanvm.cpio.gz
"$e2e/initramfs.sh" --perl "$initrd" "$mdir/ptrguard_e2e.ko" >/dev/null ||
	die "initramfs with perl: build failed"

# SCANVM_CLOCK=icount (default): qemu's -icount shift=0,sleep=off, one
# instruction a nanosecond of guest time and a 1 GHz TSC: the guest's
# times count instructions (the kernel's and the tools'), the same from run
# to run whatever else the host runs (bench/guard-overhead.sh's method).
# SCANVM_CLOCK=time: the guest runs in real time (its times vary with the
# host's load); under TCG the guest's PIT calibration of the TSC often
# fails and leaves jiffies (4 ms steps, no vDSO), so it is given the
# host's TSC frequency.
clock=${SCANVM_CLOCK:-icount}
case $clock in
icount)
	qemu_args="-icount shift=0,sleep=off"
	tsc="tsc_early_khz=1000000 tsc=reliable"
	;;
time)
	qemu_args=
	tsc=
	if grep -qw constant_tsc /proc/cpuinfo; then
		khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
		[ -n "$khz" ] && tsc="tsc_early_khz=$khz tsc=reliable"
	fi
	;;
*)
	die "SCANVM_CLOCK=$clock: want icount or time"
	;;
esac
echo "$clock" >"$log.clock"
start=$(date +%s.%N)
# shellcheck disable=SC2086 # $tsc: two words or none
E2E_QEMU_ARGS=$qemu_args "$e2e/boot.sh" "$kdir/arch/x86/boot/bzImage" "$initrd" "$log" \
	e2e.run=scanbench e2e.boot=plain-scanbench e2e.runs="$runs" no_hash_pointers $tsc \
	2>"$log.accel"
qrc=$?
cat "$log.accel" >&2
echo "$start $(date +%s.%N)" >"$log.host-time"
grep -q '^E2E-END' "$log" || die "the guest did not finish (qemu exit $qrc; see $log)"
fi
if grep '^INFO error=' "$log"; then
	die "guest setup failed (see $log)"
fi

# The outputs of the last round, decoded.
for name in perl.out perl.err ptrguard.json ptrguard.err ptrguard.ign; do
	awk -v n="$name" 'index($0, "BLOB-BEGIN name=" n " bytes=") == 1 { f = 1; next }
		f && $0 == "BLOB-END name=" n { exit }
		f' "$log" | base64 -d | gunzip >"$res/$name" ||
		die "$name: could not decode it from $log"
done

rc=0
echo "scan-vm: $(sed -n 's/^INFO kernel=\([^ ]*\).*/kernel \1/p' "$log"), $(sed -n 's/^SCANBENCH perl=\([^ ]*\) runs=\([^ ]*\).*/perl \1, \2 rounds/p' "$log"), guest with $(sed -n 's/^INFO kernel=.* cpus=\([0-9]*\).*/\1/p' "$log") vCPU(s)$(sed -n 's/^e2e boot: \([a-z]*\):.*/ under \1/p' "$log.accel" 2>/dev/null), clocksource $(sed -n 's/^INFO clocksource=//p' "$log"), clock $(cat "$log.clock" 2>/dev/null || echo unknown); host load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "scan-vm: the floor reads the $(sed -n 's/^SCANBENCH files=\([0-9]*\).*/\1 files/p' "$log") the scanner read, with $(sed -n 's/^SCANBENCH files=.* jobs=//p' "$log") thread(s)"
grep '^SCANBENCH tool=' "$log" >"$res/times"
awk "$(cat "$top/bench/median.awk")"'
function ratio(a, b) {
	return b > 0 ? a / b : 0
}
{
	delete F
	for (i = 2; i <= NF; i++) {
		k = index($i, "="); F[substr($i, 1, k - 1)] = substr($i, k + 1)
	}
	t = F["tool"]
	wall[t] = wall[t] " " F["wall"]; user[t] = user[t] " " F["user"]
	sys[t] = sys[t] " " F["sys"]; cpu[t] = cpu[t] " " (F["user"] + F["sys"])
	lines[t] = F["lines"]; n[t]++
	# perl and the floor exit 0, the scanner 1 (addresses found); 124: timed out
	want = t == "perl" || t == "floor" ? 0 : 1
	if (F["rc"] != want) {
		printf "scan-vm: %s round %s exited %s (want %s)\n", t, F["round"], F["rc"], want
		bad = 1
	}
}
# A ratio with two decimals, "n/a" over a zero time (a 0.00 from busybox time).
function fmt(a, b) {
	return b > 0 ? sprintf("%.2fx", a / b) : "n/a"
}
function row(label, a, b) {
	printf "%-34s %8s %8s %8s %8s\n", label,
		fmt(W[a], W[b]), fmt(U[a], U[b]), fmt(S[a], S[b]), fmt(C[a], C[b])
}
END {
	printf "%-34s %8s %8s %8s %8s\n", "median of " n["perl"] " rounds (s)", "wall", "user", "sys", "cpu"
	split("floor ptrguard-default perl ptrguard ptrguard-json", tools, " ")
	name["floor"] = "floor (scan-floor: read once)"
	name["ptrguard-default"] = "ptrguard scan (default)"
	name["perl"] = "leaking_addresses.pl"
	name["ptrguard"] = "ptrguard scan --all (text)"
	name["ptrguard-json"] = "ptrguard scan --all --json"
	for (i = 1; i <= 5; i++) {
		t = tools[i]
		W[t] = median(wall[t]); U[t] = median(user[t]); S[t] = median(sys[t]); C[t] = median(cpu[t])
		printf "%-34s %8.2f %8.2f %8.2f %8.2f\n", name[t], W[t], U[t], S[t], C[t]
	}
	row("ratio default scan / floor", "ptrguard-default", "floor")
	row("ratio perl / default scan", "perl", "ptrguard-default")
	row("ratio perl / --all text", "perl", "ptrguard")
	row("ratio perl / --all --json", "perl", "ptrguard-json")
	printf "output lines (last round): perl %d, ptrguard default %d, --all text %d, --all --json %d (with [ and ])\n",
		lines["perl"], lines["ptrguard-default"], lines["ptrguard"], lines["ptrguard-json"]
	exit bad
}' "$res/times" || rc=1
# Where the default scan's time goes: the median of each --debug-times
# field over the rounds (builtin/scan.c, print_times, says what each is).
grep '^SCANBENCH times ' "$log" | awk "$(cat "$top/bench/median.awk")"'
{
	for (i = 4; i <= NF; i++) {
		k = index($i, "="); f = substr($i, 1, k - 1)
		if (!(f in v)) order[++nf] = f
		v[f] = v[f] " " substr($i, k + 1)
	}
}
END {
	if (!nf) { print "phases: no SCANBENCH times lines"; exit }
	printf "phases of the default scan (--debug-times, median of %d rounds, s):", NR
	for (i = 1; i <= nf; i++)
		printf " %s=%s", order[i], order[i] == "rfiles" ? median(v[order[i]]) : sprintf("%.3f", median(v[order[i]]))
	printf "\n"
}'
# The guest's clock against the host's: the guest's uptime after its
# last output against the whole qemu run as the host timed it (which
# also holds the firmware, the kernel's decompression and the power-off).
b=$(sed -n 's/^SCANBENCH begin_uptime=//p' "$log")
e=$(sed -n 's/^SCANBENCH end_uptime=//p' "$log")
d=$(sed -n 's/^SCANBENCH done_uptime=//p' "$log")
h=$(awk '{ printf "%.1f", $2 - $1 }' "$log.host-time" 2>/dev/null)
echo "guest clock: rounds from uptime ${b:-?} to ${e:-?} s, output sent by ${d:-?} s; qemu ran ${h:-?} s by the host clock"
sed 's/^/perl stderr: /' "$res/perl.err" | sort | uniq -c | sed 's/^ *\([0-9]*\) /\1x /'

# The alias: both tracefs paths must be the same directory.
ids=$(sed -n 's/^SCANBENCH dir=[^ ]* id=//p' "$log" | sort -u | wc -l)
[ "$ids" = 1 ] ||
	die "/sys/kernel/tracing and /sys/kernel/debug/tracing are not the same directory in the guest: no normalisation"
# Timers of processes (a sleep's hrtimer_wakeup, an alarm's it_real_fn)
# in /proc/timer_list's active timer lines belong to whichever process
# sleeps at that moment: the script's own alarm, each tool's timeout
# wrapper, our watchdog.  They differ from run to run and are set aside
# (listed, not compared); every other timer_list line is compared.
volatile='^/proc/timer_list:  #[0-9]*: <[0-9a-f]*>, \(hrtimer_wakeup\|it_real_fn\), '
grep "$volatile" "$res/perl.out" >"$res/perl.volatile"
grep -v "$volatile" "$res/perl.out" |
	sed 's|^/sys/kernel/tracing/|/sys/kernel/debug/tracing/|; s|^\(Path name may contain address: \)/sys/kernel/tracing/|\1/sys/kernel/debug/tracing/|' \
	>"$res/perl.norm"
sed 's|"file": "/sys/kernel/tracing/|"file": "/sys/kernel/debug/tracing/|' \
	"$res/ptrguard.json" >"$res/ptrguard.norm.json"
{ echo '['; sed 's/,$//; $!s/$/,/' "$res/ptrguard.ign" | sed 's|"file": "/sys/kernel/tracing/|"file": "/sys/kernel/debug/tracing/|'; echo ']'; } \
	>"$res/ptrguard.ign.json"

echo
echo "findings diff (last round; tracefs paths normalised, see the header):"
echo "set aside: $(wc -l <"$res/perl.volatile") process timers in the script's /proc/timer_list (not compared):"
sed 's/^/  /' "$res/perl.volatile"
python3 "$top/tests/scan/la-compare.py" "$res/perl.norm" "$res/ptrguard.norm.json" \
	"$res/ptrguard.ign.json" --dmesg --superset || {
	echo "scan-vm: FAIL: a finding of leaking_addresses.pl that ptrguard scan neither reports nor drops with a reason"
	rc=1
}

# The binary leak: what we find in files with NUL bytes, and the module's
# ELF note in particular, which the script must have missed.
echo "ours in binary files (le64), which leaking_addresses.pl does not read without --kallsyms:"
grep '"encoding": "le64"' "$res/ptrguard.json" | sed 's/^ *//; s/,$//' | sed 's/^/  /'
note=/sys/module/ptrguard_e2e/notes/.note.PtrGuard
addr=$(sed -n 's/^SCANBENCH perl=.* note_addr=\([0-9a-f]*\).*/\1/p' "$log")
case $addr in
ffff[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) ;;
*) echo "scan-vm: FAIL: no kallsyms address of e2e_obj from the guest ($addr)"; rc=1 ;;
esac
if grep -F "\"file\": \"$note\", \"offset\": 24, " "$res/ptrguard.json" |
   grep -qF "\"address\": \"0x$addr\", \"encoding\": \"le64\""; then
	echo "scan-vm: ours finds the binary leak $note @24: $addr (e2e_obj)"
else
	echo "scan-vm: FAIL: ours does not report $note @24 = $addr"
	rc=1
fi
if grep -qF "$note" "$res/perl.out"; then
	echo "scan-vm: FAIL: leaking_addresses.pl reports $note (the bench expects it to miss it)"
	rc=1
else
	echo "scan-vm: leaking_addresses.pl misses it (a binary file, skipped without --kallsyms)"
fi
[ $rc = 0 ] && echo "scan-vm: superset holds" || echo "scan-vm: FAILED"
exit $rc
