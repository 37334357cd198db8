# SPDX-License-Identifier: GPL-2.0
# items.sh - the runs of bench/guest.sh's items 1-3, also bench/profile's
# (sourced in a guest, after lab/lab.sh and configs.sh). Each prints its rate;
# run with LAB_INSN_MARK set, its load program executes the instruction
# counter's marker just before and just after the interval it measures.
#
#   run_handshake  connections/s of hsbench soft, 10 client threads, $conns
#   run_packets    echoes/s of udpbench, $packet_window datagrams in flight
#                  (default 64), $packet_secs
#   run_burst      echoes/s of udpbench sending bursts of $packet_burst
#                  datagrams, each once the last came back, $packet_secs
#   run_tee        invokes/s of teeclient's INVOKE loop, $invokes
#   run_windows    datagrams/s of udpbench tick: every CPU sends itself one
#                  datagram each NET_RX window ($WINDOW_MS, teeprobe's
#                  default), $packet_secs; its unit is a window of one CPU
#   run_units ITEM the work of ITEM's last run (handshakes, echoes, invokes)
#   run_items CONFIG ROUND  the items of $BENCH_ITEMS (default: the three
#                  above) under CONFIG, as rate and span lines
#   bench_lab_up   the guest made ready for them

UDPBENCH=$lab_top/lab/udpbench/udpbench
UDP_PORT=7300

# bench_lab_up - no address-space randomisation, no teeprobe.ko, and the
# lab's TEE loaded at zero simulated cost
bench_lab_up() {
	# No address-space randomisation: under TCG each new process's code,
	# mapped at new addresses, is translated afresh (QEMU's "info jit":
	# some 37,000 blocks for each hsbench run of 1000 handshakes, a few
	# hundred without), a cost hardware does not have, which also fills the
	# emulator's code buffer until it is flushed and everything is
	# translated again.
	echo 0 >/proc/sys/kernel/randomize_va_space
	[ -d /sys/module/teeprobe ] && rmmod teeprobe
	# Zero simulated cost: the TEE item measures the ioctl path itself,
	# and bench/run's hard-reg handshakes in item 5 are quick.
	lab_load secure_threads=4 switch_us=0 invoke_us=0 shm_us=0 shm_cpu_us=0
}

# progress - a line on stderr with the guest's uptime
progress() { echo "# $(cut -d' ' -f1 /proc/uptime) s: $*" >&2; }

# run_units ITEM - the work the last run of ITEM did
run_units() {
	case $1 in
	handshake) echo "$conns" ;;
	packets|burst) sed -n 's/.*"echoes":\([0-9]*\).*/\1/p' "$BENCH_TMP/udp.json" ;;
	tee) echo "$invokes" ;;
	windows) sed -n 's/.*"cpus":\([0-9]*\),"seconds":\([0-9.]*\).*/\1 \2/p' "$BENCH_TMP/tick.json" |
		awk -v ms="$WINDOW_MS" '{ printf "%d\n", $1 * int($2 * 1000 / ms + 0.5) }' ;;
	esac
}

# The NET_RX window of run_windows: teeprobe.ko's default window_ms
WINDOW_MS=100

# run_handshake - connections/s of one hsbench run
run_handshake() {
	lab_run soft "$conns" 10 >&2 || return 1
	sed -n 's/.*"connections_per_s":\([0-9.]*\).*/\1/p' "$LAB_OUT/soft-$conns/client.json"
}

# run_packets - echoes/s of one udpbench stream ($packet_window datagrams in
# flight: with 1, each datagram has its NET_RX runs to itself)
run_packets() {
	udp_stream --window "${packet_window:-64}"
}

# run_burst - echoes/s of one udpbench stream of bursts of $packet_burst
# datagrams, sent together, the next once all came back: as many packets
# for each NET_RX run as the emulated NICs hand over together
run_burst() {
	udp_stream --window "$packet_burst" --burst
}

# udp_stream SEND_OPTION... - echoes/s of one udpbench stream for
# $packet_secs, its JSON in $BENCH_TMP/udp.json
udp_stream() {
	local out=$BENCH_TMP/udp.json server rc=0
	rm -f "$BENCH_TMP/udp.ready"
	"$UDPBENCH" echo --listen "$TP_SERVER_ADDR:$UDP_PORT" \
		--ready-file "$BENCH_TMP/udp.ready" >/dev/null &
	server=$!
	lab_wait 30 lab_ready "$BENCH_TMP/udp.ready" $server &&
		test -f "$BENCH_TMP/udp.ready" &&
		ip netns exec "$TP_CLIENT_NETNS" "$UDPBENCH" send --json \
			--to "$TP_SERVER_ADDR:$UDP_PORT" --seconds "$packet_secs" \
			"$@" >"$out" || rc=1
	kill $server
	wait $server
	[ $rc = 0 ] && sed -n 's/.*"echoes_per_s":\([0-9.]*\).*/\1/p' "$out"
}

# run_tee - invokes/s of one teeclient loop
run_tee() {
	local start end
	start=$(date +%s%N)
	"$TEECLIENT" loop "$invokes" >/dev/null || return 1
	end=$(date +%s%N)
	awk -v n="$invokes" -v ns=$((end - start)) 'BEGIN { printf "%.1f\n", n / (ns / 1e9) }'
}

# run_windows - datagrams/s of one udpbench tick run: each CPU's NET_RX
# window has one datagram's work, at a phase of its own, so that most
# windows are still open at their end and the window work closes them
# (issue 51: what closing the windows costs per CPU)
run_windows() {
	local out=$BENCH_TMP/tick.json
	"$UDPBENCH" tick --every "$WINDOW_MS" --seconds "$packet_secs" --json >"$out" || return 1
	sed -n 's/.*"seconds":\([0-9.]*\).*"datagrams":\([0-9]*\).*/\2 \1/p' "$out" |
		awk '{ printf "%.1f\n", $1 / $2 }'
}

# netrx_runs - NET_RX runs so far, all CPUs (/proc/softirqs)
netrx_runs() {
	awk '$1 == "NET_RX:" { for (i = 2; i <= NF; i++) n += $i } END { print n + 0 }' /proc/softirqs
}

# run_items CONFIG ROUND - the items of $BENCH_ITEMS (default handshake,
# packets and tee; the TEE item only under a, b and d),
# a "rate ITEM CONFIG ROUND PER_SECOND" and a "span ITEM CONFIG ROUND
# FIRST_MARK LAST_MARK UNITS NETRX_RUNS" line each (NETRX_RUNS: the NET_RX
# runs of the whole run, its start and end included: how the guest batched
# the packets); $marks counts the markers so far
run_items() {
	local c=$1 r=$2 item rate runs
	for item in ${BENCH_ITEMS:-handshake packets tee}; do
		[ "$item" = tee ] && [ "$c" != a ] && [ "$c" != b ] && [ "$c" != d ] && continue
		runs=$(netrx_runs)
		rate=$(LAB_INSN_MARK=1 "run_$item") || rate=
		runs=$(($(netrx_runs) - runs))
		marks=$((marks + 2))
		[ -n "$rate" ] || { echo "bench: $item: round $r of configuration $c failed" >&2; return 1; }
		echo "rate $item $c $r $rate"
		echo "span $item $c $r $((marks - 1)) $marks $(run_units "$item") $runs"
		progress "round $r, $c, $item: $rate/s"
	done
}
