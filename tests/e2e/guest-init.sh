#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the ptrguard e2e initramfs (busybox sh, pid 1).
#
# Reads its job from the kernel command line, prints what it observes on
# the console (ttyS0, ttyAMA0 on arm64) as marker lines, and powers off with `reboot -f`.
# It observes; tests/e2e/check.awk on the host decides what is right.
#
#   e2e.run=test    the matrix: kptr_restrict 0/1/2 x guard modes (0-3 when
#                   kernel.seq_ptr_guard exists, else 0) x root/unprivileged
#                   x files, then the robustness run, the scanner hook and
#                   the kselftest
#   e2e.run=kselftest  only the kselftest (by hand: check.awk expects all)
#   e2e.run=bench   bench/guard-overhead.sh's timings
#   e2e.run=scanbench  bench/scan-vm.sh: leaking_addresses.pl (needs the
#                   initramfs.sh --perl image), `ptrguard scan` and the
#                   floor (scan-floor: the scanner's files read once), timed
#                   side by side, then both tools' outputs of the last round
#   e2e.runs=N      scanbench rounds (default 3)
#   e2e.boot=NAME   a label repeated in every line (hash, nohash, ...)
#   e2e.secs=N      robustness run length in seconds (default 10)
#   e2e.bms=N       bench batch length in ms (default 40, see e2e-read -T)
#   e2e.bpairs=N    bench batch pairs per timing (default 120)
#
# Console lines (all start with a marker word):
#   E2E-BEGIN / E2E-END      the run started / finished cleanly
#   INFO k=v ...             facts: guard present, object address, kernel
#   OBS mod ...              one read of a test module file: read status
#                            from e2e-read, then summarize.awk's fields
#   OBS gen ...              one read of another file: status, raw=,
#                            cmp= (vs the mode 0 read), prefix=, shape=
#   OBS robust ...           the robustness run's reader counts
#   OBS perf ...             a read at perf_event_paranoid 1
#   VERDICT ...              the oracle: what a reader saw of a value it
#                            chose (class, way, shown|censored|refused)
#   SCAN-BEGIN/SCAN-END      `ptrguard scan` output (when /bin/ptrguard)
#   KUNIT-BEGIN/KUNIT-END    the series' KUnit suite's KTAP output (the
#                            module, when the kernel built it)
#   KSELFTEST-BEGIN/-END     the series' kselftest's TAP output, one run
#                            per guard mode (when /bin/seq_ptr_guard)
#   BENCH ...                one timing
#   SCANBENCH ...            one scanbench timing, or a fact about it
#   BLOB-BEGIN/BLOB-END      a file, gzip then base64 (scanbench outputs)
#   DMESG-BEGIN/DMESG-END    the whole kernel log at the end
PATH=/bin
export PATH
umask 022
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
exec </dev/console >/dev/console 2>&1

