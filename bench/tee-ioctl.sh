#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tee-ioctl.sh - the cost of following TEE ioctls, run inside a guest by
# bench/run: a tight INVOKE loop on teesim with zero simulated cost, with
#   (a) no instrumentation,
#   (b) teeprobe.ko loaded with all its TEE probes,
#   (d) bpftrace timing tee_ioctl per command with a kprobe/kretprobe pair,
# interleaved (a b d a b d ...) so drift hits every configuration alike.
# Prints one line per run: "config repeat invokes seconds".
#
# Usage: tee-ioctl.sh ITERATIONS REPEATS
. "$(dirname "$0")/../lab/lab.sh"

iterations=${1:-2000}
repeats=${2:-5}

lab_load secure_threads=4 switch_us=0 invoke_us=0 shm_us=0 shm_cpu_us=0 || exit 1

# one_run CONFIG REPEAT - time the loop under CONFIG
one_run() {
	local config=$1 repeat=$2 tracer= start end i
	case $config in
	b) insmod "$LAB_MODULES/module/teeprobe.ko" || return 1 ;;
	d)
		bpftrace -e '
		kprobe:tee_ioctl { @start[tid] = nsecs; @cmd[tid] = arg1; }
		kretprobe:tee_ioctl /@start[tid]/ {
			@latency[@cmd[tid]] = hist(nsecs - @start[tid]);
			delete(@start[tid]); delete(@cmd[tid]);
		}' >/tmp/bpftrace.out 2>&1 &
		tracer=$!
		for i in $(seq 300); do
			grep -q Attaching /tmp/bpftrace.out && break
			sleep 0.1
		done
		grep -q Attaching /tmp/bpftrace.out || { cat /tmp/bpftrace.out >&2; return 1; }
		sleep 0.5
		;;
	esac
	start=$(date +%s%N)
	"$TEECLIENT" loop "$iterations" >/dev/null || return 1
	end=$(date +%s%N)
	case $config in
	b) rmmod teeprobe ;;
	d) kill -INT "$tracer"; wait "$tracer" ;;
	esac
	echo "$config $repeat $iterations $(( (end - start) / 1000 ))"
}

for r in $(seq "$repeats"); do
	for c in a b d; do
		one_run "$c" "$r" || { echo "bench: configuration $c failed" >&2; exit 1; }
	done
done
lab_unload
