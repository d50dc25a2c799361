# SPDX-License-Identifier: GPL-2.0
# pick.awk: where gen.sh inserts lines in one file, from the regions
# spatch skips there (regions.sh) and what calls.awk read in it.
#
#   awk -v regs="S-E S-E ..." -v far=N -f pick.awk CALLS-OUTPUT
#
# "After line L" means the new line comes between L and L + 1.  A place is
# inside a region S-E when S <= L < E (old and new neighbours both skipped),
# next to it when L = S - 1 or L = E, and far from every region when at
# least FAR lines lie between it and each of them.  Prints, one per line:
#   in L F M       after the first seq call statement (calls.awk's OK, in
#                  a function) that ends inside a region: L is its last line
#   next L F M     after one that ends next to a region
#   far L F M      after the first one far from every region; when none is,
#                  the one farthest from them, if 3 lines or more away
#   gapin L D      a statement place inside a region, in a function (depth D)
#   gapparam L D T P   the same in a function with a parameter P of type
#                  struct T * (seq_file, seq_buf, trace_seq; calls.awk)
#   gapnext L D    a place next to a region (a statement place if there is one)
#   gapfar L D     a statement place far from every region, in a function
#   incl L         after the last #include at the top, if FAR / 4 lines or
#                  more from every region (for a #define)
# F and M are tab-separated; a missing kind is not printed.
BEGIN {
	FS = "\t"
	nr = split(regs, rr, " ")
	for (i = 1; i <= nr; i++) {
		split(rr[i], se, "-")
		S[i] = se[1] + 0
		E[i] = se[2] + 0
	}
}
# -1 inside a region, 0 next to one, else the lines between L and the nearest
function dist(L,   i, d, best) {
	best = 1e9
	for (i = 1; i <= nr; i++) {
		if (L >= S[i] && L < E[i]) return -1
		if (L == S[i] - 1 || L == E[i]) d = 0
		else if (L < S[i]) d = S[i] - 1 - L
		else d = L - E[i]
		if (d < best) best = d
	}
	return best
}
$1 == "call" && $5 == 1 && $6 == 1 {
	d = dist($3)
	if (d < 0 && !("in" in got)) got["in"] = $3 "\t" $7 "\t" $8
	if (d == 0 && !("next" in got)) got["next"] = $3 "\t" $7 "\t" $8
	if (d >= far && !("far" in got)) got["far"] = $3 "\t" $7 "\t" $8
	if (d >= 3 && d > fard) { fard = d; farthest = $3 "\t" $7 "\t" $8 }
}
$1 == "gap" {
	d = dist($2)
	if (d < 0 && $3 > 0 && $4 == 1 && !("gapin" in got)) got["gapin"] = $2 "\t" $3
	if (d < 0 && $3 > 0 && $4 == 1) { ngi++; gil[ngi] = $2; gid[ngi] = $3 }
	if (d == 0 && $3 > 0 && $4 == 1 && !("gapnext" in got)) got["gapnext"] = $2 "\t" $3
	if (d == 0 && !("gapnext0" in got)) got["gapnext0"] = $2 "\t" $3
	if (d >= far && $3 > 0 && $4 == 1 && !("gapfar" in got)) got["gapfar"] = $2 "\t" $3
}
$1 == "func" && $5 != "-" { nf++; fo[nf] = $2; fc[nf] = $3; ft[nf] = $5; fp[nf] = $6 }
$1 == "incl" && $2 > 0 && dist($2) >= far / 4 { got["incl"] = $2 }
END {
	if (!("far" in got) && farthest != "") got["far"] = farthest
	for (i = 1; i <= ngi && !("gapparam" in got); i++)
		for (j = 1; j <= nf; j++)
			if (gil[i] + 0 > fo[j] + 0 && gil[i] + 0 < fc[j] + 0) {
				got["gapparam"] = gil[i] "\t" gid[i] "\t" ft[j] "\t" fp[j]
				break
			}
	if (!("gapnext" in got) && ("gapnext0" in got)) got["gapnext"] = got["gapnext0"]
	n = split("in next far gapin gapparam gapnext gapfar incl", k, " ")
	for (i = 1; i <= n; i++)
		if (k[i] in got)
			print k[i] "\t" got[k[i]]
}
