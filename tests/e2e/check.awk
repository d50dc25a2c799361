# SPDX-License-Identifier: GPL-2.0
# Judge one e2e boot from its serial log; print PASS:/FAIL: lines.
#
#   awk -v boot=NAME -v hashing=on|off -v guard=0|1 [-v arch=x86_64|arm64] \
#       [-v kver=6.12|6.1] -f check.awk LOG
#
# kver (default 6.12): 6.1 prints "(____ptrval____)" for a hashed %p until
# the random pool is ready to key the hash (ptr_to_id(); 6.12 keys it
# early), which a TCG guest without an entropy source may never reach.
# arch (default x86_64) says where the guest's kernel addresses lie: see
# KHALF and MODHALF in BEGIN.
# guard=1: the kernel was built with the guard series, so
# kernel.seq_ptr_guard must exist and modes 0-3 must have run.
#
# The guest (guest-init.sh) only observes; every expectation is here, and
# written by hand from what 6.12 prints (lib/vsprintf.c, kernel/kallsyms.c,
# net/unix, kernel/time/timer_list.c) and what the guard promises:
#   mode 0  off: every read as without the guard
#   mode 1  log: every read as in mode 0; one log line per leaking call site
#   mode 2  censor (the default), for a reader the kernel would not show
#           addresses to (not kallsyms_show_value(): here every reader but
#           root at kptr_restrict 0 and 1, perf_event_paranoid being 2):
#           each conversion that would print a kernel address prints its
#           text with every digit '0' ("0x", spaces and '-' kept, same
#           length); the record and every other byte are delivered, errno 0
#   mode 3  refuse, for the same readers: a record that would print a
#           kernel address fails the read with EPERM; the records before it
#           are delivered, nothing of it
# "Kernel address" is decided from public facts only (x86_64: the window
# 0xffff800000000000 <= v < 2^64-4095, never whether v is mapped): the
# oracle (VERDICT lines, check_oracle()) checks that values a process
# chose get one verdict for mapped and unmapped values of the window.
# For the test module the ground truth of "prints a kernel address" is the
# table in leaks() below (checked by the mode 0 reads: raw= must match it);
# for other files it is the mode 0 read of the same cell (hashing,
# kptr_restrict, reader), whose raw= the baseline table checks where the
# source fixes it.

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

function base(path,   n, parts) {
	n = split(path, parts, "/")
	return parts[n]
}

# Does the test module's conversion print the raw object address?
function leaks(name, kr, user) {
	if (name == "px" || name == "pV" || name == "lx" || name == "pS_nosym" ||
	    name == "px_long" || name == "put_dec" || name == "put_dec_ll" ||
	    name == "bprintf")
		return 1
	if (name == "p")
		return hashing == "off"
	if (name == "pK")	# restricted_pointer(): kr 0 is plain %p
		return (kr == 0 && hashing == "off") || (kr == 1 && user == "root")
	return 0
}

# What the record's text must be when it is delivered (anchored regex).
function text_re(name, kr, user) {
	if (name == "put_dec")	# the address in decimal
		return "^put_dec=1[0-9]+$"
	if (name == "put_dec_ll")	# the same as a negative long long
		return "^put_dec_ll=-[1-9][0-9]+$"
	if (leaks(name, kr, user))
		return "^" name "=(0x)?" addr "$"
	if (name == "p" || name == "pK" && kr == 0)	# hashed: 32 bits
		return "^" name "=(00000000[0-9a-f]+" (kver == "6.1" ? "|\\(____ptrval____\\)" : "") ")$"
	if (name == "pK")
		return "^pK=0000000000000000$"
	if (name == "pS_sym")
		return "^pS_sym=e2e_stop\\+0x0/0x[0-9a-f]+_\\[ptrguard_e2e\\]$"
	if (name == "pI4")
		return "^pI4=127\\.0\\.0\\.1$"
	if (name == "pM")
		return "^pM=02:00:5e:10:20:30$"
	if (name == "px_user")
		return "^px_user=000000007ffc1000$"
	if (name == "px_null")
		return "^px_null=0000000000000000$"
	if (name == "px_err")
		return "^px_err=fffffffffffffffe$"
	if (name == "lx_small")
		return "^lx_small=1234$"
	if (name == "put_dec_user")
		return "^put_dec_user=2147225600$"
	if (name == "bprintf_user")
		return "^bprintf_user=7ffc1000$"
	return "^$"
}

# Whether the guard hides addresses from this reader: everyone but root at
# kptr_restrict 0 and 1 (kallsyms_show_value(): CAP_SYSLOG, and at 2 no one).
# x86 always selects PERF_EVENTS, so kallsyms_show_value() would also show
# addresses to everyone at kptr_restrict 0 with perf_event_paranoid <= 1:
# the guest runs at the default 2 and says so (INFO perf_event_paranoid=).
function hides(kr, user) {
	return !(user == "root" && kr < 2)
}

