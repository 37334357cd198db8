#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# debugfs-reader.sh - tests/lib/debugfs.sh, the reader the integration
# tests and bench/guest.sh take teeprobe's debugfs tables through, on the
# build host, on the recorded files (debugfs/*): known values, every column
# of every table against its position, the same values from copies whose
# columns come in another order, the "# key value" lines, and the errors
# (a column the header does not name: a message and status 2, no value).
. "$(dirname "$0")/../integration/lib.sh"

fixtures=$top/tests/tools/debugfs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DEBUGFS=$fixtures/6.1-loglin

# header FILE - the names of FILE's columns (its last "#" line before the
# first row), one a line
header() { awk '/^#/ { h = $0; next } { n = split(h, f, " "); for (i = 2; i <= n; i++) print f[i]; exit }' "$1"; }

# by_position FILE N - column N of the rows of FILE's table, as positions
# give it
by_position() { awk -v n="$2" '/^#/ { if (rows) exit; next } { rows = 1; print $n }' "$1"; }

# reorder FILE KEYS OUT - FILE with its columns after the first KEYS (those
# that name a row) in reverse order, header and rows alike
reorder() {
	local h

	h=$(awk '/^#/ { h = NR; next } { print h; exit }' "$1")
	awk -v h="$h" -v k="$2" '
		# line OFF - the fields to OFF + k in place, the rest reversed
		function line(off,    i, s) {
			s = $1
			for (i = 2; i <= off + k; i++)
				s = s " " $i
			for (i = NF; i > off + k; i--)
				s = s " " $i
			return s
		}
		NR == h { print line(1); next }
		/^#/ || NR < h { print; next }
		{ print line(0) }' "$1" >"$3"
}

# --- values known from the recorded files ---------------------------------------
check_eq "tp_col: netrx_stats' runs of all CPUs" 2058 "$(tp_col netrx_stats runs all)"
check_eq "tp_col: ... of each CPU (KEY [0-9]+), a line each" "1088 970" \
	"$(tp_col netrx_stats runs '[0-9]+' | paste -sd ' ')"
check_eq "tp_col: tee_stats' INVOKE calls of all CPUs (two keys)" 800 "$(tp_col tee_stats calls all INVOKE)"
check_eq "tp_col: ... of each CPU" "449 351" "$(tp_col tee_stats calls '[0-9]+' INVOKE | paste -sd ' ')"
check_eq "tp_col: tee_probes' state and error of two symbols (after '# preset tee')" \
	"attached 0 | not-found -2" \
	"$(tp_col tee_probes state,error tee_ioctl) | $(tp_col tee_probes state,error optee_smccc_smc)"
check_eq "tp_col: the rows a regular expression selects (teesim_.*), several columns" \
	"teesim_wait_for_secure_thread attached 501" "$(tp_col tee_probes symbol,state,calls 'teesim_.*')"
check_eq "tp_col: a KEY is matched whole (tee_shm selects no tee_shm_* row)" "" \
	"$(tp_col tee_probes calls tee_shm)"
check_eq "tp_col: tcp_stats' accepted of port 7000 on all CPUs" 200 "$(tp_col tcp_stats accepted all 7000)"
check_eq "tp_col: tcp_phases' p99_ns of a phase" 294911 "$(tp_col tcp_phases p99_ns 7000 syn_synack)"
check_eq "tp_col: tee_threads' comm and calls of a thread (two keys)" "hsbench 226" \
	"$(tp_col tee_threads comm,calls 199 201)"
check_eq "tp_col: hooks' tracepoints of a part" "softirq_raise softirq_entry softirq_exit napi_poll" \
	"$(tp_col hooks tracepoint netrx | paste -sd ' ')"
