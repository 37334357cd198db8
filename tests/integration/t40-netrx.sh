#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t40-netrx - teeprobe's NET_RX softirq part: its counters against the
# kernel's own (/proc/softirqs, the NICs' rx counters), the window summaries
# against the counters, the window_ms parameter, and the starvation signal:
# teesim holding CPUs in the "secure world" (hard-temp) delays NET_RX runs
# at irq exit more than hard-reg does.
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
conns=${TP_LAB_CONNECTIONS:-600}
[ "$TP_KERNEL" = lab ] && conns=${TP_LAB_CONNECTIONS:-60}
inst=$TRACEFS/instances/t40-netrx

# netrx_col CPU NAME - a column of netrx_stats ("all" for the sum)
netrx_col() { tp_sum netrx_stats "$2" "$1"; }
# softirqs_netrx - NET_RX of /proc/softirqs, one number per CPU
softirqs_netrx() { awk '$1 == "NET_RX:" { $1 = ""; print substr($0, 2) }' /proc/softirqs; }
# teeprobe_runs - runs of netrx_stats, one number per CPU, a line each
teeprobe_runs() { tp_col netrx_stats runs '[0-9]+'; }
# nic_rx - rx packets of every interface in both namespaces
nic_rx() {
	cat /sys/class/net/*/statistics/rx_packets | awk '{ s += $1 } END { printf "%.0f ", s }'
	ip netns exec "$TP_CLIENT_NETNS" sh -c 'cat /sys/class/net/*/statistics/rx_packets' |
		awk '{ s += $1 } END { printf "%.0f\n", s }'
}
# softnet_squeezes - time_squeeze of /proc/net/softnet_stat (its third
# column, in hex), one number per CPU
softnet_squeezes() {
	local processed dropped squeezed rest

	while read -r processed dropped squeezed rest; do
		printf '%d ' "0x$squeezed"
	done </proc/net/softnet_stat
}
# snapshot FILE - /proc/softirqs, netrx_stats and softnet_stat read with no
# NET_RX run in between (the softirq line is read again until it did not
# move): runs per CPU, teeprobe's runs, the NICs' and napi's packets,
# time_squeeze per CPU, teeprobe's squeezes
snapshot() {
	local i a b runs squeezes kernel_squeezes
	for i in 1 2 3 4 5 6 7 8 9 10; do
		a=$(softirqs_netrx)
		runs=$(teeprobe_runs)
		squeezes=$(tp_col netrx_stats squeezes '[0-9]+')
		kernel_squeezes=$(softnet_squeezes)
		b=$(softirqs_netrx)
		[ "$a" = "$b" ] && break
		sleep 0.1
	done
	printf '%s\n%s\n%s %s\n%s\n%s\n' "$a" "${runs//$'\n'/ }" "$(nic_rx)" \
		"$(netrx_col all packets)" "$kernel_squeezes" "${squeezes//$'\n'/ }" >"$1"
}
# knock SECONDS - the client knocks on a closed port of the server for
# SECONDS: a SYN and a RST each time, from one shell (no fork, which takes
# a slot of its own under the hogs on the lab kernel)
knock() {
	ip netns exec "$TP_CLIENT_NETNS" bash -c "e=\$((SECONDS + $1))
		while [ \$SECONDS -lt \$e ]; do
			exec 3<>/dev/tcp/$TP_SERVER_ADDR/9
		done 2>/dev/null
		true	# every knock is refused: the loop's status is the last's"
}
export -f knock		# late_load's step runs it
# delta A B LINE - per-field differences of line LINE between two snapshots
# (the guest has no /dev/fd, so no process substitution)
delta() {
	awk -v line="$3" 'FNR != line { next }
		NR == FNR { n = split($0, a, " "); next }
		{ for (i = 1; i <= n; i++) printf "%s%.0f", (i > 1 ? " " : ""), $i - a[i]; print "" }' "$1" "$2"
}
# inline_over NS - inline raise->entry delays >= NS, and all of them: "K N"
inline_over() {
	local rows

	rows=$(tp_col netrx_hist bucket_low_ns,all inline_delay) || return
	awk -v ns="$1" '{ all += $2; if ($1 >= ns) big += $2 }
		END { printf "%d %d\n", big, all }' <<<"$rows"
}
# stattest ARGS... - exact one-sided tests at a stated level (stattest.py)
stattest() { python3 "$top/tests/integration/stattest.py" "$@"; }

