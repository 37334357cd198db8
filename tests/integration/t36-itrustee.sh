#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t36-itrustee - teeprobe's tzdriver preset on iTrustee's real tzdriver
# (vm-run -k itrustee: the newest tree on Debian 12's arm64 6.1; -k
# itrustee-5.10: v1.0.0 on Debian 11's arm64 5.10, adapted to below), over
# tzsim, the lab's simulated iTrustee secure side, with teecd and libteec
# from itrustee_client. The lab TA through libteec in the four memory kinds
# a CA passes; every preset probe attached (or absent from this version);
# teeprobe's counts against libteec's (tzclient's) and the secure side's;
# each wait place's time against an independent measure of the same wait,
# in a scenario made for it to dominate (one session shared by many
# threads; a small command queue; a long TA time completed later); the
# set-up of large temporary buffers, a step of microseconds, by its count
# and by the order of events (inside the kernel's own); teeprobe loaded and unloaded under load, and the
# driver loaded after teeprobe. Skipped in every other guest.
. "$(dirname "$0")/lib.sh"

if [ "${TP_SECURE:-none}" != itrustee ]; then
	skip "teeprobe on iTrustee's tzdriver" "not an iTrustee guest (tests/run -k itrustee)"
	done_testing
	exit
fi

ko=$TP_MODULES/module/teeprobe.ko
tzmods=$TP_MODULES/tzdriver
tzver=$(cat "$tzmods/tzdriver-version")
TZCLIENT=$top/lab/tzclient/tzclient
TZSIM=/sys/module/tzsim/parameters
ref=$TRACEFS/instances/tp_tz
export ref
# calls per thread, the scenarios' sizes (make stress: TP_TZ_SCALE=4)
scale=${TP_TZ_SCALE:-1}

# tee_stat CMD COLUMN - a column of the "all CMD ..." line of tee_stats (0
# without one)
tee_stat() { tp_sum tee_stats "$2" all "$1"; }
# probe_field SYMBOL COLUMN - a column of SYMBOL's line of tee_probes (a
# clone's suffix ignored: SYMBOL.constprop.0 is SYMBOL)
probe_field() { tp_col tee_probes "$2" "$1(\\..*)?"; }
# sim NAME - one of tzsim's counters
sim() { kv /sys/kernel/debug/tzsim/stats "$1"; }
# tzc FILE NAME - one of tzclient's counts
tzc() { kv "$1" "$2"; }
# sim_set NAME=VALUE... - tzsim's parameters, at run time
sim_set() {
	local a
	for a in "$@"; do
		echo "${a#*=}" >"$TZSIM/${a%%=*}" || return 1
	done
}
# reset_all - teeprobe's and tzsim's counters from zero
reset_all() {
	echo 1 >$DEBUGFS/reset
	echo 1 >/sys/kernel/debug/tzsim/reset
}
# within10 A B - A is within 10 % of B (B > 0)
within10() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(b > 0 && a >= 0.9 * b && a <= 1.1 * b) }'; }

# nested_within A B N - A ns, the sum of N intervals each inside one of
# B's, printed to the microsecond: 0 < A <= B + N us
nested_within() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { exit !(a > 0 && a <= b + n * 1000) }'; }

# ref_start EVENT... - kprobe events through tracefs in an instance of
# our own: "name:func" for a kprobe on func's entry, "name:func:r" for a
# kretprobe on its return
ref_start() {
	local e name func ret
	[ -d "$ref" ] || mkdir "$ref" || return 1
	echo 0 >"$ref/tracing_on"
	echo 8192 >"$ref/buffer_size_kb"
	for e in "$@"; do
		IFS=: read -r name func ret <<<"$e"
		grep -q "tp_tz/$name " $TRACEFS/kprobe_events 2>/dev/null ||
			echo "$([ -n "$ret" ] && echo r100 || echo p):tp_tz/$name $func" >>$TRACEFS/kprobe_events || {
				# tracefs says why
				tail -n 4 $TRACEFS/error_log >&2
				return 1
			}
		echo 1 >"$ref/events/tp_tz/$name/enable" || return 1
	done
	echo >"$ref/trace"
	echo 1 >"$ref/tracing_on"
}
# ref_stop FILE - stop the reference, its events into FILE
ref_stop() {
	echo 0 >"$ref/tracing_on"
	cat "$ref/trace" >"$1"
	cat "$ref"/per_cpu/cpu*/stats >"$1.stats"
	echo 0 >"$ref/events/enable"
	echo >"$ref/trace"
}
# ref_pairs FILE START END - ns from each thread's START event to its next
# END event, summed: an interval measured by the kernel's own events
ref_pairs() {
	awk -v a=" $2:" -v b=" $3:" '
	{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = substr($i, 1, length($i) - 1)
	  task = $1 }
	index($0, a) { start[task] = ts; next }
	index($0, b) && (task in start) { sum += ts - start[task]; n++; delete start[task] }
	END { printf "%.0f %d\n", sum * 1e9, n }' "$1"
}
# ref_lost FILE - the reference lost events?
ref_lost() { awk '/^overrun:|^dropped events:/ && $NF != 0 { bad = 1 } END { exit !bad }' "$1.stats"; }

