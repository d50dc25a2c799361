#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the ptrguard e2e initramfs (busybox sh, pid 1).
#
# Reads its job from the kernel command line, prints what it observes on
# the console (ttyS0, ttyAMA0 on arm64) as marker lines, and powers off with
# `reboot -f`.  It observes; tests/e2e/check.awk on the host decides what
# is right.
#
#   e2e.run=test    the states below, the files read twice, the robustness
#                   run (e2e.secs > 0), the kselftest, the scanner hook
#                   (no_hash_pointers boots)
#   e2e.run=kselftest  only the kselftest (by hand: check.awk expects all)
#   e2e.run=bench   bench/guard-overhead.sh's timings
#   e2e.run=scanbench  bench/scan-vm.sh: leaking_addresses.pl (needs the
#                   initramfs.sh --perl image), `ptrguard scan` and the
#                   floor (scan-floor: the scanner's files read once), timed
#                   side by side, then both tools' outputs of the last round
#   e2e.runs=N      scanbench rounds (default 3)
#   e2e.boot=NAME   a label repeated in the lines that need one
#   e2e.secs=N      robustness run length in seconds (default 0: none)
#   e2e.bms=N       bench batch length in ms (default 40, see e2e-read -T)
#   e2e.bpairs=N    bench batch pairs per timing (default 120)
#
# A state is the sysctls a group of reads runs under (kernel.seq_ptr_guard,
# kptr_restrict, perf_event_paranoid; set before the files are opened):
#   bootoff  as booted with sysctl.kernel.seq_ptr_guard=0 (only then)
#   on       guard 1, kptr_restrict 0, perf_event_paranoid as booted (2)
#   off      guard 0 written at run time, kptr_restrict 0
#   kr1 kr2  guard 1, kptr_restrict 1, 2
#   perf1    guard 1, kptr_restrict 0, perf_event_paranoid 1
# Readers: root, user (uid 1000, no capabilities, e2e-read -u), and in
# states on and kr1 rootfd (opened as root, read after dropping to uid
# 1000) and userfd (opened with the effective uid 1000, read as root): the
# guard takes the opener's credentials, at open.
#
# Console lines (all start with a marker word):
#   E2E-BEGIN / E2E-END      the run started / finished cleanly
#   INFO k=v ...             facts: guard present, sysctl at boot, object
#                            address, _text, perf_event_paranoid
#   OBS fmt state= reader=   one read of /proc/ptrguard_e2e/fmt: e2e-read's
#                            status; then one VAL line per line read:
#   VAL state= reader= name=NAME val=VALUE (VALUE: the rest of the line)
#   OBS gen state= reader= file=  one read of another pointer file:
#                            status, raw= (a kernel address in it),
#                            hashed= (fields that are 32-bit hashes)
#   OBS twice file=          a file opened twice by uid 1000 in one process,
#                            read with the guard on and off (e2e-read -t):
#                            status, raw_on=, raw_off=, vsyscall=
#   OBS robust ...           the robustness run's reader counts
#   SCAN-BEGIN/SCAN-END      `ptrguard scan --json` output (no_hash_pointers)
#   KSELFTEST-BEGIN/-END     the series' kselftest's TAP output
#   BENCH ...                one timing
#   SCANBENCH ...            one scanbench timing, or a fact about it
#   BLOB-BEGIN/BLOB-END      a file, gzip then base64 (scanbench outputs)
#   DMESG-BEGIN/DMESG-END    the whole kernel log at the end (the KUnit
#                            suite's KTAP lines, from boot, are in it)
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
GUARD=/proc/sys/kernel/seq_ptr_guard
run=test
boot=none
secs=0
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

# Tell the kernel log where we are.
mark() {
	echo "ptrguard-e2e: $*" >/dev/kmsg
}

setkr() {
	echo "$1" >/proc/sys/kernel/kptr_restrict
	[ "$(cat /proc/sys/kernel/kptr_restrict)" = "$1" ] ||
		echo "INFO error=kptr_restrict_not_set want=$1"
}