# --- the window_ms parameter --------------------------------------------------
bad_windows=(window_ms=0 window_ms=9 window_ms=60001 window_ms=abc window_ms=-100 window_ms=)
[ "$TP_KERNEL" = lab ] && bad_windows=(window_ms=9 window_ms=abc)
for bad in "${bad_windows[@]}"; do
	check_fails "teeprobe refuses $bad" "Invalid (argument|parameters)" insmod "$ko" "$bad"
done
check "the refusal names the range in dmesg" \
	sh -c "dmesg | grep -q 'teeprobe: window_ms: must be a number from 10 to 60000'"

[ -d /sys/module/teesim ] && rmmod teesim
check "teesim loads with its default model" lab_load
softirqs_netrx >/tmp/t40-life-before
check "insmod teeprobe window_ms=50" insmod "$ko" window_ms=50
check "a tracefs instance records the window summaries" sh -c "
	mkdir $inst && echo 8192 >$inst/buffer_size_kb &&
	echo 1 >$inst/events/teeprobe/teeprobe_netrx_window/enable"
check_eq "the NET_RX hooks are attached by tracepoint name" \
	"netrx softirq_raise netrx softirq_entry netrx softirq_exit netrx napi_poll" \
	"$(tp_col hooks part,tracepoint netrx | tr '\n' ' ' | sed 's/ $//')"
check "teeprobe check lists them" \
	sh -c "'$TEEPROBE' check | grep -qx 'kernel hook: napi_poll (netrx) attached'"
check_eq "window_ms reads back" 50 "$(cat /sys/module/teeprobe/parameters/window_ms)"
for bad in 5 abc 60001 -1; do
	check_fails "window_ms refuses '$bad' at run time" "Invalid argument" \
		write_file /sys/module/teeprobe/parameters/window_ms "$bad"
done
check_eq "... and keeps its value" 50 "$(cat /sys/module/teeprobe/parameters/window_ms)"
check_eq "netrx_stats shows the window length" 50 "$(tp_key netrx_stats window_ms)"

# --- counters against the kernel's own --------------------------------------------
snapshot /tmp/t40-before
check "hsbench soft: $conns connections across the lab NICs" lab_run soft "$conns" 10
check_eq "soft crypto: no NET_RX run inside a TEE call" 0 "$(netrx_col all tee_runs)"
sleep 0.3
snapshot /tmp/t40-after
kernel_runs=$(delta /tmp/t40-before /tmp/t40-after 1)
check_eq "NET_RX runs per CPU = the /proc/softirqs delta ($(nproc) CPUs)" "$kernel_runs" \
	"$(delta /tmp/t40-before /tmp/t40-after 2)"
check "there was NET_RX work on the CPUs ($kernel_runs)" \
	awk -v s="$kernel_runs" 'BEGIN { n = split(s, r, " "); for (i = 1; i <= n; i++) t += r[i]; exit !(t >= 20) }'
read -r rx_server rx_client napi <<<"$(delta /tmp/t40-before /tmp/t40-after 3)"
check "napi packets ($napi) = packets the NICs received ($rx_server + $rx_client), within 1 %" \
	awk -v p="$napi" -v r="$((rx_server + rx_client))" \
	'BEGIN { d = p - r; if (d < 0) d = -d; exit !(r > 0 && d <= r / 100 + 2) }'
check "ksoftirqd runs, re-raises and delay samples are parts of the runs" bash -c '
	set -- $(tp_col netrx_stats runs,ksoftirqd_runs,reraises,inline_delay_count,ksoftirqd_delay_count all)
	[ "$2" -le "$1" ] && [ "$3" -le "$1" ] && [ $(($4 + $5)) -le "$1" ] && [ $(($4 + $5)) -gt 0 ]'
check "netrx_hist has a column per CPU and the delay rows" sh -c "
	head -n 1 $DEBUGFS/netrx_hist | grep -Eq '^# hist bucket_low_ns( cpu[0-9]+)+ all$' &&
	grep -q '^inline_delay ' $DEBUGFS/netrx_hist && grep -q '^run ' $DEBUGFS/netrx_hist"
