#!/usr/bin/env python3
"""The verdict rules of `bench compare` on documents written here: equivalence before
unchanged, the directional clock gate, bands learned from several runs, a point's
attempts (bench suite's confirmation), launches alternating between two levels, and a suite
entry's least band.

usage: verdict_test.py BENCH CASE
Exit 0 when every check passed.
"""
import copy
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402
from synth import BENCH, compare, doc, point, probed, sweep, verdicts  # noqa: E402

CASE = sys.argv[2]


def notes(j, groups):
    return next(p for p in j["points"] if p["params"]["groups"] == groups)["notes"]


def case_equivalence():
    """Unchanged only inside the band; otherwise inconclusive, saying why."""
    base = doc(sweep(4, cv=0.3))
    # 2.5 % slower with a 2 % band: significant, the interval reaches past the edge
    r = compare(base, doc(sweep(4, seed=1, cv=0.3, scale={2: 1.021})))
    v, j = verdicts(r)
    check(v[2] == "inconclusive" and "near the band's edge" in notes(j, 2),
          f"equivalence: a change at the band's edge: {v} {notes(j, 2)!r}", r)
    # very noisy samples (CV 15 %): the interval is wider than the band
    r = compare(doc(sweep(4, cv=15, reps=12)), doc(sweep(4, seed=1, cv=15, reps=12)))
    v, j = verdicts(r)
    wide = [g for g in v if v[g] == "inconclusive" and "too noisy for the band" in notes(j, g)]
    check(wide and "unchanged" not in v.values(),
          f"equivalence: noisy points are not shown unchanged: {v}", r)
    # the same samples both sides, as noisy as a shared CPU: never a change; an interval that
    # holds 1 yet reaches past an edge is the spread (too noisy), never "a change near the edge"
    same = doc(sweep(16, cv=1.7))
    r = compare(same, same)
    v, j = verdicts(r)
    held = [g for g in v if "holds no change" in notes(j, g)]
    check(set(v.values()) <= {"unchanged", "inconclusive"} and held and
          all("too noisy" in notes(j, g) for g in v if v[g] == "inconclusive"),
          f"equivalence: a document against itself: {v} {[notes(j, g) for g in held]}", r)
    # quiet and equal: the interval within the band, unchanged
    r = compare(base, doc(sweep(4, seed=1, cv=0.3)))
    v, _ = verdicts(r)
    check(set(v.values()) == {"unchanged"} and r.code == 0, f"equivalence: quiet and equal: {v}", r)
    # a 10 % slowdown at a 2 % band: regressed, never unchanged
    r = compare(base, doc(sweep(4, seed=1, cv=0.3, scale={3: 1.10})))
    v, _ = verdicts(r)
    check(v[3] == "regressed" and r.code == 1, f"equivalence: 10 % slower: {v}", r)


def case_clock_ways():
    """The clock gate is directional, both ways."""
    steady = [20000.0, 20040.0, 20010.0]
    base = doc(probed(sweep(4), steady))
    faster = [x * 0.8 for x in steady]
    slower = [x * 1.1 for x in steady]
    # the device ran faster, the kernel 10 % slower: the probe excuses nothing
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.10}), faster)))
    v, j = verdicts(r)
    check(v[2] == "regressed" and "moved the other way" in notes(j, 2),
          f"clock ways: faster device, slower kernel: {v} {notes(j, 2)!r}", r)
    # the device ran 10 % slower, the kernel 27 %: 15 % slower in probe units, regressed
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.27}), slower)))
    v, j = verdicts(r)
    check(v[2] == "regressed" and "in probe units" in notes(j, 2),
          f"clock ways: a change beyond the clock's: {v} {notes(j, 2)!r}", r)
    # the device 10 % slower, the kernel 10 % slower: the clock accounts for it
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.10}), slower)))
    v, j = verdicts(r)
    check(v[2] == "inconclusive" and "explains the change" in notes(j, 2),
          f"clock ways: a change the clock explains: {v} {notes(j, 2)!r}", r)
    # the device slower, the kernel 20 % faster: improved stands
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 0.8}), slower)))
    v, j = verdicts(r)
    check(v[2] == "improved" and "moved the other way" in notes(j, 2),
          f"clock ways: slower device, faster kernel: {v}", r)
    # the device 20 % faster, the kernel 20 % faster: the clock's, inconclusive
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 0.8}), faster)))
    v, _ = verdicts(r)
    check(v[2] == "inconclusive", f"clock ways: a faster device and kernel: {v}", r)
    # the probe moved within BASE's point, 10 % slower by its end: BASE's times are the ones
    # the clock could have inflated, so NEW 10 % faster is inconclusive, NEW 10 % slower stands
    # (a slower BASE device explains no slower NEW), unless BASE is a baseline of several runs
    # (its probe the last run's, its times and band every run's: not asked)
    moved = probed(sweep(4), steady, [x * 1.1 for x in steady])
    r = compare(doc(moved), doc(probed(sweep(4, seed=1, scale={2: 0.91}), steady)))
    v, j = verdicts(r)
    check(v[2] == "inconclusive" and "moved within BASE" in notes(j, 2) and
          "could explain the change" in notes(j, 2),
          f"clock ways: faster NEW, the probe moved within BASE's point: {v} {notes(j, 2)!r}", r)
    r = compare(doc(moved), doc(probed(sweep(4, seed=1, scale={2: 1.10}), steady)))
    v, j = verdicts(r)
    check(v[2] == "regressed" and "moved within BASE" in notes(j, 2) and
          "does not explain a slower kernel" in notes(j, 2),
          f"clock ways: slower NEW, the probe moved within BASE's point: {v} {notes(j, 2)!r}", r)
    r = compare(doc(spread(moved, 0.2)), doc(probed(sweep(4, seed=1, scale={2: 1.10}), steady)))
    v, j = verdicts(r)
    check(v[2] == "regressed", f"clock ways: within a baseline's pooled point it is not asked: "
          f"{v} {notes(j, 2)!r}", r)


