#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t60-tools - teeprobe record and report on a lab run: the report's numbers
# against the module's counters and the lab's own, trace-cmd reading the
# same file, the session's settings restored, Ctrl-C leaving no tracefs
# instance behind, and damaged files refused cleanly; stat --prometheus's
# totals against the lab's and /proc/softirqs, by default (summed over the
# CPUs) and with --per-cpu.
. "$(dirname "$0")/lib.sh"
. "$top/lab/lab.sh"

ko=$TP_MODULES/module/teeprobe.ko
conns=${TP_LAB_CONNECTIONS:-300}
out=/tmp/t60
export out
mkdir -p $out
cd $out || exit 1

# The tools' checks run on the four stock kernels; on the debug kernel
# they took a fifth of its guest's time (255 s of 1205 in a cold make
# check) for module code that t10-t50 and t80 drive there already (the
# same debugfs files, trace events and tracefs instances).
if [ "$TP_KERNEL" = lab ] && [ -z "${TP_LAB_TOOLS:-}" ]; then
	skip "teeprobe's tools on a lab run" "they run on the stock kernels; TP_LAB_TOOLS=1 runs them on the debug kernel"
	done_testing
	exit
fi
[ "$TP_KERNEL" = lab ] && conns=${TP_LAB_CONNECTIONS:-40}

# jq_py EXPR - evaluate a Python expression on the JSON report in $out/r.json
jq_py() { python3 -c "import json,sys; r = json.load(open('$out/r.json')); print($1)"; }
# instances_left - the tracefs instances teeprobe record made and left
instances_left() { ls $TRACEFS/instances | grep -c '^teeprobe-record-'; }
# netrx_runs - NET_RX runs of all CPUs in netrx_stats
netrx_runs() { tp_col netrx_stats runs all; }
# softirqs_net_rx - NET_RX runs of all CPUs since boot, by the kernel
softirqs_net_rx() { awk '$1 == "NET_RX:" { s = 0; for (i = 2; i <= NF; i++) s += $i; print s }' /proc/softirqs; }
# prom_sum REGEX [FILE] - the sum of the samples in FILE (default
# $out/teeprobe.prom) whose name and labels match REGEX
prom_sum() { awk -v re="$1" '$1 ~ re { s += $2 } END { printf "%.0f\n", s }' "${2:-$out/teeprobe.prom}"; }

[ -d /sys/module/teeprobe ] && rmmod teeprobe
check_fails "record without the module says so" "module is not loaded" \
	"$TEEPROBE" record -d 1 -o $out/none.dat
"$TEEPROBE" stat --prometheus -o $out/none.prom 2>$out/none.err
check_eq "stat --prometheus without the module exits 1" 1 $?
check "... says so" grep -q "module is not loaded" $out/none.err
check "... and its file says teeprobe_up 0" grep -qx "teeprobe_up 0" $out/none.prom
[ -d /sys/module/teesim ] && rmmod teesim
check "teesim loads" lab_load
rx_before_insmod=$(softirqs_net_rx)
check "insmod teeprobe" insmod "$ko"
rx_after_insmod=$(softirqs_net_rx)

# --- a session around one lab run, ended by Ctrl-C ----------------------------
echo 1 >/sys/kernel/debug/teesim/reset
runs_before=$(netrx_runs)
"$TEEPROBE" record -w 50 -o $out/run.dat 2>$out/record.err &
rec=$!
check "record starts recording" wait_recording $out/record.err
check "record set the session's window length" \
	sh -c '[ "$(cat /sys/module/teeprobe/parameters/window_ms)" = 50 ]'
check "hsbench hard-temp: $conns connections while recording" lab_run hard-temp "$conns" 10
sleep 0.5
cp /sys/kernel/debug/teesim/stats $out/teesim.txt
kill -INT $rec
wait $rec
check_eq "Ctrl-C ends the session cleanly" 0 $?
runs_after=$(netrx_runs)
check_eq "... and leaves no tracefs instance behind" 0 "$(instances_left)"
check_eq "... and restores the window length" 100 "$(cat /sys/module/teeprobe/parameters/window_ms)"
check "record said where the file is" grep -q "teeprobe report -i $out/run.dat" $out/record.err

# --- teeprobe stat --prometheus: the module's totals since insmod -------------
# Nothing but the lab run above used the TEE or port $LAB_PORT since then.
rx_before=$(softirqs_net_rx)
check "stat --prometheus -o writes its file" "$TEEPROBE" stat --prometheus -o $out/teeprobe.prom
check "stat --prometheus --per-cpu -o writes its file" \
	"$TEEPROBE" stat --prometheus --per-cpu -o $out/teeprobe-cpu.prom
