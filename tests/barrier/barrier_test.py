#!/usr/bin/env python3
"""bench barrier: the guide's 3-D launch, checked in its document.

usage: barrier_test.py CASE BENCH -- DEVICE ARGS
CASE:
  runs     every R of 1..5 launched, validated and timed on a device whose maximum takes 640
           work-items (both CPU platforms: 4096 and 8192): the launch's OpenCL shape (128, R, 1)
           over (128, 64 rounded up to R, 64), every group counted, resident work-groups
           measured, the model's prediction for the device, and the model's TGL table (R = 5
           fails to launch there: 640 above 512)
  lowered  the same on a device whose maximum is lowered to 512 (PoCL's
           POCL_MAX_WORK_GROUP_SIZE): R = 1..4 run, R = 5 is attempted and skipped with the
           driver's refusal and its error (CL_INVALID_WORK_GROUP_SIZE, -54), exit 0
Exit 0 when every check passed.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

CASE, BENCH = sys.argv[1], sys.argv[2]
DEVICE = bt.after_dashes(sys.argv[3:])
QUICK = ["--reps", "3", "--warmup", "1", "--quiet"]
# The guide's table on TGL at SIMD 8 (Impact of Work-item Synchronization Within Work-group),
# as the model writes it: 28.2 % is the guide's typo for 32/112 (tests/test_occ.c).
TGL = {1: ("16/112 = 14%", "100% with 7 work-groups"), 2: ("32/112 = 29%", "86% with 3 work-groups"),
       3: ("48/112 = 43%", "86% with 2 work-groups"), 4: ("64/112 = 57%", "57% with 1 work-group")}


def shape_ok(p):
    """The point's launch: the guide's local range and global range in both orders."""
    a, rr = p["params"], p["params"]["r"]
    rows = (64 + rr - 1) // rr * rr
    check(a["local_sycl"] == [1, rr, 128] and a["local"] == [128, rr, 1], f"R={rr}: local {a}")
    check(a["global_guide_sycl"] == [64, 64, 128] and a["global"] == [128, rows, 64],
          f"R={rr}: global {a['global']}, expected [128, {rows}, 64]")
    check(a["wg_size"] == 128 * rr and a["work_items"] == 128 * rows * 64
          and a["groups"] == a["work_items"] // a["wg_size"], f"R={rr}: counts {a}")


def measured_ok(doc, p):
    rr, m = p["params"]["r"], p.get("measured", {})
    check(p["status"] == "ok" and p["validated"], f"R={rr}: {p['status']}: {p['reason']}")
    check(m.get("resident_wg", 0) >= 1 and m["resident_wg_min"] <= m["resident_wg"] <= p["params"]["groups"]
          and len(m["samples"]) == 3, f"R={rr}: measured {m}")
    check(p["time_ns"]["n"] >= 3 and p["time_ns"]["median"] > 0, f"R={rr}: time {p.get('time_ns')}")
    model = p.get("model", {})
    check(model.get("launchable") and model["kernel"]["wg_size"] == 128 * rr
          and model["kernel"]["barrier"], f"R={rr}: the model's inputs {model.get('kernel')}")
    check("refused" not in p, f"R={rr}: refused on a device that takes it")


def tgl_ok(doc):
    rows = {x["r"]: x for x in doc["model_tgl"]["rows"]}
    check(doc["model_tgl"]["device"] == "TGL-96" and doc["model_tgl"]["simd"] == 8, str(doc["model_tgl"]))
    for rr, (util, occ) in TGL.items():
        check(rows[rr]["utilization"] == util and rows[rr]["occupancy"] == occ, f"TGL R={rr}: {rows[rr]}")
    check(not rows[5]["launchable"] and "512" in rows[5]["why_not"], f"TGL R=5: {rows[5]}")


def case_runs():
    r, doc = bt.run_with_doc([BENCH, "barrier"] + DEVICE + QUICK)
    if r.code != 0 or not doc:
        bt.fail(f"exit {r.code}", r)
    pts = doc["points"]
    check([p["params"]["r"] for p in pts] == [1, 2, 3, 4, 5], f"R of the points: {len(pts)}")
    for p in pts:
        shape_ok(p)
        measured_ok(doc, p)
    spins = {p["params"]["spin"] for p in pts}
    check(len(spins) == 1, f"one spin for every R: {spins}")
    tgl_ok(doc)


def case_lowered():
    r, doc = bt.run_with_doc([BENCH, "barrier"] + DEVICE + QUICK, env={"POCL_MAX_WORK_GROUP_SIZE": "512"})
    if r.code != 0 or not doc:
        bt.fail(f"exit {r.code}: a refused local range is a skip, not a failure", r)
    check(doc["device"]["max_work_group_size"] == 512, f"max {doc['device']['max_work_group_size']}")
    pts = doc["points"]
    for p in pts[:4]:
        shape_ok(p)
        measured_ok(doc, p)
    five = pts[4]
    shape_ok(five)
    check(five["status"] == "skipped" and not five["validated"], f"R=5: {five['status']}")
    check(five.get("refused", {}).get("error") == "CL_INVALID_WORK_GROUP_SIZE"
          and five["refused"]["code"] == -54 and five["refused"]["max_work_group_size"] == 512,
          f"R=5 refused: {five.get('refused')}")
    check("CL_INVALID_WORK_GROUP_SIZE (-54)" in five["reason"] and "640 work-items" in five["reason"],
          f"R=5 reason: {five['reason']}")
    check("time_ns" not in five, "R=5: no time for a launch that never ran")
    tgl_ok(doc)


CASES = {"runs": case_runs, "lowered": case_lowered}
if CASE not in CASES:
    bt.fail(f"unknown case {CASE}")
CASES[CASE]()
sys.exit(bt.verdict(f"bench barrier: {CASE} passed"))
