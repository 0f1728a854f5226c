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
import json
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
    ap.add_argument("--limits", metavar="DEVICE",
                    help="read DEVICE's memory limits (bench info --json) for @MAX_ALLOC@, "
                         "@TWICE_MAX_ALLOC@, @SCALE_ABOVE_ALLOC@ and @N_ABOVE_GLOBAL@ in the command")
    ap.add_argument("--cap", type=int, metavar="N",
                    help="with --limits: skip (77) when the value put in the command exceeds N, "
                         "the most the option allows (the device's limit lies beyond it)")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-expect-")
    try:
        return run(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def limits(bench, device):
    """The device's memory limits as the values the placeholders stand for; None to skip.
    A CPU driver reports limits that follow the memory free when asked (PoCL), so a test of
    a size above them takes the size from the device, never a fixed number."""
    r = subprocess.run([bench, "info", "--json", "--device", device], capture_output=True, text=True)
    d = json.loads(r.stdout)[0]
    alloc, glob_mem = d["max_alloc_bytes"], d["global_mem_bytes"]
    v = {"@MAX_ALLOC@": alloc, "@TWICE_MAX_ALLOC@": 2 * alloc,
         "@SCALE_ABOVE_ALLOC@": 2 * alloc // 65536,   # atomics: a counter buffer of scale x 64 KiB
         "@N_ABOVE_GLOBAL@": alloc // 4}               # vecadd: 4 buffers of max_alloc bytes
    if 4 * alloc <= glob_mem:
        v["@N_ABOVE_GLOBAL@"] = None   # 4 buffers of the largest allowed fit: no such size
    return {k: (str(x) if x is not None else None) for k, x in v.items()}


def run(a, tmp) -> int:
    cmd = [c.replace("@TMPDIR@", tmp) for c in (a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd)]
    if a.limits and any("@" in c for c in cmd):
        lim = limits(cmd[0], a.limits)
        for k, x in lim.items():
            if any(k in c for c in cmd) and x is None:
                print(f"{a.limits}: no size fits {k} (4 of its largest buffers fit its memory)")
                return 77
            if any(k in c for c in cmd) and a.cap is not None and int(x) > a.cap:
                print(f"{a.limits}: {k} would be {x}, above the option's own limit {a.cap}: "
                      "the device's limit cannot be reached from the command line here")
                return 77
            cmd = [c.replace(k, x) for c in cmd] if x else cmd
            a.stderr = [p.replace(k, x) for p in a.stderr] if x else a.stderr
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
