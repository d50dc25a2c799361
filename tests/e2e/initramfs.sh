#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the e2e initramfs (newc cpio, gzip) and print its path.
#
# Usage: [E2E_ARCH=x86_64|arm64] initramfs.sh [--perl] OUT.cpio.gz MODULE.ko
#
# Contents: busybox-static with one symlink per applet, /init
# (tests/e2e/guest-init.sh), the static helpers e2e-read and e2e-sockets
# (built here from tests/e2e/*.c), the test module, the static ptrguard as
# /bin/ptrguard when that exists (the live scanner hook), and the series'
# kselftest that tests/e2e/run builds (proc-seq-ptr-hash in the arch's e2e
# output dir) as /bin/proc-seq-ptr-hash when that exists.  Exit 2 on any
# error, naming the missing input.
#
# E2E_ARCH=arm64 (tests/e2e/arch.sh): Debian's busybox-static:arm64
# (tests/e2e/busybox-arm64.sh; its applets are those of the host's
# busybox-static, the same Debian source), the helpers built with
# aarch64-linux-gnu-gcc -static, build/ptrguard-static-arm64.
#
# --perl (bench/scan-vm.sh only; the test initramfs stays small): also the
# host's perl and the kernel's scripts/leaking_addresses.pl from the
# pristine tree, as /lib/leaking_addresses.pl, and the scanner's floor,
# bench/scan-floor.c, built static as /bin/scan-floor.  What perl needs is found by
# running that script on the host over a small directory (a text file with
# an address, a binary file, an address in a path name) with a module whose
# END block prints %INC and DynaLoader's shared objects; those files, perl,
# and every library ldd names for them are copied to the same paths.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

die() {
	echo "e2e initramfs: $*" >&2
	exit 2
}

perl=no
if [ "${1:-}" = --perl ]; then
	perl=yes
	shift
fi
[ $# -eq 2 ] || { echo "usage: initramfs.sh [--perl] OUT.cpio.gz MODULE.ko" >&2; exit 2; }
out=$1
ko=$2
e2e_here=$here e2e_top=$top
# shellcheck source-path=SCRIPTDIR source=arch.sh
. "$here/arch.sh"
busybox=$(command -v busybox) || die "busybox: not found (package busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic executable' ||
	die "$busybox: not statically linked (package busybox-static)"
[ -f "$ko" ] || die "$ko: no such module"
guestbox=$busybox
ptrguard_bin=$top/build/ptrguard-static
if [ "$e2e_arch" = arm64 ]; then
	guestbox=$("$here/busybox-arm64.sh") || die "no arm64 busybox (tests/e2e/busybox-arm64.sh)"
	ptrguard_bin=$top/build/ptrguard-static-arm64
	[ "$perl" = no ] || die "--perl: the host's perl is x86_64, not for an arm64 guest"
fi
command -v "$gcc" >/dev/null 2>&1 || die "$gcc: not found (package gcc-aarch64-linux-gnu)"

# copy_abs FILE: FILE (symlinks resolved) to the same path in the stage.
copy_abs() {
	mkdir -p "$stage$(dirname "$1")"
	cp -L "$1" "$stage$1" || die "$1: copy failed"
}

# --perl: perl, the modules and libraries it loads to run
# leaking_addresses.pl, and the script.
add_perl() {
	hostperl=$(command -v perl) || die "perl: not found on the host"
	ksrc=$("$top/scripts/kernel-tree.sh") || die "no pristine kernel tree (scripts/kernel-tree.sh)"
	la=$ksrc/scripts/leaking_addresses.pl
	[ -r "$la" ] || die "$la: not found"
	probe=$stage.perl
	mkdir -p "$probe/dir/ffff888000002000"
	echo "x ffff888000001000 y" >"$probe/dir/text"
	printf 'bin\000\377\001ary' >"$probe/dir/binary"
	cat >"$probe/incdump.pm" <<'EOF'
package incdump;
END {
	print STDERR "INC-FILE $_\n" for values %INC;
	print STDERR "INC-FILE $_\n" for @DynaLoader::dl_shared_objects;
}
1;
EOF
	sed "s|^my @DIRS = .*|my @DIRS = ('$probe/dir');|" "$la" >"$probe/la.pl"
	grep -q "^my @DIRS = ('$probe/dir');" "$probe/la.pl" ||
		die "$la: could not retarget its @DIRS for the probe run"
	"$hostperl" -I"$probe" -Mincdump "$probe/la.pl" >"$probe/out" 2>"$probe/err" ||
		die "$la: probe run on the host failed (see $probe/err)"
	grep -q "^$probe/dir/text: x ffff888000001000 y\$" "$probe/out" ||
		die "$la: the probe run did not report the probe's address"
	files=$(sed -n 's/^INC-FILE //p' "$probe/err" | grep -v "^$probe/")
	[ -n "$files" ] || die "$la: the probe run listed no perl modules"
	libs=$(for f in "$hostperl" $(echo "$files" | grep '\.so$'); do
		ldd "$f" | sed -n 's|.*=> \(/[^ ]*\) .*|\1|p; s|^[[:space:]]*\(/[^ ]*\) .*|\1|p'
	done | sort -u)
	[ -n "$libs" ] || die "ldd $hostperl: no libraries"
	for f in $files $libs; do
		copy_abs "$f"
	done
	copy_abs "$hostperl"
	[ -e "$stage/bin/perl" ] || ln -s "$hostperl" "$stage/bin/perl"
	cp "$la" "$stage/lib/leaking_addresses.pl"
	$gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static \
		-o "$stage/bin/scan-floor" "$top/bench/scan-floor.c" -lpthread ||
		die "bench/scan-floor.c: build failed"
	rm -rf "$probe"
}

stage=$(mktemp -d "${TMPDIR:-/tmp}/e2e-initramfs.XXXXXX")
trap 'rm -rf "$stage" "$stage.perl"' EXIT
chmod 755 "$stage"	# it becomes /: the unprivileged reader must get through
mkdir -p "$stage/bin" "$stage/lib" "$stage/proc" "$stage/sys" "$stage/dev" \
	"$stage/tmp" "$stage/etc"
# The kernel opens /dev/console for /init before anything is mounted.
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$stage/dev/console" c 5 1 || die "mknod /dev/console failed"
fi
cp "$guestbox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
for prog in e2e-read e2e-sockets; do
	$gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static \
		-o "$stage/bin/$prog" "$here/$prog.c" || die "$here/$prog.c: build failed"
done
cp "$here/guest-init.sh" "$stage/init"
chmod 755 "$stage/init"
cp "$ko" "$stage/lib/ptrguard_e2e.ko"
if [ -x "$ptrguard_bin" ]; then
	cp "$ptrguard_bin" "$stage/bin/ptrguard"
fi
if [ -x "$e2e_out/proc-seq-ptr-hash" ]; then
	cp "$e2e_out/proc-seq-ptr-hash" "$stage/bin/proc-seq-ptr-hash"
fi
[ $perl = no ] || add_perl
printf 'root:x:0:0:root:/:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' >"$stage/etc/group"

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$out.tmp" || die "cpio/gzip failed writing $out"
mv "$out.tmp" "$out"
echo "$out"
