#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# prometheus.sh - "teeprobe stat --prometheus" on the build host, without
# the module: its output for debugfs files recorded in a guest
# (debugfs/6.1-hard-temp) checked by promtool (extracted from Debian's
# prometheus package by scripts/promtool) and by promparse.py, by default
# and with --per-cpu --fine-buckets; the default's series on the
# log-linear run widened to 2, 64 and 128 CPUs (what
# Documentation/teeprobe-stat.rst quotes); the atomic -o FILE, the
# repeating mode, and the module missing. promparse.py is itself checked
# on broken expositions, so a parser that accepts anything cannot pass.
. "$(dirname "$0")/../integration/lib.sh"

here=$top/tests/tools
recorded=$here/debugfs/6.1-hard-temp
promparse=$here/promparse.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$TEEPROBE" stat --prometheus --debugfs "$recorded" >"$tmp/rec.prom" 2>"$tmp/rec.err"
check_eq "stat --prometheus --debugfs DIR exits 0" 0 $?
check "its output passes promparse.py" "$promparse" \
	--expect teeprobe_up --expect teeprobe_tee_ioctl_duration_seconds \
	--expect teeprobe_netrx_raise_to_entry_seconds \
	--expect teeprobe_tcp_handshake_phase_seconds --expect teeprobe_netrx_runs_total \
	"$tmp/rec.prom"

"$TEEPROBE" stat --prometheus --per-cpu --fine-buckets --debugfs "$recorded" >"$tmp/all.prom"
check_eq "stat --prometheus --per-cpu --fine-buckets exits 0" 0 $?
check "its output passes promparse.py" "$promparse" \
	--expect teeprobe_tee_ioctl_duration_seconds --expect teeprobe_netrx_runs_total \
	"$tmp/all.prom"

# --- a fleet's default: no cpu label, a handful of buckets --------------------
# buckets FILE - the most le buckets of one histogram series in FILE
buckets() { grep '_bucket{' "$1" | sed 's/le="[^"]*"}.*//' | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }'; }
check_eq "the default has no cpu label" 0 "$(grep -c 'cpu="' "$tmp/rec.prom")"
check_eq "... and 19 buckets a histogram (le 2^13 .. 2^30 ns, +Inf)" 19 "$(buckets "$tmp/rec.prom")"
check_eq "... whose le are the powers of two from 8.192 us to 1.073741824 s" \
	"0.000008192 1.073741824 +Inf" \
	"$(grep -o 'le="[^"]*"' "$tmp/rec.prom" | sort -u -g -t'"' -k2 | sed 's/le="\(.*\)"/\1/' |
	   awk '{ l[NR] = $0 } END { print l[1], l[NR - 1], l[NR] }')"
check "--per-cpu brings the cpu label back: NET_RX runs of CPUs 0 and 1" \
	grep -q '^teeprobe_netrx_runs_total{cpu="1"} ' "$tmp/all.prom"
check_eq "... and the TEE's, per CPU and command, as tee_stats has them" \
	"$(grep -c '^[0-9]' "$recorded/tee_stats")" \
	"$(grep -c '^teeprobe_tee_ioctls_total{cpu=' "$tmp/all.prom")"
check "--fine-buckets brings the module's buckets back (log2 here: 23 a histogram)" \
	test "$(buckets "$tmp/all.prom")" = 23
check_eq "the default's INVOKE le 2^22 ns = --fine-buckets' (exact: a fine bucket edge)" \
	"$(grep 'duration_seconds_bucket{cmd="INVOKE",le="0.004194304"}' "$tmp/all.prom")" \
	"$(grep 'duration_seconds_bucket{cmd="INVOKE",le="0.004194304"}' "$tmp/rec.prom")"