rx_after=$(softirqs_net_rx)
[ -d "$TP_OUT" ] && cp $out/teeprobe.prom "$TP_OUT/"
check "the file passes promparse.py" python3 "$top/tests/tools/promparse.py" \
	--expect teeprobe_tee_ioctl_duration_seconds --expect teeprobe_netrx_raise_to_entry_seconds \
	--expect teeprobe_tcp_handshake_phase_seconds $out/teeprobe.prom
check "it says teeprobe_up 1" grep -qx "teeprobe_up 1" $out/teeprobe.prom
check "the --per-cpu file passes promparse.py" python3 "$top/tests/tools/promparse.py" \
	--expect teeprobe_tee_ioctls_total $out/teeprobe-cpu.prom
check_eq "by default no series has a cpu label" 0 "$(grep -c 'cpu="' $out/teeprobe.prom)"
check_eq "... and a histogram has 19 buckets (le 2^13 .. 2^30 ns, +Inf)" 19 \
	"$(grep -c '^teeprobe_tee_ioctl_duration_seconds_bucket[{]cmd="INVOKE",' $out/teeprobe.prom)"
check_eq "TEE INVOKE calls of all CPUs = teesim's invokes" "$(kv $out/teesim.txt invoke)" \
	"$(prom_sum '^teeprobe_tee_ioctls_total[{]cmd="INVOKE"[}]$')"
check_eq "... and with --per-cpu, summed over the cpu label" "$(kv $out/teesim.txt invoke)" \
	"$(prom_sum '^teeprobe_tee_ioctls_total[{]cpu="[0-9]+",cmd="INVOKE"[}]$' $out/teeprobe-cpu.prom)"
check_eq "the INVOKE histogram's count = the same calls" "$(kv $out/teesim.txt invoke)" \
	"$(prom_sum '^teeprobe_tee_ioctl_duration_seconds_count[{]cmd="INVOKE"[}]$')"
check_eq "TCP accepted on port $LAB_PORT = hsbench's connections" "$conns" \
	"$(prom_sum "^teeprobe_tcp_accepted_total[{]port=\"$LAB_PORT\"[}]\$")"
prom_runs=$(prom_sum '^teeprobe_netrx_runs_total$')
check "NET_RX runs of all CPUs ($prom_runs) = /proc/softirqs NET_RX since insmod" \
	awk -v p="$prom_runs" -v lo="$((rx_before - rx_after_insmod))" \
	-v hi="$((rx_after - rx_before_insmod))" 'BEGIN { exit !(p > 0 && p >= lo - 2 && p <= hi + 2) }'
prom_runs=$(prom_sum '^teeprobe_netrx_runs_total[{]cpu="[0-9]+"[}]$' $out/teeprobe-cpu.prom)
check "... and with --per-cpu, summed over the cpu label ($prom_runs)" \
	awk -v p="$prom_runs" -v lo="$((rx_before - rx_after_insmod))" \
	-v hi="$((rx_after - rx_before_insmod))" 'BEGIN { exit !(p > 0 && p >= lo - 2 && p <= hi + 2) }'

check "teeprobe report reads it" sh -c "'$TEEPROBE' report -i $out/run.dat >$out/r.txt"
check "teeprobe report --json reads it" sh -c "'$TEEPROBE' report -i $out/run.dat --json >$out/r.json"
check "the JSON parses" jq_py "r['file']"
check_eq "TEE INVOKE calls = teesim's invokes" "$(kv $out/teesim.txt invoke)" \
	"$(jq_py "[c['calls'] for c in r['tee']['commands'] if c['cmd'] == 'INVOKE'][0]")"
check_eq "TEE SHM_REGISTER calls = teesim's registrations" "$(kv $out/teesim.txt shm_register)" \
	"$(jq_py "[c['calls'] for c in r['tee']['commands'] if c['cmd'] == 'SHM_REGISTER'][0]")"
check "INVOKE calls are mostly blocked (hard-temp)" \
	jq_py "exit(0 if [c for c in r['tee']['commands'] if c['cmd'] == 'INVOKE'][0]['blocked_share'] > 0.5 else 1)"
check "the top threads are hsbench's" \
	jq_py "exit(0 if r['tee']['threads'] and r['tee']['threads'][0]['comm'] == 'hsbench' else 'threads: %s' % r['tee']['threads'])"
