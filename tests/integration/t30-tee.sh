#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t30-tee - teeprobe's TEE ioctl probes: attaching (late, missing, bad),
# counts against teesim's and hsbench's own, the on/off-CPU split, the pid
# filter, the trace events, rmmod under load, and probes that run as NMIs
# (a stand-in with notrace functions; the tzdriver preset is t36's).
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
conns=${TP_LAB_CONNECTIONS:-200}
[ "$TP_KERNEL" = lab ] && conns=${TP_LAB_CONNECTIONS:-40}

# tee_stat CMD COLUMN - a column of the "all CMD ..." line of tee_stats (0
# without one)
tee_stat() { tp_sum tee_stats "$2" all "$1"; }
# probe_field SYMBOL COLUMN - a column of SYMBOL's line of tee_probes
probe_field() { tp_col tee_probes "$2" "$1"; }
reset_all() { echo 1 >$DEBUGFS/reset && echo 1 >/sys/kernel/debug/teesim/reset; }

# --- parameters -------------------------------------------------------------
bad_params=(preset=bogus "ioctl_symbol=bad-name" "wait_symbols=a,b,c,d,e,f,g,h,i,j,k"
	"wait_symbols=a,,b" "wait_symbols=a,b,a" wait_symbols=tee_ioctl maxactive=5000
	maxactive=-1 preset=custom pid=0 pid=-3 pid=1,2,3,4,5,6,7,8,9 pid=abc)
# The lab kernel runs user space ~15x slower: a few cases there.
[ "$TP_KERNEL" = lab ] && bad_params=(preset=bogus "wait_symbols=a,,b" preset=custom)
for bad in "${bad_params[@]}"; do
	check_fails "teeprobe refuses $bad" "Invalid (argument|parameters)" insmod "$ko" "$bad"
done
check "the refusal is explained in dmesg" sh -c "dmesg | grep -q 'teeprobe: preset=custom needs ioctl_symbol='"
if [ "$TP_KERNEL" != lab ]; then
	check "... a wait symbol listed twice too" sh -c "dmesg | grep -q 'teeprobe: wait_symbols: must be up to 10 comma-separated C symbol names, none twice'"
	check "... and one the preset probes already" sh -c "dmesg | grep -q 'teeprobe: tee_ioctl is probed twice (the preset tee probes it already)'"
	check "ten wait symbols, with the preset's nine probes, load" \
		insmod "$ko" wait_symbols=w1,w2,w3,w4,w5,w6,w7,w8,w9,w10
	check_eq "... and all nineteen are listed" 19 "$(grep -vc '^#' $DEBUGFS/tee_probes)"
	check "rmmod teeprobe" rmmod teeprobe
fi
check "teeprobe loads with a symbol that does not exist" \
	insmod "$ko" preset=custom ioctl_symbol=no_such_function_here
check_eq "... and shows it as not found" "not-found -2" \
	"$(probe_field no_such_function_here state) $(probe_field no_such_function_here error)"
check "... with a message in dmesg" sh -c "dmesg | grep -q 'no_such_function_here not found'"
check "rmmod teeprobe" rmmod teeprobe

# --- attaching, also to a TEE module loaded later -----------------------------
check "insmod teeprobe.ko (preset tee)" insmod "$ko"
if [ -d /sys/class/tee ]; then
	check_eq "tee_ioctl of the built-in TEE core is probed at once" attached "$(probe_field tee_ioctl state)"
else
	check_eq "tee_ioctl is not there before the TEE core loads" not-found "$(probe_field tee_ioctl state)"
fi
check_eq "teesim's wait function is not there before teesim loads" not-found \
	"$(probe_field teesim_wait_for_secure_thread state)"
check "the TEE core and teesim load after teeprobe" lab_load secure_threads=1
check_eq "tee_ioctl is probed once the TEE core is there" attached "$(probe_field tee_ioctl state)"
check_eq "teesim_wait_for_secure_thread is probed once teesim loads" attached \
	"$(probe_field teesim_wait_for_secure_thread state)"
check_eq "... and teesim_run_secure, its entry into the secure world (role secure)" \
	"attached secure" "$(probe_field teesim_run_secure state) $(probe_field teesim_run_secure role)"
check "teeprobe check lists the attached probes" \
	sh -c "'$TEEPROBE' check | grep -qx 'tee probe: tee_ioctl (ioctl) attached'"

