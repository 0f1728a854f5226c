#!/usr/bin/env python3
"""Runs a bench command under oclgrind, the simulated OpenCL 1.2 device that checks
kernels, and fails on anything it reports (its exit code never reflects its findings).

usage: oclgrind_run.py [--check-api] [--code N] [--mutate FILE FIND REPLACE --kernels DIR]
                       [--expect-log REGEX]... [--expect REGEX]... -- BENCH ARGS...
Runs `oclgrind --num-threads 1 [--check-api] --data-races --log LOG BENCH ARGS --device
Oclgrind`. Without --expect-log the log must be empty and nothing reported on stderr
("Oclgrind - ..."); with it (a planted bug, through a --kernels copy with one change)
every regex must match the log. Exit 77 where oclgrind is not installed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check-api", action="store_true")
    ap.add_argument("--code", type=int, default=0)
    ap.add_argument("--kernels")
    ap.add_argument("--mutate", nargs=3, metavar=("FILE", "FIND", "REPLACE"))
    ap.add_argument("--expect-log", action="append", default=[])
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    og = shutil.which("oclgrind")
    if not og:
        print("oclgrind is not installed (Debian package oclgrind): skipped")
        return 77
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "oclgrind.log")
        extra = []
        if a.mutate:
            kd = os.path.join(d, "kernels")
            os.mkdir(kd)
            for f in os.listdir(a.kernels):
                if f.endswith((".cl", ".h")):
                    shutil.copy(os.path.join(a.kernels, f), kd)
            path = os.path.join(kd, a.mutate[0])
            src = open(path).read()
            find = a.mutate[1].encode().decode("unicode_escape")
            if find not in src:
                print(f"{a.mutate[0]} no longer has the code this mutant changes:\n{find}")
                return 1
            open(path, "w").write(src.replace(find, a.mutate[2].encode().decode("unicode_escape"), 1))
            extra = ["--kernels", kd]
        full = [og, "--num-threads", "1"] + (["--check-api"] if a.check_api else []) + \
            ["--data-races", "--log", log] + cmd + ["--device", "Oclgrind"] + extra
        print(" ".join(full))
        r = subprocess.run(full, capture_output=True, text=True)
        text = open(log).read() if os.path.exists(log) else ""
    out = r.stdout + r.stderr
    print(out)
    print("--- oclgrind log ---\n" + text)
    if a.expect_log:
        missing = [e for e in a.expect_log if not re.search(e, text)]
        if missing:
            print(f"FAIL: the log lacks {missing}")
            return 1
    elif text.strip() or "Oclgrind - " in r.stderr:
        print("FAIL: oclgrind reported errors")
        return 1
    missing = [e for e in a.expect if not re.search(e, out)]
    if r.returncode != a.code or missing:
        print(f"FAIL: exit {r.returncode} (expected {a.code}); missing in the output: {missing}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