UNPRIV=1000
run=test
boot=none
secs=10
bms=40
bpairs=120
runs=3
for arg in $(cat /proc/cmdline); do
	case $arg in
	e2e.run=*) run=${arg#*=} ;;
	e2e.boot=*) boot=${arg#*=} ;;
	e2e.secs=*) secs=${arg#*=} ;;
	e2e.bms=*) bms=${arg#*=} ;;
	e2e.bpairs=*) bpairs=${arg#*=} ;;
	e2e.runs=*) runs=${arg#*=} ;;
	esac
done

finish() {
	echo "DMESG-BEGIN"
	dmesg
	echo "DMESG-END"
	echo "E2E-END boot=$boot"
	sync
	reboot -f
	sleep 10
}

# Tell the kernel log where we are, so the host can cut it by cell.
mark() {
	echo "ptrguard-e2e: $*" >/dev/kmsg
}

setkr() {
	echo "$1" >/proc/sys/kernel/kptr_restrict
	[ "$(cat /proc/sys/kernel/kptr_restrict)" = "$1" ] ||
		echo "INFO error=kptr_restrict_not_set want=$1"
}

setmode() {
	[ -e /proc/sys/kernel/seq_ptr_guard ] || return 0
	echo "$1" >/proc/sys/kernel/seq_ptr_guard
	[ "$(cat /proc/sys/kernel/seq_ptr_guard)" = "$1" ] ||
		echo "INFO error=seq_ptr_guard_not_set want=$1"
}

# read_as USER ARGS...: e2e-read as root or as the unprivileged user.
read_as() {
	who=$1
	shift
	if [ "$who" = root ]; then
		e2e-read "$@"
	else
		e2e-read -u $UNPRIV "$@"
	fi
}

# Whether file $1 holds a raw kernel address: 16 hex digits from the
# kernel half, minus the ERR_PTR range.  x86_64 (X86_5LEVEL is off): from
# 0xffff800000000000; arm64 (VA_BITS 52, tests/e2e/kernel-arm64.config):
# from PAGE_OFFSET = -2^52, 0xfff0000000000000, the linear map's start.
case $(uname -m) in
aarch64) KHALF='fff[0-9a-f]{13}' ;;
*) KHALF='ffff[89a-f][0-9a-f]{11}' ;;
esac
hasraw() {
	# (the x86 vsyscall page's fixed address, in every /proc/PID/maps, is none)
	if grep -Eo "$KHALF" "$1" |
		grep -v '^ffffffffff6000' | grep -qv '^fffffffffffff'; then
		echo yes
	else
		echo no
	fi
}

# What of file $2 (named $1) is compared across modes.  timer_list keeps
# only its lines without clocks and counters (the pointers, symbols and
# headers); sched/debug, live counters on nearly every line, its lines
# without digits; stackdepot/stats (KASAN) without its digits; everything
# else is compared whole.
norm() {
	case $1 in
	/proc/timer_list)
		# (a counter has no leading zero: a censored pointer,
		# all zeros, is no counter and stays)
		grep -v -E 'nsecs|jiffies|^ #|^  \.[a-z_]+ *: *([1-9][0-9]*|0)$|retries:' "$2"
		;;
	/sys/kernel/debug/sched/debug)
		grep -v '[0-9]' "$2"
		;;
	/sys/kernel/debug/stackdepot/stats)
		# KASAN's allocation counters (debug kernel): names only
		sed 's/[0-9]//g' "$2"
		;;
	*)
		cat "$2"
		;;
	esac
}

# obs_mod USER PATH AT: read a test module file, summarize the records.
obs_mod() {
	st=$(read_as "$1" $bufopt -o /tmp/out "$2")
	partial=no
	case $st in
	"bytes=0 "*|*endnl=yes*) ;;
	*) partial=yes ;;	# the last line has no newline
	esac
	sum=$(awk -v at="$3" -v addr="$addr" -f /lib/summarize.awk /tmp/out)
	echo "OBS mod $cell user=$1 file=$2 at=$3 $st partial=$partial $sum"
}

# obs_gen USER PATH: read any file; compare with the mode 0 read of the
# same cell (boot, kptr_restrict, user).
obs_gen() {
	st=$(read_as "$1" -o /tmp/out "$2")
	raw=$(hasraw /tmp/out)
	base=/tmp/base/$kr.$1.$(echo "$2" | tr / _)
	cur=/tmp/out
	case $2 in
	/proc/timer_list|/sys/kernel/debug/sched/debug|/sys/kernel/debug/stackdepot/stats)
		norm "$2" /tmp/out >/tmp/norm
		cur=/tmp/norm
		;;
	esac
	# shape: the number of whitespace-separated fields of each line (and
	# so the number of lines), which a censored file keeps
	awk '{ print NF }' "$cur" >/tmp/shape
	if [ "$2" = /proc/self/stack ]; then
		# The reader's own stack: it differs with every call path.
		cmp=- prefix=- shape=-
	elif [ "$mode" = 0 ]; then
		mv "$cur" "$base"
		mv /tmp/shape "$base.shape"
		cmp=base prefix=base shape=base
	else
		if cmp -s /tmp/shape "$base.shape"; then shape=same; else shape=differs; fi
		if cmp -s "$cur" "$base"; then
			cmp=same prefix=yes
		else
			cmp=differs
			size=$(wc -c <"$cur")
			if head -c "$size" "$base" | cmp -s - "$cur"; then prefix=yes; else prefix=no; fi
		fi
	fi
	echo "OBS gen $cell user=$1 file=$2 $st raw=$raw cmp=$cmp prefix=$prefix shape=$shape"
}