# --- counts: teeprobe = teesim = hsbench --------------------------------------
for mode in hard-temp hard-reg; do
	reset_all
	check "hsbench $mode, $conns connections, 1 secure thread" lab_run "$mode" "$conns" 10 || continue
	srv=$LAB_OUT/$mode-$conns/server.txt
	ts=$LAB_OUT/$mode-$conns/teesim.txt
	check_eq "$mode: INVOKE calls: teeprobe = teesim = hsbench" \
		"$(kv "$srv" ioctl_invoke) $(kv "$srv" ioctl_invoke)" \
		"$(tee_stat INVOKE calls) $(kv "$ts" invoke)"
	check_eq "$mode: SHM_REGISTER calls: teeprobe = teesim = hsbench" \
		"$(kv "$srv" ioctl_shm_register) $(kv "$srv" ioctl_shm_register)" \
		"$(tee_stat SHM_REGISTER calls) $(kv "$ts" shm_register)"
	check_eq "$mode: OPEN_SESSION and CLOSE_SESSION calls = hsbench's" \
		"$(kv "$srv" ioctl_open_session) $(kv "$srv" ioctl_close_session)" \
		"$(tee_stat OPEN_SESSION calls) $(kv "$ts" close_session)"
	check_eq "$mode: shared-memory releases = hsbench's closes" \
		"$(kv "$srv" ioctl_shm_close)" "$(probe_field tee_shm_fop_release calls)"
	check_eq "$mode: no failed INVOKE" 0 "$(tee_stat INVOKE errors)"
	check_eq "$mode: the kretprobes missed no call" "0 0" \
		"$(probe_field tee_ioctl nmissed) $(probe_field teesim_wait_for_secure_thread nmissed)"
	check "$mode: callers waited for the one secure thread" \
		test "$(tee_stat INVOKE queue_wait_ns)" -gt 0
	wait_probe=$(probe_field teesim_wait_for_secure_thread calls)
	wait_probe_ns=$(probe_field teesim_wait_for_secure_thread total_ns)
	waits_sim=$(kv "$ts" thread_waits)
	wait_sim=$(kv "$ts" thread_wait_ns)
	# teesim reads its clock before the call and after its return, so the
	# probe's time in the call is inside teesim's (1 us a wait for the
	# two clocks' reads); a lower bound would be a timing assertion.
	check "$mode: time in teesim_wait_for_secure_thread ($wait_probe_ns ns) is inside teesim's own ($wait_sim ns)" \
		awk -v a="$wait_probe_ns" -v b="$wait_sim" -v n="$waits_sim" \
		'BEGIN { exit !(a > 0 && a <= b + 1000 * n) }'
	check_eq "$mode: the wait probe saw every wait teesim counted" \
		"$waits_sim" "$wait_probe"
	# one entry per secure call: those of the ioctls charged to them, the
	# releases' (in close()) counted by the probe alone
	check_eq "$mode: entries into the secure world: teeprobe's probe = teesim's secure calls" \
		"$(kv "$ts" secure_calls)" "$(probe_field teesim_run_secure calls)"
	check_eq "$mode: ... one per INVOKE and per SHM_REGISTER, charged to the ioctl = teesim's counts" \
		"$(kv "$ts" invoke) $(kv "$ts" shm_register)" \
		"$(tee_stat INVOKE secure_entries) $(tee_stat SHM_REGISTER secure_entries)"
done
share_few=$(awk -v o="$(tee_stat INVOKE offcpu_ns)" -v t="$(tee_stat INVOKE total_ns)" \
	'BEGIN { printf "%.3f", t ? o / t : 0 }')
check "fewer secure threads than callers: INVOKE is mostly blocked (share $share_few)" \
	awk -v s="$share_few" 'BEGIN { exit !(s > 0.3) }'

check "teesim reloads with 16 threads and no secure work" \
	bash -c 'rmmod teesim && . "$0" && lab_load secure_threads=16 invoke_us=0 shm_us=0 shm_cpu_us=0' "$top/lab/lab.sh"
reset_all
check "hsbench hard-reg with enough secure threads" lab_run hard-reg "$conns" 10
share_many=$(awk -v o="$(tee_stat INVOKE offcpu_ns)" -v t="$(tee_stat INVOKE total_ns)" \
	'BEGIN { printf "%.3f", t ? o / t : 0 }')
check_eq "enough secure threads: no caller waited for one" "0 0" \
	"$(tee_stat INVOKE queue_wait_ns) $(teesim_stat thread_waits)"
check "enough secure threads: blocked share $share_many is under a quarter of $share_few" \
	awk -v a="$share_many" -v b="$share_few" 'BEGIN { exit !(a < b / 4) }'

# --- pid filter ---------------------------------------------------------------
check_eq "pid_filter starts at all" all "$(cat $DEBUGFS/pid_filter)"
check "the pid= parameter sets the filter at load time" sh -c \
	"rmmod teeprobe && insmod '$ko' pid=4242,77 && grep -qx '4242 77' $DEBUGFS/pid_filter && echo 0 > $DEBUGFS/pid_filter"
