#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report-check.sh - vm-run's answer to a kernel report, checked with a
# made-up one: the guest command writes what tests/integration/suite and a
# WARN would write to the kernel log, and exits 0. vm-run must exit 125,
# name the test that was running and print the report whole, up to its
# "---[ end trace" line and no further; and that it refuses a vCPU count
# it cannot boot (TP_VM_CPUS). TAP on stdout.
#
# Usage: tests/vm/report-check.sh [KERNEL]   (default 6.1; a stock kernel
# boots in some 10 s)
top=$(cd "$(dirname "$0")/../.." && pwd)
k=${1:-6.1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The lines, each one kernel log record; "after" follows the report's end.
cmd='for l in "suite: test t99-made-up.sh starts" \
	"WARNING: CPU: 0 PID: 1 at made/up.c:1 made_up_fn+0x1/0x2" \
	"Call Trace: made_up_caller+0x3/0x4" \
	"---[ end trace 0000000000000000 ]---" \
	"made-up line after the report"; do echo "$l" >/dev/kmsg; done; exit 0'
"$top/tests/vm/vm-run" -q -k "$k" -t 300 -o "$out/run" -- sh -c "$cmd" \
	>"$out/stdout" 2>"$out/stderr"
rc=$?
n=0
check() {
	n=$((n + 1))
	if eval "$2"; then
		echo "ok $n - vm-run $k: $1"
	else
		echo "not ok $n - vm-run $k: $1"
		sed 's/^/# /' "$out/stderr" | tail -n 15
	fi
}
check "exits 125 on a kernel report after the command's status 0 (got $rc)" '[ "$rc" = 125 ]'
check "says the kernel reported a problem" \
	'grep -q "^vm-run: the kernel reported a problem" "$out/stderr"'
check "names the test that was running" \
	'grep -qx "vm-run: while test t99-made-up.sh ran:" "$out/stderr"'
check "prints the report from its first line to its end" \
	'grep -q "Call Trace: made_up_caller" "$out/stderr" &&
	 grep -q "end trace 0000000000000000" "$out/stderr"'
check "and no further" '! grep -q "made-up line after the report" "$out/stderr"'
# TP_VM_CPUS: a whole number from 1 to 256 (255 on x86: QEMU's pc
# machine), refused with the setting named before anything boots
bad_cpus=0
for c in 0 01 x 2x -1 257 256; do
	if TP_VM_CPUS=$c timeout 60 "$top/tests/vm/vm-run" -q -k "$k" -t 60 -o "$out/cpus" -- true \
		>"$out/cpus.out" 2>&1 || ! grep -q "TP_VM_CPUS=.*$c" "$out/cpus.out" ||
		[ -e "$out/cpus/console.log" ]; then
		echo "# TP_VM_CPUS=$c: $(head -n 1 "$out/cpus.out")"
		bad_cpus=1
	fi
done
check "TP_VM_CPUS=0, 01, x, 2x, -1, 257 and (on x86) 256 are refused, naming the setting, before a boot" \
	'[ "$bad_cpus" = 0 ]'
echo "1..$n"
