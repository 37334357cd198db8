#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t12-cpus - teeprobe at the guest's CPU count (issue 51: the case's hosts
# have 64 to 128 CPUs), by counts: a row or a column per possible CPU in the
# per-CPU tables, each "all" their sum, the per-CPU memory it counts
# against the kernel's own growth, issue 51's bound on the whole (512 KiB
# + 64 KiB per CPU) with one TCP port in use, record -C on the upper half
# of the CPUs with a ring of -b KB, a clean rmmod.
# make check runs it alone in a 16-vCPU 6.1 guest (tests/run's "cpus" job,
# TP_CPUS=16: the guest must have that many); in the whole suite it skips:
#   TP_VM_CPUS=16 tests/vm/vm-run -q -k 6.1 -o build/vm/t12 -- \
#	env TP_CPUS=16 tests/integration/suite tests/integration/t12-cpus.sh
. "$(dirname "$0")/lib.sh"
. "$top/bench/memory.sh"

if [ -n "$TP_SUITE_ALL" ]; then
	skip "teeprobe at the guest's CPU count" "not in the whole suite: make check boots a 16-vCPU guest for it"
	done_testing
	exit
fi
ko=$TP_MODULES/module/teeprobe.ko
n=$(nproc)
possible=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
[ -z "$TP_CPUS" ] || check_eq "the guest has the $TP_CPUS vCPUs asked for, all possible and online" \
	"$TP_CPUS $TP_CPUS" "$n $possible"
cpus=$(seq -s ' ' 0 $((possible - 1)))

check "the lab's TEE loads" lab_load
# the kernel's own caches grown by a first run, before anything is read
LAB_OUT=/tmp/t12-lab lab_run soft 50 10 >/dev/null 2>&1
# Three loads, the kernel's accounting before and after each (slab moves
# by tens of KiB between loads at rest: the median counts), the last kept
for i in 1 2 3; do
	memory_stage before >/tmp/t12-before-$i
	check "insmod teeprobe.ko ($i of 3)" insmod "$ko"
	memory_stage loaded >/tmp/t12-loaded-$i
	[ "$i" = 3 ] || check "rmmod teeprobe ($i of 3)" rmmod teeprobe
done

percpu=$(tp_key memory percpu_bytes)

# The tables read from one copy each: the counters move between two reads.
cp $DEBUGFS/netrx_stats /tmp/t12-netrx_stats
check_eq "netrx_stats has a row per possible CPU, in order" "$cpus" \
	"$(tp_col /tmp/t12-netrx_stats cpu '[0-9]+' | tr '\n' ' ' | sed 's/ $//')"
check_eq "... and one all row" 1 "$(tp_col /tmp/t12-netrx_stats cpu all | wc -l)"

# Handshakes across the lab's NICs: NET_RX runs on some CPUs, one TCP
# port in use
LAB_OUT=/tmp/t12-lab lab_run soft 50 10 >/tmp/t12-run.txt 2>&1
cp $DEBUGFS/netrx_stats /tmp/t12-netrx_stats
cp $DEBUGFS/netrx_hist /tmp/t12-netrx_hist
runs=$(tp_col /tmp/t12-netrx_stats runs all)
check "NET_RX ran over 50 handshakes across the lab's NICs" test "${runs:-0}" -gt 0
check_eq "netrx_stats' all row is its CPU rows' sum (runs, packets)" \
	"$(tp_sum /tmp/t12-netrx_stats runs '[0-9]+') $(tp_sum /tmp/t12-netrx_stats packets '[0-9]+')" \
	"$runs $(tp_col /tmp/t12-netrx_stats packets all)"

# every *_hist file: "# KEYS... bucket_low_ns cpu0 ... cpuN-1 all", and
# each row the KEYS, a bucket, a count per CPU and all, their sum
cols=$(for c in $cpus; do printf 'cpu%s ' "$c"; done)
for f in $DEBUGFS/*_hist; do
	name=${f##*/}
	cp "$f" "/tmp/t12-$name"
	check_eq "$name's header has a cpu column per possible CPU, then all" "${cols}all" \
		"$(awk '/^# .* bucket_low_ns / { sub(/.* bucket_low_ns /, ""); print; exit }' "/tmp/t12-$name")"
	check_eq "... each of its rows $possible CPU counts and all, their sum" 0 \
		"$(awk -v n="$possible" '/^# .* bucket_low_ns / { keys = NF - n - 2 }
		/^#/ { next }
		{ s = 0; for (i = keys + 1; i <= keys + n; i++) s += $i
		  if (!keys || NF != keys + n + 1 || s != $NF) bad++ }
		END { print bad + 0 }' "/tmp/t12-$name")"
done
for name in netrx_hist tcp_hist; do
	check "$name has rows after the handshakes" grep -qv '^#' "/tmp/t12-$name"
done

