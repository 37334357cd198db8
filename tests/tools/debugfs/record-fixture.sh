#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# record-fixture - copy /sys/kernel/debug/teeprobe/ after one lab run, as
# the recorded directories here were made. Runs in a guest:
#
#   tests/vm/vm-run -k 6.1 -o OUT -- tests/tools/debugfs/record-fixture.sh NAME
#
# and leaves OUT/NAME/: teesim and teeprobe loaded, lab_run hard-temp 200 10
# (200 handshakes on port 7000, 10 client threads), every readable file.
set -e
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/lab/lab.sh"
name=${1:?usage: record-fixture.sh NAME}
out=${TP_OUT:?run it in a guest by tests/vm/vm-run}/$name
modules=${TP_MODULES:-$top/build/modules/$TP_KERNEL}
lab_load
insmod "$modules/module/teeprobe.ko"
lab_run hard-temp 200 10 >/dev/null
mkdir -p "$out"
for f in /sys/kernel/debug/teeprobe/*; do
	[ -r "$f" ] && [ "${f##*/}" != reset ] && cat "$f" >"$out/${f##*/}"
done
rmmod teeprobe
lab_unload
echo "recorded $(ls "$out" | wc -l) files in $out"