# (a no-op on a kernel without the guard: the pristine one)
setguard() {
	[ -e $GUARD ] || return 0
	echo "$1" >$GUARD
	[ "$(cat $GUARD)" = "$1" ] || echo "INFO error=seq_ptr_guard_not_set want=$1"
}

setparanoid() {
	echo "$1" >/proc/sys/kernel/perf_event_paranoid
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = "$1" ] ||
		echo "INFO error=perf_event_paranoid_not_set want=$1"
}

# read_as READER ARGS...: e2e-read as root, as the unprivileged user,
# opened as root and read as the user (rootfd), or opened as the user and
# read as root (userfd).
read_as() {
	who=$1
	shift
	case $who in
	root) e2e-read "$@" ;;
	user) e2e-read -u $UNPRIV "$@" ;;
	rootfd) e2e-read -u $UNPRIV -R "$@" ;;
	userfd) e2e-read -u $UNPRIV -O "$@" ;;
	esac
}

# Whether file $1 holds a raw kernel address: 16 hex digits from the
# kernel half, minus the ERR_PTR range.  x86_64 (4-level paging): from
# 0xffff800000000000; arm64 (VA_BITS 52, tests/e2e/kernel-arm64.config):
# from PAGE_OFFSET = -2^52, 0xfff0000000000000, the linear map's start.
case $(uname -m) in
aarch64) KHALF='fff[0-9a-f]{13}' ;;
*) KHALF='ffff[89a-f][0-9a-f]{11}' ;;
esac
hasraw() {
	# (the x86 vsyscall page's fixed range, in every /proc/PID/maps, is none)
	if grep -Eo "$KHALF" "$1" |
		grep -v '^ffffffffff60[01]000$' | grep -qv '^fffffffffffff'; then
		echo yes
	else
		echo no
	fi
}

# The fields of file $1 that are hashed pointers as %p prints them: 32 bits
# zero-padded to 16 digits (6.1: "(____ptrval____)" until the hash is
# keyed), a ':' after it allowed (/proc/net/unix).
hashed() {
	awk '{ for (i = 1; i <= NF; i++)
		if ($i ~ /^(00000000[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]|\(____ptrval____\)):?$/) n++ }
	     END { print n + 0 }' "$1"
}

# obs_fmt READER: read /proc/ptrguard_e2e/fmt; its status, then its lines.
obs_fmt() {
	st=$(read_as "$1" -o /tmp/out /proc/ptrguard_e2e/fmt)
	echo "OBS fmt state=$state reader=$1 $st"
	while read -r name val; do
		echo "VAL state=$state reader=$1 name=$name val=$val"
	done </tmp/out
}

# obs_gen READER FILE: read a file of pointers (%p, %pK): status, raw=,
# hashed=.
obs_gen() {
	st=$(read_as "$1" -o /tmp/out "$2")
	echo "OBS gen state=$state reader=$1 file=$2 $st raw=$(hasraw /tmp/out) hashed=$(hashed /tmp/out) lines=$(wc -l </tmp/out)"
}

# state NAME: the reads of one state (the sysctls are set by the caller).
state() {
	state=$1
	mark "state $state"
	for who in root user; do
		obs_fmt $who
	done
	case $state in
	bootoff|on|off)
		for who in root user; do
			obs_gen $who /proc/net/unix
			obs_gen $who /proc/ptrguard_e2e/heavy
		done
		;;
	perf1)
		obs_gen user /proc/kallsyms
		;;
	esac
	case $state in
	on|kr1)
		obs_fmt rootfd
		obs_fmt userfd
		;;
	esac
}

states() {
	setkr 0
	if [ "$guard_boot" = 0 ]; then
		# booted with sysctl.kernel.seq_ptr_guard=0
		state bootoff
	fi
	setguard 1
	state on
	setguard 0
	state off
	setguard 1
	setkr 1
	state kr1
	setkr 2
	state kr2
	setkr 0
	old=$(cat /proc/sys/kernel/perf_event_paranoid)
	setparanoid 1
	state perf1
	setparanoid "$old"
	# 2: hash as 1, and name each %px call site once in the kernel log
	# (check.awk reads the log): a second read names nothing new.
	setguard 2
	state log
	read_as user -o /dev/null /proc/ptrguard_e2e/fmt >/dev/null
	setguard 1
}

