#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t85-stress - teeprobe under load and faults: insmod/rmmod cycles while
# hsbench runs hard-temp at full load and teeprobe record sessions open and
# close; teesim and the TEE core unloaded and reloaded under teeprobe; a CPU
# taken offline and back with the probes active; a SYN flood against a
# listener. The kernel's own checks (the lab kernel's KASAN, lockdep,
# kmemleak, atomic-sleep) are read by vm-run, which fails the guest on any
# report; this test adds a kmemleak scan at the end where the kernel has it.
#
# Sizes: TP_STRESS_CYCLES (default 10; make stress: 200) and TP_STRESS_SYNS
# (default 20000; make stress: 300000).
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
# A cycle under load takes some 9 s on 6.1's guest (19 s in earlier
# builds): make check runs 5, one of them under a record session (10 were
# 90 s of a cold make check that has no minute to spare); make stress 200
cycles=${TP_STRESS_CYCLES:-5}
syns=${TP_STRESS_SYNS:-20000}
# On the debug kernel an insmod/rmmod cycle under load takes 20-50 s, and
# make check's stock guests run one after the other: make check runs it on
# 6.1 and leaves the other kernels to make stress, which sets the sizes.
only_on_61 "stress on $TP_KERNEL" "make stress runs it on every kernel; make check on 6.1, to keep its time" TP_STRESS_CYCLES
out=/tmp/t85
export out
rm -rf $out
mkdir -p $out
cd $out || exit 1

[ -d /sys/module/teeprobe ] && rmmod teeprobe
[ -d /sys/module/teesim ] && rmmod teesim
check "teesim loads" lab_load

# --- insmod/rmmod cycles under load ------------------------------------------
port=7100
# The server lives as long as the test may (the suite's TEST_TIMEOUT): a
# fixed hour ran out in the middle of scripts/stress's 200 cycles on the
# lab kernel (some 100 minutes), and every client round after it failed.
"$HSBENCH" server --listen "$TP_SERVER_ADDR:$port" --mode hard-temp --duration "${TEST_TIMEOUT:-900}" \
	--ready-file $out/ready >$out/server.txt 2>&1 &
server=$!
lab_wait 30 lab_ready $out/ready $server
check "hsbench server (hard-temp) listens" test -f $out/ready
# clients: rounds of 50 connections from 10 threads until told to stop
(
	rounds=0 failed=0 start=$SECONDS
	while [ ! -f $out/stop ]; do
		ip netns exec "$TP_CLIENT_NETNS" "$HSBENCH" client --connect "$TP_SERVER_ADDR:$port" \
			--connections 50 --threads 10 >$out/client.txt 2>>$out/client.err || {
			failed=$((failed + 1))
			# when, and what the round's summary says
			{ echo "round $rounds at $((SECONDS - start)) s:"
			  grep -E '^(completed|errors)' $out/client.txt; } >>$out/client.err
		}
		rounds=$((rounds + 1))
	done
	echo "$rounds $failed" >$out/client.result
) &
clients=$!
# record sessions opened and closed all along (they fail while the module
# is out, and must say so and leave nothing behind)
(
	ok=0 refused=0
	while [ ! -f $out/stop ]; do
		if "$TEEPROBE" record -d 1 -q -o $out/rec.dat >>$out/record.log 2>&1; then
			ok=$((ok + 1))
		else
			refused=$((refused + 1))
		fi
		# a gap for rmmod: an open session holds the module
		sleep 2
	done
	echo "$ok $refused" >$out/record.result
) &
recorder=$!

# rmmod_retry - rmmod, retrying while a record session holds the module
# (enabling its events takes tens of seconds on the debug kernel)
rmmod_retry() { lab_wait 120 rmmod teeprobe 2>>$out/rmmod.err; }
# session_opened - wait (at most 60 s) until a record session has its
# tracefs instance, that is, holds the loaded module
session_opened() {
	lab_wait 60 sh -c "ls $TRACEFS/instances | grep -q '^teeprobe-record-'"
}
done_cycles=0 held=0 cycles_start=$SECONDS
for i in $(seq "$cycles"); do
	insmod "$ko" 2>>$out/insmod.err || break
	# every 5th cycle unloads under an open session (rmmod must wait
	# for it); the others at a random moment
	if [ $((i % 5)) = 0 ]; then
		session_opened && held=$((held + 1))
	else
		sleep "0.$((RANDOM % 5))"
	fi
	rmmod_retry || break
	done_cycles=$i
	# progress, so that a run stopped by its timeout still says how far
	# it got (a cycle takes 20-50 s on the debug kernel)
	[ $((i % 20)) != 0 ] ||
		echo "# $i of $cycles cycles in $((SECONDS - cycles_start)) s, $held unloaded under a session"
