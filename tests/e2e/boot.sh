#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot one e2e VM and keep its serial console in a log.
#
# Usage: [E2E_ARCH=x86_64|arm64] boot.sh KERNEL-IMAGE INITRD LOG [KERNEL-ARG...]
#
# qemu-system-x86_64 -nographic -no-reboot, 2 CPUs, 512 MiB, console on
# ttyS0; KVM (-cpu host) or TCG (-cpu max), see "Accelerator" below.
# E2E_ARCH=arm64: qemu-system-aarch64 -M virt, console on ttyAMA0 (the
# PL011), TCG (tests/e2e/arch.sh).  The
# test boots add tsc=unstable (a quiet kernel log); the bench boots give
# the TSC's frequency instead (without the TSC the only clocksource left is
# jiffies: 4 ms steps).  The
# guest powers off with `reboot -f`; a hung guest is killed after
# $E2E_TIMEOUT seconds (default 900).  The log has the console with
# carriage returns removed.  $E2E_QEMU_ARGS: more qemu options (the
# benches' -icount).
#
# Stalls.  While qemu runs, its console log is polled every 0.5 s.  A
# guest whose console does not grow for $E2E_STALL seconds is stopped at
# once: "e2e boot: NAME: stalled: no console output for N s" on stderr
# and as the log's last line, exit status 3.  Default: 120 s under TCG,
# 60 s under KVM, plus the robustness run's length (e2e.secs=N among the
# kernel arguments), the longest silence known in the guest; 0: no watch.
#
# Accelerator.  E2E_ACCEL=kvm or tcg forces one (no probe, no fallback;
# anything else: exit 2).  Otherwise arm64 boots under TCG, and an x86_64
# boot under KVM when $E2E_KVM_DEV (default /dev/kvm; the harness test
# points it elsewhere) is writable, with the boot itself as the probe:
# /dev/kvm may exist and a small VM run under it while the real kernel
# dies ("KVM internal error ... emulation failure", and qemu does not
# exit).  qemu is stopped at once when, under KVM, its output says "KVM
# internal error" or "emulation failure", or when the first KVM boot
# (the probe) stalls or qemu exits non-zero by itself; the boot is then
# run again under TCG, with one line "e2e boot: kvm failed the guest
# (REASON); using tcg ...".  $E2E_ACCEL_STATE, a file, carries the
# outcome (kvm or tcg) from boot to boot: tests/e2e/run sets it once per
# run and removes it first, so each run probes once.  Without it every
# boot probes.  Under a forced E2E_ACCEL=kvm the KVM failure is reported
# like a stall ("e2e boot: NAME: kvm failed the guest: REASON", exit 3).
#
# Exit status: qemu's (124 on timeout); 2 on a setup error; 3 when boot.sh
# stopped the guest (a stall, or KVM failed it): an infrastructure
# failure, its reason on stderr and at the end of the log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
e2e_here=$here e2e_top=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=arch.sh
. "$here/arch.sh"

die() {
	echo "e2e boot: $*" >&2
	exit 2
}

[ $# -ge 3 ] || { echo "usage: boot.sh KERNEL-IMAGE INITRD LOG [KERNEL-ARG...]" >&2; exit 2; }
kernel=$1
initrd=$2
log=$3
shift 3
case ${E2E_ACCEL-} in
'' | tcg) ;;
kvm) [ "$e2e_arch" = x86_64 ] || die "E2E_ACCEL=kvm: $e2e_arch guests boot under tcg only" ;;
*) die "E2E_ACCEL=$E2E_ACCEL: want kvm or tcg" ;;
esac
case ${E2E_STALL-} in
*[!0-9]*) die "E2E_STALL=$E2E_STALL: want a number of seconds (0: no stall watch)" ;;
esac
qemu=${QEMU:-$qemu}
command -v "$qemu" >/dev/null 2>&1 || die "$qemu: not found (package $qemu_pkg)"
[ -f "$kernel" ] || die "$kernel: no such kernel"
[ -f "$initrd" ] || die "$initrd: no such initramfs"

name=$(basename "$log" .log)
raw=$log.raw
append="console=$console panic=-1 loglevel=3 log_buf_len=1M rdinit=/init $*"
# the robustness run's seconds, when the guest has one (guest-init.sh)
secs=0
for a in "$@"; do
	case $a in
	e2e.secs=*[!0-9]* | e2e.secs=) ;;
	e2e.secs=*) secs=${a#*=} ;;
	esac
done

state=${E2E_ACCEL_STATE-}
probe=0
icount=0
case " ${E2E_QEMU_ARGS-} " in *" -icount "*) icount=1 ;; esac
if [ -n "${E2E_ACCEL-}" ]; then
	accel=$E2E_ACCEL
