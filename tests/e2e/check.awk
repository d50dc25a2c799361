# SPDX-License-Identifier: GPL-2.0
# Judge one e2e boot from its serial log; print PASS:/FAIL: lines.
#
#   awk -v boot=NAME -v hashing=on|off -v guard=0|1 [-v arch=x86_64|arm64] \
#       [-v kver=6.12|6.1|7.1] [-v kunit=0|1] [-v bootoff=0|1] [-v robust=0|1] \
#       [-v scanner=0|1] [-v table=FILE] -f check.awk LOG
#
# guard=1: the kernel has the guard series (kernel.seq_ptr_guard must
# exist); 0: the pristine kernel, every state reads as with the guard off.
# bootoff=1: booted with sysctl.kernel.seq_ptr_guard=0 (the guest must find
# it at 0 and read the "bootoff" state).  kunit=1: the kernel has the
# series' KUnit suite built in (its KTAP lines must be in the kernel log).
# robust=1: the guest ran the robustness run.  scanner=1: a no_hash_pointers
# guest must have run the scanner hook.  table: where the verdict table
# goes (one line per state, reader and item; no value, so that two KASLR
# layouts give the same table: tests/e2e/run compares them).
#
# The guest (guest-init.sh) only observes; every expectation is here,
# written by hand from what the series promises (kernel-series/7.1,
# patches 2 and 3) and what vsprintf prints (docs/testing.md has the
# table):
#  - at seq_open() the kernel takes raw_ptrs = kallsyms_show_value(opener's
#    cred), and seq_printf() hashes when !raw_ptrs && seq_ptr_guard (the
#    sysctl applies at once, to open files too); kallsyms_show_value(): at
#    kptr_restrict 0, true with CAP_SYSLOG or perf_event_paranoid <= 1; at
#    1, CAP_SYSLOG; at 2, false for everyone.  The guest's root has
#    CAP_SYSLOG, its user (uid 1000) none; perf_event_paranoid is 2 except
#    in state perf1.
#  - for such a reader a raw pointer conversion (%px, %pV of it; %p and %pK
#    at kptr_restrict 0 under no_hash_pointers) prints what %p prints for
#    the same pointer: the boot's hash of the object, 32 bits zero-padded
#    to 16 digits ("0x" and that for %pS/%ps of an address with no
#    symbol; 6.1: "(____ptrval____)", "(ptrval)", until the hash is keyed,
#    accepted when every hashed line says it); %pK at kptr_restrict 1
#    prints zeros;
#  - integers (%lx, seq_put_decimal_ull()), NULL, ERR_PTR and %pS of a
#    symbol (or of NULL, ERR_PTR) are never changed, and no read fails.

function fail(name, why) {
	printf "FAIL: %s: %s\n", name, why
	failed++
}

function pass(name) {
	printf "PASS: %s\n", name
	passed++
}

# key=value words of the current line into F[]
function parse(   i, k) {
	delete F
	for (i = 1; i <= NF; i++) {
		k = index($i, "=")
		if (k)
			F[substr($i, 1, k - 1)] = substr($i, k + 1)
	}
}

function row(state, reader, item, verdict) {
	if (table != "")
		printf "state=%s reader=%s item=%s verdict=%s\n", state, reader, item, verdict >table
}

# A decimal string (up to 20 digits) in hex, exactly (awk's numbers are
# doubles: 53 bits).
function dec2hex(s,   q, r, i, d, hex) {
	hex = ""
	while (s != "" && s != "0") {
		q = ""
		r = 0
		for (i = 1; i <= length(s); i++) {
			d = r * 10 + substr(s, i, 1)
			if (q != "" || int(d / 16))
				q = q int(d / 16)
			r = d % 16
		}
		hex = substr("0123456789abcdef", r + 1, 1) hex
		s = q
	}
	return hex == "" ? "0" : hex
}