done
check_eq "$cycles insmod/rmmod cycles under hard-temp load and record sessions" "$cycles" "$done_cycles"
touch $out/stop
wait $recorder
wait $clients
read -r rounds failed <$out/client.result
check "the load went on: $rounds client rounds of 50 connections, none failed" \
	test "$rounds" -ge 1 -a "$failed" = 0 ||
	head -n 20 $out/client.err | sed 's/^/# client: /'
read -r rec_ok rec_refused <$out/record.result
echo "# record sessions: $rec_ok recorded, $rec_refused refused (module out); $held cycles unloaded under an open session"
check "every 5th cycle found a record session open and unloaded after it ($held of $((cycles / 5)))" \
	test "$held" = $((cycles / 5))
check "sessions that held the module recorded ($rec_ok >= $held)" test "$rec_ok" -ge "$held"
check "record sessions refused while the module was out said why" \
	sh -c "[ $rec_refused = 0 ] || grep -q 'module is not loaded' $out/record.log"
check_eq "no tracefs instance left behind by the sessions" 0 \
	"$(ls $TRACEFS/instances | grep -c '^teeprobe-record-')"
kill $server 2>/dev/null
wait $server
check "teeprobe loads again after the cycles" insmod "$ko"
check "and counts TEE calls" bash -c "'$TEECLIENT' sm3 616263 >/dev/null &&
	[ \"\$(tp_sum tee_stats calls all)\" -gt 0 ]"

# --- teesim and the TEE core unloaded and reloaded under teeprobe ------------
check "teesim unloads under teeprobe" rmmod teesim
if [ -f "$LAB_MODULES/lab/teecore/tee.ko" ] || modinfo tee >/dev/null 2>&1; then
	check "the TEE core unloads under teeprobe" rmmod tee
	sed 's/^/# /' $DEBUGFS/tee_probes
else
	skip "the TEE core unloads under teeprobe" "built into this kernel"
fi
check "... and they load again" lab_load
check "teeprobe follows the new TEE core's ioctls" bash -c "
	echo 1 >$DEBUGFS/reset && '$TEECLIENT' sm3 616263 >/dev/null &&
	[ \"\$(tp_sum tee_stats calls all)\" -gt 0 ]"

# --- CPU hotplug with the probes active --------------------------------------
if [ "$(nproc)" -ge 2 ] && [ -w /sys/devices/system/cpu/cpu1/online ]; then
	check "CPU 1 goes offline with teeprobe loaded" write_file /sys/devices/system/cpu/cpu1/online 0
	check "hsbench hard-temp on the remaining CPU" lab_run hard-temp 40 4
	check "CPU 1 comes back online" write_file /sys/devices/system/cpu/cpu1/online 1
	check "hsbench hard-temp on both CPUs again" lab_run hard-temp 40 4
	check "the NET_RX and TEE counters are still read" sh -c "
		grep -q '^all ' $DEBUGFS/netrx_stats && grep -q '^all ' $DEBUGFS/tee_stats"
else
	skip "CPU hotplug" "one CPU, or no hotplug in this kernel"
fi

# --- SYN flood against a listener ----------------------------------------------
rmmod teeprobe
check "teeprobe loads with a 1 s handshake timeout" insmod "$ko" tcp_timeout_s=1
flood_port=7200
lab_flood_listener $flood_port
check "a listener that never accepts, on port $flood_port" kill -0 "$LAB_LISTENER"
mod_size() { awk '$1 == "teeprobe" { print $2 }' /proc/modules; }
size_before=$(mod_size)
slab_before=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
# cookies - the kernel's SyncookiesSent counter
cookies() { awk '$1 == "TcpExt:" && !h { for (i = 2; i <= NF; i++) n[$i] = i; h = 1; next }
	$1 == "TcpExt:" { print $(n["SyncookiesSent"]) }' /proc/net/netstat; }
cookies_before=$(cookies)
# insegs - the kernel's Tcp InSegs: the segments TCP took in (during the
# flood, its SYNs alone: nothing else speaks TCP in the guest then)
insegs() { awk '$1 == "Tcp:" && !h { for (i = 2; i <= NF; i++) n[$i] = i; h = 1; next }
	$1 == "Tcp:" { print $(n["InSegs"]) }' /proc/net/snmp; }
insegs_before=$(insegs)
# From an address nobody answers for: the SYN/ACKs go nowhere, the request
# sockets stay half-open until the kernel gives up on them.
# The sender makes a few hundred SYNs/s on the debug kernel, thousands on
# the stock ones: the step's timeout grows with the flood.
STEP_TIMEOUT=$((60 + syns / 100)) \
	check "$syns SYNs from random ports at one listener (raw socket, client namespace)" \
	lab_synflood $flood_port "$syns"
# The receiving side can lag the sender by thousands of SYNs (the lab
# kernel with a vCPU per host thread): compare once the kernel's count has
# stopped moving.
cookies_settled() {
	local a

	a=$(cookies)
	sleep 2
	[ "$a" = "$(cookies)" ]
}
lab_wait 300 cookies_settled
stats=$out/flood.stats
cat $DEBUGFS/tcp_stats >$stats
cookies_after=$(cookies)
insegs_after=$(insegs)
tp_col tcp_probes symbol,nmissed | awk '$2 > 0 { print "# probe missed: " $0 }'
check_eq "no hook or probe hit missed under the flood" 0 "$(tp_sum tcp_probes nmissed)"
# col PORT COUNTER - a counter of the flood's "all PORT" line of tcp_stats
col() { tp_col "$stats" "$2" all "$1"; }
echo "# flood: syns $(col $flood_port syns) synacks $(col $flood_port synacks) syncookies $(col $flood_port syncookies) syn_drops $(col $flood_port syn_drops) overflows $(col $flood_port listen_overflows); $(grep '^# table_' $stats | tr '\n' ' ')"
check "the listener's SYNs are counted (>= 90 % of $syns sent)" \
	awk -v n="$(col $flood_port syns)" -v s="$syns" 'BEGIN { exit !(n >= 0.9 * s) }'
# Up to 64512 SYNs the flood's source ports are all different: none is
# taken as the retransmitted SYN of a request still half-open.
if [ "$syns" -le 64512 ]; then
	check_eq "every SYN TCP took in is counted: syns = the kernel's InSegs" \
		"$((insegs_after - insegs_before))" "$(col $flood_port syns)"
else
	skip "every SYN TCP took in is counted: syns = the kernel's InSegs" \
		"$syns SYNs reuse source ports: some meet a half-open request as its retransmitted SYN"
fi
check "the overflow shows: syncookies, SYN drops or overflows counted" \
	awk -v a="$(col $flood_port syncookies)" -v b="$(col $flood_port syn_drops)" \
	-v c="$(col $flood_port listen_overflows)" 'BEGIN { exit !(a + b + c > 0) }'
check_eq "syncookies = the kernel's SyncookiesSent" "$((cookies_after - cookies_before))" \
	"$(col $flood_port syncookies)"
check "the handshake table stayed within its size" \
	test "$(tp_key "$stats" table_in_use)" -le "$(tp_key "$stats" table_size)"
check_eq "the module's memory did not grow (/proc/modules)" "$size_before" "$(mod_size)"
slab_after=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
echo "# slab: $slab_before kB before, $slab_after kB after the flood"
kill $LAB_LISTENER
wait $LAB_LISTENER 2>/dev/null
sleep 4
check_eq "the table empties once the half-open handshakes time out" 0 \
	"$(tp_key tcp_stats table_in_use)"
check "rmmod teeprobe after the flood" rmmod teeprobe

# --- leaks -------------------------------------------------------------------------
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak >$out/kmemleak.txt
	check_eq "kmemleak: no leak in teeprobe" 0 "$(grep -c teeprobe $out/kmemleak.txt)"
else
	skip "kmemleak scan" "this kernel has no kmemleak"
fi
lab_unload
done_testing
