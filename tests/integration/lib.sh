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
# A step's timeout and the lab client's wait for a reply bound a hang, not
# a run's speed, so they stand far above what a busy host takes: in a
# make check beside a CPU hog and two more guests (load 7 to 9 on 2 cores)
# steps on the debug kernel ran past the 60 s these were, and hsbench's
# clients past their default 10 s wait (handshakes of 7.4 s p50, 11.6 s max)
STEP_TIMEOUT=${STEP_TIMEOUT:-300}
LAB_CLIENT_TIMEOUT=${LAB_CLIENT_TIMEOUT:-120}
export top TP_MODULES TEEPROBE DEBUGFS TRACEFS LAB_CLIENT_TIMEOUT
# the lab's helpers, lab_wait among them
. "$top/lab/lab.sh"
# the debugfs tables read by their columns' names: tp_col, tp_sum, tp_key
. "$top/tests/lib/debugfs.sh"
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
	# A step that timed out in the lab: is the network still there?
	[ "$rc" != 124 ] || [ -z "${TP_CLIENT_NETNS:-}" ] || lab_netsummary 2>&1 | diag
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
		return 1
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

# on_61 [VAR] - whether make check's one-kernel checks run here: on the 6.1
# guest, or where the variable named VAR is set (make stress sets them for
# every kernel). The tools' logic is the same on every kernel; make check
# runs it on 6.1 alone to keep its time (Documentation/harness.rst).
on_61() { [ "$TP_KERNEL" = 6.1 ] || [ -n "${1:+${!1:-}}" ]; }

# only_on_61 WHAT WHY [VAR] - unless on_61 VAR: WHAT skipped for WHY, and
# the test ends
only_on_61() {
	on_61 "${3:-}" && return 0
	skip "$1" "$2"
	done_testing
	exit 0
}

# write_file FILE TEXT - write TEXT with one write(); prints the error
write_file() { printf '%s' "$2" >"$1"; }

# tc_variants FILE WINDOWS - trace-cmd report's variants on a teeprobe
# session FILE whose plain report printed WINDOWS teeprobe_netrx_window
# events: -R and -t print as many, --stat names the instance, --cpu N
# summed over the CPUs as many. Two bugs of trace-cmd 3.1.6 (still in 3.4)
# hit every file with a buffer instance, teeprobe's and plain
# "trace-cmd record -B"'s alike (Documentation/teeprobe-record.rst):
# tracecmd_iterate_events_multi() hands the callback the CPU's index among
# all the handles' CPUs, so the instance's CPU N is --cpu C+N (C: the
# top buffer's CPUs, the "cpus=" line); and tracecmd_buffer_instance_handle()
# copies the parent's handle->filter, which tracecmd_close() then frees
# twice: -F dies of SIGSEGV (status 139) after its output. Each is
# skipped, said so, while trace-cmd shows it; the workaround is checked.
tc_variants() {
	local file=$1 want=$2 opt got cpu cpus rc txt
	txt=$(mktemp)
	for opt in -R -t; do
		timeout 120 trace-cmd report $opt "$file" >"$txt" 2>/dev/null
		rc=$?
		check_eq "trace-cmd report $opt: exit 0 and the $want window events" \
			"0 $want" "$rc $(grep -c 'teeprobe_netrx_window:' "$txt")"
	done
	check "trace-cmd report --stat: exit 0 and the instance's buffer" sh -c \
		"trace-cmd report --stat '$file' | grep -q '^Buffer: teeprobe-record-'"
	cpus=$(trace-cmd report "$file" 2>/dev/null | sed -n 's/^cpus=//p' | head -n 1)
	got=0
	for cpu in $(seq 0 $((cpus - 1))); do
		got=$((got + $(trace-cmd report --cpu $cpu "$file" 2>/dev/null | grep -c 'teeprobe_netrx_window:')))
	done
	if [ "$got" = "$want" ]; then
		check_eq "trace-cmd report --cpu N: the window events of each CPU" "$want" "$got"
	else
		skip "trace-cmd report --cpu N: the window events of each CPU" \
			"trace-cmd's --cpu counts the top buffer's $cpus CPUs first"
		got=0
		for cpu in $(seq 0 $((cpus - 1))); do
			got=$((got + $(trace-cmd report --cpu $((cpus + cpu)) "$file" 2>/dev/null | grep -c 'teeprobe_netrx_window:')))
		done
		check_eq "trace-cmd report --cpu $cpus+N (the documented workaround): the window events of each CPU" \
			"$want" "$got"
	fi
	# Into a pipe or a file the crash loses what stdio still buffered (the
	# last lines); line-buffered (a terminal, stdbuf -oL) nothing is lost.
	# in a shell of its own, whose notice of the crash goes to /dev/null
	rc=$(bash -c 'timeout 120 trace-cmd report -F teeprobe_netrx_window "$1" >"$2" 2>/dev/null
		echo $?' bash "$file" "$txt" 2>/dev/null)
	got=$(grep -c 'teeprobe_netrx_window:' "$txt")
	if [ "$rc" = 139 ] && trace-cmd 2>&1 | grep -Eq 'version 3\.[0-4][. ]'; then
		skip "trace-cmd report -F: exit 0 and the $want window events" \
			"trace-cmd <= 3.4 frees -F's filter twice on files with a buffer instance"
		got=$(stdbuf -oL trace-cmd report -F teeprobe_netrx_window "$file" 2>/dev/null |
			grep -c 'teeprobe_netrx_window:')
		check_eq "... line-buffered (stdbuf -oL) it prints the $want window events, then crashes" \
			"$want" "$got"
	else
		check_eq "trace-cmd report -F: exit 0 and the $want window events" "0 $want" "$rc $got"
	fi
	rm -f "$txt"
}
