#!/usr/bin/env python3
"""Runs a command and checks its exit code and output.

usage: expect.py --code N [--stderr REGEX]... [--stdout REGEX]... [--no-file PATH]
                 [--is PATH:KIND]... -- CMD...
Every regex must match (re.search, DOTALL). --no-file asserts PATH (and any
PATH.tmp.*) does not exist afterwards: nothing half-written. --is asserts what PATH is
afterwards (without following a link): chr, fifo, link, file or dir. @TMPDIR@ in the command or a
--no-file path is a folder made for this run and removed after it, so that files left by an
earlier run that was killed cannot decide this one.
"""
import argparse
import glob
import os
import re
import shutil
import stat
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
    ap.add_argument("--is", dest="kinds", action="append", default=[], help="PATH:KIND afterwards")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-expect-")
    try:
        return run(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(a, tmp) -> int:
    cmd = [c.replace("@TMPDIR@", tmp) for c in (a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd)]
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
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
    for path in (p.replace("@TMPDIR@", tmp) for p in a.no_file):
        left = ([path] if os.path.exists(path) else []) + glob.glob(path + ".tmp.*")
        if left:
            print(f"left behind: {left}")
            ok = False
    kinds = {"chr": stat.S_ISCHR, "fifo": stat.S_ISFIFO, "link": stat.S_ISLNK,
             "file": stat.S_ISREG, "dir": stat.S_ISDIR}
    for pk in a.kinds:
        path, _, kind = pk.replace("@TMPDIR@", tmp).rpartition(":")
        mode = os.lstat(path).st_mode if os.path.lexists(path) else None
        if mode is None or not kinds[kind](mode):
            print(f"{path} is not a {kind} afterwards (mode {mode and oct(mode)})")
            ok = False
    if not ok:
        print("command:", " ".join(cmd))
        print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