# The module's short files (records 0-7, the conversion at 4), the long one.
MODFILES="px p pK pS_nosym pV lx pS_sym pI4 pM px_user px_null px_err lx_small put_dec put_dec_user put_dec_ll bprintf bprintf_user"

matrix() {
	mkdir -p /tmp/base
	gen="/proc/kallsyms /proc/modules /proc/net/unix /proc/net/tcp /proc/timer_list"
	# a process that only sleeps, the unprivileged user's: its maps
	# (seq_put_hex_ll()) and stat (seq_put_decimal_*()) hold user
	# addresses and counts, and must read the same in every mode
	e2e-read -u $UNPRIV -x sleep 100000 &
	sleeper=$!
	sleep 1
	gen="$gen /proc/$sleeper/maps /proc/$sleeper/stat"
	[ -e /proc/self/stack ] && gen="$gen /proc/self/stack"
	gen="$gen /proc/ptrguard_e2e/heavy $debugfs"
	for kr in 0 1 2; do
		setkr $kr
		for mode in $modes; do
			setmode $mode
			cell="boot=$boot kr=$kr mode=$mode"
			mark "cell $cell begin"
			for user in root user; do
				# Root reads a page at a time, the user 7 bytes at a
				# time: a refusal must hold across short reads too.
				bufopt=
				[ $user = user ] && bufopt="-b 7"
				for f in $MODFILES; do
					obs_mod $user /proc/ptrguard_e2e/$f 4
				done
				bufopt=
				obs_mod $user /proc/ptrguard_e2e/px_long 1500
				obs_mod $user /sys/kernel/debug/ptrguard_e2e/px 4
				obs_mod $user /sys/kernel/debug/ptrguard_e2e/lx 4
				# Twice more in mode 1: still one log line per site.
				if [ "$mode" = 1 ]; then
					for f in px lx pV; do
						read_as $user /proc/ptrguard_e2e/$f >/dev/null
						read_as $user /proc/ptrguard_e2e/$f >/dev/null
					done
				fi
				for f in $gen; do
					obs_gen $user $f
				done
			done
			mark "cell $cell end"
		done
	done
	kill "$sleeper"
	setmode 0
	setkr 0
}

# The guard's tracepoint, on for the matrix.
GUARD_EVENT=/sys/kernel/tracing/events/seq_ptr_guard/seq_ptr_guard_leak
trace_guard() {
	[ -d $GUARD_EVENT ] || return 0
	echo 8192 >/sys/kernel/tracing/buffer_size_kb
	echo 1 >$GUARD_EVENT/enable || echo "INFO error=tracepoint_not_enabled"
}

# What the guard saw of the matrix, in its own words: one OBS site line per
# line of its debugfs file, and per module call site the number of its
# trace events of each action (shown, censored, refused).
guard_view() {
	sites=/sys/kernel/debug/seq_ptr_guard/sites
	[ -e $sites ] || return 0
	echo 0 >$GUARD_EVENT/enable
	while IFS= read -r line; do
		echo "OBS site $line"
	done <$sites
	for s in e2e_show_px e2e_show_bprintf e2e_show_put_dec e2e_show_px_user; do
		sh=$(grep -c "show=$s .*action=shown" /sys/kernel/tracing/trace)
		c=$(grep -c "show=$s .*action=censored" /sys/kernel/tracing/trace)
		r=$(grep -c "show=$s .*action=refused" /sys/kernel/tracing/trace)
		echo "OBS trace show=$s shown=$sh censored=$c refused=$r"
	done
}

