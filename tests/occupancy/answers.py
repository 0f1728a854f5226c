#!/usr/bin/env python3
"""Runs `bench occupancy --json` and checks the three answers for residency in its document.

usage: answers.py --driver offered|absent [--dispatch normal|concurrent] -- BENCH occupancy ARGS...

Every point has a `driver` record: offered, with an integer count and its source (offered), or
null with the reason naming cl_intel_concurrent_dispatch (absent). `residency_answers` lists a
disagreement for exactly the pairs of known counts that differ (model-measured, driver-measured,
driver-model), with the two values, and `fails` true only where --check (the model's pair) or
--check-driver (the driver's pairs) was given; each listed disagreement is printed (stdout where
reported, stderr where it fails), and the exit code is 1 exactly where one fails.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

PAIRS = {"model-measured": ("measured", "model"), "driver-measured": ("driver", "measured"),
         "driver-model": ("driver", "model")}


def counts(p):
    """The point's known counts: measured, model, driver (absent where unknown)."""
    out = {}
    if p["status"] == "ok":
        out["measured"] = p["measured"]["resident_wg"]
    m = p.get("model") or {}
    if m.get("known", True) and isinstance(m.get("resident_wg"), int) and m.get("launchable", True):
        out["model"] = m["resident_wg"]
    if isinstance(p["driver"].get("resident_wg"), int):
        out["driver"] = p["driver"]["resident_wg"]
    return out


def check_driver(i, p, want):
    d = p.get("driver")
    if not check(isinstance(d, dict), f"point {i}: no driver record"):
        return
    check(d.get("source", "").startswith("clGetKernelMaxConcurrentWorkGroupCountINTEL"),
          f"point {i}: driver source {d.get('source')!r}")
    if want == "offered":
        check(d.get("offered") is True and isinstance(d.get("resident_wg"), int),
              f"point {i}: the driver's count is missing: {d}")
    else:
        check(d.get("offered") is False and d.get("resident_wg") is None
              and "does not list cl_intel_concurrent_dispatch" in d.get("reason", ""),
              f"point {i}: an absent driver reads {d}")


def expected(doc, flags):
    out = []
    for i, p in enumerate(doc["points"]):
        c = counts(p)
        for pair, (a, b) in PAIRS.items():
            if a in c and b in c and c[a] != c[b]:
                fails = flags["model"] if pair == "model-measured" else flags["driver"]
                out.append((i, pair, c[a], c[b], fails))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True, choices=["offered", "absent"])
    ap.add_argument("--dispatch", default="normal")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = bt.after_dashes(a.cmd)
    r, doc = bt.run_with_doc(cmd)
    if doc is None:
        bt.fail("no document written", r)
    for i, p in enumerate(doc["points"]):
        check_driver(i, p, a.driver)
    ans = doc.get("residency_answers")
    if not check(isinstance(ans, dict), "no residency_answers"):
        return bt.verdict()
    flags = ans["checked"]
    check(flags == {"model": "--check" in cmd, "driver": "--check-driver" in cmd},
          f"checked {flags}")
    check(ans["dispatch"] == a.dispatch, f"dispatch {ans['dispatch']}, expected {a.dispatch}")
    check(ans["driver"]["offered"] == (a.driver == "offered"), f"driver {ans['driver']}")
    got = [(e["point"], e["pair"], e[PAIRS[e["pair"]][0]], e[PAIRS[e["pair"]][1]], e["fails"])
           for e in ans["disagreements"]]
    want = expected(doc, flags)
    check(sorted(got) == sorted(want), f"disagreements {got}, expected {want}")
    for i, pair, x, y, fails in want:
        line = f"{PAIRS[pair][0]} {x}, {PAIRS[pair][1]} {y}"
        check(line in (r.err if fails else r.out), f"'{line}' not printed on "
              f"{'stderr' if fails else 'stdout'}", r)
    must_fail = any(w[4] for w in want) or (flags["model"] and not ans["model_known"]) or \
        (flags["driver"] and not ans["driver"]["offered"])
    check(r.code == (1 if must_fail else 0), f"exit {r.code}, expected {int(must_fail)}", r)
    return bt.verdict(f"{len(doc['points'])} points, {len(want)} disagreements")


if __name__ == "__main__":
    sys.exit(main())