function kr_of(state) {
	return state == "kr1" ? 1 : state == "kr2" ? 2 : 0
}

# kallsyms_show_value() for the opener of a file in this state (rootfd:
# opened by root, read by uid 1000; userfd: opened by uid 1000, read by
# root)
function shows(state, reader,   kr) {
	kr = kr_of(state)
	if (kr == 2)
		return 0
	if (reader == "root" || reader == "rootfd")
		return 1
	return kr == 0 && state == "perf1"
}

function hides(state, reader) {
	return guard && state != "off" && state != "bootoff" && !shows(state, reader)
}

# What line NAME of /proc/ptrguard_e2e/fmt must be in a state for a reader.
function want(name, state, reader,   h, kr) {
	h = hides(state, reader)
	if (name ~ /^(px|pS|ps|pV)$/)
		return h ? "hashed" : "raw"
	if (name == "p")
		return hashing == "on" || h ? "hashed" : "raw"
	if (name == "pK") {
		# restricted_pointer(): 0 is plain %p; 1 zeros for a hidden
		# reader, else raw when the reading task has CAP_SYSLOG (root's
		# and userfd's, not rootfd's); 2 zeros
		kr = kr_of(state)
		if (kr == 0)
			return hashing == "on" || h ? "hashed" : "raw"
		return kr == 1 && !h && (reader == "root" || reader == "userfd") ? "raw" : "zeros"
	}
	if (name == "lx" || name == "dec")
		return "int"
	return "same"
}

# What line NAME's VAL is.  raw: the object's address (the kernel log's);
# zeros; hashed: the boot's one hash of the object (HASH, the first hashed
# value of a %p line; "0x" and it for %pS and %ps, 6.1's "(ptrval)" there
# when HASH is "(____ptrval____)"); int: the address as an integer; same:
# the constant it must be; other: anything else.
function classify(name, val) {
	if (name ~ /^(px|pS|ps|pV|p|pK)$/) {
		if (val == addr || val == "0x" addr)
			return "raw"
		if (val ~ /^0+$/)
			return "zeros"
		if (name ~ /^p[Ss]$/)
			return HASH != "" && val == (HASH ~ /ptrval/ ? "(ptrval)" : "0x" HASH) ? "hashed" : "other"
		if (val ~ HASHRE)
			return val == HASH ? "hashed" : "other"
		return "other"
	}
	if (name == "lx")
		return val == addr ? "int" : "other"
	if (name == "dec")
		return val ~ /^[0-9]+$/ && dec2hex(val) == addr ? "int" : "other"
	if (name == "px_null")
		return val == "0000000000000000" ? "same" : "other"
	if (name == "px_err")	# ERR_PTR(-EINVAL)
		return val == "ffffffffffffffea" ? "same" : "other"
	if (name == "pS_sym")
		return val ~ /^e2e_fmt_show\+0x0\/0x[0-9a-f]+ \[ptrguard_e2e\]$/ && \
		       (SYM == "" || val == SYM) ? "same" : "other"
	if (name == "pS_null")
		return val == "0x0" ? "same" : "other"
	if (name == "pS_err")
		return val == "0xffffffffffffffea" ? "same" : "other"
	return "other"
}

