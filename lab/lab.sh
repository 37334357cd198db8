# SPDX-License-Identifier: GPL-2.0
# lab.sh - helpers for running the TEE lab inside a guest (sourced).
#
# lab_load [TEESIM-PARAM...]  load the TEE core (the kernel's own, or the
#                             out-of-tree tee.ko built from linux-source)
#                             and teesim with the given parameters; on a
#                             real secure world (TP_SECURE=optee, the optee
#                             guest) only check that OP-TEE is there
# lab_unload                  remove teesim (the TEE core stays)
# lab_run MODE CONNS [THREADS] [SERVER-OPTION...]
#                             one hsbench run: server on eth0 in MODE, client
#                             in the client namespace; leaves server.txt,
#                             client.txt, client.json and teesim.txt in
#                             $LAB_OUT/<MODE>-<CONNS>/; LAB_CLIENT_TIMEOUT
#                             (seconds) is the client's --timeout
# teesim_stat NAME            a counter from /sys/kernel/debug/teesim/stats
# kv FILE NAME                the value of "NAME value" in a text file
# lab_wait SECONDS CMD...     run CMD every 0.1 s until it succeeds, at most
#                             SECONDS; the status of its last run
# lab_says FILE PATTERN [PID] FILE has a line matching PATTERN, or process
#                             PID has exited (for lab_wait)
# lab_ready FILE [PID]        FILE exists, or process PID has exited
# lab_flood_listener PORT     a listener on PORT that never accepts, in the
#                             background ($LAB_LISTENER); fails if it does
#                             not listen within 30 s
# lab_synflood PORT N         N SYNs at PORT from random ports of an address
#                             nobody answers for, from the client namespace
# lab_netstate                the lab network's state on both sides (links
#                             and their counters, neighbours, qdiscs, the
#                             NICs' interrupts, a connection): what a failed run
#                             leaves in net.txt beside its output
# lab_netsummary              one line per NIC: tx packets and what waits in
#                             its qdisc, and whether the client reaches the
#                             server (for a step that timed out)

lab_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_MODULES=${LAB_MODULES:-$lab_top/build/modules/$TP_KERNEL}
HSBENCH=$lab_top/lab/hsbench/hsbench
TEECLIENT=$lab_top/lab/teeclient/teeclient
LAB_OUT=${LAB_OUT:-/tmp/lab}
LAB_PORT=${LAB_PORT:-7000}
export lab_top LAB_MODULES HSBENCH TEECLIENT LAB_OUT LAB_PORT

# lab_load - the TEE core, then teesim with "$@"; on iTrustee
# (TP_SECURE=itrustee) tzsim's parameters NAME=VALUE instead
lab_load() {
	if [ "${TP_SECURE:-none}" = itrustee ]; then
		[ -c /dev/tc_ns_client ] && pgrep -x teecd >/dev/null || {
			echo "lab: iTrustee is not up (no /dev/tc_ns_client or teecd)" >&2
			return 1
		}
		local a
		for a in "$@"; do
			case $a in *=*) ;; *) echo "lab: $a: not NAME=VALUE" >&2; return 1 ;; esac
			echo "${a#*=}" >"/sys/module/tzsim/parameters/${a%%=*}" || return 1
		done
		return 0
	fi
	if [ "${TP_SECURE:-none}" = optee ]; then
		if [ $# -gt 0 ]; then
			echo "lab: teesim parameters ($*) on a real secure world (OP-TEE)" >&2
			return 1
		fi
		[ -e /dev/tee0 ] && [ -e /dev/teepriv0 ] && pgrep -x tee-supplicant >/dev/null || {
			echo "lab: OP-TEE is not up (no /dev/tee0, /dev/teepriv0 or tee-supplicant)" >&2
			return 1
		}
		return 0
	fi
	if [ ! -d /sys/class/tee ]; then
		if [ -f "$LAB_MODULES/lab/teecore/tee.ko" ]; then
			insmod "$LAB_MODULES/lab/teecore/tee.ko" || return 1
		else
			modprobe tee || return 1
		fi
	fi
	insmod "$LAB_MODULES/lab/teesim/teesim.ko" "$@"
}

# lab_unload - remove teesim
lab_unload() { case ${TP_SECURE:-none} in optee|itrustee) ;; *) rmmod teesim ;; esac; }

# kv - value of the line "NAME value" in FILE
kv() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }

# teesim_stat - one counter of teesim
teesim_stat() { kv /sys/kernel/debug/teesim/stats "$1"; }

# lab_wait - poll "$@" (after SECONDS) every 0.1 s until it succeeds
lab_wait() {
	local end=$((SECONDS + $1))

	shift
	while [ "$SECONDS" -lt "$end" ]; do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}

# lab_says - FILE has a line matching PATTERN, or PID (if given) is gone
lab_says() {
	grep -q "$2" "$1" 2>/dev/null && return 0
	[ -n "$3" ] && ! kill -0 "$3" 2>/dev/null
}

# lab_ready - FILE exists, or PID (if given) is gone
lab_ready() {
	[ -e "$1" ] && return 0
	[ -n "$2" ] && ! kill -0 "$2" 2>/dev/null
}

# lab_flood_listener - a listener that never accepts: every SYN a flood
# sends it from an address nobody answers for leaves a half-open request
# socket until the kernel gives up on it
lab_flood_listener() {
	local ready=$LAB_OUT/listening-$1

	mkdir -p "$LAB_OUT"
	rm -f "$ready"
	python3 -c "
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('$TP_SERVER_ADDR', $1)); s.listen(8)
open('$ready', 'w').close()
time.sleep(3600)" &
	LAB_LISTENER=$!
	lab_wait 30 lab_ready "$ready" $LAB_LISTENER
	[ -e "$ready" ] && kill -0 $LAB_LISTENER 2>/dev/null
}

