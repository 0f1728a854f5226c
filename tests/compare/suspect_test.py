#!/usr/bin/env python3
"""Suspect points (their times not to be believed: the driver's clock and the host's disagreed)
in every command that reads results documents, on documents written here (synth.py).

usage: suspect_test.py BENCH CASE
A point is suspect to a reader where its status is `suspect`, where its `clock` says
agree=false though its status is ok, or where it is timed and its document's `clock_check`
failed. Cases:
  compare     never unchanged, improved or regressed: verdict `suspect`, the note naming the
              side and the reason; counted; exit 1 where NEW's side is suspect, 0 where only
              BASE's is; JUnit failure / skipped; the compare document valid
  attempts    a point measured again: a suspect attempt is never confirmed as a change
  clock_check a document whose session check failed: every timed point suspect
  baseline    suspect points of a run not learned, counted on stderr; suspect in every run:
              suspect in the baseline, and compare against it says so
  export      lnt and otava leave suspect points' values out and say how many
  history     the series leaves them out and says how many (skipped without Apache Otava)
  report      shown as suspect with their reason, never drawn as a figure
  bad         a suspect point without a reason is refused (exit 2), by compare and the report
Exit 0 when every check passed.
"""
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402
from synth import compare, disagreeing, doc, junit, suspect, sweep, verdicts  # noqa: E402

BENCH = sys.argv[1]
CASE = sys.argv[2]
ROOT = Path(__file__).resolve().parents[2]
REASON = "clock: the event says 1 ns where the host waited 412 us"
JUDGED = {"unchanged", "improved", "regressed"}
WHY = "their times are not to be believed"


def row(j, groups):
    return next(p for p in j["points"] if p["params"]["groups"] == groups)


def schema_valid(text, name):
    """Errors of a document against results/schema/NAME (none without python3-jsonschema)."""
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        return []
    with open(ROOT / "results" / "schema" / name) as f:
        v = Draft202012Validator(json.load(f))
    return [f"{list(e.path)}: {e.message}" for e in v.iter_errors(json.loads(text))]


def case_compare():
    """Each side suspect in turn, an ok point whose clock disagrees, a clean pair."""
    base, new = doc(sweep(5)), doc(sweep(5, seed=1, scale={1: 1.3, 2: 0.7, 3: 1.3}))
    suspect(new["points"][0])                 # 30 % slower, but NEW suspect
    disagreeing(new["points"][1])             # 30 % faster, ok, clocks disagree
    suspect(base["points"][2])                # 30 % slower, BASE suspect
    r = compare(base, new)
    v, j = verdicts(r)
    check(v == {1: "suspect", 2: "suspect", 3: "suspect", 4: "unchanged", 5: "unchanged"},
          f"compare: verdicts {v}", r)
    check(r.code == 1 and j["exit_code"] == 1, f"compare: exit {r.code}, expected 1", r)
    check(j["counts"]["suspect"] == 3 and j["counts"]["unchanged"] == 2,
          f"compare: counts {j['counts']}", r)
    n1, n2, n3 = (row(j, g) for g in (1, 2, 3))
    check(n1["notes"] == f"NEW suspect (status suspect), its times not judged: {REASON}"
          and n1["suspect"] == "new" and n1["ratio"] is None, f"compare: NEW suspect: {n1}", r)
    check("NEW suspect (clock.agree false)" in n2["notes"] and "412 us" in n2["notes"]
          and n2["new"]["status"] == "ok" and n2["new"]["suspect"], f"compare: agree false: {n2}")
    check(n3["notes"].startswith("BASE suspect (status suspect), NEW not judged against it")
          and n3["suspect"] == "base", f"compare: BASE suspect: {n3}")
    check(re.search(r"^\s+[\d.]+\s+suspect\s.*\bvecadd groups=2 n=131072$", r.out, re.M),
          "compare: the table shows NEW's disagreeing median as suspect, not a figure", r)
    check(re.search(r"^5 points: 3 suspect, 2 unchanged$", r.out, re.M), "compare: summary line", r)
    root, cases = junit(r)
    fails = [c.get("name") for c in cases if c.find("failure") is not None]
    skips = [c.get("name") for c in cases if c.find("skipped") is not None]
    check(len(fails) == 2 and len(skips) == 1 and root.get("failures") == "2",
          f"compare: JUnit failures {fails}, skipped {skips}")
    check("suspect" in r.files["--markdown"] and "suspect points found" in r.files["--markdown"],
          "compare: the Markdown summary names the suspect points")
    errs = schema_valid(r.files["--json"], "compare.schema.json")
    check(not errs, f"compare: the compare document breaks its schema: {errs[:3]}")
    # BASE's side alone suspect: the run under test is not at fault, exit 0
    base, new = doc(sweep(3)), doc(sweep(3, seed=1))
    suspect(base["points"][1])
    r = compare(base, new)
    v, j = verdicts(r)
    check(v[2] == "suspect" and r.code == 0 and j["exit_code"] == 0,
          f"compare: BASE suspect alone: {v}, exit {r.code}, expected 0", r)
    # a suspect BASE point that NEW skipped: measured once, now not: failed
    new = doc(sweep(3, seed=1))
    new["points"][1].update(status="skipped", reason="not on this device", validated=False)
    del new["points"][1]["time_ns"]
    r = compare(base, new)
    v, j = verdicts(r)
    check(v[2] == "failed" and "status suspect -> skipped" in row(j, 2)["notes"] and r.code == 1,
          f"compare: suspect -> skipped: {v} {row(j, 2)['notes']!r}", r)