# The verdict oracle: values root looks up (mapped kernel memory: the
# kernel's text, a module variable, the module's kmalloc'd object, a
# vmalloc area), unmapped values of the same window (x86_64 4-level: the
# guard hole's start and the unused top of the address space) and values
# outside it (a user address, the first non-canonical one, ERR_PTR(-2)),
# printed by the kernel for a process that chose them (e2e-oracle), as
# root and as the unprivileged user, for each kptr_restrict and guard
# mode.  One VERDICT line per class and way; the values themselves go to
# the console once, as INFO, and never into a VERDICT line: the tables of
# two KASLR boots must compare equal.
oracle() {
	setkr 1
	setmode 0
	vm=$(awk '/^0x[0-9a-f]+-0x[0-9a-f]+ / { print substr($1, 3, 16); exit }' /proc/vmallocinfo 2>/dev/null)
	setkr 0
	text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
	vals=
	# (a value not found leaves its class out; check.awk wants them all)
	for v in text-mapped=$text module-mapped=$(note_addr) heap-mapped=$addr vmalloc-mapped=$vm; do
		[ -n "${v#*=}" ] && vals="$vals $v"
	done
	vals="$vals hole-unmapped=ffff800000001000 top-unmapped=fffffffffff00000"
	vals="$vals user-control=00007ffc10000000 noncanon-control=0000800000000000"
	vals="$vals err-control=fffffffffffffffe"
	echo "INFO oracle_values=$(echo $vals | tr ' ' ',')"
	for kr in 0 1 2; do
		setkr $kr
		for mode in $modes; do
			setmode $mode
			for user in root user; do
				if [ $user = root ]; then
					e2e-oracle $vals
				else
					e2e-read -u $UNPRIV -x e2e-oracle $vals
				fi 2>&1 | while IFS= read -r line; do
					case $line in
					class=*) echo "VERDICT boot=$boot kr=$kr mode=$mode user=$user $line" ;;
					*) echo "$line" ;;
					esac
				done
			done
		done
	done
	setmode 0
	setkr 0
}

# perf_event_paranoid 1 at kptr_restrict 0 makes every reader privileged
# for kallsyms_show_value(), so for the guard too: the unprivileged user
# must read /proc/kallsyms and /proc/modules with their addresses in
# modes 2 and 3 (unprivileged perf keeps working).
perf_readers() {
	[ -w /proc/sys/kernel/perf_event_paranoid ] || return 0
	old=$(cat /proc/sys/kernel/perf_event_paranoid)
	echo 1 >/proc/sys/kernel/perf_event_paranoid
	setkr 0
	for m in $modes; do
		setmode $m
		for f in /proc/kallsyms /proc/modules; do
			st=$(read_as user -o /tmp/out $f)
			echo "OBS perf boot=$boot paranoid=1 kr=0 mode=$m user=user file=$f $st raw=$(hasraw /tmp/out)"
		done
	done
	echo "$old" >/proc/sys/kernel/perf_event_paranoid
	setmode 0
}

# Readers in parallel while the sysctls flip; reads may succeed or fail
# with EPERM, nothing else, and the kernel log must stay clean.
robust() {
	mark "robust begin"
	end=$(( $(date +%s) + secs ))
	(
		while [ "$(date +%s)" -lt $end ]; do
			for m in $modes; do
				setmode $m
				setkr $(( m % 3 ))
			done
		done
	) &
	pids=$!
	i=0
	for who in root user root user; do
		i=$((i + 1))
		(
			ok=0 eperm=0 other=0 loops=0
			files="/proc/ptrguard_e2e/px /proc/ptrguard_e2e/pK
			       /proc/ptrguard_e2e/heavy /proc/ptrguard_e2e/px_long
			       /proc/net/unix /proc/modules"
			# timer_list is root's (0400)
			[ $who = root ] && files="$files /proc/timer_list"
			while [ "$(date +%s)" -lt $end ]; do
				for f in $files; do
					set -- $(read_as $who -r 3 $f | tr '=' ' ')
					ok=$((ok + $4)) eperm=$((eperm + $6)) other=$((other + $8))
					[ "$8" = 0 ] || echo "INFO robust_error=1 file=$f user=$who errno=${10}"
				done
				loops=$((loops + 1))
			done
			echo "OBS robust boot=$boot reader=$i user=$who loops=$loops ok=$ok eperm=$eperm other=$other"
		) &
		pids="$pids $!"
	done
	wait $pids	# not e2e-sockets, which runs until the end
	setmode 0
	setkr 0
	mark "robust end"
}