# One read of the fmt file: its status and every line as want() says.
# State log (kernel.seq_ptr_guard=2, the user reading the fmt file twice):
# the kernel log names e2e_fmt_show()'s one %px call site of a pointer
# (the px line), once, as function+offset/size, its format (%pE: the
# newline as \n) and the file (%pD3, from the proc mount), with no
# address; not px_null and px_err (NULL and ERR_PTR print the same for
# every reader), not the %px inside %pV, not %pS of a heap object.  A
# kernel without the guard names nothing.
function check_named(   name, i, why, seen, re) {
	name = boot " seq_ptr_guard=2 names the fmt file's %px call site once, without an address"
	re = "^seq_file: hashed %px from e2e_fmt_show\\+0x[0-9a-f]+/0x[0-9a-f]+ \\[ptrguard_e2e\\] \\(\"px %px\\\\n\"\\) in /ptrguard_e2e/fmt$"
	why = ""
	for (i = 1; i <= nnamed; i++) {
		row("log", "dmesg", "named", "line")
		if (named[i] !~ re)
			why = why " [unexpected: " named[i] "]"
		else if (named[i] in seen)
			why = why " [twice: " named[i] "]"
		else if (named[i] ~ /[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]/)
			why = why " [an address: " named[i] "]"
		seen[named[i]] = 1
	}
	if (nnamed != (guard ? 1 : 0))
		why = why " " nnamed " lines, want " (guard ? 1 : 0)
	if (why == "")
		pass(name)
	else
		fail(name, substr(why, 2))
}

function check_fmt(state, reader,   i, name, got, w, bad, list, key) {
	key = state SUBSEP reader
	name = boot " " state " " reader " /proc/ptrguard_e2e/fmt"
	if (!(key in fmt_st)) {
		fail(name, "not read (no OBS fmt line)")
		return
	}
	bad = ""
	if (fmt_st[key] !~ /errno=0 .*endnl=yes/)
		bad = " read: " fmt_st[key]
	list = ""
	for (i = 1; i <= nnames; i++) {
		got = (key SUBSEP names[i]) in val ? classify(names[i], val[key, names[i]]) : "missing"
		w = want(names[i], state, reader)
		row(state, reader, "fmt:" names[i], got)
		list = list " " names[i] "=" got
		if (got != w)
			bad = bad " " names[i] "=" got " (want " w ", line '" val[key, names[i]] "')"
	}
	if (nlines[key] != nnames)
		bad = bad " " nlines[key] + 0 " lines, want " nnames
	if (bad == "")
		pass(name ":" list)
	else
		fail(name, substr(bad, 2))
}

# A file of %p/%pK values (net/unix, the heavy file) or /proc/kallsyms at
# perf_event_paranoid 1: raw when a kernel address is in it, hashed when
# hashed fields are and no address, none when neither.
function want_gen(file, state, reader) {
	if (file == "/proc/kallsyms")	# perf1: kallsyms shows values to all
		return "raw"
	return hashing == "on" || hides(state, reader) ? "hashed" : "raw"
}

function check_gen(state, reader, file,   key, name, got, w, why) {
	key = state SUBSEP reader SUBSEP file
	name = boot " " state " " reader " " file
	if (!(key in gen_st)) {
		fail(name, "not read (no OBS gen line)")
		return
	}
	got = gen_raw[key] == "yes" ? "raw" : gen_hashed[key] > 0 ? "hashed" : "none"
	w = want_gen(file, state, reader)
	row(state, reader, file, got)
	why = ""
	if (gen_st[key] !~ /errno=0 /)
		why = "read: " gen_st[key]
	else if (got != w)
		why = "want " w ", got " got " (raw=" gen_raw[key] " hashed=" gen_hashed[key] ")"
	else if (file ~ /heavy$/ && got == "hashed" && gen_hashed[key] != 2000)
		why = gen_hashed[key] " hashed values, want 2000 (%p and %pK of 1,000 records)"
	if (why == "")
		pass(name ": " got)
	else
		fail(name, why)
}