# The run histogram keeps its buckets alone (its count is the runs): they
# add up to the runs that ended, which are the runs counted but for those
# under way as it is read, and those under way at insmod (one a CPU each)
check "the run histogram's buckets add up to the runs, within one a CPU" bash -c '
	h=$(tp_sum netrx_hist all "^run\$") r=$(tp_sum netrx_stats runs "^all\$")
	d=$((h - r)); echo "run buckets $h, runs $r"
	[ "$h" -gt 0 ] && [ "${d#-}" -le "$(nproc)" ]'
check_eq "squeezed runs per CPU = the softnet_stat time_squeeze delta" \
	"$(delta /tmp/t40-before /tmp/t40-after 4)" "$(delta /tmp/t40-before /tmp/t40-after 5)"

# --- squeezed runs --------------------------------------------------------------------
# With a netdev_budget of one packet, every run whose first poll takes a
# packet has spent its budget then and stops, squeezed: by construction,
# not by the host's speed (a time limit would be). The knocks make such
# runs on both NICs.
budget=$(cat /proc/sys/net/core/netdev_budget)
snapshot /tmp/t40-sq-before
check "netdev_budget 1" write_file /proc/sys/net/core/netdev_budget 1
check "the client knocks on a closed port for 1-2 s" knock 2
check "netdev_budget back to $budget" write_file /proc/sys/net/core/netdev_budget "$budget"
sleep 0.3
snapshot /tmp/t40-sq-after
squeezed=$(delta /tmp/t40-sq-before /tmp/t40-sq-after 4)
check_eq "squeezed runs per CPU = the softnet_stat time_squeeze delta" \
	"$squeezed" "$(delta /tmp/t40-sq-before /tmp/t40-sq-after 5)"
check "the knocks' runs were squeezed ($squeezed), at most every run ($(delta /tmp/t40-sq-before /tmp/t40-sq-after 1))" \
	awk -v s="$squeezed" -v r="$(delta /tmp/t40-sq-before /tmp/t40-sq-after 1)" '
	BEGIN { n = split(s, a, " "); split(r, b, " ")
		for (i = 1; i <= n; i++) { if (a[i] > b[i]) exit 1; t += a[i] }
		exit !(t >= 10) }'

# --- the window summaries ----------------------------------------------------------
# A reset zeroes the totals; the windows go on through it, the one open
# then keeping what it held. In a 60 s window, the one open at the reset
# holds the whole run before it (unless a minute's boundary fell between):
# the windows' sums below count it
check "60 s windows for a reset inside one" write_file /sys/module/teeprobe/parameters/window_ms 60000
check "hsbench soft in the 60 s window" lab_run soft "$((conns / 3))" 10
check "a reset inside the open window" write_file $DEBUGFS/reset 1
check "window_ms changes at run time" write_file /sys/module/teeprobe/parameters/window_ms 100
check "hsbench soft once more with 100 ms windows" lab_run soft "$((conns / 3))" 10
# A window closed late: FIFO hogs on every CPU for 3 to 4 s keep the
# windows' work (a kworker) off them but for the RT throttling's slots
# (50 ms a second), while the client knocks on a closed port (a SYN and a
# RST each time, from one shell: no fork, which takes a slot of its own on
# the lab kernel; it is no FIFO task either, so it knocks in those slots
# too): a window with NET_RX in it ends under the hogs and is closed at the
# next slot, hundreds of ms after its end, where the work closes it an
# eighth of a window (12.5 ms) after it otherwise. The hogs' seconds
# against a 100 ms window: by construction, not by the host's timing.
late_load() {
	local c knock hogs=

	knock 7 &
	knock=$!
	sleep 0.5
	for c in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$c" chrt -f 50 bash -c 'e=$((SECONDS + 4)); while [ $SECONDS -lt $e ]; do :; done' &
		hogs="$hogs $!"
	done
	wait $hogs
	wait $knock
}
check "FIFO hogs on every CPU for 3-4 s, the client knocking on a closed port" late_load
sleep 0.4	# the flush closes the last windows a window and an eighth later
softirqs_netrx >/tmp/t40-life-after
echo 0 >$inst/tracing_on
# Read before rmmod: unloading a module whose events were on resets the
# ring buffers.
cat $inst/trace >/tmp/t40-windows.txt
rmdir $inst
life_runs=$(delta /tmp/t40-life-before /tmp/t40-life-after 1)
# the window events as "cpu start_ns len_ns late_ns runs", a line each
awk '/teeprobe_netrx_window:/ { delete f
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		print f["cpu"], f["start_ns"], f["len_ns"], f["late_ns"], f["runs"] }' \
	/tmp/t40-windows.txt >/tmp/t40-windows.tab
