#!/usr/bin/env python3
"""Output lost without a word is a failure: every command whose standard output is /dev/full
(a full disk) exits 1 saying it could not write it, never 0 (bench's C commands: cli.c,
cli_close_stdout; bench report too, which writes what its renderer drew).

usage: stdout_full.py BENCH DEVICE
"""
import os
import subprocess
import sys

import benchtest as bt

BENCH, DEVICE = sys.argv[1], sys.argv[2]
DOC = {"schema_version": 1, "benchmark": "vecadd", "timestamp": "2026-11-23T10:00:00Z",
       "device": {"name": "D", "platform": "P", "driver_version": "1"},
       "points": [{"params": {"groups": 1}, "status": "failed", "reason": "r", "validated": False}]}


def main():
    if not os.path.exists("/dev/full"):
        bt.skip("no /dev/full")
    with bt.tmpdir() as d:
        doc = bt.write_doc(os.path.join(d, "d.json"), DOC)
        cmds = [["--help"], ["list"], ["list", "--json"], ["info", "--json", "--device", DEVICE],
                ["info", "--device", DEVICE], ["model", "--list"], ["vecadd", "--help"],
                ["validate", "--list", "--device", DEVICE], ["suite", "--list"],
                ["compare", doc, doc], ["report", doc, "-o", os.path.join(d, "r.html")],
                ["vecadd", "--groups", "1", "--reps", "2", "--device", DEVICE]]
        for c in cmds:
            with open("/dev/full", "w") as full:
                r = subprocess.run([BENCH] + c, stdout=full, stderr=subprocess.PIPE, text=True)
            bt.check(r.returncode == 1 and "cannot write the standard output" in r.stderr,
                     f"bench {' '.join(c)} > /dev/full: exit {r.returncode}, stderr {r.stderr[-300:]!r}")
    return bt.verdict(f"{len(cmds)} commands with a full standard output: exit 1, said")


if __name__ == "__main__":
    sys.exit(main())