# A file uid 1000 opened twice in one process (the guard on), then read
# once with the guard on and once off (e2e-read -t).  Integers (maps with
# its [vsyscall] line, stat, mountinfo, limits, iomem's zeros) and the
# files whose %px the kernel gates itself (kallsyms, modules: zeros) must
# be the same bytes, with no kernel address.  The module's fmt file is
# the control: its px line hashed in the first read and raw in the
# second, which was opened with the guard on: the sysctl applies to open
# files at once (the credentials are taken at open).
function check_twice(f,   name, why, on, off) {
	if (!(f in twice_line)) {
		fail(boot " twice " f, "not read (no OBS twice line)")
		return
	}
	$0 = twice_line[f]
	parse()
	why = ""
	if (F["errno"] != "0" || F["on"] == "" || F["on"] == 0)
		why = "read: errno=" F["errno"] " on=" F["on"] " bytes"
	else if (F["guard"] != (guard ? "present" : "absent"))
		why = "guard=" F["guard"]
	if (f == "/proc/ptrguard_e2e/fmt") {
		on = classify("px", F["px_on"])
		off = classify("px", F["px_off"])
		name = boot " twice " f ": opened twice by uid 1000, read with the guard on, then off: px " \
		       (guard ? "hashed, then raw (the sysctl applies at once)" : "raw both times")
		if (why == "" && (on != (guard ? "hashed" : "raw") || off != "raw" || F["same"] != (guard ? "no" : "yes")))
			why = "px " on " then " off ", same=" F["same"]
		row("onoff", "user", f ":px", on "/" off)
	} else {
		name = boot " twice " f ": uid 1000 reads the same bytes with the guard on and off"
		if (why != "")
			;
		else if (F["same"] != "yes")
			why = "they differ (" F["on"] " and " F["off"] " bytes)"
		else if (F["raw_on"] != "no" || F["raw_off"] != "no")
			why = "a kernel address in it (raw_on=" F["raw_on"] " raw_off=" F["raw_off"] ")"
		else if (arch == "x86_64" && f ~ /\/maps$/ && F["vsyscall"] != 1)
			why = "no [vsyscall] line (vsyscall=" F["vsyscall"] ")"
		else if (f == "/proc/kallsyms" && F["nonzero"] != "0")
			why = F["nonzero"] " lines whose value is not zeros"
		else
			name = name " (" F["on"] " bytes" (F["vsyscall"] == 1 ? ", [vsyscall] line included" : "") \
			       (f == "/proc/kallsyms" ? ", every value zeros" : "") ")"
		row("onoff", "user", f, why == "" ? "same" : "differs")
	}
	if (why == "")
		pass(name)
	else
		fail(name, why)
}

BEGIN {
	if (arch == "")
		arch = "x86_64"
	if (kver == "")
		kver = "6.12"
	# A kernel address (the test module's kmalloc'd object) and where
	# module data is: x86_64 4-level, the kernel half from
	# 0xffff800000000000, modules at 0xffffffffa0000000 and up; arm64,
	# VA_BITS 52 (tests/e2e/kernel-arm64.config), the linear map from
	# 0xfff0000000000000, modules above PAGE_END 0xffff800000000000.
	# Checked with length() == 16.
	KHALF = arch == "arm64" ? "^fff[0-9a-f]+$" : "^ffff[89a-f][0-9a-f]+$"
	MODHALF = arch == "arm64" ? "^ffff[89a-f][0-9a-f]+$" : "^ffffffff[0-9a-f]+$"
	HASHRE = "^(00000000[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]" \
		 (kver == "6.1" ? "|\\(____ptrval____\\)" : "") ")$"
	nnames = split("px pS ps pV p pK lx dec px_null px_err pS_sym pS_null pS_err", names, " ")
	failed = 0
	passed = 0
	# Lockdep and KASAN reports start with WARNING: or BUG:; lockdep that
	# gave up says so ("RCU lockdep checking is enabled" is not a report).
	bad = "WARNING:|BUG:|Oops|kernel BUG|lockdep is turned off|" \
	      "turning off the locking correctness validator|" \
	      "possible recursive locking|circular locking|inconsistent lock state|" \
	      "suspicious RCU usage|sleeping function called from invalid context|" \
	      "Call Trace|general protection fault|RCU stall"
	if (table != "")
		printf "" >table
}

