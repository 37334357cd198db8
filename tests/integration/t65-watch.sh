#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t65-watch - teeprobe watch, the flight recorder, on a lab load that turns
# slow part-way: hsbench in hard-reg, then hard-temp, then hard-reg again,
# under --handshake-p99 set between the two modes' windows, gives exactly
# one capture (the cooldown outlasts the slow phase) whose trace holds the
# change (windows under the threshold before the breach, over it after),
# whose verdict (the watch's log line, and analyze's on the file) names
# TEE set-up, and whose events trace-cmd reads (as many server handshakes
# from the capture's start on as teeprobe report counts). A healthy run of
# the same length gives no capture; so does a one-window stall (the
# server stopped, by construction, for longer than the threshold: its
# window over it, alone). A second watch and a record are refused while a
# watch runs; stat --prometheus shows its state. --keep leaves the newest
# captures; a directory without the room a session needs is refused.
# SIGTERM leaves nothing;
# SIGKILL in the middle of a capture leaves its instances, settings,
# status and half-written file, which teeprobe check sweeps.
#
# The load: one server worker for ten client threads, so that connections
# wait in the accept queue while the worker does its crypto (nine ahead of
# each); teesim's shared-memory registration at 100 ms asleep (the
# unregistration at 1 % of it: the worker's time in TEE calls is its
# registrations'), so that a hard-temp handshake takes some 0.4 s of the
# worker against 30 ms in hard-reg, and the accept queue's waits some 4 s
# against 0.3 s: TP_WATCH_THRESHOLD (2 s) sits between them, over what a
# busy emulator adds to hard-reg's windows (up to 1.7 s seen).
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
out=/tmp/t65
rm -rf $out
mkdir -p $out
cd $out || exit 1
params=/sys/module/teeprobe/parameters
status=/run/teeprobe/watch
threshold=${TP_WATCH_THRESHOLD:-2s}
threshold_ns=$(( ${threshold%s} * 1000000000 ))
# the watch of every run: 1 s windows, a breach three of them in a row
common="--handshake-p99 $threshold --windows 3 -w 1000 --ring 20 --after 4"
# TP_WATCH_SCENARIOS runs some of them (slow healthy stall keep kill)
scenarios=" ${TP_WATCH_SCENARIOS:-slow healthy stall keep kill} "
want() { case $scenarios in *" $1 "*) return 0 ;; esac; return 1; }
# the accept queue's waits run to some 10 s in hard-temp (hsbench's
# default: a socket call times out after 10 s)
export LAB_CLIENT_TIMEOUT=120
# How long a wait for what the watch does next may take: a bound on a
# hang, not the host's speed (under the step's timeout, lib.sh)
wait_s=240
export out params status threshold wait_s

# The watch is the same code on every kernel, and its module part (the
# window events) is checked by t40, t50 and t60 on each: 6.1 runs it, to
# keep make check within its time.
only_on_61 "watch scenarios" "6.1 runs them: the same code on every kernel"

