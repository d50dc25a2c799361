#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make sure a pristine Linux tree exists in the cache and print its path.
#
#   KVER=6.12 (the default)  Debian's linux-source-6.12
#   KVER=6.1                 Debian's linux-source-6.1 (the LTS kernel
#                            Debian 12 runs)
#   KVER=7.1                 mainline: Linux 7.1.3 (with a board vendor's
#                            drivers), GitHub rikudousennin22/linux-7.1.3
#   KVER=6.19                mainline: the v6.19 import of GitHub
#                            matankalina/linux-6.19.10-fork
#
# Debian's trees are /usr/src/linux-source-$KVER.tar.xz, unpacked once into
# $PTRGUARD_CACHE/linux-$KVER (default ~/.cache/ptrguard).  The mainline
# trees are not packaged: they come from a git clone (or bare mirror) of
# the repository above that the user provides, named by
# PTRGUARD_GIT_7_1 / PTRGUARD_GIT_6_19 (default: the mirror the session
# tools fetch into, /work/.mirror/OWNER+NAME/repo), and are extracted at
# the commit pinned below.  Snapshots of those repositories may lack their
# largest blobs (>= 4 MiB, generated register headers no build here
# needs): such paths are left out and listed in .ptrguard-missing, and
# build output the repository carries is removed.
# Without the repository this exits 3 with one line saying how to provide
# it (callers print one SKIP line).  A tree is never modified: patched
# trees are made from it by other scripts.
set -eu

kver=${KVER:-6.12}
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
tree=$cache/linux-$kver
mirror=/work/.mirror
case $kver in
6.12|6.1) ;;
7.1)
	repo=rikudousennin22/linux-7.1.3
	commit=037c6bf47ba7b581c3b798e5220e3746ff6c24f2
	# The pinned commit lost what the repository's .gitignore matched
	# (block/, crypto/, certs/, every vmlinux.lds.S): those files come
	# from its first commit, the same 7.1.3 import.
	restore=5e6bc1446adbcdf2382ffceadacbe08d1a74330e
	git=${PTRGUARD_GIT_7_1:-$mirror/rikudousennin22+linux-7.1.3/repo}
	;;
6.19)
	repo=matankalina/linux-6.19.10-fork
	commit=483059de9f9396c5ccd4bbf3731d3a3d7e5b1089
	git=${PTRGUARD_GIT_6_19:-$mirror/matankalina+linux-6.19.10-fork/repo}
	;;
*)
	echo "kernel-tree: KVER=$kver: not supported (6.12, 6.1, 7.1, 6.19)" >&2
	exit 2
	;;
esac

if [ -f "$tree/.ptrguard-unpacked" ]; then
	echo "$tree"
	exit 0
fi
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

case $kver in
6.12|6.1)
	tarball=/usr/src/linux-source-$kver.tar.xz
	if [ ! -r "$tarball" ]; then
		"$(dirname "$0")/setup.sh" >&2
	fi
	if [ ! -r "$tarball" ]; then
		echo "kernel-tree: $tarball: not found (package linux-source-$kver)" >&2
		exit 2
	fi
	echo "kernel-tree: unpacking $tarball into $tree" >&2
	tar -C "$tmp" -xJf "$tarball"
	src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	;;
*)
	if ! git -C "$git" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "kernel-tree: KVER=$kver: no git repository with $repo at ${commit%"${commit#????????????}"} (clone https://github.com/$repo and set PTRGUARD_GIT_$(echo "$kver" | tr . _))" >&2
		exit 3
	fi
	echo "kernel-tree: extracting $repo at ${commit%"${commit#????????????}"} into $tree" >&2
	# An index of the commit without the blobs the repository lacks.
	GIT_INDEX_FILE=$tmp/index
	export GIT_INDEX_FILE
	git -C "$git" ls-tree -r "$commit" >"$tmp/all"
	cut -f1 "$tmp/all" | awk '{ print $3 }' |
		git -C "$git" cat-file --batch-check='%(objectname) %(objecttype)' >"$tmp/have"
	paste "$tmp/all" "$tmp/have" | awk -F'\t' '
		$3 ~ / missing$/ { print $2 > "/dev/stderr"; next }
		{ print $1 "\t" $2 }' >"$tmp/index-info" 2>"$tmp/missing"
	git -C "$git" update-index --index-info <"$tmp/index-info"
	src=$tmp/linux
	mkdir "$src"
	git -C "$git" --work-tree="$src" checkout-index -a -f
	if [ -n "${restore:-}" ]; then
		git -C "$git" diff --no-renames --name-only --diff-filter=D \
			"$restore" "$commit" -- . ':!include/config' \
			':!include/generated' ':!arch/*/include/generated' \
			':!.*' ':!Module.symvers' ':!pack' >"$tmp/restore"
		GIT_INDEX_FILE=$tmp/index.restore git -C "$git" read-tree "$restore"
		GIT_INDEX_FILE=$tmp/index.restore git -C "$git" --work-tree="$src" \
			checkout-index -f --stdin <"$tmp/restore"
		echo "kernel-tree: $(wc -l <"$tmp/restore") paths restored from ${restore%"${restore#????????????}"}" >&2
	fi
	cp "$tmp/missing" "$src/.ptrguard-missing"
	# The 7.1.3 repository also carries the output of a vendor's build
	# (include/config, include/generated, arch/arm64/include/generated):
	# kbuild refuses to build out of tree (O=) next to them.
	rm -rf "$src/include/config" "$src/include/generated" "$src"/arch/*/include/generated
	echo "kernel-tree: $(wc -l <"$tmp/missing") paths missing from the repository (listed in $tree/.ptrguard-missing)" >&2
	unset GIT_INDEX_FILE
	;;
esac
if [ -z "$src" ] || [ ! -f "$src/Makefile" ]; then
	echo "kernel-tree: KVER=$kver: no kernel tree inside" >&2
	exit 2
fi
rm -rf "$tree"
mv "$src" "$tree"
touch "$tree/.ptrguard-unpacked"
echo "$tree"