# host DIR NCPUS - the log-linear run's files in DIR as on a host of NCPUS
# CPUs: each stats file's "all" row copied for every CPU (so every CPU
# uses every TEE command: the most series --per-cpu writes)
host() {
	mkdir -p "$1"
	cp "$here/debugfs/6.1-loglin/"* "$1/"
	for f in tee_stats netrx_stats tcp_stats; do
		awk -v n="$2" '/^all / { for (c = 0; c < n; c++) { l = $0; sub(/^all/, c, l); print l } print; next }
			/^#/' "$here/debugfs/6.1-loglin/$f" >"$1/$f"
	done
}
# samples FILE - the samples of an exposition
samples() { grep -c '^teeprobe_' "$1"; }
for n in 2 64 128; do
	host "$tmp/host$n" $n
	"$TEEPROBE" stat --prometheus --debugfs "$tmp/host$n" >"$tmp/host$n.prom"
	"$TEEPROBE" stat --prometheus --per-cpu --debugfs "$tmp/host$n" >"$tmp/host$n-cpu.prom"
	"$TEEPROBE" stat --prometheus --per-cpu --fine-buckets --debugfs "$tmp/host$n" >"$tmp/host$n-all.prom"
	echo "$n CPUs: $(samples "$tmp/host$n.prom") series by default, $(samples "$tmp/host$n-cpu.prom") with --per-cpu, $(samples "$tmp/host$n-all.prom") with --per-cpu --fine-buckets" | diag
done
check_eq "series by default: the same at 2, 64 and 128 CPUs (b = 0)" \
	"$(samples "$tmp/host2.prom") $(samples "$tmp/host2.prom")" \
	"$(samples "$tmp/host64.prom") $(samples "$tmp/host128.prom")"
check "... under 600 at 64 CPUs" test "$(samples "$tmp/host64.prom")" -lt 600
# b: NET_RX's 17 columns and the TEE's 7 for each command in use
b=$((17 + 7 * $(grep -c '^all ' "$here/debugfs/6.1-loglin/tee_stats")))
check_eq "series with --per-cpu: a + $b a CPU (NET_RX's 17, 7 for each TEE command)" \
	"$(($(samples "$tmp/host2.prom") - b + 64 * b)) $(($(samples "$tmp/host2.prom") - b + 128 * b))" \
	"$(samples "$tmp/host64-cpu.prom") $(samples "$tmp/host128-cpu.prom")"
check "the widened host's expositions pass promparse.py" \
	sh -c '"$1" "$2" && "$1" "$3"' sh "$promparse" "$tmp/host128.prom" "$tmp/host128-all.prom"

if promtool=$("$top/scripts/promtool" 2>"$tmp/promtool.err"); then
	"$promtool" check metrics <"$tmp/rec.prom" >"$tmp/lint.txt" 2>&1
	rc=$?
	check_eq "promtool check metrics: exit status 0" 0 $rc
	check_eq "promtool check metrics: no lint problems" "" "$(cat "$tmp/lint.txt")"
	"$promtool" check metrics <"$tmp/all.prom" >"$tmp/lint-all.txt" 2>&1
	check_eq "promtool check metrics --per-cpu --fine-buckets: exit 0, no lint problems" \
		"0 " "$? $(cat "$tmp/lint-all.txt")"
	# promtool is no rubber stamp either: a counter without _total
	printf '# HELP x_seconds x\n# TYPE x_seconds counter\nx_seconds 1\n' |
		"$promtool" check metrics >"$tmp/lint-bad.txt" 2>&1
	check "promtool flags a counter not named _total" grep -q '_total' "$tmp/lint-bad.txt"
else
	why=$(tail -n 1 "$tmp/promtool.err")
	for name in "promtool check metrics: exit status 0" \
		"promtool check metrics: no lint problems" \
		"promtool check metrics --per-cpu --fine-buckets: exit 0, no lint problems" \
		"promtool flags a counter not named _total"; do
		skip "$name" "no promtool here (${why:-scripts/promtool failed}); promparse.py checks"
	done
fi

