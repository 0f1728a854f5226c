#!/usr/bin/env python3
"""Runs a command up to N times until it exits 0 (for the residency check on CPUs).

usage: retry.py N -- CMD...
On a CPU platform a work-group is resident while its worker thread runs; when the
operating system gives the machine's cores to other processes, fewer groups overlap
and the probe under-counts (it cannot over-count). A repeated run separates that from
a systematic disagreement, which fails every attempt.
"""
import subprocess
import sys

n = int(sys.argv[1])
cmd = sys.argv[3:] if sys.argv[2] == "--" else sys.argv[2:]
for attempt in range(1, n + 1):
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(f"attempt {attempt}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    if r.returncode == 0:
        sys.exit(0)
sys.exit(1)
