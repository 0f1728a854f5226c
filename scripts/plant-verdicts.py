#!/usr/bin/env python3
"""The verdicts of a comparison against a planted slowdown, per family.

usage: plant-verdicts.py COMPARE_JSON [PLANT_JSON] [--markdown] [--strict]

COMPARE_JSON is `bench compare --json`'s document (BASE the unplanted run or baseline, NEW the
planted run); PLANT_JSON the plant.json that scripts/plant-slowdown.py wrote beside the planted
kernels (without it: an A/A comparison, every point outside any plant). Prints, per family,
the plant's nominal percent beside its measured strength (the median over its points of the
ratio of medians, NEW / BASE, and their range), the timed points it slows and how many came out
`regressed`, the same among the points it slowed by at least STRONG_PCT (4 %: what a 5 % aim
is judged on), the others' verdicts and ratios, every planted point that came out `improved`
(a slowdown called an improvement), the points it touched without being its own, and every
point outside the plant that came out `regressed`, every point left uncompared for its
calibration, and every point only one side holds (`new` or `missing`: judged against nothing).
Exit 0; with --strict 1 where a planted point is `improved`, a point outside the plant
`regressed`, a point was not compared for its calibration or a point was left unmatched; 2 for
an unreadable document.
"""
import collections
import json
import sys


def load(path, kind, ok):
    """The JSON document at path, where ok(document) holds; exit 2 naming the file otherwise."""
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"plant-verdicts: {path}: {e}\n")
        sys.exit(2)
    if not (isinstance(d, dict) and ok(d)):
        sys.stderr.write(f"plant-verdicts: {path}: not {kind}\n")
        sys.exit(2)
    return d


def matches(row, spec):
    if row.get("benchmark") != spec["benchmark"]:
        return False
    params = row.get("params") or {}
    return all(params.get(k) in v for k, v in spec.get("params", {}).items())


def family_of(row, table):
    for fam, specs in table.items():
        if any(matches(row, s) for s in specs):
            return fam
    return None


def describe(row):
    p = row.get("params") or {}
    keys = [k for k in ("variant", "groups", "n", "size", "bytes", "pattern", "order", "chases",
                        "wg_size", "tile") if k in p]
    ratio = row.get("ratio")
    rs = f"x{ratio:.3f}" if isinstance(ratio, (int, float)) else "no ratio"
    return f"{row.get('benchmark')} {' '.join(f'{k}={p[k]}' for k in keys)}: {rs}"


STRONG_PCT = 4.0


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2 if n else None


def main(argv):
    md = "--markdown" in argv
    strict = "--strict" in argv
    args = [a for a in argv if a not in ("--markdown", "--strict")]
    if len(args) not in (1, 2):
        sys.stderr.write(__doc__)
        return 2
    cmp = load(args[0], "a `bench compare --json` document (points[]: objects)",
               lambda d: isinstance(d.get("points"), list) and
               all(isinstance(r, dict) for r in d["points"]))
    plant = {"percent": 0, "planted": {}, "touched": {}}   # without one: an A/A comparison
    if len(args) == 2:
        plant = load(args[1], "plant-slowdown.py's plant.json (percent, planted)",
                     lambda d: isinstance(d.get("percent"), (int, float)) and
                     isinstance(d.get("planted"), dict))
    rows = [r for r in cmp["points"] if r.get("ratio") is not None]
    uncalibrated = [r for r in cmp["points"] if "calibrated differently" in (r.get("notes") or "")]
    unmatched = [r for r in cmp["points"] if r.get("verdict") in ("new", "missing")]
    per = collections.defaultdict(list)
    touched, outside = [], []
    for r in rows:
        fam = family_of(r, plant["planted"])
        if fam:
            per[fam].append(r)
        elif family_of(r, plant.get("touched", {})):
            touched.append(r)
        else:
            outside.append(r)
    pct = plant["percent"]
    bad = 0
    if md and plant["planted"]:
        print(f"| family | nominal | measured (median, range) | planted points | regressed | share "
              f"| slowed >= {STRONG_PCT:g} %: regressed | improved | other verdicts |")
        print("|---|---|---|---|---|---|---|---|---|")
    for fam in plant["planted"]:
        got = per.get(fam, [])
        c = collections.Counter(r["verdict"] for r in got)
        share = 100 * c["regressed"] / len(got) if got else 0
        ratios = sorted(r["ratio"] for r in got)
        span = f"{ratios[0]:.3f}-{ratios[-1]:.3f}" if ratios else "-"
        effect = f"{100 * (median(ratios) - 1):+.1f} %" if ratios else "-"
        strong = [r for r in got if r["ratio"] >= 1 + STRONG_PCT / 100]
        sreg = sum(r["verdict"] == "regressed" for r in strong)
        sshare = f"{sreg} of {len(strong)}" + (f" = {100 * sreg / len(strong):.1f} %" if strong else "")
        improved = [r for r in got if r["verdict"] == "improved"]
        bad += len(improved)
        others = ", ".join(f"{v} {n}" for v, n in sorted(c.items()) if v != "regressed") or "none"
        if md:
            print(f"| {fam} | {pct} % | {effect} ({span}) | {len(got)} | {c['regressed']} | "
                  f"{share:.1f} % | {sshare} | {len(improved)} | {others} |")
            continue
        print(f"{fam} ({pct} % planted, measured {effect}, ratios {span}): {c['regressed']} of "
              f"{len(got)} planted points regressed = {share:.1f} %; of those slowed by "
              f">= {STRONG_PCT:g} %: {sshare}; {others}")
        for r in got:
            if r["verdict"] != "regressed":
                print(f"  {r['verdict']}: {describe(r)}: {r.get('notes', '')}")
        for r in improved:
            print(f"  IMPROVED UNDER THE PLANT: {describe(r)}")
    oc = collections.Counter(r["verdict"] for r in outside)
    reg = [r for r in outside if r["verdict"] == "regressed"]
    bad += len(reg) + len(uncalibrated) + len(unmatched)
    line = (f"outside the plant: {len(outside)} points, " +
            ", ".join(f"{v} {n}" for v, n in sorted(oc.items())) +
            f"; regressed: {len(reg)}")
    print(line if not md else f"\n{line}")
    for r in reg:
        print(f"  regressed: {describe(r)}: {r.get('notes', '')}")
    if touched:
        tc = collections.Counter(r["verdict"] for r in touched)
        print(f"touched (kernel changed, not the family's points): {len(touched)} points, " +
              ", ".join(f"{v} {n}" for v, n in sorted(tc.items())))
    print(f"left uncompared for their calibration: {len(uncalibrated)}")
    for r in uncalibrated:
        print(f"  {describe(r)}: {r.get('notes', '')}")
    print(f"left unmatched (only in one document, judged against nothing): {len(unmatched)}")
    for r in unmatched:
        print(f"  {r['verdict']}: {describe(r)}")
    return 1 if strict and bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
