#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Apply the runtime guard's patch series to a pristine kernel tree and
# write it out as a git format-patch series with a cover letter.
#
#   kernel-series.sh           write the series to build/series-$KVER
#                              (build/series for 6.12) and print the path
#   kernel-series.sh --apply   also leave $PTRGUARD_CACHE/linux-guard-$KVER
#                              (linux-guard for 6.12): the pristine tree in
#                              git with the series applied; print its path
#
# KVER: 7.1 (mainline, the base the series is written for), 6.19, 6.12
# (the default) or 6.1; the trees come from scripts/kernel-tree.sh (exit 3
# there: a mainline repository is not on this machine).
#
# The series is kept as kernel developers keep one: kernel-series/$KVER/
# holds a quilt-style `series` file naming the patches in order, relative
# to kernel-series/ (a backport lists the mainline patches that apply as
# they are, ../7.1/NNNN-*.patch, and carries its own where the code
# differs), and the patch files themselves: a Subject: line, the commit
# message, "---" and the diff, as `git format-patch` writes them but
# without From:, Date: and Signed-off-by:.  Those belong to whoever builds
# and sends the series: they are the builder's git identity (user.name,
# user.email, or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL), added here by `git am
# --signoff`, never a made-up one.  kernel-series/cover-letter.txt is the
# cover letter (subject line, blank line, body).
# scripts/kernel-series-export.sh writes the patch files from a git tree.
#
# The guard tree is rebuilt only when the series changes (a hash of the
# patches and the identity is kept in its .git); rebuilding resets it to
# the pristine commit and applies the series again, which rewrites only the
# files the series touches, so an out-of-tree build stays incremental.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PTRGUARD_CACHE:-$HOME/.cache/ptrguard}
meta=$top/kernel-series
kver=${KVER:-6.12}
case $kver in
6.12)
	series_dir=${SERIES_DIR:-$top/build/series}
	guard=$cache/linux-guard
	;;
6.1|7.1|6.19)
	series_dir=${SERIES_DIR:-$top/build/series-$kver}
	guard=$cache/linux-guard-$kver
	;;
*)
	echo "kernel-series: KVER=$kver: not supported (7.1, 6.19, 6.12, 6.1)" >&2
	exit 2
	;;
esac
# Fixed dates keep the series byte-identical from run to run.
date0="2026-01-01 00:00:00 +0000"

die() {
	echo "kernel-series: $*" >&2
	exit 2
}

ident_name=${GIT_AUTHOR_NAME:-$(git -C "$top" config user.name || true)}
ident_email=${GIT_AUTHOR_EMAIL:-$(git -C "$top" config user.email || true)}
[ -n "$ident_name" ] && [ -n "$ident_email" ] ||
	die "no git identity: set user.name and user.email (git config --global user.name ...); the series carries them as its author and Signed-off-by"

apply=0
case "${1-}" in
--apply) apply=1 ;;
"") ;;
*) echo "usage: kernel-series.sh [--apply]" >&2; exit 2 ;;
esac

list=$meta/$kver/series
[ -f "$list" ] || die "$list: not found"
[ -f "$meta/cover-letter.txt" ] || die "$meta/cover-letter.txt: not found"
patches=
for p in $(sed -e 's/#.*//' "$list"); do
	f=$meta/$kver/$p
	[ -f "$f" ] || die "$f: not found (listed in $list)"
	grep -q '^Subject: ' "$f" || die "$f: no Subject: line"
	! grep -q '^Signed-off-by:' "$f" ||
		die "$f: a Signed-off-by in the patch; the builder's identity is added"
	patches="$patches $f"
done
[ -n "$patches" ] || die "$list: no patches"