# --- promparse.py refuses what Prometheus or its conventions refuse ---------
# bad NAME PATTERN TEXT - promparse must fail on TEXT saying PATTERN
bad() {
	printf '%b' "$3" >"$tmp/bad.prom"
	check_fails "promparse refuses $1" "$2" "$promparse" "$tmp/bad.prom"
}
h='# HELP h_seconds h\n# TYPE h_seconds histogram\n'
c='# HELP c_total c\n# TYPE c_total counter\n'
g='# HELP g g\n# TYPE g gauge\n'
bad "a family split in two" "not contiguous" "${c}c_total{a=\"1\"} 1\n${g}g 1\nc_total{a=\"2\"} 1\n"
bad "a sample without TYPE" "before any # TYPE" "c_total 1\n"
bad "a sample without HELP" "without a # HELP" "# TYPE c_total counter\nc_total 1\n"
bad "TYPE after the samples" "after its samples" "# HELP c_total c\nc_total 1\n# TYPE c_total counter\n"
bad "a second TYPE" "second # TYPE" "${c}# TYPE c_total counter\nc_total 1\n"
bad "a duplicate series" "twice" "${c}c_total{a=\"1\"} 1\nc_total{a=\"1\"} 2\n"
bad "a bad metric name" "not a metric name" "${g}9g 1\n"
bad "a bad label name" "not a label name" "${g}g{1a=\"1\"} 1\n"
bad "a reserved label name" "reserved" "${g}g{__name=\"1\"} 1\n"
bad "an unknown escape" "invalid escape" "${g}g{a=\"x\\\\qy\"} 1\n"
bad "an unclosed label value" "not closed" "${g}g{a=\"x} 1\n"
bad "a value that is no number" "not a number" "${g}g 1,5\n"
bad "a counter not named _total" "not named \\*_total" "# HELP c c\n# TYPE c counter\nc 1\n"
bad "a gauge named _total" "named \\*_total" "# HELP g_total g\n# TYPE g_total gauge\ng_total 1\n"
bad "a negative counter" "counter c_total is -1" "${c}c_total -1\n"
bad "nanoseconds in a name" "not a base unit" "# HELP d_ns d\n# TYPE d_ns gauge\nd_ns 1\n"
bad "buckets that are not cumulative" "not cumulative" \
	"${h}h_seconds_bucket{le=\"1\"} 5\nh_seconds_bucket{le=\"2\"} 4\nh_seconds_bucket{le=\"+Inf\"} 5\nh_seconds_count 5\n"
bad "buckets without +Inf" 'not le="\+Inf"' \
	"${h}h_seconds_bucket{le=\"1\"} 5\nh_seconds_count 5\n"
bad "a _count other than +Inf" '_count 6 != le="\+Inf"' \
	"${h}h_seconds_bucket{le=\"1\"} 5\nh_seconds_bucket{le=\"+Inf\"} 5\nh_seconds_count 6\n"
bad "a histogram without _count" "no _count" "${h}h_seconds_bucket{le=\"+Inf\"} 5\n"
bad "le out of order" "not increasing" \
	"${h}h_seconds_bucket{le=\"2\"} 1\nh_seconds_bucket{le=\"1\"} 1\nh_seconds_bucket{le=\"+Inf\"} 1\nh_seconds_count 1\n"
bad "le on a gauge" "le is a label of histogram buckets only" "${g}g{le=\"1\"} 1\n"
bad "a missing last newline" "no newline" "${g}g 1"
printf '%b' "${h}h_seconds_bucket{le=\"1\",a=\"x\\\\\\\\y\\\\\"z\\\\n\"} 1\nh_seconds_bucket{a=\"x\\\\\\\\y\\\\\"z\\\\n\",le=\"+Inf\"} 2\nh_seconds_sum{a=\"x\\\\\\\\y\\\\\"z\\\\n\"} 0.5\nh_seconds_count{a=\"x\\\\\\\\y\\\\\"z\\\\n\"} 2\n${c}c_total 1e3 1700000000000\n" >"$tmp/good.prom"
check "promparse accepts escapes, label order, exponents and timestamps" "$promparse" "$tmp/good.prom"

# --- the command -------------------------------------------------------------
"$TEEPROBE" stat --prometheus --debugfs "$recorded" -o "$tmp/out.prom"
check_eq "-o FILE exits 0" 0 $?
check "-o FILE holds what stdout gets" cmp "$tmp/rec.prom" "$tmp/out.prom"
inode=$(stat -c %i "$tmp/out.prom")
"$TEEPROBE" stat --prometheus --debugfs "$recorded" -o "$tmp/out.prom"
check "-o replaces FILE by rename() (a new inode), not by rewriting it" \
	test "$inode" != "$(stat -c %i "$tmp/out.prom")"
