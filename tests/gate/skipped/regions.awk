# SPDX-License-Identifier: GPL-2.0
# regions.awk: where in a C file spatch skipped lines, from spatch's
# --verbose-parsing stderr (the test oracle of tests/gate/skipped, written
# apart from the gate's own reading of it in scripts/cocci.c).
#
#   awk -v file=PATH -f regions.awk SPATCH-STDERR PATH
#
# PATH is the file as spatch was given it.  Each "badcount: N" in the
# stderr is followed by the lines spatch skipped, consecutive lines of the
# file, printed as "bad: TEXT" (the line of the error as "BAD:!!!!! TEXT").
# They are found in the file by their text; when the same text occurs
# more than once, the place nearest to the line spatch named (the parse
# error's " = File "PATH", line L" when it is in this file, else the last
# "ERROR-RECOV: found sync ... line L") wins, and regions are taken in the
# order spatch printed them, which is the order of the file.  A region
# whose parse error " = File" names another file (not spatch's standard.h)
# is that file's: a header read with --include.
# Prints "START END" (1-based, inclusive) per region, in file order; exits
# 2 with a message naming the region when its text is not in the file.
FNR == NR {
	if (collecting) {
		if (substr($0, 1, 5) == "bad: ") {
			txt[nr, ++len[nr]] = substr($0, 6)
			next
		}
		if (substr($0, 1, 10) == "BAD:!!!!! ") {
			txt[nr, ++len[nr]] = substr($0, 11)
			next
		}
		collecting = 0
	}
	if ($0 ~ /^HANDLING: /) {
		errline = synced = 0
	} else if ($0 ~ /^ERROR-RECOV: found sync/) {
		s = $0
		sub(/.*line /, "", s)
		if (s ~ /^[0-9]+$/)
			synced = s + 0
	} else if (substr($0, 1, 10 + length(file)) == " = File \"" file "\"") {
		s = $0
		sub(/^[^"]*"[^"]*", line /, "", s)
		sub(/,.*/, "", s)
		if (s ~ /^[0-9]+$/)
			errline = s + 0
	} else if ($0 ~ /^ = File "/) {
		# an error in another file: a header spatch read (--include), or
		# its own macro file standard.h, where the error is only where
		# a macro of this file's lines was expanded
		s = $0
		sub(/^ = File "/, "", s)
		sub(/".*/, "", s)
		foreign = s !~ /\/standard\.h$/
	} else if ($0 ~ /^badcount: [0-9]+$/) {
		nr++
		len[nr] = 0
		hint[nr] = errline ? errline : synced
		if (foreign)
			skip[nr] = 1
		errline = foreign = 0
		collecting = 1
	}
	next
}
{ line[FNR] = $0; stripped[FNR] = $0; sub(/[ \t\r]+$/, "", stripped[FNR]) }
function matches(p, r, strip,   k, t) {
	for (k = 1; k <= len[r]; k++) {
		if (p + k - 1 > nlines)
			return 0
		t = txt[r, k]
		if (strip) {
			sub(/[ \t\r]+$/, "", t)
			if (stripped[p + k - 1] != t)
				return 0
		} else if (line[p + k - 1] != t)
			return 0
	}
	return 1
}
function dist(p, r,   e, h) {
	h = hint[r]
	e = p + len[r] - 1
	if (!h || (h >= p && h <= e + 1))
		return 0
	return h < p ? p - h : h - e - 1
}
# the best place of region r at or after line from (0: none)
function place(r, from, strip,   p, best, d, bd) {
	best = 0
	for (p = from; p + len[r] - 1 <= nlines; p++) {
		if (!matches(p, r, strip))
			continue
		d = dist(p, r)
		if (!best || d < bd) {
			best = p
			bd = d
		}
	}
	return best
}
END {
	nlines = FNR
	from = 1
	for (r = 1; r <= nr; r++) {
		if (!len[r] || (r in skip))
			continue
		p = place(r, from, 0)
		if (!p) p = place(r, from, 1)
		if (!p) p = place(r, 1, 0)
		if (!p) p = place(r, 1, 1)
		if (!p) {
			printf "regions.awk: %s: skipped region %d (%d lines from \"%s\") is not in the file\n", \
				file, r, len[r], txt[r, 1] >"/dev/stderr"
			exit 2
		}
		rs[r] = p
		re[r] = p + len[r] - 1
		if (re[r] + 1 > from)
			from = re[r] + 1
	}
	# file order, overlapping or adjacent regions merged
	n = 0
	for (r = 1; r <= nr; r++) {
		if (!len[r] || (r in skip))
			continue
		for (k = ++n; k > 1 && os[k - 1] > rs[r]; k--) {
			os[k] = os[k - 1]
			oe[k] = oe[k - 1]
		}
		os[k] = rs[r]
		oe[k] = re[r]
	}
	m = 0
	for (k = 1; k <= n; k++) {
		if (m && os[k] <= me[m] + 1) {
			if (oe[k] > me[m])
				me[m] = oe[k]
			continue
		}
		ms[++m] = os[k]
		me[m] = oe[k]
	}
	for (k = 1; k <= m; k++)
		print ms[k], me[k]
}