set +e
pristine=$(KVER=$kver "$top/scripts/kernel-tree.sh")
rc=$?
set -e
[ $rc -eq 0 ] || exit $rc

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
	# symbolic link.
	cp -a "$pristine/." "$1.tmp"
	rm -f "$1.tmp/.ptrguard-unpacked"
	(
		cd "$1.tmp"
		git init -q
		# No automatic gc: the first commit leaves ~80,000 loose
		# objects, and the repack it starts holds the lock below.
		git config gc.auto 0
		git add -A -f
		GIT_AUTHOR_DATE="$date0" GIT_COMMITTER_DATE="$date0" \
			git_id commit -q -m "Linux $kver (pristine)"
		git tag ptrguard-base
	) || die "$1: cannot make a git repo of $pristine"
	mv "$1.tmp" "$1"
}

# One run at a time: the e2e and KUnit suites may both ask for the tree.
mkdir -p "$cache"
exec 9>"$guard.lock"
flock 9 || die "$guard.lock: cannot lock"
[ -d "$guard/.git" ] || { echo "kernel-series: making $guard (once)" >&2; make_base "$guard"; }
git -C "$guard" rev-parse -q --verify ptrguard-base >/dev/null ||
	die "$guard: no ptrguard-base tag; remove it and run again"

work=$(mktemp -d "${TMPDIR:-/tmp}/kernel-series.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# shellcheck disable=SC2086 # $patches: the file names, no spaces
hash=$( { echo "$ident_name <$ident_email>"; cat $patches; } | sha256sum | cut -d' ' -f1)
stamp=$guard/.git/ptrguard-series
if [ "$(cat "$stamp" 2>/dev/null)" != "$hash" ] ||
   [ -n "$(git -C "$guard" status --porcelain --untracked-files=no)" ]; then
	n=0
	for f in $patches; do
		n=$((n + 1))
		{
			printf 'From: %s <%s>\n' "$ident_name" "$ident_email"
			printf 'Date: %s\n' "$date0"
			cat "$f"
		} >"$work/$(printf %04d $n).patch"
	done
	echo "kernel-series: applying $n patches to $guard" >&2
	rm -f "$stamp"
	(
		cd "$guard"
		git am --abort >/dev/null 2>&1 || true
		# The files the previous series touched that this one leaves
		# as they were get their old mtimes back, so that an
		# out-of-tree build only rebuilds what really changed.
		git diff --name-only ptrguard-base HEAD -- 2>/dev/null |
		while read -r f; do
			[ -f "$f" ] && echo "$(git hash-object "$f") $(stat -c %Y "$f") $f"
		done >.git/ptrguard-mtimes
		git checkout -q -f --detach ptrguard-base &&
		git clean -q -f -d -x &&
		GIT_COMMITTER_DATE="$date0" git_id am -q --signoff --whitespace=error-all \
			"$work"/0*.patch || exit 1
		while read -r blob mtime f; do
			[ "$(git rev-parse -q "HEAD:$f" 2>/dev/null)" = "$blob" ] &&
				touch -d "@$mtime" "$f"
		done <.git/ptrguard-mtimes
		true
	) >&2 || die "$guard: git am failed: the series does not apply to $kver"
	echo "$hash" >"$stamp"
fi

rm -rf "$series_dir"
mkdir -p "$series_dir"
git_id -C "$guard" format-patch -q --cover-letter --no-signature \
	--base=ptrguard-base -o "$series_dir" ptrguard-base..HEAD ||
	die "git format-patch failed"

# The cover letter's subject and blurb from kernel-series/cover-letter.txt.
cover=$(ls "$series_dir"/0000-cover-letter.patch)
subject=$(head -n 1 "$meta/cover-letter.txt")
awk -v subject="$subject" -v body="$meta/cover-letter.txt" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		skip = 1
		while ((getline line < body) > 0)
			if (skip) { if (line == "") skip = 0 } else print line
		next
	}
	{ print }' "$cover" >"$work/cover" && mv "$work/cover" "$cover"
if [ "$apply" -eq 1 ]; then
	echo "$guard"
else
	echo "$series_dir"
fi
