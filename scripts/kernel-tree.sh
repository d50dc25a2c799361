#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make sure a pristine Linux tree exists in the cache and print its path.
#
#   KVER=6.12 (the default)  Debian's linux-source-6.12
#   KVER=6.1                 Debian's linux-source-6.1 (the LTS kernel
#                            Debian 12 runs)
#
# The tree is /usr/src/linux-source-$KVER.tar.xz, unpacked once into
# $PTRGUARD_CACHE/linux-$KVER (default ~/.cache/ptrguard).  It is never
# modified: patched trees are made from it by other scripts.
set -eu

kver=${KVER:-6.12}
case $kver in
6.12|6.1) ;;
*)
	echo "kernel-tree: KVER=$kver: not supported (6.12, 6.1)" >&2
	exit 2
	;;
esac
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
tarball=/usr/src/linux-source-$kver.tar.xz
tree=$cache/linux-$kver

if [ -f "$tree/.ptrguard-unpacked" ]; then
	echo "$tree"
	exit 0
fi

if [ ! -r "$tarball" ]; then
	"$(dirname "$0")/setup.sh" >&2
fi
if [ ! -r "$tarball" ]; then
	echo "kernel-tree: $tarball: not found (package linux-source-$kver)" >&2
	exit 2
fi

echo "kernel-tree: unpacking $tarball into $tree" >&2
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xJf "$tarball"
src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
if [ -z "$src" ] || [ ! -f "$src/Makefile" ]; then
	echo "kernel-tree: $tarball: no kernel tree inside" >&2
	exit 2
fi
rm -rf "$tree"
mv "$src" "$tree"
touch "$tree/.ptrguard-unpacked"
echo "$tree"
