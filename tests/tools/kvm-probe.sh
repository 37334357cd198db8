#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kvm-probe.sh - scripts/kvm.sh's answer to "can QEMU run a guest under KVM
# here?", and what bench/run -a kvm and vm-run do with it, on any machine:
# stub QEMUs that abort as nested KVM does ("failed to set MSR 0x10a"),
# hang, or reach the probe's exit, and a missing /dev/kvm. Then the real
# QEMU, whose answer picks make check's KVM branch for the bench.
. "$(dirname "$0")/../integration/lib.sh"
. "$top/scripts/cache.sh"
. "$top/scripts/kvm.sh"

tmp=$(mktemp -d)
export tmp	# with_stub runs in check's own shell
trap 'rm -rf "$tmp"' EXIT
# The probe's answer is kept in the environment for a run: each case here
# starts without it
unset "${!TP_KVM_PROBE_@}"

# stub NAME BODY - a qemu-system-x86_64 in $tmp/NAME that logs its arguments
# to $tmp/NAME.calls, one call a line, then runs BODY
stub() {
	mkdir -p "$tmp/$1"
	cat >"$tmp/$1/qemu-system-x86_64" <<EOF
#!/bin/bash
echo "\$*" >>"$tmp/$1.calls"
$2
EOF
	chmod +x "$tmp/$1/qemu-system-x86_64"
}
stub abort 'echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3183: kvm_buf_set_msrs: Assertion failed." >&2
kill -ABRT $$'
# (it keeps its pid: the check below looks for this process, not for any
# "sleep 60" on a machine where others run tests)
stub hang 'echo $$ >"$tmp/hang.pid"
exec sleep 60'
# reaches the probe's exit only if it was given the probe's firmware, and
# the debug-exit port, with its first instruction writing 0x31 there
stub works 'case "$*" in *"-bios "*"isa-debug-exit,iobase=0xf4"*) ;; *) exit 1 ;; esac
args="$*"; rom=${args#*-bios }; rom=${rom%% *}
[ "$(od -An -tx1 -j 65520 -N 4 "$rom" | tr -d " ")" = b031e6f4 ] || exit 1
exit 99'
# with_stub NAME CMD... - CMD with stub NAME first in PATH, no kept answer
with_stub() {
	local name=$1
	shift
	env -u TP_KVM_PROBE_host -u TP_KVM_PROBE_max PATH="$tmp/$name:$PATH" \
		TP_KVM_DEVICE="${DEV:-/dev/null}" TP_KVM_PROBE_TIMEOUT=2 "$@"
}
# probe NAME [CPU] - kvm_usable under stub NAME: "usable" or KVM_WHY
probe() {
	with_stub "$1" bash -c '. "$0/scripts/cache.sh"; . "$0/scripts/kvm.sh"
		if kvm_usable $1; then echo usable; else echo "$KVM_WHY"; fi' "$top" "${2:-}"
}
# /dev/null is a character device anyone may open: it stands for a /dev/kvm
# that opens, so that QEMU (the stub) decides
check_eq "a /dev/kvm that is missing is no KVM, and says so" "no /nonexistent/kvm" \
	"$(DEV=/nonexistent/kvm probe works)"
check_eq "the probe's firmware sends 0x31 to the debug-exit port at the reset vector" \
	usable "$(probe works)"
why=$(probe abort host)
check "a QEMU that aborts setting the vCPU's MSRs is no KVM, and QEMU's words are the reason" \
	sh -c 'echo "$1" | grep -q "^QEMU -accel kvm -cpu host failed (status 134): .*failed to set MSR 0x10a to 0x69"' sh "$why"
echo "# $why"
why=$(probe hang)
check "a QEMU that hangs is no KVM, after the probe's timeout" \
	sh -c 'echo "$1" | grep -q "^QEMU -accel kvm -cpu max ran no guest code within 2 s"' sh "$why"
check "the hung stub was killed" sh -c "test -s '$tmp/hang.pid' && ! kill -0 \$(cat '$tmp/hang.pid') 2>/dev/null"

rm -f "$tmp"/*.calls
check_eq "the answer is kept for the run: asked twice, QEMU is started once" 1 \
	"$(with_stub abort bash -c '. "$0/scripts/cache.sh"; . "$0/scripts/kvm.sh"
		kvm_usable host; bash -c "$(declare -f kvm_usable kvm_probe kvm_probe_rom); kvm_usable host"
		wc -l <"$1"' "$top" "$tmp/abort.calls")"

# bench/run -a kvm refuses before building or booting anything
rm -f "$tmp"/*.calls
check_fails "bench/run -a kvm refuses where QEMU cannot run a KVM guest, with QEMU's reason" \
	'-a kvm: this host has no usable KVM: QEMU -accel kvm -cpu host failed \(status 134\): .*MSR 0x10a' \
	with_stub abort "$top/bench/run" -a kvm --quick
check_eq "... having started QEMU for the probe alone" 1 "$(grep -c . "$tmp/abort.calls")"
check_fails "bench/run -a x is refused" '-a: tcg or kvm' "$top/bench/run" -a x --quick

# vm-run with TP_QEMU_ACCEL=kvm: refused (126, the reason) or booted with kvm
rm -f "$tmp"/*.calls
with_stub abort env TP_QEMU_ACCEL=kvm "$top/tests/vm/vm-run" -q -k 6.1 -o "$tmp/vm-abort" -- true \
	>"$tmp/vm-abort.out" 2>&1
check_eq "vm-run TP_QEMU_ACCEL=kvm where KVM cannot run a guest: the guest did not run (126)" 126 $?
check "... the reason is QEMU's" grep -q \
	'TP_QEMU_ACCEL=kvm: this host has no usable KVM: QEMU -accel kvm -cpu max failed (status 134): .*MSR 0x10a' \
	"$tmp/vm-abort.out"
check "... and no guest was started, under TCG or KVM" sh -c "! grep -q -- '-kernel' '$tmp/abort.calls'"
with_stub works env TP_QEMU_ACCEL=kvm TP_QEMU_CPU=host "$top/tests/vm/vm-run" -q -k 6.1 -t 10 \
	-o "$tmp/vm-works" -- true >"$tmp/vm-works.out" 2>&1
check "vm-run TP_QEMU_ACCEL=kvm where the probe runs: the guest is booted with -accel kvm -cpu host" \
	grep -q -- '^-accel kvm -cpu host .*-kernel ' "$tmp/works.calls"

# The real QEMU on this host: which branch make check's bench takes
if kvm_usable host; then
	echo "# this host: QEMU runs a guest under KVM (-cpu host)"
	check "the real QEMU runs the probe under KVM here: a second probe agrees" \
		bash -c '. "$0/scripts/cache.sh"; . "$0/scripts/kvm.sh"; unset TP_KVM_PROBE_host; kvm_usable host' "$top"
else
	echo "# this host: no usable KVM: $KVM_WHY"
	check "the real QEMU's answer here is 'no KVM', with a reason, and a second probe agrees" \
		bash -c '. "$0/scripts/cache.sh"; . "$0/scripts/kvm.sh"; unset TP_KVM_PROBE_host
			! kvm_usable host && [ -n "$KVM_WHY" ]' "$top"
fi
done_testing
