#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""verdictcheck - does the verdict of "teeprobe analyze" agree with the
evidence printed beside it?

Reads analyze's text output (FILE, or - for stdin) and checks, for the cause
its title names, every number and every word of its title and its why line
against the tables and evidence lines of the same output:

  - the part the why calls the largest is the largest in the table, the
    next one the second, with the table's own figures;
  - a TEE cause's shares (set-up per call, one-time set-up, waiting for a
    secure thread, the secure world, the driver; or the calls' own work when
    the secure world was not timed) are those printed in the evidence for
    the same time (the accept queue's when the why goes through it, the
    acceptors' TEE time's otherwise), the named share is the largest of them
    (one-time set-up is never named: no fix removes it), per-call set-up is
    named from 30 %, "mostly" is said only of more than 50 %, and "not
    per-call set-up" only of a set-up under 10 %;
  - a NET_RX cause's shares are the evidence's, on the right side of their
    thresholds (30 % of the wait behind TEE calls, half of it ksoftirqd's);
  - an accept cause's shares are the accept queue's;
  - weak evidence and no problem have their reasons, and no fix; every
    other cause has a fix;
  - nothing prints "nan".

Exit status 0 when everything agrees; 1 with one line per disagreement.
Used by tests/unit/test_verdict_text.c on every cause and by the
integration tests on every analyze output they make.
"""
import re
import sys

NAMES = [
    ("TEE ioctl blocking: per-call shared-memory set-up", "tee-blocking"),
    ("TEE calls wait for a free secure thread", "tee-queue"),
    ("TEE ioctl time: the secure world's own work", "tee-work"),
    ("TEE ioctl time: the calls' own work", "tee-work-unsplit"),
    ("TEE ioctl time: the normal world's driver work", "tee-driver"),
    ("TEE calls starve NET_RX", "tee-starves-netrx"),
    ("NET_RX starved by CPU load", "softirq-cpu-hog"),
    ("NET_RX held off by something other than TEE calls", "softirq-bh-off"),
    ("network round trip", "network"),
    ("slow accept: the application takes connections late", "slow-accept"),
    ("slow accept: the accepting threads wait for a CPU", "accept-cpu-starved"),
    ("the kernel's SYN processing", "kernel-syn"),
    ("no problem", "no-problem"),
    ("weak evidence", "weak-evidence"),
]
PARTS = ["NET_RX wait", "SYN -> SYN/ACK", "round trip", "ACK -> accept",
         "TEE ioctls"]
SPLIT = re.compile(
    r"set-up (\d+) %(?: \((\d+) % of it asleep(?:, (\d+) % on a CPU)?\))?, "
    r"(?:one-time set-up (\d+) %, )?"
    r"waiting for a secure thread (\d+) %, "
    r"(?:the secure world (\d+) %, the driver (\d+) %"
    r"|the calls' own work (\d+) %)")


class Check:
    def __init__(self, name):
        self.name = name
        self.bad = []

    def ok(self, cond, what):
        if not cond:
            self.bad.append(what)
        return cond


def flat(lines):
    """Wrapped lines as one paragraph."""
    return " ".join(l.strip() for l in lines)


def dur_us(s):
    """A duration as dur_str() prints it, in us; None for "-"."""
    m = re.fullmatch(r"(-?[\d.]+) (us|ms)", s.strip())
    if not m:
        return None
    return float(m.group(1)) * (1000 if m.group(2) == "ms" else 1)


def paragraph(lines, i):
    """Line i and its continuation lines (indented deeper), flattened."""
    out = [lines[i]]
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and lines[j].strip() and \
            len(lines[j]) - len(lines[j].lstrip()) > indent:
        out.append(lines[j])
        j += 1
    return flat(out)


def split_of(text):
    """The shares of a split text: a dict, or None."""
    m = SPLIT.search(text)
    if not m:
        return None
    g = [None if x is None else int(x) for x in m.groups()]
    d = {"setup": g[0], "setup_asleep": g[1], "setup_oncpu": g[2],
         "setup_once": g[3] or 0, "queue": g[4]}
    if g[7] is None:
        d.update(secure=g[5], driver=g[6])
    else:
        d.update(work=g[7])
    return d


def parse(text):
    """The parts of analyze's text output the verdict is checked against."""
    lines = text.split("\n")
    r = {"parts": {}, "aq": {}, "lines": lines}
    for i, l in enumerate(lines):
        s = l.strip()
        m = re.match(r"Where a client handshake's time goes, as the server sees it \((\d+) handshakes\)", s)
        if m:
            r["handshakes"] = int(m.group(1))
        for p in PARTS:
            m = re.fullmatch(re.escape(p) + r"\s+(\S+(?: [um]s)?)\s+(\S+(?: [um]s)?)"
                             r"\s+(\S+(?: [um]s)?)\s+([\d.]+) %", s)
            if m and l.startswith("  ") and p not in r["parts"]:
                r["parts"][p] = (m.group(1), float(m.group(4)))
        m = re.fullmatch(r"total\s+(\S+ [um]s)", s)
        if m:
            r["total"] = m.group(1)
        m = re.fullmatch(r"in TEE calls\s+([\d.]+) %(?:\s+\((\d+) % of it asleep\))?", s)
        if m:
            r["aq"]["tee"] = float(m.group(1))
            r["aq"]["tee_asleep"] = m.group(2) and int(m.group(2))
            r["aq"]["rows"] = []
            j = i + 1
            while j < len(lines) and lines[j].startswith("  ") and lines[j].strip():
                mm = re.fullmatch(r"\s+(.*?)\s+([\d.]+) %", lines[j])
                if mm:
                    r["aq"]["rows"].append((mm.group(1), float(mm.group(2))))
                if lines[j].strip().startswith("of their TEE time:"):
                    r["aq"]["split"] = split_of(paragraph(lines, j))
                j += 1
        if s.startswith("TEE ioctls ") and "calls, on-CPU" in s:
            p = paragraph(lines, i)
            r["tee_ev"] = p
            r["tee_split"] = split_of(p)
            m = re.search(r"on-CPU ([\d.]+) % of CPU time", p)
            r["tee_oncpu"] = m and float(m.group(1))
        if s.startswith("NET_RX ") and "runs/s" in s:
            p = paragraph(lines, i)
            m = re.search(r"of the wait, (\d+) % by ksoftirqd, (\d+) % while TEE calls held the CPU", p)
            if m:
                r["ksoftirqd"], r["tee_wait"] = int(m.group(1)), int(m.group(2))
        m = re.match(r"TEE on-CPU time -> NET_RX delay \(same CPU\)\s+r =\s+(\S+)", s)
        if m:
            r["r_tee_netrx"] = m.group(1)
        if l.startswith("Verdict: "):
            r["title"] = l[len("Verdict: "):]
            j = i + 1
            # a long title goes on under itself (9 spaces, past "Verdict: ")
            while j < len(lines) and lines[j].startswith(" " * 9) and lines[j][9] != " ":
                r["title"] += " " + lines[j].strip()
                j += 1
            block = []
            while j < len(lines) and lines[j].startswith("  "):
                block.append(lines[j])
                j += 1
            # the why, then "Through the accept queue: ..." and "Fix: ..."
            # (all indented by 2: a paragraph starts at its own words)
            paras, cur = {}, "why"
            for b in block:
                if b.startswith("  Through the accept queue: "):
                    cur = "through"
                elif b.startswith("  Fix: "):
                    cur = "fix"
                paras.setdefault(cur, []).append(b)
            for k, v in paras.items():
                r[k] = flat(v)
    return r


def near(a, b, tol):
    return a is not None and b is not None and abs(a - b) <= tol


def check_tail(c, r, why):
    """The why's figures ": PART X of TOTAL (S %), next PART2 Y." """
    names = "|".join(re.escape(p) for p in PARTS)
    m = re.search(r": (%s) (\S+ [um]s) of (\S+ [um]s) \((\d+) %%\), next (%s) (\S+ [um]s)\.$"
                  % (names, names), why)
    if not c.ok(m, "the why ends without its figures (\"PART X of TOTAL (S %), next ...\")"):
        return None
    top, mean, total, share, second, mean2 = m.groups()
    parts = r["parts"]
    if not c.ok(top in parts and second in parts,
                "the why names parts the table has not (%s, %s)" % (top, second)):
        return None
    c.ok(parts[top][0] == mean, "the why's %s %s is not the table's %s" % (top, mean, parts[top][0]))
    c.ok(parts[second][0] == mean2, "the why's next part %s %s is not the table's %s"
         % (second, mean2, parts[second][0]))
    c.ok(r.get("total") == total, "the why's total %s is not the table's %s" % (total, r.get("total")))
    c.ok(near(int(share), parts[top][1], 0.55),
         "the why's share %s %% is not the table's %.1f %%" % (share, parts[top][1]))
    means = {p: dur_us(v[0]) or 0 for p, v in parts.items()}
    order = sorted(means, key=lambda p: -means[p])
    c.ok(means[top] == means[order[0]], "the why's largest part %s is not the table's (%s)"
         % (top, order[0]))
    c.ok(means[second] == means[order[1]], "the why's next part %s is not the table's second (%s)"
         % (second, order[1]))
    return top


def check_split(c, what, said, shown):
    """The why's split against the evidence's: every share the same."""
    if not c.ok(said is not None, "%s: the why gives no split of the TEE time" % what):
        return
    if not c.ok(shown is not None, "%s: the evidence prints no split of the TEE time" % what):
        return
    for k, v in said.items():
        if v is None or k == "setup_oncpu":
            continue
        c.ok(shown.get(k) == v, "%s: the why says %s %s %%, the evidence %s %%"
             % (what, k, v, shown.get(k)))


def check_tee(c, r, cause, title, why):
    """A TEE cause: its shares, its words, its largest share."""
    if why.startswith("connections wait longest in the accept queue"):
        aq = r["aq"]
        ev = aq.get("split")
        m = re.search(r"are in TEE calls (\d+) % of that time", why)
        if c.ok(m and "tee" in aq, "the why through the accept queue gives no TEE share"):
            p = int(m.group(1))
            c.ok(near(p, aq["tee"], 0.55), "the why's %d %% in TEE calls is not the accept queue's %.1f %%"
                 % (p, aq["tee"]))
            c.ok(p >= 50, "a TEE cause through the accept queue with the acceptors %d %% in TEE calls" % p)
            t = r.get("through", "")
            mt = re.search(r"were (\d+) % in TEE calls \((\d+) % of it asleep\)", t)
            if c.ok(mt, "no \"Through the accept queue\" line with the TEE share"):
                c.ok(int(mt.group(1)) == p, "the accept queue line says %s %% in TEE calls, the why %d %%"
                     % (mt.group(1), p))
                c.ok(aq.get("tee_asleep") == int(mt.group(2)),
                     "the accept queue line says %s %% asleep, the table %s %%"
                     % (mt.group(2), aq.get("tee_asleep")))
        what = "accept queue"
    else:
        c.ok(why.startswith("TEE ioctls are the largest part"),
             "a TEE cause whose why is neither the TEE part nor the accept queue")
        ev = r.get("tee_split")
        what = "TEE ioctls"
    said = split_of(why)
    check_split(c, what, said, ev)
    if ev is None:
        return
    # the named share, and that it is the largest
    own = "work" if "work" in ev else "secure"
    cands = {"tee-blocking": "setup", "tee-queue": "queue",
             "tee-work": own, "tee-work-unsplit": "work", "tee-driver": "driver"}
    key = cands[cause]
    c.ok(key in ev, "the title names %s, the evidence has no such share" % key)
    if key not in ev:
        return
    pool = ["setup", "queue"] + (["work"] if "work" in ev else ["secure", "driver"])
    # set-up is named from 30 % of the TEE time (verdict.c, TEE_SETUP_CAUSE);
    # below that, and for the other causes, the named share is the largest
    largest = all(ev[key] >= ev[k] for k in pool)
    if key == "setup":
        named = ev["setup"] >= 30 or largest
    else:
        named = ev["setup"] < 30 and largest
    c.ok(named,
         "the title names %s (%d %%), not the largest share of %s"
         % (key, ev[key], ", ".join("%s %d %%" % (k, ev[k]) for k in pool)))
    pats = {"setup": r"set-up, (\d+) % of the TEE time",
            "queue": r"secure thread: (\d+) % of the TEE time",
            "secure": r"own work \(the TA's\), (\d+) % of it",
            "work": r"the calls' own work, (\d+) % of it",
            "driver": r"driver work, (\d+) % of it"}
    m = re.search(pats[key], title)
    if c.ok(m, "the title gives no share of %s" % key):
        c.ok(int(m.group(1)) == ev[key], "the title's %s %s %% is not the evidence's %d %%"
             % (key, m.group(1), ev[key]))
    if cause == "tee-blocking":
        a, o = ev["setup_asleep"], ev.get("setup_oncpu")
        m = re.search(r"mostly (asleep|on a CPU) \((\d+) % of it\)", title)
        if m:
            v = a if m.group(1) == "asleep" else o
            c.ok(int(m.group(2)) == v, "the title's \"mostly %s\" (%s %%) is not the evidence's %s %%"
                 % (m.group(1), m.group(2), v))
            c.ok(v is not None and v > 50, "\"mostly %s\" of %s %%: not more than half" % (m.group(1), v))
        else:
            m = re.search(r"(\d+) % of it asleep, (\d+) % on a CPU", title)
            if c.ok(m, "the title says neither \"mostly\" nor both shares of the set-up"):
                c.ok((int(m.group(1)), int(m.group(2))) == (a, o),
                     "the title's set-up %s %% asleep, %s %% on a CPU is not the evidence's %s, %s"
                     % (m.group(1), m.group(2), a, o))
                c.ok(a <= 50 and (o is None or o <= 50),
                     "both shares given where one is more than half (%s, %s)" % (a, o))
    m = re.search(r"not per-call set-up \((\d+) %\)", title)
    if m:
        c.ok(int(m.group(1)) == ev["setup"] and ev["setup"] < 10,
             "\"not per-call set-up (%s %%)\" with the evidence's set-up %d %%" % (m.group(1), ev["setup"]))
    elif "not per-call set-up" in title + why:
        c.ok(False, "\"not per-call set-up\" without its share")


def check_netrx(c, r, cause, why):
    k, w = r.get("ksoftirqd"), r.get("tee_wait")
    if not c.ok(k is not None, "no NET_RX evidence line"):
        return
    if cause == "tee-starves-netrx":
        m = re.search(r"and (\d+) % of it passed while threads inside TEE calls held the CPU", why)
        if m:
            c.ok(int(m.group(1)) == w and w >= 30, "the why's %s %% behind TEE calls against the evidence's %d %%"
                 % (m.group(1), w))
            return
        m = re.search(r"TEE calls hold (\d+) % of CPU time and the wait rises with them \(r = (\S+)\)", why)
        if c.ok(m, "tee-starves-netrx without its share or its correlation"):
            c.ok(near(int(m.group(1)), r.get("tee_oncpu"), 0.55) and int(m.group(1)) >= 5,
                 "the why's TEE %s %% of CPU time against the evidence's %s %%"
                 % (m.group(1), r.get("tee_oncpu")))
            c.ok(m.group(2) == r.get("r_tee_netrx") and float(m.group(2)) >= 0.3,
                 "the why's r = %s against the link's %s" % (m.group(2), r.get("r_tee_netrx")))
            c.ok(k < 50, "a correlation verdict with %d %% of the wait ksoftirqd's" % k)
            c.ok(w < 30, "a correlation verdict where %d %% of the wait was measured behind TEE calls" % w)
    elif cause == "softirq-cpu-hog":
        m = re.search(r"(\d+) % of it softirqs deferred to ksoftirqd", why)
        if c.ok(m, "softirq-cpu-hog without ksoftirqd's share"):
            c.ok(int(m.group(1)) == k and k >= 50, "the why's ksoftirqd %s %% against the evidence's %d %%"
                 % (m.group(1), k))
            c.ok(w < 30, "ksoftirqd blamed where %d %% of the wait was behind TEE calls" % w)
    else:
        m = re.search(r"(\d+) % of it at irq exit or bh enable, and only (\d+) % of it while TEE calls", why)
        if c.ok(m, "softirq-bh-off without its shares"):
            c.ok(int(m.group(1)) == 100 - k and k < 50, "the why's %s %% at irq exit against ksoftirqd's %d %%"
                 % (m.group(1), k))
            c.ok(int(m.group(2)) == w and w < 30, "the why's %s %% behind TEE calls against the evidence's %d %%"
                 % (m.group(2), w))


def check_accept(c, r, cause, why):
    aq = r["aq"]
    rows = aq.get("rows", [])
    runnable = sum(v for n, v in rows if n == "waiting for a CPU")
    unknown = sum(v for n, v in rows if n.startswith("not known"))
    tee = aq.get("tee")
    if cause == "accept-cpu-starved":
        m = re.search(r"wait for a CPU (\d+) % of that time", why)
        if c.ok(m, "accept-cpu-starved without the share waiting for a CPU"):
            c.ok(near(int(m.group(1)), runnable, 0.6), "the why's %s %% waiting for a CPU against the table's %.1f %%"
                 % (m.group(1), runnable))
        m2 = re.search(r"\((\d+) % of the time their state is known\)", why)
        if m2:
            known = 100 - unknown
            c.ok(known > 0 and near(int(m2.group(1)), 100 * runnable / known, 1.0),
                 "the why's %s %% of the known time against the table's %.1f %% of %.1f %%"
                 % (m2.group(1), runnable, known))
            c.ok(int(m2.group(1)) >= 50, "accept-cpu-starved at %s %% of the known time" % m2.group(1))
        elif m:
            c.ok(int(m.group(1)) >= 50, "accept-cpu-starved at %s %%" % m.group(1))
        c.ok(tee is None or tee < 50, "the acceptors were %s %% in TEE calls: a TEE cause" % tee)
    else:
        m = re.search(r"in TEE calls (\d+) % of that time and wait for a CPU (\d+) %", why)
        if m:
            c.ok(near(int(m.group(1)), tee, 0.55) and int(m.group(1)) < 50,
                 "the why's %s %% in TEE calls against the table's %s %%" % (m.group(1), tee))
            c.ok(near(int(m.group(2)), runnable, 0.6), "the why's %s %% waiting for a CPU against the table's %.1f %%"
                 % (m.group(2), runnable))
        else:
            c.ok(tee is None or why == "connections wait in the accept queue longest",
                 "slow-accept's why says nothing of the acceptors the table shows")


def check(text, name):
    c = Check(name)
    c.ok(not re.search(r"(?<![A-Za-z])-?nan(?![A-Za-z])", text, re.I), "the output prints \"nan\"")
    r = parse(text)
    title, why = r.get("title"), r.get("why")
    if not c.ok(title is not None and why is not None, "no Verdict line and why"):
        return c
    cause = next((k for n, k in NAMES if title.startswith(n)), None)
    if not c.ok(cause, "a title this checker does not know: %s" % title):
        return c
    fix = "fix" in r
    c.ok(fix == (cause not in ("no-problem", "weak-evidence")),
         "%s %s a fix" % (cause, "has" if fix else "has not"))
    if cause == "weak-evidence":
        if why.startswith("too few handshakes"):
            c.ok(r.get("handshakes", 0) < 20, "too few handshakes, with %s" % r.get("handshakes"))
        else:
            c.ok(why.startswith("no part holds the minimum share"), "weak evidence without a reason")
            c.ok(all(v[1] < 40.05 for v in r["parts"].values()),
                 "no part holds 40 %%, yet the table shows %s" % r["parts"])
        return c
    top = check_tail(c, r, why)
    leads = {"TEE ioctls are the largest part": "TEE ioctls",
             "NET_RX wait is the largest part": "NET_RX wait",
             "connections wait": "ACK -> accept",
             "SYN/ACK -> ACK, less its NET_RX wait, is the largest part": "round trip",
             "SYN -> SYN/ACK is the largest part": "SYN -> SYN/ACK"}
    if cause == "no-problem":
        return c
    lead = next((p for s, p in leads.items() if why.startswith(s)), None)
    c.ok(lead and lead == top, "the why's lead (%s) and its largest part (%s) differ" % (lead, top))
    if cause.startswith("tee-") and cause != "tee-starves-netrx":
        check_tee(c, r, cause, title, why)
    elif cause in ("tee-starves-netrx", "softirq-cpu-hog", "softirq-bh-off"):
        check_netrx(c, r, cause, why)
    elif cause in ("slow-accept", "accept-cpu-starved"):
        check_accept(c, r, cause, why)
    return c


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print("usage: verdictcheck.py FILE...|-  (analyze's text output)")
        return 2
    failed = 0
    for name in argv[1:]:
        text = sys.stdin.read() if name == "-" else open(name, errors="replace").read()
        c = check(text, name)
        for b in c.bad:
            print("%s: %s" % (name, b))
        failed |= bool(c.bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
