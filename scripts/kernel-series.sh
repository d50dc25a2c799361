#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Assemble the runtime guard into a git format-patch series, and optionally
# apply it to a git tree of the pristine kernel.
#
#   kernel-series.sh           write the series with a cover letter to
#                              build/series/ (or $SERIES_DIR) and print it
#   kernel-series.sh --apply   also make $PTRGUARD_CACHE/linux-guard: the
#                              pristine tree in git, with the series applied
#                              by `git am`; print its path
#
# The series is described by kernel-series/series (the patches, in order)
# and one kernel-series/NN-name.patch-spec per patch: the repo files it
# carries, a "---" line, then its commit message.  A file ending in .diff
# is a hunk against the kernel file at the same path without ".diff"
# (applied with `git apply`; "PATH.NAME.diff" when a second patch touches
# the same file); "DEST=SRC" carries a file the build makes (SRC, under
# the repo, made by `make rules` first) at DEST in the tree; any other file
# is copied into the tree at its repo path.
# kernel-series/cover.txt is the cover letter: subject line, blank, body.
# See docs/runtime-guard.md.
#
# linux-guard is rebuilt only when the series changes (a hash of the
# patches is kept in its .git).  Rebuilding resets it to the pristine commit
# and applies the series again, which rewrites only the files the series
# touches, so an out-of-tree build of it stays incremental.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
series_dir=${SERIES_DIR:-$top/build/series}
meta=$top/kernel-series
guard=$cache/linux-guard
# Fixed dates keep the series byte-identical from run to run.
date0="2026-01-01 00:00:00 +0000"

die() {
	echo "kernel-series: $*" >&2
	exit 2
}

# The series is sent by whoever builds it: its author, its Signed-off-by
# lines (the DCO) and its MAINTAINERS entry carry that person's git
# identity, never a made-up one.  GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL
# override the configured user.name and user.email, as for git commit.
ident_name=${GIT_AUTHOR_NAME:-$(git -C "$top" config user.name || true)}
ident_email=${GIT_AUTHOR_EMAIL:-$(git -C "$top" config user.email || true)}
[ -n "$ident_name" ] && [ -n "$ident_email" ] ||
	die "no git identity: set user.name and user.email (git config --global user.name ...); the series carries them as its author and Signed-off-by"

# with_ident FILE: FILE with each @IDENT@ replaced by "Name <email>"
with_ident() {
	awk -v id="$ident_name <$ident_email>" '{
		while ((i = index($0, "@IDENT@")) > 0)
			$0 = substr($0, 1, i - 1) id substr($0, i + 7)
		print
	}' "$1"
}

# Patches may carry files the build makes ("DEST=SRC"): the rules.
make -s --no-print-directory -C "$top" rules >&2 || die "make rules failed"

apply=0
case "${1-}" in
--apply) apply=1 ;;
"") ;;
*) echo "usage: kernel-series.sh [--apply]" >&2; exit 2 ;;
esac

[ -f "$meta/series" ] || die "$meta/series: not found"
[ -f "$meta/cover.txt" ] || die "$meta/cover.txt: not found"
pristine=$("$top/scripts/kernel-tree.sh") || die "no pristine kernel tree"

git_id() {
	git -c user.name="$ident_name" -c user.email="$ident_email" \
		-c commit.gpgsign=false "$@"
}

# make_base DIR: a git repo of the pristine tree, one commit tagged
# ptrguard-base.  Debian's top-level .gitignore ignores everything ("/*"),
# hence add -f.
make_base() {
	rm -rf "$1.tmp"
	mkdir "$1.tmp" || die "$1.tmp: cannot create"
	# "$pristine/." copies the tree's contents even when $pristine is a
	# symbolic link: copying the link would make this repo the pristine
	# tree itself, and the series would be applied to it.
	cp -a "$pristine/." "$1.tmp"
	rm -f "$1.tmp/.ptrguard-unpacked"
	(
		cd "$1.tmp"
		git init -q
		git config user.name "$ident_name"
		git config user.email "$ident_email"
		git add -A -f
		GIT_AUTHOR_DATE="$date0" GIT_COMMITTER_DATE="$date0" \
			git commit -q -m "Linux 6.12 (Debian linux-source-6.12, pristine)"
		git tag ptrguard-base
	) || die "$1: cannot make a git repo of $pristine"
	mv "$1.tmp" "$1"
}

# --- Build the series as commits on top of the base --------------------
# The base repo is linux-guard itself (made on first use, so the pristine
# tree is copied once).  The commits are built in a private index, so
# linux-guard's work tree is neither read nor touched here.
# One run at a time: the e2e and KUnit suites may both ask for the tree.
mkdir -p "$cache"
exec 9>"$cache/linux-guard.lock"
flock 9 || die "$cache/linux-guard.lock: cannot lock"
[ -d "$guard/.git" ] || { echo "kernel-series: making $guard (once)" >&2; make_base "$guard"; }
git -C "$guard" rev-parse -q --verify ptrguard-base >/dev/null ||
	die "$guard: no ptrguard-base tag; remove it and run again"

