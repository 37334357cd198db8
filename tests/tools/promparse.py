#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""promparse - a strict checker of the Prometheus text exposition format.

Usage: promparse.py [--expect FAMILY]... [FILE|-]

Checks what Prometheus' own parser checks, and what promtool's linter and
the naming conventions ask for, so the output of "teeprobe stat
--prometheus" is checked where promtool is not installed:
  - the grammar of every line: metric and label names (their character
    sets, no reserved "__" label), label values with only the \\\\, \\" and
    \\n escapes, a float value, an optional integer timestamp;
  - "# HELP" and "# TYPE" at most once per family, before its samples,
    and every sample under a TYPE and a HELP;
  - each family one contiguous group of lines;
  - no sample twice (the same name and labels);
  - counters named *_total (and only counters), never negative; no unit
    other than a base unit in a name (seconds, not ns, us or ms);
  - histograms: "le" only on _bucket samples, buckets in increasing "le"
    order with cumulative counts, the last le="+Inf" and equal to _count;
    _count for every histogram, _sum optional.
--expect FAMILY fails unless FAMILY has at least one sample.
Prints one line per problem (FILE:LINE: text) and exits 1 when there is
any; otherwise prints a summary and exits 0.
"""
import argparse
import math
import re
import sys

METRIC_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
SPECIAL_FLOAT = {"NaN": math.nan, "+Inf": math.inf, "-Inf": -math.inf, "Inf": math.inf}
TIMESTAMP = re.compile(r"-?[0-9]+$")
TYPES = ("counter", "gauge", "histogram", "summary", "untyped")
NOT_BASE_UNITS = {"ns", "us", "ms", "nanoseconds", "microseconds", "milliseconds",
                  "minutes", "hours", "days", "kb", "mb", "gb", "kilobytes",
                  "megabytes", "gigabytes", "percent"}


def num(v):
    """A value as the exposition would write it (5, not 5.0)."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else repr(v)


class Problem(Exception):
    """One violation of the format, at the current line."""


def parse_float(text):
    """A sample value or an "le" bound, as Prometheus reads it."""
    if text in SPECIAL_FLOAT:
        return SPECIAL_FLOAT[text]
    if not FLOAT.match(text):
        raise Problem(f"not a number: {text!r}")
    return float(text)


def parse_label_value(line, pos):
    """The quoted value starting at line[pos] (a quote); (value, next pos)."""
    if pos >= len(line) or line[pos] != '"':
        raise Problem(f"label value must start with a double quote at column {pos + 1}")
    pos += 1
    out = []
    while True:
        if pos >= len(line):
            raise Problem("label value not closed")
        c = line[pos]
        if c == '"':
            return "".join(out), pos + 1
        if c == "\\":
            if pos + 1 >= len(line):
                raise Problem("label value ends in a lone backslash")
            esc = line[pos + 1]
            if esc not in '\\"n':
                raise Problem(f"invalid escape \\{esc} in a label value")
            out.append("\n" if esc == "n" else esc)
            pos += 2
            continue
        out.append(c)
        pos += 1


def parse_sample(line):
    """name, labels (dict, in order), value, timestamp of a sample line."""
    m = METRIC_NAME.match(line)
    if not m:
        raise Problem(f"not a metric name at the start of {line!r}")
    name, pos = m.group(0), m.end()
    labels = {}
    if pos < len(line) and line[pos] == "{":
        pos += 1
        while True:
            if pos < len(line) and line[pos] == "}":
                pos += 1
                break
            lm = LABEL_NAME.match(line, pos)
            if not lm:
                raise Problem(f"not a label name at column {pos + 1}")
            lname = lm.group(0)
            if lname.startswith("__"):
                raise Problem(f"label name {lname} is reserved (starts with __)")
            if lname in labels:
                raise Problem(f"label {lname} twice")
            pos = lm.end()
            if pos >= len(line) or line[pos] != "=":
                raise Problem(f"'=' expected after label {lname}")
            labels[lname], pos = parse_label_value(line, pos + 1)
            if pos < len(line) and line[pos] == ",":
                pos += 1
            elif pos >= len(line) or line[pos] != "}":
                raise Problem(f"',' or '}}' expected at column {pos + 1}")
    rest = line[pos:]
    if not rest or rest[0] not in " \t":
        raise Problem("whitespace and a value expected after the name and labels")
    fields = rest.split()
    if len(fields) not in (1, 2):
        raise Problem(f"a value and an optional timestamp expected, got {fields}")
    value = parse_float(fields[0])
    timestamp = None
    if len(fields) == 2:
        if not TIMESTAMP.match(fields[1]):
            raise Problem(f"timestamp {fields[1]!r} is not an integer")
        timestamp = int(fields[1])
    return name, labels, value, timestamp


