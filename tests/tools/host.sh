#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# host.sh - the teeprobe command on the build host (no module here): help,
# version, usage errors, and clear failures on bad input files.
. "$(dirname "$0")/../integration/lib.sh"

version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_eq "--version prints the module's version" "teeprobe $version" "$("$TEEPROBE" --version)"
check "--help lists the commands" sh -c "'$TEEPROBE' --help | grep -q '^  report '"
for sc in analyze check compare plot record report stat watch; do
	check "$sc --help" "$TEEPROBE" "$sc" --help
done
"$TEEPROBE" frobnicate >/dev/null 2>&1
check_eq "an unknown command exits 2" 2 $?
"$TEEPROBE" report -i a b >/dev/null 2>&1
check_eq "report with a stray argument exits 2" 2 $?
if [ -e /sys/module/teeprobe ]; then
	skip "check without the module" "teeprobe is loaded on this host"
elif [ ! -e /proc/modules ]; then
	# this machine's own kernel has no module support (the guests' do)
	check_fails "check says this kernel cannot load modules, not 'insmod'" \
		"kernel $(uname -r) cannot load modules \(no /proc/modules" "$TEEPROBE" check
	check "... and not that the module is merely unloaded" sh -c \
		"! '$TEEPROBE' check 2>&1 | grep -q 'module is not loaded'"
else
	check_fails "check says the module is not loaded" "module is not loaded" "$TEEPROBE" check
fi
check_fails "record refuses -d 0" "positive duration" "$TEEPROBE" record -d 0
check_fails "record refuses -d abc" "positive duration" "$TEEPROBE" record -d abc
check_fails "record refuses -p 0" "not a process id" "$TEEPROBE" record -p 0
check_fails "record refuses -p 12x" "not a process id" "$TEEPROBE" record -p 12x
check_fails "record refuses a ninth -p" "at most 8" "$TEEPROBE" record -p 1 -p 2 -p 3 -p 4 -p 5 -p 6 -p 7 -p 8 -p 9
check_fails "record refuses -w 5" "from 10 to 60000" "$TEEPROBE" record -w 5
check_fails "record refuses -C 3-1" "not a CPU list" "$TEEPROBE" record -C 3-1
check_fails "record refuses -C x" "not a CPU list" "$TEEPROBE" record -C x
check_fails "stat refuses -i 0" "interval from 0.1" "$TEEPROBE" stat -i 0
check_fails "stat refuses -c -1" "positive count" "$TEEPROBE" stat -c -1
check_fails "analyze refuses --target-us 0" "not a time in us" "$TEEPROBE" analyze --target-us 0
check_fails "analyze refuses --target-us x" "not a time in us" "$TEEPROBE" analyze --target-us x
check_fails "analyze -p needs -d" "go with -d" "$TEEPROBE" analyze -p 1
check_fails "analyze -d 0 is refused by record" "positive duration" "$TEEPROBE" analyze -d 0 -i "$tmp/live.dat"
"$TEEPROBE" analyze -i a b >/dev/null 2>&1
check_eq "analyze with a stray argument exits 2" 2 $?
check_fails "analyze on a missing file" "cannot open" "$TEEPROBE" analyze -i "$tmp/none.dat"
check_fails "analyze on a text file" "not a readable trace.dat" "$TEEPROBE" analyze -i /etc/os-release
check_fails "report on a missing file" "cannot open" "$TEEPROBE" report -i "$tmp/none.dat"
check_fails "plot on a missing file" "cannot open" "$TEEPROBE" plot -i "$tmp/none.dat" -o "$tmp/none"
"$TEEPROBE" plot -i "$tmp/none.dat" -o "$tmp/none" >/dev/null 2>&1
check_eq "plot on a missing file exits 1" 1 $?
check "plot on a missing file writes no picture" test ! -e "$tmp/none-timeline.svg"
"$TEEPROBE" plot --frobnicate >/dev/null 2>&1
check_eq "plot with an unknown option exits 2" 2 $?
"$TEEPROBE" plot -i a b >/dev/null 2>&1
check_eq "plot with a stray argument exits 2" 2 $?
check_fails "report on a directory" "not a regular file" "$TEEPROBE" report -i "$tmp"
: >"$tmp/empty.dat"
check_fails "report on an empty file" "not a readable trace.dat" "$TEEPROBE" report -i "$tmp/empty.dat"
check_fails "report on a text file" "not a readable trace.dat" "$TEEPROBE" report -i /etc/os-release
# A file with trace.dat's magic and then garbage must fail, not crash.
for seed in 1 2 3 4 5; do
	{ printf '\027\010\104tracing6\0'; head -c 4096 /dev/urandom; } >"$tmp/garbage$seed.dat"
	check_fails "report on trace.dat magic followed by garbage ($seed)" \
		"not a readable trace.dat|is damaged|no teeprobe events" \
		"$TEEPROBE" report -i "$tmp/garbage$seed.dat"
