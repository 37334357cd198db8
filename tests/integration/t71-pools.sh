#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t71-pools - teeprobe analyze across pool shapes: fewer server workers
# than client threads (the normal case, where TEE blocking shows up as
# connections waiting in the accept queue) up to as many, and one secure
# thread up to one per CPU. hard-temp (per-call shared-memory set-up) must
# be judged TEE blocking (set-up the largest share of the TEE time, whole
# set-up calls with their waits for a secure thread), through the accept
# queue where that is where the handshakes wait; hard-reg (memory
# registered once) never. Every verdict's title and why agree with the
# evidence beside them (verdictcheck.py). Each
# connection's own parts add up to its SYN-to-accept() time: the same time
# measured without teeprobe (the SYNs captured by tcpdump as the server's
# stack takes them, the server's accept() logged by hsbench) lies, at the
# median, between teeprobe's from the SYN's processing and from its
# interrupt (analyze.sh: between); the counts equal the kernel's SNMP
# counters.
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
conns=${TP_POOL_CONNECTIONS:-150}
out=/tmp/t71
mkdir -p $out
cd $out || exit 1
. "$top/tests/integration/analyze.sh"

# The pool shapes are the tools' logic over the same events on every
# kernel, whose parts are checked on each by t50 (counts, accept waits) and
# t72 (each connection's SYN-to-accept() time against tcpdump's and the
# server's own log): make check runs them on 6.1, to keep its time (a cold
# make check, issue 47); make stress and TP_POOLS_ALL=1 on every stock
# kernel. The debug kernel would add ten minutes.
if [ "$TP_KERNEL" = lab ]; then
	skip "pool shapes" "they run on the stock kernels; the debug kernel would add ten minutes"
	done_testing
	exit
fi
only_on_61 "pool shapes" "the verdict is the tools' logic, the same on every kernel: 6.1 runs it (TP_POOLS_ALL=1 here too)" TP_POOLS_ALL

# shape_run NAME MODE WORKERS - a recorded run of $conns connections from
# 10 client threads, the SYNs captured and hsbench's accepts logged
shape_run() {
	local name=$1 mode=$2 workers=$3 rc

	syns_start "$LAB_PORT" "$name" || return 1
	scenario "$name" "$mode" "$conns" 10 --workers "$workers" --accept-log $out/$name.acc
	rc=$?
	syns_stop
	return $rc
}
export conns
export -f shape_run syns_start syns_stop

# shapes: WORKERS/SECURE-THREADS (0: one secure thread per CPU). Every
# shape on 6.1; the two ends elsewhere (the verdict's logic is the tools',
# the same on every kernel: the kernel's part, the hooks and the waits, is
# in any shape), to keep make check within its time.
shapes=${TP_POOL_SHAPES:-"1/1 4/0 4/1 10/1"}
[ "$TP_KERNEL" = 6.1 ] || shapes=${TP_POOL_SHAPES:-"1/1 10/1"}
secure_now=
for shape in $shapes; do
	workers=${shape%/*} secure=${shape#*/}
	if [ "$secure" != "$secure_now" ]; then
		[ -d /sys/module/teeprobe ] && rmmod teeprobe
		[ -d /sys/module/teesim ] && rmmod teesim
		check "teesim loads with secure_threads=$secure" lab_load secure_threads=$secure
		check "insmod teeprobe" insmod "$ko"
		secure_now=$secure
	fi
	for mode in hard-temp hard-reg; do
		name=$mode-w$workers-s$secure
		passive=$(snmp PassiveOpens) active=$(snmp ActiveOpens "$TP_CLIENT_NETNS")
		check "$mode: $workers workers, secure_threads=$secure, 10 threads x $conns, recorded" \
			shape_run "$name" "$mode" "$workers" || continue
		passive=$(( $(snmp PassiveOpens) - passive ))
		active=$(( $(snmp ActiveOpens "$TP_CLIENT_NETNS") - active ))
		c=$(cause $name)
		vtop=$(jpy $name "r['verdict']['top']")
		path=$(jpy $name "r['verdict']['path']")
		echo "# $name: $c, top $vtop, path $path; $(jpy $name "'acceptors in TEE calls %.2f (asleep %.2f; set-up %.2f, waiting for a secure thread %.2f, secure world %.2f, driver %.2f), waiting for a CPU %.2f' % tuple(x or 0 for x in (r['accept_queue']['tee']['share'], r['accept_queue']['tee']['asleep'], r['accept_queue']['tee']['setup'], r['accept_queue']['tee']['queue'], r['accept_queue']['tee']['secure'], r['accept_queue']['tee']['driver'], r['accept_queue']['time']['runnable']))")"
		if [ $mode = hard-temp ]; then
			verdict_is $name tee-blocking "$name: the verdict is TEE blocking"
			if [ "$vtop" = "ACK -> accept" ]; then
				check_eq "$name: ... through the accept queue" accept-queue "$path"
				check "$name: ... the text says so, with the acceptors' TEE share" \
					sh -c "grep -A2 '^  Through the accept queue: ' $out/$name.txt | grep -q '% in TEE calls'"
			fi
		else
			verdict_not $name tee-blocking "$name: the verdict is not TEE blocking ($c)"
		fi
		check_eq "$name: accepted = server events = hsbench's = the kernel's PassiveOpens" \
			"$conns $conns $conns" \
			"$(jpy $name "int(r['evidence']['handshakes'])") $(kv $out/lab-$name/$mode-$conns/server.txt handshakes_completed) $passive"
		check_eq "$name: client handshake events = the client namespace's ActiveOpens" \
			"$conns $conns" "$(jpy $name "int(r['evidence']['client_handshakes'])") $active"
		check_eq "$name: no handshake untracked, no hook hit missed" "0 0" \
			"$(jpy $name "'%d %d' % (r['evidence']['untracked_handshakes'], r['evidence']['tcp_hook_missed'])")"
		between $name
		agrees $name
	done
done
rmmod teeprobe
lab_unload
done_testing