# The live scanner hook (the no_hash_pointers boot only): root in mode 0,
# then the unprivileged user in mode 2 on the module's files, both at
# kptr_restrict 0.
scan() {
	grep -q no_hash_pointers /proc/cmdline || return 0
	[ -x /bin/ptrguard ] || { echo "INFO scanner=absent"; return 0; }
	echo "INFO scanner=present"
	setkr 0
	setmode 0
	# The whole output (40,000 findings, most of them /proc/kallsyms) stays
	# in the guest; the console gets its size and the module's findings:
	# its seq_files and its ELF note (a binary file), whose address is
	# that of e2e_obj in kallsyms.
	echo "INFO note_addr=$(note_addr)"
	timeout 300 ptrguard scan --all --json /proc /sys >/tmp/scan.json 2>/tmp/scan.err
	rc=$?
	echo "SCAN-BEGIN boot=$boot user=root mode=0"
	grep -F -e '"file": "/proc/ptrguard_e2e/' \
		-e '"file": "/sys/module/ptrguard_e2e/notes/' /tmp/scan.json
	echo "SCAN-END rc=$rc findings=$(grep -c '"file": ' /tmp/scan.json) errors=$(wc -l </tmp/scan.err)"
	if [ -e /proc/sys/kernel/seq_ptr_guard ]; then
		setmode 2
		echo "SCAN-BEGIN boot=$boot user=user mode=2"
		timeout 120 e2e-read -u $UNPRIV -x ptrguard scan --json /proc/ptrguard_e2e 2>&1
		echo "SCAN-END rc=$?"
		setmode 0
	fi
}

# The series' kselftest (tools/testing/selftests/seq_ptr_guard, built
# static from the guarded tree), as root runs it, with the test module's
# files added, at kptr_restrict 0: in guard mode 2 (it must pass) and in
# mode 0, where /proc shows what an unpatched kernel shows (it must fail
# on the module's world-readable leaks).  Without the guard: mode 0 only,
# where the test skips (exit 4): there is no guard to test.
# The series' KUnit suite, a module of the guard kernel: its KTAP output,
# from the kernel log, between markers, without the log's timestamps.  It
# sets the guard's mode itself and puts the machine's back.
kunit() {
	[ -f /lib/seq_ptr_guard_kunit.ko ] || return 0
	echo "KUNIT-BEGIN boot=$boot"
	mark "kunit begin"
	insmod /lib/seq_ptr_guard_kunit.ko || echo "INFO error=kunit_insmod_failed"
	dmesg | sed -n '/ptrguard-e2e: kunit begin/,$p' | sed 's/^\[[ 0-9.]*\] //'
	echo "KUNIT-END boot=$boot"
}

kselftest() {
	[ -x /bin/seq_ptr_guard ] || { echo "INFO kselftest=absent"; return 0; }
	echo "INFO kselftest=present"
	ksmodes=0
	[ -e /proc/sys/kernel/seq_ptr_guard ] && ksmodes="2 0"
	setkr 0
	for m in $ksmodes; do
		setmode "$m"
		echo "KSELFTEST-BEGIN boot=$boot mode=$m"
		seq_ptr_guard /proc/ptrguard_e2e
		echo "KSELFTEST-END boot=$boot mode=$m rc=$?"
	done
	setmode 0
}