done
# trace-cmd reads teeprobe's sessions (corpus files of 6.1 and 6.12,
# file versions 6 and 7): as many window events as teeprobe's own reader
# counts, in every way of reading (lib.sh's tc_variants says which two
# bugs of trace-cmd 3.1.6 its workarounds go round).
corpus=$top/tests/fuzz/corpus/fuzz_trace
for f in light-small light-small-v6 tee-small stall-small; do
	want=$("$TEEPROBE" report -i "$corpus/$f.dat" | sed -n 's/.* teeprobe_netrx_window \([0-9]*\).*/\1/p')
	check_eq "$f.dat: trace-cmd report prints teeprobe report's $want window events" \
		"$want" "$(trace-cmd report "$corpus/$f.dat" 2>/dev/null | grep -c 'teeprobe_netrx_window:')"
	tc_variants "$corpus/$f.dat" "$want"
done
# tools/plugin_teeprobe.so: trace-cmd loads it from TRACEEVENT_PLUGIN_DIR
# and prints a file of an older module's handshakes (family=2, both
# addresses) with the family by name and only its addresses; as many as
# teeprobe report counts.
mkdir -p "$tmp/plugins"
cp "$top/tools/plugin_teeprobe.so" "$tmp/plugins/"
want=$("$TEEPROBE" report -i "$corpus/light-small.dat" | sed -n 's/.* teeprobe_tcp_handshake \([0-9]*\).*/\1/p')
check_eq "without the plugin the old file's handshakes say family=2 and saddrv6" "$want" \
	"$(trace-cmd report "$corpus/light-small.dat" 2>/dev/null | grep -c 'teeprobe_tcp_handshake: side=[a-z]* family=2 .* saddrv6=')"
check_eq "with it, family=AF_INET and the IPv4 addresses only, $want handshakes" "$want" \
	"$(TRACEEVENT_PLUGIN_DIR="$tmp/plugins" trace-cmd report "$corpus/light-small.dat" 2>/dev/null |
		grep -E 'teeprobe_tcp_handshake: side=(server|client) family=AF_INET sport=[0-9]+ dport=[0-9]+ saddr=198\.18\.0\.[12] daddr=198\.18\.0\.[12] syn_to_synack_ns=[0-9]+ ' |
		grep -vc 'v6=')"
# Real sessions (tests/fuzz/corpus): one whole, cut short, and one with
# its instance buffer damaged (libtracecmd 3.1.6 crashed on it).
check "report on a small real trace.dat" sh -c \
	"'$TEEPROBE' report -i '$corpus/stall-small.dat' | grep -q 'teeprobe_netrx_window 32'"
for n in 100 2000 12000 25000 33000; do
	head -c $n "$corpus/stall-small.dat" >"$tmp/cut$n.dat"
	check_fails "report on a trace.dat cut at $n bytes" \
		"not a readable trace.dat|is damaged" "$TEEPROBE" report -i "$tmp/cut$n.dat"
done
check_fails "report on a trace.dat with a damaged instance buffer" \
	"not a readable trace.dat|is damaged" \
	"$TEEPROBE" report -i "$corpus/regress-damaged-instance.dat"
# trace-cmd report itself dies of SIGSEGV on this one (libtraceevent 1.7.1)
check_fails "report on a trace.dat whose event format crashes libtraceevent" \
	"not a readable trace.dat" \
	"$TEEPROBE" report -i "$corpus/regress-libtraceevent-crash.dat"
