#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t72-thirdparty - teeprobe analyze on programs teeprobe does not know:
# nginx loaded by ab (no keep-alive), and a small Python server that logs
# its accepts. Each scenario has its expected cause: a healthy light load
# (no-problem), a 20 ms netem delay on the client's NIC (network), a
# server that accepts late (slow-accept), a CPU hog on the CPU that takes
# the NIC's interrupts and nginx's workers (the accepting threads starved,
# accept-cpu-starved, or NET_RX starved, softirq-cpu-hog, where the kernel
# defers NET_RX to ksoftirqd and that wait is the larger). Handshakes are
# counted against the kernel's SNMP counters exactly, with no hook hit
# missed; each connection's SYN-to-accept() time measured without teeprobe
# (tcpdump of the SYNs the server's stack took, the server's own accept
# log) lies, at the median, between teeprobe's from the SYN's processing
# and from its interrupt (analyze.sh: between), for ab and for hsbench,
# with and without the hog. make check runs the light and netem cases on
# 6.1 alone (TP_ANALYZE_ALL=1: on every kernel, as make stress does).
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
out=/tmp/t72
mkdir -p $out
cd $out || exit 1
. "$top/tests/integration/analyze.sh"
NGINX_PORT=8080
LOG_PORT=8081
export NGINX_PORT LOG_PORT

if [ "$TP_KERNEL" = lab ]; then
	skip "third-party scenarios" "they run on the stock kernels; the debug kernel would add minutes"
	done_testing
	exit
fi
for prog in nginx ab tcpdump; do
	command -v $prog >/dev/null || { skip "third-party scenarios" "no $prog (scripts/deps installs it)"; done_testing; exit; }
done

# nginx_start [CPU] / nginx_stop - nginx on the server's address, 2 workers,
# both pinned to CPU when given
nginx_start() {
	local affinity=
	[ -z "$1" ] || affinity="worker_cpu_affinity $(awk -v c="$1" 'BEGIN { m = "1"; while (c-- > 0) m = m "0"; print m " " m }');"
	mkdir -p $out/nginx/logs $out/nginx/html
	echo ok >$out/nginx/html/index.html
	cat >$out/nginx/nginx.conf <<EOC
worker_processes 2;
$affinity
pid $out/nginx/nginx.pid;
error_log $out/nginx/logs/error.log;
events { worker_connections 1024; }
http {
	access_log off;
	keepalive_timeout 0;
	server { listen $TP_SERVER_ADDR:$NGINX_PORT backlog=1024; root $out/nginx/html; }
}
EOC
	nginx -c $out/nginx/nginx.conf -p $out/nginx && lab_wait 10 test -s $out/nginx/nginx.pid
}
nginx_stop() { kill "$(cat $out/nginx/nginx.pid)"; lab_wait 10 sh -c "! test -e $out/nginx/nginx.pid"; }

# ab_run PORT N C - ab from the client namespace, every request answered
ab_run() {
	ip netns exec "$TP_CLIENT_NETNS" ab -q -n "$2" -c "$3" "http://$TP_SERVER_ADDR:$1/" >$out/ab.txt 2>&1 &&
		grep -q "^Failed requests: *0$" $out/ab.txt
}
# log_server NAME [ACCEPTLOG-OPTION...] / log_server_stop - acceptlog.py
log_server() {
	local name=$1
	shift
	rm -f $out/log-ready
	python3 "$top/tests/integration/acceptlog.py" "$TP_SERVER_ADDR" $LOG_PORT \
		$out/$name.acc $out/log-ready "$@" &
	LOG_PID=$!
	lab_wait 10 test -e $out/log-ready
}
log_server_stop() { kill $LOG_PID; wait $LOG_PID 2>/dev/null; }
# hog_on CPU / hog_off - SCHED_FIFO spinning on CPU (20 ms of every 25)
hog_on() { "$top/lab/cpuhog/cpuhog" --cpus "$1" --busy-us 20000 --idle-us 5000 --prio 10 >$out/hog.err 2>&1 & HOG_PID=$!; }
hog_off() { kill $HOG_PID; wait $HOG_PID 2>/dev/null; }
export -f ab_run hog_on hog_off

# counted NAME PASSIVE ACTIVE - the counts against the kernel's, no miss
counted() {
	check_eq "$1: accepted = the kernel's PassiveOpens, connects = the client's ActiveOpens" \
		"$2 $3" "$(jpy $1 "'%d %d' % (r['evidence']['handshakes'], r['evidence']['client_handshakes'])")"
	check_eq "$1: no handshake untracked, no hook hit missed" "0 0" \
		"$(jpy $1 "'%d %d' % (r['evidence']['untracked_handshakes'], r['evidence']['tcp_hook_missed'])")"
}
# opens - PassiveOpens here and ActiveOpens in the client namespace
opens() { echo "$(snmp PassiveOpens) $(snmp ActiveOpens "$TP_CLIENT_NETNS")"; }
[ -d /sys/module/teeprobe ] && rmmod teeprobe
check "insmod teeprobe" insmod "$ko"
check "nginx starts (2 workers)" nginx_start

