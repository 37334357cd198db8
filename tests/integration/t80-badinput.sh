#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t80-badinput - every writable debugfs file and run-time parameter takes
# boundary and random inputs: each is accepted with its documented meaning
# or refused with EINVAL (E2BIG above a page for sysfs), never a hang or a
# splat, and the module keeps working. Load-time parameters: bad values make
# insmod fail with a message and leave nothing loaded. Security: root-only
# file modes, no kernel addresses in any file.
#
# TP_BADINPUT_N random inputs per file (default 1000; 20 and every 6th
# boundary input on the lab
# kernel); "make stress" runs 100000.
. "$(dirname "$0")/lib.sh"

ko=$TP_MODULES/module/teeprobe.ko
params=/sys/module/teeprobe/parameters
n=${TP_BADINPUT_N:-1000}
[ "$TP_KERNEL" = lab ] && n=${TP_BADINPUT_N:-20}
# ... and every 6th boundary input there, unless make stress asks for all
[ "$TP_KERNEL" = lab ] && [ -z "$TP_BADINPUT_N" ] && export TP_BADINPUT_STEP=6
# The largest pid the module takes (PID_MAX_LIMIT - 1): the lab kernel is
# built with CONFIG_BASE_SMALL, which makes PID_MAX_LIMIT 32768.
export TP_PID_MAX=4194303
[ "$TP_KERNEL" = lab ] && TP_PID_MAX=32767
fuzz="python3 $top/tests/integration/badinput.py"
# A batch may take its time on a slow guest, but never hangs.
batch_timeout=$((120 + n / 20))

# all_readable - read every readable debugfs file and parameter with one
# cat (each exec costs about a second on the debug kernel); cat names the
# file it cannot read
all_readable() {
	local n

	# (no process substitution: the guests have no /dev/fd)
	n=$(find "$DEBUGFS" "$params" -maxdepth 1 -type f ! -perm 0200 -printf x | wc -c)
	[ "$n" -ge 10 ] || { echo "only $n readable files"; return 1; }
	find "$DEBUGFS" "$params" -maxdepth 1 -type f ! -perm 0200 -exec cat {} + >/dev/null
}

# step WHAT CMD... - one step of still_works, named and timed, so a failure
# or a timeout shows which step it was
step() {
	local what=$1 t0=$SECONDS
	shift
	echo "step: $what"
	"$@" || { echo "step failed: $what"; return 1; }
	[ $((SECONDS - t0)) -lt 5 ] || echo "step took $((SECONDS - t0)) s: $what"
}

# still_works - valid writes are taken and read back; every file reads
still_works() {
	step "reset" write_file "$DEBUGFS/reset" 1 &&
	step "pid_filter 1 2" write_file "$DEBUGFS/pid_filter" "1 2" &&
	step "pid_filter reads 1 2" test "$(cat "$DEBUGFS/pid_filter")" = "1 2" &&
	step "pid_filter 0" write_file "$DEBUGFS/pid_filter" 0 &&
	step "pid_filter reads all" test "$(cat "$DEBUGFS/pid_filter")" = all &&
	step "window_ms 250" write_file "$params/window_ms" 250 &&
	step "window_ms reads 250" test "$(cat "$params/window_ms")" = 250 &&
	step "window_ms 100" write_file "$params/window_ms" 100 &&
	step "every file reads" all_readable
}

export ko params
export -f write_file all_readable step

# batch KIND PATH - the boundary list and $n random inputs, checked
batch() {
	local out rc t0
	out=$(timeout -k 5 "$batch_timeout" $fuzz "$1" "$2" "$n" 2>&1)
	rc=$?
	tap_result "$rc" "$1: boundary and $n random inputs as documented ($(echo "$out" |
		sed -n 's/^SUMMARY //p'))"
	echo "$out" | grep -v '^SUMMARY' | tail -n 22 | diag
	[ "$rc" = 0 ] || echo "# exit status $rc"
	t0=$SECONDS
	out=$(run_step still_works 2>&1)
	rc=$?
	tap_result "$rc" "$1: module still works afterwards"
	echo "$out" | grep -v '^step: ' | diag
	[ "$rc" = 0 ] || { echo "$out" | tail -n 3 | diag; echo "# exit status $rc"; }
	echo "# the check took $((SECONDS - t0)) s"
	check_eq "$1: module is still live" live "$(cat /sys/module/teeprobe/initstate 2>&1)"
}

# ---- run time ----------------------------------------------------------------
# a test before this one that was stopped (its timeout) may have left it in
if [ -d /sys/module/teeprobe ]; then
	echo "# teeprobe was left loaded: removed first"
	lab_wait 120 rmmod teeprobe 2>/dev/null
fi
check "insmod teeprobe.ko" insmod "$ko"
check "module works before the inputs" still_works
start=$(date +%s)
batch reset "$DEBUGFS/reset"
batch pid_filter "$DEBUGFS/pid_filter"
batch window_ms "$params/window_ms"
echo "# run-time inputs took $(($(date +%s) - start)) s"