check_fails "analyze on it too" "not a readable trace.dat" \
	"$TEEPROBE" analyze -i "$corpus/regress-libtraceevent-crash.dat"
# ... and this one, whose compressed data decompresses into a damaged page
# (kbuffer_load_subbuffer, found by a 10,000-run fuzz from the corpus)
check_fails "report on a trace.dat with a page that crashes libtraceevent" \
	"not a readable trace.dat" \
	"$TEEPROBE" report -i "$corpus/regress-kbuffer-crash.dat"
check_fails "plot on it too" "not a readable trace.dat" \
	"$TEEPROBE" plot -i "$corpus/regress-kbuffer-crash.dat" -o "$tmp/kbuffer"
# ... and this one, with a negative event length in a page: libtracecmd
# yields the same few records for ever (trace-cmd report prints them until
# the disk is full); found by a 30-minute fuzz_trace run
check_fails "report on a trace.dat whose page makes libtracecmd loop" \
	"not a readable trace.dat" \
	timeout 60 "$TEEPROBE" report -i "$corpus/regress-endless-page.dat"
# ... and this one, 32 bytes: a version 7 header naming zstd with a damaged
# version, on which libtracecmd 3.1.6 frees a string twice in
# tracecmd_alloc_fd() and trace-cmd report aborts ("free(): double free
# detected"); found by fuzz_trace once its reading child's reports counted
check_fails "report on a trace.dat whose header makes libtracecmd free twice" \
	"not a readable trace.dat" \
	"$TEEPROBE" report -i "$corpus/regress-double-free.dat"
# ... and says only that: not glibc's "free(): double free detected in
# tcache 2" from the reading child first
check_eq "report on that file prints its own message and nothing else" \
	"teeprobe: report: $corpus/regress-double-free.dat is not a readable trace.dat (truncated, damaged, or not written by trace-cmd)" \
	"$("$TEEPROBE" report -i "$corpus/regress-double-free.dat" 2>&1)"
# ... and this one, whose header says 520,093,697 CPUs: libtracecmd
# allocates 8 bytes for each and peeks at every one for every record (4 GB
# and 24 s before the CPU-count check); found by fuzz_trace (a timeout)
check_fails "report on a trace.dat that says it has half a billion CPUs" \
	"not a readable trace.dat" \
	timeout 20 "$TEEPROBE" report -i "$corpus/regress-many-cpus.dat"
# ... and this one, on which libtracecmd loops for ever in its reads inside
# tracecmd_open() (system time: the old user-time guard never fired);
# found by fuzz_trace (a timeout). The guard now counts user and system
# CPU time from before the open: some 5 s of CPU for a file this small
# (opening gets 10 s more per MB of file: a kallsyms of 9 MB takes seconds)
check_fails "report on a trace.dat that makes libtracecmd loop while it opens it" \
	"was stopped, it made no progress in its CPU time \\(5\\.[0-9]+ s to open the file" \
	timeout 60 "$TEEPROBE" report -i "$corpus/regress-open-loop.dat"
check_fails "plot on an empty file" "not a readable trace.dat" \
	"$TEEPROBE" plot -i "$tmp/empty.dat" -o "$tmp/empty"
check_fails "plot on trace.dat magic followed by garbage" \
	"not a readable trace.dat|is damaged|no teeprobe events|no windows" \
	"$TEEPROBE" plot -i "$tmp/garbage1.dat" -o "$tmp/garbage1"