# --- the driver, teecd and the lab TA ----------------------------------------------
check "tzdriver $tzver is up over tzsim: /dev/tc_ns_client, teecd" \
	sh -c '[ -c /dev/tc_ns_client ] && pgrep -x teecd >/dev/null && [ -d /sys/module/tzsim ]'
if [ "$tzver" = newest ]; then
	check "the newest tree has /dev/tc_private too" test -c /dev/tc_private
fi
check_eq "the driver started as on a real host: mailbox, notify memory, svc thread's standing command" \
	"ok" "$(dmesg | grep -q 'tzsim: tzdriver.s command queue at' && echo ok)"
sim_set secure_threads=2 ta_us=200 ta_mode=0 queue_slots=0 switch_us=10
# the memory kinds of this version's libteec: v1.0.0's has no
# TEEC_MEM_SHARED_INOUT (nor its driver fill_shared_mem_info)
mems="temp reg alloc shared" setup_mems="temp shared"
if [ "$tzver" != newest ]; then
	mems="temp reg alloc" setup_mems="temp reg alloc"
	check_eq "v1.0.0's libteec has no TEEC_MEM_SHARED_INOUT: tzclient -m shared refuses" 2 \
		"$("$TZCLIENT" -n 1 -m shared >/dev/null 2>&1; echo $?)"
fi
for mem in $mems; do
	for c in sm3 sm4; do
		check "libteec: $c in $mem memory, 2 threads x 5 calls, every result the lab's own" \
			"$TZCLIENT" -t 2 -n 5 -s 4096 -m $mem -c $c
	done
done

# --- the preset --------------------------------------------------------------------
check "insmod teeprobe preset=tzdriver" insmod "$ko" preset=tzdriver
if [ "$tzver" = newest ]; then
	want_attached="tc_client_ioctl tc_private_ioctl smc_req tc_ns_send_cmd tc_client_call occupy_free_smc_in_entry smp_smc_send_func agent_process_work mailbox_alloc mailbox_copy_alloc mailbox_free read_from_client write_to_client fill_shared_mem_info"
	want_absent="smp_smc_send"
else
	want_attached="tc_client_ioctl smp_smc_send tc_ns_send_cmd tc_client_call smp_smc_send_func agent_process_work mailbox_alloc mailbox_copy_alloc mailbox_free read_from_client write_to_client"
	want_absent="tc_private_ioctl smc_req occupy_free_smc_in_entry fill_shared_mem_info"
fi
for s in $want_attached; do
	check_eq "tzdriver $tzver: $s is probed" attached "$(probe_field $s state)"
done
for s in $want_absent; do
	check_eq "tzdriver $tzver: $s is absent from this version" absent "$(probe_field $s state)"
done
cat $DEBUGFS/tee_probes | diag
check "teeprobe check: ready, each probe named" sh -c \
	"'$TEEPROBE' check >/tmp/tz-check.txt 2>&1; rc=\$?; cat /tmp/tz-check.txt; [ \$rc = 0 ] && ! grep -Eq 'not-found|failed' /tmp/tz-check.txt"
grep -i 'probe' /tmp/tz-check.txt | diag

