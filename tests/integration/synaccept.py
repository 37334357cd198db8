#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""synaccept - each connection's time from its SYN to accept(), without teeprobe.

usage: synaccept.py TCPDUMP_OUT ACCEPT_LOG

TCPDUMP_OUT is "tcpdump -n -tt --time-stamp-precision=nano" of the SYNs as
the server's stack takes them ("-i eth0 -Q in" on the server: the stamp is
taken when NET_RX hands the packet up, where teeprobe's SYN -> SYN/ACK
begins; the first SYN from a source port counts: a retransmit is part of
the connection's wait); ACCEPT_LOG has "REALTIME_NS PEER_PORT" per accept
(acceptlog.py, hsbench server --accept-log). Both clocks are the guest's
CLOCK_REALTIME. Prints "connections N p50_us P p99_us P mean_us M", over
the connections found in both.
"""
import re
import sys


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    syn = {}
    pat = re.compile(r"^(\d+)\.(\d+) IP6? \S+\.(\d+) > ")
    with open(argv[0]) as f:
        for line in f:
            m = pat.match(line)
            if not m:
                continue
            ns = int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, "0")[:9])
            syn.setdefault(int(m.group(3)), ns)
    waits = []
    with open(argv[1]) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 2:
                continue
            t, port = int(parts[0]), int(parts[1])
            if port in syn and t >= syn[port]:
                waits.append((t - syn.pop(port)) / 1000)
    if not waits:
        print("synaccept: no connection in both files", file=sys.stderr)
        return 1
    waits.sort()
    n = len(waits)

    def rank(p):
        return waits[max(1, (n * p + 99) // 100) - 1]
    print("connections %d p50_us %.1f p99_us %.1f mean_us %.1f"
          % (n, rank(50), rank(99), sum(waits) / n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