# watch_bg NAME ARGS... - teeprobe watch into $out/NAME, its log in
# NAME.err; $WATCH is its pid. Waits until it watches.
watch_bg() {
	local name=$1
	shift
	"$TEEPROBE" --debug watch -o $out/$name "$@" 2>$out/$name.err &
	WATCH=$!
	lab_wait $wait_s lab_says $out/$name.err 'watch: watching:' $WATCH &&
		kill -0 $WATCH 2>/dev/null && return 0
	cat $out/$name.err
	return 1
}
# freezes_start FILE / freezes_stop - in the background, every time a
# half-second sleep of this guest overslept by a second or more: the host
# did not run the guest (a loaded host runs its emulated CPUs when it
# can), and every handshake in flight then took that much longer. A run
# the guest froze in judges the host, not teeprobe: its windows over the
# threshold are said, and a check that needs them under is skipped.
freezes_start() {
	: >"$1"
	(
		local t0 t1
		while :; do
			t0=${EPOCHREALTIME/./}
			sleep 0.5
			t1=${EPOCHREALTIME/./}
			[ $((t1 - t0)) -lt 1500000 ] ||
				echo "$(( (t1 - t0 - 500000) / 1000 )) ms at $(uptime_s) s" >>"$1"
		done
	) &
	FREEZER=$!
}
freezes_stop() { kill $FREEZER 2>/dev/null; wait $FREEZER 2>/dev/null; }
# froze FILE - the freezes seen, one line; fails when there was none
froze() { [ -s "$1" ] && echo "$(wc -l <"$1") freezes: $(tr '\n' ' ' <"$1")"; }
# stop_watch - SIGTERM to the watch; its exit status, or 124 (and SIGKILL)
# when it has not ended 60 s later
stop_watch() {
	kill -TERM $WATCH
	if ! lab_wait $wait_s bash -c "! kill -0 $WATCH 2>/dev/null"; then
		kill -KILL $WATCH
		wait $WATCH
		return 124
	fi
	wait $WATCH
}
# st KEY [MEASURE] - a value of the running watch's status file
st() {
	if [ -n "$2" ]; then
		awk -v k="$1" -v m="$2" '$1 == k && $2 == m { print $3 }' $status 2>/dev/null
	else
		awk -v k="$1" '$1 == k { print $2 }' $status 2>/dev/null
	fi
}
# judged_past T - the watch judged every window that ended by T (s,
# /proc/uptime: the guest never sleeps, so it is the monotonic clock)
judged_past() {
	awk -v t="$1" '$1 == "judged_until_ns" && $2 >= t * 1e9 { f = 1 } END { exit !f }' $status 2>/dev/null
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# leftovers - what watches leave: instances, window_ms, pid filter,
# status file, half-written captures, trace-cmd processes
leftovers() {
	echo "$(ls $TRACEFS/instances | grep -c '^teeprobe-watch-') $(cat $params/window_ms)" \
		"$(cat $DEBUGFS/pid_filter) $(test -e $status && echo status || echo -)" \
		"$(ls -a $out/*/ 2>/dev/null | grep -c '^\.teeprobe-watch-.*\.part') $(pgrep -c -x trace-cmd)"
}
# after_accepts N FILE - wait until hsbench's accept log FILE holds N
# lines (a connection each), reading it in this shell (no process per
# poll: they would load the emulated CPUs the load runs on)
after_accepts() {
	local deadline=$((SECONDS + 120)) lines
	while :; do
		{ mapfile -t lines <"$2"; } 2>/dev/null
		[ "${#lines[@]}" -ge "$1" ] && return 0
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.2
	done
}
# server_pid CONNS - the pid of the hard-reg hsbench server of CONNS
# connections (its ready file's second line)
server_pid() {
	local ready
	{ mapfile -t ready <"$LAB_OUT/hard-reg-$1/ready"; } 2>/dev/null
	echo "${ready[1]}"
}
# run_switching CONNS LOG [N...] - one hard-reg server of CONNS
# connections (one worker, ten client threads); its mode switches
# (SIGUSR1: hard-reg <-> hard-temp) after the first N accepted
# connections, then after as many more as the next N is past the last,
# counted from the switch itself: the switcher polls the accept log, and
# on a loaded host it saw 200 late enough (hard-reg accepts some 40 a
# second) that an absolute 230 left a hard-temp phase of a few
# connections, under the watch's three windows in a row, and no capture
run_switching() {
	local conns=$1 log=$2 n rc switcher
	shift 2
	rm -f "$log"
	(
		prev=0 at=0
		for n in "$@"; do
			after_accepts $((at + n - prev)) "$log" && kill -USR1 "$(server_pid "$conns")" || exit 1
			at=$(wc -l <"$log")
			prev=$n
		done
	) &
	switcher=$!
	lab_run hard-reg "$conns" 10 --workers 1 --accept-log "$log"
	rc=$?
	wait $switcher || { echo "the switches did not come (accept log: $(wc -l <"$log") lines)"; rc=1; }
	[ $rc = 0 ] || tail -n 5 "$LAB_OUT/hard-reg-$conns/client.err" "$LAB_OUT/hard-reg-$conns/server.txt"
	return $rc
}
# run_stalled CONNS LOG N MS - the same without switches, the server
# stopped (SIGSTOP) for MS ms once N connections were accepted
run_stalled() {
	local conns=$1 log=$2 stall rc
	rm -f "$log"
	(
		after_accepts "$3" "$log" || exit 1
		pid=$(server_pid "$conns")
		kill -STOP "$pid"
		sleep "$(awk -v ms="$4" 'BEGIN { print ms / 1000 }')"
		kill -CONT "$pid"
	) &
	stall=$!
	lab_run hard-reg "$conns" 10 --workers 1 --accept-log "$log"
	rc=$?
	wait $stall || rc=1
	return $rc
}
export -f st judged_past uptime_s leftovers after_accepts server_pid run_switching run_stalled froze

[ -d /sys/module/teeprobe ] && rmmod teeprobe
[ -d /sys/module/teesim ] && rmmod teesim
check "teesim loads (registration 100 ms, unregistration 1 ms)" lab_load shm_us=100000 unreg_pct=1
check "insmod teeprobe" insmod "$ko"
window0=$(cat $params/window_ms)
nothing="0 $window0 all - 0 0"

# --- operator mistakes ---------------------------------------------------------
check_fails "no threshold: refused, naming the options" "give a threshold: --handshake-p99" \
	"$TEEPROBE" watch -o $out/x
check_fails "a threshold without its unit: refused" "a time with its unit" \
	"$TEEPROBE" watch --handshake-p99 10 -o $out/x
check_fails "--after as long as --ring: refused (the ring would lose the breach)" \
	"is not shorter than --ring" "$TEEPROBE" watch $common --after 20 -o $out/x
check_eq "... and nothing was set up" "$nothing" "$(leftovers)"

if want slow; then
# --- slow part-way: exactly one capture ------------------------------------------
watch_bg slow $common --cooldown 600
check_eq "a watch starts (--handshake-p99 $threshold, 3 windows of 1 s in a row)" 0 $?
check_eq "... its instances: the ring, the window events', the markers'; its 1 s windows" \
	"3 1000" "$(ls $TRACEFS/instances | grep -c "^teeprobe-watch-$WATCH") $(cat $params/window_ms)"
check_fails "a second watch is refused, naming the first" "a watch runs \(pid $WATCH, capturing into $out/slow\)" \
	"$TEEPROBE" watch $common -o $out/second
check_fails "teeprobe record is refused too" "a watch runs \(pid $WATCH" \
	"$TEEPROBE" record -d 1 -o $out/rec.dat
freezes_start $out/slow.freezes
check "hsbench: hard-reg, hard-temp after 200 connections, hard-reg again 30 after the switch (430 in all)" \
	run_switching 430 $out/slow.accepts 200 230
check_eq "... the server switched twice, as hsbench says" 2 "$(kv $LAB_OUT/hard-reg-430/server.txt mode_switches)"
end=$(uptime_s)
freezes_stop
check "the watch judged every window of the load" lab_wait $wait_s judged_past "$end"
check "... and wrote its capture" lab_wait $wait_s bash -c '[ "$(st captures)" -ge 1 ] || [ "$(st failed)" -ge 1 ]'
"$TEEPROBE" stat --prometheus >$out/slow.prom
stop_watch
check_eq "SIGTERM: the watch ends with status 0" 0 $?
cat $out/slow.err | grep -v 'debug: watch: window' | diag
grep 'debug: watch: window' $out/slow.err | sed 's/.*watch: window/window/' | diag
froze $out/slow.freezes | diag
captures=$(ls $out/slow/teeprobe-watch-*.dat 2>/dev/null)
# kept beside the guest's log, for a failed check
[ -z "$TP_OUT" ] || cp $captures "$TP_OUT/" 2>/dev/null
check_eq "exactly one capture" 1 "$(echo "$captures" | grep -c .)"
check_eq "... and one log line saying it" 1 "$(grep -c 'captured ' $out/slow.err)"
check "... which names the breach, the file and the verdict: TEE set-up (tee-blocking)" \
	grep -q "watch: handshake p99 .* over 2.00 s in [0-9]* windows from .*: captured $captures (.*): verdict tee-blocking: " $out/slow.err
check_eq "SIGTERM leaves nothing: instances, settings, status, half-written files, trace-cmd" \
	"$nothing" "$(leftovers)"
"$TEEPROBE" analyze --json -i "$captures" >$out/slow-analyze.json
check "analyze on the capture: the same verdict, TEE set-up (tee-blocking)" \
	python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))["verdict"]; exit(0 if v["cause"] == "tee-blocking" else 1)' $out/slow-analyze.json ||
	python3 "$top/tests/integration/verdictinfo.py" $out/slow-analyze.json | diag
