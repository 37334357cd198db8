#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t20-lab - the TEE lab: teesim over the kernel's real TEE core, its crypto
# against known vectors, each hsbench mode's ioctl sequence against
# teesim's own counters, bad parameters, unloading while in use.
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

conns=${TP_LAB_CONNECTIONS:-200}
[ "$TP_KERNEL" = lab ] && conns=${TP_LAB_CONNECTIONS:-40}
workers=10
calls=4

# Bad parameters first, while teesim is not loaded.
if [ ! -d /sys/class/tee ]; then
	if [ -f "$LAB_MODULES/lab/teecore/tee.ko" ]; then
		check "the TEE core loads as an out-of-tree tee.ko" insmod "$LAB_MODULES/lab/teecore/tee.ko"
	else
		check "the kernel's own tee module loads" modprobe tee
	fi
fi
bad_params=(secure_threads=65 secure_threads=-1 switch_us=abc switch_us=10001
	invoke_us=100001 shm_us=1e3 pool_kib=1 pool_kib=99999999999)
# The lab kernel runs user space ~15x slower: two cases there.
[ "$TP_KERNEL" = lab ] && bad_params=(secure_threads=65 switch_us=abc)
for bad in "${bad_params[@]}"; do
	check_fails "teesim refuses $bad" "Invalid (argument|parameters)" \
		insmod "$LAB_MODULES/lab/teesim/teesim.ko" "$bad"
	check "... and says why in dmesg" sh -c "dmesg | tail -n 5 | grep -q 'teesim: ${bad%%=*}=.*must be a number from'"
done
check "teesim is not loaded after refused parameters" test ! -e /sys/module/teesim

check "teesim loads over the TEE core" lab_load
check "it registered a TEE device through the TEE core" \
	sh -c 'readlink -f /sys/class/tee/tee0/device | grep -q teesim'
check "/dev/tee0 goes through mainline tee_ioctl" grep -qw tee_ioctl /proc/kallsyms
"$TEECLIENT" version >/tmp/version.txt 2>&1
check "TEE_IOC_VERSION reports GlobalPlatform support" grep -q "gp yes" /tmp/version.txt
check "TEE_IOC_VERSION reports shm registration support" grep -q "reg_mem yes" /tmp/version.txt

# Known vectors of GB/T 32905 (SM3) and GB/T 32907 (SM4), computed by the TA.
abc=616263
abcd16=$(printf '61626364%.0s' $(seq 16))
sm4key=0123456789abcdeffedcba9876543210
for mem in reg alloc; do
	check_eq "SM3(abc) in the TA, $mem memory" \
		66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0 \
		"$("$TEECLIENT" sm3 --mem $mem $abc 2>&1)"
	check_eq "SM4 standard vector in the TA, $mem memory" \
		681edf34d206965e86b3e94f536e4246 \
		"$("$TEECLIENT" sm4 --mem $mem $sm4key $sm4key 2>&1)"
done
check_eq "SM3 of 64 bytes (abcd x 16) in the TA" \
	debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732 \
	"$("$TEECLIENT" sm3 "$abcd16" 2>&1)"
check_eq "SM3 of nothing in the TA" \
	1ab21d8355cfa17f8e61194831e81a8f22bec8c728fefb747ed035eb5082aa2b \
	"$("$TEECLIENT" sm3 "" 2>&1)"
check "pool memory was allocated and freed" \
	sh -c '[ "$(grep -w shm_pool_allocs /sys/kernel/debug/teesim/stats | cut -d" " -f2)" -ge 2 ] &&
	       [ "$(grep -w shm_pool_allocs /sys/kernel/debug/teesim/stats | cut -d" " -f2)" = \
	         "$(grep -w shm_pool_frees /sys/kernel/debug/teesim/stats | cut -d" " -f2)" ]'
check_eq "an unknown TA command returns TEE_ERROR_NOT_SUPPORTED from the TA" \
	"ret=0xffff000a origin=4" "$("$TEECLIENT" invoke-raw 999 2>&1)"
check_eq "a session to another UUID returns TEE_ERROR_ITEM_NOT_FOUND" \
	"ret=0xffff0008 origin=3" "$("$TEECLIENT" open-bad-uuid 2>&1)"
"$TEECLIENT" sm4 $sm4key 00112233445566778899aabbccddee >/dev/null 2>&1
check_eq "SM4 of 15 bytes is a usage error" 2 $?

# Each mode's ioctl sequence: hsbench's own counts = teesim's counts = the
# sequence the mode is defined by.
modes="hard-temp hard-reg soft"
# On the slow lab kernel t30-tee covers hard-reg's counts.
[ "$TP_KERNEL" = lab ] && modes="hard-temp soft"
for mode in $modes; do
	if ! check "hsbench $mode: $conns connections from the client namespace" \
		lab_run "$mode" "$conns" "$workers"; then
		sed 's/^/# /' "$LAB_OUT/$mode-$conns/client.err" | tail -n 5
		continue
	fi
	d=$LAB_OUT/$mode-$conns
	srv=$d/server.txt
	check_eq "$mode: every handshake verified by the client" \
		"\"completed\":$conns,\"errors\":0" \
		"$(grep -o '"completed":[0-9]*,"errors":[0-9]*' "$d/client.json")"
	check_eq "$mode: the server completed $conns handshakes" "$conns" "$(kv "$srv" handshakes_completed)"
	check_eq "$mode: $calls crypto calls per handshake" $((calls * conns)) "$(kv "$srv" crypto_calls)"
	if [ "$mode" = soft ]; then
		check_eq "soft: no call reached the TEE" 0 "$(kv "$d/teesim.txt" secure_calls)"
		continue
	fi
	shm=$workers
	[ "$mode" = hard-temp ] && shm=$((calls * conns))
	for pair in "invoke ioctl_invoke $((calls * conns))" \
		"shm_register ioctl_shm_register $shm" \
		"shm_unregister ioctl_shm_close $shm" \
		"open_session ioctl_open_session $workers" \
		"close_session ioctl_close_session $workers"; do
		set -- $pair
		check_eq "$mode: $1 calls: teesim = hsbench = $3" "$3 $3" \
			"$(kv "$d/teesim.txt" "$1") $(kv "$srv" "$2")"
	done
	check_eq "$mode: the TA computed every call without error" "$((calls * conns)) 0" \
		"$(( $(kv "$d/teesim.txt" invoke_sm3) + $(kv "$d/teesim.txt" invoke_sm4) )) $(kv "$d/teesim.txt" invoke_errors)"
done

# A session pins teesim: rmmod is refused until the client is gone.
rm -f /tmp/hold.ready
"$TEECLIENT" hold 60 --ready-file /tmp/hold.ready >/dev/null 2>&1 &
holder=$!
lab_wait 10 lab_ready /tmp/hold.ready $holder
check "a client holds a session" test -f /tmp/hold.ready
check_fails "rmmod teesim is refused while the session is open" "in use" rmmod teesim
check_eq "the session is still counted as open" 1 "$(teesim_stat sessions_open)"
kill $holder
wait $holder
check_eq "the client closed its session" 0 "$(teesim_stat sessions_open)"
check "rmmod teesim works once the client is gone" rmmod teesim
check "teesim loads again" lab_load
check "and serves a call" "$TEECLIENT" sm3 $abc
check "rmmod teesim" rmmod teesim
done_testing
