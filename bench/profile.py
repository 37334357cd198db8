#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""profile.py - bench/profile's report: where each unit of work's
instructions went, by function, under each configuration.

Usage: profile.py [--top N] GUEST_RESULTS PROFILE INSNS SYMBOL_DIR

GUEST_RESULTS is profile-guest.sh's output (span and symbols lines),
PROFILE the plugin's "p MARK ADDRESS INSNS EXECUTIONS" lines, INSNS its
"mark ..." lines (the whole count, to check the profile against), SYMBOL_DIR
the directory of the symbol files. For each item, every configuration's
instructions per unit (summed over the rounds, divided by the units), by
where they ran (teeprobe.ko, the kprobe and ftrace trampolines, other
modules, the kernel, user space), then the functions whose count differs
most from the first configuration's, and the processes and threads user
space created inside the measured intervals (calls of the clone and fork
system calls: none, when the load programs start theirs before the
interval, as they must for the count to hold their units of work alone).
"""
import argparse
import bisect
import collections
import sys

USER_TOP = 0x0000800000000000

# the system calls that create a process or a thread (x86-64 entry points)
CLONE_CALLS = ("__x64_sys_clone", "__x64_sys_clone3", "__x64_sys_fork",
               "__x64_sys_vfork")


def die(msg):
    print("profile.py: " + msg, file=sys.stderr)
    sys.exit(1)


def read_symbols(path):
    """[(address, name, module)] of a kallsyms-format file"""
    syms = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 3:
                continue
            try:
                addr = int(fields[0], 16)
            except ValueError:
                die("%s: not a symbol line: %r" % (path, line))
            if addr == 0:
                die("%s: symbol addresses are hidden (kptr_restrict)" % path)
            module = fields[3].strip("[]") if len(fields) > 3 else ""
            syms.append((addr, fields[2], module))
    return syms


class SymbolTable:
    """the kernel's symbols and one configuration's modules', by address"""

    def __init__(self, kernel, modules):
        table = sorted(kernel + modules)
        etext = [a for a, n, m in kernel if n == "_etext"]
        if etext:
            table.append((etext[0], "(after the kernel's text)", "?"))
            table.sort()
        self.addrs = [a for a, n, m in table]
        self.syms = [(n, m) for a, n, m in table]

    def lookup(self, addr):
        """the function at @addr, and whether @addr is its entry"""
        if addr < USER_TOP:
            return ("(user space)", "user"), False
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0:
            return ("(before the kernel's text)", "?"), False
        return self.syms[i], self.addrs[i] == addr


