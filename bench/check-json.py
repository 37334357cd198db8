#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-json.py FILE - check that bench/run --json wrote every item: the
three rate items, their instruction counts and QEMU's CPU time with each of
their configurations and a positive median, the exits, clock reads, CPU
per instruction, TCG's translations and NET_RX runs of each, what the
module, record and watch add per handshake, the guest's and the host's operation costs,
the run's sizes, the memory stages, the report speed of both tools, the targets (each with
its verdict, the rate targets with their median's confidence interval), and that
the guest ran without address-space randomisation. Under KVM ("accel":
"kvm", bench/run -a kvm) there is no instruction counter: the counts, QEMU's
CPU time, the per-unit operations and their targets must be absent. Exit
status 1 with the reasons otherwise. It checks the shape, not the figures:
make check runs the bench at a tiny size (bench/run --quick)."""
import json
import sys

RATES = {"handshake_rate": "abcdef", "packet_rate": "abcdef", "tee_ioctl_rate": "abd"}
COUNTED = {"handshake_insns": "abcdef", "packet_insns": "abcdef", "tee_ioctl_insns": "abd",
           "handshake_qemu_cpu": "abcdef", "packet_qemu_cpu": "abcdef", "tee_ioctl_qemu_cpu": "abd"}
OPS = {"handshake_ops": "abcdef", "packet_ops": "abcdef", "tee_ioctl_ops": "abd"}
# what (b), record (c) and watch (f) add per handshake, counted (TCG only)
ADDED = {"b": "a", "c": "b", "f": "b"}
# 4 rate targets, 4 by instructions, 4 by QEMU's CPU and the watch's (TCG
# only), 4 others
TARGETS = {"tcg": 17, "kvm": 8}
STAGES = ["loaded", "connections", "flood"]
SIZES = ["connections", "packet_seconds", "packet_window", "invokes", "memory_connections",
         "syns", "trace_seconds"]


def problems(bench):
    """Every way bench falls short of a complete result."""
    # bench/guest.sh turns it off (benchmarks.rst: TCG retranslates each
    # run's new processes otherwise); the figure says it was.
    if bench.get("aslr") != 0:
        yield "aslr: %s, wanted 0 (the guest's randomize_va_space)" % bench.get("aslr")
    accel = bench.get("accel")
    if accel not in TARGETS:
        yield "accel: %s, wanted tcg or kvm" % accel
        return
    counted = accel == "tcg"
    sizes = bench.get("sizes", {})
    for size in SIZES:
        if not (isinstance(sizes.get(size), int) and sizes[size] > 0):
            yield "sizes: no %s" % size
    if not counted:
        for key in list(COUNTED) + list(OPS):
            if key in bench:
                yield "%s: present under %s, which has no instruction counter" % (key, accel)
    for key, configs in dict(RATES, **(COUNTED if counted else {})).items():
        rows = {row.get("config"): row for row in bench.get(key, {}).get("configs", [])}
        for config in configs:
            row = rows.get(config)
            if not row:
                yield "%s: no configuration %s" % (key, config)
            elif not row.get("median", 0) > 0 or not row.get("ratio", 0) > 0:
                yield "%s: configuration %s has no rate" % (key, config)
    for key, configs in (OPS if counted else {}).items():
        rows = {row.get("config"): row for row in bench.get(key, [])}
        for config in configs:
            if not rows.get(config, {}).get("cpu_ns_per_insn", 0) > 0:
                yield "%s: configuration %s has no CPU time per instruction" % (key, config)
            elif not all(rows[config].get(k, -1) >= 0
                         for k in ("blocks_translated", "insns_translated")):
                yield "%s: configuration %s has no translation counts" % (key, config)
            # handshakes and echoes cross the lab NICs: NET_RX ran for them
            runs = rows.get(config, {}).get("netrx_runs")
            if runs is None or runs < 0 or (key != "tee_ioctl_ops" and not runs > 0):
                yield "%s: configuration %s has no NET_RX runs per unit" % (key, config)
    if counted:
        rows = {row.get("config"): row for row in bench.get("handshake_added_insns", [])}
        for config, over in ADDED.items():
            row = rows.get(config)
            if not row or row.get("over") != over or \
                    not all(isinstance(row.get(k), (int, float)) for k in ("insns", "share")):
                yield "handshake_added_insns: no %s over %s" % (config, over)
    elif "handshake_added_insns" in bench:
        yield "handshake_added_insns: present under %s, which has no instruction counter" % accel
    for where in ("guest", "host"):
        costs = bench.get("opcost_ns", {}).get(where, {})
        if not all(costs.get(k, 0) > 0 for k in ("insn", "exit", "clock")):
            yield "opcost_ns: %s: %s" % (where, costs)
    memory = bench.get("memory", {})
    stages = [s.get("stage") for s in memory.get("stages", [])]
    if stages != STAGES:
        yield "memory: stages %s, wanted %s" % (stages, STAGES)
    if not memory.get("fixed_bytes", 0) > 0 or not memory.get("percpu_static_bytes", 0) > 0:
        yield "memory: no fixed or per-CPU size"
    if "flood" not in memory:
        yield "memory: no SYN flood figures"
    report = bench.get("report_speed", {})
    tools = [t.get("tool") for t in report.get("tools", []) if t.get("median", 0) > 0]
    if not report.get("events", 0) > 0 or tools != ["trace-cmd", "teeprobe"]:
        yield "report_speed: events %s, tools %s" % (report.get("events"), tools)
    if len(bench.get("targets", [])) != TARGETS[accel]:
        yield "targets: %d listed, wanted %d under %s" % (len(bench.get("targets", [])),
                                                        TARGETS[accel], accel)
    for t in bench.get("targets", []):
        if t.get("verdict") not in ("met", "missed", "unresolved") or \
                t.get("met") != (t.get("verdict") == "met"):
            yield "target %s: verdict %s, met %s" % (t.get("target"), t.get("verdict"), t.get("met"))
        elif "rate" in t.get("target", "") or "by " in t.get("target", ""):
            # the rate targets carry their median's confidence interval
            if not t.get("ci_low", 1) <= t.get("value", 0) <= t.get("ci_high", -1):
                yield "target %s: %s outside its interval [%s, %s]" % (
                    t.get("target"), t.get("value"), t.get("ci_low"), t.get("ci_high"))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        with open(sys.argv[1]) as f:
            bench = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("check-json: %s: %s" % (sys.argv[1], e))
    found = list(problems(bench))
    for p in found:
        print("check-json: " + p)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