check_eq "tp_col: FILE as a path (a copy)" 800 "$(tp_col "$DEBUGFS/tee_stats" calls all INVOKE)"
check_eq "tp_sum: tee_stats' calls of every command on all CPUs" 1621 "$(tp_sum tee_stats calls all)"
check_eq "tp_sum: several columns at once (raises, runs, packets)" $((3271 + 2058 + 2077)) \
	"$(tp_sum netrx_stats raises,runs,packets all)"
check_eq "tp_sum: no row selected is 0" 0 "$(tp_sum tee_stats calls all NO_SUCH_CMD)"
check_eq "tp_sum: tee_hist's INVOKE samples (all) = tee_stats' INVOKE calls" \
	"$(tp_col tee_stats calls all INVOKE)" "$(tp_sum tee_hist all INVOKE)"
check_eq "tp_sum: tcp_hist's syn_synack samples = tcp_phases' count" \
	"$(tp_col tcp_phases count 7000 syn_synack)" "$(tp_sum tcp_hist all 7000 syn_synack)"
check_eq "tp_sum: netrx_hist's inline_delay samples = netrx_stats' inline_delay_count" \
	"$(tp_col netrx_stats inline_delay_count all)" "$(tp_sum netrx_hist all inline_delay)"

# --- "# key value" lines ------------------------------------------------------------
check_eq "tp_key: netrx_stats' window_ms" 100 "$(tp_key netrx_stats window_ms)"
check_eq "tp_key: tcp_stats' table_size, tcp_phases' phases_lost, tee_hist's hist_sub_bits" "2048 0 3" \
	"$(tp_key tcp_stats table_size) $(tp_key tcp_phases phases_lost) $(tp_key tee_hist hist_sub_bits)"
check_eq "tp_key: tee_probes' preset, before the header" tee "$(tp_key tee_probes preset)"
check_eq "tp_key: memory's percpu_bytes (no header: 'name value' lines)" 51768 "$(tp_key memory percpu_bytes)"
out=$(tp_key tcp_stats no_such_key)
check_eq "tp_key: a key the file does not have: nothing, status 1" "1 ''" "$? '$out'"

# --- a symbol with its clones' suffix ------------------------------------------------
sed 's/^tee_ioctl /tee_ioctl.constprop.0 /' "$DEBUGFS/tee_probes" >"$tmp/tee_probes"
echo "tee_ioctlXconstprop ioctl failed -12 0 0 0 0" >>"$tmp/tee_probes"
check_eq "tp_col: KEY 'tee_ioctl(\\..*)?' selects tee_ioctl.constprop.0, not tee_ioctlXconstprop" \
	attached "$(tp_col "$tmp/tee_probes" state 'tee_ioctl(\..*)?')"
check_eq "... KEY tee_ioctl alone selects neither" "" "$(tp_col "$tmp/tee_probes" state tee_ioctl)"

# --- errors: never a value ----------------------------------------------------------------
out=$(tp_col tee_stats bogus all 2>"$tmp/err")
check_eq "tp_col: a column the header does not name: status 2, nothing on stdout" "2 ''" "$? '$out'"
check "... a message on stderr naming the file and the column" \
	grep -q "6.1-loglin/tee_stats: no column bogus " "$tmp/err"
out=$(tp_sum tee_stats bogus all 2>"$tmp/err")
check_eq "tp_sum: the same: status 2, no 0 printed" "2 ''" "$? '$out'"
check "... a message on stderr naming the file and the column" \
	grep -q "6.1-loglin/tee_stats: no column bogus " "$tmp/err"
