#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guest.sh - the part of bench/run that runs inside one guest boot.
#
# Usage: guest.sh REPEATS CONNECTIONS PACKET_SECONDS INVOKES MEMORY_CONNECTIONS
#                 SYNS TRACE_SECONDS [MEMORY_LOADS [SETTLE_SECONDS
#                 [PACKET_WINDOW]]]
#
# Items 1-3 run under each configuration of configs.sh in turn, REPEATS
# rounds (a b c d e f a b c d e f ...), so drift hits every configuration alike:
#   handshake  hsbench soft, 10 client threads, CONNECTIONS per run
#   packets    udpbench, 18-byte UDP datagrams echoed by the server,
#              PACKET_WINDOW (default 64) in flight, for PACKET_SECONDS
#   tee        teeclient's INVOKE loop on teesim with zero simulated cost,
#              INVOKES per run (a b d only)
# Item 4 follows the memory of the kernel around teeprobe.ko: loaded
# (MEMORY_LOADS times, default 5, at rest), after
# a MEMORY_CONNECTIONS run, after SYNS SYNs at a listener, each against the same
# moment after rmmod.
# Item 5's input: "teeprobe record --raw" for TRACE_SECONDS while hsbench
# hard-reg runs, into $TP_OUT/report.dat for the host to read.
#
# Results go to stdout, one per line:
#   info KEY VALUE
#   rate ITEM CONFIG REPEAT PER_SECOND
#   memory STAGE module_bytes N sunreclaim_kb N vmalloc_kb N percpu_kb N
#   flood syns N table_size N in_use N full N untracked N
#   span ITEM CONFIG REPEAT FIRST_MARK LAST_MARK UNITS NETRX_RUNS
#   opcost guest KIND NS
#   info marks N
# progress and errors to stderr. A span is one run of items 1-3: its load
# program (hsbench client, udpbench send, teeclient loop), run with
# LAB_INSN_MARK set, executes lab/include/insn_mark.h's marker just before
# and just after the interval it measures its rate over, the FIRST_MARK-th
# and LAST_MARK-th marker of the boot (counted from 1). Under the insns.so
# plugin QEMU logs the guest's instruction count at each; bench/run divides
# the difference by the run's UNITS (handshakes, echoes, invokes).
# NETRX_RUNS are the NET_RX softirq runs of the whole run (/proc/softirqs).
bench_dir=$(cd "$(dirname "$0")" && pwd)
. "$bench_dir/../lab/lab.sh"
. "$bench_dir/configs.sh"
. "$bench_dir/items.sh"
# memory_stage: the kernel's accounting, a "memory" line
. "$bench_dir/memory.sh"
# the debugfs tables read by their columns' names: tp_col, tp_sum, tp_key
. "$bench_dir/../tests/lib/debugfs.sh"

repeats=${1:-5}
conns=${2:-2000}
packet_secs=${3:-5}
invokes=${4:-2000}
mem_conns=${5:-2000}
syns=${6:-20000}
trace_secs=${7:-60}
marks=0
FLOOD_PORT=7400
DEBUGFS=/sys/kernel/debug/teeprobe
MEMORY_LOADS=${8:-5}
SETTLE_SECONDS=${9:-5}
packet_window=${10:-64}

# bench_round ROUND - every configuration once, each running items 1-3
# (the TEE item only under a, b and d)
bench_round() {
	local r=$1 c
	for c in a b c d e f; do
		config_start "$c" || { echo "bench: configuration $c does not start" >&2; return 1; }
		run_items "$c" "$r" || { config_stop "$c"; return 1; }
		config_stop "$c" || { echo "bench: round $r: configuration $c failed" >&2; return 1; }
	done
}

# table_field NAME - tcp_stats' "# table_NAME VALUE" line
table_field() { tp_key tcp_stats "table_$1"; }

