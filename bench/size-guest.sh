#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# size-guest.sh - the part of bench/size that runs inside one guest boot:
# the kernel's accounting around teeprobe.ko at this guest's CPU count.
#
# Usage: size-guest.sh LOADS CONNECTIONS
#
# With the lab's TEE loaded (teesim, zero simulated cost), no TIME_WAIT
# sockets (a run's 200 of them would come and go, 60 s, between two
# readings) and hsbench soft run once (CONNECTIONS handshakes, 10 client
# threads), so that the kernel's own caches have grown:
#   - the same run again without the module, between two readings: what
#     the kernel's own caches grow by over it (stages control_before,
#     control);
#   - LOADS times the accounting before insmod and after it, at rest
#     (rmmod between them, the last load kept: stages before, loaded);
#   - the run under the module (one TCP port in use): stage port, with the
#     module's own count;
#   - "teeprobe record" started (what it costs by CPU count: trace-cmd's
#     readers, their memory, the session's ring buffer), then stopped;
#     then rmmod and stage unloaded.
# Results on stdout, one per line:
#   info KEY VALUE
#   memory STAGE module_bytes N sunreclaim_kb N vmalloc_kb N percpu_kb N
#   module STAGE percpu_bytes N ports N   (debugfs "memory", tcp_stats)
#   record readers N processes N pss_kb N buffer_kb N
#     readers: trace-cmd's processes that read a CPU's buffer (all of
#     teeprobe's session but teeprobe and trace-cmd's first); processes:
#     the session's, teeprobe's own included; pss_kb: their proportional
#     set sizes summed (/proc/PID/smaps_rollup: shared pages counted
#     once); buffer_kb: the instance's ring buffers, all CPUs
#     (buffer_total_size_kb)
bench_dir=$(cd "$(dirname "$0")" && pwd)
. "$bench_dir/../lab/lab.sh"
. "$bench_dir/memory.sh"
# the debugfs tables read by their columns' names: tp_col, tp_key
. "$bench_dir/../tests/lib/debugfs.sh"

loads=${1:-3}
conns=${2:-200}
DEBUGFS=/sys/kernel/debug/teeprobe
ko=$LAB_MODULES/module/teeprobe.ko

# module_stage STAGE - what teeprobe counts of its own: its per-CPU bytes
# (debugfs memory) and the ports it keeps a line for (tcp_stats)
module_stage() {
	local bytes ports
	bytes=$(tp_key memory percpu_bytes) || return 1
	ports=$(tp_col tcp_stats port all | wc -l)
	echo "module $1 percpu_bytes $bytes ports $ports"
}

# session_pids PID - PID and its descendants
session_pids() {
	local p
	echo "$1"
	for p in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		session_pids "$p"
	done
}

# record_stage - teeprobe record's processes and memory while it records
record_stage() {
	local pid inst pids p readers=0 n=0 pss=0 kb buf
	progress "teeprobe record"
	"$lab_top/tools/teeprobe" record -o /tmp/size-record.dat >/tmp/size-record.out 2>&1 &
	pid=$!
	lab_wait 300 lab_says /tmp/size-record.out '^teeprobe: recording to ' $pid || {
		echo "size: teeprobe record did not start:" >&2; cat /tmp/size-record.out >&2; return 1; }
	# trace-cmd starts a reader per CPU as it starts recording
	sleep 2
	inst=/sys/kernel/tracing/instances/teeprobe-record-$pid
	buf=$(cat "$inst/buffer_total_size_kb") || return 1
	pids=$(session_pids $pid)
	for p in $pids; do
		kb=$(awk '$1 == "Pss:" { print $2 }' /proc/"$p"/smaps_rollup 2>/dev/null) || continue
		[ -n "$kb" ] || continue
		n=$((n + 1))
		pss=$((pss + kb))
		# a reader: a trace-cmd whose parent is trace-cmd
		[ "$(cat /proc/"$p"/comm)" = trace-cmd ] &&
			[ "$(cat /proc/"$(awk '{ print $4 }' /proc/"$p"/stat)"/comm 2>/dev/null)" = trace-cmd ] &&
			readers=$((readers + 1))
	done
	kill -INT $pid
	wait $pid || { echo "size: teeprobe record failed:" >&2; tail -n 5 /tmp/size-record.out >&2; return 1; }
	rm -f /tmp/size-record.dat
	echo "record readers $readers processes $n pss_kb $pss buffer_kb $buf"
}

# progress - a line on stderr with the guest's uptime
progress() { echo "# $(cut -d' ' -f1 /proc/uptime) s: $*" >&2; }

# handshakes - one hsbench soft run of $conns handshakes
handshakes() {
	progress "$conns handshakes $1"
	lab_run soft "$conns" 10 >&2 || { echo "size: hsbench soft failed" >&2; return 1; }
}

echo "info kernel $(uname -r)"
echo "info cpus $(nproc)"
echo "info possible_cpus $(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)"
echo "info loads $loads"
echo "info connections $conns"
[ -d /sys/module/teeprobe ] && rmmod teeprobe
lab_load secure_threads=4 switch_us=0 invoke_us=0 shm_us=0 shm_cpu_us=0 || exit 1
sysctl -qw net.ipv4.tcp_max_tw_buckets=0 &&
	ip netns exec "$TP_CLIENT_NETNS" sysctl -qw net.ipv4.tcp_max_tw_buckets=0 || exit 1
handshakes "(the kernel's caches grown)" || exit 1
memory_stage control_before
handshakes "without the module" || exit 1
memory_stage control
for i in $(seq "$loads"); do
	progress "load $i of $loads"
	memory_stage before
	insmod "$ko" || exit 1
	memory_stage loaded
	module_stage loaded || exit 1
	[ "$i" = "$loads" ] || rmmod teeprobe || exit 1
done
handshakes "under the module" || exit 1
memory_stage port
module_stage port || exit 1
record_stage || exit 1
rmmod teeprobe || exit 1
memory_stage unloaded
lab_unload
progress "done"
