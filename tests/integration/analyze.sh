# SPDX-License-Identifier: GPL-2.0
# analyze.sh - helpers of the analyze tests (t70, t71, t72), sourced after
# lib.sh and lab.sh, with $out their output directory:
#
#   record_run NAME CMD...    CMD run under "teeprobe record" into
#                             $out/NAME.dat, then analyze --json into
#                             NAME.json and the text into NAME.txt
#   scenario NAME MODE CONNS THREADS [SERVER-OPTION...]
#                             record_run of one hsbench lab_run
#   cause NAME / jpy NAME EXPR  the verdict's cause; a Python expression
#                             on NAME.json as r
#   snmp FIELD [NETNS]        a Tcp counter of /proc/net/snmp, of this
#                             network namespace or NETNS
#   syns_start PORT NAME / syns_stop
#                             tcpdump of the client's SYNs to PORT, from the
#                             client namespace, into $out/NAME.syn
#   ref_p50 NAME              the median SYN -> accept() of NAME's
#                             connections, without teeprobe (synaccept.py
#                             on NAME.syn and NAME.acc), in us
#   close_to US REF_US        US within 10 % of REF_US, or 1 ms: what the
#                             server's parts cannot hold is the SYN's way
#                             from the client's connect() to the server's
#                             NIC (the client's stack, the wire: QEMU's
#                             delivery, 0.3 to 0.6 ms in these guests)
#   irq_cpu                   the CPU that takes eth0's receive interrupts
#                             (set to the last CPU)

record_run() {
	local name=$1 rec rc
	shift
	"$TEEPROBE" record -w 100 -o $out/$name.dat 2>$out/$name.rec &
	rec=$!
	wait_recording $out/$name.rec || { kill -INT $rec; wait $rec; return 1; }
	"$@"
	rc=$?
	sleep 0.3
	kill -INT $rec
	wait $rec || return 1
	[ $rc = 0 ] || return $rc
	"$TEEPROBE" analyze -i $out/$name.dat --json >$out/$name.json 2>$out/$name.err &&
		"$TEEPROBE" analyze -i $out/$name.dat --windows >$out/$name.txt 2>>$out/$name.err
}

scenario() {
	local name=$1
	shift
	LAB_OUT=$out/lab-$name record_run "$name" lab_run "$@"
}

cause() { python3 -c "import json; print(json.load(open('$out/$1.json'))['verdict']['cause'])"; }
jpy() { python3 -c "import json; r = json.load(open('$out/$1.json')); print($2)"; }

snmp() {
	${2:+ip netns exec "$2"} cat /proc/net/snmp |
		awk -v k="$1" '$1 == "Tcp:" && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
			$1 == "Tcp:" { print $(c[k]) }'
}

syns_start() {
	ip netns exec "$TP_CLIENT_NETNS" tcpdump -i eth1 -n -tt --time-stamp-precision=nano -l \
		"tcp[tcpflags] == tcp-syn and dst port $1" >$out/$2.syn 2>$out/$2.tcpdump &
	SYNS_PID=$!
	lab_wait 10 lab_says $out/$2.tcpdump "listening on"
}

syns_stop() {
	sleep 0.2
	kill $SYNS_PID 2>/dev/null
	wait $SYNS_PID 2>/dev/null
}

ref_p50() {
	python3 "$top/tests/integration/synaccept.py" $out/$1.syn $out/$1.acc |
		awk '{ for (i = 1; i < NF; i++) if ($i == "p50_us") print $(i + 1) }'
}

close_to() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
		t = b / 10; if (t < 1000) t = 1000; exit !(b > 0 && d <= t) }'
}

irq_cpu() {
	local irq last

	last=$(( $(nproc) - 1 ))
	irq=$(awk -v d="$(basename "$(readlink /sys/class/net/eth0/device)")" \
		'$NF ~ "^" d "-input" { sub(":", "", $1); print $1; exit }' /proc/interrupts)
	[ -n "$irq" ] && echo "$last" >/proc/irq/$irq/smp_affinity_list 2>/dev/null
	echo "$last"
}

export out
export -f record_run scenario lab_run kv snmp close_to
