#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kscheck.py - what KernelShark shows, for tests/tools/kernelshark.sh

  kscheck.py stats XWD         the measures of a window grab (xwd's format)
  kscheck.py timeline XWD      the grab holds a drawn timeline: enough
                               strongly coloured pixels, in several hues,
                               over a wide span of the window
  kscheck.py boxes XWD R,G,B   the grab holds boxes of exactly that colour
                               (plugin-teeprobe_tee.so's TEE calls): at
                               least BOX_MIN_PIXELS of it, in horizontal
                               runs of 3 or more pixels
  kscheck.py info TRACE EVENT  the Info text of TRACE's first EVENT, as
                               KernelShark's table shows it (libkshark's
                               kshark_get_info, every buffer of the file)
Exit status 0 when the check holds, 1 (with the reason) when not.

KernelShark draws each task's events in a colour of its own, a saturated
one; the rest of its window is grey widgets and black or grey text, whose
anti-aliased edges make few strongly coloured pixels and no wide band of
them. A window with no file, or a file without events, draws axes only.
"""
import colorsys
import ctypes
import struct
import sys

# a pixel is "coloured" when its channels differ by this much (grey: 0)
SATURATION = 96
# hues are counted in 12 sectors of 30 degrees; a sector counts with this
# many coloured pixels
HUE_SECTORS = 12
HUE_MIN_PIXELS = 50
# what a timeline needs (a 648x480 window of a 2-CPU session has 14,000
# to 19,000 coloured pixels in 7 to 12 hues over 81 % of its width; one
# with no file or no events 1,134 in one hue, the marker button, over 11 %)
MIN_PIXELS = 2000
MIN_HUES = 4
MIN_SPAN = 0.3


def read_xwd(path):
    """(width, height, rows of (r, g, b) tuples) of a TrueColor XWD file"""
    data = open(path, 'rb').read()
    if len(data) < 100:
        raise ValueError('%s: too short for an XWD header' % path)
    (header_size, version, _fmt, _depth, width, height, _xoff, byte_order,
     _unit, _bit_order, _pad, bits_per_pixel, bytes_per_line, visual_class,
     red_mask, green_mask, blue_mask, _bits_rgb, _cmap, ncolors) = \
        struct.unpack('>20I', data[:80])
    if version != 7 or visual_class not in (4, 5) or bits_per_pixel not in (24, 32):
        raise ValueError('%s: not a 24/32-bit TrueColor XWD (version %d, class %d, %d bpp)'
                         % (path, version, visual_class, bits_per_pixel))
    step = bits_per_pixel // 8
    order = 'little' if byte_order == 0 else 'big'
    offset = header_size + ncolors * 12
    if len(data) < offset + bytes_per_line * height:
        raise ValueError('%s: pixel data cut short' % path)

    def shift(mask):
        return (mask & -mask).bit_length() - 1
    shifts = [(m, shift(m)) for m in (red_mask, green_mask, blue_mask)]
    rows = []
    for y in range(height):
        line = data[offset + y * bytes_per_line:offset + y * bytes_per_line + width * step]
        rows.append([tuple((p & m) >> s for m, s in shifts)
                     for p in (int.from_bytes(line[i:i + step], order)
                               for i in range(0, width * step, step))])
    return width, height, rows


def measures(path):
    """coloured pixels, hue sectors holding enough of them, span of x"""
    width, height, rows = read_xwd(path)
    pixels = 0
    sectors = [0] * HUE_SECTORS
    xs = set()
    for row in rows:
        for x, (r, g, b) in enumerate(row):
            if max(r, g, b) - min(r, g, b) < SATURATION:
                continue
            pixels += 1
            hue = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)[0]
            sectors[int(hue * HUE_SECTORS) % HUE_SECTORS] += 1
            xs.add(x)
    hues = sum(1 for n in sectors if n >= HUE_MIN_PIXELS)
    span = (max(xs) - min(xs) + 1) / width if xs else 0.0
    return {'width': width, 'height': height, 'pixels': pixels,
            'hues': hues, 'span': span}


# what boxes need: their edges are lines of 2 pixels; a box is 3 bins wide
# at least, and KernelShark's own colours never match exactly
BOX_MIN_PIXELS = 50


def box_pixels(path, colour):
    """pixels of exactly colour, and those of them in runs of >= 3 in a row"""
    _width, _height, rows = read_xwd(path)
    pixels = in_runs = 0
    for row in rows:
        run = 0
        for p in row + [None]:
            if p == colour:
                run += 1
                continue
            pixels += run
            if run >= 3:
                in_runs += run
            run = 0
    return pixels, in_runs


def cmd_boxes(path, rgb):
    colour = tuple(int(c) for c in rgb.split(','))
    pixels, in_runs = box_pixels(path, colour)
    text = '%d pixels of %s, %d of them in horizontal runs of 3 or more' % (
        pixels, rgb, in_runs)
    if in_runs >= BOX_MIN_PIXELS:
        print('boxes drawn: ' + text)
        return 0
    print('no boxes: %s (boxes have >= %d)' % (text, BOX_MIN_PIXELS))
    return 1


def cmd_stats(path):
    m = measures(path)
    print('%(width)dx%(height)d coloured_pixels=%(pixels)d hues=%(hues)d span=%(span).2f' % m)
    return 0


def cmd_timeline(path):
    m = measures(path)
    text = ('%(pixels)d coloured pixels in %(hues)d hues over %(span).0f%% of the width'
            % dict(m, span=m['span'] * 100))
    if m['pixels'] >= MIN_PIXELS and m['hues'] >= MIN_HUES and m['span'] >= MIN_SPAN:
        print('timeline drawn: ' + text)
        return 0
    print('no timeline: %s (a timeline has >= %d in >= %d hues over >= %d%%)'
          % (text, MIN_PIXELS, MIN_HUES, MIN_SPAN * 100))
    return 1


def cmd_info(trace, event):
    # libtraceevent's plugins use its symbols without linking it (as
    # trace-cmd and kernelshark, which link it, provide them): load it
    # into the global scope first, as those programs have it
    ctypes.CDLL('libtraceevent.so.1', mode=ctypes.RTLD_GLOBAL)
    ks = ctypes.CDLL('libkshark.so.2')
    ptr = ctypes.c_void_p
    ks.kshark_instance.argtypes = [ctypes.POINTER(ptr)]
    ks.kshark_instance.restype = ctypes.c_bool
    ks.kshark_open.argtypes = [ptr, ctypes.c_char_p]
    ks.kshark_tep_init_all_buffers.argtypes = [ptr, ctypes.c_int]
    ks.kshark_load_all_entries.argtypes = [ptr, ctypes.POINTER(ctypes.POINTER(ptr))]
    ks.kshark_load_all_entries.restype = ctypes.c_ssize_t
    # both return malloc()ed strings: kept as pointers, freed by libc
    ks.kshark_get_event_name.argtypes = [ptr]
    ks.kshark_get_event_name.restype = ptr
    ks.kshark_get_info.argtypes = [ptr]
    ks.kshark_get_info.restype = ptr
    libc = ctypes.CDLL(None)
    libc.free.argtypes = [ptr]

    def text(p):
        if not p:
            return None
        s = ctypes.string_at(p).decode(errors='replace')
        libc.free(p)
        return s

    ctx = ptr()
    if not ks.kshark_instance(ctypes.byref(ctx)):
        print('libkshark: no context')
        return 1
    sd = ks.kshark_open(ctx, trace.encode())
    if sd < 0:
        print('libkshark cannot open %s (%d)' % (trace, sd))
        return 1
    ks.kshark_tep_init_all_buffers(ctx, sd)
    rows = ctypes.POINTER(ptr)()
    n = ks.kshark_load_all_entries(ctx, ctypes.byref(rows))
    for i in range(max(n, 0)):
        name = text(ks.kshark_get_event_name(rows[i]))
        if name and name.split('/')[-1] == event:
            print(text(ks.kshark_get_info(rows[i])))
            return 0
    print('no %s among the %d entries libkshark loaded from %s' % (event, n, trace))
    return 1


def main(argv):
    if len(argv) == 3 and argv[1] == 'stats':
        return cmd_stats(argv[2])
    if len(argv) == 3 and argv[1] == 'timeline':
        return cmd_timeline(argv[2])
    if len(argv) == 4 and argv[1] == 'boxes':
        return cmd_boxes(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == 'info':
        return cmd_info(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError) as e:
        print('kscheck: %s' % e)
        sys.exit(1)
