#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""synflood.py SRC DST PORT COUNT - send COUNT TCP SYNs from SRC (random
source ports and sequence numbers) to DST:PORT through a raw IPv4 socket, as
fast as Python can; print how many were sent and how long it took. A test
tool for t85-stress: run it as root in the client's network namespace.

The source ports are a shuffled run through 1024..65535, so that up to
64512 SYNs no two share a port: a second SYN from the port of a request
still half-open would be taken as that request's retransmitted SYN, not
as a new one (and the listener's SYN count would lawfully fall short of
the kernel's InSegs). More SYNs than that start another run."""
import random
import socket
import struct
import sys
import time


def checksum(data):
    """The Internet checksum of data."""
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def syn(src, dst, sport, dport, seq):
    """One IPv4 packet holding a TCP SYN."""
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, 0, 5 << 4, 0x02, 64240, 0, 0)
    pseudo = src + dst + struct.pack("!BBH", 0, socket.IPPROTO_TCP, len(tcp))
    tcp = tcp[:16] + struct.pack("!H", checksum(pseudo + tcp)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), random.getrandbits(16),
                     0, 64, socket.IPPROTO_TCP, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    return ip + tcp


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    src = socket.inet_aton(sys.argv[1])
    dst = socket.inet_aton(sys.argv[2])
    port, count = int(sys.argv[3]), int(sys.argv[4])
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
    start = time.monotonic()
    ports = []
    for _ in range(count):
        if not ports:
            ports = list(range(1024, 65536))
            random.shuffle(ports)
        pkt = syn(src, dst, ports.pop(), port, random.getrandbits(32))
        while True:
            try:
                s.sendto(pkt, (sys.argv[2], 0))
                break
            except BlockingIOError:
                time.sleep(0.001)
            except OSError as e:
                if e.errno != 105:   # ENOBUFS: the qdisc is full, retry
                    raise
                time.sleep(0.001)
    print("sent %d SYNs in %.1f s" % (count, time.monotonic() - start))


if __name__ == "__main__":
    main()
