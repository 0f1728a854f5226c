#!/usr/bin/env python3
"""scripts/plant-verdicts.py on comparisons written here: the plant's measured strength beside
its nominal percent, detection among the points it slowed by 4 % or more, and --strict's exit 1
for a planted point called `improved`, a point outside the plant `regressed`, a point left
uncompared for its calibration or a point only one document holds (exit 0 otherwise).

usage: plant_verdicts_test.py
"""
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

SCRIPT = [sys.executable, str(Path(__file__).resolve().parents[2] / "scripts" / "plant-verdicts.py")]
PLANT = {"percent": 5, "families": ["vecadd"],
         "planted": {"vecadd": [{"benchmark": "vecadd", "params": {"variant": [2]}}]}, "touched": {}}


def row(bench, groups, ratio, verdict, notes=""):
    return {"benchmark": bench, "params": {"variant": 2, "groups": groups}, "ratio": ratio,
            "verdict": verdict, "notes": notes}


def verdicts(rows, strict=True):
    with bt.tmpdir() as d:
        c, p = os.path.join(d, "c.json"), os.path.join(d, "plant.json")
        bt.write_doc(c, {"points": rows})
        bt.write_doc(p, PLANT)
        return bt.run(SCRIPT + [c, p] + (["--strict"] if strict else []))


def main():
    planted = [row("vecadd", 1, 1.06, "regressed"), row("vecadd", 2, 1.02, "inconclusive"),
               row("vecadd", 3, 1.05, "regressed")]
    other = [row("atomics", 1, 1.001, "unchanged")]
    r = verdicts(planted + other)
    check(r.code == 0 and "measured +5.0 %" in r.out and "2 of 3 planted points regressed" in r.out
          and "slowed by >= 4 %: 2 of 2" in r.out,
          "a clean plant: exit 0, measured +5.0 % (the median ratio), 2 of 3 regressed, 2 of the "
          "2 slowed by 4 % or more", r)
    r = verdicts([row("vecadd", 1, 0.88, "improved")] + planted[1:] + other)
    check(r.code == 1 and "IMPROVED UNDER THE PLANT" in r.out,
          "a planted point improved: --strict exits 1 naming it", r)
    r = verdicts([row("vecadd", 1, 0.88, "improved")] + planted[1:] + other, strict=False)
    check(r.code == 0, "without --strict the same is a report, exit 0", r)
    r = verdicts(planted + [row("atomics", 1, 1.08, "regressed")])
    check(r.code == 1 and "regressed: 1" in r.out, "a point outside the plant regressed: exit 1", r)
    r = verdicts(planted + other + [{"benchmark": "occupancy", "params": {"wg_size": 64},
                                     "ratio": None, "verdict": "inconclusive",
                                     "notes": "times not compared: params.spin 2 -> 4 "
                                              "(calibrated differently)"}])
    check(r.code == 1 and "left uncompared for their calibration: 1" in r.out,
          "a point left uncompared for its calibration: exit 1", r)
    r = verdicts(planted + other)
    check("left unmatched (only in one document, judged against nothing): 0" in r.out,
          "a clean plant: no point unmatched", r)
    for side in ("new", "missing"):
        r = verdicts(planted + other + [{"benchmark": "occupancy", "params": {"wg_size": 128},
                                         "ratio": None, "verdict": side, "notes": "only in NEW"}])
        check(r.code == 1 and "left unmatched (only in one document, judged against nothing): 1" in r.out
              and f"  {side}: occupancy wg_size=128" in r.out,
              f"a point `{side}` (judged against nothing): exit 1 naming it", r)
    with bt.tmpdir() as d:
        c, p = os.path.join(d, "c.json"), os.path.join(d, "plant.json")
        bt.write_doc(c, {"points": planted + other})
        bt.write_doc(p, PLANT)
        md = bt.run(SCRIPT + [c, p, "--markdown"])
    check(md.code == 0 and "| vecadd | 5 % | +5.0 % (1.020-1.060) | 3 | 2 | 66.7 % | 2 of 2 = 100.0 % | 0 |"
          in md.out, "--markdown: the family's row", md)
    r = bt.run(SCRIPT + ["/nonexistent/c.json"])
    check(r.code == 2 and "nonexistent" in r.err, "an unreadable document: exit 2 naming it", r)
    # JSON of another shape: exit 2 naming the file, never a traceback
    with bt.tmpdir() as d:
        c, p = os.path.join(d, "c.json"), os.path.join(d, "plant.json")
        bt.write_doc(p, PLANT)
        for bad in ([], {"points": 3}, {"points": [1]}):
            bt.write_doc(c, bad)
            r = bt.run(SCRIPT + [c, p, "--strict"])
            check(r.code == 2 and c in r.err and "bench compare --json" in r.err and "Traceback" not in r.err,
                  f"a compare document {bad!r}: exit 2 naming it", r)
        bt.write_doc(c, {"points": planted + other})
        for bad in ([], {"percent": 5}, {"percent": "5", "planted": {}}):
            bt.write_doc(p, bad)
            r = bt.run(SCRIPT + [c, p])
            check(r.code == 2 and p in r.err and "plant.json" in r.err and "Traceback" not in r.err,
                  f"a plant document {bad!r}: exit 2 naming it", r)
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