# The module files whose leak is an integer conversion (%lx, bprintf's
# %lx, seq_put_decimal_*()): mode 3 censors those too, as users choose
# many of the integers files print, and refusing their records would let
# one user hide records from others.  Other files' leaks are pointers.
function intconv(name) {
	return name == "lx" || name ~ /^put_dec/ || name == "bprintf" || name == "int"
}

# The same for the other files: tracing's printk_formats prints each
# format's address with "0x%lx" (t_show()); the rest leak through %p,
# %pK or %px.
function gen_conv(file) {
	return file ~ /\/printk_formats$/ ? "int" : ""
}

function refused(mode, leak, kr, user, name) {
	return leak && mode == 3 && hides(kr, user) && !intconv(name)
}

function censored(mode, leak, kr, user, name) {
	return leak && hides(kr, user) && (mode == 2 || mode == 3 && intconv(name))
}

# The text a censored conversion prints for TEXT ("NAME=VALUE", as
# summarize.awk reports it): VALUE's digits '0', a "0x" prefix or a '-'
# sign kept, NAME= as it was.
function censor(text,   k, name, val, pre) {
	k = index(text, "=")
	name = substr(text, 1, k)
	val = substr(text, k + 1)
	pre = ""
	if (substr(val, 1, 2) == "0x")
		pre = "0x"
	else if (substr(val, 1, 1) == "-")
		pre = "-"
	val = substr(val, length(pre) + 1)
	gsub(/[0-9a-fA-F]/, "0", val)
	return name pre val
}

function check_mod(   name, cell, leak, n, want, why, re) {
	name = base(F["file"])
	cell = boot " kr=" F["kr"] " mode=" F["mode"] " " F["user"] " " F["file"]
	nmod[F["kr"] " " F["mode"] " " F["user"]]++
	n = F["at"] == 1500 ? 2000 : 8
	why = ""
	if (F["file"] ~ /^\/sys\/kernel\/debug\// && F["user"] == "user") {
		# debugfs is root's (mode 0700) with or without the guard
		if (F["errno"] != "EACCES" || F["bytes"] != 0)
			why = "want EACCES and no bytes, got errno=" F["errno"] " bytes=" F["bytes"]
	} else {
		leak = leaks(name, F["kr"], F["user"])
		if (F["mode"] == 0)
			M0text[F["kr"], F["user"], F["file"]] = F["text"]
		if (refused(F["mode"], leak, F["kr"], F["user"], name)) {
			want = "errno=EPERM recs=" F["at"] " payload=no tail=0 extra=0 partial=no raw=no"
			got = "errno=" F["errno"] " recs=" F["recs"] " payload=" F["payload"] \
			      " tail=" F["tail"] " extra=" F["extra"] " partial=" F["partial"] " raw=" F["raw"]
		} else {
			want = "errno=0 recs=" F["at"] " payload=yes tail=" (n - F["at"] - 1) \
			       " extra=0 partial=no raw=" (leak && name !~ /^put_dec/ && \
			       !censored(F["mode"], leak, F["kr"], F["user"], name) ? "yes" : "no")
			got = "errno=" F["errno"] " recs=" F["recs"] " payload=" F["payload"] \
			      " tail=" F["tail"] " extra=" F["extra"] " partial=" F["partial"] " raw=" F["raw"]
			re = text_re(name, F["kr"], F["user"])
			if (censored(F["mode"], leak, F["kr"], F["user"], name)) {
				# the mode 0 text of the same cell, digits zeroed
				re = M0text[F["kr"], F["user"], F["file"]]
				if (re == "")
					why = "no mode 0 read to compare the censored text with"
				else if (got == want && F["text"] != censor(re))
					why = "record text " F["text"] " is not the censored " censor(re)
				else if (got == want && F["text"] !~ "^" name "=(0x|-)?0+$")
					why = "record text " F["text"] " is not all zeros"
			} else if (got == want && F["text"] !~ re)
				why = "record text " F["text"] " does not match " re
		}
		if (got != want)
			why = "want " want ", got " got
	}
	if (why == "")
		pass(cell)
	else
		fail(cell, why)
}