# Load-time parameters cannot be written at run time.
for p in "$params"/*; do
	[ "${p##*/}" = window_ms ] && continue
	check_fails "${p##*/} is read-only at run time" "Permission denied|Read-only" \
		write_file "$p" 1
done

# ---- security ------------------------------------------------------------------
modes() {
	local f bad=0
	for f in "$DEBUGFS"/*; do
		case $(stat -c %a "$f") in
		400|600|200) ;;
		*) echo "$f: mode $(stat -c %a "$f")"; bad=1 ;;
		esac
	done
	return $bad
}
check "debugfs files are root-only (0400, 0600 or 0200)" modes
check_eq "no parameter is writable by group or others" "" \
	"$(find "$params" -type f -perm /022)"
check "no file leaks a kernel address" \
	sh -c "! grep -EHo '(0x)?ffff[0-9a-f]{12}' $DEBUGFS/* $params/* 2>/dev/null | grep ."
if command -v setpriv >/dev/null; then
	check_fails "an unprivileged user cannot change window_ms" "Permission denied" \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c "echo 20 > $params/window_ms"
	check_fails "an unprivileged user cannot read debugfs" "Permission denied" \
		setpriv --reuid=65534 --regid=65534 --clear-groups cat "$DEBUGFS/version"
else
	skip "unprivileged access" "no setpriv"
fi
check "rmmod teeprobe" rmmod teeprobe

# ---- load time -----------------------------------------------------------------
# kmsg_mark - a unique line in the kernel log; since_mark prints what follows
# (the run-time inputs may have wrapped the ring buffer: no line counts)
kmsg_mark() { mark="t80-mark-$RANDOM$RANDOM"; echo "$mark" >/dev/kmsg; }
since_mark() { dmesg | sed -n "/$mark/,\$p"; }
export -f kmsg_mark since_mark

# bad_load ARGS... - insmod fails, says why in dmesg, leaves nothing loaded
bad_load() {
	kmsg_mark
	insmod "$ko" "$@" && { echo "insmod accepted $*"; rmmod teeprobe; return 1; }
	test ! -e /sys/module/teeprobe || { echo "teeprobe stayed loaded"; return 1; }
	since_mark | grep teeprobe || { echo "no teeprobe message in dmesg"; return 1; }
}
# good_load ARGS... - insmod takes the values and they read back
good_load() {
	local a ok=0
	insmod "$ko" "$@" || return 1
	for a in "$@"; do
		case $a in
		*=*) [ "$(cat "$params/${a%%=*}")" = "${a#*=}" ] ||
			{ echo "${a%%=*} reads $(cat "$params/${a%%=*}")"; ok=1; } ;;
		esac
	done
	cat "$DEBUGFS/version" >/dev/null || ok=1
	rmmod teeprobe || ok=1
	return $ok
}

long=$(head -c 600 /dev/zero | tr '\0' a)
bad_loads=(window_ms=0 window_ms=60001 window_ms=-1 window_ms=abc window_ms=
	window_ms window_ms=18446744073709551616 tcp_table_size=63
	tcp_table_size=100 tcp_table_size=2097152 tcp_table_size=4096x
	tcp_timeout_s=0 tcp_timeout_s=3601 maxactive=4097 maxactive=-1
	preset=foo preset= preset=custom ioctl_symbol=a,b ioctl_symbol=bad-sym
	"ioctl_symbol=$long" wait_symbols=a,b,c,d,e,f,g,h,i,j,k wait_symbols=,,
	"wait_symbols=${long:0:300}" pid=0 pid=-1 pid=4194304
	pid=1,2,3,4,5,6,7,8,9 pid=abc pid=1,,2)
[ "$TP_KERNEL" = lab ] && bad_loads=(window_ms=9 tcp_table_size=100 preset=foo pid=0)
for a in "${bad_loads[@]}"; do
	check "insmod ${a:0:40} fails cleanly with a message" bad_load "$a"
done
good_loads=("window_ms=10 tcp_table_size=64 tcp_timeout_s=1 maxactive=1 pid=4194303"
	"window_ms=60000 tcp_table_size=1048576 tcp_timeout_s=3600 maxactive=4096 pid=1,2,3,4,5,6,7,8"
	"preset=tzdriver" "preset=custom ioctl_symbol=tee_ioctl wait_symbols=a,b,c,d,e,f,g,h,i,j")
[ "$TP_KERNEL" = lab ] && good_loads=("window_ms=10 tcp_table_size=64")
for a in "${good_loads[@]}"; do
	# shellcheck disable=SC2086
	check "insmod $a loads and reads back" good_load $a
done
# unknown_param - the kernel ignores an unknown parameter and says so
unknown_param() {
	local rc=0
	kmsg_mark
	insmod "$ko" no_such_param=1 || return 1
	since_mark | grep "unknown parameter 'no_such_param' ignored" || rc=1
	rmmod teeprobe || rc=1
	return $rc
}
check "an unknown parameter is ignored with a message, as for every module" \
	unknown_param
check_eq "nothing is left loaded" "" "$(grep -w teeprobe /proc/modules)"
done_testing