work=$(mktemp -d "${TMPDIR:-/tmp}/kernel-series.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export GIT_INDEX_FILE="$work/index"
git -C "$guard" read-tree ptrguard-base || die "$guard: cannot read ptrguard-base"
head=$(git -C "$guard" rev-parse ptrguard-base)

n=0
for name in $(grep -v '^[[:space:]]*#' "$meta/series"); do
	spec=$meta/$name.patch-spec
	[ -f "$spec" ] || die "$spec: not found (listed in $meta/series)"
	n=$((n + 1))
	files=$(sed -n '/^---$/q;/^[[:space:]]*#/d;/^[[:space:]]*$/d;p' "$spec")
	[ -n "$files" ] || die "$spec: no files before the --- line"
	sed '1,/^---$/d' "$spec" >"$work/msg"
	[ -s "$work/msg" ] || die "$spec: no commit message after the --- line"
	! grep -q '^Signed-off-by:' "$work/msg" ||
		die "$spec: a Signed-off-by in the spec; the builder's identity is added"
	printf '\nSigned-off-by: %s <%s>\n' "$ident_name" "$ident_email" >>"$work/msg"
	for f in $files; do
		case $f in
		*=*)
			src=$top/${f#*=}
			f=${f%%=*}
			;;
		*)
			src=$top/$f
			[ -f "$src" ] || src=$meta/$f
			;;
		esac
		[ -f "$src" ] || die "$spec: $f: not found"
		case $f in
		*.diff)
			with_ident "$src" >"$work/hunk.diff" &&
			git -C "$guard" apply --cached --whitespace=error-all "$work/hunk.diff" ||
				die "$f: does not apply (patch $name)"
			;;
		*)
			blob=$(git -C "$guard" hash-object -w "$src") &&
			git -C "$guard" update-index --add --cacheinfo "100644,$blob,$f" ||
				die "$f: cannot add (patch $name)"
			;;
		esac
	done
	tree=$(git -C "$guard" write-tree) || die "$name: write-tree failed"
	head=$(GIT_AUTHOR_DATE="$date0" GIT_COMMITTER_DATE="$date0" \
		git_id -C "$guard" commit-tree "$tree" -p "$head" -F "$work/msg") ||
		die "$name: commit failed"
done
[ "$n" -gt 0 ] || die "$meta/series: no patches"
unset GIT_INDEX_FILE

rm -rf "$series_dir"
mkdir -p "$series_dir"
git_id -C "$guard" format-patch -q --cover-letter --no-signature \
	--base=ptrguard-base -o "$series_dir" "ptrguard-base..$head" ||
	die "git format-patch failed"

# Fill the cover letter's subject and blurb from kernel-series/cover.txt.
cover=$(ls "$series_dir"/0000-cover-letter.patch)
subject=$(head -n 1 "$meta/cover.txt")
awk -v subject="$subject" -v body="$meta/cover.txt" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		skip = 1
		while ((getline line < body) > 0)
			if (skip) { if (line == "") skip = 0 } else print line
		next
	}
	{ print }' "$cover" >"$work/cover" && mv "$work/cover" "$cover"
echo "$series_dir"

[ "$apply" -eq 1 ] || exit 0

# --- Apply it to linux-guard, unless it already carries this series ------
patches=$(ls "$series_dir"/0*.patch | grep -v '/0000-cover-letter\.patch$')
# shellcheck disable=SC2086
hash=$(cat $patches | sha256sum | cut -d' ' -f1)
stamp=$guard/.git/ptrguard-series
if [ "$(cat "$stamp" 2>/dev/null)" = "$hash" ] &&
	[ -z "$(git -C "$guard" status --porcelain --untracked-files=no)" ]; then
	echo "$guard"
	exit 0
fi
echo "kernel-series: applying $n patches to $guard" >&2
rm -f "$stamp"
(
	cd "$guard"
	git am --abort >/dev/null 2>&1 || true
	# Remember the files the previous series touched: those it leaves
	# as they were get their old mtimes back, so that an out-of-tree
	# build of this tree only rebuilds what really changed.
	# (The hash is that of the file as it is, which may be edited.)
	git diff --name-only ptrguard-base HEAD -- 2>/dev/null |
	while read -r f; do
		[ -f "$f" ] && echo "$(git hash-object "$f") $(stat -c %Y "$f") $f"
	done >.git/ptrguard-mtimes
	git checkout -q -f --detach ptrguard-base &&
	git clean -q -f -d -x &&
	# shellcheck disable=SC2086
	GIT_COMMITTER_DATE="$date0" git_id am -q $patches || exit 1
	while read -r blob mtime f; do
		[ "$(git rev-parse -q "HEAD:$f" 2>/dev/null)" = "$blob" ] &&
			touch -d "@$mtime" "$f"
	done <.git/ptrguard-mtimes
	true
) >&2 || die "$guard: git am failed"
echo "$hash" >"$stamp"
echo "$guard"
