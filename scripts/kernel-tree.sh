#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make sure the pristine Linux 6.12 tree exists in the cache and print its path.
#
# The tree is Debian's linux-source-6.12, unpacked once into
# $PTRGUARD_CACHE/linux-6.12 (default ~/.cache/ptrguard).  It is never
# modified: patched trees are made from it by other scripts.
set -eu

cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
tarball=/usr/src/linux-source-6.12.tar.xz
tree=$cache/linux-6.12

if [ -f "$tree/.ptrguard-unpacked" ]; then
	echo "$tree"
	exit 0
fi

if [ ! -r "$tarball" ]; then
	"$(dirname "$0")/setup.sh" >&2
fi
if [ ! -r "$tarball" ]; then
	echo "kernel-tree: $tarball: not found (package linux-source-6.12)" >&2
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