check "the capture holds the change: windows under the threshold before the breach, a run over it after" \
	python3 "$top/tests/integration/watchcheck.py" change "$captures" "$threshold_ns"
check "trace-cmd reads its events: its server handshakes from the capture's start are report's" \
	python3 "$top/tests/integration/watchcheck.py" events "$captures" "$TEEPROBE"
check_eq "report --json names what started it: the measure, over its threshold (2 s)" \
	"handshake_p99 2.0 True" "$("$TEEPROBE" report --json -i "$captures" | python3 -c 'import json, sys
c = json.load(sys.stdin)["capture"]; print(c["measure"], c["threshold"], c["value"] > c["threshold"])')"
check_eq "... and no accepting thread's state: the ring leaves them to --states" 0 \
	"$(trace-cmd report "$captures" 2>/dev/null | grep -c 'teeprobe_acceptor_state:')"
check_eq "stat --prometheus showed the watch: running, 1 capture, its threshold, the verdict" \
	"1 1 2 1" "$(awk '/^teeprobe_watch_running / { r = $2 } /^teeprobe_watch_captures_total / { c = $2 }
		/^teeprobe_watch_threshold\{measure="handshake_p99"\}/ { t = $2 }
		/^teeprobe_watch_last_verdict_info\{verdict="tee-blocking"\}/ { v = $2 }
		END { print r, c, t, v }' $out/slow.prom)"

