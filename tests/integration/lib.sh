# SPDX-License-Identifier: GPL-2.0
# lib.sh - TAP helpers for teeprobe's integration tests (sourced in a guest).
#
# Every check runs under a timeout and prints "ok N - name" or
# "not ok N - name" with the command's output as "# " lines; done_testing
# prints the plan, so nothing counts tests by hand.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TP_MODULES=${TP_MODULES:-$top/build/modules/$TP_KERNEL}
TEEPROBE=$top/tools/teeprobe
DEBUGFS=/sys/kernel/debug/teeprobe
TRACEFS=/sys/kernel/tracing
STEP_TIMEOUT=${STEP_TIMEOUT:-60}
export top TP_MODULES TEEPROBE DEBUGFS TRACEFS
# the lab's helpers, lab_wait among them
. "$top/lab/lab.sh"
tap_n=0
tap_failed=0
tap_last=$SECONDS
# this test's name for the times file, taken once (a fork per result costs
# some 0.2 s in an emulated guest)
tap_test=${0##*/}
tap_test=${tap_test%.sh}

# tap_result - print one result line; $1 is 0 for pass. A result that came
# 20 s or more after the one before it says so, for the slow guests' budget;
# in vm-run's guests every result's time goes to $TP_OUT/times too ("SECONDS
# TEST NAME", seconds since the epoch): tests/vm/test-times reads it.
tap_result() {
	local rc=$1
	shift
	tap_n=$((tap_n + 1))
	[ $((SECONDS - tap_last)) -lt 20 ] || echo "# $((SECONDS - tap_last)) s since the previous result"
	tap_last=$SECONDS
	[ -z "$TP_OUT" ] ||
		echo "$EPOCHSECONDS $tap_test $*" >>"$TP_OUT/times"
	if [ "$rc" = 0 ]; then
		echo "ok $tap_n - $*"
	else
		echo "not ok $tap_n - $*"
		tap_failed=$((tap_failed + 1))
	fi
}

# diag - print text as TAP diagnostics
diag() { sed 's/^/# /'; }

# run_step CMD... - run a command or shell function under the step timeout
run_step() {
	if declare -F "$1" >/dev/null; then
		export -f "$1"
		timeout -k 5 "$STEP_TIMEOUT" bash -c '"$@"' bash "$@"
	else
		timeout -k 5 "$STEP_TIMEOUT" "$@"
	fi
}

# check NAME CMD... - pass when CMD exits 0 within the step timeout
check() {
	local name=$1 out rc
	shift
	out=$(run_step "$@" 2>&1)
	rc=$?
	tap_result "$rc" "$name"
	[ "$rc" = 0 ] || { echo "$out" | tail -n 20 | diag; echo "# exit status $rc" ; }
	return "$rc"
}

# check_fails NAME PATTERN CMD... - pass when CMD fails (status 1..125,
# not a signal) and its output matches the extended regex PATTERN
check_fails() {
	local name=$1 pattern=$2 out rc
	shift 2
	out=$(run_step "$@" 2>&1)
	rc=$?
	if [ "$rc" -ge 1 ] && [ "$rc" -le 125 ] && echo "$out" | grep -Eq -e "$pattern"; then
		tap_result 0 "$name"
	else
		tap_result 1 "$name"
		{ echo "$out" | tail -n 20; echo "exit status $rc, wanted failure matching /$pattern/"; } | diag
	fi
}

# check_eq NAME WANT GOT - pass when the two strings are equal
check_eq() {
	if [ "$2" = "$3" ]; then
		tap_result 0 "$1"
	else
		tap_result 1 "$1"
		printf 'wanted: %s\ngot:    %s\n' "$2" "$3" | diag
	fi
}

# wait_recording ERRFILE - until teeprobe record says it records (enabling
# events patches kernel text: tens of seconds on the debug kernel)
wait_recording() {
	lab_wait 120 lab_says "$1" '^teeprobe: recording to ' && return 0
	cat "$1"
	return 1
}
export -f wait_recording

# skip NAME REASON - a test that cannot run here
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }

# done_testing - print the plan; exit status says whether all passed
done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" = 0 ]
}

# write_file FILE TEXT - write TEXT with one write(); prints the error
write_file() { printf '%s' "$2" >"$1"; }
