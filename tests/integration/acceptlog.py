#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""acceptlog - a small HTTP server that logs when it accepts each connection.

usage: acceptlog.py ADDR PORT LOG READY [--late-ms MS] [--count N]

One thread, blocking: accept, answer one HTTP request with "ok", close.
With --late-ms it sleeps MS before each accept(): a server that takes its
connections late, as an application busy elsewhere does. Each accept is
logged as "REALTIME_NS PEER_PORT" (CLOCK_REALTIME, as tcpdump stamps
packets), so that a connection's time from its SYN leaving the client to
accept() is measured without teeprobe. READY is created once it listens;
it stops after N connections (default: never) or on SIGTERM.
"""
import signal
import socket
import sys
import time


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    addr, port, log_path, ready = argv[0], int(argv[1]), argv[2], argv[3]
    late = count = 0
    rest = argv[4:]
    while rest:
        if rest[0] == "--late-ms" and len(rest) > 1:
            late = float(rest[1]) / 1000
        elif rest[0] == "--count" and len(rest) > 1:
            count = int(rest[1])
        else:
            print("acceptlog: unknown option %s" % rest[0], file=sys.stderr)
            return 2
        rest = rest[2:]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, port))
    srv.listen(1024)
    open(ready, "w").close()
    done = 0
    with open(log_path, "w", buffering=1) as log:
        while not count or done < count:
            if late:
                time.sleep(late)
            conn, peer = srv.accept()
            log.write("%d %d\n" % (time.time_ns(), peer[1]))
            try:
                conn.settimeout(10)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n"
                             b"Connection: close\r\n\r\nok")
            except OSError:
                pass
            conn.close()
            done += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
