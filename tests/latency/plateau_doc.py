#!/usr/bin/env python3
"""bench latency's results document: plateaus, clock and guide table records.

usage: plateau_doc.py BENCH DEVICE_ARGS...
"""
import json
import os
import subprocess
import sys
import tempfile

bench, dev = sys.argv[1], sys.argv[2:]
errors = []
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "r.json")
    r = subprocess.run([bench, "latency", "--sizes", "1Ki..1Mi", "--steps", "2", "--loads", "1024",
                        "--chases", "single", "--reps", "3", "--warmup", "1", "--guide-table",
                        "--seed", "7", "--json", path] + dev, capture_output=True, text=True)
    if r.returncode != 0:
        errors.append(f"exit code {r.returncode}")
    doc = json.load(open(path)) if os.path.exists(path) else {}
pl = doc.get("plateaus", {})
for key in ("rule", "curve", "llc_bytes", "llc_source", "levels"):
    if key not in pl:
        errors.append(f"plateaus lacks {key!r}")
if pl.get("rule", {}).get("tolerance") != 0.1:
    errors.append(f"rule {pl.get('rule')!r}")
prev = 0
for lv in pl.get("levels", []):
    if not (prev < lv["first_bytes"] <= lv["last_bytes"]) or lv["points"] < 3:
        errors.append(f"level {lv!r}")
    if lv["label"] not in ("first-level cache", "intermediate cache", "last-level cache",
                           "device memory", "next level (cache size unknown)"):
        errors.append(f"label {lv['label']!r}")
    prev = lv["last_bytes"]
clock = doc.get("setup", {}).get("clock", {})
if clock.get("nominal") is not True or "mhz" not in clock:
    errors.append(f"clock {clock!r}")
ref = doc.get("reference", {})
if [lv["guide_level"] for lv in ref.get("levels", [])] != [
        "Shared local memory", "Xe-core data cache hit", "GPU cache hit", "GPU cache miss"]:
    errors.append(f"reference {ref!r}")
pts = doc.get("points", [])
if len(pts) != 22 or pts[-1]["params"]["memory"] != "local":
    errors.append(f"{len(pts)} points, last {pts[-1]['params'] if pts else None}")
for p in pts:
    m = p.get("metrics", {})
    if (m.get("cycles_per_load") is None) != (clock.get("mhz") is None):
        errors.append(f"cycles {m.get('cycles_per_load')!r} with clock {clock.get('mhz')!r}")
    if p["params"]["seed"] < 7:
        errors.append(f"seed {p['params']['seed']}")
if errors:
    print("\n".join(errors))
    print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
    sys.exit(1)
print(r.stdout)
