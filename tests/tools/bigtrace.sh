#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bigtrace.sh - bench/bigtrace/bigtrace, the read bench's session maker
# (bench/read): a recorded session with TEE, TCP and NET_RX events
# replicated on 4 CPUs (2 copies of its 2) and repeated 3 times must be a
# file trace-cmd reads without a word on stderr, holding exactly 6 times
# each of the source's teeprobe events; teeprobe report must read it as a
# session (its snapshots kept), count as many events of each kind as
# trace-cmd, and 6 times the source's handshakes, TEE calls (from the
# module's counters, scaled in the end snapshot) and NET_RX windows;
# the copies' threads are distinct, and the session lasts 3 times as long.
. "$(dirname "$0")/../integration/lib.sh"

src=$top/tests/fuzz/corpus/fuzz_trace/tee-small.dat
bigtrace=$top/bench/bigtrace/bigtrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpus=4 repeat=3

check "bench/bigtrace builds (make -C bench/bigtrace)" make -C "$top/bench/bigtrace"
check "bigtrace --cpus $cpus --repeat $repeat writes a session" \
	"$bigtrace" --cpus $cpus --repeat $repeat "$src" "$tmp/big.dat"
check_eq "... and leaves no temporary file beside it" big.dat "$(ls "$tmp")"

# counts FILE OUT - "NAME COUNT" per teeprobe event trace-cmd report
# prints (its output in OUT.txt, its errors in OUT.err)
counts() {
	trace-cmd report -i "$1" 2>"$2.err" >"$2.txt" || return 1
	awk '{ for (i = 2; i <= NF; i++) if ($(i - 1) ~ /^[0-9]+\.[0-9]+:$/) {
			if ($i ~ /^teeprobe_/) n[substr($i, 1, length($i) - 1)]++
			break } }
		END { for (e in n) print e, n[e] }' "$2.txt" | sort
}
src_counts=$(counts "$src" "$tmp/src")
src_cpus=$(sed -n '1s/^cpus=//p' "$tmp/src.txt")
check "trace-cmd report reads it" counts "$tmp/big.dat" "$tmp/big"
big_counts=$(counts "$tmp/big.dat" "$tmp/big")
check "... with nothing on stderr" test ! -s "$tmp/big.err"
check_eq "... and says $cpus CPUs" "cpus=$cpus" "$(head -n 1 "$tmp/big.txt")"
factor=$((cpus / src_cpus * repeat))
check_eq "the source has TEE calls, handshakes and NET_RX windows" 3 \
	"$(echo "$src_counts" | grep -cE '^teeprobe_(tee_ioctl_exit|tcp_handshake|netrx_window) [1-9]')"
check_eq "trace-cmd counts $factor times each of the source's teeprobe events ($cpus CPUs of its $src_cpus, $repeat times)" \
	"$(echo "$src_counts" | awk -v f=$factor '{ print $1, $2 * f }')" "$big_counts"

# the copies' threads: the TEE calls' pids, (cpus / src_cpus) times as many
pids() {
	awk '/teeprobe_tee_ioctl_exit:/ { sub(/ +\[[0-9]+\].*/, ""); sub(/.*-/, ""); print }' "$1" |
		sort -u | wc -l
}
check_eq "the copies' TEE calls come from other threads ($((cpus / src_cpus)) times the source's)" \
	$(($(pids "$tmp/src.txt") * cpus / src_cpus)) "$(pids "$tmp/big.txt")"

check "teeprobe report --json reads both" \
	sh -c '"$1" report --json "$2" >"$3/src.json" && "$1" report --json "$3/big.dat" >"$3/big.json"' \
	sh "$TEEPROBE" "$src" "$tmp"
# figures FILE - the counts teeprobe report gives, one "NAME VALUE" a line
figures() {
	python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for name, n in sorted(r["events"].items()):
    print("event", name, n)
print("handshakes_server", r["handshakes"]["events"]["server"])
print("handshakes_client", r["handshakes"]["events"]["client"])
print("tee_calls", int(sum(c["calls"] for c in r["tee"]["commands"])))
print("netrx_windows", r["netrx"]["windows"])
print("snapshots", int(r["snapshots"]))
print("seconds", r["seconds"])
EOF
}
figures "$tmp/src.json" >"$tmp/src.fig"
figures "$tmp/big.json" >"$tmp/big.fig"
check_eq "teeprobe report takes it as a session with its snapshots" "snapshots 1" \
	"$(grep '^snapshots' "$tmp/big.fig")"
check_eq "teeprobe report counts $factor times the source's handshakes, TEE calls and NET_RX windows" \
	"$(awk -v f=$factor '/^(handshakes|tee_calls|netrx_windows)/ { print $1, $2 * f }' "$tmp/src.fig")" \
	"$(grep -E '^(handshakes|tee_calls|netrx_windows)' "$tmp/big.fig")"
check_eq "trace-cmd and teeprobe report count as many of every teeprobe event" \
	"$big_counts" "$(awk '$1 == "event" { print $2, $3 }' "$tmp/big.fig")"
check "the session lasts $repeat times the source's, less than a window more each" \
	awk -v r=$repeat '$1 == "seconds" { s[FILENAME] = $2 }
		END { a = s[ARGV[1]]; b = s[ARGV[2]]; exit !(b >= r * a && b <= r * (a + 0.2)) }' \
	"$tmp/src.fig" "$tmp/big.fig"
check "teeprobe analyze reads it" sh -c '"$1" analyze "$2" >/dev/null' sh "$TEEPROBE" "$tmp/big.dat"

check_fails "--cpus must be a multiple of the source's" 'not a multiple' \
	"$bigtrace" --cpus 3 "$src" "$tmp/bad.dat"
done_testing