window_runs=$(awk -v n="$(nproc)" '{ runs[$1] += $5 }
	END { for (c = 0; c < n; c++) printf "%s%d", (c ? " " : ""), runs[c]; print "" }' /tmp/t40-windows.tab)
check "the closed windows add up to /proc/softirqs since insmod, across the reset ($window_runs vs $life_runs, within 3 runs)" \
	awk -v w="$window_runs" -v l="$life_runs" 'BEGIN { n = split(w, a, " "); split(l, b, " ")
		for (i = 1; i <= n; i++) { d = a[i] - b[i]; if (d < -3 || d > 3) exit 1; t += a[i] }
		exit !(n > 0 && t > 0) }'
check "reset zeroes the NET_RX counters" bash -c "echo 1 >$DEBUGFS/reset &&
	[ \"\$(tp_sum netrx_stats raises,runs,packets all)\" -le 5 ]"
check "rmmod teeprobe" rmmod teeprobe
# One per CPU, start and length: a change of window_ms closes the open
# window early with its old length, and the first window of the new length
# can start where an earlier one of the old length did (a 50 ms window
# opened at a minute's boundary, then the 60 s window holding it)
check "windows start on multiples of their length, one per CPU, start and length" awk '
	{ k = $1 " " $2 " " $3
	  if ($2 % $3 != 0 || (k in seen)) { bad++; print "not aligned or twice: cpu", $1, "start", $2, "len", $3
		if (k in seen) print "  (first: cpu start len late runs " seen[k] ")" }
	  if (!(k in seen)) seen[k] = $0
	  n++ }
	END { print n, "windows,", bad + 0, "wrong"; exit !(n > 2 && !bad) }' /tmp/t40-windows.tab
late_max=$(awk '$4 > $3 / 4 && $4 > m { m = $4 } END { printf "%.0f\n", m }' /tmp/t40-windows.tab)
# Over a whole window (100 ms), eight times the work's own eighth: a
# loaded make check once saw the lab's latest at 167 ms, the hogs' slots
# having fallen soon after the windows' ends (200 ms was asked then)
check "a window the hogs kept open says it closed late (the latest ${late_max} ns after its end, over a window: 100 ms)" \
	test "$late_max" -gt 100000000
check "both window lengths were used (50 ms, then 100 ms)" sh -c "
	grep -q 'len_ns=50000000 ' /tmp/t40-windows.txt && grep -q 'len_ns=100000000 ' /tmp/t40-windows.txt"

# --- the starvation signal: hard-temp against hard-reg ----------------------------
# A registration keeps its CPU in the secure world for 3 ms here (the
# default model's 0.5 ms gives the same direction with a smaller margin): a
# NET_RX raised on that CPU waits for bottom halves to come back on. Under
# emulation other delays of that size happen too (the host preempts the
# guest), in both modes alike; the secure world adds to hard-temp's only.
#
# The two runs are compared by exact one-sided tests at a stated level
# (stattest.py), not by fixed ratios of two noisy figures. A 1.2 x ratio of
# shares (delays >= 1 ms among the inline ones) failed now and then on the
# debug kernel: there hard-reg's NET_RX mostly runs in ksoftirqd, leaving
# 16 to 110 inline delays in 200 connections, of which the emulator's own
# noise (the host preempting the guest, more so beside other guests) put up
# to 10 % over 2 ms. Counted per connection instead, both modes share one
# denominator and the counts are large: the test asks whether hard-temp's
# count of long delays is over 3 times hard-reg's for as many connections
# (a Poisson rate ratio, exact given their sum), and twice for the delays
# >= 2 ms. The debug kernel runs 200 connections (in 20 runs: 97 to 280
# delays >= 1 ms in hard-temp, 3 to 11 in hard-reg; >= 2 ms, 66 to 154
# and 1 to 9). Documentation/harness.rst gives those runs and how often
# each check could still fail (about once in 10^5 runs).
cmp_conns=$conns
[ "$TP_KERNEL" = lab ] && cmp_conns=${TP_LAB_CMP_CONNECTIONS:-200}
check "teesim reloads with 3 ms of CPU per registration" \
	bash -c 'rmmod teesim && . "$0" && lab_load shm_cpu_us=3000' "$top/lab/lab.sh"
check "insmod teeprobe" insmod "$ko"
over_1ms=() over_2ms=() tee_wait=()
for mode in hard-temp hard-reg; do
	echo 1 >$DEBUGFS/reset
	check "hsbench $mode: $cmp_conns connections" lab_run "$mode" "$cmp_conns" 10
	over_1ms+=("$(inline_over 1048576)")
	over_2ms+=("$(inline_over 2097152)")
	waits=$(( $(netrx_col all inline_delay_sum_ns) + $(netrx_col all ksoftirqd_delay_sum_ns) ))
	tee_wait+=("$(awk -v t="$(netrx_col all tee_delay_sum_ns)" -v w="$waits" \
		'BEGIN { printf "%.3f", w ? t / w : 0 }')")
	check "$mode: runs held up by TEE calls ($(netrx_col all tee_runs)) are runs with a wait at most" \
		test "$(netrx_col all tee_runs)" -le "$(( $(netrx_col all inline_delay_count) + $(netrx_col all ksoftirqd_delay_count) ))"
	check "$mode: the TEE-held part of the waits is at most the waits" \
		test "$(netrx_col all tee_delay_sum_ns)" -le "$waits"
	echo "# $mode: inline raise->entry delays >= 1 ms and all: ${over_1ms[-1]}; >= 2 ms: ${over_2ms[-1]%% *}; teesim bh_off_ns $(kv "$LAB_OUT/$mode-$cmp_conns/teesim.txt" bh_off_ns)"
	grep -E '^(all|inline_delay)' $DEBUGFS/netrx_stats $DEBUGFS/netrx_hist | sed 's/^/# /'
done
read -r t1 tn <<<"${over_1ms[0]}"
read -r r1 rn <<<"${over_1ms[1]}"
check "the secure world delays NET_RX at irq exit: inline delays >= 1 ms, hard-temp $t1 > 3 x hard-reg $r1 in as many connections (exact test, 1 %), over 0.05 a connection" \
	sh -c 'python3 "$0" rate "$1" "$2" 3 0.01 && [ "$1" -gt "$3" ]' \
	"$top/tests/integration/stattest.py" "$t1" "$r1" "$((cmp_conns / 20))"
read -r t2 tn <<<"${over_2ms[0]}"
read -r r2 rn <<<"${over_2ms[1]}"
check "... and the inline delay histogram sits higher where only the 3 ms holds reach: >= 2 ms, hard-temp $t2 > 2 x hard-reg $r2 (exact test, 1 %; shares $(awk -v a="$t2" -v b="$tn" -v c="$r2" -v d="$rn" 'BEGIN { printf "%.3f vs %.3f", b ? a / b : 0, d ? c / d : 0 }'))" \
	stattest rate "$t2" "$r2" 2 0.01
# The share of the NET_RX wait spent while a TEE call held the CPU is a
# ratio of two sums of time, and the host's load moves both: on the debug
# kernel it came out alike in both modes (shares 0.239 and 0.193, other
# runs 0.264/0.139 and 0.320/0.162), and on 6.12 with a third guest beside
# it hard-temp's 0.486 stayed under 1.3 x hard-reg's 0.388 (issue 47's loaded
# runs). It is printed as evidence; what is checked is the counts above
# (exact tests over as many connections) and the order of the sums (the
# TEE-held part is at most the waits, in both modes).
echo "# share of the NET_RX wait while TEE calls held the CPU: hard-temp ${tee_wait[0]}, hard-reg ${tee_wait[1]}"
check "rmmod teeprobe" rmmod teeprobe
done_testing