# --- one command line: trace-cmd's habits ----------------------------------------------
# Every command that reads a session takes -i FILE and FILE alike (the same
# output), and refuses both at once with its one-line synopsis, exit 2
sess=$corpus/tee-small.dat
for cmd in report analyze plot; do
	extra=""
	[ "$cmd" = plot ] && extra="-o $tmp/cli-$cmd"
	a=$("$TEEPROBE" $cmd $extra -i "$sess" 2>&1 | sed "s|$tmp/cli-$cmd||g")
	b=$("$TEEPROBE" $cmd $extra "$sess" 2>&1 | sed "s|$tmp/cli-$cmd||g")
	check "$cmd takes -i FILE and FILE alike" test -n "$a" -a "$a" = "$b"
	"$TEEPROBE" $cmd $extra -i "$sess" "$sess" >"$tmp/both.out" 2>"$tmp/both.err"
	check_eq "$cmd refuses -i FILE with FILE (exit 2)" 2 $?
	check "... saying so, with its synopsis line only" sh -c \
		"grep -q 'give the input once' '$tmp/both.err' &&
		 grep -c '^usage: teeprobe $cmd ' '$tmp/both.err' | grep -qx 1 &&
		 test \$(wc -l <'$tmp/both.err') -le 3"
done
a=$("$TEEPROBE" compare "$corpus/stall-small.dat" "$sess" 2>&1)
b=$("$TEEPROBE" compare -i "$corpus/stall-small.dat" -i "$sess" 2>&1)
check "compare takes BEFORE AFTER and -i BEFORE -i AFTER alike" test -n "$a" -a "$a" = "$b"
check_fails "compare refuses -i with file arguments" "not both" \
	"$TEEPROBE" compare -i "$sess" "$corpus/stall-small.dat"
check_fails "compare refuses a third -i" "is a third" \
	"$TEEPROBE" compare -i "$sess" -i "$sess" -i "$sess"
for cmd in analyze check compare plot record report stat watch; do
	"$TEEPROBE" $cmd --no-such-option >/dev/null 2>"$tmp/bad.err"
	rc=$?
	check "$cmd: an unknown option exits 2 with the synopsis, not the whole help" sh -c \
		"[ $rc = 2 ] && grep -q '^teeprobe $cmd: unrecognized option' '$tmp/bad.err' &&
		 grep -q \"^(see 'teeprobe help $cmd')\" '$tmp/bad.err' &&
		 test \$(wc -l <'$tmp/bad.err') -le 4"
	check "teeprobe help $cmd is $cmd --help" sh -c \
		"'$TEEPROBE' help $cmd >'$tmp/h1' && '$TEEPROBE' $cmd --help >'$tmp/h2' &&
		 cmp -s '$tmp/h1' '$tmp/h2' && grep -q '^usage: teeprobe $cmd' '$tmp/h1'"
done
for cmd in analyze plot compare; do
	extra=""
	[ "$cmd" = compare ] && extra=/etc/os-release
	check_fails "$cmd's read errors name $cmd, not report" \
		"^teeprobe: $cmd: /etc/os-release is not a readable trace.dat" \
		"$TEEPROBE" $cmd /etc/os-release $extra
done
check_fails "teeprobe help of no such command" "no such command 'nope'" "$TEEPROBE" help nope
# watch's command line, before it needs a module: its mistakes exit 2
for bad in "" "--handshake-p99 10" "--handshake-p99 -1ms" "--tee-blocked 1.5" \
	"--handshake-p99 1ms --after 30 --ring 30" "--handshake-p99 1ms --windows 0" \
	"--handshake-p99 1ms --keep 0" "--handshake-p99 1ms -w 5" "--handshake-p99 1ms stray"; do
	"$TEEPROBE" watch $bad -o "$tmp/w" >/dev/null 2>"$tmp/watch.err"
	check_eq "watch $bad: a usage error (exit 2), nothing made" "2 no-dir" \
		"$? $(test -e "$tmp/w" && echo dir || echo no-dir)"
done
for opt in $("$TEEPROBE" watch --help | grep -oE -- '--[a-z0-9-]+' | sort -u); do
	check "watch $opt: in the bash completion and in teeprobe-watch.rst" sh -c \
		"grep -E '^	watch\) opts=.*(\"| )$opt( |\")' '$top/tools/completion/teeprobe' &&
		 grep -qE -- '$opt' '$top/Documentation/teeprobe-watch.rst'"
done
"$TEEPROBE" stat -i 0.5 -c x >/dev/null 2>"$tmp/stat-i.err"
check "stat -i still means the interval, with a warning that it is now -I" \
	grep -q "stat: -i is now -I (--interval)" "$tmp/stat-i.err"