bench() {
	e2e-sockets 500 >/tmp/sockets.out &	# 1,000 sockets
	sleep 1
	# Guarded kernel: mode 0 against mode 2, batch by batch (e2e-read
	# switches the mode between batches, so both see the same host load),
	# then mode 0 against itself: the spread of the method.  Pristine
	# kernel: only the latter.
	echo "INFO clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	pairs="-"
	[ -e /proc/sys/kernel/seq_ptr_guard ] && pairs="0,1 0,2 0,3 0,0"
	for f in /proc/meminfo /proc/self/maps /proc/ptrguard_e2e/heavy /proc/net/unix; do
		for p in $pairs; do
			if [ "$p" = - ]; then
				r=$(e2e-read -u $UNPRIV -T "$bms" -n "$bpairs" $f)
			else
				r=$(e2e-read -u $UNPRIV -T "$bms" -n "$bpairs" -A $p $f)
			fi
			echo "BENCH boot=$boot file=$f modes=$p rc=$? $r"
		done
	done
	# root reading /proc/kallsyms: every line a %px it is meant to see,
	# logged in mode 1, shown unreported in modes 2 and 3
	if [ "$pairs" != - ]; then
		for p in 0,1 0,2 0,0; do
			r=$(e2e-read -T "$bms" -n "$bpairs" -A $p /proc/kallsyms)
			echo "BENCH boot=$boot file=/proc/kallsyms(root) modes=$p rc=$? $r"
		done
	fi
	setmode 0
}

# timed TOOL ROUND OUT CMD...: run CMD (stdout to OUT, stderr to OUT.err)
# under a 600 s timeout; one SCANBENCH line with busybox time's wall,
# user and system seconds.
timed() {
	tool=$1 round=$2 out=$3
	shift 3
	time -f '%e %U %S' -o /tmp/time timeout 600 "$@" >"$out" 2>"$out.err"
	rc=$?
	set -- $(tail -n 1 /tmp/time)
	echo "SCANBENCH tool=$tool round=$round rc=$rc wall=$1 user=$2 sys=$3 lines=$(wc -l <"$out") errlines=$(wc -l <"$out.err")"
}

# blob NAME FILE: FILE on the console, gzip'd and base64'd (the outputs
# are megabytes; the host decodes them).
blob() {
	echo "BLOB-BEGIN name=$1 bytes=$(wc -c <"$2")"
	gzip -c "$2" | base64
	echo "BLOB-END name=$1"
}

# leaking_addresses.pl and `ptrguard scan` over the same roots (/proc with
# pid 1 only, /sys with debugfs and tracefs below it, the kernel log), as
# root at kptr_restrict 0 in guard mode 0; each round runs the script, the
# floor (scan-floor reading, with as many threads as the scanner, the
# files the scanner read, in its order: the list an untimed scan wrote
# first), the default scan, the scan with --all (text) and with --all
# --json, in an order that alternates from round to round, then (untimed)
# the default scan with --debug-times: one SCANBENCH times line.
scanbench() {
	setkr 0
	setmode 0
	[ -x /usr/bin/perl ] && [ -r /lib/leaking_addresses.pl ] ||
		{ echo "INFO error=no_perl_in_initramfs"; return; }
	[ -x /bin/ptrguard ] || { echo "INFO error=no_ptrguard_in_initramfs"; return; }
	[ -x /bin/scan-floor ] || { echo "INFO error=no_scan_floor_in_initramfs"; return; }
	echo "INFO clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "SCANBENCH perl=$(perl -e 'print $]') runs=$runs note_addr=$(note_addr)"
	# tracefs is mounted twice (/sys/kernel/tracing and the debugfs
	# automount): the same directory, which the scanner enters once.
	echo "SCANBENCH dir=/sys/kernel/tracing id=$(stat -c %d:%i /sys/kernel/tracing)"
	echo "SCANBENCH dir=/sys/kernel/debug/tracing id=$(stat -c %d:%i /sys/kernel/debug/tracing/)"
	cd /tmp || return
	ptrguard scan --all --no-progress --dmesg --pids=1 --debug-list-files /tmp/files.lst \
		/proc /sys >/dev/null 2>&1
	echo "SCANBENCH files=$(tr '\0' '\n' </tmp/files.lst | wc -l) jobs=$(nproc)"
	# The guest's clock, to be checked against the host's (bench/scan-vm.sh).
	echo "SCANBENCH begin_uptime=$(cut -d' ' -f1 /proc/uptime)"
	i=1
	while [ $i -le "$runs" ]; do
		order="perl floor ptrguard-default ptrguard ptrguard-json"
		[ $((i % 2)) = 0 ] && order="ptrguard-json ptrguard ptrguard-default floor perl"
		for tool in $order; do
			case $tool in
			perl)
				timed perl $i /tmp/pl.out perl /lib/leaking_addresses.pl
				;;
			floor)
				timed floor $i /tmp/floor.out scan-floor -j "$(nproc)" /tmp/files.lst
				;;
			ptrguard-default)
				timed ptrguard-default $i /tmp/pg.default ptrguard scan --no-progress \
					--dmesg --pids=1 /proc /sys
				;;
			ptrguard)
				timed ptrguard $i /tmp/pg.txt ptrguard scan --all --no-progress \
					--dmesg --pids=1 /proc /sys
				;;
			*)
				timed ptrguard-json $i /tmp/pg.json ptrguard scan --all --json \
					--no-progress --dmesg --pids=1 /proc /sys
				;;
			esac
		done
		ptrguard scan --no-progress --debug-times --dmesg --pids=1 /proc /sys \
			2>&1 >/dev/null | sed -n "s/^scan: times (s): /SCANBENCH times round=$i /p"
		i=$((i + 1))
	done
	echo "SCANBENCH end_uptime=$(cut -d' ' -f1 /proc/uptime)"
	# What the model drops, for the diff's "on purpose" column: not timed.
	ptrguard scan --json --ignored --no-progress --dmesg --pids=1 /proc /sys \
		2>/dev/null | grep '"ignored": true' >/tmp/pg.ign
	blob perl.out /tmp/pl.out
	blob perl.err /tmp/pl.out.err
	blob ptrguard.json /tmp/pg.json
	blob ptrguard.err /tmp/pg.json.err
	blob ptrguard.ign /tmp/pg.ign
	echo "SCANBENCH done_uptime=$(cut -d' ' -f1 /proc/uptime)"
	cd /
}