def spread(points, pct, runs=3):
    """A baseline's points: each with a run-to-run spread of pct % over `runs` runs."""
    for p in points:
        p["run_spread"] = {"runs": runs, "spread_pct": float(pct),
                           "medians": [p["time_ns"]["median"]] * runs}
    return points


def case_learned_band():
    """A baseline of several runs gives each point its own band: max(floor, mult x the
    largest of its run-to-run spread, the noise inside a run, its entry's spread)."""
    new = doc(sweep(4, seed=1, cv=0.2, scale={1: 1.04, 2: 1.04, 3: 1.04}))
    quiet = spread(sweep(4, cv=0.2), 0.4)
    noisy = copy.deepcopy(quiet)
    noisy[1]["run_spread"]["spread_pct"] = 5.0
    r = compare(doc(noisy, noise={"vecadd": 30}), new)
    v, j = verdicts(r)
    pts = {p["params"]["groups"]: p for p in j["points"]}
    check(v[1] == "regressed" and abs(pts[1]["noise_pct"] - 1.2) < 1e-9 and
          pts[1]["band_from"] == "learned",
          f"learned band: a stable point (spread 0.4 %: band max(1, 3 x 0.4) = 1.2 %) catches 4 %: "
          f"{v} {pts[1]}", r)
    check(v[2] == "unchanged" and pts[2]["noise_pct"] == 15.0,
          f"learned band: a noisy point (spread 5 %: band 15 %) keeps 4 % unchanged: {v}", r)
    r = compare(doc(noisy), new, "--noise-floor", "5", "--spread-mult", "2")
    v, j = verdicts(r)
    pts = {p["params"]["groups"]: p for p in j["points"]}
    check(v[1] == "unchanged" and pts[1]["noise_pct"] == 5.0 and pts[2]["noise_pct"] == 10.0,
          f"learned band: --noise-floor 5 --spread-mult 2: {v} {pts[1]['noise_pct']} "
          f"{pts[2]['noise_pct']}", r)
    r = compare(doc(noisy), new, "--noise-for", "vecadd=0.5")
    v, j = verdicts(r)
    check(v[2] == "regressed" and j["points"][1]["band_from"] == "--noise-for",
          f"learned band: --noise-for wins: {v}", r)
    # the same medians three times, but a wide interval inside each run, or an entry whose
    # other points move: the point's band is theirs
    wide = copy.deepcopy(quiet)
    at = {p["params"]["groups"]: p for p in wide}
    at[1]["run_spread"]["within_pct"] = 2.0
    at[3]["run_spread"]["entry_spread_pct"] = 1.5
    r = compare(doc(wide), new)
    v, j = verdicts(r)
    pts = {p["params"]["groups"]: p for p in j["points"]}
    check(v[1] == "unchanged" and pts[1]["noise_pct"] == 6.0 and
          v[3] == "unchanged" and pts[3]["noise_pct"] == 4.5 and v[2] == "regressed",
          f"learned band: within_pct 2 gives 6 %, entry_spread_pct 1.5 gives 4.5 % (4 % unchanged "
          f"in both), spread 0.4 alone 1.2 % (regressed): {v} "
          f"{[pts[g]['noise_pct'] for g in (1, 2, 3)]}", r)
    # a baseline of 5 runs or more: 2 x (a spread of 2.5 %: band 5 %, 4 % unchanged; of 3 runs
    # 7.5 %); --spread-mult given wins; the document says auto
    five = spread(sweep(4, cv=0.2), 2.5, runs=5)
    three = spread(sweep(4, cv=0.2), 2.5, runs=3)
    r = compare(doc(five), new)
    v, j = verdicts(r)
    check(j["points"][0]["noise_pct"] == 5.0 and j["settings"]["spread_mult"] == "auto",
          f"learned band: 5 runs, spread 2.5 %: 2 x = 5 %: {j['points'][0]['noise_pct']} "
          f"{j['settings']['spread_mult']}", r)
    r = compare(doc(three), new)
    v, j = verdicts(r)
    check(j["points"][0]["noise_pct"] == 7.5, f"learned band: 3 runs: 3 x = 7.5 %: "
          f"{j['points'][0]['noise_pct']}", r)
    r = compare(doc(five), new, "--spread-mult", "3")
    v, j = verdicts(r)
    check(j["points"][0]["noise_pct"] == 7.5 and j["settings"]["spread_mult"] == 3.0,
          f"learned band: --spread-mult 3 over 5 runs: 7.5 %: {j['points'][0]['noise_pct']}", r)


