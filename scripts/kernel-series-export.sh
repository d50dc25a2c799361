#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write the commits of a kernel git tree as the patch files of
# kernel-series/ (see scripts/kernel-series.sh): one file per commit, named
# as git format-patch names it, without the From:, Date: and Signed-off-by:
# lines (the builder's identity is added when the series is built), and
# without the version signature.
#
# Usage: kernel-series-export.sh TREE BASE DIR
#   TREE  a kernel git tree, the series committed on top of BASE
#   DIR   where the patch files go (e.g. kernel-series/7.1); the file
#         names are printed, to be listed in DIR/series
set -eu

[ $# -eq 3 ] || { echo "usage: kernel-series-export.sh TREE BASE DIR" >&2; exit 2; }
tree=$1 base=$2 dir=$3
git -C "$tree" rev-parse -q --verify "$base^{commit}" >/dev/null ||
	{ echo "kernel-series-export: $tree: no commit $base" >&2; exit 2; }
mkdir -p "$dir"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kernel-series-export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
git -C "$tree" -c core.abbrev=7 format-patch -q --no-signature --no-numbered --zero-commit \
	-o "$tmp" "$base..HEAD"
for f in "$tmp"/*.patch; do
	# The mail header up to the Subject: goes; the Subject: stays.
	# Blank lines before the Signed-off-by: go with it.
	awk '
		hdr && /^Subject: / { hdr = 0 }
		hdr { next }
		diff { print; next }
		/^Signed-off-by: / { next }
		/^$/ { blank++; next }
		/^---$/ { diff = 1; blank = 0 }
		{ while (blank) { print ""; blank-- } print }' hdr=1 "$f" >"$dir/$(basename "$f")"
	basename "$f"
done