# The kallsyms value of the module's e2e_obj variable: the address the
# module's ELF note (/sys/module/ptrguard_e2e/notes/.note.PtrGuard) holds.
note_addr() {
	awk '$3 == "e2e_obj" && $4 == "[ptrguard_e2e]" { print $1 }' /proc/kallsyms
}

echo "E2E-BEGIN boot=$boot run=$run"
echo "INFO kernel=$(uname -r) cpus=$(nproc)"
if [ -e /proc/sys/kernel/seq_ptr_guard ]; then
	modes="0 1 2 3"
	echo "INFO guard=present"
else
	modes=0
	echo "INFO guard=absent"
fi
grep -q no_hash_pointers /proc/cmdline && echo "INFO hashing=off" || echo "INFO hashing=on"
insmod /lib/ptrguard_e2e.ko || echo "INFO error=insmod_failed"
addr=$(dmesg | sed -n 's/.*ptrguard_e2e: obj \([0-9a-f]\{16\}\).*/\1/p' | tail -n 1)
echo "INFO addr=${addr:-none}"
# Where KASLR put the kernel's text this boot (root, kptr_restrict 0):
# tests/e2e/run wants the two test boots to differ.
setkr 0
echo "INFO perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo none)"
echo "INFO text_addr=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)"

case $run in
test)
	e2e-sockets 20 >/tmp/sockets.out &
	sleep 1
	[ "$(cat /tmp/sockets.out)" = ready ] || echo "INFO error=sockets_not_ready"
	# debugfs: every readable regular file but ours and those under
	# tracing/, which block or change with each read (pipes, buffers).
	# (The guard's own counters change with every refusal: guard_view.)
	debugfs=$(find /sys/kernel/debug -type f -perm -u+r ! -path '*/ptrguard_e2e/*' \
		! -path '*/tracing/*' ! -path '*/seq_ptr_guard/*' | LC_ALL=C sort)
	debugfs="$debugfs /sys/kernel/debug/tracing/printk_formats /sys/kernel/debug/tracing/available_events"
	echo "INFO debugfs_files=$(echo $debugfs | wc -w)"
	trace_guard
	matrix
	guard_view
	oracle
	perf_readers
	robust
	scan
	kselftest
	kunit
	;;
bench)
	bench
	;;
scanbench)
	scanbench
	;;
kselftest)
	kselftest
	;;
*)
	echo "INFO error=unknown_run_$run"
	;;
esac
finish