# Files of integers (and /proc/kallsyms and /proc/modules, whose %px the
# kernel gates itself), each opened twice by one process as uid 1000 and
# read once with the guard on and once off (e2e-read -t): the bytes must
# be the same.  Files whose numbers change from one read to the next
# (meminfo, stat of a running process) are left out; the sleeper's stat
# does not change.  The module's fmt file last, the control: its px line
# must differ.
twice() {
	setkr 0
	setguard 1
	e2e-read -u $UNPRIV -x sleep 100000 &
	sleeper=$!
	sleep 1
	for f in /proc/self/maps /proc/$sleeper/maps /proc/$sleeper/stat \
		/proc/self/mountinfo /proc/self/limits /proc/iomem \
		/proc/kallsyms /proc/modules /proc/ptrguard_e2e/fmt; do
		st=$(e2e-read -u $UNPRIV -t -o /tmp/tw $f)
		name=$f
		case $f in
		/proc/$sleeper/*) name=/proc/PID/${f##*/} ;;
		esac
		px=
		[ "$f" != /proc/ptrguard_e2e/fmt ] ||
			px=" px_on=$(sed -n 's/^px //p' /tmp/tw.on) px_off=$(sed -n 's/^px //p' /tmp/tw.off)"
		# kallsyms: the lines whose value is not all zeros
		[ "$f" != /proc/kallsyms ] ||
			px=" nonzero=$(awk '$1 !~ /^0+$/ { n++ } END { print n + 0 }' /tmp/tw.on)"
		echo "OBS twice file=$name $st raw_on=$(hasraw /tmp/tw.on) raw_off=$(hasraw /tmp/tw.off) vsyscall=$(grep -c '\[vsyscall\]$' /tmp/tw.on) lines=$(wc -l </tmp/tw.on)$px"
	done
	kill "$sleeper"
	[ "$(cat $GUARD 2>/dev/null || echo 1)" = 1 ] || echo "INFO error=e2e_read_t_left_the_guard_off"
}

# Readers in parallel while the sysctls flip: every read must succeed, and
# the kernel log stay clean.
robust() {
	[ "$secs" -gt 0 ] 2>/dev/null || return 0
	mark "robust begin"
	end=$(( $(date +%s) + secs ))
	(
		while [ "$(date +%s)" -lt $end ]; do
			for g in 0 1; do
				for kr in 0 1 2; do
					setguard $g
					setkr $kr
				done
			done
		done
	) &
	pids=$!
	i=0
	for who in root user root user; do
		i=$((i + 1))
		(
			ok=0 eperm=0 other=0 loops=0
			while [ "$(date +%s)" -lt $end ]; do
				for f in /proc/ptrguard_e2e/fmt /proc/ptrguard_e2e/heavy \
					/proc/net/unix /proc/self/maps /proc/modules; do
					set -- $(read_as $who -r 3 $f | tr '=' ' ')
					ok=$((ok + $4)) eperm=$((eperm + $6)) other=$((other + $8))
					[ "$6$8" = 00 ] || echo "INFO robust_error=1 file=$f user=$who errno=${10}"
				done
				loops=$((loops + 1))
			done
			echo "OBS robust reader=$i user=$who loops=$loops ok=$ok eperm=$eperm other=$other"
		) &
		pids="$pids $!"
	done
	wait $pids	# not e2e-sockets, which runs until the end
	setguard 1
	setkr 0
	mark "robust end"
}

# The series' kselftest (tools/testing/selftests/proc/proc-seq-ptr-hash,
# built static from the guarded tree) as root at kptr_restrict 0, guard on.
kselftest() {
	[ -x /bin/proc-seq-ptr-hash ] || { echo "INFO kselftest=absent"; return 0; }
	echo "INFO kselftest=present"
	setkr 0
	setguard 1
	echo "KSELFTEST-BEGIN boot=$boot"
	proc-seq-ptr-hash
	echo "KSELFTEST-END boot=$boot rc=$?"
	echo "INFO guard_after_kselftest=$(cat $GUARD 2>/dev/null || echo absent)"
}