def case_attempts():
    """bench suite --confirm's attempts: a suspect one wins over a confirmed change."""
    base = doc(sweep(2, cv=0.2))
    new = doc(sweep(2, seed=1, cv=0.2, scale={1: 1.2}))
    again = [doc(sweep(2, seed=s, cv=0.2, scale={1: 1.2}))["points"][0] for s in (5, 6)]
    for a in again:
        a["params"] = dict(new["points"][0]["params"])
    suspect(again[1])
    new["points"][0]["attempts"] = again          # regressed, regressed, suspect
    r = compare(base, new)
    v, j = verdicts(r)
    check(v[1] == "suspect" and row(j, 1)["attempts"] == ["regressed", "regressed", "suspect"]
          and r.code == 1, f"attempts: {v} {row(j, 1)['attempts']} exit {r.code}", r)
    # the first measurement suspect, both attempts slower: still not a confirmed change
    new = doc(sweep(2, seed=1, cv=0.2, scale={1: 1.2}))
    suspect(new["points"][0])
    new["points"][0]["attempts"] = [dict(a, status="ok", reason=None) for a in again]
    for a in new["points"][0]["attempts"]:
        a.pop("clock", None)
    r = compare(base, new)
    v, j = verdicts(r)
    check(v[1] == "suspect", f"attempts: a suspect first measurement: {v} {row(j, 1)['notes']!r}", r)


def case_clock_check():
    """The session's check failed: every timed point suspect, its reason the check's."""
    new = doc(sweep(3, seed=1), clock_check={"ok": False, "rate": 0.001,
                                             "reason": "the profiling clock ran at 0.001 x"})
    r = compare(doc(sweep(3)), new)
    v, j = verdicts(r)
    check(set(v.values()) == {"suspect"} and r.code == 1, f"clock_check: {v} exit {r.code}", r)
    check("(clock_check failed)" in row(j, 1)["notes"] and "0.001 x" in row(j, 1)["notes"],
          f"clock_check: note {row(j, 1)['notes']!r}")
    new["clock_check"] = {"ok": True, "rate": 1.0, "reason": None}
    r = compare(doc(sweep(3)), new)
    v, _ = verdicts(r)
    check(set(v.values()) == {"unchanged"} and r.code == 0, f"clock_check ok: {v}", r)
    # a suite's document: each entry's run keeps its own clock_check; entry 2's failed
    def suite(seed, bad):
        pts = [dict(p, benchmark="vecadd", run=1 + (i >= 2)) for i, p in enumerate(sweep(4, seed=seed))]
        runs = [{"entry": e + 1, "bench": "vecadd", "benchmark": "vecadd", "first_point": 2 * e,
                 "points": 2, "clock_check": {"ok": not (bad and e == 1), "rate": 0.5 if bad else 1.0,
                                              "reason": "the profiling clock ran at 0.5 x"}}
                for e in range(2)]
        return doc(pts, benchmark=None, suite="tiny", runs=runs)
    r = compare(suite(0, False), suite(1, True))
    v, j = verdicts(r)
    check(v == {1: "unchanged", 2: "unchanged", 3: "suspect", 4: "suspect"} and r.code == 1
          and "0.5 x" in row(j, 3)["notes"], f"clock_check of a suite's entry: {v}", r)


