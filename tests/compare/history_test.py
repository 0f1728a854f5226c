#!/usr/bin/env python3
"""bench history and bench export otava on a history built from real CPU runs.

usage: history_test.py BENCH CASE -- DEVICE ARGS
  step      real runs of a small suite on the device until four agree within 15 % on every point
            (six at least, 30 at most), dealt at random (seeded) into 20 documents an hour apart;
            from run 13 on, one benchmark's points take 50 % longer
            (every sample). bench history (--magnitude 10) must report a change at run 13
            for those points and for no other point, and exit 1; the same 20 documents
            without the step: no change point at all, exit 0. bench export otava writes the CSV and the
            configuration that Otava itself reads (otava analyze), with the same result.
            A run cut short in the same history is refused, and read with --allow-partial.
  suite-dirs  three `bench suite -o` folders of a suite of two vecadd entries: the history over
            them is one series of 3 runs (the entry documents beside the suite's left out, said
            on stderr), never 6 runs nor the two entries merged; the entry documents alone are
            two series, one per entry, of 3 runs each
  usage     bad input: no operand, a folder without documents, a bad --p-value, --json over
            an input, a document given twice or cut short, a folder's *.json that does not
            read; export otava with --order, --config over -o or an input (exit 2, nothing
            written), a document cut short (read with --allow-partial, named)
  otava-fails  Otava failing (exit 1, exit 0 without a report): exit 3 naming Otava and its
            status, never 1; SIGINT while it runs; no bench-history-* folder left in TMPDIR
            after any (no Otava needed: scripts play it)
Skipped (77) where Apache Otava is not installed (scripts/setup.sh puts it in .deps/otava).
"""
import copy
import itertools
import json
import os
import random
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH, CASE = sys.argv[1], sys.argv[2]
DEVICE = bt.after_dashes(sys.argv[3:])
ROOT = Path(__file__).resolve().parents[2]
OTAVA = os.environ.get("BENCH_OTAVA") or str(ROOT / ".deps" / "otava" / "bin" / "otava")
SUITE = {"name": "history-test", "description": "a few points for the history test",
         "args": ["--reps", "9", "--warmup", "1"],
         "entries": [{"bench": "vecadd", "args": ["--groups", "4,8", "--slice", "16Ki"]},
                     {"bench": "atomics", "args": ["--patterns", "own", "--orders", "relaxed",
                                                   "--ops", "256"]}]}
RUNS, STEP_AT, STEP = 20, 12, 1.5
# Otava's smallest change reported: a loaded 2-core runner moves a real run's medians by a few
# percent now and then, a step of 50 % is far above it
MAGNITUDE = ["--magnitude", "10"]


def need_otava():
    if not (os.path.isfile(OTAVA) and os.access(OTAVA, os.X_OK)):
        bt.skip(f"no Apache Otava at {OTAVA} (scripts/setup.sh installs it)")


def medians(doc):
    return [p["time_ns"]["median"] for p in doc["points"] if "time_ns" in p]


def spread(meds):
    """The largest max/min - 1 of one point's medians over documents (their medians())."""
    return max(max(col) / min(col) - 1 for col in zip(*meds))


def real_runs(d, keep, tol=0.15, most=30):
    """`keep` real runs whose medians lie within `tol` of each other on every point (max/min):
    runs are made (at least keep + 2, at most `most`) until some `keep` of them agree. Runs
    that a neighbour's load moved are left out, as a CI job would run them again: on a busy
    2-core runner a 0.2-0.8 ms point's median moves 15-40 % from one run to the next, some
    runs faster, some slower, and a history dealt from runs whose medians span 0.6-1.4 hides a
    50 % step from Otava's t-test (0.85-1.15 and 0.75-1.25 do not)."""
    sf = os.path.join(d, "history-test.json")
    bt.write_doc(sf, SUITE)
    docs, meds, best, far = [], [], None, float("inf")
    while len(docs) < most:
        p = os.path.join(d, f"real{len(docs)}.json")
        bt.must_run([BENCH, "suite", sf, "--quiet", "--json", p] + DEVICE)
        docs.append(bt.load_doc(p))
        meds.append(medians(docs[-1]))
        # the `keep` runs of least spread so far: the best before, or one with the new run
        new = len(docs) - 1
        for ix in itertools.combinations(range(new), keep - 1):
            f = spread([meds[i] for i in ix + (new,)])
            if f < far:
                best, far = ix + (new,), f
        if len(docs) >= keep + 2 and far <= tol:
            print(f"{len(docs)} real runs, {keep} within {far:.1%} of each other")
            return [docs[i] for i in best]
    bt.fail(f"{most} real runs, no {keep} within {tol:.0%} of each other on every point (the "
            f"closest {keep}: {far:.0%}): the machine is too busy for a history of "
            "real runs")