fi

if want healthy; then
# --- a healthy run of the same length: no capture ----------------------------------
watch_bg healthy $common --cooldown 600
check_eq "a watch starts" 0 $?
freezes_start $out/healthy.freezes
check "hsbench: hard-reg, 430 connections" run_switching 430 $out/healthy.accepts
end=$(uptime_s)
freezes_stop
check "the watch judged every window of the load" lab_wait $wait_s judged_past "$end"
echo "# healthy: $(st windows) windows judged, $(st over handshake_p99) over $threshold" \
	"(the longest run under 3), last window $(st value handshake_p99) ns"
grep 'debug: watch: window' $out/healthy.err | sed 's/.*watch: window/window/' | diag
got="$(st breaches handshake_p99) $(st captures) $(ls $out/healthy | grep -c '\.dat')"
if [ "$got" != "0 0 0" ] && froze $out/healthy.freezes >/dev/null; then
	skip "no breach, no capture" "the host stopped the guest ($(froze $out/healthy.freezes)): $got"
else
	check_eq "no breach, no capture" "0 0 0" "$got"
fi
stop_watch
check_eq "SIGTERM: status 0, nothing left" "0 $nothing" "$? $(leftovers)"

fi

if want stall; then
# --- one window over: no capture -----------------------------------------------------
# The server stopped for 3 s (over the threshold, some windows long): the
# connections queued meanwhile are accepted as it goes on, within a window
# or two of it, having waited 3 s at the most: windows over, never three
# in a row (the windows of the stall itself have no handshake: they are
# skipped, and do not join the windows before and after)
watch_bg stall $common --cooldown 600
check_eq "a watch starts" 0 $?
freezes_start $out/stall.freezes
check "hsbench: hard-reg, 300 connections, the server stopped 3 s after 100" \
	run_stalled 300 $out/stall.accepts 100 3000
end=$(uptime_s)
freezes_stop
check "the watch judged every window of the load" lab_wait $wait_s judged_past "$end"
grep 'debug: watch: window' $out/stall.err | sed 's/.*watch: window/window/' | diag
over=$(st over handshake_p99)
check "the stall's window was over the threshold (the watch counts $over)" test "${over:-0}" -ge 1
got="$(st breaches handshake_p99) $(st captures) $(ls $out/stall | grep -c '\.dat')"
if [ "$got" != "0 0 0" ] && froze $out/stall.freezes >/dev/null; then
	skip "... alone: no breach, no capture" "the host stopped the guest ($(froze $out/stall.freezes)): $got"
else
	check_eq "... alone: no breach, no capture" "0 0 0" "$got"
fi
stop_watch
check_eq "SIGTERM: status 0, nothing left" "0 $nothing" "$? $(leftovers)"

fi