class Family:
    """What is known of one metric family."""

    def __init__(self, name):
        self.name = name
        self.type = None
        self.help = None
        self.samples = 0
        self.hist = {}		# histogram: labels without le -> group


class Checker:
    """Reads an exposition line by line and collects its problems."""

    def __init__(self, source):
        self.source = source
        self.problems = []
        self.families = {}
        self.current = None	# the family of the last line
        self.closed = set()	# families whose group has ended
        self.series = set()
        self.lineno = 0
        self.samples = 0

    def problem(self, text, lineno=None):
        self.problems.append(f"{self.source}:{lineno or self.lineno}: {text}")

    def enter(self, name):
        """The line belongs to family @name: it must not come back later."""
        if name == self.current:
            return
        if name in self.closed:
            raise Problem(f"family {name} is not contiguous: its lines are split by another family's")
        if self.current is not None:
            self.closed.add(self.current)
        self.current = name

    def family_of(self, name):
        """The declared family a sample name belongs to, and its suffix."""
        for suffix in ("_bucket", "_sum", "_count"):
            if name.endswith(suffix):
                base = self.families.get(name[: -len(suffix)])
                if base and base.type == "histogram":
                    return base, suffix
                if base and base.type == "summary" and suffix != "_bucket":
                    return base, suffix
        fam = self.families.get(name)
        if fam and fam.type in ("histogram",):
            raise Problem(f"histogram {name} needs a _bucket, _sum or _count suffix")
        return fam, ""

    def meta(self, line):
        """A # HELP or # TYPE line; other comments are ignored."""
        parts = line.split(None, 3)
        if len(parts) < 2 or parts[1] not in ("HELP", "TYPE"):
            return
        if len(parts) < 3 or not METRIC_NAME.fullmatch(parts[2]):
            raise Problem(f"# {parts[1]} needs a valid metric name")
        name = parts[2]
        self.enter(name)
        fam = self.families.setdefault(name, Family(name))
        if fam.samples:
            raise Problem(f"# {parts[1]} {name} after its samples")
        if parts[1] == "HELP":
            if fam.help is not None:
                raise Problem(f"second # HELP for {name}")
            text = parts[3] if len(parts) > 3 else ""
            if re.search(r"\\[^\\n]|\\$", text):
                raise Problem(f"# HELP {name}: only \\\\ and \\n escapes are allowed")
            if not text.strip():
                raise Problem(f"# HELP {name} is empty")
            fam.help = text
        else:
            if fam.type is not None:
                raise Problem(f"second # TYPE for {name}")
            kind = parts[3].strip() if len(parts) > 3 else ""
            if kind not in TYPES:
                raise Problem(f"# TYPE {name}: unknown type {kind!r}")
            fam.type = kind
            self.check_name(fam)

    def check_name(self, fam):
        """Naming conventions: _total for counters alone, base units."""
        if fam.type == "counter" and not fam.name.endswith("_total"):
            raise Problem(f"counter {fam.name} is not named *_total")
        if fam.type != "counter" and fam.name.endswith("_total"):
            raise Problem(f"{fam.type} {fam.name} is named *_total, like a counter")
        units = NOT_BASE_UNITS.intersection(fam.name.split("_"))
        if units:
            raise Problem(f"{fam.name}: not a base unit ({', '.join(sorted(units))}): use seconds, bytes, ratios")

    def sample(self, line):
        name, labels, value, _ = parse_sample(line)
        fam, suffix = self.family_of(name)
        if fam is None:
            raise Problem(f"sample {name} before any # TYPE of its family")
        self.enter(fam.name)
        fam.samples += 1
        self.samples += 1
        if fam.type is None:
            raise Problem(f"sample {name} without a # TYPE")
        if fam.help is None:
            raise Problem(f"sample {name} without a # HELP")
        key = (name, tuple(sorted(labels.items())))
        if key in self.series:
            raise Problem(f"sample {name}{labels} twice")
        self.series.add(key)
        if "le" in labels and suffix != "_bucket":
            raise Problem(f"{name}: le is a label of histogram buckets only")
        if "quantile" in labels and fam.type != "summary":
            raise Problem(f"{name}: quantile is a label of summaries only")
        if fam.type == "counter" and not (value >= 0):
            raise Problem(f"counter {name} is {num(value)}")
        if fam.type == "histogram":
            self.histogram(fam, suffix, labels, value)

    def histogram(self, fam, suffix, labels, value):
        rest = tuple(sorted((k, v) for k, v in labels.items() if k != "le"))
        group = fam.hist.setdefault(rest, {"buckets": [], "count": None,
                                           "sum": None, "line": self.lineno})
        if suffix == "_bucket":
            if "le" not in labels:
                raise Problem(f"{fam.name}_bucket without le")
            if group["count"] is not None:
                raise Problem(f"{fam.name}_bucket after its _count")
            le = parse_float(labels["le"])
            if math.isnan(le):
                raise Problem(f"{fam.name}_bucket le is NaN")
            group["buckets"].append((le, value))
        elif suffix == "_count":
            group["count"] = value
        else:
            group["sum"] = value
        if suffix != "_sum" and not (value >= 0):
            raise Problem(f"{fam.name}{suffix} is {num(value)}")

    def finish_histograms(self):
        for fam in self.families.values():
            for rest, g in fam.hist.items():
                where = f"{fam.name}{dict(rest)}"
                b = g["buckets"]
                if not b:
                    self.problem(f"{where}: no buckets", g["line"])
                    continue
                for (le0, c0), (le1, c1) in zip(b, b[1:]):
                    if not le1 > le0:
                        self.problem(f"{where}: le {num(le1)} after {num(le0)}: not increasing", g["line"])
                    if c1 < c0:
                        self.problem(f"{where}: bucket le={num(le1)} ({num(c1)}) below le={num(le0)} ({num(c0)}): not cumulative", g["line"])
                if b[-1][0] != math.inf:
                    self.problem(f'{where}: the last bucket is not le="+Inf"', g["line"])
                if g["count"] is None:
                    self.problem(f"{where}: no _count", g["line"])
                elif b[-1][0] == math.inf and g["count"] != b[-1][1]:
                    self.problem(f'{where}: _count {num(g["count"])} != le="+Inf" bucket {num(b[-1][1])}', g["line"])

    def run(self, text):
        if text and not text.endswith("\n"):
            self.problem("the last line has no newline", text.count("\n") + 1)
        for self.lineno, line in enumerate(text.split("\n")[:-1] if text.endswith("\n")
                                           else text.split("\n"), 1):
            try:
                if "\r" in line:
                    raise Problem("carriage return in a line")
                if not line.strip():
                    continue
                if line.startswith("#"):
                    self.meta(line)
                else:
                    self.sample(line)
            except Problem as p:
                self.problem(str(p))
        self.finish_histograms()
        for fam in self.families.values():
            if fam.samples == 0 and (fam.type or fam.help):
                # Allowed by the format, but teeprobe writes no empty family.
                self.problem(f"family {fam.name} has HELP/TYPE but no samples")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expect", action="append", default=[],
                    help="a family that must have samples")
    ap.add_argument("file", nargs="?", default="-")
    args = ap.parse_args()
    try:
        if args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"promparse: {args.file}: {e}", file=sys.stderr)
        return 1
    c = Checker(args.file)
    c.run(text)
    for name in args.expect:
        fam = c.families.get(name)
        if not fam or not fam.samples:
            c.problem(f"expected family {name} has no samples", 0)
    for p in c.problems:
        print(p, file=sys.stderr)
    if c.problems:
        print(f"promparse: {len(c.problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"promparse: {args.file}: {len(c.families)} families, {c.samples} samples, ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