out=$(tp_col tee_stats calls,bogus all 2>"$tmp/err")
check_eq "tp_col: one unknown column among several: status 2, nothing on stdout" "2 ''" "$? '$out'"
out=$(tp_sum netrx_stats runs 2>/dev/null)
check_eq "tp_sum: a known column is no error (every row, no KEY)" "0 $((1088 + 970 + 2058))" "$? $out"
out=$(tp_col memory percpu_bytes 2>"$tmp/err")
check_eq "tp_col: a file without a header (memory): status 2, nothing on stdout" "2 ''" "$? '$out'"
check "... a message naming the file" grep -q "6.1-loglin/memory: no header line" "$tmp/err"
out=$(tp_col "$tmp/no_such_file" calls 2>/dev/null)
check_eq "tp_col: a file that is not there: status 2, nothing on stdout" "2 ''" "$? '$out'"
out=$(tp_col tee_stats "" all 2>"$tmp/err")
check_eq "tp_col: no column named: status 2, nothing on stdout" "2 ''" "$? '$out'"
# a table without rows (tee_stats after a reset): its header is its
# widest "#" line, before its "# key value" lines
mkdir "$tmp/empty"
printf '%s\n# untracked 0\n' "$(head -n 1 "$DEBUGFS/tee_stats")" >"$tmp/empty/tee_stats"
check_eq "tp_sum: a table without rows sums to 0" 0 "$(DEBUGFS=$tmp/empty tp_sum tee_stats calls all)"
out=$(DEBUGFS=$tmp/empty tp_sum tee_stats bogus all 2>/dev/null)
check_eq "... and still knows its columns: an unknown one is status 2" "2 ''" "$? '$out'"
# an older tcp_stats, with the phases' table after its own
check_eq "tp_col: the table ends at its rows' first '#' line (6.1-hard-temp's tcp_stats)" "0 1 all" \
	"$(tp_col "$fixtures/6.1-hard-temp/tcp_stats" cpu '.*' | paste -sd ' ')"

# --- every column of every table: the reader = its position ---------------------------
for dir in "$fixtures"/*/; do
	for f in "$dir"*; do
		[ "$(head -c 1 "$f")" = "#" ] || continue
		bad=
		i=0
		for c in $(header "$f"); do
			i=$((i + 1))
			[ "$(tp_col "$f" "$c")" = "$(by_position "$f" "$i")" ] || bad="$bad $c"
		done
		check_eq "$(basename "$dir")/${f##*/}: each of its $i columns reads as its position" "" "$bad"
	done
done

# --- the columns in another order: the same values -----------------------------------
mkdir "$tmp/reordered"
for fk in tee_probes:1 tee_stats:2 tee_hist:1 tee_threads:2 netrx_stats:1 netrx_hist:1 \
	hooks:1 tcp_probes:1 tcp_stats:2 tcp_phases:2 tcp_hist:2; do
	f=${fk%:*}
	reorder "$DEBUGFS/$f" "${fk#*:}" "$tmp/reordered/$f"
	bad=
	for c in $(header "$DEBUGFS/$f"); do
		[ "$(tp_col "$DEBUGFS/$f" "$c" '.*')" = "$(tp_col "$tmp/reordered/$f" "$c" '.*')" ] || bad="$bad $c"
	done
	# a table of two columns, one its key, has nothing to reorder
	if [ "$f" != hooks ] && cmp -s "$DEBUGFS/$f" "$tmp/reordered/$f"; then
		bad="$bad (not reordered)"
	fi
	check_eq "$f with its columns reordered: every column reads the same" "" "$bad"
done
DEBUGFS=$tmp/reordered
check_eq "reordered: netrx_stats' runs, all and each CPU" "2058 1088 970" \
	"$(tp_col netrx_stats runs all) $(tp_col netrx_stats runs '[0-9]+' | paste -sd ' ')"
check_eq "reordered: tee_stats' INVOKE calls, all CPUs' calls of every command" "800 1621" \
	"$(tp_col tee_stats calls all INVOKE) $(tp_sum tee_stats calls all)"
check_eq "reordered: tee_probes' state of tee_ioctl, its preset" "attached tee" \
	"$(tp_col tee_probes state tee_ioctl) $(tp_key tee_probes preset)"
check_eq "reordered: tcp_stats' table_size, tcp_phases' phases_lost" "2048 0" \
	"$(tp_key tcp_stats table_size) $(tp_key tcp_phases phases_lost)"

done_testing
