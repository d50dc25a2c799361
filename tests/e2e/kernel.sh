#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) an x86_64 kernel for the e2e suite and print its build
# directory (bzImage in arch/x86/boot/, Module.symvers for the test module).
#
# Usage: kernel.sh plain|guard|off|debug
#   plain  the pristine tree (scripts/kernel-tree.sh), built with
#          O=$PTRGUARD_CACHE/build-x86-plain; the tree itself is never written
#   guard  the tree `scripts/kernel-series.sh --apply` prints (pristine plus
#          the guard series), O=$PTRGUARD_CACHE/build-x86, CONFIG_SEQ_PTR_GUARD=y
#   off    the same tree with CONFIG_SEQ_PTR_GUARD unset, O=.../build-x86-off,
#          seeded from the guard build: only what the option touches is
#          rebuilt, so the hooks are proven to compile and link to nothing
#   debug  guard plus lockdep and KASAN (tests/e2e/kernel-debug.config),
#          O=$PTRGUARD_CACHE/build-x86-debug; for make e2e-full
#
# KVER=6.12 (default) or 6.1 picks the kernel (scripts/kernel-tree.sh); the
# build dirs of 6.1 end in -6.1 (build-x86-6.1, build-x86-off-6.1, ...).
#
# The config is tinyconfig plus tests/e2e/kernel.config.  A build is reused
# when the key (tree identity, fragment, this script) matches the one stored
# beside it; otherwise make runs again, incrementally.  Exit 2 on any error,
# with one line naming what failed and where the log is.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
jobs=${J:-2}
[ "$jobs" -le 2 ] 2>/dev/null || jobs=2

die() {
	echo "e2e kernel: $*" >&2
	exit 2
}

kver=${KVER:-6.12}
case $kver in
6.12) sfx= ;;
6.1) sfx=-$kver ;;
*) die "KVER=$kver: not supported (6.12, 6.1)" ;;
esac
export KVER=$kver

flavour=${1:-}
case $flavour in
plain)
	tree=$("$top/scripts/kernel-tree.sh") || die "no pristine tree"
	out=$cache/build-x86-plain$sfx
	# The pristine tree never changes after unpacking: its marker names it.
	id="pristine $tree $(stat -c %Y "$tree/.ptrguard-unpacked")"
	extra=
	;;
guard|off|debug)
	[ -x "$top/scripts/kernel-series.sh" ] || die "scripts/kernel-series.sh: missing (no guard series)"
	tree=$("$top/scripts/kernel-series.sh" --apply | tail -n 1) ||
		die "scripts/kernel-series.sh --apply failed"
	[ -d "$tree/.git" ] || die "$tree: not a git tree (from kernel-series.sh --apply)"
	out=$cache/build-x86$sfx
	# HEAD names the series; uncommitted edits are hashed in too.
	id="guard $tree $(git -C "$tree" rev-parse HEAD) $(git -C "$tree" diff HEAD | sha256sum)"
	extra="CONFIG_SEQ_PTR_GUARD=y"
	if [ "$flavour" = off ]; then
		extra="# CONFIG_SEQ_PTR_GUARD is not set"
		guard_out=$out
		out=$cache/build-x86-off$sfx
	fi
	if [ "$flavour" = debug ]; then
		out=$cache/build-x86-debug$sfx
		extra="$extra
$(cat "$here/kernel-debug.config")"
	fi
	;;
*)
	echo "usage: kernel.sh plain|guard|off|debug" >&2
	exit 2
	;;
esac

[ -f "$tree/Makefile" ] || die "$tree: no kernel tree"
key=$( { echo "$id"; cat "$here/kernel.config" "$0"; echo "$extra"; } | sha256sum | cut -d' ' -f1)
if [ -f "$out/arch/x86/boot/bzImage" ] && [ -f "$out/Module.symvers" ] &&
   [ "$(cat "$out/.ptrguard-e2e-key" 2>/dev/null)" = "$key" ]; then
	echo "$out"
	exit 0
fi

# The guard-off build starts from a copy of the guard build (never built
# from cold: the options it changes are few).
if [ "$flavour" = off ] && [ ! -f "$out/vmlinux" ] && [ -f "$guard_out/vmlinux" ]; then
	rm -rf "$out" && cp -a "$guard_out" "$out" || die "$out: cannot seed from $guard_out"
fi
mkdir -p "$out" "$top/build/e2e"
log=$top/build/e2e/kernel-$flavour$sfx.log
echo "e2e kernel: building $flavour kernel from $tree in $out (log: $log)" >&2
rm -f "$out/.ptrguard-e2e-key"
start=$(date +%s)
{
	frag=$out/ptrguard-e2e.config
	cat "$here/kernel.config" >"$frag"
	[ -z "$extra" ] || echo "$extra" >>"$frag"
	make -C "$tree" O="$out" ARCH=x86_64 tinyconfig &&
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" &&
	make -C "$tree" O="$out" ARCH=x86_64 olddefconfig
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

make -C "$tree" O="$out" ARCH=x86_64 -j"$jobs" >>"$log" 2>&1 ||
	die "build failed (log: $log)"
[ -f "$out/arch/x86/boot/bzImage" ] || die "no bzImage after the build (log: $log)"
echo "$key" >"$out/.ptrguard-e2e-key"
echo "e2e kernel: $flavour built in $(( $(date +%s) - start )) s" >&2
echo "$(( $(date +%s) - start ))" >"$out/.ptrguard-e2e-build-seconds"
echo "$out"
