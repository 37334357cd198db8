#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh - the benchmark is no test: this runs it once at a tiny size so
# that it cannot rot (bench/run --quick, every item in every configuration,
# its JSON complete), checks the refusals and the help of bench/run,
# bench/profile, bench/size and bench/close (bench/close once at 2 vCPUs
# for a second; bench/size's table on made-up
# results), the KVM branch (run where QEMU can use KVM, refused with
# the reason where not), and that bench/profile maps every item's
# instructions. No timing is asserted. TAP; tests/run runs it on a host
# core the guests leave free.
#
# Usage: bench.sh RESULTS_DIR
. "$(dirname "$0")/../integration/lib.sh"
. "$top/scripts/cache.sh"
. "$top/scripts/kvm.sh"
results=${1:?usage: bench.sh RESULTS_DIR}
mkdir -p "$results"

# run_bench_kvm - bench/run -a kvm: where QEMU cannot run a guest under KVM
# (scripts/kvm.sh's probe: no /dev/kvm, or one that opens but aborts or
# hangs a vCPU, as nested virtualization may) it is refused with QEMU's
# reason (it never falls back on the emulator); where the probe runs, it
# runs --quick. Either way, the summary of a KVM run (the --quick run's
# results without the instruction counter's lines) has items 1-5 and their
# targets alone, and check-json.py takes it, and refuses it with a count in
# it. tests/tools/kvm-probe.sh tests both branches on stub QEMUs.
run_bench_kvm() {
	local out=$results/bench-kvm name
	mkdir -p "$out"
	name="bench/run -a kvm runs under KVM, or says why this host has none; -a x is refused"
	if kvm_usable host; then
		echo "# KVM: QEMU runs a guest under KVM here: bench/run -a kvm --quick"
		if "$top/bench/run" -a kvm --quick --json >"$out/kvm.json" 2>"$out/kvm.err" &&
			python3 "$top/bench/check-json.py" "$out/kvm.json" >>"$out/kvm.err" 2>&1 &&
			grep -q '"accel":"kvm"' "$out/kvm.json"; then
			tap_result 0 "$name"
		else
			tap_result 1 "$name"
			tail -n 10 "$out/kvm.err" | diag
		fi
	elif echo "# KVM: none here: $KVM_WHY" &&
		! "$top/bench/run" -a kvm --quick >"$out/kvm.out" 2>&1 &&
		grep -qF -- "-a kvm: this host has no usable KVM: $KVM_WHY" "$out/kvm.out" &&
		! "$top/bench/run" -a x --quick >"$out/x.out" 2>&1 &&
		grep -q -- '-a: tcg or kvm' "$out/x.out"; then
		tap_result 0 "$name"
	else
		tap_result 1 "$name"
		head -n 3 "$out/kvm.out" "$out/x.out" | diag
	fi
	name="a KVM run's summary has items 1-5 and their targets, no instruction counts, and check-json.py takes it"
	local res=$top/build/bench/6.1/results.txt bad=0
	if [ ! -s "$res" ]; then
		bad=1
	else
		grep -vE '^(insns|hostcpu|ops|info accel) ' "$res" >"$out/results.txt"
		echo "info accel kvm" >>"$out/results.txt"
		awk -v json=0 -f "$top/bench/summary.awk" "$out/results.txt" >"$out/summary.txt" || bad=1
		awk -v json=1 -f "$top/bench/summary.awk" "$out/results.txt" >"$out/summary.json" || bad=1
		grep -q '^5\. analysis speed' "$out/summary.txt" || bad=1
		grep -q 'no instruction counter under KVM' "$out/summary.txt" || bad=1
		! grep -qE '^6\. instructions|by instructions|by QEMU' "$out/summary.txt" || bad=1
		python3 "$top/bench/check-json.py" "$out/summary.json" >"$out/check.txt" 2>&1 || bad=1
		# the same JSON with the TCG run's instruction counts is refused
		python3 -c 'import json, sys
k = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
k["handshake_insns"] = t["handshake_insns"]
json.dump(k, open(sys.argv[3], "w"))' "$out/summary.json" "$results/bench.json" "$out/mixed.json" || bad=1
		! python3 "$top/bench/check-json.py" "$out/mixed.json" >>"$out/check.txt" 2>&1 || bad=1
		grep -q 'handshake_insns: present under kvm' "$out/check.txt" || bad=1
	fi
	tap_result $bad "$name"
	[ $bad = 0 ] || tail -n 5 "$out/check.txt" 2>/dev/null | diag
}

