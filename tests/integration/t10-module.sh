#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t10-module - teeprobe.ko loads and unloads cleanly and creates its debugfs
# files and trace events; bad writes are refused; rmmod removes everything.
. "$(dirname "$0")/lib.sh"

ko=$TP_MODULES/module/teeprobe.ko
version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")

check "teeprobe check explains that the module is not loaded" true
"$TEEPROBE" check >/tmp/check.out 2>&1
rc=$?
check_eq "teeprobe check exits 1 without the module" 1 "$rc"
check "its message names the fix" grep -q "module is not loaded: insmod" /tmp/check.out
check "it finds in this kernel everything the module needs" grep -qx \
	"kernel: $(uname -r): 5.10 or newer, modules, kprobes; 8 of 8 tracepoints, 7 of 7 TCP functions" /tmp/check.out

# A kernel without a function the module hooks (here a module built to hook
# one no kernel has: build-modules' missing-hook variant) is refused at
# load, with the function named, and leaves nothing behind.
bad=$TP_MODULES/missing-hook/module/teeprobe.ko
if [ -f "$bad" ]; then
	check_fails "a kernel without a hooked TCP function: insmod refused" \
		"No such file|Unknown symbol|Invalid" insmod "$bad"
	check "... naming the function in dmesg" sh -c \
		"dmesg | tail -n 20 | grep -q 'teeprobe: tcp: cannot hook tp_no_such_function (error -2), not in this kernel or not traceable'"
	check "... leaving no debugfs directory, module or tracepoint probe" sh -c \
		"[ ! -e /sys/kernel/debug/teeprobe ] && [ ! -e /sys/module/teeprobe ]"
else
	skip "a kernel without a hooked TCP function is refused" "no missing-hook build for $TP_KERNEL (build-modules makes it for 6.12)"
fi

check "insmod teeprobe.ko" insmod "$ko"
check_eq "module is live" live "$(cat /sys/module/teeprobe/initstate 2>&1)"
check_eq "debugfs version names the module and the running kernel" \
	"teeprobe $version kernel $(uname -r)" "$(cat $DEBUGFS/version 2>&1)"
check_eq "debugfs version is read-only for root" 400 "$(stat -c %a $DEBUGFS/version)"
check_eq "debugfs reset is write-only for root" 200 "$(stat -c %a $DEBUGFS/reset)"
check "event teeprobe:teeprobe_reset is in tracefs" \
	test -f $TRACEFS/events/teeprobe/teeprobe_reset/format
check "teeprobe check reports ready" "$TEEPROBE" check
umount $TRACEFS
check "teeprobe check mounts tracefs when it is not mounted, as trace-cmd does" \
	sh -c "'$TEEPROBE' check >/dev/null && grep -q ' tracefs ' /proc/mounts"
mountpoint -q $TRACEFS || mount -t tracefs tracefs $TRACEFS

check "reset accepts 1" write_file $DEBUGFS/reset 1
bad_values=(0 2 -1 abc 1x "" " " 99999999999999999999 "1 1"
	"$(head -c 5000 /dev/zero | tr '\0' 7)")
# The lab kernel runs user space ~15x slower: a few values show the same
# parser under KASAN; the stock kernels try them all.
[ "$TP_KERNEL" = lab ] && bad_values=(0 abc 99999999999999999999)
for bad in "${bad_values[@]}"; do
	check_fails "reset refuses '${bad:0:20}' with EINVAL" "Invalid argument" \
		write_file $DEBUGFS/reset "$bad"$'\n'
done

# trace-cmd records the event and its reader and ours read the file back.
cd /tmp || exit 1
check "trace-cmd record -e teeprobe" trace-cmd record -q -e teeprobe -o /tmp/reset.dat \
	sh -c "for i in 1 2 3; do echo 1 > $DEBUGFS/reset; done"
trace-cmd report -i /tmp/reset.dat >/tmp/reset.txt 2>&1
check_eq "trace-cmd report shows three teeprobe_reset events" 3 \
	"$(grep -Ec 'teeprobe_reset: +generation=' /tmp/reset.txt)"
gens=$(sed -n 's/.*teeprobe_reset: *generation=\([0-9]*\).*/\1/p' /tmp/reset.txt | tr '\n' ' ')
check_eq "their generations follow the earlier reset" "2 3 4 " "$gens"
"$TEEPROBE" report -i /tmp/reset.dat --json >/tmp/report.json 2>&1
check "teeprobe report reads the same file" grep -q '"teeprobe_reset":3[,}]' /tmp/report.json
cp /tmp/reset.dat "$TP_OUT/reset.dat" 2>/dev/null
head -c 3000 /tmp/reset.dat >/tmp/truncated.dat
check_fails "teeprobe report rejects a truncated trace.dat" "not a readable trace.dat|is damaged" \
	"$TEEPROBE" report -i /tmp/truncated.dat
trace-cmd record -q -e irq:softirq_entry -o /tmp/other.dat sleep 0.2 >/dev/null 2>&1
check_fails "teeprobe report rejects a trace.dat without teeprobe events" "no teeprobe events" \
	"$TEEPROBE" report -i /tmp/other.dat

check "rmmod teeprobe" rmmod teeprobe
check "debugfs directory is gone" test ! -e $DEBUGFS
check "trace events are gone" test ! -e $TRACEFS/events/teeprobe

cycles() {
	local i
	for i in $(seq "$2"); do
		insmod "$1" && cat $DEBUGFS/version >/dev/null && rmmod teeprobe || return 1
	done
}
# a few here (t85 cycles under load, scripts/stress 200 times)
n=4
[ "$TP_KERNEL" = lab ] && n=3
check "$n insmod/rmmod cycles" cycles "$ko" "$n"
done_testing