bad_pids=(abc -5 "1 0" "0 1" "1 2 3 4 5 6 7 8 9" 4194305 " ")
[ "$TP_KERNEL" = lab ] && bad_pids=(abc "1 2 3 4 5 6 7 8 9")
for bad in "${bad_pids[@]}"; do
	check_fails "pid_filter refuses '$bad'" "Invalid argument" write_file $DEBUGFS/pid_filter "$bad"
done
check "pid_filter takes a pid nobody has" write_file $DEBUGFS/pid_filter $(( $(cat /proc/sys/kernel/pid_max) - 1 ))
reset_all
"$TEECLIENT" loop 10 >/dev/null 2>&1
check_eq "calls of other processes are not counted" 0 "$(tee_stat INVOKE calls)"
check "pid_filter takes the next process" \
	sh -c 'echo $$ > '$DEBUGFS'/pid_filter && exec "$0" loop 10 >/dev/null' "$TEECLIENT"
check_eq "its calls are counted exactly" "1 10 1" \
	"$(tee_stat OPEN_SESSION calls) $(tee_stat INVOKE calls) $(tee_stat CLOSE_SESSION calls)"
check "tee_threads shows its thread" bash -c "tp_col tee_threads comm,calls | grep -qx 'teeclient 1[0-9]'"
check "pid_filter 0 follows everyone again" write_file $DEBUGFS/pid_filter 0
check_eq "pid_filter reads all" all "$(cat $DEBUGFS/pid_filter)"

# --- trace events ---------------------------------------------------------------
cd /tmp || exit 1
check "trace-cmd records the TEE ioctl events" trace-cmd record -q \
	-e teeprobe:teeprobe_tee_ioctl_enter -e teeprobe:teeprobe_tee_ioctl_exit \
	-o /tmp/tee.dat "$TEECLIENT" loop 20
trace-cmd report -i /tmp/tee.dat >/tmp/tee.txt 2>&1
check_eq "trace-cmd report prints 20 INVOKE exits by name" 20 \
	"$(grep -c 'teeprobe_tee_ioctl_exit: *cmd=INVOKE duration_ns=[0-9]* offcpu_ns=[0-9]* runq_ns=[0-9]* queue_wait_ns=[0-9]* secure_ns=[0-9]* ret=0' /tmp/tee.txt)"
check_eq "and 20 INVOKE entries" 20 "$(grep -c 'teeprobe_tee_ioctl_enter: *cmd=INVOKE raw_cmd=0x8010a403' /tmp/tee.txt)"
check "teeprobe report reads them" sh -c "'$TEEPROBE' report -i /tmp/tee.dat | grep -Eq 'teeprobe_tee_ioctl_exit +2[0-9]'"
check "reset zeroes the TEE statistics" sh -c "echo 1 > $DEBUGFS/reset && ! grep -q '^all' $DEBUGFS/tee_stats"

# --- rmmod under load ---------------------------------------------------------
lab_run hard-temp $((conns * 2)) 10 >/dev/null 2>&1 &
load=$!
sleep 3
check "rmmod teeprobe while hsbench hard-temp runs" rmmod teeprobe
wait $load
check_eq "the load completes without errors" \
	"\"completed\":$((conns * 2)),\"errors\":0" \
	"$(grep -o '"completed":[0-9]*,"errors":[0-9]*' "$LAB_OUT/hard-temp-$((conns * 2))/client.json")"
check "teesim unloads" rmmod teesim

# --- probes that run as NMIs: a stand-in with tzdriver's names ---------------
# The tzdriver preset itself is tested on the real driver (t36-itrustee,
# arm64 guests). What stays of tests/tzstub is its notrace functions: their
# probes are int3-based; with kprobe optimization off they stay so (as on
# arm64, which has no optprobes), and teeprobe's entry handlers run from the
# int3 trap, NMI context: the guest's kernel log check catches any lock or
# clock read there that is not NMI-safe.
optimize=/proc/sys/debug/kprobes-optimization
optimize_was=$(cat "$optimize" 2>/dev/null)
[ -n "$optimize_was" ] && echo 0 >"$optimize"
check "insmod teeprobe preset=custom on the stand-in's names" insmod "$ko" preset=custom \
	ioctl_symbol=tc_client_ioctl wait_symbols=tc_ns_smc
