#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# case.sh - the seed case in the lab, run inside a guest (see scripts/demo).
#
# Loads the TEE core and teesim with its default parameters, then for each
# load (10 threads x 1000 connections by default) runs hsbench in the three
# modes -- soft, hard-temp (a temporary shared-memory registration per crypto
# call, the case's "before"), hard-reg (registered once, the "after") -- each
# recorded with "teeprobe record", and prints the case's tables: the host's
# CPU and softirq figures per mode, the handshake time per load, then
# teeprobe's verdict on hard-temp and on hard-reg and its before/after table
# (teeprobe compare), and writes the plots. Results stay in $LAB_OUT.
#
# Environment: LAB_CONNECTIONS ("1000"), LAB_THREADS (10),
# LAB_MODES ("soft hard-temp hard-reg"; on iTrustee hard-alloc and, past
# tzdriver v1.0.0, hard-shared too), TEESIM_PARAMS (none), TZSIM_PARAMS (iTrustee: none).
. "$(dirname "$0")/lab.sh"

conns_list=${LAB_CONNECTIONS:-"1000"}
threads=${LAB_THREADS:-10}
modes=${LAB_MODES:-"soft hard-temp hard-reg"}
# on iTrustee the memory kinds of the tzdriver version's libteec: v1.0.0's
# has no TEEC_MEM_SHARED_INOUT
tzver=$(cat "$lab_top/build/modules/${TP_KERNEL:-}/tzdriver/tzdriver-version" 2>/dev/null)
if [ "${TP_SECURE:-none}" = itrustee ]; then
	modes=${LAB_MODES:-"soft hard-temp hard-reg hard-alloc hard-shared"}
	[ "$tzver" = 1.0.0 ] && modes=${LAB_MODES:-"soft hard-temp hard-reg hard-alloc"}
fi

# snap FILE - CPU time, NET_RX softirqs and rx packets of the server's NIC
snap() {
	{
		echo "time $(date +%s.%N)"
		awk '$1 == "cpu" { print "cpu", $2 + $3, $4, $5 + $6, $7, $8, $9 }' /proc/stat
		awk '$1 == "NET_RX:" { s = 0; for (i = 2; i <= NF; i++) s += $i; print "net_rx", s }' /proc/softirqs
		echo "rx_packets $(cat /sys/class/net/eth0/statistics/rx_packets)"
	} >"$1"
}

# system_figures BEFORE AFTER - "%system %softirq NET_RX/s rx_packets/s"
system_figures() {
	awk 'FNR == NR { a[$1] = $0; next }
	     { split(a[$1], b, " ")
	       if ($1 == "time") dt = $2 - b[2]
	       if ($1 == "cpu") {
		 user = $2 - b[2]; sys = $3 - b[3]; idle = $4 - b[4]
		 irq = $5 - b[5]; soft = $6 - b[6]; steal = $7 - b[7]
		 total = user + sys + idle + irq + soft + steal
	       }
	       if ($1 == "net_rx") netrx = $2 - b[2]
	       if ($1 == "rx_packets") rx = $2 - b[2] }
	     END { printf "%.2f %.2f %.0f %.0f\n", 100 * sys / total,
		   100 * soft / total, netrx / dt, rx / dt }' "$1" "$2"
}

# json_mean FILE NAME - the mean of latency object NAME in hsbench's JSON
json_mean() {
	sed -n "s/.*\"$2\":{[^}]*\"mean\":\([0-9.]*\).*/\1/p" "$1"
}

# dur US - a duration of US microseconds as teeprobe's text prints one: in
# ms from 10 ms, in us below (tools/utils.c dur_str); "-" for none
dur() {
	awk -v u="$1" 'BEGIN { if (u == "") print "-"
		else if (u >= 9999.95) printf "%.3f ms\n", u / 1000
		else printf "%.1f us\n", u }'
}

echo "teeprobe lab: the seed case on $(uname -r), $(nproc) CPUs"
secure=${TP_SECURE:-none}
if [ "$secure" = itrustee ]; then
	# iTrustee's real tzdriver over tzsim (TZSIM_PARAMS: its parameters)
	lab_load $TZSIM_PARAMS || exit 1
	printf 'secure side: tzsim under tzdriver %s:' "$tzver"
	for p in secure_threads ta_us ta_mode queue_slots switch_us; do
		printf ' %s=%s' "$p" "$(cat /sys/module/tzsim/parameters/$p)"
	done
	printf '\n\n'
elif [ "$secure" = optee ]; then
	# A real secure world: OP-TEE's own, as the optee guest booted it
	lab_load || exit 1
	printf 'secure world: OP-TEE (%s), %s secure threads, lab TA (lab/ta)\n\n' \
		"$(dmesg | grep -o 'optee: revision [^ ]*' | head -n 1 | cut -d' ' -f3)" \
		"$(awk '$1 == "secure_threads" { print $2 }' "$lab_top/optee/config")"
