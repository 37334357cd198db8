# SPDX-License-Identifier: GPL-2.0
# lab.sh - helpers for running the TEE lab inside a guest (sourced).
#
# lab_load [TEESIM-PARAM...]  load the TEE core (the kernel's own, or the
#                             out-of-tree tee.ko built from linux-source)
#                             and teesim with the given parameters
# lab_unload                  remove teesim (the TEE core stays)
# lab_run MODE CONNS [THREADS] [SERVER-OPTION...]
#                             one hsbench run: server on eth0 in MODE, client
#                             in the client namespace; leaves server.txt,
#                             client.txt, client.json and teesim.txt in
#                             $LAB_OUT/<MODE>-<CONNS>/
# teesim_stat NAME            a counter from /sys/kernel/debug/teesim/stats
# kv FILE NAME                the value of "NAME value" in a text file

lab_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_MODULES=${LAB_MODULES:-$lab_top/build/modules/$TP_KERNEL}
HSBENCH=$lab_top/lab/hsbench/hsbench
TEECLIENT=$lab_top/lab/teeclient/teeclient
LAB_OUT=${LAB_OUT:-/tmp/lab}
LAB_PORT=${LAB_PORT:-7000}
export lab_top LAB_MODULES HSBENCH TEECLIENT LAB_OUT LAB_PORT

# lab_load - the TEE core, then teesim with "$@"
lab_load() {
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
lab_unload() { rmmod teesim; }

# kv - value of the line "NAME value" in FILE
kv() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }

# teesim_stat - one counter of teesim
teesim_stat() { kv /sys/kernel/debug/teesim/stats "$1"; }

# lab_run - one server/client run; returns the client's status
lab_run() {
	local mode=$1 conns=$2 threads=${3:-10} dir i rc
	shift 3 2>/dev/null || shift $#
	dir=$LAB_OUT/$mode-$conns
	mkdir -p "$dir"
	rm -f "$dir/ready"
	echo 1 >/sys/kernel/debug/teesim/reset 2>/dev/null
	"$HSBENCH" server --listen "$TP_SERVER_ADDR:$LAB_PORT" --mode "$mode" \
		--connections "$conns" --ready-file "$dir/ready" "$@" \
		>"$dir/server.txt" 2>&1 &
	local server=$!
	for i in $(seq 300); do
		[ -f "$dir/ready" ] && break
		kill -0 $server 2>/dev/null || break
		sleep 0.1
	done
	if [ ! -f "$dir/ready" ]; then
		echo "lab: the hsbench server did not start:" >&2
		cat "$dir/server.txt" >&2
		kill $server 2>/dev/null
		return 1
	fi
	ip netns exec "$TP_CLIENT_NETNS" "$HSBENCH" client \
		--connect "$TP_SERVER_ADDR:$LAB_PORT" --connections "$conns" \
		--threads "$threads" --json >"$dir/client.json" 2>"$dir/client.err"
	rc=$?
	# The server stops by itself after CONNS handshakes; a failed client
	# leaves it waiting.
	[ $rc = 0 ] || kill $server 2>/dev/null
	wait $server
	[ -r /sys/kernel/debug/teesim/stats ] && cat /sys/kernel/debug/teesim/stats >"$dir/teesim.txt"
	return $rc
}
