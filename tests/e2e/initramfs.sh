#!/bin/sh
# Build the e2e initramfs (newc cpio, gzip) and print its path.
#
# Usage: initramfs.sh OUT.cpio.gz MODULE.ko
#
# Contents: busybox-static with one symlink per applet, /init
# (tests/e2e/guest-init.sh), the awk record summarizer, the static helpers
# e2e-read and e2e-sockets (built here from tests/e2e/*.c), the test module,
# and build/ptrguard-static as /bin/ptrguard when that exists (the live
# scanner hook).  Exit 2 on any error, naming the missing input.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

die() {
	echo "e2e initramfs: $*" >&2
	exit 2
}

[ $# -eq 2 ] || { echo "usage: initramfs.sh OUT.cpio.gz MODULE.ko" >&2; exit 2; }
out=$1
ko=$2
busybox=$(command -v busybox) || die "busybox: not found (package busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic executable' ||
	die "$busybox: not statically linked (package busybox-static)"
[ -f "$ko" ] || die "$ko: no such module"

stage=$(mktemp -d "${TMPDIR:-/tmp}/e2e-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"	# it becomes /: the unprivileged reader must get through
mkdir -p "$stage/bin" "$stage/lib" "$stage/proc" "$stage/sys" "$stage/dev" \
	"$stage/tmp" "$stage/etc"
# The kernel opens /dev/console for /init before anything is mounted.
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$stage/dev/console" c 5 1 || die "mknod /dev/console failed"
fi
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
for prog in e2e-read e2e-sockets; do
	${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static \
		-o "$stage/bin/$prog" "$here/$prog.c" || die "$here/$prog.c: build failed"
done
cp "$here/guest-init.sh" "$stage/init"
chmod 755 "$stage/init"
cp "$here/summarize.awk" "$stage/lib/summarize.awk"
cp "$ko" "$stage/lib/ptrguard_e2e.ko"
if [ -x "$top/build/ptrguard-static" ]; then
	cp "$top/build/ptrguard-static" "$stage/bin/ptrguard"
fi
printf 'root:x:0:0:root:/:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' >"$stage/etc/group"

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$out.tmp" || die "cpio/gzip failed writing $out"
mv "$out.tmp" "$out"
echo "$out"