# --- nginx + ab ---------------------------------------------------------------
# The light load and the netem delay check the tools' logic over parts
# whose hooks t50 counts on every kernel (its netem case too): make check
# runs them on 6.1 (TP_ANALYZE_ALL=1: on every kernel, as make stress
# does); the hog's outcome depends on the kernel, and the late accept's
# SYN-to-accept() against tcpdump and the server's log is each kernel's
# independent measure: those run on each.
if on_61 TP_ANALYZE_ALL; then
	read -r p0 a0 <<<"$(opens)"
	ANALYZE_TARGET_US=$LIGHT_TARGET_US check \
		"healthy light load: ab -n 100 -c 1 against nginx, recorded (a 200 ms target)" \
		record_run light ab_run $NGINX_PORT 100 1
	read -r p1 a1 <<<"$(opens)"
	verdict_is light no-problem "light: the verdict is no-problem"
	counted light $((p1 - p0)) $((a1 - a0))
	agrees light

	# 200 ms: far above what a loaded host can add to the guest's NET_RX or
	# accept waits (t70-analyze.sh says why)
	if ip netns exec "$TP_CLIENT_NETNS" tc qdisc add dev eth1 root netem delay 200ms 2>$out/tc.err; then
		read -r p0 a0 <<<"$(opens)"
		check "network: 200 ms netem delay on the client's NIC, ab -n 100 -c 5, recorded" \
			record_run netem ab_run $NGINX_PORT 100 5
		read -r p1 a1 <<<"$(opens)"
		ip netns exec "$TP_CLIENT_NETNS" tc qdisc del dev eth1 root
		verdict_is netem network "netem: the verdict is network"
		counted netem $((p1 - p0)) $((a1 - a0))
		agrees netem
	else
		skip "network scenario" "tc netem: $(head -n 1 $out/tc.err)"
	fi
else
	skip "light load and netem scenarios against nginx" "6.1 runs them: the tools' logic, the same on every kernel (TP_ANALYZE_ALL=1 here too)"
fi

cpu=$(irq_cpu)
echo "# eth0's receive interrupts go to CPU $cpu"
# nginx's workers on the hog's CPU, so that the hog starves them for sure:
# left to the scheduler, where they ran decided which part grew, and CI
# once saw NET_RX's waits on top with under half of them by ksoftirqd
# (softirq-bh-off: neither outcome below)
nginx_stop
check "nginx starts again, its workers pinned to CPU $cpu" nginx_start "$cpu"
read -r p0 a0 <<<"$(opens)"
hog_on "$cpu"
STEP_TIMEOUT=300 check "CPU hog on CPU $cpu (eth0's interrupts): ab -n 200 -c 10 against nginx, recorded" \
	record_run hog ab_run $NGINX_PORT 200 10
hog_off
read -r p1 a1 <<<"$(opens)"
echo "# hog: $(jpy hog "'%s, top %s; NET_RX wait by ksoftirqd %.2f; acceptors waiting for a CPU %.2f' % (r['verdict']['cause'], r['verdict']['top'], r['evidence']['ksoftirqd_share'], r['accept_queue']['time']['runnable'] or 0)")"
# 6.1 defers NET_RX to ksoftirqd under the hog, which then waits for it;
# 6.12 and later keep running NET_RX at irq exit (a tenth to a quarter of
# the wait by ksoftirqd). With nginx's workers on the hog's CPU the accept
# queue's wait was the larger on both (6.1: 132 ms against 11 ms of
# NET_RX wait; newest: 155 ms against 0.5 ms). The verdict must follow
# what was measured: a CPU hog either way.
if [ "$(jpy hog "r['verdict']['top'] == 'NET_RX wait' and r['evidence']['ksoftirqd_share'] > 0.5")" = True ]; then
	verdict_is hog softirq-cpu-hog "hog: NET_RX starved on the interrupts' CPU: the verdict is softirq-cpu-hog"
else
	verdict_is hog accept-cpu-starved "hog: NET_RX at irq exit, the accepting threads starved: accept-cpu-starved"
fi
counted hog $((p1 - p0)) $((a1 - a0))
agrees hog
nginx_stop

# --- a server that logs its accepts: teeprobe's parts against it --------------
export -f log_server log_server_stop syns_start syns_stop
check "late accept: a server sleeping 20 ms before each accept(), ab -n 100 -c 10, recorded" \
	bash -c 'log_server late --late-ms 20 && syns_start $0 late &&
		record_run late ab_run $0 100 10; rc=$?; syns_stop; log_server_stop; exit $rc' $LOG_PORT
verdict_is late slow-accept "late: the verdict is slow-accept"
agrees late
between late
STEP_TIMEOUT=300 check "the same server at once, CPU hog on CPU $cpu, ab -n 200 -c 10, recorded" \
	bash -c 'log_server loghog && syns_start $0 loghog && hog_on $1 &&
		record_run loghog ab_run $0 200 10; rc=$?; hog_off; syns_stop; log_server_stop; exit $rc' \
	$LOG_PORT "$cpu"
between loghog
agrees loghog

# --- hsbench under the hog ----------------------------------------------------
[ -d /sys/module/teesim ] && rmmod teesim
check "teesim loads" lab_load
STEP_TIMEOUT=300 check "hsbench hard-temp, 4 workers, 10 threads x 150, CPU hog on CPU $cpu, recorded" \
	bash -c 'syns_start $LAB_PORT hshog && hog_on $0 &&
		scenario hshog hard-temp 150 10 --workers 4 --accept-log $out/hshog.acc;
		rc=$?; hog_off; syns_stop; exit $rc' "$cpu"
between hshog
agrees hshog
lab_unload
rmmod teeprobe
done_testing
