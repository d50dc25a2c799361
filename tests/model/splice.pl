# SPDX-License-Identifier: GPL-2.0
# Translation phase 2 by bytes, for tests/model/tokens-gcc: each logical
# line joined (every backslash, the blanks GCC allows after it, and the
# newline removed), then the newlines it held added after it, so that the
# line numbers of what follows do not move.
local $/;
my $t = <STDIN>;
my @lines = split /(\r\n|\n|\r)/, $t, -1;
my ($out, $pend) = ('', 0);
for (my $i = 0; $i < @lines; $i += 2) {
	my ($l, $nl) = ($lines[$i], $lines[$i + 1]);
	if (defined $nl && $l =~ s/\\[ \t\f\v\0]*$//) {
		$out .= $l;
		$pend++;
		next;
	}
	$out .= $l . (defined $nl ? $nl : '') . ("\n" x $pend);
	$pend = 0;
}
print $out;
