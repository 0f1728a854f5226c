#!/usr/bin/env python3
"""Makes a bench compare document with every kind of point, and checks it against its schema.

usage: compare_docs.py BENCH DEVICE [--dir DIR] [--junit FILE] [--schema COMPARE_SCHEMA]
Writes base.json and new.json in DIR (default: a temporary folder, removed after) (vecadd variant 2 on DEVICE, 10 repetitions, groups 1..5
and 2..6: a missing and a new point), plants in NEW a point that failed, one three times
slower than BASE (regressed), one whose sub-group size the kernel saw differs (changed) and
one with 3 repetitions (inconclusive), then runs `bench compare BASE NEW --json compare.json` (exit 1:
something regressed) with --junit FILE where asked. With --schema the compare document must
be valid against it (the first violation's path is printed) and hold each of those verdicts;
exit 77 (skip) without python3-jsonschema.
"""
import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
import schema_check  # noqa: E402

WANT = {"missing", "new", "failed", "regressed", "changed", "inconclusive"}


def stats(samples):
    """The statistics of results/README.md: sample stddev, percentiles as numpy's default."""
    xs, n = sorted(samples), len(samples)

    def pct(p):
        pos = (n - 1) * p
        lo = int(pos)
        hi = min(lo + 1, n - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)

    mean = sum(xs) / n
    sd = (sum((x - mean) ** 2 for x in xs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    return {"min": xs[0], "median": pct(0.5), "mean": mean, "stddev": sd,
            "cv": sd / mean * 100 if mean else 0.0, "p5": pct(0.05), "p95": pct(0.95),
            "max": xs[-1], "n": n, "samples": list(samples)}


def plant(base, new):
    """NEW's points 0..3 (groups 2..5, BASE's 1..4): failed, regressed, changed, inconclusive.
    The regressed and changed points take BASE's own samples (times 3, as they are), so that
    their verdicts do not hang on this machine's noise."""
    p, b = new["points"], base["points"]
    p[0].update(status="failed", validated=False, reason="planted: words differ")
    for k in ("time_ns", "wall_ns", "noisy", "metrics"):
        p[0].pop(k, None)
    p[1]["time_ns"] = stats([x * 3.0 for x in b[2]["time_ns"]["samples"]])
    p[2]["time_ns"] = stats(b[3]["time_ns"]["samples"])
    p[2]["params"]["sg_size_kernel"] = 7
    p[3]["time_ns"] = stats(p[3]["time_ns"]["samples"][:3])
    p[3]["wall_ns"] = stats(p[3]["wall_ns"]["samples"][:3])


def compare(a, v, d):
    base, new, out = (os.path.join(d, n) for n in ("base.json", "new.json", "compare.json"))
    common = [a.bench, "vecadd", "--device", a.device, "--n", "16Ki", "--reps", "10", "--warmup", "1",
              "--quiet"]
    bt.must_run(common + ["--groups", "1..5", "--json", base], timeout=240)
    bt.must_run(common + ["--groups", "2..6", "--json", new], timeout=240)
    doc = bt.load_doc(new)
    plant(bt.load_doc(base), doc)
    bt.write_doc(new, doc)
    cmd = [a.bench, "compare", base, new, "--json", out, "--quiet"]
    if a.junit:
        cmd += ["--junit", a.junit]
    bt.must_run(cmd, 1, timeout=240)
    cmp = bt.load_doc(out)
    verdicts = {p["verdict"] for p in cmp["points"]}
    if not WANT <= verdicts:
        bt.fail(f"the comparison lacks the verdicts {sorted(WANT - verdicts)} (has {sorted(verdicts)})")
    if v is not None:
        if not schema_check.check(v, cmp, out):
            return 1
        print(f"compare: {len(cmp['points'])} points ({', '.join(sorted(verdicts))}), valid against "
              f"{os.path.basename(a.schema)}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("device")
    ap.add_argument("--dir")
    ap.add_argument("--junit")
    ap.add_argument("--schema")
    a = ap.parse_args()
    v = schema_check.validator(a.schema) if a.schema else None   # exits 77 without jsonschema
    if a.dir:
        return compare(a, v, a.dir)
    with bt.tmpdir() as d:
        return compare(a, v, d)


if __name__ == "__main__":
    sys.exit(main())
