#!/usr/bin/env python3
"""Runs a command up to N times until it exits 0 (for the residency check on CPUs).

usage: retry.py N -- CMD...
On a CPU platform a work-group is resident while its worker thread runs; when the
operating system gives the machine's cores to other processes, fewer groups overlap
and the probe under-counts (it cannot over-count). A repeated run separates that from
a systematic disagreement, which fails every attempt.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

n = int(sys.argv[1])
cmd = bt.after_dashes(sys.argv[2:])
for attempt in range(1, n + 1):
    r = bt.run(cmd)
    print(f"attempt {attempt}: exit {r.code}\n{r.out}{r.err}")
    if r.code == 0:
        sys.exit(0)
sys.exit(1)
