# SPDX-License-Identifier: GPL-2.0
# Summarize what one read of a ptrguard_e2e file delivered (busybox awk).
#
# The file's records are "rec I ok", except record AT: "rec AT <text>",
# the output of the conversion under test.  Variables: at (that record's
# index), addr (the module object's raw address, 16 hex digits).
# Prints: recs=R payload=yes|no tail=T extra=E raw=yes|no text=TEXT
#   recs     "rec I ok" records in order from 0, before record AT (at most AT)
#   payload  whether record AT arrived
#   tail     "rec I ok" records in order after it
#   extra    lines that fit none of these (a truncated or foreign record)
#   raw      whether addr appears anywhere in what was read
#   text     record AT's text, spaces as "_" ("-" when absent)
BEGIN {
	recs = 0; tail = 0; extra = 0; payload = "no"; raw = "no"; text = "-"
	head = "rec " at " "
}
{
	if (addr != "" && index($0, addr))
		raw = "yes"
	if (payload == "no" && recs < at && $0 == "rec " recs " ok") {
		recs++
	} else if (payload == "no" && recs == at && substr($0, 1, length(head)) == head) {
		payload = "yes"
		text = substr($0, length(head) + 1)
		gsub(/ /, "_", text)
		if (text == "")
			text = "-"
	} else if (payload == "yes" && $0 == "rec " (at + 1 + tail) " ok") {
		tail++
	} else {
		extra++
	}
}
END {
	printf "recs=%d payload=%s tail=%d extra=%d raw=%s text=%s\n", recs, payload, tail, extra, raw, text
}
