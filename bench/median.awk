# SPDX-License-Identifier: GPL-2.0
# median(LIST): the median of the space-separated numbers in LIST (the
# mean of the two middle ones for an even count), "" for none.  Shared by
# the bench scripts, which prepend this file to their awk programs.
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	if (!n)
		return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