def runs_with_suspects():
    """3 runs of 5 points: 1 suspect in run 2, 2 in run 3 (the last), 3 suspect in every run,
    4 ok with its clocks disagreeing in every run, 5 clean."""
    runs = [doc(sweep(5, seed=k), timestamp=f"2026-11-2{k + 1}T10:00:00Z") for k in range(3)]
    suspect(runs[1]["points"][0])
    suspect(runs[2]["points"][1])
    for r in runs:
        suspect(r["points"][2])
        disagreeing(r["points"][3])
    return runs


def case_baseline():
    with bt.tmpdir() as d:
        paths = [bt.write_doc(os.path.join(d, f"run{k + 1}.json"), r)
                 for k, r in enumerate(runs_with_suspects())]
        out = os.path.join(d, "base.json")
        r = bt.run([BENCH, "baseline"] + paths + ["-o", out])
        check(r.code == 0, f"baseline: exit {r.code}", r)
        check(f"2 suspect points of the runs left out ({WHY}" in r.err and
              "2 points suspect in every run, suspect in the baseline" in r.err,
              "baseline: stderr counts what it left out and why", r)
        b = bt.load_doc(out)
        pts = {p["params"]["groups"]: p for p in b["points"]}
        check(b["baseline"]["suspect"] == {"left_out": 2, "points": 2},
              f"baseline: baseline.suspect {b['baseline'].get('suspect')}")
        check(pts[1]["status"] == "ok" and pts[1]["run_spread"]["runs"] == 2
              and pts[1]["run_spread"]["suspect"] == [2], f"baseline: point 1 {pts[1].get('run_spread')}")
        check(pts[2]["status"] == "ok" and pts[2]["run_spread"]["suspect"] == [3]
              and pts[2]["time_ns"]["n"] == 24, "baseline: the last run's suspect point replaced "
              f"by the runs that measured it: {pts[2]['status']} {pts[2].get('run_spread')}")
        check(pts[3]["status"] == "suspect" and pts[3]["reason"] == REASON,
              f"baseline: suspect in every run: {pts[3]['status']} {pts[3]['reason']}")
        check(pts[4]["status"] == "suspect" and pts[4]["reason"].startswith(
              "clock.agree false in every run: "), f"baseline: disagreeing in every run: {pts[4]}")
        check(pts[5]["status"] == "ok" and pts[5]["run_spread"]["runs"] == 3
              and "suspect" not in pts[5]["run_spread"], "baseline: a clean point pooled whole")
        errs = schema_valid(json.dumps(b), "input.schema.json")
        check(not errs, f"baseline: breaks input.schema.json: {errs[:3]}")
        # a run against it: the points suspect in the baseline are not judged, exit 0
        new = bt.write_doc(os.path.join(d, "new.json"), doc(sweep(5, seed=9)))
        r = bt.run([BENCH, "compare", out, new, "--json", os.path.join(d, "c.json")])
        j = bt.load_doc(os.path.join(d, "c.json"))
        v = {p["params"]["groups"]: p["verdict"] for p in j["points"]}
        check(v[3] == v[4] == "suspect" and not ({v[1], v[2], v[5]} - JUDGED - {"inconclusive"})
              and r.code == 0, f"baseline: a run against it: {v} exit {r.code}", r)