# lab_synflood - N raw SYNs at PORT from the client namespace
lab_synflood() {
	ip netns exec "$TP_CLIENT_NETNS" python3 "$lab_top/tests/integration/synflood.py" \
		198.18.0.77 "$TP_SERVER_ADDR" "$1" "$2"
}

# lab_netstate - the state of both ends of the lab network, for a run that
# failed: a client that cannot reach the server says "No route to host"
# when neighbour discovery got no answer, and only these counters tell
# which side stopped sending or receiving (a NIC whose qdisc holds packets
# while its tx counter stands still has a stopped transmit queue)
lab_netstate() {
	local ns

	for ns in "" "$TP_CLIENT_NETNS"; do
		echo "== ${ns:-server} side"
		ip ${ns:+-n "$ns"} -s -s link show
		ip ${ns:+-n "$ns"} neigh show
		tc ${ns:+-n "$ns"} -s qdisc show 2>&1
	done
	echo "== interrupts"
	grep -E 'virtio|CPU' /proc/interrupts
	echo "== softnet_stat"
	cat /proc/net/softnet_stat
	echo "== a TCP connection from the client to port 9 (refused is good)"
	ip netns exec "$TP_CLIENT_NETNS" timeout 5 bash -c \
		"exec 3<>/dev/tcp/$TP_SERVER_ADDR/9" 2>&1
	echo "== after it"
	ip -s link show eth0
	tc -s qdisc show dev eth0
	ip -n "$TP_CLIENT_NETNS" -s link show eth1
	ip -n "$TP_CLIENT_NETNS" neigh show
}

# lab_netsummary - the lab network in three lines
lab_netsummary() {
	local ns dev tx

	for ns in "" "$TP_CLIENT_NETNS"; do
		if [ -z "$ns" ]; then
			dev=eth0
			tx=$(cat /sys/class/net/$dev/statistics/tx_packets)
		else
			dev=eth1
			tx=$(ip netns exec "$ns" cat /sys/class/net/$dev/statistics/tx_packets)
		fi
		echo "lab network: ${ns:-server} $dev: $tx tx packets, qdisc $(tc ${ns:+-n "$ns"} -s qdisc show dev $dev |
			awk '$1 == "backlog" { print $1, $2, $3; exit }')"
	done
	echo "lab network: client to server port 9: $(ip netns exec "$TP_CLIENT_NETNS" \
		timeout 5 bash -c "exec 3<>/dev/tcp/$TP_SERVER_ADDR/9" 2>&1 | tail -n 1 | sed 's/.*: //')"
}

# lab_run - one server/client run; returns the client's status
lab_run() {
	local mode=$1 conns=$2 threads=${3:-10} dir rc
	shift 3 2>/dev/null || shift $#
	dir=$LAB_OUT/$mode-$conns
	mkdir -p "$dir"
	rm -f "$dir/ready"
	[ -w /sys/kernel/debug/teesim/reset ] && echo 1 >/sys/kernel/debug/teesim/reset
	[ -w /sys/kernel/debug/tzsim/reset ] && echo 1 >/sys/kernel/debug/tzsim/reset
	"$HSBENCH" server --listen "$TP_SERVER_ADDR:$LAB_PORT" --mode "$mode" \
		--connections "$conns" --ready-file "$dir/ready" "$@" \
		>"$dir/server.txt" 2>&1 &
	local server=$!
	lab_wait 30 lab_ready "$dir/ready" $server
	if [ ! -f "$dir/ready" ]; then
		echo "lab: the hsbench server did not start:" >&2
		cat "$dir/server.txt" >&2
		kill $server 2>/dev/null
		return 1
	fi
	# LAB_CLIENT_FIFO=PRIO runs the client SCHED_FIFO at PRIO: a real
	# client is on another host, out of reach of a CPU hog on this one
	ip netns exec "$TP_CLIENT_NETNS" ${LAB_CLIENT_FIFO:+chrt -f "$LAB_CLIENT_FIFO"} "$HSBENCH" client \
		--connect "$TP_SERVER_ADDR:$LAB_PORT" --connections "$conns" \
		--threads "$threads" ${LAB_CLIENT_TIMEOUT:+--timeout "$LAB_CLIENT_TIMEOUT"} \
		--json >"$dir/client.json" 2>"$dir/client.err"
	rc=$?
	# The server stops by itself after CONNS handshakes; a failed client
	# leaves it waiting.
	if [ $rc != 0 ]; then
		kill $server 2>/dev/null
		lab_netstate >"$dir/net.txt" 2>&1
		# what the client said, for the failing check's output
		echo "lab_run $mode $conns: the hsbench client exited $rc:" >&2
		tail -n 5 "$dir/client.err" >&2
		grep -o '"completed":[0-9]*,"errors":[0-9]*[^}]*"timeouts":[0-9]*' \
			"$dir/client.json" >&2
	fi
	wait $server
	[ -r /sys/kernel/debug/teesim/stats ] && cat /sys/kernel/debug/teesim/stats >"$dir/teesim.txt"
	[ -r /sys/kernel/debug/tzsim/stats ] && cat /sys/kernel/debug/tzsim/stats >"$dir/tzsim.txt"
	return $rc
}

# for the integration tests' check, which runs a function in a new bash
[ -z "${BASH_VERSION:-}" ] || export -f lab_load lab_unload kv teesim_stat lab_wait lab_says lab_ready \
	lab_flood_listener lab_synflood lab_netstate lab_netsummary lab_run
