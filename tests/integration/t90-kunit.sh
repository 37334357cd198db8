#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t90-kunit - run teeprobe's KUnit suites as a module (kernels with KUnit).
# Each suite's KTAP results go to $TP_OUT/kunit/<suite>.ktap for the host
# to parse with the kernel's own kunit.py.
. "$(dirname "$0")/lib.sh"

ko=$TP_MODULES/module/tests/teeprobe_kunit.ko
if [ ! -d /sys/kernel/debug/kunit ] && ! grep -q '^CONFIG_KUNIT=y' "$KDIR/.config" 2>/dev/null; then
	skip "KUnit suites" "kernel $TP_KERNEL has no KUnit"
	done_testing
	exit
fi
# teeprobe_tee reaches tee.c's parsers in teeprobe.ko (EXPORT_SYMBOL_IF_KUNIT)
check "insmod teeprobe.ko" insmod "$TP_MODULES/module/teeprobe.ko"
check "insmod teeprobe_kunit.ko" insmod "$ko"
mkdir -p "$TP_OUT/kunit"
for d in /sys/kernel/debug/kunit/teeprobe_*; do
	cat "$d/results" >"$TP_OUT/kunit/$(basename "$d").ktap"
done
check "KUnit results were written for every suite" ls "$TP_OUT"/kunit/teeprobe_hist.ktap \
	"$TP_OUT"/kunit/teeprobe_tee_cmd.ktap "$TP_OUT"/kunit/teeprobe_offcpu.ktap \
	"$TP_OUT"/kunit/teeprobe_window.ktap "$TP_OUT"/kunit/teeprobe_tcp_table.ktap \
	"$TP_OUT"/kunit/teeprobe_tee.ktap
check "rmmod teeprobe_kunit" rmmod teeprobe_kunit
check "rmmod teeprobe" rmmod teeprobe
done_testing
