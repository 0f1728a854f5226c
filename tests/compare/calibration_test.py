#!/usr/bin/env python3
"""Calibrated points compared across runs: bench suite --calibration and --baseline time
occupancy's probe with the reference's spin and launch (reuse-pocl); bench baseline pools only
the runs that calibrated a point alike, and marks a point whose level moves between processes,
which bench compare's note then names (levels).

usage: calibration_test.py BENCH CASE [-- DEVICE ARGS]
Exit 0 when every check passed, 77 where the device is missing.
"""
import copy
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402
from synth import compare, doc, point, verdicts  # noqa: E402

BENCH = sys.argv[1]
CASE = sys.argv[2]
DEV = bt.after_dashes(sys.argv[3:])
SUITE = {"name": "calib", "description": "occupancy's residency check, small",
         "entries": [{"bench": "occupancy", "args": ["--check", "--wg", "64,128", "--reps", "3"],
                      "about": "two work-group sizes, with and without barriers"}]}


def suite_doc(folder):
    docs = [f for f in os.listdir(folder) if "--" in f and f.endswith(".json")]
    check(len(docs) == 1, f"one suite document in {folder}: {docs}")
    return os.path.join(folder, docs[0])


def probe_points(d):
    return [p for p in d["points"] if p["benchmark"] == "occupancy" and p["status"] == "ok"]


def case_reuse():
    with bt.tmpdir() as t:
        sfile = os.path.join(t, "calib.json")
        bt.write_doc(sfile, SUITE)
        r = bt.must_run([BENCH, "suite", sfile, "--quiet", "-o", os.path.join(t, "a")] + DEV,
                        what="the first run")
        a_path = suite_doc(os.path.join(t, "a"))
        a = bt.load_doc(a_path)
        own = probe_points(a)
        check(len(own) == 4 and all(p.get("calibration") == "own" for p in own),
              f"the first run calibrates its 4 points itself: "
              f"{[(p['params']['spin'], p.get('calibration')) for p in own]}", r)
        # the reference: the first run's document with every spin doubled (longer launches, so
        # a loaded host cannot make one too short to reuse), and 2 groups more; and the outcomes
        # of another build of the probe (NVIDIA's registers, the kernel's local memory), which
        # make it no other point
        ref_doc = bt.load_doc(a_path)
        for p in probe_points(ref_doc):
            p["params"]["spin"] *= 2
            p["params"]["groups"] += 2
            p["params"]["nv_registers"] = 40
            if isinstance(p["params"].get("local_mem_kernel"), int):
                p["params"]["local_mem_kernel"] += 16
        want = [(p["params"]["spin"], p["params"]["groups"]) for p in probe_points(ref_doc)]
        ref_path = os.path.join(t, "ref.json")
        bt.write_doc(ref_path, ref_doc)
        b_paths = []
        for run in ("b", "b2"):
            r = bt.must_run([BENCH, "suite", sfile, "--quiet", "-o", os.path.join(t, run),
                             "--calibration", ref_path] + DEV, what="a run with --calibration")
            b_paths.append(suite_doc(os.path.join(t, run)))
            got = probe_points(bt.load_doc(b_paths[-1]))
            check(len(got) == 4 and all(p.get("calibration") == "reference" for p in got) and
                  [(p["params"]["spin"], p["params"]["groups"]) for p in got] == want,
                  f"--calibration: every point timed with the reference's spin and groups: "
                  f"{[(p['params']['spin'], p['params']['groups'], p.get('calibration')) for p in got]}"
                  f" against {want}", r)
        b_path = b_paths[0]
        # a third run calibrated otherwise at one point: the baseline leaves it out there
        c = bt.load_doc(b_path)
        c["points"][0]["params"]["spin"] *= 2
        c_path = os.path.join(t, "c.json")
        bt.write_doc(c_path, c)
        base = os.path.join(t, "base.json")
        r = bt.must_run([BENCH, "baseline", b_paths[1], c_path, b_path, "-o", base], what="baseline")
        pts = bt.load_doc(base)["points"]
        left = pts[0]["run_spread"].get("calibrated_differently")
        check(left and left[0]["run"] == 2 and "calibrated differently" in left[0]["why"] and
              pts[0]["run_spread"]["runs"] == 2 and
              all("calibrated_differently" not in p["run_spread"] for p in pts[1:]),
              f"baseline: the run calibrated otherwise is left out of that point only: "
              f"{[p['run_spread'] for p in pts]}", r)
        # judged against the baseline, a run reuses the baseline's calibration: every point
        # compared (no note of a calibration that differs)
        r = bt.run([BENCH, "suite", sfile, "--quiet", "-o", os.path.join(t, "d"), "--baseline",
                    base, "--confirm", "0"] + DEV)
        check(r.code in (0, 1), f"a run judged against the baseline: exit {r.code}", r)
        d = bt.load_doc(suite_doc(os.path.join(t, "d")))
        check(all(p.get("calibration") == "reference" for p in probe_points(d)),
              "--baseline: the points timed with the baseline's calibration", r)
        check("calibrated differently" not in r.out + r.err,
              "no point left uncompared for its calibration", r)
        # a reference of another suite, or none at all: exit 2 before any work
        other = copy.deepcopy(bt.load_doc(a_path))
        other["suite"] = "other"
        o_path = os.path.join(t, "other.json")
        bt.write_doc(o_path, other)
        for bad, want in ((o_path, "not of the suite 'calib'"),
                          (os.path.join(t, "nosuch.json"), "nosuch.json")):
            r = bt.run([BENCH, "suite", sfile, "--quiet", "--calibration", bad] + DEV)
            check(r.code == 2 and want in r.err, f"--calibration {bad}: exit 2 naming it", r)