def attempt(groups, scale, seed):
    p = point(groups, 100000.0 * scale, cv=0.2, seed=seed)
    p["params"] = dict(point(groups, seed=0)["params"])
    return p


def confirmed(scales):
    """Point 1 of NEW measured len(scales) times: the first, then its attempts."""
    pts = sweep(2, seed=1, cv=0.2)
    first = attempt(1, scales[0], 1)
    first["attempts"] = [attempt(1, s, 10 + k) for k, s in enumerate(scales[1:])]
    pts[0] = first
    for p in pts:
        p["params"] = dict(point(p["params"]["groups"], seed=0)["params"])
    return doc(pts)


def case_attempts():
    """A point measured again takes the verdict most of its attempts give."""
    base = doc([dict(p, params=dict(point(p["params"]["groups"], seed=0)["params"]))
                for p in sweep(2, cv=0.2)])
    cases = [([1.10, 1.0, 1.0], "unchanged", "a transient slowdown, not confirmed"),
             ([1.10, 1.10, 1.0], "regressed", "a slowdown confirmed by 2 of 3"),
             ([1.10, 1.10], "regressed", "a slowdown confirmed"),
             ([1.10, 1.0], "inconclusive", "one of each: no majority")]
    for scales, want, what in cases:
        r = compare(base, confirmed(scales))
        v, j = verdicts(r)
        check(v[1] == want and f"{len(scales)} attempts" in notes(j, 1),
              f"attempts: {what}: {v} {notes(j, 1)!r}", r)
        # the row's figures are the last attempt's (one of those that gave the verdict), never
        # the first's beside the majority's ratio: the table, the document and JUnit agree
        pt = next(p for p in j["points"] if p["params"]["groups"] == 1)
        last_us = 100.0 * scales[-1]
        check(abs(pt["new"]["median_ns"] / 1e3 / last_us - 1) < 0.01 and
              abs(pt["ratio"] - scales[-1]) < 0.01,
              f"attempts: {what}: NEW's median {pt['new']['median_ns']} ns and ratio "
              f"{pt['ratio']} are the last attempt's ({last_us} us)", r)
        line = next((ln for ln in r.out.splitlines() if ln.rstrip().endswith("groups=1")
                     or " groups=1 " in ln), "")
        cells = line.split()
        check(len(cells) > 2 and abs(float(cells[1]) / last_us - 1) < 0.01,
              f"attempts: {what}: the table's new us is the last attempt's: {line!r}", r)
        wide = [ln for ln in r.out.splitlines() if len(ln) > 100]
        check(not wide, f"attempts: lines over 100 characters: {wide[:2]}", r)
    bad = confirmed([1.0, 1.0])
    bad["points"][0]["attempts"][0]["params"]["groups"] = 7
    r = compare(base, bad)
    check(r.code == 2 and "an attempt measures the same point" in r.err,
          f"attempts: an attempt of other params is refused: exit {r.code}", r)