# The mode 0 read of a non-module file: what 6.12 prints, where the source
# decides it.  Sets W_errno and W_raw ("" = not fixed by the source).
function gen_baseline(file, kr, user,   pk) {
	W_errno = "0"
	W_raw = ""
	pk = (kr == 0 && hashing == "off") || (kr == 1 && user == "root")
	if (file == "/proc/kallsyms" || file == "/proc/modules") {
		# %px of a value zeroed unless kallsyms_show_value(): CAP_SYSLOG
		# at kptr_restrict 0 and 1 (perf_event_paranoid stays 2)
		W_raw = (user == "root" && kr < 2) ? "yes" : "no"
	} else if (file == "/proc/net/unix" || file == "/proc/net/tcp") {
		W_raw = pk ? "yes" : "no"		# %pK of the sock
	} else if (file == "/proc/timer_list") {
		if (user != "root")
			W_errno = "EACCES"		# mode 0400
		else
			W_raw = hashing == "off" ? "yes" : "no"	# plain %p
	} else if (file == "/proc/self/stack") {
		if (user != "root")
			W_errno = "EACCES"		# CAP_SYS_ADMIN only
		else
			W_raw = "no"			# "[<0>] %pB"
	} else if (file == "/proc/ptrguard_e2e/heavy") {
		W_raw = (hashing == "off" || pk) ? "yes" : "no"	# %p and %pK
	} else if (file ~ /^\/proc\/[0-9]+\/(maps|stat)$/) {
		W_raw = "no"	# seq_put_hex_ll()/_decimal_*() of user values
	} else if (file ~ /^\/sys\/kernel\/debug\//) {
		if (user != "root")
			W_errno = "EACCES"		# debugfs is mode 0700
	}
}

function check_gen(   cell, key, b, leak, why, want) {
	cell = boot " kr=" F["kr"] " mode=" F["mode"] " " F["user"] " " F["file"]
	key = F["kr"] " " F["user"] " " F["file"]
	ngen[F["kr"] " " F["mode"] " " F["user"]]++
	why = ""
	if (F["mode"] == 0) {
		gen_baseline(F["file"], F["kr"], F["user"])
		B_errno[key] = F["errno"]
		B_raw[key] = F["raw"]
		if (F["errno"] != W_errno)
			why = "want errno=" W_errno ", got errno=" F["errno"]
		else if (W_raw != "" && F["raw"] != W_raw)
			why = "want raw=" W_raw " (kernel address in the output), got raw=" F["raw"]
	} else if (!(key in B_errno)) {
		why = "no mode 0 read to compare with"
	} else if (B_errno[key] != "0") {
		if (F["errno"] != B_errno[key])
			why = "want errno=" B_errno[key] " as in mode 0, got errno=" F["errno"]
	} else {
		leak = B_raw[key] == "yes"
		if (censored(F["mode"], leak, F["kr"], F["user"], gen_conv(F["file"]))) {
			# the whole file, addresses zeroed: no address left, and
			# the same lines and fields per line as in mode 0
			if (F["errno"] != "0" || F["raw"] != "no")
				why = "want errno=0 raw=no (censored), got errno=" F["errno"] " raw=" F["raw"]
			else if (F["shape"] != "same" && F["shape"] != "-")
				why = "censored output has not the lines and fields of the mode 0 output (shape=" F["shape"] ")"
		} else if (refused(F["mode"], leak, F["kr"], F["user"], gen_conv(F["file"]))) {
			if (F["errno"] != "EPERM" || F["raw"] != "no")
				why = "want errno=EPERM raw=no, got errno=" F["errno"] " raw=" F["raw"]
			else if (F["prefix"] != "yes" && F["prefix"] != "-")
				why = "what was delivered is not the start of the mode 0 output"
		} else {
			if (F["errno"] != "0" || F["raw"] != B_raw[key])
				why = "want errno=0 raw=" B_raw[key] " as in mode 0, got errno=" F["errno"] " raw=" F["raw"]
			else if (F["cmp"] != "same" && F["cmp"] != "-")
				why = "output differs from mode 0"
		}
	}
	if (why == "")
		pass(cell)
	else
		fail(cell, why)
}

