#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the path of a static arm64 busybox for the arm64 e2e initramfs,
# fetching it once into the cache.
#
# Debian's busybox-static:arm64 is not installed (it would replace the
# host's x86_64 busybox): its .deb is downloaded with `apt-get download`
# (after `dpkg --add-architecture arm64` and `apt-get update`, as root,
# once) and unpacked with dpkg -x into $PTRGUARD_CACHE/busybox-arm64.
# A second run finds it there and touches nothing.  Exit 2 with one line
# on any failure.
set -eu

cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
dir=$cache/busybox-arm64
bin=$dir/bin/busybox

die() {
	echo "e2e busybox-arm64: $*" >&2
	exit 2
}

if [ -x "$bin" ] && [ -f "$dir/.ptrguard-deb" ]; then
	echo "$bin"
	exit 0
fi

sudo=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null 2>&1 || die "need root for dpkg --add-architecture arm64 and apt-get update"
	sudo=sudo
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$sudo dpkg --add-architecture arm64 || die "dpkg --add-architecture arm64 failed"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/busybox-arm64.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The arm64 package lists come only after an update that knows the arch.
if ! (cd "$tmp" && apt-get download -q busybox-static:arm64 >"$tmp/log" 2>&1); then
	$sudo apt-get update -qq >"$tmp/log" 2>&1 ||
		die "apt-get update failed (after adding arm64): $(tail -n 1 "$tmp/log")"
	(cd "$tmp" && apt-get download -q busybox-static:arm64 >"$tmp/log" 2>&1) ||
		die "apt-get download busybox-static:arm64 failed: $(tail -n 1 "$tmp/log")"
fi
deb=$(ls "$tmp"/busybox-static_*_arm64.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || die "apt-get download left no busybox-static_*_arm64.deb"
dpkg -x "$deb" "$tmp/x" || die "dpkg -x $(basename "$deb") failed"
[ -f "$tmp/x/bin/busybox" ] || die "$(basename "$deb"): no bin/busybox inside"
file -L "$tmp/x/bin/busybox" | grep -q 'ARM aarch64.*statically linked' ||
	die "$(basename "$deb"): bin/busybox is not a static aarch64 executable"
rm -rf "$dir"
mkdir -p "$dir/bin"
mv "$tmp/x/bin/busybox" "$bin"
basename "$deb" >"$dir/.ptrguard-deb"
echo "$bin"