# The module's own count against the kernel's: the Percpu counter grows by
# whole pages of every CPU as the allocator populates them (and a few
# empty ones ahead: PCPU_EMPTY_POP_PAGES_HIGH, 4), and keeps them
# populated after a free: the guest's first insmod
static=$(bench_percpu_static "$ko")
kgrowth=$(( ($(awk '{ print $NF }' /tmp/t12-loaded-1) - $(awk '{ print $NF }' /tmp/t12-before-1)) * 1024 ))
check "debugfs memory counts teeprobe's per-CPU bytes (${percpu:-none})" test "${percpu:-0}" -gt 0
check "the kernel's Percpu grew by no more a CPU than the module counts, in pages, and 5 ahead ($((kgrowth / possible)) bytes a CPU, counted $percpu)" \
	test $((kgrowth / possible)) -le $(( (percpu + 4095) / 4096 * 4096 + 5 * 4096 ))

# Issue 51's goal at this count, with one TCP port in use: slab and
# vmalloc as insmod took them, the median of the three loads (the module
# allocates no more for a port), the per-CPU data for every CPU
check_eq "one TCP port in use after the handshakes (tcp_stats)" 1 "$(tp_col tcp_stats port all | wc -l)"
port_percpu=$(tp_key memory percpu_bytes)
check "... a block of per-CPU histograms more ($percpu -> $port_percpu bytes a CPU)" \
	test "${port_percpu:-0}" -gt "$percpu"
# memory STAGE module_bytes N sunreclaim_kb N vmalloc_kb N percpu_kb N
took=$(for i in 1 2 3; do
	cat /tmp/t12-before-$i /tmp/t12-loaded-$i | awk '{ t += (NR == 1 ? -1 : 1) * ($6 + $8) }
		END { print t * 1024 }'
done | sort -n | sed -n 2p)
total=$((took + (port_percpu + static) * possible))
bound=$(( (512 + 64 * possible) * 1024 ))
check "memory at $possible CPUs with one port: $((total / 1024)) KiB ($((took / 1024)) slab and vmalloc), within 512 KiB + 64 KiB a CPU ($((bound / 1024)))" \
	test "$total" -le "$bound"

# record -C: the upper half of the CPUs, as trace-cmd's -M mask (in
# groups of 32 bits past CPU 31); every CPU sends itself a datagram each
# window (udpbench tick), so every CPU closes NET_RX windows: the events
# come from the CPUs asked for, each of them, and from no other. Bound by
# the order of events, not by time: the ticks start once record says it
# records (setting up 16 CPUs' rings can take longer than any fixed
# duration on a loaded host) and the session ends, by SIGINT, after the
# last tick.
half=$((possible / 2))
want=$(seq -s ' ' "$half" $((possible - 1)))
"$TEEPROBE" record -C "$half-$((possible - 1))" -b 256 -o /tmp/t12-half.dat >/tmp/t12-half.out 2>&1 &
rec=$!
if wait_recording /tmp/t12-half.out; then
	# its instance's ring, read while it records (the instance goes
	# with it)
	ring=$(cut -d' ' -f1 /sys/kernel/tracing/instances/teeprobe-record-*/buffer_size_kb 2>/dev/null)
	"$top/lab/udpbench/udpbench" tick --every 100 --seconds 2 >/tmp/t12-tick.out 2>&1
	tick_rc=$?
fi
kill -INT $rec
wait $rec
rc=$?
check "teeprobe record -C $half-$((possible - 1)) -b 256, ended by SIGINT" sh -c "cat /tmp/t12-half.out; exit $rc"
# the kernel sizes it in whole pages of data (4080 bytes of each 4096):
# 256 KB comes out as 258
check "... with a ring of 256 KB a CPU (-b; ${ring:-none} KB, whole pages)" \
	test "${ring:-0}" -ge 256 -a "${ring:-0}" -le 272
check "udpbench tick ran on every CPU while record recorded (status ${tick_rc:-not run})" \
	sh -c 'cat /tmp/t12-tick.out; test "$0" = 0 && grep -q "^cpus $1\$" /tmp/t12-tick.out' "${tick_rc:-none}" "$possible"
check_eq "the window events came from CPUs $half to $((possible - 1)), each of them" "$want" \
	"$(trace-cmd report -i /tmp/t12-half.dat 2>/dev/null |
		awk '/teeprobe_netrx_window:/ && match($0, /\[[0-9]+\]/) { seen[substr($0, RSTART + 1, RLENGTH - 2) + 0] = 1 }
			END { for (c in seen) print c }' | sort -n | tr '\n' ' ' | sed 's/ $//')"
check "record -C $possible is refused (no such CPU online)" \
	sh -c '! "$0" record -q -C "$1" -d 1 -o /tmp/t12-none.dat 2>/tmp/t12-none.err &&
		grep -q "not every one of those CPUs is online" /tmp/t12-none.err' "$TEEPROBE" "$possible"

check "rmmod teeprobe" rmmod teeprobe
check "debugfs directory is gone" test ! -e $DEBUGFS
check_eq "teeprobe logged no error" "" \
	"$(dmesg | grep -E 'teeprobe: .*(error|cannot|fail)' | head -3)"
lab_unload
done_testing
