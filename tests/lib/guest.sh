# SPDX-License-Identifier: GPL-2.0
# guest.sh - one kernel's guest running the integration suite, and counting
# what it reported (sourced by tests/run, after tap.sh and cache.sh).
# $arm64_check lists the tests the arm64 guest runs (empty: all).

# guest_start K - boot kernel K's guest running the integration suite; its
# TAP into $results/guest-K.tap, vm-run's status into guest-K.rc
guest_start() {
	local k=$1 kernel=$1 out=$results/guest-$1 timeout=3000 tests=() t append= all=
	# The debug kernel runs user space some 15 times slower, 6.1's guest
	# ~17, the others ~10, on this 2-core machine. The limits bound a
	# hang, not a busy host: beside a CPU hog 6.1's took 29 min and the
	# lab's 47 when it ran the whole suite (limits of 30 and 50 then), and
	# a test's own timeouts catch a hang first.
	[ "$k" = lab ] && timeout=4500
	if [ "$k" = 6.1-arm64 ]; then
		for t in $arm64_check; do tests+=("$top/tests/integration/$t.sh"); done
	fi
	# The lab kernel's suite in two guests side by side (harness.rst):
	# "lab", kmemleak on, the module's life, its bad input, NET_RX's
	# counts and starvation signal, the fault walks (whose allocations
	# kmemleak judges) and KUnit; "lab-counts", booted with kmemleak=off,
	# the lab and the TEE and TCP hooks' counts ($lab_counts: KASAN and
	# lockdep still judge them; their tables are allocated at load and
	# per port, which the walks cover under kmemleak), a quarter to 40 %
	# faster so (harness.rst). make stress runs those under kmemleak too.
	if [ "$k" = lab ]; then
		all=1
		for t in "$top"/tests/integration/t*.sh; do
			case " $lab_counts " in *" $(basename "$t" .sh) "*) continue ;; esac
			tests+=("$t")
		done
	elif [ "$k" = lab-counts ]; then
		kernel=lab append=kmemleak=off
		for t in $lab_counts; do tests+=("$top/tests/integration/$t.sh"); done
	fi
	# the real secure world's guest: its own test (teesim's need teesim)
	[ "$k" = optee ] && tests=("$top/tests/integration/t35-optee.sh")
	# iTrustee's real tzdriver over tzsim: its own test
	case $k in itrustee|itrustee-*) tests=("$top/tests/integration/t36-itrustee.sh") ;; esac
	rm -rf "$out"
	# the lab's guest runs the whole suite but $lab_counts (TP_SUITE_ALL:
	# t12 and t88 run only when named)
	TP_APPEND="${TP_APPEND:-}${append:+ $append}" \
		"$top/tests/vm/vm-run" -q -k "$kernel" -t "$timeout" -o "$out" -- \
		env TP_SUITE_ALL=$all "$top/tests/integration/suite" "${tests[@]}" \
		>"$results/guest-$k.tap" 2>"$results/guest-$k.err"
	echo $? >"$results/guest-$k.rc"
}

# guest_rc NAME FILE - vm-run's status in FILE (126 when there is none)
# as a result of guest NAME: finished, booted, kernel log clean
guest_rc() {
	local name=$1 rc
	rc=$(cat "$2" 2>/dev/null || echo 126)
	case $rc in
	124) result 1 "guest $name: finished before the timeout" ;;
	125) result 1 "guest $name: kernel log clean (no oops, WARN, KASAN, lockdep, kmemleak)" ;;
	126) result 1 "guest $name: booted and ran the suite" ;;
	*) result 0 "guest $name: kernel log clean (no oops, WARN, KASAN, lockdep, kmemleak)" ;;
	esac
	[ "$rc" -lt 124 ]
}

# guest_cpus_start K N - kernel K's guest on N vCPUs running t12-cpus
# alone (issue 51: teeprobe's per-CPU tables and memory at the guest's
# CPU count; 44 to 61 s at 16 here); TAP into $results/guest-K-cpusN.tap
guest_cpus_start() {
	local k=$1 n=$2 name=guest-$1-cpus$2
	rm -rf "$results/$name"
	TP_VM_CPUS=$n "$top/tests/vm/vm-run" -q -k "$k" -t 600 -o "$results/$name" -- \
		env TP_CPUS="$n" "$top/tests/integration/suite" "$top/tests/integration/t12-cpus.sh" \
		>"$results/$name.tap" 2>"$results/$name.err"
	echo $? >"$results/$name.rc"
}

# guest_cpus_collect K N - count what that guest reported
guest_cpus_collect() {
	local name=guest-$1-cpus$2
	tap_in "guest $1 at $2 vCPUs" <"$results/$name.tap"
	guest_rc "$1 at $2 vCPUs" "$results/$name.rc" ||
		sed 's/^/    /' "$results/$name.err" | tail -n 12
}

# guest_collect K - count what kernel K's guest reported, its KUnit suites
# too (kunit.py parses their KTAP)
guest_collect() {
	local k=$1 out=$results/guest-$1 ktap suite src
	tap_in "guest $k" <"$results/guest-$k.tap"
	guest_rc "$k" "$results/guest-$k.rc" || sed 's/^/    /' "$results/guest-$k.err" | tail -n 12
	for ktap in "$out"/kunit/*.ktap; do
		[ -f "$ktap" ] || continue
		suite=$(basename "$ktap" .ktap)
		src=$(kernel_source_61)
		if python3 "$src/tools/testing/kunit/kunit.py" parse \
			--json="${ktap%.ktap}.json" "$ktap" >"${ktap%.ktap}.txt" 2>&1; then
			python3 "$top/tests/kunit/json2tap.py" "${ktap%.ktap}.json" |
				tap_in "kunit $k/$suite"
		else
			result 1 "kunit $k/$suite: kunit.py parse"
			tail -n 5 "${ktap%.ktap}.txt" | sed 's/^/    /'
		fi
	done
}

# newest_world - Debian unstable's newest kernel is a moving target: when
# its packages could not be fetched (scripts/kernel-world exits 3,
# scripts/deps said why) and no earlier one is kept, its leg is skipped
# with the reason (status 1); any other failure to make it is a failure of
# its build. Asked when its modules are to be built: scripts/deps may
# still be making it in the background (kernel-world waits for that).
newest_world() {
	"$top/scripts/kernel-world" newest >/dev/null 2>"$results/newest-world.err"
	[ $? != 3 ] && return 0
	skipped=$((skipped + 1))
	echo "skip - kernel newest: $(cat "$TEEPROBE_CACHE/kernels/newest.why" 2>/dev/null)"
	kernels=$(echo " $kernels " | sed 's/ newest / /; s/^ *//; s/ *$//')
	return 1
}