# --- counts: teeprobe = libteec = the secure side ------------------------------------
n=$((20 * scale))
reset_all
check "tzclient: 4 threads x $n SM3 in temporary memory" sh -c "'$TZCLIENT' -t 4 -n $n -s 1024 -m temp >/tmp/tz-count.txt"
check_eq "TZ_SEND_CMD = tzclient's TEEC_InvokeCommand calls = the secure side's TA commands" \
	"$(tzc /tmp/tz-count.txt invoke) $(tzc /tmp/tz-count.txt invoke)" \
	"$(tee_stat TZ_SEND_CMD calls) $(sim ta_cmds)"
check_eq "TZ_SES_OPEN, TZ_SES_CLOSE = tzclient's = the secure side's" \
	"$(tzc /tmp/tz-count.txt open_session) $(tzc /tmp/tz-count.txt close_session) $(sim open_session) $(sim close_session)" \
	"$(tee_stat TZ_SES_OPEN calls) $(tee_stat TZ_SES_CLOSE calls) $(tee_stat TZ_SES_OPEN calls) $(tee_stat TZ_SES_CLOSE calls)"
check_eq "the TA's own counts: SM3 calls = tzclient's, none refused" \
	"$((4 * n)) 0 $((4 * n))" "$(tzc /tmp/tz-count.txt ta_sm3) $(tzc /tmp/tz-count.txt ta_refused) $(sim ta_sm3)"
smc_probe=smc_req
[ "$tzver" = newest ] || smc_probe=smp_smc_send
if [ "$tzver" = newest ]; then
	check_eq "entries into the secure world: teeprobe's smc_req = the secure side's SMCs" \
		"$(sim smc)" "$(probe_field smc_req calls)"
else
	check "SMC entries: smp_smc_send's calls (each one or more SMCs) = the secure side's, less its re-entries after preemption" \
		test "$(probe_field smp_smc_send calls)" = "$(( $(sim smc) - $(sim exit_preempted) ))"
fi
check_eq "no TZ_SEND_CMD failed, no kretprobe missed" "0 0" \
	"$(tee_stat TZ_SEND_CMD errors) $(probe_field tc_client_ioctl nmissed)"
check_eq "teecd's agents waiting in TZ_WAIT_EVENT are not followed (agents=0)" 0 "$(tee_stat TZ_WAIT_EVENT calls)"

# --- each wait place against an independent measure ---------------------------------
# share WAIT - a wait place's share of TZ_SEND_CMD time
share() { awk -v w="$1" -v t="$(tee_stat TZ_SEND_CMD total_ns)" 'BEGIN { printf "%.3f", t ? w / t : 0 }'; }

# The session lock: 8 threads share one session; the TA holds each call
# on the CPU for 2 ms. Independent: kprobe events on tc_ns_send_cmd's and
# tc_client_call's entries, each thread's gap between them summed.
sim_set secure_threads=2 ta_us=2000 ta_mode=0
reset_all
check "session lock: kprobe events on tc_ns_send_cmd and tc_client_call" \
	ref_start send_cmd:tc_ns_send_cmd client_call:tc_client_call
check "session lock: 8 threads x $((10 * scale)) calls on one shared session" \
	sh -c "'$TZCLIENT' -S -t 8 -n $((10 * scale)) -s 256 -m temp >/tmp/tz-lock.txt"
ref_stop /tmp/tz-lock.ref
read -r ref_ns ref_n <<<"$(ref_pairs /tmp/tz-lock.ref send_cmd client_call)"
tp_ns=$(probe_field tc_ns_send_cmd total_ns)
check_eq "session lock: the reference lost no event, and paired every call ($(tzc /tmp/tz-lock.txt invoke))" \
	"$(tzc /tmp/tz-lock.txt invoke)" "$(ref_lost /tmp/tz-lock.ref && echo lost || echo "$ref_n")"
check "session lock: teeprobe $tp_ns ns ($(share "$tp_ns") of the calls' time), the kernel's events $ref_ns ns (within 10 %)" \
	within10 "$tp_ns" "$ref_ns"

