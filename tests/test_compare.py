#!/usr/bin/env python3
"""Unit tests of scripts/compare.py on written-out documents."""
import json
import os
import subprocess
import sys
import tempfile

COMPARE = sys.argv[1]


def doc(points, bench="vecadd"):
    return {"schema_version": 1, "benchmark": bench, "device": {"name": "D", "driver_version": "1"},
            "points": points}


def point(groups, median, p5, p95, status="ok", seed=1, resident=None):
    p = {"params": {"groups": groups, "seed": seed}, "status": status, "reason": None}
    if status == "ok":
        p["time_ns"] = {"median": median, "p5": p5, "p95": p95}
    if resident is not None:
        p["measured"] = {"resident_wg": resident}
    return p


def run(old, new, *extra):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, content in (("old.json", old), ("new.json", new)):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(content if isinstance(content, str) else json.dumps(content))
            paths.append(path)
        r = subprocess.run([sys.executable, COMPARE, *extra, *paths], capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr


failures = 0


def check(name, got, code, text):
    global failures
    if got[0] != code or text not in got[1]:
        print(f"{name}: exit {got[0]} (want {code}), output:\n{got[1]}\n(want '{text}')")
        failures += 1


base = doc([point(1, 1000, 950, 1050), point(2, 2000, 1900, 2100)])
# same timings, other seeds: matched, nothing regressed
check("same", run(base, doc([point(1, 1010, 960, 1060, seed=7), point(2, 1990, 1900, 2100, seed=8)])),
      0, "2 points compared, 0 regressed")
# 30% slower with separated ranges: regression
check("slower", run(base, doc([point(1, 1300, 1250, 1350), point(2, 2000, 1900, 2100)])),
      1, "REGRESSION")
# 30% slower but the new run's spread reaches the old range: noise
check("noisy", run(base, doc([point(1, 1300, 1000, 1600), point(2, 2000, 1900, 2100)])),
      0, "0 regressed")
# a threshold above the change: fine
check("threshold", run(base, doc([point(1, 1300, 1250, 1350), point(2, 2000, 1900, 2100)]),
                       "--threshold", "50"), 0, "0 regressed")
# ok -> failed is a regression
check("status", run(base, doc([point(1, 0, 0, 0, status="failed"), point(2, 2000, 1900, 2100)])),
      1, "status ok -> failed")
# residency changed
check("resident", run(doc([point(1, 1000, 950, 1050, resident=4224)]),
                      doc([point(1, 1000, 950, 1050, resident=4000)])), 1, "resident 4224 -> 4000 CHANGED")
# missing and new points are reported
check("missing", run(base, doc([point(3, 1000, 950, 1050)])), 0, "missing point: groups=1")
# bad input
check("not-json", run("{", base), 2, "cannot read results")
check("other-bench", run(base, doc([], bench="occupancy")), 2, "benchmarks differ")
check("bad-threshold", run(base, base, "--threshold", "0"), 2, "--threshold 0.0 is out of range")
sys.exit(1 if failures else 0)
