# SPDX-License-Identifier: GPL-2.0
# host.sh - what bench/run and bench/profile do alike on the host (sourced,
# after scripts/cache.sh, with $top the source tree):
#
#   bench_prepare OUT KERNEL  what is missing installed (scripts/deps), a
#                             fresh OUT, the tools, the lab, the
#                             instruction counter and the modules built
#   bench_guest OUT KERNEL CLOCKSOURCE PLUGIN_ARGS -- CMD [ARG...]
#                             CMD in one guest boot under the instruction
#                             counter (insns.so,out=OUT/insns.txt,PLUGIN_ARGS),
#                             its output in OUT/guest.txt; with BENCH_ACCEL=kvm
#                             under KVM instead, and no counter (TCG's alone)
#   bench_kvm_usable          die unless QEMU runs a guest under KVM here
#                             (scripts/kvm.sh asks it), with QEMU's reason
#   bench_check_marks OUT     the guest made as many markers as QEMU counted
#   bench_counts OPTIONS VALUE...  every VALUE a positive whole number, or
#                             die naming OPTIONS
#   bench_window WINDOW       a packet window udpbench keeps (1 to 4096)
#   bench_cpu_counts "N..."   the guests' vCPU counts, 1 to 255, none twice
#                             (-c of bench/size and bench/close), echoed
#   bench_percpu_static KO    the bytes of KO's static per-CPU section
#                             (bench/memory.sh, which the guests' t12 uses too)
. "$top/scripts/kvm.sh"
. "$top/bench/memory.sh"

# bench_cpu_counts "N..." - echo the vCPU counts of -c, or die unless each
# is a whole number from 1 to 255 (QEMU's pc machine) and none comes twice
bench_cpu_counts() {
	local n seen=
	for n in $1; do
		case $n in ''|*[!0-9]*|0*|????*) die "-c: vCPU counts are whole numbers from 1 to 255" ;; esac
		[ "$n" -le 255 ] || die "-c: vCPU counts are whole numbers from 1 to 255 (QEMU's pc machine)"
		case " $seen " in *" $n "*) die "-c: $n CPUs twice" ;; esac
		seen="$seen $n"
	done
	echo "$seen"
}

# bench_counts OPTIONS VALUE... - die unless every VALUE is a positive whole
# number ("0", "00" and "" are not)
bench_counts() {
	local opts=$1 v

	shift
	for v in "$@"; do
		case $v in ''|*[!0-9]*) die "$opts take positive whole numbers" ;; esac
		[ $((10#$v)) -gt 0 ] || die "$opts take positive whole numbers"
	done
}

# bench_window WINDOW - die unless udpbench can keep WINDOW datagrams in
# flight (a positive whole number already)
bench_window() {
	[ $((10#$1)) -le 4096 ] || die "-w: from 1 to 4096 datagrams in flight (udpbench)"
}

# bench_prepare OUT KERNEL - OUT emptied, everything the guest runs built
bench_prepare() {
	local out=$1 kid=$2

	[ "$kid" != lab ] || die "the lab kernel is a debug kernel (KASAN, lockdep): its costs are not teeprobe's"
	rm -rf "$out"
	mkdir -p "$out"
	# What make bench's deps target does, for bench/run and bench/profile
	# run directly on a fresh machine (nothing is installed when all is)
	"$top/scripts/deps" || die "installing what the bench needs failed (scripts/deps)"
	make -C "$top/tools" >"$out/build.log" 2>&1 || die "building the tools failed ($out/build.log)"
	make -C "$top/lab" >>"$out/build.log" 2>&1 || die "building the lab failed ($out/build.log)"
	make -C "$top/bench/insns" >>"$out/build.log" 2>&1 ||
		die "building the instruction counter failed ($out/build.log)"
	"$top/scripts/build-modules" "$kid" >/dev/null
}

# bench_kvm_usable - die unless QEMU runs a vCPU under KVM with the CPU
# model bench_guest asks for (a /dev/kvm that opens is not enough: nested
# virtualization may abort or hang the guest): asked for KVM, the bench
# does not fall back on the emulator
bench_kvm_usable() {
	kvm_usable host ||
		die "-a kvm: this host has no usable KVM: $KVM_WHY (-a tcg, the default, runs anywhere)"
}

# bench_guest OUT KERNEL CLOCKSOURCE PLUGIN_ARGS -- CMD [ARG...] - CMD in a
# guest booted on CLOCKSOURCE, under the instruction counter (TCG), or
# under KVM with BENCH_ACCEL=kvm: real CPUs' timings, no counter
bench_guest() {
	local out=$1 kid=$2 clock=$3 plugin=$4 append qemu

	shift 5
	# tsc=reliable: the TSCs of single-threaded TCG's vCPUs all follow the
	# host's clock, but the kernel's boot-time check finds them
	# "unsynchronized" and falls back to the HPET.
	append="clocksource=$clock"
	[ "$clock" = tsc ] && append="$append tsc=reliable"
	# vm-run's QEMU settings, for this boot alone
	if [ "${BENCH_ACCEL:-tcg}" = kvm ]; then
		qemu=(TP_QEMU_ACCEL=kvm TP_QEMU_CPU=host TP_QEMU_PLUGIN=)
	else
		qemu=("TP_QEMU_PLUGIN=$top/bench/insns/insns.so,out=$out/insns.txt${plugin:+,$plugin}")
	fi
	env "${qemu[@]}" TP_APPEND="$append ${TP_APPEND:-}" "$top/tests/vm/vm-run" -q -k "$kid" -t 7200 -o "$out/guest" -- \
		"$@" >"$out/guest.txt" 2>&1 ||
		{ grep -v '^# ' "$out/guest.txt" | tail -n 20 >&2; die "the guest part failed (logs in $out)"; }
}

# bench_check_marks OUT - QEMU counted instructions, and logged as many
# markers as the guest says it made (a marker executed elsewhere would
# shift every span)
bench_check_marks() {
	local out=$1 marks

	[ -s "$out/insns.txt" ] || die "QEMU loaded no instruction counter ($out/guest/qemu.log)"
	marks=$(grep -c '^mark ' "$out/insns.txt")
	[ "$marks" = "$(awk '$1 == "info" && $2 == "marks" { print $3 }' "$out/guest.txt")" ] ||
		die "the guest made other markers than QEMU counted ($out/insns.txt, $out/guest.txt)"
}