elif [ "$e2e_arch" != x86_64 ] || [ $icount = 1 ]; then
	# arm64 guests; -icount (the benches' instruction counts), which
	# qemu refuses under KVM
	accel=tcg
elif [ -n "$state" ] && [ "$(cat "$state" 2>/dev/null)" = kvm ]; then
	accel=kvm
elif [ -n "$state" ] && [ "$(cat "$state" 2>/dev/null)" = tcg ]; then
	accel=tcg
elif [ -w "${E2E_KVM_DEV:-/dev/kvm}" ]; then
	accel=kvm probe=1
else
	accel=tcg
fi

qpid=
trap '[ -z "$qpid" ] || kill "$qpid" 2>/dev/null; exit 130' INT TERM HUP

# run ACCEL: one qemu run, its output in $raw; sets rc (qemu's status) and
# why (empty when qemu ended by itself, else why boot.sh stopped it).
run() {
	machine=$qemu_machine limit=$((120 + secs))
	if [ "$1" = kvm ]; then
		# (x86_64 only; arch.sh's -cpu max is for TCG)
		machine="-cpu host" limit=$((60 + secs))
	fi
	limit=${E2E_STALL:-$limit}
	# "e2e boot: ACCEL: " only once the accelerator is known (bench/scan-vm.sh)
	if [ $probe = 1 ]; then
		echo "e2e boot: kvm (probe): $append" >&2
	else
		echo "e2e boot: $1: $append" >&2
	fi
	: >"$raw"
	# -k: qemu gets SIGKILL 5 s after a SIGTERM it ignores
	# shellcheck disable=SC2086 # E2E_QEMU_ARGS: words, e.g. "-icount shift=0"
	timeout -k 5 "${E2E_TIMEOUT:-900}" "$qemu" -accel "$1" ${E2E_QEMU_ARGS-} $machine -smp 2 -m 512M \
		-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
		-append "$append" </dev/null >"$raw" 2>&1 &
	qpid=$!
	why=
	size=0
	seen=$(date +%s)
	while sleep 0.5 && kill -0 "$qpid" 2>/dev/null; do
		now=$(date +%s)
		n=$(wc -c <"$raw")
		if [ "$n" -ne "$size" ]; then
			size=$n seen=$now
			if [ "$1" = kvm ]; then
				why=$(grep -m 1 -F -e 'KVM internal error' -e 'emulation failure' "$raw" |
					tr -d '\r' | cut -c 1-100)
			fi
		elif [ "$limit" -gt 0 ] && [ $((now - seen)) -ge "$limit" ]; then
			why="stalled: no console output for $limit s"
		fi
		if [ -n "$why" ]; then
			kill "$qpid" 2>/dev/null
			break
		fi
	done
	wait "$qpid"
	rc=$?
	qpid=
}

start=$(date +%s)
rm -f "$log.kvm"
run "$accel"
if [ $probe = 1 ] && [ -z "$why" ] && [ $rc -ne 0 ] && [ $rc -ne 124 ]; then
	# qemu ended by itself with an error (here: it aborts setting an MSR)
	why="qemu exited $rc: $(grep -m 1 -i -e '^qemu' -e kvm "$raw" | tr -d '\r' | cut -c 1-100)"
fi
if [ "$accel" = kvm ] && [ -z "${E2E_ACCEL-}" ] && [ -n "$why" ]; then
	case $probe:$why in
	1:* | *"KVM internal error"* | *"emulation failure"*)
		if [ -n "$state" ]; then
			mkdir -p "$(dirname "$state")" && echo tcg >"$state"
			echo "e2e boot: kvm failed the guest ($why); using tcg for the rest of the run" >&2
		else
			echo "e2e boot: kvm failed the guest ($why); using tcg" >&2
		fi
		tr -d '\r' <"$raw" >"$log.kvm"
		accel=tcg probe=0
		run tcg
		;;
	esac
elif [ $probe = 1 ]; then
	# (also the "e2e boot: ACCEL:" line bench/scan-vm.sh reads)
	if [ -n "$state" ]; then
		mkdir -p "$(dirname "$state")" && echo kvm >"$state"
		echo "e2e boot: kvm: the probe boot ran; using kvm for the rest of the run" >&2
	else
		echo "e2e boot: kvm: the probe boot ran" >&2
	fi
fi
tr -d '\r' <"$raw" >"$log" && rm -f "$raw"
echo "e2e boot: $(basename "$log"): $(( $(date +%s) - start )) s under $accel" >&2
if [ -n "$why" ]; then
	case $why in
	stalled:*) ;;
	*) why="kvm failed the guest: $why" ;;
	esac
	echo "e2e boot: $name: $why" | tee -a "$log" >&2
	exit 3
fi
exit $rc
