#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""histpct - a debugfs *_hist row set's percentiles against the exact ones.

Usage: histpct.py HIST LABEL EVENTS

HIST is a copy of a teeprobe *_hist file, LABEL the first column of the
rows to read (e.g. INVOKE in tee_hist), EVENTS a trace-cmd report whose
"teeprobe_tee_ioctl_exit: cmd=LABEL duration_ns=N" lines carry the same
calls one by one. Prints, for p50 and p99, the exact nearest-rank value of
the events and the histogram's, placed within its bucket as the tools do
(Documentation/debugfs.rst: the log-linear layout of "# hist_sub_bits N"
and "# hist_unit_shift N"),
as "pNN exact hist", and a last line "count EVENTS ROWS".
"""
import re
import sys


def bucket_low(i, sub_bits, unit):
    """smallest value (ns) of log-linear bucket i"""
    sub = 1 << sub_bits
    if i < sub:
        return i << unit
    return (sub + i % sub) << (i // sub - 1 + unit)


def bucket_of(value, sub_bits, unit):
    """index of the log-linear bucket holding value (below the last)"""
    sub = 1 << sub_bits
    u = value >> unit
    if u < sub:
        return u
    shift = u.bit_length() - 1 - sub_bits
    return shift * sub + (u >> shift)


def main():
    hist, label, events = sys.argv[1:4]
    sub_bits = unit = None
    counts = {}
    # the columns by their names in the header, the last "#" line before
    # the first row (tests/lib/debugfs.sh)
    header = cols = None
    with open(hist) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[:2] == ["#", "hist_sub_bits"]:
                sub_bits = int(w[2])
            elif len(w) == 3 and w[:2] == ["#", "hist_unit_shift"]:
                unit = int(w[2])
            elif w and w[0] == "#":
                if cols is None:
                    header = w[1:]
            elif w:
                if cols is None:
                    if not header or "bucket_low_ns" not in header or "all" not in header:
                        sys.exit("histpct: %s has no header naming bucket_low_ns and all" % hist)
                    cols = header.index("bucket_low_ns"), header.index("all")
                if w[0] == label:
                    counts[int(w[cols[0]])] = int(w[cols[1]])
    if sub_bits is None or unit is None:
        sys.exit("histpct: %s has no \"# hist_sub_bits\" or \"# hist_unit_shift\" line" % hist)
    pattern = re.compile(r"teeprobe_tee_ioctl_exit: *cmd=%s duration_ns=(\d+)"
                         % re.escape(label))
    values = []
    with open(events) as f:
        for line in f:
            m = pattern.search(line)
            if m:
                values.append(int(m.group(1)))
    values.sort()
    n = sum(counts.values())
    if not values or n != len(values):
        sys.exit("histpct: %d events, %d counted in the histogram" % (len(values), n))
    # every bucket low edge the module printed is a bucket's low edge
    for low in counts:
        if bucket_low(bucket_of(low, sub_bits, unit), sub_bits, unit) != low:
            sys.exit("histpct: %d is no bucket's low edge" % low)
    for pct in (50, 99):
        rank = max(1, (n * pct + 99) // 100)
        exact = values[rank - 1]
        seen = 0
        for low in sorted(counts):
            if seen + counts[low] >= rank:
                top = bucket_low(bucket_of(low, sub_bits, unit) + 1, sub_bits, unit) - 1
                at = low + (top - low) * (rank - seen) // counts[low]
                break
            seen += counts[low]
        print("p%d %d %d" % (pct, exact, min(at, values[-1])))
    print("count %d %d" % (len(values), n))


if __name__ == "__main__":
    main()