# size_results PERCPU_BYTES SLAB_KIB - bench/size's results.txt for 2, 16
# and 64 CPUs whose slab and vmalloc do not move with the CPUs (SLAB_KIB
# and 376 KiB): the fit's growth per CPU is PERCPU_BYTES and the 144-byte
# static section, its fixed part SLAB_KIB + 376 KiB, exactly
size_results() {
	local n i
	for n in 2 16 64; do
		echo "$n info kernel 6.1.0-test"
		echo "$n info cpus $n"
		echo "$n info connections 200"
		echo "$n memory control_before module_bytes 0 sunreclaim_kb 9000 vmalloc_kb 7000 percpu_kb 500"
		echo "$n memory control module_bytes 0 sunreclaim_kb 9500 vmalloc_kb 7100 percpu_kb 500"
		for i in 1 2 3; do
			echo "$n memory before module_bytes 0 sunreclaim_kb $((9500 + i)) vmalloc_kb 7100 percpu_kb 500"
			echo "$n memory loaded module_bytes 200704 sunreclaim_kb $((9500 + i + $2)) vmalloc_kb 7476 percpu_kb 600"
			echo "$n module loaded percpu_bytes $1 ports 0"
		done
		echo "$n memory port module_bytes 200704 sunreclaim_kb 10000 vmalloc_kb 7476 percpu_kb 600"
		echo "$n module port percpu_bytes $(($1 + 10080)) ports 1"
		echo "$n memory unloaded module_bytes 0 sunreclaim_kb 9900 vmalloc_kb 7100 percpu_kb 600"
	done
	echo "0 percpu static_bytes 144"
}

# size_checks - bench/size's options refused before anything is built or
# booted, and its table's fit and verdict on made-up results
size_checks() {
	local c bad=0 out=$results/bench-size
	mkdir -p "$out"
	for c in 2 "2 2" "2 x" "2 0" "2 256" ""; do
		if "$top/bench/size" -c "$c" >"$out/c.out" 2>&1 || ! grep -q -- '-c' "$out/c.out"; then
			echo "# bench/size -c '$c': $(head -n 1 "$out/c.out")"
			bad=1
		fi
	done
	tap_result $bad "bench/size refuses -c 2, '2 2', '2 x', '2 0', '2 256' and ''"
	# 44616 + 144 bytes a CPU, 100 + 376 KiB fixed: met at rest; a port's
	# 10080 more: 53.6 KiB a CPU, met; 70000 bytes a CPU: not met
	size_results 44616 100 >"$out/met.txt"
	size_results 70000 100 >"$out/not-met.txt"
	bad=0
	awk -f "$top/bench/size.awk" "$out/met.txt" >"$out/met.out" &&
		awk -f "$top/bench/size.awk" "$out/not-met.txt" >"$out/not-met.out" || bad=1
	grep -Eq '^at rest +43\.7 +476\.0 +6071\.0 ' "$out/met.out" &&
		grep -Eq '^one port +53\.6 +476\.0 +7331\.0 ' "$out/met.out" &&
		grep -q '^  at rest:  met$' "$out/met.out" && grep -q '^  one port: met$' "$out/met.out" &&
		grep -q '^  at rest:  not met (68\.5 KiB per CPU > 64' "$out/not-met.out" &&
		grep -Eq '^ +64 one port +200704 +80080 ' "$out/not-met.out" || bad=1
	tap_result $bad "bench/size's table fits the growth per CPU and the fixed part, and judges issue 51's goal"
	[ $bad = 0 ] || head -n 30 "$out/met.out" "$out/not-met.out" | diag
}