# A full command queue: two slots left to the driver, the TA's 20 ms off
# the CPU, 8 callers. The newest tree has its own function for the wait:
# independent, kprobe and kretprobe events on occupy_free_smc_in_entry.
# v1.0.0 inlines it into smp_smc_send_func: the queue's sleeps are part of
# that function's figure, with the TA's pending time after them, and the
# independent measure is kprobe and kretprobe events on smp_smc_send_func
# (the TA's time off the CPU, what is on it is the SMCs' few microseconds;
# the sessions' opening and closing wait for a slot too: it is more than
# TZ_SEND_CMD's time).
if [ "$tzver" = newest ]; then
	qfn=occupy_free_smc_in_entry q="queue full" qv="queue full"
else
	qfn=smp_smc_send_func q="queue full (v1.0.0, inlined)" qv="queue full (v1.0.0)"
fi
sim_set secure_threads=2 ta_us=20000 ta_mode=1 queue_slots=2
reset_all
check "$q: kprobe events on $qfn's entry and return" \
	ref_start "q_in:$qfn" "q_out:$qfn:r"
check "$q: 8 threads x $((5 * scale)) calls, 2 queue slots" \
	sh -c "'$TZCLIENT' -t 8 -n $((5 * scale)) -s 256 -m temp >/tmp/tz-queue.txt"
ref_stop /tmp/tz-queue.ref
read -r ref_ns ref_n <<<"$(ref_pairs /tmp/tz-queue.ref q_in q_out)"
tp_ns=$(probe_field "$qfn" total_ns)
check "$qv: the driver's queue held at most 2 of the callers' commands ($(sim queue_max_used))" \
	test "$(sim queue_max_used)" -le 2
if [ "$tzver" = newest ]; then
	qwhat="teeprobe $tp_ns ns ($(share "$tp_ns") of the calls' time)"
else
	qwhat="smp_smc_send_func, its sleeps for a slot included: teeprobe $tp_ns ns"
fi
check "$qv: $qwhat, the kernel's events $ref_ns ns (within 10 %)" \
	within10 "$tp_ns" "$ref_ns"
sim_set queue_slots=0

# The TA not done: 4 callers, 2 secure threads, each command 20 ms off
# the CPU, completed through the driver's wake-up path. Independent: the
# secure side's own time from each pending exit to its wake-up.
sim_set secure_threads=2 ta_us=20000 ta_mode=1 queue_slots=0
reset_all
check "pending: 4 threads x $((10 * scale)) calls, the TA's 20 ms completed later" \
	sh -c "'$TZCLIENT' -t 4 -n $((10 * scale)) -s 256 -m temp >/tmp/tz-pend.txt"
tp_ns=$(probe_field smp_smc_send_func total_ns)
check "pending: every command left its SMC pending and was woken ($(sim exit_pending) exits, $(sim wakeups) wake-ups)" \
	test "$(sim wakeups)" -ge "$(tzc /tmp/tz-pend.txt invoke)"
check "pending: teeprobe $tp_ns ns ($(share "$tp_ns") of the calls' time), the secure side's $(sim pending_ns) ns (within 10 %)" \
	within10 "$tp_ns" "$(sim pending_ns)"