def alternating(groups, scale=1.0, seed=0, reps=40, first_high=False):
    """A point whose launches alternate between two levels, 150 and 165 us (x scale), as
    atomics on shared counters do on an H200: 0.3 % noise on each launch."""
    rnd = random.Random(groups * 77 + seed)
    lv = (165000.0, 150000.0) if first_high else (150000.0, 165000.0)
    x = [round(lv[i % 2] * scale * rnd.gauss(1, 0.003)) * 1.0 for i in range(reps)]
    return point(groups, seed=seed, samples=x)


def pair_median(x):
    return bt.median(sorted((x[i] + x[i + 1]) / 2 for i in range(0, len(x) - 1, 2)))


def case_alternating():
    """Launches that alternate between two levels are judged by the means of consecutive
    pairs on both sides (either side alternating), and bench baseline takes such a point's
    run medians and spread from its pairs; samples in no such order keep their own medians."""
    base = doc([alternating(1), alternating(2), point(3, cv=0.2)])
    new = doc([alternating(1, 1.05, seed=1, first_high=True), alternating(2, 1.0, seed=2),
               point(3, 105000.0, cv=0.2, seed=1)])
    r = compare(base, new)
    v, j = verdicts(r)
    pts = {p["params"]["groups"]: p for p in j["points"]}
    check(v[1] == "regressed" and pts[1]["paired"] and "alternating between two levels" in pts[1]["notes"]
          and abs(pts[1]["ratio"] - 1.05) < 0.005,
          f"alternating: 5 % on both levels, judged by pairs: regressed at x1.05: {v[1]} "
          f"{pts[1]['ratio']} {pts[1]['notes']!r}", r)
    check(v[2] == "unchanged" and pts[2]["paired"],
          f"alternating: the same levels again: unchanged: {v[2]} {pts[2]['notes']!r}", r)
    check(v[3] == "regressed" and not pts[3]["paired"] and "alternate" not in pts[3]["notes"],
          f"alternating: a point in no such order keeps its samples: {v[3]} {pts[3]}", r)
    # the raw samples of one level each side half and half: their median lands between the
    # levels, where no launch ran; the pairs' ratio is the levels' own
    raw = bt.median(sorted(new["points"][0]["time_ns"]["samples"])) / base["points"][0]["time_ns"]["median"]
    want = pair_median(new["points"][0]["time_ns"]["samples"]) / pair_median(base["points"][0]["time_ns"]["samples"])
    check(abs(pts[1]["ratio"] - want) < 1e-9, f"alternating: the ratio is the pairs' medians' "
          f"{want} (the raw medians' {raw}): {pts[1]['ratio']}", r)
    # one side alternating is enough: the other side's pairs are its samples' means two by two
    shuffled = copy.deepcopy(new)
    x = shuffled["points"][0]["time_ns"]["samples"]
    x.sort()
    x[:] = x[::2] + x[1::2]   # every low launch, then every high one: no alternation
    r = compare(base, shuffled)
    v, j = verdicts(r)
    check(j["points"][0]["paired"] and "BASE: they alternate, lag-1" in j["points"][0]["notes"]
          and "NEW: lag-1" in j["points"][0]["notes"],
          f"alternating: BASE alone alternating pairs both sides: {j['points'][0]['notes']!r}", r)
    r = compare(doc([point(1, cv=0.2)]), doc([point(1, cv=0.2, seed=3)]))
    check(not json.loads(r.files["--json"])["points"][0]["paired"],
          "alternating: ordinary samples are not paired", r)
    # bench baseline: each run's median from its pairs where any run alternates
    with bt.tmpdir() as d:
        runs = []
        for k in range(3):
            pts3 = [alternating(1, 1 + 0.002 * k, seed=10 + k, first_high=k == 1),
                    point(3, cv=0.2, seed=10 + k)]
            path = f"{d}/run{k}.json"
            bt.write_doc(path, doc(pts3))
            runs.append((path, pts3))
        out = f"{d}/baseline.json"
        res = bt.run([BENCH, "baseline", *[p for p, _ in runs], "-o", out])
        check(res.code == 0, f"alternating: bench baseline exit {res.code}", res)
        with open(out) as f:
            bl = {p["params"]["groups"]: p for p in json.load(f)["points"]}
        want = [pair_median(pts3[0]["time_ns"]["samples"]) for _, pts3 in runs]
        rs = bl[1]["run_spread"]
        check(rs["paired"] is True and all(abs(a - b) < 1e-6 for a, b in zip(rs["medians"], want)),
              f"alternating: the baseline's medians are each run's pairs' {want}: {rs}", res)
        check(bl[3]["run_spread"]["paired"] is False and
              bl[3]["run_spread"]["medians"] == [p3[1]["time_ns"]["median"] for _, p3 in runs],
              f"alternating: an ordinary point's medians are its runs': {bl[3]['run_spread']}", res)
        check(len(bl[1]["time_ns"]["samples"]) == 120,
              f"alternating: the baseline keeps every launch: {len(bl[1]['time_ns']['samples'])}", res)
        # one run of three alternating: the baseline is paired though its pooled launches, two
        # runs low-then-high, do not alternate; compare says which it was
        for path, pts3 in runs[1:]:
            x = pts3[0]["time_ns"]["samples"]
            x.sort()
            x[:] = x[::2] + x[1::2]
            bt.write_doc(path, doc(pts3))
        res = bt.run([BENCH, "baseline", *[p for p, _ in runs], "-o", out])
        r = compare(bt.load_doc(out), doc([alternating(1, seed=20), point(3, cv=0.2, seed=20)]))
        p1 = json.loads(r.files["--json"])["points"][0]
        check(res.code == 0 and p1["paired"] and "BASE: a run of its baseline's alternated" in p1["notes"]
              and "NEW: they alternate" in p1["notes"],
              f"alternating: a baseline paired by one run's alternation says so: {p1['notes']!r}", r)