else
	lab_load $TEESIM_PARAMS || { echo "lab: cannot load teesim" >&2; exit 1; }
	printf 'teesim:'
	for p in secure_threads switch_us invoke_us invoke_cpu_us shm_us shm_cpu_us driver_us unreg_pct; do
		printf ' %s=%s' "$p" "$(cat /sys/module/teesim/parameters/$p)"
	done
	printf '\n\n'
fi

# teeprobe's NET_RX figures, when its module was built for this kernel
tp_ko=$LAB_MODULES/module/teeprobe.ko
tp_dbg=/sys/kernel/debug/teeprobe
tp_preset=
[ "$secure" = itrustee ] && tp_preset=preset=tzdriver
if [ -f "$tp_ko" ] && ! [ -d /sys/module/teeprobe ]; then
	insmod "$tp_ko" $tp_preset || echo "lab: teeprobe did not load; its figures are left out" >&2
fi

# netrx_figures DIR - from teeprobe's snapshot in DIR: "share of inline
# raise->entry delays >= 128 us (%), mean inline delay (us), share of runs
# by ksoftirqd (%), mean ksoftirqd delay (us)"
netrx_figures() {
	[ -f "$1/netrx_stats" ] || { echo "- - - -"; return; }
	awk '$1 == "inline_delay" { all += $NF; if ($2 >= 131072) big += $NF }
	     FILENAME ~ /stats$/ && $1 == "all" { runs = $3; ksd = $4
		inl_n = $11; inl_s = $12; ksd_n = $14; ksd_s = $15 }
	     END { printf "%.1f %.0f %.1f %.0f\n", all ? 100 * big / all : 0,
		   inl_n ? inl_s / inl_n / 1000 : 0, runs ? 100 * ksd / runs : 0,
		   ksd_n ? ksd_s / ksd_n / 1000 : 0 }' "$1/netrx_hist" "$1/netrx_stats"
}

# teeprobe's command, when built; its sessions go beside the lab's files
teeprobe=$lab_top/tools/teeprobe
[ -x "$teeprobe" ] && [ -d $tp_dbg ] || teeprobe=

# record_start FILE - a teeprobe record session in the background
record_start() {
	rec_pid=
	[ -n "$teeprobe" ] || return 0
	"$teeprobe" record -w 100 -o "$1" 2>"$1.log" &
	rec_pid=$!
	lab_wait 120 lab_says "$1.log" '^teeprobe: recording to ' $rec_pid
	grep -q '^teeprobe: recording to ' "$1.log" && return 0
	echo "lab: teeprobe record did not start:" >&2
	cat "$1.log" >&2
	kill -INT $rec_pid 2>/dev/null
	wait $rec_pid
	rec_pid=
}

# record_stop - end the session started last
record_stop() {
	[ -n "$rec_pid" ] || return 0
	sleep 0.3
	kill -INT $rec_pid
	wait $rec_pid
	rec_pid=
}

failed=0
for conns in $conns_list; do
	for mode in $modes; do
		d=$LAB_OUT/$mode-$conns
		mkdir -p "$d"
		printf 'running %-9s %2d threads x %d connections ... ' "$mode" "$threads" "$conns"
		snap "$d/before.txt"
		[ -d $tp_dbg ] && echo 1 >$tp_dbg/reset
		record_start "$d/trace.dat"
		if ! lab_run "$mode" "$conns" "$threads"; then
			record_stop
			echo "failed"
			cat "$d/client.err" "$d/server.txt" | tail -n 5
			failed=1
			continue
		fi
		record_stop
		snap "$d/after.txt"
		if [ -d $tp_dbg ]; then
			cat $tp_dbg/netrx_stats >"$d/netrx_stats"
			cat $tp_dbg/netrx_hist >"$d/netrx_hist"
			cat $tp_dbg/tee_probes >"$d/tee_probes"
		fi
		system_figures "$d/before.txt" "$d/after.txt" >"$d/system.txt"
		printf 'client handshake %s\n' "$(dur "$(json_mean "$d/client.json" handshake_us)")"
	done
done

conns_max=${conns_list##* }
echo
echo "Host during the runs at $threads threads x $conns_max connections (server side):"
# one column a mode (five on iTrustee)
printf '%-22s' metric
printf ' %12s' $modes
echo
for i in 1 2 3 4; do
	case $i in
	1) name="%system" ;; 2) name="%softirq" ;;
	3) name="NET_RX softirqs/s" ;; 4) name="NIC rx packets/s" ;;
	esac
	printf '%-22s' "$name"
	for mode in $modes; do
		printf ' %12s' "$(cut -d' ' -f$i "$LAB_OUT/$mode-$conns_max/system.txt" 2>/dev/null)"
	done
	echo