report_runs=$(jq_py "[c['runs'] for c in r['netrx']['per_cpu'] if c['cpu'] == 'all'][0]")
check "NET_RX runs ($report_runs) = the module's counters over the session ($((runs_after - runs_before)), within 2 %)" \
	awk -v a="$report_runs" -v b="$((runs_after - runs_before))" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= b / 50 + 2) }'
check "the report has CPU context, NICs and TCP" \
	jq_py "exit(0 if r['cpu']['all']['system'] >= 0 and r['nics'] and r['tcp']['PassiveOpens'] >= $conns else 1)"
check_eq "TCP: the port's accepted handshakes = hsbench's connections" "$conns" \
	"$(jq_py "[p['accepted'] for p in r['handshakes']['ports'] if p['port'] == '$LAB_PORT'][0]")"
check_eq "TCP: a server handshake event per timed handshake (accepted - untracked)" \
	"$(jq_py "[p['accepted'] - p['untracked'] for p in r['handshakes']['ports'] if p['port'] == '$LAB_PORT'][0]")" \
	"$(jq_py "r['handshakes']['events']['server']")"
check "TCP: the three server phases have percentiles" jq_py "exit(0 if {'ack_accept', 'syn_synack', 'synack_ack'} <= set(p['phase']
	for p in r['handshakes']['events']['phases'] if p['count'] >= $conns * 0.9 and p['p99_ns'] >= p['p50_ns'] > 0) else 1)"
check "nothing was lost" jq_py "exit(0 if r['lost']['ring_buffer'] == 0 and r['lost']['missed_events'] == 0 else 1)"
trace-cmd report -i $out/run.dat >$out/tc.txt 2>&1
check_eq "trace-cmd report reads the same file: the same window events" \
	"$(jq_py "r['events'].get('teeprobe_netrx_window', 0)")" \
	"$(grep -c 'teeprobe_netrx_window:' $out/tc.txt)"
check "... and the snapshots as markers" grep -q 'teeprobe-snap end netrx_stats' $out/tc.txt
# libtraceevent prints the handshakes as the kernel does: the family by
# name and only its addresses (%pISc), no "family=2" and no IPv6 beside.
tc_hs=$(grep -c 'teeprobe_tcp_handshake:' $out/tc.txt)
check "trace-cmd report prints the handshake events" test "$tc_hs" -ge "$conns"
check_eq "... each with family=AF_INET and its IPv4 addresses only" "$tc_hs" \
	"$(grep -cE 'teeprobe_tcp_handshake: side=(server|client) family=AF_INET sport=[0-9]+ dport=[0-9]+ saddr=[0-9]+(\.[0-9]+){3} daddr=[0-9]+(\.[0-9]+){3} syn_to_synack_ns=' $out/tc.txt)"
# trace-cmd's other ways of reading the file: each exits 0 and prints the
# window events plain report printed (--stat prints the instance's stats).
tc_windows=$(grep -c 'teeprobe_netrx_window:' $out/tc.txt)
tc_variants "$out/run.dat" "$tc_windows"
check "the text report has every section" sh -c "grep -q '^CPU context' $out/r.txt &&
	grep -q '^TEE ioctls by command' $out/r.txt && grep -q '^NET_RX per CPU' $out/r.txt &&
	grep -q '^# NET_RX raise->entry delay, inline runs' $out/r.txt"
check "--no-hist leaves the histograms out" sh -c \
	"! '$TEEPROBE' report -i $out/run.dat --no-hist | grep -q 'raise->entry delay, inline'"

# --- teeprobe compare: a second session, hard-reg ------------------------------------
"$TEEPROBE" record -o $out/reg.dat 2>$out/reg.err &
rec=$!
check "record starts recording again" wait_recording $out/reg.err
check "hsbench hard-reg: $conns connections while recording" lab_run hard-reg "$conns" 10
kill -INT $rec
wait $rec
check "compare --json reads both sessions" sh -c \
	"'$TEEPROBE' compare --json $out/run.dat $out/reg.dat >$out/cmp.json"
check "compare's figures are the two reports' figures" python3 -c "
import json, subprocess
def report(f):
    return json.loads(subprocess.run(['$TEEPROBE', 'report', '--json', '-i', f],
                                     capture_output=True, check=True).stdout)