def case_band_floor():
    """A suite entry's least band (runs[].band_floor_pct, in BASE or NEW) raises a learned band
    below it, and no other: a 4 % change under a 6.5 % floor is not regressed, 12 % is; a point
    of another entry keeps its learned band; --noise-for still wins."""
    def suite_doc(points, floor_at):
        for p in points:
            p["benchmark"] = "vecadd"
            p["run"] = 1 if p["params"]["groups"] <= 2 else 2
        runs = [{"entry": 1, "bench": "vecadd", "benchmark": "vecadd", "args": [], "about": None,
                 "exit_code": 0, "first_point": 0, "points": 2},
                {"entry": 2, "bench": "vecadd", "benchmark": "vecadd", "args": [], "about": None,
                 "exit_code": 0, "first_point": 2, "points": 2}]
        if floor_at is not None:
            runs[0]["band_floor_pct"] = floor_at
        return doc(points, benchmark=None, suite="t", runs=runs)
    base = suite_doc(spread(sweep(4, cv=0.2), 0.4), 6.5)
    new_pts = sweep(4, seed=1, cv=0.2, scale={1: 1.04, 2: 1.12, 3: 1.04})
    r = compare(base, suite_doc(copy.deepcopy(new_pts), None))
    v, j = verdicts(r)
    pts = {p["params"]["groups"]: p for p in j["points"]}
    check(pts[1]["band_from"] == "band_floor" and pts[1]["noise_pct"] == 6.5 and v[1] != "regressed"
          and "its suite entry gives at least" in pts[1]["notes"],
          f"band_floor: 4 % under BASE's floor of 6.5 %: {v[1]} {pts[1]['band_from']} "
          f"{pts[1]['noise_pct']} {pts[1]['notes']!r}", r)
    check(v[2] == "regressed" and pts[2]["band_from"] == "band_floor",
          f"band_floor: 12 % beyond the floor: {v[2]}", r)
    check(v[3] == "regressed" and pts[3]["band_from"] == "learned" and abs(pts[3]["noise_pct"] - 1.2) < 1e-9,
          f"band_floor: another entry's point keeps its learned 1.2 %: {v[3]} {pts[3]['noise_pct']}", r)
    r = compare(suite_doc(spread(sweep(4, cv=0.2), 0.4), None), suite_doc(copy.deepcopy(new_pts), 6.5))
    v, j = verdicts(r)
    check(j["points"][0]["band_from"] == "band_floor" and v[1] != "regressed",
          f"band_floor: NEW's floor counts too: {v[1]} {j['points'][0]['band_from']}", r)
    r = compare(base, suite_doc(copy.deepcopy(new_pts), None), "--noise-for", "vecadd=1.5")
    v, j = verdicts(r)
    check(v[1] == "regressed" and j["points"][0]["band_from"] == "--noise-for",
          f"band_floor: --noise-for wins: {v[1]} {j['points'][0]['band_from']}", r)
    bad = suite_doc(spread(sweep(4, cv=0.2), 0.4), -3)
    r = compare(bad, suite_doc(copy.deepcopy(new_pts), None))
    check(r.code == 2 and "band_floor_pct" in r.err and "-3" in r.err,
          f"band_floor: a negative floor is refused naming it: exit {r.code} {r.err[-200:]!r}", r)


if __name__ == "__main__":
    sys.exit(bt.run_cases(globals(), CASE))
