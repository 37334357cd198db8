#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""badinput.py - write boundary and random inputs to one teeprobe file.

Usage: badinput.py KIND PATH N [SEED]
  KIND  reset, pid_filter (debugfs) or window_ms (module parameter)
  N     random inputs after the fixed boundary list
Each input is written with one write(); the outcome (bytes written, or the
errno) and, when accepted, the value read back must be what the file's
documented grammar (Documentation/security.rst) says. Prints a summary line
and every mismatch; exits 1 on any mismatch.
"""
import errno
import os
import random
import sys

# PID_MAX_LIMIT - 1: 4194303 on 64-bit, 32767 with CONFIG_BASE_SMALL (the
# lab kernel); t80 passes the kernel's in TP_PID_MAX
PID_MAX = int(os.environ.get("TP_PID_MAX", "4194303"))
MAX_PIDS = 8
KSPACE = b'\t\n\v\f\r \xa0'	# isspace() of the kernel's ctype table


def kstrtoull(s, plus=True):
    """lib/kstrtox.c on a NUL-free byte string: (value, None) or (None, err)"""
    if plus and s[:1] == b'+':
        s = s[1:]
    i, v = 0, 0
    while i < len(s) and 0x30 <= s[i] <= 0x39:
        v = v * 10 + s[i] - 0x30
        i += 1
    if v >= 1 << 64:
        return None, errno.ERANGE
    if i == 0:
        return None, errno.EINVAL
    rest = s[i:]
    if rest[:1] == b'\n':
        rest = rest[1:]
    if rest:
        return None, errno.EINVAL
    return v, None


def kstrtouint(s):
    v, err = kstrtoull(s)
    if err:
        return None, err
    return (v, None) if v < 1 << 32 else (None, errno.ERANGE)


def kstrtoint(s):
    if s[:1] == b'-':
        v, err = kstrtoull(s[1:], plus=False)
        if err or v > 1 << 63:
            return None, err or errno.ERANGE
        v = -v
    else:
        v, err = kstrtoull(s)
        if err or v >= 1 << 63:
            return None, err or errno.ERANGE
    return (v, None) if -(1 << 31) <= v < 1 << 31 else (None, errno.ERANGE)


def cstr(b):
    return b.split(b'\0', 1)[0]


def expect_reset(b):
    """"1" as kstrtouint reads it; at most 15 bytes, no NUL"""
    if not b or len(b) >= 16 or b'\0' in b:
        return 'err', None
    v, err = kstrtouint(b)
    return ('ok', None) if v == 1 else ('err', None)


def expect_pid_filter(b):
    """up to 8 pids from 1 to PID_MAX separated by spaces/tabs, or "0" """
    if not b or len(b) >= 128 or b'\0' in b:
        return 'err', None
    s = b.strip(KSPACE)
    if not s:
        return 'err', None
    pids = []
    toks = s.replace(b'\t', b' ').split(b' ')
    for k, tok in enumerate(toks):
        if not tok:
            continue
        v, err = kstrtoint(tok)
        if err or v < 0 or v > PID_MAX or len(pids) >= MAX_PIDS:
            return 'err', None
        if v == 0:
            rest = b' '.join(toks[k + 1:]).strip(KSPACE)
            if pids or rest:
                return 'err', None
            break
        pids.append(v)
    return 'ok', (' '.join(map(str, pids)) if pids else 'all') + '\n'


def expect_window_ms(b):
    """10 to 60000; sysfs: an empty write is a no-op, only the first 4096
    bytes of a write are read (a longer one, if valid, is a short write),
    and the value ends at the first NUL"""
    if not b:
        return 'noop', None
    v, err = kstrtouint(cstr(b[:4096]))
    if err or not 10 <= v <= 60000:
        return 'err', None
    return 'ok', '%d\n' % v


EXPECT = {'reset': expect_reset, 'pid_filter': expect_pid_filter,
          'window_ms': expect_window_ms}
VALID = {'reset': b'1\n', 'pid_filter': b'0\n', 'window_ms': b'100\n'}


def fixed_inputs():
    big = [b'18446744073709551615', b'18446744073709551616',
           b'99999999999999999999', b'4294967295', b'4294967296',
           b'2147483647', b'2147483648', b'-2147483648', b'-2147483649',
           b'9223372036854775808', b'-9223372036854775808',
           b'-9223372036854775809']
    edge = [b'', b'0', b'-0', b'+0', b'-1', b'1', b'+1', b'01', b'1\n',
            b'1\n\n', b'\n', b' ', b'abc', b'1x', b' 1', b'1 ', b'\t1',
            b'0x1', b'1e3', b'1.0', b'1,2', b',', b',,,', b'all', b'none',
            b'1\0', b'\0' + b'1', b'1\0garbage', b'\xa01', b'1\xa0',
            b'9', b'10', b'11', b'59999', b'60000', b'60001', b'100',
            b'4194303', b'4194304', b'4194305', b'1 2 3 4 5 6 7 8',
            b'1 2 3 4 5 6 7 8 9', b'1 2 3 4 5 6 7 8 0', b'0 0', b'0 1',
            b'1 0', b'1  2', b'1\t2', b'1\n2', b'1,2,3', b'-1 2',
            b' ' * 127, b'1' + b' ' * 126, b'1' + b' ' * 127,
            b'0' * 33 + b'1', b'0' * 33 + b'1junk', b'0' * 40 + b'1',
            b'0' * 14 + b'1', b'0' * 15 + b'1', b'0' * 4095 + b'1',
            b'0' * 4096 + b'1', b'7' * 4096, b'7' * 70000, b'\n' * 70000]
    out = big + [b'-' + x for x in big if not x.startswith(b'-')] + edge
    out += [bytes([c]) for c in range(256)]
    out += [bytes([c]) + b'1' for c in range(256)]
    out += [b'1' + bytes([c]) for c in range(256)]
    return out


def random_input(rng):
    r = rng.random()
    if r < 0.4:		# raw bytes
        return rng.randbytes(rng.randint(0, 300))
    if r < 0.7:		# numeric-ish
        parts = [b'+', b'-', b' ', b'\t', b'\n', b'0', b'1', b'9', b',',
                 b'x', b'0x', b'\0', b'\xa0', b'all']
        out = b''
        for _ in range(rng.randint(0, 12)):
            if rng.random() < 0.5:
                out += str(rng.randint(0, 10 ** rng.randint(1, 25))).encode()
            else:
                out += rng.choice(parts)
        return out
    # near the valid grammar: numbers around the bounds, lists of them
    bounds = [0, 1, 9, 10, 11, 59999, 60000, 60001, PID_MAX, PID_MAX + 1,
              2 ** 31, 2 ** 32, 2 ** 64]
    items = []
    for _ in range(rng.randint(1, 10)):
        v = rng.choice(bounds) + rng.randint(-2, 2)
        if rng.random() < 0.3:
            v = rng.randint(0, 2 ** rng.randint(1, 70))
        items.append(str(v).encode())
    sep = rng.choice([b' ', b'\t', b',', b'  '])
    return sep.join(items[:rng.randint(1, len(items))]) + \
        rng.choice([b'', b'\n', b' ', b'\n\n'])


def readback(kind, path):
    if kind == 'reset':
        return None
    with open(path, 'rb') as f:
        return f.read().decode('latin-1')


def main():
    kind, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else \
        int.from_bytes(os.urandom(8), 'little')
    rng = random.Random(seed)
    expect = EXPECT[kind]
    # TP_BADINPUT_STEP=K keeps every Kth boundary input (the slow lab kernel)
    inputs = fixed_inputs()[::max(1, int(os.environ.get("TP_BADINPUT_STEP", "1")))]
    nfixed = len(inputs)
    counts = {'ok': 0, 'noop': 0}
    errs = {}
    bad = 0
    before = readback(kind, path)
    for i in range(nfixed + n):
        data = inputs[i] if i < nfixed else random_input(rng)
        want, detail = expect(data)
        try:
            fd = os.open(path, os.O_WRONLY)
            try:
                got = os.write(fd, data)
            finally:
                os.close(fd)
            # sysfs takes at most a page of one write
            full = min(len(data), 4096) if kind == 'window_ms' else len(data)
            res = 'ok' if got == full and data else \
                'noop' if got == 0 and not data else 'short'
        except OSError as e:
            res = 'err'
            got = e.errno
        value = readback(kind, path)
        problem = None
        if res != want:
            problem = 'got %s %s, wanted %s' % (res, got, want)
        elif res == 'err':
            allowed = detail or {errno.EINVAL}
            if got not in allowed:
                problem = 'errno %s, wanted %s' % (
                    errno.errorcode.get(got, got),
                    '/'.join(errno.errorcode[e] for e in allowed))
            elif value != before:
                problem = 'refused write changed %r to %r' % (before, value)
        elif res == 'ok' and detail is not None and value != detail:
            problem = 'read back %r, wanted %r' % (value, detail)
        elif res == 'noop' and value != before:
            problem = 'empty write changed %r to %r' % (before, value)
        if res == 'err':
            errs[errno.errorcode.get(got, str(got))] = \
                errs.get(errno.errorcode.get(got, str(got)), 0) + 1
        else:
            counts[res] = counts.get(res, 0) + 1
        if problem:
            bad += 1
            if bad <= 20:
                print('MISMATCH %s input #%d len %d %r: %s' %
                      (kind, i, len(data), data[:60], problem))
        before = value
    # leave the documented default behind
    fd = os.open(path, os.O_WRONLY)
    os.write(fd, VALID[kind])
    os.close(fd)
    print('SUMMARY %d inputs, %d accepted, %d refused, %d mismatches' %
          (nfixed + n, counts['ok'] + counts['noop'], sum(errs.values()), bad))
    print('%s: %d inputs (%d fixed, %d random, seed %d): %d accepted, '
          '%d empty no-ops, %d refused %s, %d mismatches' %
          (kind, nfixed + n, nfixed, n, seed, counts['ok'], counts['noop'],
           sum(errs.values()), errs, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
