#!/usr/bin/env python3
"""bench baseline, and bench suite --baseline --confirm, on a CPU platform.

usage: confirm_test.py BENCH CASE -- DEVICE ARGS
  baseline  three runs of a small suite make a baseline: every point's samples pooled, its
            spread stated and checked against the runs' medians; bad input refused (exit 2)
  confirm   a run against a baseline ten times faster than the device: every timed point
            regressed, each measured again once (two attempts agree at once), the document
            keeping the attempts and bench compare reading the same verdicts from it; exit 1
  confirm-sigint  SIGINT while a confirmation round runs an entry again: exit 130, the suite's
            document marked interrupted (during: confirmation), bench compare refusing it
            (exit 2, naming it) and reading it with --allow-partial, saying it is partial
  usage     --confirm without --baseline, a baseline of another suite, --confirm out of range
Exit 0 when every check passed.
"""
import json
import math
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH, CASE = sys.argv[1], sys.argv[2]
DEVICE = bt.after_dashes(sys.argv[3:])
SUITE = {"name": "confirm-test", "description": "a few stable points for the confirmation test",
         "args": ["--reps", "12", "--warmup", "1"],
         "entries": [{"bench": "vecadd", "args": ["--groups", "2,4", "--slice", "16Ki"]},
                     {"bench": "atomics", "args": ["--patterns", "own,wg", "--orders", "relaxed",
                                                   "--ops", "64"]}]}


def suite_file(d):
    path = os.path.join(d, "confirm-test.json")
    bt.write_doc(path, SUITE)
    return path


def runs(d, k):
    paths = []
    for i in range(k):
        p = os.path.join(d, f"run{i}.json")
        bt.must_run([BENCH, "suite", suite_file(d), "--quiet", "--json", p] + DEVICE)
        paths.append(p)
    return paths


def half_width(samples, conf=0.95):
    """Half the width of the 95 % order-statistics interval of the median, % of the median
    (host/stats.h: ranks l and n + 1 - l, l the largest with P(B <= l - 1) <= (1 - conf) / 2,
    B ~ Binomial(n, 1/2)); None below 6 samples."""
    x, n = sorted(samples), len(samples)
    cum, lo = 0.0, 0
    for k in range(n + 1):
        cum += math.comb(n, k) / 2 ** n
        if cum > (1 - conf) / 2:
            break
        lo = k + 1
    if lo < 1:
        return None
    return (x[n - lo] - x[lo - 1]) / 2 / bt.median(x) * 100


def case_baseline():
    with bt.tmpdir() as d:
        paths = runs(d, 3)
        out = os.path.join(d, "base.json")
        bt.must_run([BENCH, "baseline"] + paths + ["-o", out])
        base, docs = bt.load_doc(out), [bt.load_doc(p) for p in paths]
        check(base["baseline"]["runs"] == 3 and len(base["points"]) == len(docs[2]["points"]),
              f"baseline: 3 runs, the last run's points: {base.get('baseline')}")
        for i, p in enumerate(base["points"]):
            if "time_ns" not in p:
                continue
            meds = [doc["points"][i]["time_ns"]["median"] for doc in docs]
            m = bt.median(meds)
            want = max(abs(x / m - 1) for x in meds) * 100
            rs = p.get("run_spread", {})
            check(abs(rs.get("spread_pct", -1) - want) < 1e-6 * max(want, 1) and rs["runs"] == 3 and
                  p["time_ns"]["n"] == sum(doc["points"][i]["time_ns"]["n"] for doc in docs),
                  f"baseline: point {i}: spread {rs} against the runs' medians {meds}")
            halves = [half_width(doc["points"][i]["time_ns"]["samples"]) for doc in docs]
            within = bt.median([h for h in halves if h is not None])
            check(abs(rs.get("within_pct", -1) - within) < 1e-6 * max(within, 1),
                  f"baseline: point {i}: within_pct {rs.get('within_pct')} against the runs' "
                  f"intervals of their medians {halves}")
        spreads = {}
        for p in base["points"]:
            if "run_spread" in p:
                spreads.setdefault(p.get("run"), []).append(p["run_spread"]["spread_pct"])
        for i, p in enumerate(base["points"]):
            if "run_spread" in p:
                want = bt.median(spreads[p.get("run")])
                check(abs(p["run_spread"]["entry_spread_pct"] - want) < 1e-9 * max(want, 1),
                      f"baseline: point {i}: entry_spread_pct {p['run_spread']} against the "
                      f"median of entry {p.get('run')}'s spreads {spreads[p.get('run')]}")
        bad = [(paths[:2] + ["-o", out], "give 3 to 64 results documents"),
               (paths + ["-o", paths[0]], "it is run 1 '"),
               (paths, "give -o FILE")]
        for args, msg in bad:
            r = bt.run([BENCH, "baseline"] + args)
            check(r.code == 2 and msg in r.err, f"baseline: refused: {args[-2:]}: {r.err[-300:]}", r)