# close_checks - bench/close's options refused before anything is built or
# booted; then one 2-vCPU guest, 1 s of each configuration: the table has
# its row, teeprobe.ko's closing instructions under b (10 closes of each
# CPU's window) above g's (60 s windows: none, or one where a minute's
# boundary fell in the second), and the goal judged. Counts, no timing.
close_checks() {
	local c bad=0 out=$results/bench-close
	mkdir -p "$out"
	for c in "-c x" "-c 0" "-c 256" "-c '2 2'" "-r 0" "-p x"; do
		if eval "\"\$top/bench/close\" $c" >"$out/refused.out" 2>&1 ||
			! grep -q -- "${c%% *}" "$out/refused.out"; then
			echo "# bench/close $c: $(head -n 1 "$out/refused.out")"
			bad=1
		fi
	done
	tap_result $bad "bench/close refuses -c x, 0, 256 and '2 2', -r 0 and -p x"
	local name="bench/close -c 2 -r 1 -p 1: teeprobe.ko's instructions closing the windows (b less g) counted, the goal judged"
	if "$top/bench/close" -c 2 -r 1 -p 1 >"$out/close.out" 2>&1 &&
		awk '$1 == 2 && NF == 5 && $2 > 0 { row = 1 }
			/^  goal \(issue 51\): .*: (met|NOT met)$/ { goal = 1 }
			END { exit !(row && goal) }' "$out/close.out"; then
		tap_result 0 "$name"
	else
		tap_result 1 "$name"
		tail -n 10 "$out/close.out" | diag
	fi
}

