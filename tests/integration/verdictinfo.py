#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""verdictinfo.py - what a verdict was decided on, for a failed check.

Usage: verdictinfo.py ANALYZE.json

Prints the verdict of "teeprobe analyze --json" with every number it was
decided on: the parts of a handshake's time with their shares of the
total, the evidence, the accept queue's shares and the thresholds' inputs
as they are in the file (whatever keys this version writes), so that one
CI log is enough to tell how far a verdict was from another.
"""
import json
import sys


def fmt(v):
    """fmt - a number short, anything else as it is"""
    if isinstance(v, float):
        return "%.4g" % v
    return str(v)


def flat(prefix, d, out):
    """flat - KEY=VALUE pairs of a nested dict, keys joined with dots"""
    for k, v in d.items():
        if isinstance(v, dict):
            flat(prefix + k + ".", v, out)
        else:
            out.append("%s%s=%s" % (prefix, k, fmt(v)))


def lines(pairs, width=100):
    """lines - pairs packed into lines of at most WIDTH characters"""
    line = ""
    for p in pairs:
        if line and len(line) + 1 + len(p) > width:
            yield line
            line = ""
        line = line + " " + p if line else p
    if line:
        yield line


def main():
    try:
        r = json.load(open(sys.argv[1]))
    except (OSError, ValueError, IndexError) as e:
        print("no analysis to show: %s" % e)
        return 1
    v = r.get("verdict", {})
    print("verdict: %s (top %s, second %s, path %s)" %
          (v.get("cause"), v.get("top"), v.get("second"), v.get("path")))
    print("  title: %s" % v.get("title"))
    print("  why:   %s" % v.get("why"))
    parts = r.get("parts_us", {})
    total = parts.get("total") or 0
    shares = ["%s=%s us (%s)" % (k, fmt(p), "%.0f %%" % (100 * p / total)
                                 if total and isinstance(p, (int, float)) else "-")
              for k, p in parts.items() if k != "total"]
    print("parts: total %s us" % fmt(total))
    for ln in lines(shares):
        print("  " + ln)
    for section in ("evidence", "accept_queue"):
        pairs = []
        flat("", r.get(section, {}), pairs)
        print(section + ":")
        for ln in lines(pairs):
            print("  " + ln)
    return 0


if __name__ == "__main__":
    sys.exit(main())