check_fails "stat refuses -I 0" "interval from 0.1" "$TEEPROBE" stat -I 0
# --- JSON: hostile names round-trip, and compare's units -------------------------------
# A file name with a quote, a backslash, a control byte and bytes that are
# not UTF-8: every command's --json stays strict JSON (a strict parser, no
# NaN), and names the file as it can (the bad bytes as U+FFFD)
hostile=$(printf '%s/h"q\\b\001\377\376.dat' "$tmp")
cp "$corpus/tee-small.dat" "$hostile"
for cmd in "report --json -i" "analyze --json -i" "compare --json $corpus/stall-small.dat"; do
	check "${cmd%% *} --json with a hostile file name is strict JSON naming it" \
		/usr/bin/python3 -c '
import json, sys
def no_const(c):
    raise ValueError("not JSON: " + c)
raw = sys.stdin.buffer.read()
d = json.loads(raw.decode("utf-8"), parse_constant=no_const)
name = d.get("file", d.get("after"))
assert name == sys.argv[1].encode("utf-8", "surrogateescape").decode("utf-8", "replace"), name
' "$hostile" < <("$TEEPROBE" $cmd "$hostile" 2>/dev/null)
done
# compare --json: each value in the unit its key names (ns, a share of 1,
# percent for _pct), format 2; the text table shows the same figures, the
# durations in us or from 10 ms in ms (as the value says), shares in
# percent: the two agree row by row
"$TEEPROBE" compare "$corpus/stall-small.dat" "$corpus/tee-small.dat" >"$tmp/cmp.txt" 2>&1
"$TEEPROBE" compare --json "$corpus/stall-small.dat" "$corpus/tee-small.dat" >"$tmp/cmp.json" 2>&1
check "compare --json's units match the text table's, row by row" /usr/bin/python3 -c '
import json, re, sys
d = json.load(open(sys.argv[2]))
assert d["format"] == 3, d.get("format")
text = {}
v = r"(-|[-+0-9.]+(?: [um]s)?)"
for line in open(sys.argv[1]):
    if not line.strip():
        break
    m = re.match(r"^(\S.*?)\s+" + v + r"\s+" + v + r"\s+" + v + r"\s+(-|[0-9.]+x)$", line)
    if m and m.group(1).strip():
        text[m.group(1).strip()] = m.group(2, 3)
assert len(text) == len(d["rows"]), (len(text), len(d["rows"]))
order = list(text)
def ns(t):
    n, _, unit = t.partition(" ")
    return float(n) * {"us": 1e3, "ms": 1e6}[unit], {"us": 50, "ms": 500}[unit]
for i, r in enumerate(d["rows"]):
    name = order[i]
    k = r["metric"]
    scale = 100 if k.endswith("_share") else 1
    assert k.endswith(("_ns", "_share", "_pct", "_per_s", "_per_run")), k
    for side, t in (("before", text[name][0]), ("after", text[name][1])):
        val = r[side]
        if t == "-":
            assert val is None, (k, side, val)
        elif t.endswith("s"):
            assert k.endswith("_ns"), (k, t)
            got, tol = ns(t)
            assert val is not None and abs(val - got) <= tol + 1e-9 * abs(got), (k, side, val, t)
            assert (abs(val) >= 9999950) == t.endswith(" ms"), ("ms from 10 ms", k, val, t)
        else:
            assert not k.endswith("_ns"), (k, t)
            assert val is not None and abs(val * scale - float(t)) <= 0.0051 + 1e-9 * abs(float(t)), (k, side, val, t)
