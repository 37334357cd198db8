# SPDX-License-Identifier: GPL-2.0
# configs.sh - the instrumentation configurations bench/guest.sh compares
# (sourced in a guest, after lab/lab.sh):
#
#   a  nothing: the baseline
#   b  teeprobe.ko loaded with all its probes (TEE, NET_RX, TCP)
#   c  b, and "teeprobe record" writing its events (no --raw)
#   d  bench/signals.bt: bpftrace measuring the same signals
#   e  trace-cmd recording the raw kernel events the same numbers are
#      computed from: NET_RX softirq raise/entry/exit and napi_poll, socket
#      state changes, SYN/ACK retransmits, and kprobe events on the
#      handshake functions and on tee_ioctl
#   f  b, and "teeprobe watch": its ring in overwrite mode, its window
#      events read every window, a threshold no window reaches
#   g  b with 60 s windows (window_ms=60000): the same probes, each CPU's
#      windows closed once a minute rather than every 100 ms (bench/profile's
#      windows item: b less g is what closing the windows costs)
#
# config_start CONFIG  set CONFIG up; returns once it measures and the
#                      guest has settled (its start-up work done)
# config_stop CONFIG   tear it down (its files are deleted)

BENCH_TMP=${BENCH_TMP:-/tmp/bench}
TRACEFS=/sys/kernel/tracing
mkdir -p "$BENCH_TMP"

# The kprobe events of configuration e, in the tracefs group "benchraw".
# Arguments by position ($argN): tcp_conn_request(rsk_ops, af_ops, sk, skb),
# tcp_v4_send_synack(sk, dst, fl, req, ...), tcp_v4_syn_recv_sock(sk, skb,
# req, ...), tee_ioctl(filp, cmd, arg).
RAW_KPROBES=(
	"p:benchraw/conn_request tcp_conn_request sk=\$arg3"
	"p:benchraw/send_synack tcp_v4_send_synack req=\$arg4"
	"p:benchraw/syn_recv_sock tcp_v4_syn_recv_sock req=\$arg3"
	"r:benchraw/syn_recv_sock_ret tcp_v4_syn_recv_sock child=\$retval"
	"r:benchraw/accept_ret inet_csk_accept child=\$retval"
	"p:benchraw/tee_ioctl tee_ioctl cmd=\$arg2"
	"r:benchraw/tee_ioctl_ret tee_ioctl ret=\$retval"
)

# tracer_alive - the background tracer still runs
tracer_alive() { kill -0 "$tracer_pid" 2>/dev/null; }

# tracecmd_started - trace-cmd enabled its events, or died trying
tracecmd_started() {
	[ "$(cat $TRACEFS/events/benchraw/accept_ret/enable 2>/dev/null)" = 1 ] || ! tracer_alive
}

# raw_kprobes_add / raw_kprobes_remove - configuration e's kprobe events
raw_kprobes_add() {
	local k
	for k in "${RAW_KPROBES[@]}"; do
		echo "$k" >>$TRACEFS/kprobe_events || return 1
	done
}
raw_kprobes_remove() {
	local k name
	for k in "${RAW_KPROBES[@]}"; do
		name=${k%% *}
		echo "-:${name#*:}" >>$TRACEFS/kprobe_events 2>/dev/null
	done
}

# cpu_idle_share - the share of CPU time the guest idled in the last 0.5 s
cpu_idle_share() {
	local t0 i0 t1 i1
	# (here-strings: the guests have no /dev/fd for process substitution)
	read -r t0 i0 <<<"$(awk '$1 == "cpu" { print $2 + $3 + $4 + $5 + $6 + $7 + $8, $5 + $6 }' /proc/stat)"
	sleep 0.5
	read -r t1 i1 <<<"$(awk '$1 == "cpu" { print $2 + $3 + $4 + $5 + $6 + $7 + $8, $5 + $6 }' /proc/stat)"
	awk -v t=$((t1 - t0)) -v i=$((i1 - i0)) 'BEGIN { printf "%.2f\n", t ? i / t : 1 }'
}

# settled - the guest idled 90 % of the last half second
settled() { awk -v s="$(cpu_idle_share)" 'BEGIN { exit !(s >= 0.9) }'; }

