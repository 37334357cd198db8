#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ksteefixture.py - a session with TEE calls as enter/exit pairs, for
tests/tools/kernelshark.sh

  ksteefixture.py IN.dat OUT.dat

The corpus's sessions were recorded without --raw: they hold the calls'
teeprobe_tee_ioctl_exit events and no teeprobe_tee_ioctl_enter (not even
its format), and recording needs the module in a guest. This makes one out
of IN: trace-cmd converts it to an uncompressed version 6 file; the format
of teeprobe_reset, which IN holds no event of, becomes a shortened
teeprobe_tee_ioctl_enter's under teeprobe_reset's id (same length: the
file's offsets stay); and, task by task in time order, every other exit
record becomes an enter (its type rewritten in place: the enter's fields
are the exit's first ones). The first task starts with an exit (a call
open at the start of the trace), the others with an enter; a task with an
odd number ends with an enter (open at the end). trace-cmd report reads
the result as it reads IN, with the enters where the exits were.
"""
import re
import struct
import subprocess
import sys
import tempfile
import os


def report(path):
    """(ts, cpu, pid, event) of every teeprobe_tee_ioctl_* line"""
    out = subprocess.run(['trace-cmd', 'report', path], capture_output=True,
                         text=True, check=True).stdout
    rows = []
    pat = re.compile(r'-(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(teeprobe_tee_ioctl_(?:enter|exit)):')
    for line in out.splitlines():
        m = pat.search(line)
        if m:
            rows.append((m.group(3), int(m.group(2)), int(m.group(1)), m.group(4)))
    return rows


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    src, dst = argv[1], argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        v6 = os.path.join(tmp, 'v6.dat')
        subprocess.run(['trace-cmd', 'convert', '-i', src, '--file-version', '6',
                        '--compression', 'none', '-o', v6],
                       capture_output=True, check=True)
        data = bytearray(open(v6, 'rb').read())

    def fmt(name):
        i = data.find(b'name: %s\n' % name)
        if i < 8:
            raise ValueError('no format of %s' % name.decode())
        size = struct.unpack('<Q', data[i - 8:i])[0]
        text = bytes(data[i:i + size])
        return i, size, int(re.search(rb'\nID: (\d+)\n', text).group(1))

    r_at, r_size, r_id = fmt(b'teeprobe_reset')
    _, _, x_id = fmt(b'teeprobe_tee_ioctl_exit')
    common = ''.join('\tfield:%s;\toffset:%d;\tsize:%d;\n' % f for f in (
        ('unsigned short common_type', 0, 2), ('unsigned char common_flags', 2, 1),
        ('unsigned char common_preempt_count', 3, 1), ('int common_pid', 4, 4)))
    enter = ('name: teeprobe_tee_ioctl_enter\nID: %d\nformat:\n%s\n'
             '\tfield:unsigned int cmd;\toffset:8;\tsize:4;\n'
             '\tfield:unsigned int raw_cmd;\toffset:12;\tsize:4;\n\n'
             'print fmt: "cmd=%%u", REC->cmd\n' % (r_id, common)).encode()
    if len(enter) > r_size:
        raise ValueError('the enter format (%d) does not fit in %d' % (len(enter), r_size))
    data[r_at:r_at + r_size] = enter + b'\n' * (r_size - len(enter))

    # the exits in the order of the file: CPU by CPU, in time order
    exits = [r for r in report(src) if r[3] == 'teeprobe_tee_ioctl_exit']
    by_file = sorted(exits, key=lambda r: (r[1], float(r[0])))
    start = data.find(b'flyrecord')
    hits = []
    pids = {r[2] for r in exits}
    pos = start
    tag = struct.pack('<H', x_id)
    while True:
        pos = data.find(tag, pos + 1)
        if pos < 0:
            break
        if struct.unpack('<i', data[pos + 4:pos + 8])[0] in pids:
            hits.append(pos)
    if len(hits) != len(by_file):
        raise ValueError('%d exit records found, trace-cmd reports %d' % (len(hits), len(exits)))
    for at, r in zip(hits, by_file):
        if struct.unpack('<i', data[at + 4:at + 8])[0] != r[2]:
            raise ValueError('exit record at %d is not pid %d\'s' % (at, r[2]))
    where = dict(zip(((r[0], r[1], r[2]) for r in by_file), hits))

    # task by task, in time order: enter, exit, enter, ... (the first
    # task: exit, enter, exit, ...)
    seen = {}
    first = min(pids)
    for r in sorted(exits, key=lambda r: float(r[0])):
        k = seen.get(r[2], 0)
        seen[r[2]] = k + 1
        if (k + (1 if r[2] == first else 0)) % 2 == 0:
            at = where[(r[0], r[1], r[2])]
            data[at:at + 2] = struct.pack('<H', r_id)
    open(dst, 'wb').write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