def scale(point, f):
    t = point["time_ns"]
    t["samples"] = [x * f for x in t["samples"]]
    for k in ("min", "max", "median", "mean", "p5", "p95", "stddev"):
        if isinstance(t.get(k), (int, float)):
            t[k] *= f


def history(d, real, stepped):
    """RUNS documents dealt from the real runs (seed 7), an hour apart; the step in vecadd."""
    rng = random.Random(7)
    folder = os.path.join(d, "stepped" if stepped else "flat")
    os.makedirs(folder)
    for i in range(RUNS):
        doc = copy.deepcopy(rng.choice(real))
        doc["timestamp"] = f"2026-01-0{1 + i // 24}T{i % 24:02d}:00:00Z"
        doc.pop("end_timestamp", None)
        if stepped and i >= STEP_AT:
            for p in doc["points"]:
                if p.get("benchmark") == "vecadd" and "time_ns" in p:
                    scale(p, STEP)
        bt.write_doc(os.path.join(folder, f"run{i + 1:02d}.json"), doc)
    return folder


def changes(j):
    """{point name: [run, ...]} of a bench history document's one series."""
    out = {}
    for cp in j["series"][0]["change_points"]:
        for c in cp["changes"]:
            out.setdefault(c["metric"], []).append(cp["run"])
    return out


def partial_history(d, flat, env):
    """The unstepped history with run 5 cut short (its last point lost): refused, then read
    with --allow-partial, the run named in the table and the document."""
    folder = os.path.join(d, "partial")
    shutil.copytree(flat, folder)
    five = os.path.join(folder, "run05.json")
    doc = bt.load_doc(five)
    doc["points"] = doc["points"][:-1]
    left = len(doc["points"])
    for key in ("runs", "device_runs"):   # a run's points within those kept, as a cut run has them
        if key in doc:
            doc[key] = [dict(r, points=min(r["points"], left - r["first_point"]))
                        for r in doc[key] if r["first_point"] < left]
    doc["interrupted"] = {"by": "SIGTERM", "points_done": left, "points_planned": left + 1}
    bt.write_doc(five, doc)
    r = bt.run([BENCH, "history", folder] + MAGNITUDE, env=env)
    check(r.code == 2 and "run05.json: interrupted" in r.err and "--allow-partial" in r.err,
          f"partial: refused without --allow-partial: exit {r.code}", r)
    out = os.path.join(d, "partial-history.json")
    r = bt.run([BENCH, "history", folder, "--allow-partial", "--json", out] + MAGNITUDE, env=env)
    j = bt.load_doc(out) if os.path.exists(out) else {"series": [{"runs": []}]}
    runs = j["series"][0]["runs"]
    check(r.code == 0 and "run 5 (" in r.out and "was cut short (by SIGTERM)" in r.out and
          [x.get("interrupted") for x in runs] == [None] * 4 + ["SIGTERM"] + [None] * (RUNS - 5),
          f"partial: --allow-partial reads it, run 5 named: exit {r.code}, {runs[:6]}", r)