rows = {r['metric']: r for r in json.load(open('$out/cmp.json'))['rows']}
for side, f in (('before', '$out/run.dat'), ('after', '$out/reg.dat')):
    r = report(f)
    netrx = [c['runs_per_s'] for c in r['netrx']['per_cpu'] if c['cpu'] == 'all'][0]
    assert abs(rows['netrx_per_s'][side] - netrx) < 0.01, (side, rows['netrx_per_s'], netrx)
    assert abs(rows['system_pct'][side] - r['cpu']['all']['system']) < 0.01
    tee = sum(c['calls_per_s'] for c in r['tee']['commands'])
    assert abs(rows['tee_calls_per_s'][side] - tee) < 0.05, (side, tee)
assert abs(rows['netrx_per_s']['change'] - (rows['netrx_per_s']['after'] - rows['netrx_per_s']['before'])) < 0.01
"
check "compare prints the case's table" sh -c \
	"'$TEEPROBE' compare $out/run.dat $out/reg.dat | grep -Eq '^NET_RX softirqs/s +[0-9.]+ +[0-9.]+ +[-+][0-9.]+ +[0-9.]+x$'"
check_fails "compare needs two files" "give two recorded sessions" "$TEEPROBE" compare $out/run.dat

# --- teeprobe plot: the pictures of a session ------------------------------------------
check "plot writes the timeline and the histograms" sh -c \
	"'$TEEPROBE' plot -i $out/run.dat -o $out/plot | grep -c 'wrote' | grep -qx 2"
for svg in timeline hist; do
	check "plot's $svg is valid XML" python3 -c \
		"import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])" "$out/plot-$svg.svg"
done

# --- teeprobe stat, live --------------------------------------------------------------
"$TEEPROBE" stat -I 1 --json >$out/stat.json 2>$out/stat.err &
st=$!
check "hsbench hard-reg while stat runs" lab_run hard-reg "$((conns / 2))" 10
sleep 1.5
kill -INT $st
wait $st
check_eq "Ctrl-C ends stat cleanly" 0 $?
check "stat printed a line per second" test "$(wc -l <$out/stat.json)" -ge 2
check "each line is JSON with NET_RX, TEE and accept rates, some of them busy" python3 -c "
import json
lines = [json.loads(l) for l in open('$out/stat.json')]
assert all('netrx_runs_per_s' in l and 'tee_calls_per_s' in l and 'accepts_per_s' in l for l in lines)
assert max(l['netrx_runs_per_s'] for l in lines) > 0
assert max(l['tee_calls_per_s'] for l in lines) > 0
assert max(l['accepts_per_s'] for l in lines) > 0
assert max(l['handshakes_per_s'] for l in lines) > 0"
check "stat's text form has a header and a line per interval" sh -c \
	"'$TEEPROBE' stat -I 0.2 -c 2 | awk 'NR == 1 && \$1 == \"time\" { h = 1 } END { exit !(h && NR == 3) }'"

# --- a timed session with a pid filter and the raw events --------------------------
check "record -d 2 -p 1 --raw" "$TEEPROBE" record -q -d 2 -p 1 --raw -o $out/raw.dat
check_eq "the pid filter is restored" all "$(cat $DEBUGFS/pid_filter)"
check "the raw file has the per-run event format" sh -c \
	"trace-cmd dump --events -i $out/raw.dat 2>/dev/null | grep -q 'name: teeprobe_netrx_run'"
# no teeprobe event holds a kernel address: trace-cmd is shown an empty
# /proc/kallsyms (7 to 9 MB it would read twice and every reader parse)
check "the file holds no kallsyms" sh -c \
	"! trace-cmd dump --kallsyms -i $out/raw.dat 2>&1 | grep -qw start_kernel"
check "the host's /proc/kallsyms is untouched" grep -qw start_kernel /proc/kallsyms
check "record --kallsyms keeps trace-cmd's copy" sh -c \
	"'$TEEPROBE' record -q -d 1 --kallsyms -o $out/ksyms.dat &&
	trace-cmd dump --kallsyms -i $out/ksyms.dat 2>&1 | grep -qw start_kernel"

# --- damaged files ------------------------------------------------------------------
size=$(stat -c %s $out/run.dat)
for cut in 4096 $((size / 2)); do
	head -c $cut $out/run.dat >$out/cut.dat
	check_fails "report refuses the file cut at $cut bytes" \
		"not a readable trace.dat|is damaged|no teeprobe events" \
		"$TEEPROBE" report -i $out/cut.dat
done
check "rmmod teeprobe" rmmod teeprobe
done_testing
