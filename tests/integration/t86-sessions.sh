#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t86-sessions - sessions that never lie, whatever the operator does: two
# sessions at once (the second refused, naming the first, the first's
# settings its own and put back), a session killed with SIGKILL (no
# trace-cmd, tracefs instance or setting left once the next command runs;
# the module pinned meanwhile), full disks and outputs that cannot be
# written (a clear error before or after, no temp files, never "recorded"
# with exit 0), counters reset or the module reloaded under stat, report,
# analyze, compare and the Prometheus output (no negative and no short
# count: the interval or the counters are left out, and said so), hidden
# losses shown (the TEE kretprobes' misses), a task naming itself "x\n#
# overflow 99", file names with quotes in every --json, trace.dat 0600.
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
out=/tmp/t86
rm -rf $out
mkdir -p $out
cd $out || exit 1
params=/sys/module/teeprobe/parameters
export out params

# The tools' behaviour, and the module's parts of it (the generation file,
# the event pins, the escaped names), are the same on every kernel: 6.1
# runs them, to keep make check within its time.
only_on_61 "session scenarios" "6.1 runs them: the same code on every kernel"

# record_bg NAME ARGS... - teeprobe record in the background into
# $out/NAME.dat, its messages in NAME.err; $REC is its pid. Waits until it
# records.
record_bg() {
	local name=$1
	shift
	"$TEEPROBE" record -o $out/$name.dat "$@" 2>$out/$name.err &
	REC=$!
	wait_recording $out/$name.err
}
# instances - teeprobe's tracefs instances; tracecmds - trace-cmd processes
instances() { ls $TRACEFS/instances 2>/dev/null | grep -c '^teeprobe-record-'; }
tracecmds() { pgrep -c -x trace-cmd || true; }
# json_ok FILE - FILE is one strict JSON document
json_ok() { python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"; }
export -f instances tracecmds json_ok

[ -d /sys/module/teeprobe ] && rmmod teeprobe
[ -d /sys/module/teesim ] && rmmod teesim
check "teesim loads" lab_load
check "insmod teeprobe" insmod "$ko"
window0=$(cat $params/window_ms)

# --- two sessions at once -------------------------------------------------------
record_bg a -w 50 -p 1
check_eq "session A records (-w 50 -p 1)" 0 $?
check_eq "A's settings are in force: window 50 ms, pid filter 1" "50 1" \
	"$(cat $params/window_ms) $(cat $DEBUGFS/pid_filter)"
check_fails "a second session is refused, naming the first (pid and output)" \
	"another session records \(pid $REC, writing $out/a.dat\)" \
	"$TEEPROBE" record -d 2 -w 200 -o $out/b.dat
check_eq "... and changed nothing of A's" "50 1" \
	"$(cat $params/window_ms) $(cat $DEBUGFS/pid_filter)"
check_fails "analyze -d is a session too, and refused alike" "another session records" \
	"$TEEPROBE" analyze -d 2 -i $out/c.dat
kill -INT $REC
wait $REC
check_eq "A ends cleanly" 0 $?
check_eq "A's settings are put back: window $window0 ms, every process" "$window0 all" \
	"$(cat $params/window_ms) $(cat $DEBUGFS/pid_filter)"
check_eq "A's trace.dat is root's alone (0600)" 600 "$(stat -c %a $out/a.dat)"

# --- SIGKILL ----------------------------------------------------------------------
kills=${TP_SESSION_KILLS:-3}
for i in $(seq "$kills"); do
	record_bg kill$i -w 50 -p 1 || break
	kill -KILL $REC
	wait $REC 2>/dev/null
done
# trace-cmd ends with its parent (PR_SET_PDEATHSIG): a few seconds to
# finish writing
check "$kills sessions killed with SIGKILL: their trace-cmd ends with them" \
	lab_wait 20 bash -c '[ "$(tracecmds)" = 0 ]'
echo "# after the kills: $(instances) teeprobe instances, window_ms $(cat $params/window_ms), pid_filter $(cat $DEBUGFS/pid_filter)"
check_eq "the last killed session's settings are still in force" "50 1" \
	"$(cat $params/window_ms) $(cat $DEBUGFS/pid_filter)"
"$TEEPROBE" check >$out/check.out 2>$out/check.err
check_eq "teeprobe check afterwards is ready" 0 $?
check "... and says it put back what a session that did not end left" \
	grep -q "check: a session that did not end (pid [0-9]*, writing $out/kill$kills.dat) left the module's settings: window_ms 50, pid_filter 1; put back to $window0 and all" $out/check.err
check_eq "... so that nothing is left: settings, instances, trace-cmd" "$window0 all 0 0" \
	"$(cat $params/window_ms) $(cat $DEBUGFS/pid_filter) $(instances) $(tracecmds)"
# An instance with teeprobe's events on pins the module
record_bg pin -w 50
kill -KILL $REC
wait $REC 2>/dev/null
mkdir $TRACEFS/instances/t86-pin && echo 1 >$TRACEFS/instances/t86-pin/events/teeprobe/teeprobe_reset/enable
check_fails "rmmod is refused while an instance has a teeprobe event on" "in use" rmmod teeprobe
echo 0 >$TRACEFS/instances/t86-pin/events/teeprobe/teeprobe_reset/enable
rmdir $TRACEFS/instances/t86-pin
record_bg next -d 2 -w 100
wait $REC
check_eq "a new session after a killed one records" 0 $?
check "... and says what it cleaned up first" \
	grep -q "record: a session that did not end (pid [0-9]*, writing $out/pin.dat)" $out/next.err
check_eq "... and leaves nothing behind" "$window0 all 0 0" \
	"$(cat $params/window_ms) $(cat $DEBUGFS/pid_filter) $(instances) $(tracecmds)"

# --- outputs that cannot take a session -------------------------------------------
check_fails "-o /dev/full is refused at once" "not a regular file" "$TEEPROBE" record -d 30 -o /dev/full
check_fails "-o a directory is refused at once" "not a regular file" "$TEEPROBE" record -d 30 -o $out
check_fails "-o in a directory that does not exist is refused at once" "cannot write into" \
	"$TEEPROBE" record -d 30 -o $out/none/x.dat
check_fails "-C with a CPU that is not online is refused" "not every one of those CPUs is online" \
	"$TEEPROBE" record -d 30 -C "$(nproc)"
mkdir -p $out/small
mount -t tmpfs -o size=3m tmpfs $out/small
check_fails "a file system with less than 4 MiB free is refused at once" "not enough for a session" \
	"$TEEPROBE" record -d 30 -o $out/small/x.dat
umount $out/small
# The disk fills during the session: at once (trace-cmd cannot create its
# per-CPU files), or near its end (they stop growing, the merge finds no
# room): a filler takes what is left once the session records
fill_during() {
	local after=$1 rec rc

	mount -t tmpfs -o size=8m tmpfs $out/small || return 1
	"$TEEPROBE" record -d 4 --raw -o $out/small/full.dat 2>$out/full.err &
	rec=$!
	wait_recording $out/full.err || { kill $rec; umount $out/small; return 1; }
	sleep "$after"
	dd if=/dev/zero of=$out/small/fill bs=4k 2>/dev/null
	wait $rec
	rc=$?
	cat $out/full.err
	ls $out/small >$out/full.ls
	umount $out/small
	return $rc
}
export -f fill_during
for after in 0 3; do
	check_fails "the disk filling ${after} s into a 4 s session: a non-zero exit with the reason" \
		"not a readable trace|lacks the session's snapshots|trace-cmd failed|cannot write" fill_during $after
	check_eq "... no 'recorded' line" 0 "$(grep -c 'recorded' $out/full.err)"
	check_eq "... and no temp file left (full.dat.*.cpuN)" 0 "$(grep -c '\.cpu[0-9]' $out/full.ls)"
done

# --- counters reset, or the module reloaded ---------------------------------------
# stat: an interval across a reset or a reload is skipped, and said so
"$TEEPROBE" stat -I 1 -c 5 >$out/stat.txt 2>&1 &
st=$!
sleep 1.5
echo 1 >$DEBUGFS/reset
lab_run hard-reg 20 2 >/dev/null 2>&1
wait $st
check "stat: the interval across a reset is skipped, and says why" \
	grep -q "interval skipped: the module's counters were reset in between" $out/stat.txt
check "stat: no negative figure in any line" sh -c "! grep -v skipped $out/stat.txt | grep -q ' -[0-9]'"
"$TEEPROBE" stat -I 1 -c 5 --json >$out/stat.json 2>&1 &
st=$!
sleep 1.5
rmmod teeprobe && insmod "$ko"
wait $st
check "stat --json: the interval across a reload is skipped, and says why" \
	grep -Eq '"skipped":"the module was (reloaded|loaded or unloaded) in between"' $out/stat.json
# report, analyze, compare: counters across a reset are left out, and said so
reset_mid() {
	record_bg reset -d 6 || return 1
	lab_run hard-temp 30 5 >/dev/null 2>&1
	echo 1 >$DEBUGFS/reset
	lab_run hard-temp 30 5 >/dev/null 2>&1
	wait $REC
}
export -f reset_mid record_bg
check "a session with a reset in its middle" reset_mid
"$TEEPROBE" report -i $out/reset.dat >$out/reset.txt 2>&1
check "report: says the counters were reset and are left out" \
	grep -q "counters: the module's counters were reset in between" $out/reset.txt
check "report: no negative rate or count" sh -c "! grep -Eq '(^| )-[0-9]+(\.[0-9]+)?( |/|$)' $out/reset.txt"
"$TEEPROBE" report -i $out/reset.dat --json >$out/reset-report.json
check "report --json: counters.comparable false, and why" \
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); exit(0 if r["counters"] == {"comparable": False, "why": "the module'"'"'s counters were reset in between"} else 1)' $out/reset-report.json
"$TEEPROBE" analyze -i $out/reset.dat --json >$out/reset-analyze.json
check "analyze --json: counters_comparable false" \
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); exit(0 if r["evidence"]["counters_comparable"] is False else 1)' $out/reset-analyze.json
"$TEEPROBE" compare $out/a.dat $out/reset.dat >$out/reset-compare.txt
check "compare: says the after session's counters are left out" \
	grep -q "(after: the module's counters were reset in between: its module counters are left out" $out/reset-compare.txt
# Prometheus: a reset is a change of teeprobe_counters_generation
g0=$("$TEEPROBE" stat --prometheus | awk '/^teeprobe_counters_generation/ { print $NF }')
echo 1 >$DEBUGFS/reset
g1=$("$TEEPROBE" stat --prometheus | awk '/^teeprobe_counters_generation/ { print $NF }')
check "Prometheus: a reset moves teeprobe_counters_generation ($g0 -> $g1)" test "$g1" = $((g0 + 1))

# --- hidden losses shown ------------------------------------------------------------
rmmod teeprobe
check "insmod teeprobe maxactive=1: a kretprobe follows one call at a time" insmod "$ko" maxactive=1
losses() {
	record_bg losses -d 6 || return 1
	lab_run hard-reg 60 10 >/dev/null 2>&1
	wait $REC
}
export -f losses
check "ten workers calling the TEE at once, recorded" losses
missed=$(tp_sum tee_probes nmissed)
"$TEEPROBE" report -i $out/losses.dat >$out/losses.txt 2>&1
shown=$(sed -n 's/.*, \([0-9]*\) TEE calls the kretprobes missed,.*/\1/p' $out/losses.txt)
echo "# the TEE kretprobes missed $missed calls; report shows $shown"
check "the kretprobes missed calls (nmissed $missed in all)" test "${missed:-0}" -gt 0
check_eq "report shows every one of them (tee_probes' nmissed, all probes)" "$missed" "$shown"
rmmod teeprobe
check "insmod teeprobe" insmod "$ko"

# --- probes that cannot attach, and long names ------------------------------------
# A function kprobes refuse (the kernel's blacklist) as the ioctl probe:
# found, and failed. check must say not ready; the probe, tried again at
# every module load, is warned about once.
bad=$(awk '{ print $2 }' /sys/kernel/debug/kprobes/blacklist 2>/dev/null |
	grep -E '^[a-z_][a-z0-9_]*$' | grep -v -e '^_' | head -n 1)
rmmod teeprobe
if [ -n "$bad" ] && insmod "$ko" preset=custom ioctl_symbol="$bad" 2>$out/bad.err; then
	check_eq "the ioctl probe on $bad (blacklisted) failed" failed \
		"$(tp_col tee_probes state "$bad")"
	check_fails "check says not ready, and why" "ioctl probe $bad failed" "$TEEPROBE" check
	rmmod teesim && lab_load
	rmmod teesim && lab_load
	check_eq "the failing probe is warned about once, though tried at every module load" 1 \
		"$(dmesg | grep -c "teeprobe: cannot probe $bad:")"
	rmmod teeprobe
else
	skip "a failing ioctl probe" "no function in the kprobes blacklist here ($(head -c 200 $out/bad.err))"
fi
long=$(printf 'w%.0s' $(seq 200))
if insmod "$ko" wait_symbols="$long" 2>/dev/null; then
	check "check prints a 200-character symbol whole" \
		sh -c "'$TEEPROBE' check | grep -qx 'tee probe: $long (wait) not-found'"
	rmmod teeprobe
else
	skip "a 200-character symbol printed whole" "this kernel's symbols are shorter (KSYM_NAME_LEN)"
fi
check "insmod teeprobe" insmod "$ko"

# --- a task naming itself with a newline ------------------------------------------
evil=$'x\n# overflow 99'
ln -sf "$TEECLIENT" "$out/$evil"
check "a task named 'x\\n# overflow 99' calls the TEE" "$out/$evil" loop 5
check_eq "tee_threads: its name escaped on one line" 1 \
	"$(grep -c '^[0-9]* [0-9]* x\\x0a#\\x20overflow\\x2099 ' $DEBUGFS/tee_threads)"
check_eq "tee_threads: one trailer, the real one" "# overflow 0" "$(grep '^#' $DEBUGFS/tee_threads | tail -n 1)"
check_eq "Prometheus: the overflow is the real one (0), not the forged 99" 0 \
	"$("$TEEPROBE" stat --prometheus | awk '/^teeprobe_tee_threads_overflow_total/ { print $NF }')"

# --- file names with quotes, in every --json --------------------------------------
q="$out/q\"uo\\te.dat"
evilrec() {
	"$TEEPROBE" record -d 3 -o "$1" 2>$out/q.err &
	local rec=$!
	wait_recording $out/q.err || return 1
	"$0" loop 5 >/dev/null
	wait $rec
}
export -f evilrec
check "a session recorded into a file named with a quote and a backslash" \
	bash -c 'evilrec "$1"' "$out/$evil" "$q"
"$TEEPROBE" report -i "$q" --json >$out/q-report.json
check "report --json of it is strict JSON, and names the file" \
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); exit(0 if r["file"] == sys.argv[2] else 1)' $out/q-report.json "$q"
check "... and the thread named with a newline, as trace-cmd kept its name" \
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); exit(0 if any(t["comm"].startswith("x") and t["calls"] >= 5 for t in r["tee"]["threads"]) else 1)' $out/q-report.json
"$TEEPROBE" analyze -i "$q" --json >$out/q-analyze.json
check "analyze --json of it is strict JSON" json_ok $out/q-analyze.json
"$TEEPROBE" compare --json "$q" "$q" >$out/q-compare.json
check "compare --json of it is strict JSON, and names the files" \
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); exit(0 if r["before"] == sys.argv[2] == r["after"] else 1)' $out/q-compare.json "$q"
"$TEEPROBE" stat -c 1 -I 1 --json >$out/q-stat.json
check "stat --json is strict JSON" json_ok $out/q-stat.json
"$TEEPROBE" report -i "$q" >$out/q-report.txt
check_eq "report's text has no line the thread's name made" 0 "$(grep -c '^# overflow 99' $out/q-report.txt)"

rmmod teeprobe
lab_unload
done_testing