check_eq "-o leaves no FILE.tmp.PID behind" "" "$(ls "$tmp" | grep '\.tmp\.')"
check_fails "-o into a missing directory fails" "cannot create .*/none/x.prom.tmp" \
	"$TEEPROBE" stat --prometheus --debugfs "$recorded" -o "$tmp/none/x.prom"

start=$(date +%s.%N)
"$TEEPROBE" stat --prometheus --debugfs "$recorded" -I 0.2 -c 3 >"$tmp/three.prom"
check_eq "-i 0.2 -c 3 exits 0" 0 $?
secs=$(echo "$(date +%s.%N) - $start" | bc)
check_eq "-i 0.2 -c 3 writes three expositions" 3 "$(grep -c '^teeprobe_up 1$' "$tmp/three.prom")"
check "... 0.2 s apart (the first at once: 0.4 s at least, under 2 s)" \
	awk -v s="$secs" 'BEGIN { exit !(s >= 0.4 && s < 2) }'

"$TEEPROBE" stat --prometheus --debugfs "$recorded" -I 0.1 -o "$tmp/daemon.prom" 2>"$tmp/daemon.err" &
daemon=$!
sleep 1
kill -TERM $daemon
wait $daemon
check_eq "the repeating mode ends cleanly on SIGTERM" 0 $?
check "... leaving a complete file" "$promparse" --expect teeprobe_tcp_accepted_total "$tmp/daemon.prom"
check_eq "... and no FILE.tmp.PID" "" "$(ls "$tmp" | grep '\.tmp\.')"

"$TEEPROBE" stat --prometheus --debugfs "$tmp/empty-dir" >"$tmp/down.prom" 2>"$tmp/down.err"
check_eq "a directory without the module's files exits 1" 1 $?
check "... says so" grep -q 'no teeprobe files' "$tmp/down.err"
check "... and writes teeprobe_up 0" grep -qx 'teeprobe_up 0' "$tmp/down.prom"
check_eq "... and the build info alone besides" "teeprobe_up|teeprobe_build_info" \
	"$(grep -v '^#' "$tmp/down.prom" | sed 's/[{ ].*//' | paste -sd'|')"
check "... which parses" "$promparse" "$tmp/down.prom"

if [ -e /sys/module/teeprobe ]; then
	skip "--prometheus without the module" "teeprobe is loaded on this host"
elif [ "$(id -u)" != 0 ]; then
	check_fails "--prometheus needs root" "needs root" "$TEEPROBE" stat --prometheus
else
	cp "$tmp/rec.prom" "$tmp/host.prom"
	check_fails "--prometheus without the module: exit 1, says why" "module is not loaded" \
		"$TEEPROBE" stat --prometheus -o "$tmp/host.prom"
	check "... the file now says teeprobe_up 0" grep -qx 'teeprobe_up 0' "$tmp/host.prom"
	check "... and holds no stale counter" sh -c "! grep -q '_total' '$tmp/host.prom'"
fi

check_fails "-o without --prometheus is refused" "go with --prometheus" \
	"$TEEPROBE" stat -o "$tmp/x.prom"
check_fails "--per-cpu without --prometheus is refused" "go with --prometheus" \
	"$TEEPROBE" stat --per-cpu -c 1
check_fails "--fine-buckets without --prometheus is refused" "go with --prometheus" \
	"$TEEPROBE" stat --fine-buckets -c 1
check_fails "--json with --prometheus is refused" "not both" \
	"$TEEPROBE" stat --json --prometheus
check_fails "--prometheus -c 0 is refused" "positive count" \
	"$TEEPROBE" stat --prometheus -c 0