if want keep; then
# --- captures kept, and room on the disk ----------------------------------------------
# Every window a breach, no cooldown: captures back to back while hsbench
# runs; --keep 2 leaves the newest two. The load is ended by the count of
# captures, not by its own: a load of a fixed length ran out before the
# third capture on a quiet host (2,000 handshakes in under three windows
# and two captures); 100,000 last minutes at any speed seen here, and are
# stopped once three captures are made
keep_run() {
	local conns=100000 load rc
	lab_run hard-reg $conns 10 --workers 1 >/dev/null 2>&1 &
	load=$!
	lab_wait $wait_s bash -c "[ \"\$(st captures)\" -ge 3 ] || ! kill -0 $load"
	[ "$(st captures)" -ge 3 ]
	rc=$?
	[ $rc = 0 ] || echo "captures $(st captures), breaches $(st breaches handshake_p99)," \
		"windows $(st windows), the load $(kill -0 $load 2>/dev/null && echo still running || echo ended)," \
		"its client: $(grep -o '"completed":[0-9]*,"errors":[0-9]*' $LAB_OUT/hard-reg-$conns/client.json 2>/dev/null)"
	# the server, then its client, which would try the connections left
	kill "$(server_pid $conns)" 2>/dev/null
	pkill -f "hsbench client --connect" 2>/dev/null
	wait $load
	return $rc
}
watch_bg keep --handshake-p99 1us --windows 1 --after 0 --cooldown 0 --keep 2 --states -w 1000
check_eq "a watch starts (every window a breach, --keep 2, --states)" 0 $?
check "three captures, back to back" keep_run
made=$(st captures)
stop_watch
check_eq "SIGTERM: status 0, nothing left" "0 $nothing" "$? $(leftovers)"
ls $out/keep | diag
check "--states: the captures hold the accepting threads' states" sh -c \
	"trace-cmd report $out/keep/\$(ls $out/keep | grep '\.dat$' | tail -n 1) 2>/dev/null | grep -q teeprobe_acceptor_state:"
check_eq "of $made captures the newest two are kept" \
	"2 $(grep -o 'captured [^ ]*' $out/keep.err | tail -n 2 | sed "s|captured $out/keep/||" | xargs)" \
	"$(ls $out/keep | grep -c '\.dat$') $(ls $out/keep | grep '\.dat$' | xargs)"
mkdir -p $out/small
mount -t tmpfs -o size=3m tmpfs $out/small
check_fails "a directory with less than 4 MiB free is refused at once, as record's" \
	"not enough for a session" "$TEEPROBE" watch $common -o $out/small
umount $out/small
fi

if want kill; then
# --- SIGKILL in the middle of a capture --------------------------------------------
# A threshold every window crosses, a breach of one window, the capture at
# once: the watch is killed while trace-cmd writes its file
watch_bg kill --handshake-p99 1us --windows 1 --after 0 --cooldown 0 -w 1000
check_eq "a watch starts (every window a breach)" 0 $?
lab_run hard-reg 300 10 --workers 1 >/dev/null 2>&1 &
load=$!
check "it writes a capture (its .part file is there)" \
	lab_wait $wait_s bash -c "ls -a $out/kill | grep -q '^\.teeprobe-watch-.*\.part'"
kill -KILL $WATCH
wait $WATCH 2>/dev/null
check "... when it is killed (SIGKILL), its trace-cmd ends with it" \
	lab_wait $wait_s sh -c '[ "$(pgrep -c -x trace-cmd)" = 0 ]'
wait $load
left=$(leftovers)
echo "# after SIGKILL: $left (instances window_ms pid_filter status parts trace-cmd)"
check_eq "SIGKILL leaves its 3 instances, its 1 s windows, its status and the half-written file" \
	"3 1000 all status part" "$(echo $left | awk '{ print $1, $2, $3, $4, ($5 > 0 ? "part" : "no-part") }')"
"$TEEPROBE" check >$out/check.out 2>$out/check.err
check_eq "teeprobe check afterwards is ready" 0 $?
diag <$out/check.err
check "... says what it put back and removed" sh -c \
	"grep -q 'a session that did not end (watch, pid [0-9]*, writing $out/kill)' $out/check.err &&
	 grep -q 'removed the tracefs instance teeprobe-watch-' $out/check.err &&
	 grep -q 'a watch that did not end (pid [0-9]*) left its status and a capture it was writing; removed' $out/check.err"
check_eq "... and nothing is left" "$nothing" "$(leftovers)"

fi

rmmod teeprobe
lab_unload
done_testing