done
# probe_col DIR SYMBOL N - field N of SYMBOL's line in teeprobe's tee_probes
probe_col() { awk -v s="$2" -v n="$3" '$1 == s { print $n }' "$1/tee_probes" 2>/dev/null; }
printf '%-22s' "TEE thread waits"
for mode in $modes; do
	d=$LAB_OUT/$mode-$conns_max
	if [ "$secure" = optee ]; then
		# OP-TEE's: callers that found every secure thread busy
		printf ' %12s' "$(probe_col "$d" optee_cq_wait_for_completion 6)"
	elif [ "$secure" = itrustee ]; then
		printf ' %12s' "$(kv "$d/tzsim.txt" thread_waits)"
	else
		printf ' %12s' "$(kv "$d/teesim.txt" thread_waits)"
	fi
done
echo
if [ "$secure" = itrustee ]; then
	# per wait place and the set-up, as teeprobe's preset measures them
	# (v1.0.0's SMC is inline: smp_smc_send around it)
	smc=smc_req
	[ "$tzver" = 1.0.0 ] && smc=smp_smc_send
	for row in "secure world ms:$smc" "session lock ms:tc_ns_send_cmd" \
		"queue full ms:occupy_free_smc_in_entry" "TA pending ms:smp_smc_send_func" \
		"mailbox alloc ms:mailbox_alloc" "copy from CA ms:read_from_client" \
		"pin pages ms:fill_shared_mem_info"; do
		printf '%-22s' "${row%%:*}"
		for mode in $modes; do
			ns=$(awk -v s="${row#*:}" '{ b = $1; sub(/\..*/, "", b) } b == s { print $7 }' \
				"$LAB_OUT/$mode-$conns_max/tee_probes" 2>/dev/null)
			printf ' %12s' "$(( ${ns:-0} / 1000000 ))"
		done
		echo
	done
elif [ "$secure" = optee ]; then
	printf '%-22s' "secure world ms"
	for mode in $modes; do
		ns=$(probe_col "$LAB_OUT/$mode-$conns_max" optee_smccc_smc 7)
		printf ' %12s' "$(( ${ns:-0} / 1000000 ))"
	done
else
	printf '%-22s' "TEE bh-off ms"
	for mode in $modes; do
		printf ' %12s' "$(( $(kv "$LAB_OUT/$mode-$conns_max/teesim.txt" bh_off_ns) / 1000000 ))"
	done
fi
echo
for i in 1 2 3 4; do
	case $i in
	1) name="NET_RX waits>=128us %" ;; 2) name="NET_RX inline wait us" ;;
	3) name="NET_RX ksoftirqd %" ;; 4) name="NET_RX ksoftirqd wt us" ;;
	esac
	printf '%-22s' "$name"
	for mode in $modes; do
		printf ' %12s' "$(netrx_figures "$LAB_OUT/$mode-$conns_max" | cut -d' ' -f$i)"
	done
	echo
done
echo "(NET_RX rows by teeprobe: raise->entry delays of runs at irq exit or bh"
echo " enable, which wait while a CPU is in the secure world with bottom halves"
echo " off, and of runs deferred to ksoftirqd, which wait for the scheduler)"

echo
echo "Mean client handshake (TCP + application, as the client sees it; case table 5.2):"
printf '%-30s %12s %16s %16s %10s\n' load soft "hard-temp" "hard-reg" "temp/reg"
for conns in $conns_list; do
	soft=$(json_mean "$LAB_OUT/soft-$conns/client.json" handshake_us)
	temp=$(json_mean "$LAB_OUT/hard-temp-$conns/client.json" handshake_us)
	reg=$(json_mean "$LAB_OUT/hard-reg-$conns/client.json" handshake_us)
	ratio=$(awk -v t="$temp" -v r="$reg" 'BEGIN { if (r > 0) printf "%.1fx", t / r; else print "-" }')
	printf '%-30s %12s %16s %16s %10s\n' \
		"$threads threads, $conns connections" "$(dur "$soft")" "$(dur "$temp")" \
		"$(dur "$reg")" "$ratio"
done
echo "(the case on hardware: 20 ms before -> 4 ms after at 1k; 60 ms -> 6 ms at 2k)"

# teeprobe's diagnosis of the first load: hard-temp, hard-reg, and the table
conns=${conns_list%% *}
before=$LAB_OUT/hard-temp-$conns/trace.dat
after=$LAB_OUT/hard-reg-$conns/trace.dat
if [ -n "$teeprobe" ] && [ -f "$before" ] && [ -f "$after" ]; then
	for f in "$before" "$after"; do
		echo
		echo "=== teeprobe analyze -i ${f#$LAB_OUT/}"
		"$teeprobe" analyze -i "$f" | sed -n '/^Where/,$p' || failed=1
		"$teeprobe" analyze -i "$f" --json >"${f%.dat}-analyze.json" || failed=1
		if "$teeprobe" plot --help >/dev/null 2>&1; then
			"$teeprobe" plot -i "$f" >/dev/null || failed=1
		fi
	done
	echo
	echo "=== teeprobe compare ${before#$LAB_OUT/} ${after#$LAB_OUT/}"
	echo "    (before: hard-temp, after: hard-reg, $threads threads x $conns connections)"
	"$teeprobe" compare "$before" "$after" || failed=1
fi
[ -d /sys/module/teeprobe ] && rmmod teeprobe
lab_unload
exit $failed