check "stat --help describes --prometheus, --per-cpu and --fine-buckets" sh -c \
	"'$TEEPROBE' stat --help | grep -q -- '--prometheus ' && '$TEEPROBE' stat --help | grep -q -- '--per-cpu ' &&
	 '$TEEPROBE' stat --help | grep -q -- '--fine-buckets '"

# --- the fleet's examples: alert and recording rules, a Grafana dashboard --------------
rules=$top/contrib/prometheus/teeprobe-rules.yml
dashboard=$top/contrib/grafana/teeprobe.json
if [ -n "$promtool" ]; then
	check "promtool check rules: contrib/prometheus/teeprobe-rules.yml" \
		"$promtool" check rules "$rules"
	# the case's before fires the chain's alerts, its after none
	check "promtool test rules: the case's before alerts, its after does not" \
		sh -c "cd '$top/contrib/prometheus' && '$promtool' test rules teeprobe-rules.test.yml"
else
	skip "promtool check rules: contrib/prometheus/teeprobe-rules.yml" "no promtool here"
	skip "promtool test rules: the case's before alerts, its after does not" "no promtool here"
fi
# every series the rules and the dashboard read is one stat --prometheus
# writes (or a recording rule): a renamed metric breaks this, not a fleet.
# A running watch's families are written only while a watch runs (which
# this host's /run must not pretend): those as prometheus.c names them
# (test_prometheus writes them from a watch's status)
check "the rules and the dashboard read only series teeprobe exports" /usr/bin/python3 -c '
import json, re, sys
exported = {l.split()[2] for l in open(sys.argv[1]) if l.startswith("# TYPE ")}
watch = set(re.findall(r"\"(teeprobe_watch_[a-z_]+)\", \"(?:gauge|counter)\"", open(sys.argv[4]).read()))
assert len(watch) >= 5, watch
exported |= watch
names = set(exported)
for n in exported:
    names.update({n + "_bucket", n + "_sum", n + "_count"})
rules = open(sys.argv[2]).read()
records = set(re.findall(r"record: (\S+)", rules))
dash = json.load(open(sys.argv[3]))
text = rules + "\n".join(t["expr"] for p in dash["panels"] for t in p["targets"])
used = set(re.findall(r"\bteeprobe[_:][a-z0-9_:]+", text))
missing = sorted(u for u in used if u not in names and u not in records)
assert len(used) >= 10 and not missing, (len(used), missing)
' "$tmp/rec.prom" "$rules" "$dashboard" "$top/tools/prometheus.c"
# ... and only labels the default writes: no cpu (--per-cpu's), and an
# "le" only among the default's buckets
check "the rules and the dashboard need no --per-cpu or --fine-buckets" /usr/bin/python3 -c '
import json, re, sys
les = set(re.findall(r"le=\"([^\"]+)\"", open(sys.argv[1]).read()))
rules = open(sys.argv[2]).read()
dash = json.load(open(sys.argv[3]))
text = rules + "\n".join(t["expr"] for p in dash["panels"] for t in p["targets"])
assert not re.search(r"\bcpu\b", text), "a cpu label: " + ", ".join(re.findall(r".{0,30}\bcpu\b.{0,10}", text))
used = set(re.findall(r"le\s*=~?\s*\"([^\"]+)\"", text))
assert used <= les, sorted(used - les)
' "$tmp/rec.prom" "$rules" "$dashboard"
# A file the module could not show ("# error ENOMEM", as under t87's
# faults): no exposition with its series missing; the last one stays
rm -rf "$tmp/unshown" && cp -rL "$top/tests/tools/debugfs/6.1-loglin" "$tmp/unshown"
printf '# error ENOMEM\n' >"$tmp/unshown/tcp_phases"
echo keep >"$tmp/unshown.prom"
"$TEEPROBE" stat --prometheus --debugfs "$tmp/unshown" -o "$tmp/unshown.prom" 2>"$tmp/unshown.err"
check_eq "a file the module could not show: stat --prometheus exits 1" 1 $?
check "... naming it" grep -q "could not show tcp_phases: no exposition written" "$tmp/unshown.err"
check_eq "... and leaves the last exposition as it was" keep "$(cat "$tmp/unshown.prom")"
done_testing
