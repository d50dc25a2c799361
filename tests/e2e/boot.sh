#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot one e2e VM and keep its serial console in a log.
#
# Usage: [E2E_ARCH=x86_64|arm64] boot.sh KERNEL-IMAGE INITRD LOG [KERNEL-ARG...]
#
# qemu-system-x86_64 -nographic -no-reboot, -cpu max, 2 CPUs, 512 MiB,
# console on ttyS0; KVM when a probe shows it works, TCG otherwise.
# E2E_ARCH=arm64: qemu-system-aarch64 -M virt, console on ttyAMA0 (the
# PL011), TCG (tests/e2e/arch.sh).  The
# test boots add tsc=unstable (a quiet kernel log); the bench boots give
# the TSC's frequency instead (without the TSC the only clocksource left is
# jiffies: 4 ms steps).  The
# guest powers off with `reboot -f`; a hung guest is killed after
# $E2E_TIMEOUT seconds (default 900).  The log has the console with
# carriage returns removed.  $E2E_QEMU_ARGS: more qemu options (the
# benches' -icount).  Exit status: qemu's (124 on timeout), 2 on a
# setup error.
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
qemu=${QEMU:-$qemu}
command -v "$qemu" >/dev/null 2>&1 || die "$qemu: not found (package $qemu_pkg)"
[ -f "$kernel" ] || die "$kernel: no such kernel"
[ -f "$initrd" ] || die "$initrd: no such initramfs"

# /dev/kvm may exist without working (here: qemu aborts setting an MSR
# when the vCPU first runs): start the same kind of VM for 2 s and see
# whether it is still alive to take "quit".
accel=tcg
if [ "$e2e_arch" = x86_64 ] && [ -w /dev/kvm ] &&
   ( (sleep 2; echo quit) | timeout 20 "$qemu" -accel kvm -cpu max -M pc \
	-nodefaults -display none -monitor stdio >/dev/null 2>&1 ) 2>/dev/null; then
	accel=kvm
fi

append="console=$console panic=-1 loglevel=3 log_buf_len=1M rdinit=/init $*"
echo "e2e boot: $accel: $append" >&2
start=$(date +%s)
# shellcheck disable=SC2086 # E2E_QEMU_ARGS: words, e.g. "-icount shift=0"
timeout "${E2E_TIMEOUT:-900}" "$qemu" -accel $accel ${E2E_QEMU_ARGS-} $qemu_machine -smp 2 -m 512M \
	-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
	-append "$append" </dev/null >"$log.raw" 2>&1
rc=$?
tr -d '\r' <"$log.raw" >"$log" && rm -f "$log.raw"
echo "e2e boot: $(basename "$log"): $(( $(date +%s) - start )) s" >&2
exit $rc
