# SPDX-License-Identifier: GPL-2.0
# tap.sh - counting results on the host (sourced by tests/run and its
# helpers): every check prints "ok - NAME" or "not ok - NAME" (a skipped
# one "skip - NAME: REASON"); the counts make the last line, "N passed, N
# failed, N skipped". Logs go to $results.

# "cmd | tap_in" must count in this shell, not in a subshell that forgets
# its counts (job control is off in a script, as lastpipe needs)
shopt -s lastpipe
passed=0 failed=0 skipped=0

# result RC NAME... - count and print one result; RC 0 passes
result() {
	local rc=$1
	shift
	if [ "$rc" = 0 ]; then
		passed=$((passed + 1))
		echo "ok - $*"
	else
		failed=$((failed + 1))
		echo "not ok - $*"
	fi
}

# tap_in PREFIX - count a TAP stream from stdin, echoing it under PREFIX
# ("# test: X" switches to PREFIX/X); diagnostics under failures only
tap_in() {
	local prefix=$1 line show_diag=0
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# SKIP"*)
			skipped=$((skipped + 1))
			echo "skip - $prefix: ${line#ok * - }"
			show_diag=0 ;;
		"ok "*)
			passed=$((passed + 1))
			echo "ok - $prefix: ${line#ok * - }"
			show_diag=0 ;;
		"not ok "*)
			failed=$((failed + 1))
			echo "not ok - $prefix: ${line#not ok * - }"
			show_diag=1 ;;
		"# test: "*)
			prefix="${prefix%%/*}/${line#\# test: }" ;;
		"#"*)
			[ "$show_diag" = 1 ] && echo "    $line" ;;
		esac
	done
}

# step NAME LOG CMD... - a build-like command, its output kept in LOG
step() {
	local name=$1 log=$2
	shift 2
	if "$@" >"$log" 2>&1; then
		result 0 "$name"
	else
		result 1 "$name"
		tail -n 15 "$log" | sed 's/^/    /'
		return 1
	fi
}

# tap_script PREFIX LOG CMD... - run a TAP script into LOG and count it
tap_script() {
	local prefix=$1 log=$2
	shift 2
	"$@" >"$log" 2>&1
	tap_log "$prefix" "$log" $?
}

# tap_log PREFIX LOG RC - count LOG, a TAP script's output, RC its status:
# one that stopped before its plan (a crash, a missing kernel) fails too
tap_log() {
	local prefix=$1 log=$2 rc=$3
	tap_in "$prefix" <"$log"
	if ! grep -q '^1\.\.' "$log" || [ "$rc" -ge 128 ]; then
		result 1 "$prefix: $(basename "$log" .tap) ran to completion (status $rc)"
		tail -n 5 "$log" | sed 's/^/    /'
	fi
}

# The guests leave their host cores idle part of the time (a test waits
# for a simulated secure world, a netem delay, a stalled worker): checks
# that take CPU and no timing run beside them at nice 19, in those gaps,
# and are counted at the end.
bg_jobs=""
# bg_out NAME CMD... - CMD into $results/NAME.tap, its status into NAME.rc
bg_out() {
	local name=$1
	shift
	"$@" >"$results/$name.tap" 2>&1
	echo $? >"$results/$name.rc"
}
# bg_start JOB CMD... - CMD (a function too) at nice 19 in the background
bg_start() {
	local job=$1
	shift
	( renice -n 19 -p "$BASHPID" >/dev/null 2>&1; "$@" ) &
	bg_jobs="$bg_jobs $job:$!"
}
# bg_collect JOB NAME PREFIX [tap] - wait for JOB, then count NAME.tap as
# tap_in does; with "tap", as tap_script does
bg_collect() {
	local job=$1 name=$2 prefix=$3 j
	for j in $bg_jobs; do
		[ "${j%%:*}" = "$job" ] && wait "${j#*:}" 2>/dev/null
	done
	if [ "${4:-}" = tap ]; then
		tap_log "$prefix" "$results/$name.tap" "$(cat "$results/$name.rc" 2>/dev/null || echo 126)"
	else
		tap_in "$prefix" <"$results/$name.tap"
	fi
}
# bg_started JOB - was JOB started?
bg_started() { case " $bg_jobs " in *" $1:"*) return 0 ;; esac; return 1; }
