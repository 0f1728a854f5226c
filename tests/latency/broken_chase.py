#!/usr/bin/env python3
"""The device check of bench latency must reject a chase that skips a node.

usage: broken_chase.py BENCH KERNELS_DIR DEVICE_ARGS...
Copies the kernels, makes chase_check load one extra node on its first step
(so one lap no longer ends where it started), runs bench latency with
--kernels on the copy and expects exit 1 with the check's message.
"""
import os
import shutil
import subprocess
import sys
import tempfile

bench, kdir, dev = sys.argv[1], sys.argv[2], sys.argv[3:]
with tempfile.TemporaryDirectory() as d:
    for f in os.listdir(kdir):
        if f.endswith((".cl", ".h")):
            shutil.copy(os.path.join(kdir, f), d)
    path = os.path.join(d, "latency.cl")
    src = open(path).read()
    good = "\t\tidx = buf[idx];\n\t\tsum += idx;"
    if good not in src:
        print("latency.cl no longer has the chase_check loop this test mutates")
        sys.exit(1)
    src = src.replace(good, "\t\tidx = buf[idx];\n\t\tif (j == 0)\n\t\t\tidx = buf[idx];\n\t\tsum += idx;", 1)
    open(path, "w").write(src)
    r = subprocess.run([bench, "latency", "--sizes", "4Ki", "--local", "0", "--reps", "2",
                        "--kernels", d] + dev, capture_output=True, text=True)
    msg = "one lap of 64 loads from node 0 ended at word"
    if r.returncode != 1 or msg not in r.stdout + r.stderr:
        print(f"exit code {r.returncode}, expected 1 with {msg!r}")
        print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
        sys.exit(1)
    print("the device check rejected the skipping chase:")
    print(r.stdout)