def runs(medians, reps=20, cv=0.2):
    """Three runs of a five-point document, point 1's medians as given, the others' all 100 us
    (the entry's spread, the median of its points', stays that of the steady ones)."""
    return [doc([point(1, m, reps=reps, cv=cv, seed=i)] +
                [point(g, 100000.0, reps=reps, cv=cv, seed=i) for g in range(2, 6)])
            for i, m in enumerate(medians)]


def new_run(m1, m2):
    return doc([point(1, m1, reps=20, cv=0.2, seed=7)] +
               [point(g, m2, reps=20, cv=0.2, seed=7) for g in range(2, 6)])


def case_levels():
    with bt.tmpdir() as t:
        paths = []
        for i, d in enumerate(runs([100000.0, 100000.0, 106000.0])):
            paths.append(os.path.join(t, f"run{i}.json"))
            bt.write_doc(paths[-1], d)
        base = os.path.join(t, "base.json")
        r = bt.must_run([BENCH, "baseline"] + paths + ["-o", base], what="baseline")
        b = bt.load_doc(base)
        rs = [p["run_spread"] for p in b["points"]]
        check(rs[0]["between_runs"] is True and not any(x["between_runs"] for x in rs[1:]),
              f"a point at two levels (its runs 6 % apart, 0.2 % noise in a run) moves between "
              f"processes; a steady one does not: {rs}", r)
        # a NEW at the second level: inside the band of the runs' spread, the note says why
        r = compare(b, new_run(106000.0, 106000.0))
        v, j = verdicts(r)
        check(v[1] != "regressed" and v[2] == "regressed",
              f"the moving point's other level is no regression, the steady point's 6 % is: {v}", r)
        notes = {p["params"]["groups"]: p.get("notes", "") for p in j["points"]}
        check("moves between processes" not in notes[2],
              f"no such note on the steady point: {notes}", r)
        r = compare(b, new_run(130000.0, 100000.0))
        v, j = verdicts(r)
        notes = {p["params"]["groups"]: p.get("notes", "") for p in j["points"]}
        check(v[1] == "regressed" and "moves between processes" in notes[1],
              f"a change past the moving point's band: regressed, the note naming its levels: "
              f"{v} {notes}", r)


if __name__ == "__main__":
    sys.exit(bt.run_cases(globals(), CASE))
