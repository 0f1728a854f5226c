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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


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
    cmd = bt.after_dashes(a.cmd)
    og = bt.need_tool("oclgrind", why="oclgrind is not installed (Debian package oclgrind)")
    with bt.tmpdir() as d:
        log = os.path.join(d, "oclgrind.log")
        extra = []
        if a.mutate:
            kd = os.path.join(d, "kernels")
            find, replace = (x.encode().decode("unicode_escape") for x in a.mutate[1:])
            bt.kernels_copy(a.kernels, kd, a.mutate[0], find, replace)
            extra = ["--kernels", kd]
        full = [og, "--num-threads", "1"] + (["--check-api"] if a.check_api else []) + \
            ["--data-races", "--log", log] + cmd + ["--device", "Oclgrind"] + extra
        print(" ".join(full))
        r = bt.run(full)
        text = open(log).read() if os.path.exists(log) else ""
    out = r.out + r.err
    print(out)
    print("--- oclgrind log ---\n" + text)
    if a.expect_log:
        missing = [e for e in a.expect_log if not re.search(e, text)]
        if missing:
            bt.fail(f"the log lacks {missing}")
    elif text.strip() or "Oclgrind - " in r.err:
        bt.fail("oclgrind reported errors")
    missing = [e for e in a.expect if not re.search(e, out)]
    if r.code != a.code or missing:
        bt.fail(f"exit {r.code} (expected {a.code}); missing in the output: {missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
