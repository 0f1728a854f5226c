#!/usr/bin/env python3
"""Runs a check only where a GPU is found: exits 77 (skipped) otherwise.

usage: gpu_run.py BENCH -- CMD...
The device selected by default is then the first GPU; CMD runs with
BENCH_DEVICE set to its index, so every bench call inside uses it.
"""
import json
import os
import subprocess
import sys

bench, cmd = sys.argv[1], sys.argv[3:] if sys.argv[2] == "--" else sys.argv[2:]
out = subprocess.run([bench, "info", "--json"], capture_output=True, text=True)
gpus = [d for d in json.loads(out.stdout)] if out.returncode == 0 else []
gpus = [d for d in gpus if d["type"] == "GPU"]
if not gpus:
    print("no GPU found: skipped")
    sys.exit(77)
print(f"GPU: {gpus[0]['name']} [{gpus[0]['platform']}], driver {gpus[0]['driver_version']}")
env = dict(os.environ, BENCH_DEVICE=str(gpus[0]["index"]))
sys.exit(subprocess.run(cmd, env=env).returncode)