# Set-up: large temporary buffers (60,000 bytes each way) against the
# driver's pinned pages (TEEC_MEM_SHARED_INOUT; v1.0.0, which has none:
# against registered memory, which libteec passes as temporary, and
# allocated memory, the driver's own mapping). Independent: kprobe events
# on mailbox_alloc's entry and return.
sim_set secure_threads=2 ta_us=0 ta_mode=0
for mem in $setup_mems; do
	reset_all
	check "set-up ($mem): kprobe events on mailbox_alloc" \
		ref_start mb_in:mailbox_alloc mb_out:mailbox_alloc:r
	check "set-up ($mem): 2 threads x $((10 * scale)) SM3 of 60,000 bytes" \
		sh -c "'$TZCLIENT' -t 2 -n $((10 * scale)) -s 60000 -m $mem >/tmp/tz-setup-$mem.txt"
	ref_stop /tmp/tz-setup-$mem.ref
	read -r ref_ns ref_n <<<"$(ref_pairs /tmp/tz-setup-$mem.ref mb_in mb_out)"
	check_eq "set-up ($mem): mailbox_alloc calls: teeprobe = the kernel's events" \
		"$ref_n" "$(probe_field mailbox_alloc calls)"
	# A step of some microseconds: the probes' own cost is a large part
	# of it under emulation, so it is bounded by the order of events, not
	# compared as a time: teeprobe's kretprobe, attached first, runs inside
	# the reference's (a later kprobe's handler runs first at the entry,
	# a later kretprobe's last at the return), each interval of the
	# reference's rounded to the microsecond of its timestamps
	check "set-up ($mem): mailbox_alloc's time: teeprobe $(probe_field mailbox_alloc total_ns) ns, inside the kernel's events' $ref_ns ns (each call nested in the reference's)" \
		nested_within "$(probe_field mailbox_alloc total_ns)" "$ref_ns" "$ref_n"
	for s in mailbox_alloc read_from_client write_to_client mailbox_free fill_shared_mem_info; do
		echo "$mem: $s $(probe_field $s calls) calls $(probe_field $s total_ns) ns"
	done | diag
	echo "$mem: TZ_SEND_CMD $(tee_stat TZ_SEND_CMD calls) calls $(tee_stat TZ_SEND_CMD total_ns) ns, secure side $(sim memref_temp) mailbox memrefs, $(sim memref_pages) page lists" | diag
	if [ "$tzver" != newest ]; then
		# v1.0.0 has one way to pass memory: a mailbox copy per memref
		# (per SM3 call, in and out; the sessions' STATS calls pass none)
		check_eq "set-up ($mem): v1.0.0 passes it copied: the secure side saw two mailbox memrefs per SM3 call, no page list" \
			"$((2 * $(kv /tmp/tz-setup-$mem.txt ta_sm3))) 0" "$(sim memref_temp) $(sim memref_pages)"
	fi
done
check "set-up: temporary buffers are copied (mailbox_alloc per memref), shared ones pinned (fill_shared_mem_info$( [ "$tzver" = newest ] || echo ', absent in v1.0.0'))" \
	test "$(kv /tmp/tz-setup-temp.txt invoke)" -gt 0

# --- teeprobe in and out under load, and the driver after teeprobe ------------------
sim_set secure_threads=2 ta_us=1000 ta_mode=0
"$TZCLIENT" -t 4 -n $((50 * scale)) -s 1024 -m temp >/tmp/tz-load.txt 2>&1 &
load=$!
sleep 2
check "rmmod teeprobe while tzclient calls the TA" rmmod teeprobe
check "insmod teeprobe preset=tzdriver again under load" insmod "$ko" preset=tzdriver
# the probes neither attached nor absent (a failed read is not "none")
states=$(tp_col tee_probes symbol,state) || states="tee_probes not read"
check_eq "...every preset probe back at once" "" \
	"$(grep -Ev ' (attached|absent)$' <<<"$states")"
wait $load
check_eq "the load ran through: every call answered, every result right" "0 0" \
	"$(tzc /tmp/tz-load.txt invoke_errors) $(tzc /tmp/tz-load.txt wrong_results)"
# the driver after teeprobe: teecd goes, the driver goes, and both come back
pkill -x teecd
sleep 1
check "rmmod tzdriver (teecd stopped)" rmmod tzdriver
check_eq "its probes wait for it" not-found "$(probe_field tc_client_ioctl state)"
check "insmod tzdriver after teeprobe (late attach)" insmod "$tzmods/tzdriver.ko"
/usr/bin/teecd >/tmp/teecd.log 2>&1 </dev/null &
# its socket: a file, or v1.0.0's abstract @tc_ns_socket
lab_wait 20 sh -c "test -S /var/itrustee/teecd/teecd.sock || grep -q '@tc_ns_socket\$' /proc/net/unix"
for s in $want_attached; do
	check_eq "late attach: $s is probed" attached "$(probe_field $s state)"
done
reset_all
check "late attach, under load: 4 threads x $((20 * scale)) calls" \
	sh -c "'$TZCLIENT' -t 4 -n $((20 * scale)) -s 1024 -m temp >/tmp/tz-late.txt"
check_eq "late attach: TZ_SEND_CMD = tzclient's calls = the secure side's" \
	"$(tzc /tmp/tz-late.txt invoke) $(tzc /tmp/tz-late.txt invoke)" \
	"$(tee_stat TZ_SEND_CMD calls) $(sim ta_cmds)"
check "rmmod teeprobe" rmmod teeprobe
rmdir "$ref" 2>/dev/null
echo >$TRACEFS/kprobe_events
done_testing