# The live scanner hook (no_hash_pointers boots): `ptrguard scan --all
# --json` as root over the module's files and its ELF note (the scan's
# readable-by check re-reads as uid 65534, which the guard hashes for),
# then as uid 1000 over the module's files; guard on, kptr_restrict 0.
scan() {
	grep -q no_hash_pointers /proc/cmdline || return 0
	[ -x /bin/ptrguard ] || { echo "INFO scanner=absent"; return 0; }
	echo "INFO scanner=present"
	setkr 0
	setguard 1
	echo "INFO note_addr=$(note_addr)"
	echo "SCAN-BEGIN boot=$boot user=root"
	timeout 120 ptrguard scan --all --json /proc/ptrguard_e2e /sys/module/ptrguard_e2e/notes 2>/tmp/scan.err |
		grep -F '{"file": '
	echo "SCAN-END errors=$(grep -c -v '^scan: ' /tmp/scan.err)"
	echo "SCAN-BEGIN boot=$boot user=user"
	timeout 120 e2e-read -u $UNPRIV -x ptrguard scan --all --json /proc/ptrguard_e2e 2>/tmp/scan.err |
		grep -F '{"file": '
	echo "SCAN-END errors=$(grep -c -v '^scan: ' /tmp/scan.err)"
}

bench() {
	e2e-sockets 500 >/tmp/sockets.out &	# 1,000 sockets
	sleep 1
	# Guarded kernel: the guard off (0) against on (1), batch by batch
	# (e2e-read switches the sysctl between batches, so both see the
	# same host load), then off against itself: the spread of the
	# method.  Pristine kernel: only the latter.
	echo "INFO clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	pairs="-"
	[ -e /proc/sys/kernel/seq_ptr_guard ] && pairs="0,1 0,0"
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
	# root reading /proc/kallsyms: every line a %px it is meant to see
	if [ "$pairs" != - ]; then
		for p in 0,1 0,0; do
			r=$(e2e-read -T "$bms" -n "$bpairs" -A $p /proc/kallsyms)
			echo "BENCH boot=$boot file=/proc/kallsyms(root) modes=$p rc=$? $r"
		done
	fi
	setguard 1
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
# root at kptr_restrict 0 with the guard off; each round runs the script, the
# floor (scan-floor reading, with as many threads as the scanner, the
# files the scanner read, in its order: the list an untimed scan wrote
# first), the default scan, the scan with --all (text) and with --all
# --json, in an order that alternates from round to round, then (untimed)
# the default scan with --debug-times: one SCANBENCH times line.
scanbench() {
	setkr 0
	setguard 0
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
if [ -e $GUARD ]; then
	guard_boot=$(cat $GUARD)
	echo "INFO guard=present guard_boot=$guard_boot"
else
	guard_boot=none
	echo "INFO guard=absent"
fi
grep -q no_hash_pointers /proc/cmdline && echo "INFO hashing=off" || echo "INFO hashing=on"
insmod /lib/ptrguard_e2e.ko || echo "INFO error=insmod_failed"
addr=$(dmesg | sed -n 's/.*ptrguard_e2e: obj \([0-9a-f]\{16\}\).*/\1/p' | tail -n 1)
echo "INFO addr=${addr:-none}"
# Where KASLR put the kernel's text this boot (root, kptr_restrict 0):
# tests/e2e/run wants the two hashing boots to differ.
setkr 0
echo "INFO perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo none)"
echo "INFO text_addr=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)"

case $run in
test)
	e2e-sockets 20 >/tmp/sockets.out &
	sleep 1
	[ "$(cat /tmp/sockets.out)" = ready ] || echo "INFO error=sockets_not_ready"
	states
	twice
	robust
	kselftest
	scan
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
