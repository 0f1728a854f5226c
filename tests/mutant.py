#!/usr/bin/env python3
"""Proves a benchmark's validation catches a wrong kernel: copies the kernel folder,
changes one piece of one kernel, runs the command on the copy (--kernels), and expects
the failure and its message. @TMPDIR@ in CMD is a folder of this run alone; @LINE@ in an
expected message is the line of the mutated code in its file.

usage: mutant.py --kernels DIR --file NAME --find TEXT --replace TEXT
                 [--code N] --expect MSG [--expect MSG]... -- CMD...
The mutation must apply (TEXT found in NAME) or the test fails: a kernel that no
longer has the mutated code must get a new mutant, not a silent pass. @TMPDIR@ in CMD is a
folder of this run, removed after it.
"""
import argparse
import sys

import benchtest as bt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--find", required=True)
    ap.add_argument("--replace", required=True)
    ap.add_argument("--code", type=int, default=1)
    ap.add_argument("--expect", action="append", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = bt.after_dashes(a.cmd)
    with bt.tmpdir() as d:
        line = bt.kernels_copy(a.kernels, d, a.file, a.find, a.replace)
        expect = [m.replace("@LINE@", str(line)) for m in a.expect]
        r = bt.run([c.replace("@TMPDIR@", d) for c in cmd] + ["--kernels", d])
    out = r.out + r.err
    missing = [m for m in expect if m not in out]
    if r.code != a.code or missing:
        bt.fail(f"exit code {r.code} (expected {a.code}); missing messages: {missing}", r, None)
    print(f"the mutant was caught (exit {r.code}):\n{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
