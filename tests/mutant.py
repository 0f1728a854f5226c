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
import os
import shutil
import subprocess
import sys
import tempfile


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
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    with tempfile.TemporaryDirectory() as d:
        for f in os.listdir(a.kernels):
            if f.endswith((".cl", ".h")):
                shutil.copy(os.path.join(a.kernels, f), d)
        path = os.path.join(d, a.file)
        with open(path) as f:
            src = f.read()
        if a.find not in src:
            print(f"{a.file} no longer has the code this mutant changes:\n{a.find}")
            return 1
        line = src[:src.index(a.find)].count("\n") + 1
        a.expect = [m.replace("@LINE@", str(line)) for m in a.expect]
        with open(path, "w") as f:
            f.write(src.replace(a.find, a.replace, 1))
        cmd = [c.replace("@TMPDIR@", d) for c in cmd]
        r = subprocess.run(cmd + ["--kernels", d], capture_output=True, text=True)
    out = r.stdout + r.stderr
    missing = [m for m in a.expect if m not in out]
    if r.returncode != a.code or missing:
        print(f"exit code {r.returncode} (expected {a.code}); missing messages: {missing}")
        print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
        return 1
    print(f"the mutant was caught (exit {r.returncode}):\n{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
