#!/usr/bin/env python3
"""The exact counter check of bench atomics must catch one lost fetch-add.

usage: broken_atomics.py BENCH KERNELS_DIR DEVICE_ARGS...
Copies the kernels, makes work-item 5 of atomics_global do one add fewer,
runs bench atomics with --kernels on the copy and expects exit 1 with the
comparison's message (CPU devices: 64-byte lines, so 16 words per counter).
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
    path = os.path.join(d, "atomics.cl")
    src = open(path).read()
    good = "\tfor (uint j = 0; j < ops; j++)\n\t\tGLOBAL_ADD(p, v);"
    if good not in src:
        print("atomics.cl no longer has the loop this test mutates")
        sys.exit(1)
    src = src.replace(good, "\tfor (uint j = i == 5; j < ops; j++)\n\t\tGLOBAL_ADD(p, v);", 1)
    open(path, "w").write(src)
    r = subprocess.run([bench, "atomics", "--patterns", "own,single", "--orders", "relaxed",
                        "--ops", "16", "--reps", "2", "--kernels", d] + dev,
                       capture_output=True, text=True)
    msgs = ["own relaxed: 1 of 16384 words differ; first at 80: expected",
            "single relaxed: 1 of 16 words differ; first at 0: expected"]
    out = r.stdout + r.stderr
    if r.returncode != 1 or not all(m in out for m in msgs):
        print(f"exit code {r.returncode}, expected 1 with {msgs!r}")
        print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
        sys.exit(1)
    print("the counter check caught the lost add:")
    print(r.stdout)
