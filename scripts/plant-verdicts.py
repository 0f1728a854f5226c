#!/usr/bin/env python3
"""The verdicts of a comparison against a planted slowdown, per family.

usage: plant-verdicts.py COMPARE_JSON [PLANT_JSON] [--markdown]

COMPARE_JSON is `bench compare --json`'s document (BASE the unplanted run or baseline, NEW the
planted run); PLANT_JSON the plant.json that scripts/plant-slowdown.py wrote beside the planted
kernels (without it: an A/A comparison, every point outside any plant). Prints, per family,
the timed points it slows and how many came out `regressed` (with the others' verdicts and
ratios), the points it touched without being its own, and every point outside the plant that
came out `regressed`. Exit 0; 2 for an unreadable document.
"""
import collections
import json
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"plant-verdicts: {path}: {e}\n")
        sys.exit(2)


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


def main(argv):
    md = "--markdown" in argv
    args = [a for a in argv if a != "--markdown"]
    if len(args) not in (1, 2):
        sys.stderr.write(__doc__)
        return 2
    cmp = load(args[0])
    plant = load(args[1]) if len(args) == 2 else {"percent": 0, "planted": {}, "touched": {}}
    rows = [r for r in cmp.get("points", []) if r.get("ratio") is not None]
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
    if md:
        print(f"| family ({pct} %) | planted points | regressed | share | other verdicts | ratios |")
        print("|---|---|---|---|---|---|")
    for fam in plant["planted"]:
        got = per.get(fam, [])
        c = collections.Counter(r["verdict"] for r in got)
        share = 100 * c["regressed"] / len(got) if got else 0
        ratios = sorted(r["ratio"] for r in got)
        span = f"{ratios[0]:.3f}-{ratios[-1]:.3f}" if ratios else "-"
        others = ", ".join(f"{v} {n}" for v, n in sorted(c.items()) if v != "regressed") or "none"
        if md:
            print(f"| {fam} | {len(got)} | {c['regressed']} | {share:.1f} % | {others} | {span} |")
            continue
        print(f"{fam} ({pct} %): {c['regressed']} of {len(got)} planted points regressed = "
              f"{share:.1f} % (ratios {span}); {others}")
        for r in got:
            if r["verdict"] != "regressed":
                print(f"  {r['verdict']}: {describe(r)}: {r.get('notes', '')}")
    oc = collections.Counter(r["verdict"] for r in outside)
    reg = [r for r in outside if r["verdict"] == "regressed"]
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
