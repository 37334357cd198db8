#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""watchcheck.py - a capture of "teeprobe watch" read by trace-cmd, the
reader teeprobe did not write.

Usage: watchcheck.py change CAPTURE THRESHOLD_NS
       watchcheck.py events CAPTURE TEEPROBE

change: the capture holds the change that started it: from the capture's
start on (its start snapshot's "capture" lines, as markers), a window
under the threshold before the run of windows over it that made the
breach, and the run's windows over it. A window's figure is the largest
SYN -> SYN/ACK or ACK -> accept() p99 of any CPU in it (the watch's own
rule, computed here again from the teeprobe_tcp_window events). Prints the
windows.

events: trace-cmd reads the capture's events, and the server handshakes
from the capture's start on are as many as "teeprobe report --json"
counts (report leaves out the ring's events from before the start).
"""
import re
import subprocess
import sys

FIELD = re.compile(r"(\w+)=(\S+)")
TIME = re.compile(r"\s(\d+)(?:\.(\d+))?:\s")


def report(path):
    """report - trace-cmd report -t of PATH: its lines (exit 0 required)"""
    run = subprocess.run(["trace-cmd", "report", "-t", path], capture_output=True,
                         text=True, timeout=300, check=False)
    if run.returncode:
        print("trace-cmd report -t %s: status %d: %s" % (path, run.returncode,
                                                         run.stderr[-500:]))
        sys.exit(1)
    return run.stdout.splitlines()


def stamp(line):
    """stamp - an event line's time in ns (trace-cmd -t: s.nnnnnnnnn)"""
    m = TIME.search(line)
    if not m:
        return None
    frac = (m.group(2) or "0").ljust(9, "0")[:9]
    return int(m.group(1)) * 10**9 + int(frac)


def capture(lines):
    """capture - the start snapshot's "capture" lines: key -> value"""
    out = {}
    for line in lines:
        m = re.search(r"teeprobe-snap start capture (\w+) (\S+)", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def change(path, threshold):
    """change - the windows under, then over, the threshold"""
    lines = report(path)
    cap = capture(lines)
    if "from_ns" not in cap or "run_start_ns" not in cap:
        print("no capture lines in the start snapshot: %s" % cap)
        return 1
    start, run_start = int(cap["from_ns"]), int(cap["run_start_ns"])
    run = int(cap.get("run_windows", "1"))
    windows = {}
    for line in lines:
        if "teeprobe_tcp_window:" not in line:
            continue
        f = dict(FIELD.findall(line))
        w = int(f["start_ns"])
        p99 = [int(f[p + "_p99_ns"]) for p in ("syn_synack", "ack_accept")
               if int(f[p + "_count"]) > 0]
        if p99:
            windows[w] = max(windows.get(w, 0), max(p99))
    for w in sorted(windows):
        mark = "<" if w < start else ("run" if w >= run_start else "")
        print("window %.0f s: %.1f ms %s" % (w / 1e9, windows[w] / 1e6, mark))
    before = [w for w in windows if start <= w < run_start and windows[w] <= threshold]
    over = [w for w in windows if w >= run_start and windows[w] > threshold]
    print("from %.3f s, run from %.3f s: %d windows under before it, %d over from it (%d make a breach)"
          % (start / 1e9, run_start / 1e9, len(before), len(over), run))
    return 0 if before and len(over) >= run else 1


def events(path, teeprobe):
    """events - trace-cmd's server handshakes from the start, against report's"""
    import json
    lines = report(path)
    cap = capture(lines)
    if "from_ns" not in cap:
        print("no capture lines in the start snapshot")
        return 1
    start = int(cap["from_ns"])
    all_hs = [l for l in lines if "teeprobe_tcp_handshake:" in l and "side=server" in l]
    kept = [l for l in all_hs if stamp(l) is not None and stamp(l) >= start]
    run = subprocess.run([teeprobe, "report", "--json", "-i", path], capture_output=True,
                         text=True, timeout=300, check=False)
    if run.returncode:
        print("teeprobe report: status %d: %s" % (run.returncode, run.stderr[-500:]))
        return 1
    counted = json.loads(run.stdout)["handshakes"]["events"]["server"]
    print("trace-cmd: %d server handshakes in the file, %d from the capture's start;"
          " teeprobe report: %d" % (len(all_hs), len(kept), counted))
    return 0 if kept and len(kept) == counted else 1


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "change":
        return change(sys.argv[2], int(sys.argv[3]))
    if len(sys.argv) == 4 and sys.argv[1] == "events":
        return events(sys.argv[2], sys.argv[3])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