def case_export():
    with bt.tmpdir() as d:
        paths = [bt.write_doc(os.path.join(d, f"run{k + 1}.json"), r)
                 for k, r in enumerate(runs_with_suspects())]
        out = os.path.join(d, "lnt.json")
        r = bt.run([BENCH, "export", "lnt", paths[2], "--order", "7", "-o", out])
        check(r.code == 0, f"export lnt: exit {r.code}", r)
        names = [t["name"] for t in bt.load_doc(out)["tests"]] if r.code == 0 else []
        check(len(names) == 2 and all(re.search(r"/groups=[15]/", n) for n in names),
              f"export lnt: only the 2 believable points exported: {names}", r)
        check(f"3 suspect points of 1 document left out of the 2 exported ({WHY}" in r.err,
              "export lnt: stderr says how many and why", r)
        allbad = doc(sweep(2))
        for p in allbad["points"]:
            suspect(p)
        bad = bt.write_doc(os.path.join(d, "allbad.json"), allbad)
        r = bt.run([BENCH, "export", "lnt", bad, "--order", "7", "-o", os.path.join(d, "x.json")])
        check(r.code == 2 and "suspect (2)" in r.err and not os.path.exists(os.path.join(d, "x.json")),
              f"export lnt: every point suspect: exit {r.code}, expected 2", r)
        csv = os.path.join(d, "o.csv")
        r = bt.run([BENCH, "export", "otava"] + paths + ["-o", csv])
        check(r.code == 0, f"export otava: exit {r.code}", r)
        head = open(csv).readline().strip().split(",") if r.code == 0 else []
        check(len(head) == 3 and "/groups=5/" in head[2],
              f"export otava: only the point believable in every run is a column: {head}", r)
        check(f"8 suspect points of 3 documents left out of the 1 exported ({WHY}" in r.err,
              "export otava: stderr says how many and why", r)


def case_history():
    otava = os.environ.get("BENCH_OTAVA") or str(ROOT / ".deps" / "otava" / "bin" / "otava")
    if not os.access(otava, os.X_OK):
        bt.skip(f"Apache Otava is not installed ({otava}): scripts/setup.sh installs it")
    with bt.tmpdir() as d:
        runs = runs_with_suspects() + [doc(sweep(5, seed=7), timestamp="2026-11-24T10:00:00Z")]
        for k, r in enumerate(runs):
            bt.write_doc(os.path.join(d, f"run{k + 1}.json"), r)
        out = os.path.join(d, "h.json")
        r = bt.run([BENCH, "history", d, "--json", out], env={"BENCH_OTAVA": otava})
        check(r.code == 0, f"history: exit {r.code}", r)
        check(f"8 suspect points of the runs left out ({WHY}" in r.out,
              "history: the table says how many suspect points it left out and why", r)
        s = bt.load_doc(out)["series"][0] if r.code == 0 else {}
        check(s.get("points_suspect") == 8 and len(s.get("points", [])) == 1
              and "/groups=5/" in s["points"][0], f"history: series {s.get('points')} "
              f"points_suspect {s.get('points_suspect')}", r)


def case_report():
    pts = []
    for g in range(1, 5):
        p = sweep(4)[g - 1]
        p["time_ns"].update(p5=p["time_ns"]["min"], p95=p["time_ns"]["median"] * 1.01)
        p["metrics"] = {"gbps": 10.0 * g, "copy_gbps": 50.0}
        pts.append(p)
    suspect(pts[1])
    disagreeing(pts[2])
    with bt.tmpdir() as d:
        path = bt.write_doc(os.path.join(d, "v.json"), doc(pts))
        out = os.path.join(d, "r.html")
        r = bt.run([BENCH, "report", path, "-o", out])
        check(r.code == 0, f"report: exit {r.code}", r)
        page = open(out, encoding="utf-8").read() if r.code == 0 else ""
        check("2 ok, 2 suspect" in page, "report: the section counts 2 ok, 2 suspect", r)
        check("suspect: 2 (no value)" in page, "report: the chart marks 2 suspect points, no value")
        check("pt-bad-suspect" in page and "pt-ok-time" in page,
              "report: suspect points marked apart from the ok points drawn")
        check(f"(groups=2): {REASON}" in page and "(groups=3): clock.agree false: " in page,
              "report: the notes give each suspect point's reason")


def case_bad():
    new = doc(sweep(2, seed=1))
    suspect(new["points"][1])
    new["points"][1]["reason"] = None
    r = compare(doc(sweep(2)), new, outputs=False)
    check(r.code == 2 and "new.json: points[1].reason: is null, expected a string: a suspect "
          "point says why" in r.err, f"bad: compare: exit {r.code}", r)
    with bt.tmpdir() as d:
        path = bt.write_doc(os.path.join(d, "new.json"), new)
        r = bt.run([BENCH, "report", path, "-o", os.path.join(d, "r.html")])
        check(r.code == 2 and "points[1].reason" in r.err, f"bad: report: exit {r.code}", r)


if __name__ == "__main__":
    sys.exit(bt.run_cases(globals(), CASE))
