# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # sourced: sets variables its callers use; they set e2e_here, e2e_top
# Sourced by the e2e scripts: what differs between the guest architectures.
#
# E2E_ARCH=x86_64 (the default) or arm64.  Sets:
#   e2e_arch     x86_64 | arm64
#   karch        the kernel's ARCH=
#   kcross       the kernel's CROSS_COMPILE= (empty on x86_64)
#   gcc          the C compiler for the guest's static programs
#   kimage       the image qemu boots, relative to the build directory
#   ksuffix      build directories: $PTRGUARD_CACHE/build-$ksuffix[-FLAVOUR]
#   kfrag        the arch's config fragment (after tests/e2e/kernel.config)
#   qemu         qemu-system-* binary and qemu_pkg, its Debian package
#   qemu_machine the -M/-cpu options
#   console      the serial console device
#   karg         kernel arguments of the test boots (x86_64: a quiet clock,
#                4-level paging where the kernel has no X86_5LEVEL
#                option to turn 5-level off: 7.1 builds it in always, and
#                the CPU's RDRAND trusted for the random pool: 6.1 trusts
#                it only with RANDOM_TRUST_CPU, and without it a guest
#                with no other entropy never keys %p's hash, printing
#                "(____ptrval____)" for the whole run; 6.2+ trust it)
#   e2e_out      where logs, modules and initramfs go
#   e2e_label    prefix of the boot names ("" on x86_64, "arm64-")
# e2e_here and e2e_top must be set by the caller.

e2e_arch=${E2E_ARCH:-x86_64}
case $e2e_arch in
x86_64)
	karch=x86_64
	kcross=
	gcc=${CC:-cc}
	kimage=arch/x86/boot/bzImage
	ksuffix=x86
	qemu="qemu-system-x86_64"
	qemu_pkg="qemu-system-x86"
	qemu_machine="-cpu max"
	console=ttyS0
	karg="tsc=unstable no5lvl random.trust_cpu=on"
	e2e_out=$e2e_top/build/e2e
	e2e_label=
	;;
arm64)
	karch=arm64
	kcross=aarch64-linux-gnu-
	gcc=aarch64-linux-gnu-gcc
	kimage=arch/arm64/boot/Image
	ksuffix=arm64
	qemu="qemu-system-aarch64"
	qemu_pkg="qemu-system-arm"
	# TCG: pointer authentication with QEMU's own cheap algorithm (the
	# architected QARMA5 costs several times the boot time).
	qemu_machine="-M virt -cpu max,pauth-impdef=on"
	console=ttyAMA0
	karg=
	e2e_out=$e2e_top/build/e2e/arm64
	e2e_label=arm64-
	;;
*)
	echo "e2e: E2E_ARCH=$e2e_arch: want x86_64 or arm64" >&2
	exit 2
	;;
esac
kfrag=$e2e_here/kernel-$e2e_arch.config
