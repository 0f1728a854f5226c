#!/usr/bin/env python3
"""Runs a command with stderr on a terminal and checks its progress lines.

usage: progress.py [--expect TEXT]... -- CMD...
Each TEXT must appear among the lines the command wrote in place on stderr
(split at carriage returns, escape codes removed); the command must exit 0.
With stderr not a terminal the harness writes no progress, so this is the
only place it can be seen.
"""
import argparse
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = bt.after_dashes(a.cmd)
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    raw = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:   # the terminal's other end closed: the command exited
            break
        if not chunk:
            break
        raw += chunk
    p.wait()
    os.close(master)
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", raw.decode(errors="replace"))
    lines = [l.strip() for l in re.split(r"[\r\n]+", text) if l.strip()]
    missing = [e for e in a.expect if not any(e in l for l in lines)]
    if p.returncode != 0 or missing:
        bt.fail(f"exit code {p.returncode}; missing {missing!r}\n--- stderr lines ---\n"
                + "\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
