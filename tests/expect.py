#!/usr/bin/env python3
"""Runs a command and checks its exit code and output.

usage: expect.py --code N [--stderr REGEX]... [--stdout REGEX]... [--no-file PATH] -- CMD...
Every regex must match (re.search, DOTALL). --no-file asserts PATH (and any
PATH.tmp.*) does not exist afterwards: nothing half-written. @TMP@ in CMD and in
--no-file paths is a folder made for this run alone (tests running at once, or a
crashed earlier run, never share files).
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", type=int, required=True)
    ap.add_argument("--stderr", action="append", default=[])
    ap.add_argument("--stdout", action="append", default=[])
    ap.add_argument("--no-file", action="append", default=[])
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the command")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    tmp = tempfile.TemporaryDirectory()
    cmd = [c.replace("@TMP@", tmp.name) for c in cmd]
    a.no_file = [p.replace("@TMP@", tmp.name) for p in a.no_file]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=None)
    ok = True
    if r.returncode != a.code:
        print(f"exit code {r.returncode}, expected {a.code}")
        ok = False
    for pat in a.stderr:
        if not re.search(pat, r.stderr, re.DOTALL):
            print(f"stderr does not match {pat!r}")
            ok = False
    for pat in a.stdout:
        if not re.search(pat, r.stdout, re.DOTALL):
            print(f"stdout does not match {pat!r}")
            ok = False
    for path in a.no_file:
        left = ([path] if os.path.exists(path) else []) + glob.glob(path + ".tmp.*")
        if left:
            print(f"left behind: {left}")
            ok = False
    if not ok:
        print("command:", " ".join(cmd))
        print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