# run_bench - the benchmark is no test: it runs once at a tiny size so it
# cannot rot, on the host core the stock kernels' guests leave free; its
# JSON must hold every item with every configuration
run_bench() {
	if "$top/bench/run" --quick --json >"$results/bench.json" 2>"$results/bench.err" &&
		python3 "$top/bench/check-json.py" "$results/bench.json" >>"$results/bench.err" 2>&1; then
		tap_result 0 "bench/run --quick runs every item (no timing asserted)"
	else
		tap_result 1 "bench/run --quick runs every item (no timing asserted)"
		tail -n 10 "$results/bench.err" | diag
	fi
	# A window udpbench cannot keep, or none, is refused before anything
	# is built or booted, with the option named
	local cmd w bad=0
	for cmd in run profile; do
		for w in 0 00 4097 x; do
			if "$top/bench/$cmd" -w "$w" >"$results/bench-w.out" 2>&1 ||
				! grep -q -- '-w' "$results/bench-w.out"; then
				echo "# bench/$cmd -w $w: $(head -n 1 "$results/bench-w.out")"
				bad=1
			fi
		done
	done
	tap_result $bad "bench/run and bench/profile refuse -w 0, 00, 4097 and x"
	# bench/profile's bursts: 2 to 64 datagrams, the packet item one at a
	# time beside them
	bad=0
	for w in "-B 1" "-B 65" "-B x" "-B 8 -w 64" "-B 8 -I tee"; do
		# shellcheck disable=SC2086 # the option and its value
		if "$top/bench/profile" $w >"$results/bench-w.out" 2>&1 ||
			! grep -q -- '-B' "$results/bench-w.out"; then
			echo "# bench/profile $w: $(head -n 1 "$results/bench-w.out")"
			bad=1
		fi
	done
	tap_result $bad "bench/profile refuses -B 1, 65 and x, a burst beside -w 64, a burst without the packet item"
	# bench/profile's items: handshake, packets and tee, each once
	bad=0
	for w in x "packets x" "packets packets" ""; do
		if "$top/bench/profile" -I "$w" >"$results/bench-w.out" 2>&1 ||
			! grep -q -- '-I' "$results/bench-w.out"; then
			echo "# bench/profile -I '$w': $(head -n 1 "$results/bench-w.out")"
			bad=1
		fi
	done
	tap_result $bad "bench/profile refuses -I x, an item twice and no item"
	# -h describes every option each command takes
	local opt bad=0
	for opt in -k -r -n -p -w -i -m -f -T -c -a --quick --json; do
		"$top/bench/run" -h | grep -q -- "^  $opt " || { echo "# bench/run -h: no $opt"; bad=1; }
	done
	for opt in -k -r -n -p -w -B -i -I -C -t -o --quick; do
		"$top/bench/profile" -h | grep -q -- "^  $opt " || { echo "# bench/profile -h: no $opt"; bad=1; }
	done
	for opt in -k -c -l -n; do
		"$top/bench/size" -h | grep -q -- "^  $opt " || { echo "# bench/size -h: no $opt"; bad=1; }
	done
	for opt in -k -c -r -p; do
		"$top/bench/close" -h | grep -q -- "^  $opt " || { echo "# bench/close -h: no $opt"; bad=1; }
	done
	tap_result $bad "bench/run -h, bench/profile -h, bench/size -h and bench/close -h describe every option"
	size_checks
	close_checks
	run_bench_kvm
	# bench/profile: every item's profile adds up to the instruction
	# count (profile.py checks), and finds teeprobe.ko's code under (b)
	# alone, so that its addresses were mapped to the module's symbols.
	# Its packet stream keeps one datagram in flight (bench/run's keeps
	# 64), so that both ways of running item 2 are kept from rotting, and
	# runs again in bursts of 32 (-B 32, as make bench: bursts of 4 batch
	# too little for the split to be well posed), whose split of (b)'s
	# cost per NET_RX run and per packet must find a cost per run (its
	# instructions, not its time) and teeprobe's four NET_RX hooks among
	# the functions (a) never ran. No
	# item's measured interval may hold a clone or fork: the load programs
	# start their threads before it (hsbench's client, 10 threads, did
	# not, and each run's count held their stacks' page zeroing).
	local name="bench/profile --quick -B 32 maps every item's instructions, teeprobe.ko's under (b) alone, its NET_RX hooks per run, no clone or fork in a measured interval"
	if "$top/bench/profile" --quick -B 32 >"$results/profile.txt" 2>"$results/profile.err" &&
		awk '$1 == "(b)" && $2 == "per" && $3 == "NET_RX" && $4 == "run" && $5 > 0 { per_run = 1 }
			/^  \(b\) one datagram at a time: / { hooks = 1; next }
			/^  \([a-f]\) / && !/^  \([a-f]\) (per|call)/ { hooks = 0 }
			hooks && $2 == "[teeprobe]" && $1 ~ /^netrx_(softirq_(raise|entry|exit)|napi_poll)$/ && $4 > 0 {
				if (!($1 in hook))
					nhooks++
				hook[$1] = 1
			}
			END { exit !(per_run && nhooks == 4) }' "$results/profile.txt" &&
		awk '/^[a-z]+: instructions per / { item = $1 }
			$1 == "teeprobe.ko" && $2 == 0 && $3 > 0 { ok[item] = 1 }
			/clone\/fork system calls in the measured intervals:/ {
				n = split($0, f, /\) /)
				for (i = 2; i <= n; i++)
					if (f[i] + 0 == 0)
						zero[item]++
				if (zero[item] == n - 1 && n > 2)
					noclone[item] = 1
			}
			END { exit !(ok["handshake:"] && ok["packets:"] && ok["tee:"] &&
				noclone["handshake:"] && noclone["packets:"] && noclone["tee:"]) }' "$results/profile.txt"; then
		tap_result 0 "$name"
	else
		tap_result 1 "$name"
		tail -n 10 "$results/profile.err" "$results/profile.txt" | diag
	fi
}

run_bench
done_testing