def case_confirm():
    with bt.tmpdir() as d:
        base = bt.load_doc(runs(d, 1)[0])
        for p in base["points"]:   # the baseline ten times faster than the device
            t = p.get("time_ns")
            if t:
                t["samples"] = [s / 10 for s in t["samples"]]
                t["median"] = bt.median(t["samples"])
                for k in ("min", "mean"):
                    if k in t:
                        t[k] = t[k] / 10
        bp = os.path.join(d, "fast.json")
        bt.write_doc(bp, base)
        out = os.path.join(d, "new.json")
        r = bt.run([BENCH, "suite", suite_file(d), "--baseline", bp, "--confirm", "2", "--json", out]
                   + DEVICE)
        check(r.code == 1 and "again, round 1 of 2" in r.out and "round 2 of 2" not in r.out,
              f"confirm: exit 1, one round of re-measurement (two attempts agree): exit {r.code}", r)
        doc = bt.load_doc(out)
        timed = [p for p in doc["points"] if "time_ns" in p]
        check(timed and all(len(p.get("attempts", [])) == 1 for p in timed),
              f"confirm: every timed point measured once again: "
              f"{[len(p.get('attempts', [])) for p in timed]}")
        c = os.path.join(d, "c.json")
        r = bt.run([BENCH, "compare", bp, out, "--quiet", "--json", c])
        j = bt.load_doc(c)
        v = {p["verdict"] for p in j["points"] if p["new"] and p["new"].get("median_ns")}
        check(r.code == 1 and v == {"regressed"} and
              all(p["attempts"] == ["regressed", "regressed"] for p in j["points"] if p["ratio"]),
              f"confirm: bench compare reads the attempts: {v}", r)


def case_confirm_sigint():
    """SIGINT while a confirmation round runs an entry again: every entry had ended, so only the
    document's `interrupted` says that the run was cut short; the readers refuse it."""
    suite = {"name": "confirm-test", "entries": [
        # --min-time: each pass of the point takes 3 s, long enough to be interrupted in
        {"bench": "vecadd", "args": ["--groups", "2", "--slice", "16Ki", "--reps", "12",
                                     "--min-time", "3", "--max-reps", "100000"]}]}
    with bt.tmpdir() as d:
        sf = bt.write_doc(os.path.join(d, "confirm-test.json"), suite)
        first = os.path.join(d, "first.json")
        bt.must_run([BENCH, "suite", sf, "--quiet", "--json", first] + DEVICE)
        base = bt.load_doc(first)
        for p in base["points"]:   # ten times faster than the device: every point regressed
            t = p.get("time_ns")
            if t:
                t["samples"] = [x / 10 for x in t["samples"]]
                t["median"] = bt.median(t["samples"])
        bp = bt.write_doc(os.path.join(d, "fast.json"), base)
        out = os.path.join(d, "new.json")
        p = bt.start([BENCH, "suite", sf, "--baseline", bp, "--confirm", "2", "--json", out]
                     + DEVICE)
        bt.signal_when(p, "again, round 1 of 2", [signal.SIGINT], delay=0.5, timeout=120)
        r = bt.finish(p, timeout=120)
        check(r.code == 130, f"confirm-sigint: exit {r.code}, expected 130", r)
        doc = bt.load_doc(out) if os.path.exists(out) else {}
        check(doc.get("interrupted") == {"by": "SIGINT", "entries_done": 1, "entries_planned": 1,
                                         "during": "confirmation"},
              f"confirm-sigint: the suite's document marked interrupted: {doc.get('interrupted')}", r)
        r = bt.run([BENCH, "compare", bp, out])
        check(r.code == 2 and out in r.err and "interrupted" in r.err and "--allow-partial" in r.err,
              f"confirm-sigint: bench compare refuses it, naming it: {r.err[-300:]}", r)
        r = bt.run([BENCH, "compare", bp, out, "--allow-partial"])
        # the table wraps its header at 100 columns wherever the device's name ends
        check(r.code in (0, 1) and "partial: interrupted by SIGINT" in " ".join((r.out + r.err).split()),
              f"confirm-sigint: --allow-partial reads it and says so: exit {r.code}", r)


def case_usage():
    with bt.tmpdir() as d:
        sf = suite_file(d)
        other = os.path.join(d, "other.json")
        bt.must_run([BENCH, "vecadd", "--groups", "1", "--quiet", "--json", other] + DEVICE)
        bad = [(["--confirm", "1"], "give --baseline FILE"),
               (["--baseline", other], "not of the suite 'confirm-test'"),
               (["--baseline", other, "--confirm", "9"], "--confirm"),
               (["--baseline", os.path.join(d, "missing.json")], "missing.json")]
        for args, msg in bad:
            r = bt.run([BENCH, "suite", sf, "--quiet"] + args + DEVICE)
            check(r.code == 2 and msg in r.err, f"usage: {args}: exit {r.code}: {r.err[-300:]}", r)


CASES = {"baseline": case_baseline, "confirm": case_confirm, "confirm-sigint": case_confirm_sigint,
         "usage": case_usage}

if __name__ == "__main__":
    if CASE not in CASES:
        bt.fail(f"unknown case {CASE}: {', '.join(CASES)}")
    CASES[CASE]()
    sys.exit(bt.verdict())