# The series' kselftest as root ran it in the guest at kptr_restrict 0,
# with /proc/ptrguard_e2e added: in mode 2 it must pass (exit 0, every
# test ok, each module file that leaks to an unprivileged reader censored:
# read whole, with no kernel address in it),
# in mode 0 (the unpatched kernel's output) it must fail, on exactly those
# files and with the module's object address (%lu and %lld print it in
# decimal, the test reports it in hex).  A kernel without the guard has
# nothing to test: there it must skip (exit 4, plan 1..1, one
# "ok 1 # SKIP" line saying the guard is absent).
function check_kselftest(   modes, m, i, n, f, nf, leak, want, name, files) {
	name = boot " kselftest ran in the guest"
	if (kselftest != "present") {
		fail(name, "kselftest=" (kselftest == "" ? "not reported" : kselftest))
		return
	}
	pass(name)
	if (!guard) {
		name = boot " kselftest skips without the guard (exit 4, ok 1 # SKIP)"
		if (!(0 in ksrc))
			fail(name, "no KSELFTEST-END line")
		else if (ksrc[0] != 4)
			fail(name, "exit " ksrc[0])
		else if (ksplan[0] != 1 || ksresults[0] != 1 || ksskip[0] !~ /^ok 1 # SKIP no \/proc\/sys\/kernel\/seq_ptr_guard: /)
			fail(name, "plan 1.." ksplan[0] + 0 ", " ksresults[0] + 0 " results, skip line '" ksskip[0] "'")
		else
			pass(name)
		return
	}
	n = split("2 0", modes, " ")
	nf = split("px p pK pS_nosym pV lx pS_sym pI4 pM px_user px_null px_err lx_small put_dec put_dec_user put_dec_ll bprintf bprintf_user px_long", files, " ")
	for (i = 1; i <= n; i++) {
		m = modes[i]
		name = boot " kselftest in mode " m (m == 2 ? " passes (exit 0)" : " fails (exit 1)")
		if (!(m in ksrc))
			fail(name, "no KSELFTEST-END line")
		else if (ksrc[m] != (m == 2 ? 0 : 1))
			fail(name, "exit " ksrc[m] (ksnotok[m] != "" ? ":" ksnotok[m] : ""))
		else if (m == 2 && ksnotok[m] != "")
			fail(name, "not ok lines:" ksnotok[m])
		else if (!ksplan[m] || ksresults[m] != ksplan[m])
			fail(name, "plan 1.." ksplan[m] + 0 ", " ksresults[m] + 0 " results")
		else
			pass(name " with " ksresults[m] " results")
		for (f = 1; f <= nf; f++) {
			leak = leaks(files[f], 0, "user")
			want = "^ok [0-9]+ /proc/ptrguard_e2e/" files[f] ": no kernel address in [0-9]+ bytes$"
			if (leak && m == 0)
				want = "^not ok [0-9]+ /proc/ptrguard_e2e/" files[f] ": kernel address " addr " at byte [0-9]+$"
			name = boot " kselftest in mode " m ": /proc/ptrguard_e2e/" files[f] " " \
			       (!leak ? "passes (clean)" : m == 0 ? "fails (world-readable leak)" : "passes (censored)")
			if (ksline[m, files[f]] ~ want)
				pass(name)
			else
				fail(name, "want /" want "/, got " (ksline[m, files[f]] == "" ? "no result line" : ksline[m, files[f]]))
		}
	}
}

# The oracle (guest-init.sh oracle(), e2e-oracle): a process chose values
# and had the kernel print them through /proc/PID/syscall (0x%llx) and the
# test module's oracle file (%px, %lx, seq_put_decimal_ull(),
# seq_put_decimal_ll()), as root and as the unprivileged user, for each
# kptr_restrict and mode.  Per (kptr_restrict, mode, reader, way):
# - every class reported;
# - the mapped values (text, module, heap, vmalloc) get the verdict of
#   the unmapped values of the same window (the guard hole, the top):
#   otherwise a verdict tells a reader what is mapped, and under KASLR
#   where;
# - the controls outside the window (user, non-canonical, ERR_PTR) are
#   shown, and (x86_64, whose window the guard's spec names) the window's
#   values get the mode's verdict: shown in modes 0 and 1 and to root at
#   kptr_restrict 0 and 1, censored in mode 2, and in mode 3 refused when
#   printed as a pointer (px), censored as an integer (users choose many
#   integers, and a refusal would hide records from others).
# A signed decimal (sdec) is judged like the rest: on x86_64 the top 2 GiB
# (text, modules) read as negative ints there, and are addresses still.
# The window of every class is the kernel half: one window (subwin()).
function subwin(class, via) {
	return "addr"
}

function check_oracle(   nmodes, kr, m, u, user, v, c, w, key, ref, refs, diff, want, bad, name, cls, nc) {
	nc = split(ORACLE_MAPPED " " ORACLE_UNMAPPED " " ORACLE_CONTROL, cls, " ")
	nmodes = guard ? 4 : 1
	for (kr = 0; kr < 3; kr++)
		for (m = 0; m < nmodes; m++)
			for (u = 0; u < 2; u++)
				for (v = 1; v <= nvias; v++) {
					user = u ? "user" : "root"
					key = kr SUBSEP m SUBSEP user SUBSEP vias[v]
					name = boot " oracle kr=" kr " mode=" m " " user " via=" vias[v]
					bad = ""
					for (c = 1; c <= nc; c++)
						if (!((key, cls[c]) in verd))
							bad = bad " " cls[c]
					if (bad != "") {
						fail(name ": every class reported", "missing:" bad)
						continue
					}
					# each mapped class against the unmapped ones of
					# its window
					delete ref
					for (c = 1; c <= nc; c++)
						if (cls[c] ~ /-unmapped$/ && !(subwin(cls[c], vias[v]) in ref))
							ref[subwin(cls[c], vias[v])] = verd[key, cls[c]]
					diff = ""
					refs = ""
					for (c = 1; c <= nc; c++) {
						w = subwin(cls[c], vias[v])
						if (cls[c] ~ /-unmapped$/)
							refs = refs " " cls[c] "=" verd[key, cls[c]]
						if (cls[c] ~ /-control$/)
							continue
						if (!(w in ref))
							diff = diff " " cls[c] ": no unmapped value in its window"
						else if (verd[key, cls[c]] != ref[w])
							diff = diff " " cls[c] "=" verd[key, cls[c]]
					}
					if (diff == "")
						pass(name ": mapped and unmapped values of the window get one verdict (" substr(refs, 2) ")")
					else
						fail(name ": mapped and unmapped values of the window get one verdict",
						     substr(refs, 2) ", but" diff)
					want = (m < 2 || !hides(kr, user)) ? "shown" : \
					       m == 3 && vias[v] == "px" ? "refused" : "censored"
					bad = ""
					for (c = 1; c <= nc; c++)
						if (cls[c] ~ /-control$/ && verd[key, cls[c]] != "shown" ||
						    arch == "x86_64" && cls[c] !~ /-control$/ &&
						    verd[key, cls[c]] != (subwin(cls[c], vias[v]) == "int" ? "shown" : want))
							bad = bad " " cls[c] "=" verd[key, cls[c]]
					if (bad == "")
						pass(name ": window values " (arch == "x86_64" ? want : "as one") ", controls shown")
					else
						fail(name ": window values " (arch == "x86_64" ? want : "as one") ", controls shown",
						     "got" bad)
				}
	if (oracle_other != "")
		fail(boot " oracle: every read classified", oracle_other)
}

BEGIN {
	if (arch == "")
		arch = "x86_64"
	# A kernel address (the test module's kmalloc'd object) and where
	# module data is: x86_64 4-level, the kernel half from
	# 0xffff800000000000, modules at 0xffffffffa0000000 and up; arm64,
	# VA_BITS 52 (tests/e2e/kernel-arm64.config), the linear map from
	# 0xfff0000000000000, modules above PAGE_END 0xffff800000000000 (with
	# KASLR near the image, in vmalloc).  Checked with length() == 16.
	KHALF = arch == "arm64" ? "^fff[0-9a-f]+$" : "^ffff[89a-f][0-9a-f]+$"
	MODHALF = arch == "arm64" ? "^ffff[89a-f][0-9a-f]+$" : "^ffffffff[0-9a-f]+$"
	failed = 0
	passed = 0
	indmesg = 0
	slice = ""
	# Lockdep and KASAN reports start with WARNING: or BUG:; lockdep that
	# gave up says so ("RCU lockdep checking is enabled" is not a report).
	bad = "WARNING:|BUG:|Oops|kernel BUG|lockdep is turned off|" \
	      "turning off the locking correctness validator|" \
	      "possible recursive locking|circular locking|inconsistent lock state|" \
	      "suspicious RCU usage|sleeping function called from invalid context|" \
	      "Call Trace|general protection fault|RCU stall"
	# the module's call sites: those that leak somewhere in this boot, and
	# the clean controls that never may be logged
	split("px pV lx pS_nosym px_long pK put_dec put_dec_ll bprintf" (hashing == "off" ? " p" : ""), sites, " ")
	split("pS_sym pI4 pM px_user px_null px_err lx_small put_dec_user bprintf_user" (hashing == "on" ? " p" : ""), clean, " ")
	# kernel/kallsyms.c s_show (module and core symbol lines),
	# kernel/module/procfs.c m_show, net/unix/af_unix.c unix_seq_show,
	# net/ipv4/tcp_ipv4.c tcp4_seq_show, kernel/trace/trace_printk.c t_show
	kmax["s_show: \"%px\""] = 2
	kmax["m_show: \"%px\""] = 1
	kmax["unix_seq_show: \"%pK\""] = 1
	kmax["tcp4_seq_show: \"%pK\""] = 1
	kmax["t_show: \"%lx\""] = 1
	# the oracle's value classes and ways (guest-init.sh oracle())
	ORACLE_MAPPED = "text-mapped module-mapped heap-mapped vmalloc-mapped"
	ORACLE_UNMAPPED = "hole-unmapped top-unmapped"
	ORACLE_CONTROL = "user-control noncanon-control err-control"
	nvias = split("syscall px lx udec sdec", vias, " ")
}

# The guard's own account of the matrix (guest-init.sh guard_view): its
# debugfs line and its trace events for a leak through each way into a
# record.  Mode 1 logs and prints it (root and user), mode 2 censors it
# for the user, mode 3 refuses the user a pointer and censors an integer:
# the logged and censored counts are non-zero in every boot, the refused
# count is for the pointer only, and so are the trace events of each
# action (shown, censored, refused).
function guard_view(   n, i, s, want, name, l, r) {
	n = split("px:%px:raw bprintf:%lx:int put_dec:%llu:int", want, " ")
	for (i = 1; i <= n; i++) {
		split(want[i], w, ":")
		s = "e2e_show_" w[1]
		name = boot " debugfs seq_ptr_guard/sites counts " s
		l = site_line[s]
		if (l == "")
			fail(name, "no line (" nsite + 0 " lines)")
		r = w[3] == "int" ? "0" : "[1-9][0-9]*"
		if (l == "")
			;
		else if (!index(l, "conv=\"" w[2] "\" kind=" w[3] " ") ||
			 l !~ (" logged=[1-9][0-9]* censored=[1-9][0-9]* refused=" r " fmt=\""))
			fail(name, "line " l)
		else
			pass(name)
		name = boot " tracepoint seq_ptr_guard_leak shows " s " shown, censored" \
		       (w[3] == "int" ? ", never refused" : " and refused")
		if (tr_shown[s] + 0 > 0 && tr_censored[s] + 0 > 0 &&
		    (w[3] == "int" ? tr_refused[s] + 0 == 0 : tr_refused[s] + 0 > 0))
			pass(name)
		else
			fail(name, "shown=" tr_shown[s] + 0 " censored=" tr_censored[s] + 0 " refused=" tr_refused[s] + 0)
	}
	name = boot " debugfs seq_ptr_guard/sites: no clean control"
	if ("e2e_show_px_user" in site_line || "e2e_show_bprintf_user" in site_line ||
	    "e2e_show_put_dec_user" in site_line)
		fail(name, "a clean control has a line")
	else
		pass(name)
	name = boot " tracepoint: no event for a clean control"
	if (tr_shown["e2e_show_px_user"] + tr_censored["e2e_show_px_user"] + tr_refused["e2e_show_px_user"] > 0)
		fail(name, "e2e_show_px_user traced")
	else
		pass(name)
}

/E2E-BEGIN/ { began = 1 }	# after the terminal reset qemu prints
/^E2E-END/ { ended = 1 }
/^INFO / {
	parse()
	if ("guard" in F) guard_seen = F["guard"]
	if ("hashing" in F) hashing_seen = F["hashing"]
	if ("addr" in F) addr = F["addr"]
	if ("scanner" in F) scanner = F["scanner"]
	if ("note_addr" in F) note_addr = F["note_addr"]
	if ("kselftest" in F) kselftest = F["kselftest"]
	if ("error" in F) fail(boot " guest setup", F["error"])
	if ("robust_error" in F) robust_errors = robust_errors " " F["file"] ":" F["errno"]
	if ("oracle_other" in F) oracle_other = oracle_other " [" substr($0, 6) "]"
	if ("text_addr" in F) text_addr = F["text_addr"]
	if ("oracle_values" in F) {
		n = split(F["oracle_values"], ov, ",")
		for (i = 1; i <= n; i++) {
			k = index(ov[i], "=")
			oracle_val[substr(ov[i], 1, k - 1)] = substr(ov[i], k + 1)
		}
	}
	if ("perf_event_paranoid" in F) paranoid = F["perf_event_paranoid"]
	next
}
/^OBS mod / { parse(); check_mod(); next }
# The guard's debugfs file: show="NAME [module]" conv="..." kind=K
# logged=N censored=N refused=N fmt="..."
/^OBS site / {
	if (match($0, /show="[^"]*"/)) {
		s = substr($0, RSTART + 6, RLENGTH - 7)
		sub(/ \[ptrguard_e2e\]$/, "", s)
		site_line[s] = $0
	}
	nsite++
	next
}
/^OBS trace / {
	parse()
	tr_shown[F["show"]] = F["shown"]
	tr_censored[F["show"]] = F["censored"]
	tr_refused[F["show"]] = F["refused"]
	next
}
/^OBS gen / { parse(); check_gen(); next }
# perf_event_paranoid 1, kptr_restrict 0 (guest-init.sh perf_readers()):
# kallsyms_show_value() shows addresses to everyone, so the guard must not
# hide them from the unprivileged user in any mode.
/^OBS perf / {
	parse()
	nperf++
	name = boot " perf_event_paranoid=1 kr=0 mode=" F["mode"] " user " F["file"] " shows addresses"
	if (F["errno"] == "0" && F["raw"] == "yes")
		pass(name)
	else
		fail(name, "errno=" F["errno"] " raw=" F["raw"])
	next
}
/^VERDICT / {
	parse()
	verd[F["kr"], F["mode"], F["user"], F["via"], F["class"]] = F["verdict"]
	next
}
/^OBS robust / {
	parse()
	nrobust++
	if (F["other"] != 0 || F["ok"] == 0)
		fail(boot " robustness reader " F["reader"] " (" F["user"] ")",
		     "reads ok=" F["ok"] " eperm=" F["eperm"] " other errors=" F["other"] robust_errors)
	else
		pass(boot " robustness reader " F["reader"] " (" F["user"] "): " F["ok"] " reads, " F["eperm"] " refused")
	next
}
/^SCAN-BEGIN/ { parse(); inscan = F["user"]; next }
/^SCAN-END/ { inscan = ""; next }
inscan != "" {
	# a finding is a JSON object {"file": "PATH", ...}, one per line
	if (match($0, /"file": "\/proc\/ptrguard_e2e\/[a-zA-Z_]+"/))
		scanned[inscan, substr($0, RSTART + 9, RLENGTH - 10)]++
	# the module's ELF note: binary, the desc (e2e_obj's address) at 24
	if (index($0, "{\"file\": \"/sys/module/ptrguard_e2e/notes/.note.PtrGuard\", "))
		note_found[inscan] = note_found[inscan] $0 "\n"
	next
}
# The series' KUnit suite, run as a module by the guest (guard kernels)
/^KUNIT-BEGIN/ { inkunit = 1; kunit_seen = 1; next }
/^KUNIT-END/ { inkunit = 0; next }
inkunit {
	if ($0 ~ /^ *(not )?ok [0-9]+ /)
		kunit_results++
	if ($0 ~ /^ *not ok [0-9]+ /)
		kunit_notok = kunit_notok " [" $0 "]"
	if ($0 ~ /^ok [0-9]+ seq_ptr_guard$/)
		kunit_ok = 1
	next
}
/^KSELFTEST-BEGIN/ { parse(); ksmode = F["mode"]; inks = 1; next }
/^KSELFTEST-END/ { parse(); ksrc[ksmode] = F["rc"]; inks = 0; next }
inks {
	# TAP: the plan, then "ok N DESC" or "not ok N DESC" per file
	if ($0 ~ /^1\.\.[0-9]+$/)
		ksplan[ksmode] = substr($0, 4) + 0
	if ($0 !~ /^(not )?ok [0-9]+ /)
		next
	ksresults[ksmode]++
	if ($0 ~ /^not ok /)
		ksnotok[ksmode] = ksnotok[ksmode] " [" $0 "]"
	if ($0 ~ /^ok 1 # SKIP /)
		ksskip[ksmode] = $0
	if (match($0, /\/proc\/ptrguard_e2e\/[a-zA-Z_0-9]+: /))
		ksline[ksmode, substr($0, RSTART + 19, RLENGTH - 21)] = $0
	next
}
/^DMESG-BEGIN/ { indmesg = 1; next }
/^DMESG-END/ { indmesg = 0; next }
indmesg {
	if ($0 ~ bad && !badline)
		badline = $0
	if ($0 ~ /ptrguard-e2e: cell .* begin/) {
		slice = $0
		sub(/.*ptrguard-e2e: cell /, "", slice)
		sub(/ begin.*/, "", slice)
	}
	if (index($0, "seq_ptr_guard:")) {
		# kernel call sites whose show function has exactly that many
		# formats with this conversion (counted in the 6.12 source)
		if (match($0, /seq_ptr_guard: [a-z0-9_]+: "%[a-zA-Z]+"/)) {
			k = substr($0, RSTART + 15, RLENGTH - 15)
			if (k in kmax)
				klogged[k]++
		}
		for (i in sites)
			if (index($0, "e2e_show_" sites[i] " ")) {
				logged[sites[i]]++
				if (slice !~ /mode=1/)
					logged_out[sites[i]] = slice
			}
		for (i in clean)
			if (index($0, "e2e_show_" clean[i] " "))
				logged_clean[clean[i]] = $0
	}
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
	if (addr !~ KHALF || length(addr) != 16)
		fail(boot " test module loaded", "no object address in the kernel log")
	if (paranoid != "" && paranoid < 2)
		fail(boot " perf_event_paranoid >= 2 (hides() assumes it)", "perf_event_paranoid=" paranoid)
	if (text_addr !~ KHALF || length(text_addr) != 16)
		fail(boot " _text read from /proc/kallsyms as root", "text_addr=" text_addr)

	# every cell complete: 18 module reads, 9+ other files per reader
	nmodes = guard ? 4 : 1
	for (kr = 0; kr < 3; kr++)
		for (m = 0; m < nmodes; m++)
			for (u = 0; u < 2; u++) {
				c = kr " " m " " (u ? "user" : "root")
				if (nmod[c] != 21 || ngen[c] < 9)
					fail(boot " cell kr=" kr " mode=" m " " (u ? "user" : "root") " complete",
					     nmod[c] + 0 " module reads, " ngen[c] + 0 " other reads")
			}

	if (nrobust != 4)
		fail(boot " robustness run", nrobust + 0 " of 4 readers reported")
	if (badline)
		fail(boot " kernel log clean", badline)
	else if (ended)
		pass(boot " kernel log clean (no WARN/BUG/Oops/lockdep/atomic sleep)")

	if (guard) {
		for (i in sites) {
			s = sites[i]
			name = boot " mode 1 logs e2e_show_" s " once"
			if (logged[s] != 1)
				fail(name, logged[s] + 0 " log lines")
			else if (s in logged_out)
				fail(name, "logged first in cell " logged_out[s] ", not in mode 1")
			else
				pass(name)
		}
		for (k in kmax) {
			name = boot " guard logs " k " at most " kmax[k] " times"
			if (klogged[k] > kmax[k])
				fail(name, klogged[k] " log lines")
			else
				pass(name)
		}
		for (i in clean) {
			s = clean[i]
			if (s in logged_clean)
				fail(boot " clean e2e_show_" s " never logged", logged_clean[s])
			else
				pass(boot " clean e2e_show_" s " never logged")
		}
		guard_view()
	}

	# The no_hash_pointers boot runs the scanner: a guest without one would
	# skip its cells silently.
	if (hashing == "off") {
		if (scanner == "present")
			pass(boot " scanner ran in the guest")
		else
			fail(boot " scanner ran in the guest", "scanner=" (scanner == "" ? "not reported" : scanner))
	}

	# The scanner hook, when the guest had a scanner: root in mode 0 must
	# see the module's leaks; the unprivileged user in mode 2 none of them.
	if (scanner == "present") {
		# The binary leak (not seq_file output: sysfs shows the module's
		# SHT_NOTE section as the loader relocated it) is found as one
		# 8-byte little-endian value at offset 24, e2e_obj's kallsyms value.
		name = boot " scan as root finds the ELF note leak /sys/module/ptrguard_e2e/notes/.note.PtrGuard @24"
		want = "{\"file\": \"/sys/module/ptrguard_e2e/notes/.note.PtrGuard\", \"offset\": 24, " \
		       "\"value\": \"" note_addr "\", \"address\": \"0x" note_addr "\", \"encoding\": \"le64\", "
		if (note_addr !~ MODHALF || length(note_addr) != 16)
			fail(name, "no kallsyms address of e2e_obj from the guest (note_addr=" note_addr ")")
		else if (note_found["root"] == "")
			fail(name, "not in the scan output")
		else if (!index(note_found["root"], want) || split(note_found["root"], nl, "\n") != 2)
			fail(name, "want one finding starting " want ", got " note_found["root"])
		else
			pass(name)
		# ... and nothing in the module's clean controls: an address-like
		# value that is none (user address, NULL, ERR_PTR, small number,
		# symbol name, IP or MAC) reported is a false positive.
		split("pS_sym pI4 pM px_user px_null px_err lx_small put_dec_user bprintf_user", quiet, " ")
		for (i in quiet) {
			f = "/proc/ptrguard_e2e/" quiet[i]
			if (("root", f) in scanned)
				fail(boot " scan as root reports nothing in " f, "reported")
			else
				pass(boot " scan as root reports nothing in " f)
		}
		# Each leaking file once (its record 4, or record 1,500 of
		# px_long; put_dec in decimal, put_dec_ll negative decimal), heavy
		# 2,000 times (its %p and %pK in each of 1,000 records): every
		# planted leak, no more.
		split("px pV lx pS_nosym px_long p pK put_dec put_dec_ll bprintf heavy", found, " ")
		for (i in found) {
			f = "/proc/ptrguard_e2e/" found[i]
			n = found[i] == "heavy" ? 2000 : 1
			if (!(("root", f) in scanned))
				fail(boot " scan as root finds " f, "not in the scan output")
			else if (scanned["root", f] != n)
				fail(boot " scan as root finds " f, scanned["root", f] " findings, want " n)
			else
				pass(boot " scan as root finds " f " (" n " finding" (n > 1 ? "s" : "") ")")
			if (guard) {
				if (("user", f) in scanned)
					fail(boot " unprivileged scan in mode 2 finds nothing in " f, "reported")
				else
					pass(boot " unprivileged scan in mode 2 finds nothing in " f)
			}
		}
	}
	if (guard) {
		name = boot " KUnit suite seq_ptr_guard passes as a module of this kernel"
		if (!kunit_seen)
			fail(name, "no KUNIT-BEGIN block (lib/seq_ptr_guard_kunit.ko not built?)")
		else if (kunit_notok != "")
			fail(name, "not ok:" kunit_notok)
		else if (!kunit_ok)
			fail(name, "no \"ok N seq_ptr_guard\" line (" kunit_results + 0 " results)")
		else
			pass(name " (" kunit_results " results)")
	}
	check_kselftest()
	check_oracle()
	if (nperf != 2 * (guard ? 4 : 1))
		fail(boot " perf_event_paranoid=1 reads", nperf + 0 " reads, want " 2 * (guard ? 4 : 1))
	printf "%s: %d passed, %d failed\n", boot, passed, failed
	exit failed != 0
}
