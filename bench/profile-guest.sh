#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# profile-guest.sh - the part of bench/profile that runs inside the guest:
# bench/guest.sh's items 1-3 under the configurations CONFIGS, ROUNDS rounds,
# with the kernel's symbols saved where the host can map the profile's
# addresses to them.
#
# Usage: profile-guest.sh ROUNDS CONNECTIONS PACKET_SECONDS INVOKES CONFIGS
#                         [SETTLE_SECONDS [PACKET_WINDOW [ITEMS [BURST]]]]
#   CONFIGS  configurations of configs.sh, e.g. "a b" (the TEE item runs
#            under a, b and d only)
#   ITEMS    the items of items.sh (default "handshake packets tee"; burst:
#            udpbench's bursts of BURST datagrams)
#
# Results go to stdout, one per line (as bench/guest.sh's):
#   rate ITEM CONFIG ROUND PER_SECOND
#   span ITEM CONFIG ROUND FIRST_MARK LAST_MARK UNITS NETRX_RUNS
#   symbols kernel FILE                    the kernel's text symbols
#   symbols CONFIG ROUND FILE              the modules' (teeprobe's, the
#                                          trampolines', BPF programs') while
#                                          CONFIG ran in ROUND
#   info marks N
# FILEs are under $TP_OUT, as /proc/kallsyms lines: ADDRESS TYPE NAME [MODULE].
bench_dir=$(cd "$(dirname "$0")" && pwd)
. "$bench_dir/../lab/lab.sh"
. "$bench_dir/configs.sh"
. "$bench_dir/items.sh"

rounds=$1
conns=$2
packet_secs=$3
invokes=$4
configs=$5
SETTLE_SECONDS=${6:-5}
packet_window=${7:-64}
BENCH_ITEMS=${8:-handshake packets tee}
packet_burst=${9:-8}
marks=0

# save_symbols WHAT FILE - the text symbols of the kernel (WHAT kernel) or of
# the modules and other code loaded at run time (WHAT modules)
save_symbols() {
	case $1 in
	kernel) awk '$2 ~ /^[tT]$/ && NF == 3' /proc/kallsyms ;;
	modules) awk '$2 ~ /^[tT]$/ && NF == 4' /proc/kallsyms ;;
	esac >"$TP_OUT/$2"
}

bench_lab_up || exit 1
save_symbols kernel kallsyms.kernel || exit 1
# A run before the first measured one takes what only the first run after
# boot pays (the random generator's early reseeds: some 4,000 ChaCha
# blocks, 2,000 instructions a handshake of a 1000-handshake run), as
# bench/guest.sh's memory item does for bench/run.
progress "warm-up"
case " $BENCH_ITEMS " in
*" handshake "*) lab_run soft "$conns" 10 >&2 || exit 1 ;;
*) run_packets >/dev/null || exit 1 ;;
esac
echo "symbols kernel kallsyms.kernel"
for r in $(seq "$rounds"); do
	for c in $configs; do
		config_start "$c" || { echo "profile: configuration $c does not start" >&2; exit 1; }
		save_symbols modules "kallsyms.$c.$r" || exit 1
		echo "symbols $c $r kallsyms.$c.$r"
		run_items "$c" "$r" || { config_stop "$c"; exit 1; }
		config_stop "$c" || exit 1
	done
done
lab_unload
echo "info marks $marks"
