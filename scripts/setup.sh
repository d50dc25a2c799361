#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages ptrguard needs, idempotently.
#
# The arm64 e2e guest (E2E_ARCH=arm64, make e2e-full) needs the cross
# compiler, its libc (static readers and scanner) and qemu-system-aarch64;
# its busybox is Debian's busybox-static:arm64, fetched without installing
# by tests/e2e/busybox-arm64.sh.  man-db and groff-base render the man
# page (tests/cli checks it with groff -ww and man).
#
# Only packages that are missing are installed; a machine that has them all
# is left alone and this prints nothing but one line.  Needs root (or sudo)
# only when something is missing.
set -eu

# Package: what it is for.
pkgs="
coccinelle
sparse
linux-source-6.12
linux-source-6.1
gcc
clang
make
bc
flex
bison
libelf-dev
libssl-dev
cpio
kmod
python3
perl
python3-ply
qemu-system-x86
busybox-static
gcc-aarch64-linux-gnu
libc6-dev-arm64-cross
qemu-system-arm
xz-utils
git
man-db
groff-base
"

missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "setup: all packages present"
	exit 0
fi

echo "setup: installing:$missing"
sudo=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		echo "setup: need root to install:$missing" >&2
		exit 2
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || { echo "setup: apt-get update failed" >&2; exit 2; }
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "setup: apt-get install failed for:$missing" >&2; exit 2; }
echo "setup: done"
