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
import os
import re
import stat
import sys

import benchtest as bt


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
    with bt.tmpdir(prefix="bench-expect-", ignore_errors=True) as tmp:
        return run(a, tmp)


def limits(bench, device):
    """The device's memory limits as the values the placeholders stand for; None to skip.
    A CPU driver reports limits that follow the memory free when asked (PoCL), so a test of
    a size above them takes the size from the device, never a fixed number."""
    d = bt.bench_info(bench, device)[0]
    alloc, glob_mem = d["max_alloc_bytes"], d["global_mem_bytes"]
    v = {"@MAX_ALLOC@": alloc, "@TWICE_MAX_ALLOC@": 2 * alloc,
         "@SCALE_ABOVE_ALLOC@": 2 * alloc // 65536,   # atomics: a counter buffer of scale x 64 KiB
         "@N_ABOVE_GLOBAL@": alloc // 4}               # vecadd: 4 buffers of max_alloc bytes
    if 4 * alloc <= glob_mem:
        v["@N_ABOVE_GLOBAL@"] = None   # 4 buffers of the largest allowed fit: no such size
    return {k: (str(x) if x is not None else None) for k, x in v.items()}


def run(a, tmp) -> int:
    cmd = [c.replace("@TMPDIR@", tmp) for c in bt.after_dashes(a.cmd)]
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
    r = bt.run(cmd, env={k: v for k, _, v in (kv.partition("=") for kv in a.env)})
    bt.check(r.code == a.code, f"exit code {r.code}, expected {a.code}")
    for pat in a.stderr:
        bt.check(re.search(pat, r.err, re.DOTALL), f"stderr does not match {pat!r}")
    for pat in a.stdout:
        bt.check(re.search(pat, r.out, re.DOTALL), f"stdout does not match {pat!r}")
    for path in (p.replace("@TMPDIR@", tmp) for p in a.no_file):
        left = ([path] if os.path.exists(path) else []) + bt.temp_files(path)
        bt.check(not left, f"left behind: {left}")
    kinds = {"chr": stat.S_ISCHR, "fifo": stat.S_ISFIFO, "link": stat.S_ISLNK,
             "file": stat.S_ISREG, "dir": stat.S_ISDIR}
    for pk in a.kinds:
        path, _, kind = pk.replace("@TMPDIR@", tmp).rpartition(":")
        mode = os.lstat(path).st_mode if os.path.lexists(path) else None
        bt.check(mode is not None and kinds[kind](mode),
                 f"{path} is not a {kind} afterwards (mode {mode and oct(mode)})")
    if bt.errors:
        print("command:", " ".join(cmd))
        print(r.output())
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
