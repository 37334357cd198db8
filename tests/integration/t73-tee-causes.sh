#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t73-tee-causes - where a TEE call's time goes names the cause: teesim's
# knobs put each share of it over the others, and teeprobe analyze must
# name it, its title and why agreeing with its evidence:
#   set-up that sleeps   hard-temp, shm_us (registration asleep)
#                        -> tee-blocking, "mostly asleep"
#   set-up that spins    hard-temp, shm_cpu_us (registration on the CPU,
#                        as OP-TEE's and iTrustee's are)
#                        -> tee-blocking, "mostly on a CPU"
#   a long secure world  hard-reg, invoke_us -> tee-work
#   few secure threads   hard-reg, one secure thread for eight callers
#                        -> tee-queue
#   the driver's work    hard-reg, driver_us -> tee-driver
# Each knob sets its share far (three times or more) above the others;
# teesim's own counters say it happened (its registrations asleep or not,
# callers that waited for a thread and how long, its driver time) and
# teeprobe's counts must equal teesim's. The server's pool is as large as
# the load (the TEE part is the handshake's largest itself): the accept
# queue's path is t71's and the optee guest's.
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
conns=${TP_CAUSES_CONNECTIONS:-60}
out=/tmp/t73
mkdir -p $out
cd $out || exit 1
. "$top/tests/integration/analyze.sh"

only_on_61 "TEE causes on teesim's knobs" "the verdict is the tools' logic, the same on every kernel: 6.1 runs it (TP_CAUSES_ALL=1 here too)" TP_CAUSES_ALL

# split NAME KEY - a share of where the acceptors' TEE time went, from the
# path the verdict took (the accept queue's, or all their TEE time)
split() {
	jpy $1 "(r['accept_queue']['tee'] if r['verdict']['path'] == 'accept-queue' else r['evidence']['tee_split'])['$2']"
}
# ts NAME MODE FIELD - a counter of teesim's, as the run left it
ts() { kv $out/lab-$1/$2-$conns/teesim.txt $3; }
# tee_stat CMD COLUMN - a column of the "all CMD ..." line of tee_stats (0
# without one)
tee_stat() { tp_sum tee_stats "$2" all "$1"; }

# knob_run NAME MODE THREADS TEESIM-PARAM... - teesim reloaded with the
# knobs, then a recorded run of THREADS client threads against as many
# server workers
knob_run() {
	local name=$1 mode=$2 threads=$3
	shift 3
	[ -d /sys/module/teeprobe ] && rmmod teeprobe
	[ -d /sys/module/teesim ] && rmmod teesim
	check "$name: teesim loads with $*" lab_load "$@" || return 1
	check "$name: insmod teeprobe" insmod "$ko" || return 1
	check "$name: $mode, $threads threads x $conns connections, $threads workers, recorded" \
		scenario "$name" "$mode" "$conns" "$threads" --workers "$threads" || return 1
	agrees "$name"
	check_eq "$name: INVOKE and SHM_REGISTER calls: teeprobe = teesim" \
		"$(ts $name $mode invoke) $(ts $name $mode shm_register)" \
		"$(tee_stat INVOKE calls) $(tee_stat SHM_REGISTER calls)"
}

# --- set-up that sleeps -----------------------------------------------------------
if knob_run sleep hard-temp 4 secure_threads=8 shm_us=3000 shm_cpu_us=0 invoke_us=300; then
	check_eq "sleep: teesim's registrations slept (asleep/all > 0.9)" yes \
		"$(awk -v a="$(ts sleep hard-temp shm_register_asleep_ns)" -v t="$(ts sleep hard-temp shm_register_ns)" \
		'BEGIN { print (t > 0 && a / t > 0.9) ? "yes" : "no (" a "/" t ")" }')"
	check_eq "sleep: the verdict is per-call set-up" tee-blocking "$(cause sleep)"
	check "sleep: ... mostly asleep in it ($(split sleep setup_asleep) of the set-up), as its title says" \
		sh -c "awk -v s='$(split sleep setup_asleep)' 'BEGIN { exit !(s > 0.5) }' && grep -q '^Verdict: .*mostly asleep' $out/sleep.txt"
fi

# --- set-up that spins --------------------------------------------------------------
if knob_run spin hard-temp 4 secure_threads=8 shm_us=0 shm_cpu_us=3000 invoke_us=300; then
	check_eq "spin: teesim's registrations never slept" 0 "$(ts spin hard-temp shm_register_asleep_ns)"
	check_eq "spin: the verdict is per-call set-up, whatever the sleep" tee-blocking "$(cause spin)"
	check "spin: ... mostly on a CPU in it ($(split spin setup_oncpu) of the set-up), as its title says" \
		sh -c "awk -v s='$(split spin setup_oncpu)' 'BEGIN { exit !(s > 0.5) }' && grep -q '^Verdict: .*mostly on a CPU' $out/spin.txt"
fi

# --- a long secure world ---------------------------------------------------------------
if knob_run secure hard-reg 4 secure_threads=8 invoke_us=8000 shm_us=0 shm_cpu_us=0; then
	check_eq "secure: no caller waited for a secure thread (teesim)" 0 "$(ts secure hard-reg thread_waits)"
	check_eq "secure: the verdict is the secure world's work" tee-work "$(cause secure)"
	check "secure: the secure world's share $(split secure secure) is over half, set-up $(split secure setup) under a tenth" \
		awk -v s="$(split secure secure)" -v u="$(split secure setup)" 'BEGIN { exit !(s > 0.5 && u < 0.1) }'
	check "secure: the title says \"not per-call set-up\"" grep -q '^Verdict: .*not per-call set-up' $out/secure.txt
fi

# --- few secure threads ---------------------------------------------------------------
if knob_run queue hard-reg 8 secure_threads=1 invoke_us=2000 shm_us=0 shm_cpu_us=0; then
	waits=$(ts queue hard-reg thread_waits)
	check "queue: callers waited for the one secure thread ($waits times, teesim), longer than it worked" \
		awk -v n="$waits" -v w="$(ts queue hard-reg thread_wait_ns)" -v b="$(ts queue hard-reg invoke_ns)" \
		'BEGIN { exit !(n > 0 && w > b) }'
	check_eq "queue: the verdict is waiting for a secure thread" tee-queue "$(cause queue)"
	check_eq "queue: teeprobe's wait probe saw every wait teesim counted" "$waits" \
		"$(tp_col tee_probes calls teesim_wait_for_secure_thread)"
fi

# --- the driver's work ---------------------------------------------------------------
if knob_run driver hard-reg 4 secure_threads=8 driver_us=5000 invoke_us=0 shm_us=0 shm_cpu_us=0; then
	check "driver: teesim's driver worked longer than its secure world ($(ts driver hard-reg driver_ns) ns)" \
		awk -v d="$(ts driver hard-reg driver_ns)" -v s="$(ts driver hard-reg invoke_ns)" \
		'BEGIN { exit !(d > 0 && d > s) }'
	check_eq "driver: the verdict is the normal world's driver work" tee-driver "$(cause driver)"
	check_eq "driver: every INVOKE entered the secure world once (teeprobe = teesim)" \
		"$(ts driver hard-reg invoke)" \
		"$(tp_col tee_stats secure_entries all INVOKE)"
fi

[ -d /sys/module/teeprobe ] && rmmod teeprobe
lab_unload
done_testing