check_eq "tc_client_ioctl is not there yet" not-found "$(probe_field tc_client_ioctl state)"
check "the stand-in loads" insmod "$TP_MODULES/tests/tzstub/tzstub.ko"
check_eq "tc_client_ioctl and tc_ns_smc (both notrace) are probed" "attached attached" \
	"$(probe_field tc_client_ioctl state) $(probe_field tc_ns_smc state)"
check "open, 5 commands and close on /dev/tc_ns_client" perl -e '
	open(my $f, "+<", "/dev/tc_ns_client") or die "open: $!";
	my $b = "\0" x 64;
	ioctl($f, 0x40407401, $b) // die "open: $!";
	for (1 .. 5) { ioctl($f, 0xc0407403, $b) // die "send: $!" }
	ioctl($f, 0xc0407402, $b) // die "close: $!";'
check_eq "TZ_SES_OPEN, TZ_SEND_CMD, TZ_SES_CLOSE = the stand-in's counts" \
	"$(cat /sys/module/tzstub/parameters/opens) $(cat /sys/module/tzstub/parameters/send_cmds) $(cat /sys/module/tzstub/parameters/closes)" \
	"$(tee_stat TZ_SES_OPEN calls) $(tee_stat TZ_SEND_CMD calls) $(tee_stat TZ_SES_CLOSE calls)"
check_eq "every command went through the probed wait" 7 "$(probe_field tc_ns_smc calls)"
check "its time is charged as waiting" test "$(tee_stat TZ_SEND_CMD queue_wait_ns)" -gt 0
check "the stand-in unloads" rmmod tzstub
[ -n "$optimize_was" ] && echo "$optimize_was" >"$optimize"
check_eq "its symbols are forgotten" not-found "$(probe_field tc_client_ioctl state)"
check "rmmod teeprobe" rmmod teeprobe

# --- histograms precise enough to compare -------------------------------------
# Two INVOKE latency distributions meant 20 % apart: teesim's world switch
# held on the CPU for 5 ms, then 6 ms (a busy wait, not a sleep's slack).
# The emulated guest on a shared host adds its own noise, so how far apart
# they come out is not asserted (a timing); what is: each histogram's p50
# and p99 are within its bucket bound (12.5 %) of the exact ones, which the
# calls' own events give (the exact value and the interpolated one share
# a bucket), and so the two runs' ratio is within (1 + 1/8) / (1 - 1/8) of
# the exact ratio. Log2 buckets would put both p50s in one 4.2..8.4 ms
# bucket, the same number before and after.
calls=200
[ "$TP_KERNEL" = lab ] && calls=40
check "insmod teeprobe.ko" insmod "$ko"
for us in 5000 6000; do
	check "teesim with a ${us} us world switch" lab_load switch_us=$us invoke_us=0 shm_us=0 shm_cpu_us=0
	write_file $DEBUGFS/reset 1
	check "$calls INVOKEs recorded" trace-cmd record -q -e teeprobe:teeprobe_tee_ioctl_exit \
		-o /tmp/hist-$us.dat "$TEECLIENT" loop $calls
	cp $DEBUGFS/tee_hist /tmp/hist-$us.txt
	trace-cmd report -i /tmp/hist-$us.dat >/tmp/hist-$us.events 2>&1
	check "teesim unloads" lab_unload
	"$top/tests/integration/histpct.py" /tmp/hist-$us.txt INVOKE /tmp/hist-$us.events >/tmp/hist-$us.pct 2>&1
	check_eq "every INVOKE event is in the histogram" "count $calls $calls" "$(grep '^count' /tmp/hist-$us.pct)"
	for p in p50 p99; do
		check "$us us: $p within 12.5 % of the exact one ($(grep "^$p" /tmp/hist-$us.pct))" \
			awk -v p=$p '$1 == p { d = $3 - $2; if (d < 0) d = -d; ok = d * 8 <= $2 } END { exit !ok }' /tmp/hist-$us.pct
	done
done
# ratio P - "exact histogram" ratios of the 6 ms run's P to the 5 ms run's
ratio() {
	awk -v p="$1" '$1 == p { e[FILENAME] = $2; h[FILENAME] = $3 }
		END { a = "/tmp/hist-5000.pct"; b = "/tmp/hist-6000.pct"
		      if (e[a] && h[a]) printf "%.4f %.4f\n", e[b] / e[a], h[b] / h[a] }' \
		/tmp/hist-5000.pct /tmp/hist-6000.pct
}
for p in p50 p99; do
	check "$p ratio of the runs within the bucket bounds of the exact ratio (exact, histogram: $(ratio $p))" \
		awk '{ exit !(NF == 2 && $2 * 7 <= $1 * 9 && $2 * 9 >= $1 * 7) }' <<<"$(ratio $p)"
done
check "rmmod teeprobe" rmmod teeprobe
done_testing