' "$tmp/cmp.txt" "$tmp/cmp.json"
# --- readable text (issue 36): within 100 columns, durations in the unit that
# reads, the files by name, throughput explained ------------------------------------------
# the corpus's sessions under short names, so that the file's name does not
# make the header long; the demo's sessions too when this host has them
# (make demo's, or TEEPROBE_DEMO=DIR: another tree's build/demo)
mkdir -p "$tmp/wide/hard-temp" "$tmp/wide/hard-reg"
cp "$corpus/stall-small.dat" "$tmp/wide/hard-temp/trace.dat"
cp "$corpus/tee-small.dat" "$tmp/wide/hard-reg/trace.dat"
demo=${TEEPROBE_DEMO:-$top/build/demo}/guest/lab
wide_files="$corpus/tee-small.dat $corpus/stall-small.dat $corpus/light-small.dat $corpus/light-small-v6.dat"
for f in "$demo"/*/trace.dat; do
	[ -f "$f" ] && wide_files="$wide_files $f"
done
over=0
for f in $wide_files; do
	for cmd in "report" "report --no-hist" "analyze" "analyze --windows"; do
		n=$("$TEEPROBE" $cmd -i "$f" 2>&1 | sed 1d | awk 'length > 100' | wc -l)
		[ "$n" = 0 ] || { echo "# $cmd $f: $n lines over 100 columns"; over=$((over + n)); }
	done
done
check_eq "report and analyze: no line over 100 columns (past the file's name)" 0 "$over"
"$TEEPROBE" compare "$tmp/wide/hard-temp/trace.dat" "$tmp/wide/hard-reg/trace.dat" >"$tmp/wide.txt" 2>&1
check_eq "compare: no line over 100 columns" 0 "$(awk 'length > 100' "$tmp/wide.txt" | wc -l)"
check "compare names the files without their directories' path" sh -c \
	"grep -qx '(before: hard-temp/trace.dat, [0-9.]* s; after: hard-reg/trace.dat, [0-9.]* s)' '$tmp/wide.txt' &&
	 ! grep -q '$tmp' '$tmp/wide.txt'"
if [ -f "$demo/hard-temp-1000/trace.dat" ] && [ -f "$demo/hard-reg-1000/trace.dat" ]; then
	"$TEEPROBE" compare "$demo/hard-temp-1000/trace.dat" "$demo/hard-reg-1000/trace.dat" >"$tmp/demo-cmp.txt" 2>&1
	check "compare of the demo's sessions: within 100 columns, no /run/ or host path" sh -c \
		"! awk 'length > 100' '$tmp/demo-cmp.txt' | grep -q . &&
		 ! grep -qE '/run/|$top|$demo' '$tmp/demo-cmp.txt'"
else
	skip "compare of the demo's sessions" "no make demo output in build/demo"
fi
check "compare prints each session's handshakes/s and the parts per handshake and per second" sh -c \
	"grep -Eq '^handshakes/s +[0-9.]+ +[0-9.]+ ' '$tmp/wide.txt' &&
	 grep -Eq '^Per handshake and per second \(handshakes/s: before [0-9.]+, after [0-9.]+, [0-9.]+x\)$' '$tmp/wide.txt' &&
	 grep -Eq '^NET_RX softirqs +[0-9.]+ +[0-9.]+ +[0-9.]+x +[0-9.]+ +[0-9.]+ +[0-9.]+x$' '$tmp/wide.txt'"
# stall-small serves 95 handshakes/s, tee-small 17: its per-second totals
# fall with throughput while per handshake NET_RX runs rise
check "compare says why a part moved when throughput changed" sh -c \
	"tr '\n' ' ' <'$tmp/wide.txt' | grep -Eq '\(the after run serves 0\.18x the handshakes per second of the before run: per second its NET_RX +softirqs.* fall, while per handshake they rise\)'"
# a duration of 10 ms and more in ms: tee-small's TEE calls per handshake are
# 57.6 ms (57565 us in its JSON)
check "compare prints a duration from 10 ms in ms" sh -c \
	"grep -Eq '^TEE time per handshake +0\.0 us +57\.5[0-9]{2} ms +\+57\.5[0-9]{2} ms +- *$' '$tmp/wide.txt'"
check "analyze prints a duration from 10 ms in ms, one below it in us" sh -c \
	"'$TEEPROBE' analyze -i '$corpus/tee-small.dat' >'$tmp/an.txt' &&
	 grep -Eq '^  TEE ioctls +57\.[0-9]{3} ms ' '$tmp/an.txt' &&
	 grep -Eq '^  SYN -> SYN/ACK +129\.[0-9] us ' '$tmp/an.txt'"
check "report prints durations from 10 ms in ms, and no _us column" sh -c \
	"'$TEEPROBE' report -i '$corpus/tee-small.dat' >'$tmp/rep.txt' &&
	 grep -Eq ' [0-9]+\.[0-9]{3} ms( |$)' '$tmp/rep.txt' &&
	 ! grep -Eq ' [0-9]{5,}\.[0-9] us' '$tmp/rep.txt' && ! grep -q '_us ' '$tmp/rep.txt'"
# --- scripts/deps: make demo installs only what the demo needs (issue 36) ------------
deps=$top/scripts/deps
"$deps" --demo --list >"$tmp/deps-demo" 2>&1
"$deps" --list >"$tmp/deps-all" 2>&1
check "deps --demo leaves out the 6.12 kernel, the arm64 compiler, clang/llvm, bpftrace, promtool, KernelShark, Xvfb" sh -c \
	"grep -qx qemu-system-x86 '$tmp/deps-demo' && grep -qx linux-headers-amd64 '$tmp/deps-demo' &&
	 grep -qx trace-cmd '$tmp/deps-demo' &&
	 ! grep -Eq '^(linux-headers-6\.12|gcc-aarch64-linux-gnu|clang|llvm|libclang-rt-.*|bpftrace|promtool|qemu-system-arm|kernelshark|xvfb|x11-apps|xdotool)( |$)' '$tmp/deps-demo'"
check "deps (make check's) still has all of them, and everything the demo has" sh -c \
	"grep -Eq '^linux-headers-6\.12 ' '$tmp/deps-all' && grep -qx gcc-aarch64-linux-gnu '$tmp/deps-all' &&
	 grep -qx clang '$tmp/deps-all' && grep -qx llvm '$tmp/deps-all' && grep -qx bpftrace '$tmp/deps-all' &&
	 grep -qx kernelshark '$tmp/deps-all' && grep -qx xvfb '$tmp/deps-all' &&
	 grep -qx x11-apps '$tmp/deps-all' && grep -qx xdotool '$tmp/deps-all' &&
	 grep -Eq '^promtool ' '$tmp/deps-all' && ! grep -vxFf '$tmp/deps-all' '$tmp/deps-demo' | grep -q ."
check "deps --demo -k optee adds the arm64 guest's tools, not the test-only ones" sh -c \
	"'$deps' --demo -k optee --list >'$tmp/deps-optee' &&
	 grep -qx gcc-aarch64-linux-gnu '$tmp/deps-optee' && grep -qx qemu-system-arm '$tmp/deps-optee' &&
	 ! grep -Eq '^(clang|bpftrace|promtool|linux-headers-6\.12)( |$)' '$tmp/deps-optee'"
check "deps --demo -k 6.12 wants the 6.12 kernel" grep -Eq '^linux-headers-6\.12 ' \
	<("$deps" --demo -k 6.12 --list)
check "deps --dry-run installs nothing and says what it would" sh -c \
	"'$deps' --demo --dry-run 2>&1 | grep -Eq '^teeprobe: dry run: (nothing to install|would install: )'"
check_fails "deps refuses -k without --demo" "goes with --demo" "$deps" -k optee --list
check_eq "make demo runs deps --demo, then the demo" \
	"$(printf '%s\n' 'scripts/deps --demo ' 'scripts/demo ')" \
	"$(make -s -n -C "$top" demo 2>&1)"
check_eq "make check runs deps --kernels (everything), then the tests" \
	"$(printf '%s\n' 'scripts/deps --kernels' 'tests/run')" \
	"$(make -s -n -C "$top" check 2>&1)"
# tests/vm/test-times: a step's time runs from the result (or the test's
# start) before it
printf '%s\n' "100 t10-a (start)" "105 t10-a first check" "130 t10-a second one" \
	"131 t20-b (start)" "140 t20-b third" >"$tmp/times"
check_eq "test-times: each test's total, then its longest steps" \
	"$(printf '%s\n' "== $tmp/times" "    30 s  t10-a" "     9 s  t20-b" \
		"longest steps:" "25	t10-a	second one" "9	t20-b	third")" \
	"$("$top/tests/vm/test-times" -n 2 "$tmp")"
done_testing
