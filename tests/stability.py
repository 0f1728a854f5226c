#!/usr/bin/env python3
"""Reads the meson testlog.json of each of repeated runs (scripts/test.sh --repeat N: one meson
test run a repetition, since `meson test --repeat` stops at the first failure) and prints every
test that failed at least once: its failures of its runs, and the last lines of one failing run's
output.

usage: stability.py TESTLOG...
Ends with the counts line of scripts/test.sh ("N passed, N failed, N skipped", each run of each
test counted); exit 1 where any run failed, else 0.
"""
import sys

import benchtest as bt


def main(argv):
    if len(argv) < 2:
        bt.fail(f"usage: {argv[0]} TESTLOG...")
    runs, failed, counts = {}, {}, {"OK": 0, "FAIL": 0, "SKIP": 0}
    for r in (r for log in argv[1:] for r in bt.json_lines(log)):
        key = {"OK": "OK", "EXPECTEDFAIL": "OK", "SKIP": "SKIP"}.get(r["result"], "FAIL")
        counts[key] += 1
        runs[r["name"]] = runs.get(r["name"], 0) + 1
        if key == "FAIL":
            failed.setdefault(r["name"], []).append(r)
    for name, bad in sorted(failed.items()):
        last = bad[-1]
        tail = "\n    ".join((last.get("stdout") or "").strip().splitlines()[-6:])
        print(f"FLAKY: {name}: failed {len(bad)} of {runs[name]} runs ({last['result']})\n    {tail}")
    print(f"{len(runs)} tests, {sum(runs.values())} runs; {len(failed)} failed at least once")
    print(f"{counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
