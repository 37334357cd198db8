#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plotcheck.py - read back what "teeprobe plot" wrote, for tests/tools/plot.sh

  plotcheck.py ranges SVG        one line per panel: picture panel x0 x1 y0 y1 xlog ylog
  plotcheck.py series SVG        one line per series: panel session total name
  plotcheck.py texts SVG         every text of the picture, one a line
  plotcheck.py steps SVG CSV     the histogram steps drawn, turned back into
                                 counts through the panel's axes, equal the CSV
  plotcheck.py covers SVG CSV    every timeline value the picture draws lies
                                 inside its panel's axis ranges
Exit status 0 when the check holds, 1 (with the reason) when not.
"""
import csv
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
# the lines a compare draws, one per panel (plot_view.c's plot_lines[].main)
MAIN = {'tee': 'in TEE ioctls', 'netrx': 'mean', 'tcp': 'SYN -> accept'}


def panels(root):
    out = {}
    for g in root.iter(NS + 'g'):
        if g.get('class') == 'panel':
            out[g.get('data-panel')] = {
                k: float(g.get('data-' + k)) for k in ('x0', 'x1', 'y0', 'y1', 'xlog', 'ylog')}
            out[g.get('data-panel')]['box'] = [float(v) for v in g.get('data-box').split()]
            out[g.get('data-panel')]['picture'] = g.get('data-picture')
    return out


def series(root):
    for g in root.iter(NS + 'g'):
        if g.get('class') == 'series':
            yield g


def count_of(py, p):
    """the count a pixel row shows on a linear y axis"""
    x, y, w, h = p['box']
    return p['y0'] + (y + h - py) / h * (p['y1'] - p['y0'])


def bucket_of(px, p):
    """the log2 bucket whose lower edge is at pixel column px"""
    x, y, w, h = p['box']
    decade = p['x0'] + (px - x) / w * (p['x1'] - p['x0'])
    return round(decade / 0.30102999566398120)


def steps(svg, csvfile):
    root = ET.parse(svg).getroot()
    pan = panels(root)
    want = {}
    with open(csvfile) as f:
        for row in csv.DictReader(f):
            key = (row['session'], row['panel'], row['series'])
            b = int(float(row['x_lo'])).bit_length() - 1
            want.setdefault(key, {})[b] = float(row['value'])
    seen = set()
    for g in series(root):
        key = (g.get('data-session'), g.get('data-panel'), g.get('data-series'))
        p = pan[key[1]]
        path = g.find(NS + 'path')
        if path is None:
            continue
        d = path.get('d')
        m = re.match(r'M([-\d.]+) ([-\d.]+)', d)
        b = bucket_of(float(m.group(1)), p)
        # the pixel tolerance: coordinates are written to 0.1 px
        tol = (p['y1'] - p['y0']) / p['box'][3] * 0.06
        got = {}
        for v, hx in re.findall(r'V([-\d.]+)H([-\d.]+)', d):
            c = count_of(float(v), p)
            if abs(c) > tol:
                got[b] = c
            b += 1
        w = want.get(key, {})
        if set(got) != set(w):
            print(f'{key}: buckets drawn {sorted(got)}, in the CSV {sorted(w)}')
            return 1
        for b in w:
            if abs(got[b] - w[b]) > tol:
                print(f'{key}: bucket {b} drawn at {got[b]:.2f}, CSV says {w[b]}')
                return 1
        seen.add(key)
    if set(want) != seen:
        print(f'in the CSV, not drawn: {sorted(set(want) - seen)}')
        return 1
    return 0


def covers(svg, csvfile):
    root = ET.parse(svg).getroot()
    pan = panels(root)
    drawn = {(g.get('data-session'), g.get('data-panel'), g.get('data-series'))
             for g in series(root)}
    n = 0
    with open(csvfile) as f:
        for row in csv.DictReader(f):
            key = (row['session'], row['panel'], row['series'])
            if key not in drawn or row['value'] == '':
                continue
            p = pan[row['panel']]
            v = float(row['value'])
            hi = 10 ** p['y1'] if p['ylog'] else p['y1']
            lo = 10 ** p['y0'] if p['ylog'] else p['y0']
            if float(row['x_hi']) > p['x1'] + 1e-9 or v > hi * (1 + 1e-9) or \
               (v > 0 and v < lo * (1 - 1e-9)):
                print(f'{key} at {row["x_lo"]} s: {v} outside x 0..{p["x1"]}, '
                      f'y {lo}..{hi}')
                return 1
            n += 1
    if not n:
        print('no value drawn')
        return 1
    return 0


def main():
    what, svg = sys.argv[1], sys.argv[2]
    if what == 'steps':
        return steps(svg, sys.argv[3])
    if what == 'covers':
        return covers(svg, sys.argv[3])
    root = ET.parse(svg).getroot()
    if what == 'ranges':
        for name, p in sorted(panels(root).items()):
            print(p['picture'], name, p['x0'], p['x1'], p['y0'], p['y1'], p['xlog'], p['ylog'])
    elif what == 'series':
        for g in series(root):
            print(g.get('data-panel'), g.get('data-session'), g.get('data-total'),
                  g.get('data-series'))
    elif what == 'texts':
        for t in root.iter(NS + 'text'):
            print(''.join(t.itertext()))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
