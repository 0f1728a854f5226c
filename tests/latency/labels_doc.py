#!/usr/bin/env python3
"""bench latency's plateau labels follow the cache sizes, never the plateaus' order (issue 26).

usage: labels_doc.py BENCH DEVICE_ARGS...

A sweep that starts above the first-level cache (256 KiB on; the CPU's L1 data cache is
far smaller) has no plateau called the first-level cache; the document records the L1
size the labels used and where it came from (the host's, for a CPU device). With --l1 0
(unknown) no plateau is called a cache level: only neutral names or device memory.
"""
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

bench, dev = sys.argv[1], sys.argv[2:]
base = [bench, "latency", "--sizes", "256Ki..64Mi", "--steps", "2", "--loads", "4096", "--tol",
        "20", "--chases", "single", "--local", "0", "--reps", "3", "--warmup", "1", "--seed", "5"]


def run(cmd):
    """The run and its plateaus; once more where a busy machine blurred every plateau."""
    for _ in range(3):
        r, doc = bt.run_with_doc(cmd)
        pl = (doc or {}).get("plateaus", {})
        if r.code or pl.get("levels"):
            break
    return r, pl


# the host's L1 data cache as bench reads it (sysconf _SC_LEVEL1_DCACHE_SIZE; getconf's name)
host_l1 = int(subprocess.run(["getconf", "LEVEL1_DCACHE_SIZE"], capture_output=True, text=True,
                             check=True).stdout.strip() or 0)
if not 0 < host_l1 < 256 * 1024:
    bt.skip(f"the host's L1 data cache reads {host_l1} bytes: not below the sweep's 256 KiB")
last = None
for extra, want_l1 in (([], host_l1), (["--l1", "0"], 0)):
    r, pl = run(base + extra + dev)
    last = r
    bt.check(r.code == 0, f"{extra}: exit code {r.code}", r)
    bt.check(pl.get("l1_bytes") == want_l1, f"{extra}: l1_bytes {pl.get('l1_bytes')!r}, want {want_l1}")
    bt.check(("sysconf" if not extra else "--l1") in str(pl.get("l1_source")),
             f"{extra}: l1_source {pl.get('l1_source')!r}")
    labels = [lv["label"] for lv in pl.get("levels", [])]
    bt.check(bool(labels), f"{extra}: no plateau found")
    bt.check("first-level cache" not in labels, f"{extra}: a sweep from 256 KiB labelled {labels}")
    if extra:
        bt.check(all(re.fullmatch(r"plateau [1-9][0-9]*", x) or x == "device memory" for x in labels),
                 f"--l1 0: labels {labels} name a cache level without its size")
    bt.check("labels from the sizes: first-level cache %d bytes" % want_l1 in r.out,
             f"{extra}: the summary does not state the sizes behind the labels", r)
    print(f"{extra or 'device sizes'}: {labels}")
if bt.errors:
    print(last.output())
sys.exit(bt.verdict())
