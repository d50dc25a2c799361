#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the guarded tree in the configurations the series must survive,
# too slow for `make test` (minutes each on 2 cores): run it by hand or
# from a bench/CI job.
#
#   check-kernel.sh [CONFIG...]
#
# CONFIG is one of (default: all of them, in this order):
#   allno-off   x86_64 allnoconfig: no guard; the hooks
#               compile to nothing
#   allno-on    x86_64 allnoconfig + SEQ_PTR_GUARD (mode 2): the guard
#               without MODULES and most of the kernel
#   uml-off     UML with KUnit but without the guard
#   bisect      every patch of the series on its own: at each commit, in a
#               worktree of linux-guard, x86_64 tinyconfig + the e2e
#               fragment + the guard and its KUnit suite, and the objects
#               of the files the series touches (those that exist at that
#               commit) built with -Werror
#   bloat       scripts/bloat-o-meter between the e2e kernel without and
#               with the guard (tests/e2e/kernel.sh off and guard: the off
#               build is seeded from the guard build, so kbuild rebuilds
#               only what the option touches); the figures for the cover
#               letter, in build/test-logs/check-kernel/bloat.txt
# Build dirs: $PTRGUARD_CACHE/build-check-CONFIG (build-check-CONFIG-6.1
# for KVER=6.1).  Prints PASS:/FAIL: per configuration with its build
# time; exits non-zero if any failed.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
jobs=${J:-2}
case ${KVER:-6.12} in
6.12) sfx= ;;
6.1) sfx=-$KVER ;;
*) echo "check-kernel: KVER=$KVER: not supported (6.12, 6.1)" >&2; exit 2 ;;
esac
tree=$("$top/scripts/kernel-series.sh" --apply | tail -n 1) || exit 2
logs=$top/build/test-logs/check-kernel$sfx
mkdir -p "$logs"
failed=0

# The objects the series is about; at each commit, those whose source
# exists there are built.
SERIES_OBJS="lib/vsprintf.o lib/seq_buf.o fs/seq_file.o lib/seq_ptr_guard.o lib/seq_ptr_guard_kunit.o"

bisect() {
	wt=$cache/guard-bisect$sfx
	if [ ! -e "$wt/.git" ]; then
		rm -rf "$wt"
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$wt" HEAD || return 1
	fi
	frag=$1/ptrguard-bisect.config
	{
		cat "$top/tests/e2e/kernel.config" "$top/tests/e2e/kernel-x86_64.config"
		# tinyconfig hides the KUnit suite's option behind this menu
		printf 'CONFIG_SEQ_PTR_GUARD=y\nCONFIG_RUNTIME_TESTING_MENU=y\nCONFIG_KUNIT=y\nCONFIG_SEQ_PTR_GUARD_KUNIT_TEST=y\n'
	} >"$frag"
	for c in $(git -C "$tree" rev-list --reverse ptrguard-base..HEAD); do
		git -C "$wt" checkout -q -f --detach "$c" || return 1
		echo "bisect: $(git -C "$wt" log -1 --format=%s)"
		objs=
		for o in $SERIES_OBJS; do
			[ -f "$wt/${o%.o}.c" ] && objs="$objs $o"
		done
		# Kconfig drops the options a commit does not have yet.
		make -C "$wt" -s O="$1" ARCH=x86_64 tinyconfig &&
		"$wt/scripts/kconfig/merge_config.sh" -m -O "$1" "$1/.config" "$frag" >/dev/null &&
		make -C "$wt" -s O="$1" ARCH=x86_64 olddefconfig &&
		# shellcheck disable=SC2086
		make -C "$wt" -s O="$1" ARCH=x86_64 -j"$jobs" KCFLAGS=-Werror $objs ||
			{ echo "bisect: FAILED at $(git -C "$wt" log -1 --format='%h %s')"; return 1; }
	done
}

bloat() {
	on=$("$top/tests/e2e/kernel.sh" guard) &&
	off=$("$top/tests/e2e/kernel.sh" off) &&
	(cd "$tree" && ./scripts/bloat-o-meter "$off/vmlinux" "$on/vmlinux") >"$logs/bloat.txt" &&
	cat "$logs/bloat.txt"
}

build() {
	name=$1
	out=$cache/build-check-$name$sfx
	mkdir -p "$out"
	start=$(date +%s)
	case $name in
	allno-off)
		make -C "$tree" -s O="$out" ARCH=x86_64 allnoconfig &&
		make -C "$tree" -s O="$out" ARCH=x86_64 -j"$jobs" vmlinux
		;;
	allno-on)
		# Seeded from allno-off when there is one: only what the
		# guard's options touch is rebuilt then.
		if [ -f "$cache/build-check-allno-off$sfx/vmlinux" ] && [ ! -f "$out/vmlinux" ]; then
			rm -rf "$out" && cp -a "$cache/build-check-allno-off$sfx" "$out"
		fi &&
		make -C "$tree" -s O="$out" ARCH=x86_64 allnoconfig &&
		"$tree/scripts/config" --file "$out/.config" \
			-e SEQ_PTR_GUARD --set-val SEQ_PTR_GUARD_DEFAULT_MODE 2 &&
		make -C "$tree" -s O="$out" ARCH=x86_64 olddefconfig &&
		grep -q '^CONFIG_SEQ_PTR_GUARD=y' "$out/.config" &&
		make -C "$tree" -s O="$out" ARCH=x86_64 -j"$jobs" vmlinux &&
		[ -f "$out/lib/seq_ptr_guard.o" ]
		;;
	bisect)
		bisect "$out"
		;;
	bloat)
		bloat "$out"
		;;
	uml-off)
		printf 'CONFIG_KUNIT=y\nCONFIG_PROC_FS=y\n# CONFIG_SEQ_PTR_GUARD is not set\n' \
			>"$out/.kunitconfig" &&
		(cd "$tree" && python3 tools/testing/kunit/kunit.py build \
			--kunitconfig="$out/.kunitconfig" --build_dir="$out" --jobs="$jobs") &&
		! grep -q '^CONFIG_SEQ_PTR_GUARD=y' "$out/.config"
		;;
	*)
		echo "check-kernel: $name: unknown configuration" >&2
		return 2
		;;
	esac >"$logs/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "PASS: build $name ($(($(date +%s) - start)) s)"
	else
		echo "FAIL: build $name ($(($(date +%s) - start)) s, see $logs/$name.log)"
		tail -n 20 "$logs/$name.log"
		failed=1
	fi
}

[ $# -gt 0 ] || set -- allno-off allno-on uml-off
for c in "$@"; do
	build "$c"
done
exit $failed
