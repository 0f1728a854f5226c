#!/usr/bin/env python3
"""What the suite holds: every test's name, and how many assertions the tests make, so that a
change to how the tests run can show that none was dropped (docs/tests.md, "No test dropped").

usage: inventory.py BUILDDIR [--names FILE]
Prints the number of tests of each suite (meson introspect --tests), the assertion sites of the
test code under tests/ (Python: check, fail, must_run, run_checked, assert; C: the CHECK macros
of tests/unit.h and tests/occ_unit.h; shell: a line that exits 1) and the expectations the
tests' own command lines give (expect.py's and mutant.py's --code, --stdout, --stderr, --expect;
junit_check.py's --expect-result and --expect-code). --names writes one "SUITES / NAME" line per
test, sorted, for a diff against another tree's.
"""
import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SITES = {
    ".py": re.compile(r"(?<![\w.])(?:bt\.)?(check|fail|must_run|run_checked)\(|^\s*(assert) "),
    ".c": re.compile(r"\b(CHECK(?:_[A-Z_]+)?)\("),
    ".sh": re.compile(r"(exit 1)\b"),
}
EXPECT_ARGS = {"--code", "--stdout", "--stderr", "--expect", "--expect-result", "--expect-code"}


def sites():
    """Assertion sites of each kind in the test code."""
    kinds = Counter()
    for path in sorted(TESTS.rglob("*")):
        rx = SITES.get(path.suffix)
        if rx is None or not path.is_file() or path.name == "inventory.py":
            continue
        for line in path.read_text(errors="replace").splitlines():
            for m in rx.finditer(line):
                if line.lstrip().startswith(("def ", "#define", "#")):
                    continue
                kinds[next(g for g in m.groups() if g)] += 1
    return kinds


def expectations(cmd):
    """The expectation options a test's command line gives ('--stdout=RE' counted too)."""
    return sum(1 for a in cmd if a.split("=", 1)[0] in EXPECT_ARGS)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builddir")
    ap.add_argument("--names")
    a = ap.parse_args()
    r = subprocess.run(["meson", "introspect", "--tests", a.builddir], capture_output=True,
                       text=True, check=True)
    tests = json.loads(r.stdout)
    suites = {id(t): "+".join(x.split(":")[-1] for x in t["suite"]) for t in tests}
    names = sorted(f"{suites[id(t)]} / {t['name']}" for t in tests)
    if a.names:
        Path(a.names).write_text("".join(n + "\n" for n in names))
    by_suite = Counter(suites.values())
    print(f"{len(tests)} tests: " + ", ".join(f"{s} {n}" for s, n in sorted(by_suite.items())))
    kinds = sites()
    print(f"{sum(kinds.values())} assertion sites in tests/: " +
          ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"{sum(expectations(t['cmd']) for t in tests)} expectations on the tests' command lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