def case_step():
    need_otava()
    env = {"BENCH_OTAVA": OTAVA}
    with bt.tmpdir() as d:
        real = real_runs(d, 4)
        timed = [p for p in real[0]["points"] if "time_ns" in p]
        vec = sum(p.get("benchmark") == "vecadd" for p in timed)
        flat, stepped = history(d, real, False), history(d, real, True)
        out = os.path.join(d, "flat-history.json")
        r = bt.run([BENCH, "history", flat, "--json", out] + MAGNITUDE, env=env)
        check(r.code == 0, f"step: unstepped history: exit {r.code}", r)
        j = bt.load_doc(out)
        check(len(j["series"]) == 1 and len(j["series"][0]["runs"]) == RUNS and not changes(j),
              f"step: unstepped history: {RUNS} runs, no change point: {changes(j)}", r)
        partial_history(d, flat, env)
        out = os.path.join(d, "stepped-history.json")
        r = bt.run([BENCH, "history", stepped, "--json", out] + MAGNITUDE, env=env)
        j = bt.load_doc(out)
        ch = changes(j)
        want = {n for n in j["series"][0]["points"] if n.startswith("vecadd")}
        check(r.code == 1 and set(ch) == want and len(want) == vec and
              all(runs == [STEP_AT + 1] for runs in ch.values()),
              f"step: stepped history: the {vec} vecadd points change at run {STEP_AT + 1}, "
              f"nothing else, exit 1: exit {r.code}, changes {ch}", r)
        check(f"from run {STEP_AT + 1}" in r.out and re.search(r"slower (4[5-9]|5[0-9]) %", r.out),
              f"step: the table names the run and the change: {r.out[-1500:]}", r)
        # bench export otava: the CSV and configuration Otava reads itself
        docs = sorted(str(p) for p in Path(stepped).glob("*.json"))
        csv, cfg = os.path.join(d, "h.csv"), os.path.join(d, "h.yaml")
        bt.must_run([BENCH, "export", "otava"] + docs + ["-o", csv, "--config", cfg])
        lines = Path(csv).read_text().splitlines()
        check(len(lines) == RUNS + 1 and lines[0].startswith("time,run,") and
              len(lines[0].split(",")) == 2 + len(timed),
              f"export otava: {RUNS} rows and {len(timed)} point columns: {lines[:2]}")
        r = bt.run([OTAVA, "analyze", "bench", "--config-file", cfg, "--output", "json",
                    "--since", "2025-01-01", "-M", "0.1"])
        rep = json.loads(r.out.strip().splitlines()[-1]) if r.code == 0 and r.out.strip() else {}
        got = {c["metric"] for g in rep.get("bench", []) for c in g["changes"]}
        check(got == want, f"export otava: Otava finds the same points: {got}", r)


def case_usage():
    with bt.tmpdir() as d:
        empty = os.path.join(d, "empty")
        os.makedirs(empty)
        doc = os.path.join(d, "a.json")
        bt.must_run([BENCH, "vecadd", "--groups", "1", "--reps", "3", "--quiet", "--json", doc] + DEVICE)
        bad = [([], "name a folder of results documents"),
               ([empty], "holds no results document"),
               ([doc, "--p-value", "2"], "--p-value '2' is not a number in 0..0.5"),
               ([doc, "--json", doc], "an input of this command")]
        cut, twin = os.path.join(d, "cut.json"), os.path.join(d, "twin.json")
        part = bt.load_doc(doc)
        part["interrupted"] = {"by": "SIGINT", "points_done": 1, "points_planned": 2}
        bt.write_doc(cut, part)
        bt.write_doc(twin, bt.load_doc(doc))
        folder = os.path.join(d, "runs")
        os.makedirs(folder)
        bt.write_doc(os.path.join(folder, "a.json"), bt.load_doc(doc))
        Path(folder, "b.json").write_text(Path(doc).read_text()[:100])
        bad += [([doc, twin, cut], "cut.json: interrupted: the run was cut short (by SIGINT after "
                 "1 of 2 points)"),
                ([doc, twin, doc], "is '" + doc + "' again"),
                ([folder], "b.json: truncated JSON")]
        for args, msg in bad:
            r = bt.run([BENCH, "history"] + args)
            check(r.code == 2 and msg in r.err, f"usage: history {args}: exit {r.code}: {r.err[-300:]}", r)
        out = os.path.join(d, "o.csv")
        bad = [([doc, "-o", out, "--order", "3"], "--order is LNT's"),
               ([doc, "-o", out, "--config", out], "the configuration and the CSV are two files"),
               ([doc, "-o", doc], "an input of this command"),
               ([doc, "-o", out, "--config", doc], "an input of this command"),
               ([doc, cut, "-o", out], "give --allow-partial"),
               ([doc, twin, doc, "-o", out], "document 3 '" + doc + "' is document 1"),
               ([doc, "-o", out, "--config", os.path.join(d, "no", "c.yaml")],
                "--config cannot write")]
        for args, msg in bad:
            r = bt.run([BENCH, "export", "otava"] + args)
            check(r.code == 2 and msg in r.err and not os.path.exists(out),
                  f"usage: export otava {args}: exit {r.code}, nothing written: {r.err[-300:]}", r)
        r = bt.run([BENCH, "export", "otava", doc, cut, "-o", out, "--allow-partial"])
        check(r.code == 0 and "cut.json was cut short (by SIGINT): run 2" in r.err,
              "export otava --allow-partial: the run cut short named", r)


