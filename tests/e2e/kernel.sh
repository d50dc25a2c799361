#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) a kernel for the e2e suite and print its build directory
# (the image qemu boots, Module.symvers for the test module).
#
# Usage: [E2E_ARCH=x86_64|arm64] [KVER=6.12|6.1|7.1] kernel.sh plain|guard|debug
#   plain  the pristine tree (scripts/kernel-tree.sh), built with
#          O=$PTRGUARD_CACHE/build-ARCH-plain; the tree itself is never written
#   guard  the tree `scripts/kernel-series.sh --apply` prints (pristine plus
#          the guard series), O=$PTRGUARD_CACHE/build-ARCH, with the series'
#          KUnit suite built in when the tree has it (CONFIG_KUNIT=y,
#          CONFIG_SEQ_FILE_KUNIT_TEST=y: it runs at boot, on the guest's
#          own layout).  The guard has no config option: it is in every
#          build of the tree, and off is the sysctl kernel.seq_ptr_guard=0.
#   debug  guard plus lockdep and KASAN (tests/e2e/kernel-debug.config),
#          O=$PTRGUARD_CACHE/build-ARCH-debug; for make e2e-full
# ARCH is x86 (bzImage) or arm64 (Image, cross-built with Debian's
# gcc-aarch64-linux-gnu); tests/e2e/arch.sh has what differs.
#
# KVER=6.12 (default), 6.1 or 7.1 picks the kernel (scripts/kernel-tree.sh);
# the build dirs of the others end in -KVER (build-x86-6.1, build-x86-plain-7.1,
# ...).
#
# The config is tinyconfig plus tests/e2e/kernel.config plus the arch's
# kernel-ARCH.config plus kernel-KVER.config when there is one (7.1: a
# vendor driver to turn off).  A build is reused
# when the key (tree identity, fragment, this script) matches the one stored
# beside it; otherwise make runs again, incrementally.  Exit 2 on any error,
# with one line naming what failed and where the log is.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
e2e_here=$here e2e_top=$top
# shellcheck source-path=SCRIPTDIR source=arch.sh
. "$here/arch.sh"
jobs=${J:-2}
[ "$jobs" -le 2 ] 2>/dev/null || jobs=2

die() {
	echo "e2e kernel: $*" >&2
	exit 2
}

kver=${KVER:-6.12}
case $kver in
6.12) sfx= ;;
6.1|7.1) sfx=-$kver ;;
*) die "KVER=$kver: not supported (6.12, 6.1, 7.1)" ;;
esac
# what this kernel version needs besides (7.1: a vendor driver off)
kver_frag=$here/kernel-$kver.config
[ -f "$kver_frag" ] || kver_frag=/dev/null
export KVER=$kver

flavour=${1:-}
case $flavour in
plain)
	tree=$("$top/scripts/kernel-tree.sh") || die "no pristine tree"
	out=$cache/build-$ksuffix-plain$sfx
	# The pristine tree never changes after unpacking: its marker names it.
	id="pristine $tree $(stat -c %Y "$tree/.ptrguard-unpacked")"
	extra=
	;;
guard|debug)
	[ -x "$top/scripts/kernel-series.sh" ] || die "scripts/kernel-series.sh: missing (no guard series)"
	tree=$("$top/scripts/kernel-series.sh" --apply | tail -n 1) ||
		die "scripts/kernel-series.sh --apply failed"
	[ -d "$tree/.git" ] || die "$tree: not a git tree (from kernel-series.sh --apply)"
	out=$cache/build-$ksuffix$sfx
	# HEAD names the series; uncommitted edits are hashed in too.
	id="guard $tree $(git -C "$tree" rev-parse HEAD) $(git -C "$tree" diff HEAD | sha256sum)"
	# The series' KUnit suite, built into fs/seq_file.c: it runs at
	# boot and its KTAP lines are in the guest's kernel log.
	extra=
	if grep -q '^config SEQ_FILE_KUNIT_TEST$' "$tree/lib/Kconfig.debug" 2>/dev/null; then
		extra="CONFIG_RUNTIME_TESTING_MENU=y
CONFIG_KUNIT=y
CONFIG_SEQ_FILE_KUNIT_TEST=y"
	fi
	if [ "$flavour" = debug ]; then
		out=$cache/build-$ksuffix-debug$sfx
		extra="$extra
$(cat "$here/kernel-debug.config")"
	fi
	;;
*)
	echo "usage: kernel.sh plain|guard|debug" >&2
	exit 2
	;;
esac

[ -f "$tree/Makefile" ] || die "$tree: no kernel tree"
key=$( { echo "$id"; cat "$here/kernel.config" "$kfrag" "$kver_frag" "$here/arch.sh" "$0"; echo "$extra"; } | sha256sum | cut -d' ' -f1)
if [ -f "$out/$kimage" ] && [ -f "$out/Module.symvers" ] &&
   [ "$(cat "$out/.ptrguard-e2e-key" 2>/dev/null)" = "$key" ]; then
	echo "$out"
	exit 0
fi

[ -z "$kcross" ] || command -v "${kcross}gcc" >/dev/null 2>&1 || "$top/scripts/setup.sh" >&2
[ -z "$kcross" ] || command -v "${kcross}gcc" >/dev/null 2>&1 ||
	die "${kcross}gcc: not found (package gcc-aarch64-linux-gnu)"
mkdir -p "$out" "$e2e_out"
log=$e2e_out/kernel-$flavour$sfx.log
kmake="make -C $tree O=$out ARCH=$karch${kcross:+ CROSS_COMPILE=$kcross}"
echo "e2e kernel: building $e2e_arch $flavour kernel from $tree in $out (log: $log)" >&2
rm -f "$out/.ptrguard-e2e-key"
start=$(date +%s)
{
	frag=$out/ptrguard-e2e.config
	cat "$here/kernel.config" "$kfrag" "$kver_frag" >"$frag"
	[ -z "$extra" ] || echo "$extra" >>"$frag"
	$kmake tinyconfig &&
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" &&
	$kmake olddefconfig
} >"$log" 2>&1 || die "configuring failed (log: $log)"

# Every fragment line must have survived olddefconfig.
missing=
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qx "$line" "$out/.config" || missing="$missing ${line%%=*}"
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		! grep -q "^$opt=" "$out/.config" || missing="$missing $opt"
		;;
	esac
done <"$out/ptrguard-e2e.config"
[ -z "$missing" ] || die "options not taken by Kconfig:$missing (see $out/.config)"

$kmake -j"$jobs" >>"$log" 2>&1 ||
	die "build failed (log: $log)"
[ -f "$out/$kimage" ] || die "no $kimage after the build (log: $log)"
echo "$key" >"$out/.ptrguard-e2e-key"
echo "e2e kernel: $e2e_arch $flavour built in $(( $(date +%s) - start )) s" >&2
echo "$(( $(date +%s) - start ))" >"$out/.ptrguard-e2e-build-seconds"
echo "$out"
