#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""json2tap - turn kunit.py's --json results into one TAP line per case.

kunit.py (the kernel's own KUnit tool) parses the KTAP; this only flattens
its verdicts so the project's runner counts every KUnit case.
"""
import json
import sys


def walk(group, prefix, out):
    """Collect (name, status) for every test case below group."""
    name = group.get("name", "")
    if name == "KUnit Test Group":  # kunit.py's root, not a suite
        name = ""
    path = f"{prefix}.{name}" if prefix and name else (name or prefix)
    for case in group.get("test_cases", []):
        out.append((f"{path}.{case['name']}", case.get("status", "FAIL")))
    for sub in group.get("sub_groups", []):
        walk(sub, path, out)


def main():
    with open(sys.argv[1]) as f:
        data = json.load(f)
    cases = []
    walk(data, "", cases)
    if not cases:
        print("not ok 1 - kunit.py found no test cases")
        print("1..1")
        return 1
    failed = 0
    for i, (name, status) in enumerate(cases, 1):
        if status == "PASS":
            print(f"ok {i} - {name}")
        elif status == "SKIP":
            print(f"ok {i} - {name} # SKIP")
        else:
            failed += 1
            print(f"not ok {i} - {name} ({status})")
    print(f"1..{len(cases)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
