#!/usr/bin/env python3
"""bench latency's results document: plateaus, clock and guide table records.

usage: plateau_doc.py BENCH DEVICE_ARGS...
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

bench, dev = sys.argv[1], sys.argv[2:]
r, doc = bt.run_with_doc([bench, "latency", "--sizes", "1Ki..1Mi", "--steps", "2", "--loads", "1024",
                          "--chases", "single", "--reps", "3", "--warmup", "1", "--guide-table",
                          "--seed", "7"] + dev)
doc = doc or {}
bt.check(r.code == 0, f"exit code {r.code}")
pl = doc.get("plateaus", {})
for key in ("rule", "curve", "llc_bytes", "llc_source", "l1_bytes", "l1_source", "labels", "levels"):
    bt.check(key in pl, f"plateaus lacks {key!r}")
bt.check(pl.get("rule", {}).get("tolerance") == 0.1, f"rule {pl.get('rule')!r}")
prev = 0
for lv in pl.get("levels", []):
    bt.check(prev < lv["first_bytes"] <= lv["last_bytes"] and lv["points"] >= 3, f"level {lv!r}")
    bt.check(lv["label"] in ("first-level cache", "intermediate cache", "last-level cache",
                             "last-level cache (slower part)", "device memory") or re.fullmatch(r"plateau [1-9][0-9]*", lv["label"]),
             f"label {lv['label']!r}")
    # the labels follow the sizes, never the plateau's place (issue 26)
    l1, llc = pl.get("l1_bytes", 0), pl.get("llc_bytes", 0)
    if lv["label"] == "first-level cache":
        bt.check(l1 and lv["last_bytes"] <= l1, f"{lv!r} labelled L1 beyond l1_bytes {l1}")
    if lv["label"].startswith("last-level cache") or lv["label"] == "intermediate cache":
        bt.check(l1 and llc and l1 < lv["first_bytes"] and lv["last_bytes"] <= llc,
                 f"{lv!r} labelled a cache outside {l1}..{llc}")
    if lv["label"] == "device memory":
        bt.check(llc and lv["first_bytes"] > llc, f"{lv!r} labelled memory within llc {llc}")
    prev = lv["last_bytes"]
clock = doc.get("setup", {}).get("clock", {})
bt.check(clock.get("nominal") is True and "mhz" in clock, f"clock {clock!r}")
ref = doc.get("reference", {})
bt.check([lv["guide_level"] for lv in ref.get("levels", [])] == [
    "Shared local memory", "Xe-core data cache hit", "GPU cache hit", "GPU cache miss"],
    f"reference {ref!r}")
pts = doc.get("points", [])
bt.check(len(pts) == 22 and pts[-1]["params"]["memory"] == "local",
         f"{len(pts)} points, last {pts[-1]['params'] if pts else None}")
for p in pts:
    m = p.get("metrics", {})
    bt.check((m.get("cycles_per_load") is None) == (clock.get("mhz") is None),
             f"cycles {m.get('cycles_per_load')!r} with clock {clock.get('mhz')!r}")
    bt.check(not p["params"]["seed"] < 7, f"seed {p['params']['seed']}")
if bt.errors:
    print(r.output())
sys.exit(bt.verdict(r.out))