def case_otava_fails():
    """Otava that fails or is interrupted, played by scripts (no Otava needed)."""
    with bt.tmpdir() as d:
        tmp = os.path.join(d, "tmp")
        os.makedirs(tmp)
        docs = []
        for i in range(3):
            docs.append(os.path.join(d, f"r{i}.json"))
            bt.must_run([BENCH, "vecadd", "--groups", "1,2", "--reps", "3", "--quiet", "--json",
                         docs[-1]] + DEVICE)
        left = lambda: [f for f in os.listdir(tmp) if f.startswith("bench-history-")]  # noqa: E731
        # exit 1 is "a series became slower": Otava's own failure is 3, named, with its status
        for otava, status in (("/bin/false", "exit status 1"),
                              ("/bin/true", "exit status 0 but no report")):
            r = bt.run([BENCH, "history"] + docs, env={"BENCH_OTAVA": otava, "TMPDIR": tmp})
            check(r.code == 3 and "Apache Otava failed" in r.err and otava in r.err and status in r.err,
                  f"otava-fails: {otava}: exit {r.code}, expected 3 naming Otava and {status!r}", r)
            check(not left(), f"otava-fails: {otava}: a temporary folder left: {left()}")
        # SIGINT while Otava runs (the script says it started, then waits): no folder left
        mark = os.path.join(d, "started")
        slow = os.path.join(d, "slow-otava")
        Path(slow).write_text(f"#!/bin/sh\ntouch '{mark}'\nexec sleep 600\n")
        os.chmod(slow, 0o755)
        p = bt.start([BENCH, "history"] + docs, env={"BENCH_OTAVA": slow, "TMPDIR": tmp})
        for _ in range(600):   # until the script has started (bounded, not a time limit)
            if os.path.exists(mark) or p.poll() is not None:
                break
            bt.time.sleep(0.1)
        check(left() != [] or p.poll() is not None, "otava-fails: the folder exists while Otava runs")
        p.send_signal(bt.signal.SIGINT)
        r = bt.finish(p, timeout=60)
        check(r.code == -2 or r.code == 130, f"otava-fails: SIGINT: exit {r.code}", r)
        check(not left(), f"otava-fails: SIGINT: a temporary folder left: {left()}")


def case_suite_dirs():
    need_otava()
    env = {"BENCH_OTAVA": OTAVA}
    suite = {"name": "two-entries", "description": "two vecadd entries",
             "args": ["--reps", "9", "--warmup", "1"],
             "entries": [{"bench": "vecadd", "args": ["--groups", "1,2", "--slice", "1Ki"]},
                         {"bench": "vecadd", "args": ["--variant", "1", "--n", "4Ki"]}]}
    with bt.tmpdir() as d:
        sf = os.path.join(d, "two-entries.json")
        bt.write_doc(sf, suite)
        runs = os.path.join(d, "runs")
        for i in range(3):
            bt.must_run([BENCH, "suite", sf, "--quiet", "-o", os.path.join(runs, f"r{i}")] + DEVICE)
        out = os.path.join(d, "h.json")
        # exit 1 where Otava finds a change point: three runs of microsecond launches beside other
        # tests can differ by more than the noise, and the series are what is checked here
        r = bt.run([BENCH, "history", runs, "--json", out], env=env)
        j = bt.load_doc(out) if os.path.exists(out) else {"series": []}
        got = [(s["name"], len(s["runs"]), len(s["points"])) for s in j["series"]]
        check(r.code in (0, 1) and got == [("two-entries", 3, 3)] and
              "6 entry documents of `bench suite -o` left out" in r.err and
              r.out.count("history of ") == 1,
              f"suite-dirs: one series of 3 runs and 3 points: exit {r.code}, {got}", r)
        entries = sorted(str(p) for p in Path(runs).glob("*/two-entries-0*.json"))
        r = bt.run([BENCH, "history", "--json", out] + entries, env=env)
        j = bt.load_doc(out) if os.path.exists(out) else {"series": []}
        got = [(s["name"], len(s["runs"]), len(s["points"])) for s in j["series"]]
        check(r.code in (0, 1) and got == [("two-entries entry 1 (vecadd)", 3, 2),
                                      ("two-entries entry 2 (vecadd)", 3, 1)],
              f"suite-dirs: the entry documents: a series per entry: exit {r.code}, {got}", r)


CASES = {"step": case_step, "usage": case_usage, "otava-fails": case_otava_fails,
         "suite-dirs": case_suite_dirs}

if __name__ == "__main__":
    if CASE not in CASES:
        bt.fail(f"unknown case {CASE}: {', '.join(CASES)}")
    CASES[CASE]()
    sys.exit(bt.verdict())