/E2E-BEGIN/ { began = 1 }	# after the terminal reset qemu prints
/^E2E-END/ { ended = 1 }
/^INFO / {
	parse()
	if ("guard" in F) guard_seen = F["guard"]
	if ("guard_boot" in F) guard_boot = F["guard_boot"]
	if ("hashing" in F) hashing_seen = F["hashing"]
	if ("addr" in F) addr = F["addr"]
	if ("scanner" in F) scanner_seen = F["scanner"]
	if ("note_addr" in F) note_addr = F["note_addr"]
	if ("kselftest" in F) kselftest = F["kselftest"]
	if ("guard_after_kselftest" in F) guard_after_ks = F["guard_after_kselftest"]
	if ("error" in F) fail(boot " guest setup", F["error"])
	if ("robust_error" in F) robust_errors = robust_errors " " F["file"] ":" F["errno"]
	if ("text_addr" in F) text_addr = F["text_addr"]
	if ("perf_event_paranoid" in F) paranoid = F["perf_event_paranoid"]
	next
}
/^OBS fmt / {
	parse()
	k = F["state"] SUBSEP F["reader"]
	fmt_st[k] = $0
	if (!(k in fmt_seen)) {
		fmt_seen[k] = 1
		fmt_order[++nfmt] = k
	}
	next
}
/^VAL / {
	parse()
	k = F["state"] SUBSEP F["reader"]
	v = $0
	sub(/^.* val=/, "", v)
	val[k, F["name"]] = v
	nlines[k]++
	# the boot's hash of the object: the first hashed %p line
	if (F["name"] == "p" && HASH == "" && v ~ HASHRE && v !~ /^0+$/)
		HASH = v
	if (F["name"] == "pS_sym" && F["state"] == "on" && F["reader"] == "root")
		SYM = v
	next
}
/^OBS gen / {
	parse()
	k = F["state"] SUBSEP F["reader"] SUBSEP F["file"]
	gen_st[k] = $0
	gen_raw[k] = F["raw"]
	gen_hashed[k] = F["hashed"]
	next
}
/^OBS twice / {
	parse()
	twice_line[F["file"]] = $0
	next
}
/^OBS robust / {
	parse()
	nrobust++
	if (F["other"] != 0 || F["eperm"] != 0 || F["ok"] == 0)
		fail(boot " robustness reader " F["reader"] " (" F["user"] ")",
		     "reads ok=" F["ok"] " eperm=" F["eperm"] " other errors=" F["other"] robust_errors)
	else
		pass(boot " robustness reader " F["reader"] " (" F["user"] "): " F["ok"] " reads, all whole")
	next
}
/^SCAN-BEGIN/ { parse(); inscan = F["user"]; scan_began[inscan] = 1; next }
/^SCAN-END/ { parse(); scan_errors[inscan] = F["errors"]; inscan = ""; next }
inscan != "" {
	# one finding a line: {"file": "PATH", "line": N, ... "readable_by": "WHO", ...}
	if (match($0, /"file": "[^"]*"/)) {
		f = substr($0, RSTART + 9, RLENGTH - 10)
		l = match($0, /"line": [0-9]+/) ? substr($0, RSTART + 8, RLENGTH - 8) : "-"
		rb = match($0, /"readable_by": "[^"]*"/) ? substr($0, RSTART + 16, RLENGTH - 17) : "-"
		if (f == "/proc/ptrguard_e2e/fmt") {
			scan_fmt[inscan, l]++
			scan_rb[inscan, l] = rb
		} else if (f == "/proc/ptrguard_e2e/heavy") {
			scan_heavy[inscan]++
			scan_heavy_rb[inscan, rb]++
		} else if (f == "/sys/module/ptrguard_e2e/notes/.note.PtrGuard") {
			note_found[inscan] = note_found[inscan] $0 "\n"
		} else {
			scan_other[inscan] = scan_other[inscan] " " f
		}
	}
	next
}
/^KSELFTEST-BEGIN/ { inks = 1; ks_seen = 1; next }
/^KSELFTEST-END/ { parse(); ksrc = F["rc"]; inks = 0; next }
inks {
	if ($0 ~ /^1\.\.[0-9]+/)
		ksplan = $0
	if ($0 ~ /^not ok /)
		ksnotok = ksnotok " [" $0 "]"
	if ($0 ~ /^ok [0-9]+ /)
		ksok[substr($0, 4, index(substr($0, 4), " ") - 1)] = $0
	next
}
/^DMESG-BEGIN/ { indmesg = 1; next }
/^DMESG-END/ { indmesg = 0; next }
indmesg {
	if ($0 ~ bad && !badline)
		badline = $0
	line = $0
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", line)
	# the series' KUnit suite, run at boot (KTAP: the suite's own line is
	# "ok N seq_file", its cases are indented)
	if (line ~ /^ *# Subtest: seq_file$/)
		kunit_seen = 1
	if (kunit_seen && line ~ /^ +(not )?ok [0-9]+ /)
		kunit_cases++
	if (kunit_seen && line ~ /^ +ok [0-9]+ .*# SKIP/)
		kunit_skips++
	if (kunit_seen && line ~ /^ *not ok [0-9]+ /)
		kunit_notok = kunit_notok " [" line "]"
	if (line ~ /^(not )?ok [0-9]+ seq_file( |$)/)
		kunit_suite = line
	# kernel.seq_ptr_guard=2 naming a call site (the KUnit suite claims
	# sites in a table of its own and prints none)
	if (line ~ /^seq_file: hashed %px |^seq_file: more than [0-9]+ call sites/)
		named[++nnamed] = line
	next
}

END {
	if (began && ended)
		pass(boot " boots and runs to the end")
	else
		fail(boot " boots and runs to the end", began ? "no E2E-END (guest died or hung; see the log)" : "no E2E-BEGIN (kernel or init failed)")
	if (hashing_seen != hashing)
		fail(boot " hashing " hashing, "guest says hashing=" hashing_seen)
	want_guard = guard ? "present" : "absent"
	if (guard_seen == want_guard)
		pass(boot " kernel.seq_ptr_guard " want_guard)
	else
		fail(boot " kernel.seq_ptr_guard " want_guard, "guest says " guard_seen)
	if (guard) {
		name = boot " kernel.seq_ptr_guard is " (bootoff ? "0 as booted (sysctl.kernel.seq_ptr_guard=0)" : "1 by default")
		if (guard_boot == (bootoff ? 0 : 1))
			pass(name)
		else
			fail(name, "guest found " guard_boot)
	}
	if (addr !~ KHALF || length(addr) != 16)
		fail(boot " test module loaded", "no object address in the kernel log")
	if (paranoid != 2)
		fail(boot " perf_event_paranoid is 2 (want() assumes it)", "perf_event_paranoid=" paranoid)
	if (text_addr !~ KHALF || length(text_addr) != 16)
		fail(boot " _text read from /proc/kallsyms as root", "text_addr=" text_addr)

	# The fmt file: every state, both readers, rootfd in state on.
	split((bootoff && guard ? "bootoff " : "") "on off kr1 kr2 perf1 log", states, " ")
	for (s = 1; s in states; s++) {
		check_fmt(states[s], "root")
		check_fmt(states[s], "user")
		if (states[s] ~ /^(bootoff|on|off)$/)
			for (r = 1; r <= 2; r++) {
				check_gen(states[s], r == 1 ? "root" : "user", "/proc/net/unix")
				check_gen(states[s], r == 1 ? "root" : "user", "/proc/ptrguard_e2e/heavy")
			}
	}
	for (s = 1; s <= 2; s++) {
		check_fmt(s == 1 ? "on" : "kr1", "rootfd")
		check_fmt(s == 1 ? "on" : "kr1", "userfd")
	}
	check_gen("perf1", "user", "/proc/kallsyms")
	for (i = 1; i <= nfmt; i++) {
		split(fmt_order[i], sr, SUBSEP)
		if (sr[1] !~ /^(bootoff|on|off|kr1|kr2|perf1|log)$/ || (sr[1] == "bootoff" && !(bootoff && guard)) ||
		    (sr[2] ~ /fd$/ && sr[1] !~ /^(on|kr1)$/))
			fail(boot " " sr[1] " " sr[2] " /proc/ptrguard_e2e/fmt", "a state this boot should not have")
	}
	check_named()
	name = boot " the hash of the object (a %p line) is found"
	if (HASH != "")
		pass(name)
	else if (hashing == "on" || guard)
		fail(name, "no hashed %p line")

	n = split("/proc/self/maps /proc/PID/maps /proc/PID/stat /proc/self/mountinfo /proc/self/limits /proc/iomem /proc/kallsyms /proc/modules /proc/ptrguard_e2e/fmt", tw, " ")
	for (i = 1; i <= n; i++)
		check_twice(tw[i])

	if (robust && nrobust != 4)
		fail(boot " robustness run", nrobust + 0 " of 4 readers reported")
	if (badline)
		fail(boot " kernel log clean", badline)
	else if (ended)
		pass(boot " kernel log clean (no WARN/BUG/Oops/lockdep/atomic sleep)")

	# The series' KUnit suite, built in: it ran at boot on this layout.
	if (kunit) {
		name = boot " KUnit suite seq_file passes at boot"
		if (!kunit_seen)
			fail(name, "no '# Subtest: seq_file' in the kernel log")
		else if (kunit_notok != "")
			fail(name, "not ok:" kunit_notok)
		else if (kunit_suite !~ /^ok /)
			fail(name, "suite line: " (kunit_suite == "" ? "none" : kunit_suite))
		else
			pass(name " (" kunit_cases + 0 " results, " kunit_skips + 0 " skipped)")
	}

	# The series' kselftest, as root, guard on, kptr_restrict 0: its
	# /proc/net/unix case runs only under no_hash_pointers, and skips
	# otherwise; without the guard the whole test skips.
	name = boot " kselftest proc-seq-ptr-hash ran in the guest"
	if (kselftest != "present" || !ks_seen)
		fail(name, "kselftest=" (kselftest == "" ? "not reported" : kselftest))
	else if (!guard) {
		name = boot " kselftest skips without the guard (exit 4, 1..0 # SKIP)"
		if (ksrc == 4 && ksplan ~ /^1\.\.0 # SKIP .*no seq_ptr_guard/)
			pass(name)
		else
			fail(name, "exit " ksrc ", plan '" ksplan "'")
	} else {
		pass(name)
		name = boot " kselftest passes (exit 0, 1..2, no not ok)"
		if (ksrc == 0 && ksplan == "1..2" && ksnotok == "")
			pass(name)
		else
			fail(name, "exit " ksrc ", plan '" ksplan "'" (ksnotok != "" ? ", not ok:" ksnotok : ""))
		name = boot " kselftest: /proc/self/maps unchanged for nobody" \
		       (arch == "x86_64" ? ", [vsyscall] line included" : "")
		if (ksok[1] ~ ("^ok 1 /proc/self/maps is unchanged for nobody" \
			       (arch == "x86_64" ? " \\(\\[vsyscall\\] too\\)" : "") "$"))
			pass(name)
		else
			fail(name, "got '" ksok[1] "'")
		if (hashing == "off") {
			name = boot " kselftest: /proc/net/unix raw with the sysctl off, hashed on (not skipped)"
			want_re = "^ok 2 /proc/net/unix: raw 0x[0-9a-f]+ with the sysctl off, hashed 0x[0-9a-f]+ on$"
		} else {
			name = boot " kselftest: /proc/net/unix skipped where it is hashed anyway (no no_hash_pointers)"
			want_re = "^ok 2 # SKIP /proc/net/unix: hashed with the sysctl off too$"
		}
		if (ksok[2] ~ want_re)
			pass(name)
		else
			fail(name, "got '" ksok[2] "'")
		name = boot " kselftest puts kernel.seq_ptr_guard back (1)"
		if (guard_after_ks == 1)
			pass(name)
		else
			fail(name, "it is " guard_after_ks)
	}

	# The scanner hook (no_hash_pointers, kptr_restrict 0, guard on): as
	# root it finds fmt's lines 1-8 (px pS ps pV p pK lx dec) once each,
	# and the heavy file's %p and %pK of 1,000 records.  Its readable-by
	# check re-reads each file as uid 65534 and calls a finding everyone's
	# when that reader found the same value anywhere in the file: fmt's
	# integers (lx, dec) give the object's address to everyone, so all of
	# fmt's findings are everyone's, while in the heavy file, hashed for
	# uid 65534, they are root's.  As uid 1000 it finds only fmt's
	# integers.  Without the guard everything is everyone's.  And the
	# module's ELF note (binary, not seq_file output) as one le64 finding
	# at offset 24, e2e_obj's kallsyms value.
	if (hashing == "off" && scanner) {
		if (scanner_seen != "present" || !scan_began["root"] || !scan_began["user"])
			fail(boot " scanner ran in the guest", "scanner=" (scanner_seen == "" ? "not reported" : scanner_seen))
		else {
			pass(boot " scanner ran in the guest")
			for (u = 1; u <= 2; u++) {
				who = u == 1 ? "root" : "user"
				bad = ""
				for (l = 1; l <= nnames; l++) {
					wn = l <= 8 && (who == "root" || !guard || l >= 7) ? 1 : 0
					if (scan_fmt[who, l] + 0 != wn)
						bad = bad " line " l " (" names[l] "): " scan_fmt[who, l] + 0 " findings, want " wn
					else if (wn && who == "root" && scan_rb[who, l] != "everyone")
						bad = bad " line " l " (" names[l] "): readable_by " scan_rb[who, l]
				}
				wn = who == "root" || !guard ? 2000 : 0
				if (scan_heavy[who] + 0 != wn)
					bad = bad " heavy: " scan_heavy[who] + 0 " findings, want " wn
				else if (wn && who == "root" && scan_heavy_rb[who, guard ? "root" : "everyone"] != 2000)
					bad = bad " heavy: not all readable_by " (guard ? "root" : "everyone")
				if (scan_other[who] != "")
					bad = bad " other files:" scan_other[who]
				if (scan_errors[who] != 0)
					bad = bad " " scan_errors[who] " stderr lines"
				name = boot " scan as " who " finds what " (who == "root" ? "root" : "uid 1000") " reads" \
				       (guard ? (who == "root" ? " (heavy's %p root's: hashed for others)" : " (fmt's integers only)") : "")
				if (bad == "")
					pass(name)
				else
					fail(name, substr(bad, 2))
			}
			name = boot " scan as root finds the ELF note leak /sys/module/ptrguard_e2e/notes/.note.PtrGuard @24"
			want_s = "{\"file\": \"/sys/module/ptrguard_e2e/notes/.note.PtrGuard\", \"offset\": 24, " \
				 "\"value\": \"" note_addr "\", \"address\": \"0x" note_addr "\", \"encoding\": \"le64\", "
			if (note_addr !~ MODHALF || length(note_addr) != 16)
				fail(name, "no kallsyms address of e2e_obj from the guest (note_addr=" note_addr ")")
			else if (note_found["root"] == "")
				fail(name, "not in the scan output")
			else if (!index(note_found["root"], want_s) || split(note_found["root"], nl, "\n") != 2)
				fail(name, "want one finding starting " want_s ", got " note_found["root"])
			else
				pass(name)
		}
	}

	printf "%s: %d passed, %d failed\n", boot, passed, failed
	exit failed != 0
}