# config_start - set up configuration $1
config_start() {
	tracer_pid=
	rm -f "$BENCH_TMP/tracer.out"
	case $1 in
	b|c|f) insmod "$LAB_MODULES/module/teeprobe.ko" || return 1 ;;
	g) insmod "$LAB_MODULES/module/teeprobe.ko" window_ms=60000 || return 1 ;;
	esac
	case $1 in
	c)
		"$lab_top/tools/teeprobe" record -o "$BENCH_TMP/record.dat" \
			>"$BENCH_TMP/tracer.out" 2>&1 &
		tracer_pid=$!
		lab_wait 300 lab_says "$BENCH_TMP/tracer.out" '^teeprobe: recording to ' $tracer_pid
		;;
	f)
		# its defaults (1 s windows, a 30 s ring), a threshold never met
		"$lab_top/tools/teeprobe" watch --handshake-p99 3600s -o "$BENCH_TMP/watch" \
			>"$BENCH_TMP/tracer.out" 2>&1 &
		tracer_pid=$!
		lab_wait 300 lab_says "$BENCH_TMP/tracer.out" 'watch: watching:' $tracer_pid
		;;
	d)
		# The guest's stock kernel is unpacked, not installed
		# (scripts/stock-kernel): its lib/modules has "build" and no
		# "source", where Debian keeps kconfig.h and the other
		# headers bpftrace wants (the -common package)
		local kv=$(uname -r)
		if [ ! -e "/lib/modules/$kv/source" ] && [ -d "/usr/src/linux-headers-${kv%-*}-common" ]; then
			export BPFTRACE_KERNEL_SOURCE=/usr/src/linux-headers-${kv%-*}-common
			export BPFTRACE_KERNEL_BUILD=/lib/modules/$kv/build
		fi
		bpftrace "$lab_top/bench/signals.bt" >"$BENCH_TMP/tracer.out" 2>&1 &
		tracer_pid=$!
		lab_wait 300 lab_says "$BENCH_TMP/tracer.out" '^Attaching' $tracer_pid
		;;
	e)
		raw_kprobes_add || { raw_kprobes_remove; return 1; }
		trace-cmd record -o "$BENCH_TMP/raw.dat" \
			-e irq:softirq_raise -f 'vec == 3' \
			-e irq:softirq_entry -f 'vec == 3' \
			-e irq:softirq_exit -f 'vec == 3' \
			-e napi:napi_poll \
			-e sock:inet_sock_set_state -f 'protocol == 6' \
			-e tcp:tcp_retransmit_synack \
			-e benchraw >"$BENCH_TMP/tracer.out" 2>&1 &
		tracer_pid=$!
		lab_wait 300 tracecmd_started
		;;
	esac
	if [ -n "$tracer_pid" ] && ! tracer_alive; then
		echo "bench: configuration $1 did not start:" >&2
		cat "$BENCH_TMP/tracer.out" >&2
		config_stop "$1"
		return 1
	fi
	# Attaching probes and starting tracers leaves work behind (kprobe
	# optimisation, bpftrace and trace-cmd set-up): not part of the cost.
	# Then SETTLE_SECONDS (5) more for every configuration alike: the emulator
	# retranslates the kernel text that loading patched (an A/B run put a
	# module 5 % slower right after insmod than 10 s later).
	lab_wait 30 settled
	sleep "${SETTLE_SECONDS:-5}"
	return 0
}

# config_stop - tear down configuration $1; fails if its tracer failed
config_stop() {
	local rc=0
	if [ -n "$tracer_pid" ]; then
		kill -INT "$tracer_pid" 2>/dev/null
		wait "$tracer_pid" || rc=$?
		tracer_pid=
		[ "$rc" = 0 ] || { echo "bench: the tracer of configuration $1 failed ($rc):" >&2
			tail -n 5 "$BENCH_TMP/tracer.out" >&2; }
	fi
	case $1 in
	b|c|f|g) rmmod teeprobe || rc=1 ;;
	e) raw_kprobes_remove ;;
	esac
	rm -rf "$BENCH_TMP"/record.dat* "$BENCH_TMP"/raw.dat* "$BENCH_TMP/watch"
	return $rc
}
