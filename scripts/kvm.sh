# SPDX-License-Identifier: GPL-2.0
# kvm.sh - can this host run a guest under KVM? Asked of QEMU itself (sourced,
# after scripts/cache.sh).
#
#   kvm_usable [CPU]   0 when QEMU with -accel kvm -cpu CPU (default max)
#                      runs a vCPU to a known point; otherwise 1, with the
#                      reason in KVM_WHY (what QEMU said)
#
# A /dev/kvm that opens proves little: under nested virtualization QEMU
# may abort setting the vCPU's MSRs ("failed to set MSR 0x10a"), or hang.
# The probe boots a 64 KiB firmware of its own whose first instruction
# (at the reset vector) writes to QEMU's isa-debug-exit port: QEMU exits
# with status 99 only when a vCPU really ran under KVM. It takes some 50 ms;
# the answer is kept for the run in the environment (TP_KVM_PROBE_<cpu>,
# inherited by the commands this shell starts).
# TP_KVM_DEVICE (default /dev/kvm) and TP_KVM_PROBE_TIMEOUT (seconds,
# default 10) exist for the tests.

# kvm_probe_rom FILE - write the probe's firmware: hlt everywhere, and at
# the reset vector (0xfff0 in a 64 KiB BIOS image) "mov al, 0x31; out
# 0xf4, al; hlt; jmp $-1"; isa-debug-exit turns 0x31 into status 99
kvm_probe_rom() {
	{
		head -c 65520 /dev/zero | tr '\0' '\364'
		printf '\260\061\346\364\364\353\375'
		head -c 9 /dev/zero | tr '\0' '\364'
	} >"$1"
}

# kvm_probe CPU - run the probe; print nothing and return 0 when the vCPU
# ran, else print the reason and return 1
kvm_probe() {
	local cpu=$1 dev=${TP_KVM_DEVICE:-/dev/kvm} limit=${TP_KVM_PROBE_TIMEOUT:-10}
	local dir rc said

	[ -c "$dev" ] || { echo "no $dev"; return 1; }
	[ -r "$dev" ] && [ -w "$dev" ] || { echo "$dev is not readable and writable for $(id -un)"; return 1; }
	command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing (scripts/deps)"; return 1; }
	dir=$(mktemp -d) || { echo "no temporary directory"; return 1; }
	kvm_probe_rom "$dir/probe.rom"
	timeout -k 2 "$limit" qemu-system-x86_64 -accel kvm -cpu "$cpu" -smp 1 -m 16 \
		-nodefaults -no-reboot -display none -bios "$dir/probe.rom" \
		-device isa-debug-exit,iobase=0xf4,iosize=4 </dev/null >"$dir/qemu.log" 2>&1
	rc=$?
	said=$(grep -v '^ *$' "$dir/qemu.log" | head -n 2 | tr '\n' ' ' | sed 's/ *$//')
	rm -rf "$dir"
	case $rc in
	99) return 0 ;;
	124|137) echo "QEMU -accel kvm -cpu $cpu ran no guest code within ${limit} s${said:+ ($said)}" ;;
	*) echo "QEMU -accel kvm -cpu $cpu failed (status $rc)${said:+: $said}" ;;
	esac
	return 1
}

# kvm_usable [CPU] - the probe's answer for CPU, run once per run
kvm_usable() {
	local cpu=${1:-max} var

	var=TP_KVM_PROBE_$(printf '%s' "$cpu" | tr -c 'A-Za-z0-9' '_')
	if [ -z "${!var+set}" ]; then
		printf -v "$var" '%s' "$(kvm_probe "$cpu" && echo usable)"
		export "${var?}"
	fi
	if [ "${!var}" = usable ]; then
		KVM_WHY=
		return 0
	fi
	KVM_WHY=${!var}
	return 1
}
