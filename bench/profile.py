#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""profile.py - bench/profile's report: where each unit of work's
instructions went, by function, under each configuration.

Usage: profile.py [--top N] [--burst B] GUEST_RESULTS PROFILE INSNS SYMBOL_DIR

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

With --burst B, when the guest ran the packet item one datagram at a time
and the burst item (bursts of B datagrams), each configuration's cost is
split into a cost per NET_RX run and a cost per packet (netrx_cost()).
"""
import argparse
import bisect
import collections
import sys

USER_TOP = 0x0000800000000000

# the kernel function each NET_RX softirq run calls once
NETRX_RUN = "net_rx_action"
# the kernel functions that hold the call sites of the NET_RX tracepoints
# (irq:softirq_raise, irq:softirq_entry and _exit, napi:napi_poll), under
# their 6.1 and later names: they run under every configuration, and the
# tracepoints' enabled branches add to their own counts
CALL_SITES = ("__do_softirq", "handle_softirqs", "__raise_softirq_irqoff",
              "raise_softirq_irqoff", "raise_softirq", "net_rx_action",
              "__napi_poll", "napi_poll")

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
    ap.add_argument("--burst", type=int, default=0)
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
    # the same per span (its last mark), for netrx_cost()
    span_fn = collections.defaultdict(collections.Counter)
    span_calls = collections.defaultdict(collections.Counter)
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
            span_fn[int(w[1])][fn] += count
            if entry:
                calls[item, config][fn] += int(w[4])
                span_calls[int(w[1])][fn] += int(w[4])
            total[item, config] += count

    items = []
    for item, config, rnd, first, n in spans.values():
        if item not in items:
            items.append(item)
    unit_name = {"handshake": "handshake", "packets": "echo", "burst": "echo",
                 "tee": "invoke", "windows": "CPU window"}
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
    if args.burst and "packets" in items and "burst" in items:
        netrx_cost(spans, counted, span_fn, span_calls, configs, args.burst, args.top)


def spread(values):
    """min, median and max of @values"""
    v = sorted(values)
    n = len(v)
    return v[0], (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2), v[-1]


def median_ci(n):
    """k and coverage of the distribution-free interval of the median of n
    sorted values, [v[k-1], v[n-k]] (bench/summary.awk's median_ci(): the
    largest k with P(Binomial(n, 1/2) < k) <= 2.5 %); below 6 values k is 1
    too (the whole range), at the coverage the range has"""
    k, p = 0, 0.5 ** n
    cdf = p
    while 2 * (k + 1) <= n and cdf <= 0.025:
        k += 1
        p = p * (n - k + 1) / k
        cdf += p
    k = max(k, 1)
    p = cdf = 0.5 ** n
    for i in range(1, k):
        p = p * (n - i + 1) / i
        cdf += p
    return k, 1 - 2 * cdf


def interval(values):
    """the interval of the median of @values (median_ci())"""
    v = sorted(values)
    k, _ = median_ci(len(v))
    return v[k - 1], v[len(v) - k]


def solve(runs1, pkts1, cost1, runs2, pkts2, cost2):
    """R and P of cost = R * runs + P * packets, from two loads"""
    det = runs1 * pkts2 - runs2 * pkts1
    if not det:
        return None
    return ((cost1 * pkts2 - cost2 * pkts1) / det,
            (runs1 * cost2 - runs2 * cost1) / det)


# an interval narrower than this, in points of the base's one-packet echo,
# resolves the cost (issue 54)
RESOLVED_POINTS = 1.0


def netrx_cost(spans, counted, span_fn, span_calls, configs, burst, top):
    """Each configuration's instructions over the base's, split per NET_RX
    run and per packet. What a configuration added is counted exactly, by
    attribution: every instruction in a function the base never ran in
    either load of any round (teeprobe.ko, the trampolines, BPF programs,
    the clock reads, tracepoint iterators and kprobe machinery). Two loads
    per round, one datagram at a time (packets) and bursts (burst), give two
    equations cost = R * runs + P * packets (runs: calls of net_rx_action
    between the markers; packets: two per echo, one received on each side),
    solved in each round. The tracepoints' call sites in functions every
    configuration runs (CALL_SITES) are not attributable: their per-call
    difference against the base in the same round is shown apart."""
    base = configs[0]
    by = {}             # (item, config, round) -> last mark
    for last, (item, config, rnd, first, n) in spans.items():
        by[item, config, rnd] = last
    rounds = sorted({k[2] for k in by}, key=int)
    shared = set()
    for (item, config, rnd), last in by.items():
        if config == base and item in ("packets", "burst"):
            shared.update(span_fn[last])

    def whole(last):
        return counted[last] - counted[spans[last][3]]

    def added(last):
        return sum(c for fn, c in span_fn[last].items() if fn not in shared)

    def runs(last):
        return span_calls[last].get((NETRX_RUN, ""), 0)

    print("packets: what each configuration adds per NET_RX run and per packet, over (%s)" % base)
    print("  two loads each round: one datagram at a time (packets) and bursts of %d (burst);" % burst)
    print("  added: the instructions in the functions (%s) never ran in either load, each" % base)
    print("  round's two loads solved for added = R x NET_RX runs + P x packets received")
    print("  %-38s %10s %10s %10s" % ("the loads, per round", "min", "median", "max"))
    echo_base = {}
    for rnd in rounds:
        last = by.get(("packets", base, rnd))
        if last:
            echo_base[rnd] = whole(last) / spans[last][4]
    if not echo_base:
        print("  (no run of (%s) one datagram at a time)" % base)
        print()
        return
    lo, med, hi = spread(echo_base.values())
    print("  %-38s %10.0f %10.0f %10.0f" % ("(%s) packets: instructions/echo" % base, lo, med, hi))
    for item in ("packets", "burst"):
        for c in configs:
            per = [(runs(by[item, c, r]) / spans[by[item, c, r]][4],
                    2 * spans[by[item, c, r]][4] / max(runs(by[item, c, r]), 1))
                   for r in rounds if (item, c, r) in by]
            if not per:
                continue
            lo, med, hi = spread([x for x, y in per])
            print("  %-38s %10.2f %10.2f %10.2f" % ("(%s) %s: NET_RX runs/echo" % (c, item), lo, med, hi))
            lo, med, hi = spread([y for x, y in per])
            print("  %-38s %10.2f %10.2f %10.2f" % ("(%s) %s: packets/NET_RX run" % (c, item), lo, med, hi))
    n = len(echo_base)
    k, coverage = median_ci(n)
    print("  points: %% of (%s)'s one-packet echo in the same round, the median over the" % base)
    if n == 1:
        print("  rounds; interval: none from one round (nothing is resolved by one round)")
    else:
        print("  rounds; interval: the median's %.1f %% interval (%d rounds: %s),"
              % (100 * coverage, n, "the %s smallest and largest" % ordinal(k) if k > 1
                 else "their whole range"))
        print("  resolved when narrower than %g point" % RESOLVED_POINTS)
    print("  %-34s %9s %9s %9s %7s %13s %6s" % ("added instructions", "min", "median", "max",
                                               "points", "interval", "width"))
    for c in configs[1:]:
        rows = collections.defaultdict(list)
        for rnd in rounds:
            keys = [("packets", c, rnd), ("burst", c, rnd)]
            if rnd not in echo_base or not all(k in by for k in keys):
                continue
            one, many = by[keys[0]], by[keys[1]]
            rp = solve(runs(one), 2 * spans[one][4], added(one),
                       runs(many), 2 * spans[many][4], added(many))
            if rp is None:
                continue
            e = echo_base[rnd]
            rows["per NET_RX run"].append((rp[0], rp[0] / e))
            rows["per packet"].append((rp[1], rp[1] / e))
            per_echo = added(one) / spans[one][4]
            rows["per one-packet echo"].append((per_echo, per_echo / e))
            # the call sites: per call, the configuration's instructions
            # less the base's in the same round, over the configuration's
            # calls, per NET_RX run
            b = by.get(("packets", base, rnd))
            site = 0
            for fn in CALL_SITES:
                k = (fn, "")
                nc, na = span_calls[one].get(k, 0), span_calls[b].get(k, 0)
                if nc and na:
                    site += nc * (span_fn[one][k] / nc - span_fn[b][k] / na)
            rows["call sites, per NET_RX run"].append((site / max(runs(one), 1),
                                                       site / max(runs(one), 1) / e))
        if not rows:
            print("  (%s): no round with both loads" % c)
            continue
        for name in ("per NET_RX run", "per packet", "per one-packet echo",
                     "call sites, per NET_RX run"):
            lo, med, hi = spread([x for x, y in rows[name]])
            shares = [100 * y for x, y in rows[name]]
            slo, shi = interval(shares)
            if len(shares) < 2:
                ci = ("-", "-", "")
            else:
                ci = ("%.2f-%.2f" % (slo, shi), "%.2f" % (shi - slo),
                      "resolved" if shi - slo < RESOLVED_POINTS else "unresolved")
            print(("  %-34s %9.1f %9.1f %9.1f %7.2f %13s %6s  %s" % (
                ("(%s) %s" % (c, name), lo, med, hi, spread(shares)[1]) + ci)).rstrip())
    print("  (call sites: what the tracepoints' enabled branches add to the kernel's own")
    print("  functions that hold them, net_rx_action, __napi_poll...: not in added, as")
    print("  those functions ran under (%s) too)" % base)
    # where the instructions go: the attributed functions of each load,
    # per NET_RX run over all rounds
    for c in configs[1:]:
        for item, what in (("packets", "one datagram at a time"),
                           ("burst", "bursts of %d" % burst)):
            fns = collections.Counter()
            ncalls = collections.Counter()
            nruns = 0
            for rnd in rounds:
                last = by.get((item, c, rnd))
                if not last:
                    continue
                nruns += runs(last)
                for fn, count in span_fn[last].items():
                    if fn not in shared:
                        fns[fn] += count
                        ncalls[fn] += span_calls[last].get(fn, 0)
            if not nruns:
                continue
            print("  (%s) %s: the %d functions (%s) never ran that ran most, per NET_RX run"
                  % (c, what, top, base))
            print("  %-44s %12s %10s %12s" % ("", "insns/run", "calls/run", "insns/call"))
            for fn, count in fns.most_common(top):
                label = fn[0] + (" [%s]" % fn[1] if fn[1] not in ("", "user") else "")
                print("  %-44s %12.1f %10.2f %12s" % (
                    label[:44], count / nruns, ncalls[fn] / nruns,
                    "%.1f" % (count / ncalls[fn]) if ncalls[fn] else "-"))
    print()


def ordinal(k):
    """1st, 2nd, 3rd, 4th..."""
    return "%d%s" % (k, {1: "st", 2: "nd", 3: "rd"}.get(k if k < 20 else k % 10, "th"))


if __name__ == "__main__":
    main()