# bench_memory - item 4: what teeprobe.ko holds after load, after a
# MEMORY_CONNECTIONS run and under a SYN flood, each the kernel's accounting before
# rmmod less after it (the workloads leave the kernel's own caches grown)
bench_memory() {
	local untracked i
	# At rest, MEMORY_LOADS times: slab pages move with the rest of the
	# kernel by tens of KiB, so one pair of readings says little.
	for i in $(seq "$MEMORY_LOADS"); do
		memory_stage before
		insmod "$LAB_MODULES/module/teeprobe.ko" || return 1
		memory_stage loaded
		[ "$i" = "$MEMORY_LOADS" ] || rmmod teeprobe || return 1
	done
	echo "info tee_probes $(grep -vc '^#' "$DEBUGFS/tee_probes")"
	echo "info percpu_bytes $(tp_key memory percpu_bytes)"
	lab_run soft "$mem_conns" 10 >&2 || return 1
	memory_stage connections
	rmmod teeprobe || return 1
	memory_stage connections_unloaded
	insmod "$LAB_MODULES/module/teeprobe.ko" || return 1
	lab_flood_listener "$FLOOD_PORT" || return 1
	lab_synflood "$FLOOD_PORT" "$syns" >&2 || return 1
	sleep 1
	untracked=$(tp_sum tcp_stats untracked all)
	echo "flood syns $syns table_size $(table_field size) in_use $(table_field in_use) full $(table_field full) untracked $untracked"
	memory_stage flood
	rmmod teeprobe || return 1
	memory_stage flood_unloaded
	kill $LAB_LISTENER
	wait $LAB_LISTENER 2>/dev/null
	return 0
}

# bench_trace - item 5's input: a large session recorded by teeprobe, with
# hard-reg handshakes and an INVOKE loop running (every event kind)
bench_trace() {
	local recorder looper rounds=0
	insmod "$LAB_MODULES/module/teeprobe.ko" || return 1
	"$lab_top/tools/teeprobe" record --raw -d "$trace_secs" -o "$BENCH_TMP/report.dat" \
		>"$BENCH_TMP/report.log" 2>&1 &
	recorder=$!
	lab_wait 300 lab_says "$BENCH_TMP/report.log" '^teeprobe: recording to ' $recorder
	kill -0 $recorder 2>/dev/null || { cat "$BENCH_TMP/report.log" >&2; return 1; }
	"$TEECLIENT" loop 1000000000 >/dev/null 2>&1 &
	looper=$!
	while kill -0 $recorder 2>/dev/null; do
		lab_run hard-reg 200 10 >/dev/null 2>&1 || break
		rounds=$((rounds + 1))
	done
	kill $looper
	wait $looper
	wait $recorder || { cat "$BENCH_TMP/report.log" >&2; return 1; }
	rmmod teeprobe
	cp "$BENCH_TMP/report.dat" "$TP_OUT/report.dat" || return 1
	rm -f "$BENCH_TMP/report.dat"
	echo "info trace_rounds $rounds"
}

echo "info kernel $(uname -r)"
echo "info cpus $(nproc)"
echo "info clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "info repeats $repeats"
echo "info connections $conns"
echo "info packet_seconds $packet_secs"
echo "info packet_window $packet_window"
echo "info invokes $invokes"
echo "info memory_connections $mem_conns"
echo "info syns $syns"
echo "info trace_seconds $trace_secs"
bench_lab_up || exit 1
echo "info aslr $(cat /proc/sys/kernel/randomize_va_space)"
# What a plain instruction, an emulator exit and a clock read cost here
# (bench/insns/opcost.c; bench/run runs it on the host too)
"$bench_dir/insns/opcost" | sed 's/^opcost /opcost guest /'
progress "memory"
bench_memory || { echo "bench: the memory item failed" >&2; exit 1; }
for r in $(seq "$repeats"); do
	progress "round $r of $repeats"
	bench_round "$r" || exit 1
done
progress "recording $trace_secs s for the report item"
bench_trace || { echo "bench: recording the report item's trace failed" >&2; exit 1; }
lab_unload
echo "info marks $marks"
progress "done"
