#!/usr/bin/env python3
"""Runs a check only where a GPU is found: exits 77 (skipped) otherwise.

usage: gpu_run.py BENCH -- CMD...
The device selected by default is then the first GPU; CMD runs with
BENCH_DEVICE set to its index, so every bench call inside uses it.
"""
import json
import sys

import benchtest as bt

bench, cmd = sys.argv[1], bt.after_dashes(sys.argv[2:])
out = bt.run([bench, "info", "--json"])
gpus = [d for d in json.loads(out.out)] if out.code == 0 else []
gpus = [d for d in gpus if d["type"] == "GPU"]
if not gpus:
    bt.skip("no GPU found")
print(f"GPU: {gpus[0]['name']} [{gpus[0]['platform']}], driver {gpus[0]['driver_version']}")
sys.exit(bt.run(cmd, env={"BENCH_DEVICE": str(gpus[0]["index"])}, capture=False).code)