def where(module):
    """the group a function's module puts it in"""
    if module == "user":
        return "user space"
    if module == "":
        return "kernel"
    if module == "teeprobe":
        return "teeprobe.ko"
    if module.startswith("__builtin__"):
        return "trampolines"
    if module == "bpf":
        return "BPF programs"
    if module == "?":
        return "unknown"
    return "other modules"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("results")
    ap.add_argument("profile")
    ap.add_argument("insns")
    ap.add_argument("symdir")
    args = ap.parse_args()

    spans = {}          # last mark -> (item, config, round, first, units)
    symfiles = {}
    configs = []
    with open(args.results) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "span" and len(w) == 8:
                spans[int(w[5])] = (w[1], w[2], w[3], int(w[4]), float(w[6]))
                if w[2] not in configs:
                    configs.append(w[2])
            elif w and w[0] == "symbols" and len(w) == 3:
                symfiles["kernel"] = w[2]
            elif w and w[0] == "symbols" and len(w) == 4:
                symfiles[(w[1], w[2])] = w[3]
    if not spans:
        die("no runs in " + args.results)
    if "kernel" not in symfiles:
        die("no kernel symbols in " + args.results)
    kernel = read_symbols(args.symdir + "/" + symfiles["kernel"])
    tables = {}
    for key, name in symfiles.items():
        if key != "kernel":
            tables[key] = SymbolTable(kernel, read_symbols(args.symdir + "/" + name))

    counted = {}        # mark -> the counter's instructions at it
    with open(args.insns) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "mark" and len(w) >= 3:
                counted[int(w[1])] = int(w[2])

    # (item, config) -> function -> instructions, and calls (executions of
    # the block at its entry); units; the two totals
    per_fn = collections.defaultdict(collections.Counter)
    calls = collections.defaultdict(collections.Counter)
    units = collections.Counter()
    total = collections.Counter()
    whole = collections.Counter()
    for last, (item, config, rnd, first, n) in spans.items():
        if first not in counted or last not in counted:
            die("the plugin logged no marker %d or %d" % (first, last))
        if (config, rnd) not in tables:
            die("no symbols for configuration %s in round %s" % (config, rnd))
        units[item, config] += n
        whole[item, config] += counted[last] - counted[first]
    resolved = {}
    with open(args.profile) as f:
        for line in f:
            w = line.split()
            if len(w) != 5 or w[0] != "p":
                die("%s: not a profile line: %r" % (args.profile, line))
            span = spans.get(int(w[1]))
            if not span:
                continue
            item, config, rnd = span[0], span[1], span[2]
            addr = int(w[2], 16)
            key = (config, rnd, addr)
            fn = resolved.get(key)
            if fn is None:
                fn = resolved[key] = tables[config, rnd].lookup(addr)
            fn, entry = fn
            count = int(w[3]) * int(w[4])
            per_fn[item, config][fn] += count
            if entry:
                calls[item, config][fn] += int(w[4])
            total[item, config] += count

    items = []
    for item, config, rnd, first, n in spans.values():
        if item not in items:
            items.append(item)
    unit_name = {"handshake": "handshake", "packets": "echo", "tee": "invoke"}
    base = configs[0]
    for item in items:
        cs = [c for c in configs if (item, c) in units]
        print("%s: instructions per %s, by where they ran" % (item, unit_name.get(item, "unit")))
        for c in cs:
            if total[item, c] != whole[item, c]:
                die("%s under %s: the profile holds %d instructions, the counter %d"
                    % (item, c, total[item, c], whole[item, c]))
        groups = collections.defaultdict(collections.Counter)
        for c in cs:
            for (name, module), count in per_fn[item, c].items():
                groups[where(module)][c] += count
        header = "  %-32s" % "" + "".join("%12s" % ("(%s)" % c) for c in cs) + \
            "".join("%11s" % ("%s-%s" % (c, base)) for c in cs if c != base)
        print(header)
        rows = [("all", {c: total[item, c] for c in cs})]
        rows += sorted(groups.items(), key=lambda g: -max(g[1].values()))
        # Functions that never ran under the base: what the others added
        # for certain, free of the kernel's own variation between runs
        # (page zeroing, the random generator's reseeding)
        if len(cs) > 1:
            only = collections.Counter()
            for c in cs[1:]:
                for fn, count in per_fn[item, c].items():
                    if fn not in per_fn[item, base]:
                        only[c] += count
            rows.append(("(functions (%s) never ran)" % base, only))
        for name, counts in rows:
            per = {c: counts.get(c, 0) / units[item, c] for c in cs}
            print("  %-32s" % name + "".join("%12.1f" % per[c] for c in cs) +
                  "".join("%+11.1f" % (per[c] - per[base]) for c in cs if c != base))
        clones = {c: sum(calls[item, c].get((name, ""), 0) for name in CLONE_CALLS)
                  for c in cs}
        print("  clone/fork system calls in the measured intervals: " +
              ", ".join("(%s) %d" % (c, clones[c]) for c in cs))
        if len(cs) < 2:
            print()
            continue
        fns = set()
        for c in cs:
            fns.update(per_fn[item, c])
        diff = {}
        for fn in fns:
            per = {c: per_fn[item, c].get(fn, 0) / units[item, c] for c in cs}
            diff[fn] = (max(abs(per[c] - per[base]) for c in cs if c != base), per)
        print("  the %d functions that differ most from (%s), and their calls per %s"
              % (args.top, base, unit_name.get(item, "unit")))
        print("  %-32s" % "" + "".join("%12s" % ("(%s)" % c) for c in cs) +
              "".join("%11s" % ("%s-%s" % (c, base)) for c in cs if c != base) +
              "".join("%9s" % ("calls %s" % c) for c in cs))
        for fn, (d, per) in sorted(diff.items(), key=lambda x: -x[1][0])[:args.top]:
            label = fn[0] + (" [%s]" % fn[1] if fn[1] not in ("", "user") else "")
            n = {c: calls[item, c].get(fn, 0) / units[item, c] for c in cs}
            print("  %-32s" % label[:32] + "".join("%12.1f" % per[c] for c in cs) +
                  "".join("%+11.1f" % (per[c] - per[base]) for c in cs if c != base) +
                  "".join("%9.2f" % n[c] if n[c] else "%9s" % "-" for c in cs))
        print()


if __name__ == "__main__":
    main()
