#!/usr/bin/env python3
"""Compares two results documents of the same benchmark, for regression checks in CI.

usage: compare.py [--threshold PCT] OLD.json NEW.json

Points are matched by their params (the random `seed` and the calibrated `spin`
left out). A point regressed when
  - its status went from ok to failed or skipped, or
  - its median time grew by more than PCT percent (default 10) and the two runs'
    sample ranges do not overlap (new p5 above old p95): a change inside the
    runs' own spread is noise, or
  - its measured residency (occupancy) changed.
Prints one line per matched point and a summary; exit 0 when nothing regressed,
1 when something did, 2 on bad input.
"""
import argparse
import json
import sys

VOLATILE = {"seed", "spin"}


def usage_error(msg):
    print(f"compare: usage: {msg}", file=sys.stderr)
    sys.exit(2)


def key(point):
    return json.dumps({k: v for k, v in point["params"].items() if k not in VOLATILE},
                      sort_keys=True)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        usage_error(f"cannot read results '{path}': {e}")
    if doc.get("schema_version") != 1 or "points" not in doc:
        usage_error(f"'{path}' is not a results document of schema_version 1")
    return doc


def label(point):
    return " ".join(f"{k}={v}" for k, v in point["params"].items()
                    if k not in VOLATILE and not isinstance(v, (dict, list)) and v is not None)


def compare_point(old, new, threshold):
    """Returns (text, regressed)."""
    if old["status"] != new["status"]:
        bad = old["status"] == "ok"
        return f"status {old['status']} -> {new['status']} ({new.get('reason')})", bad
    if new["status"] != "ok":
        return f"{new['status']} in both", False
    parts, bad = [], False
    ot, nt = old.get("time_ns"), new.get("time_ns")
    if ot and nt:
        change = (nt["median"] / ot["median"] - 1) * 100
        slower = change > threshold and nt["p5"] > ot["p95"]
        faster = change < -threshold and nt["p95"] < ot["p5"]
        parts.append(f"median {ot['median'] / 1e3:.2f} -> {nt['median'] / 1e3:.2f} us "
                     f"({change:+.1f}%){' REGRESSION' if slower else ' faster' if faster else ''}")
        bad = bad or slower
    om, nm = old.get("measured"), new.get("measured")
    if om and nm and om.get("resident_wg") != nm.get("resident_wg"):
        parts.append(f"resident {om.get('resident_wg')} -> {nm.get('resident_wg')} CHANGED")
        bad = True
    return "; ".join(parts) or "no timings", bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threshold", type=float, default=10.0)
    ap.add_argument("old")
    ap.add_argument("new")
    a = ap.parse_args()
    if not 0 < a.threshold < 1000:
        usage_error(f"--threshold {a.threshold} is out of range: allowed 0..1000 (percent)")
    old, new = load(a.old), load(a.new)
    if old.get("benchmark") != new.get("benchmark"):
        usage_error(f"benchmarks differ: {old.get('benchmark')} vs {new.get('benchmark')}")
    od, nd = old.get("device") or {}, new.get("device") or {}
    if (od.get("name"), od.get("driver_version")) != (nd.get("name"), nd.get("driver_version")):
        print(f"note: devices differ: {od.get('name')} {od.get('driver_version')} -> "
              f"{nd.get('name')} {nd.get('driver_version')}")
    olds = {key(p): p for p in old["points"]}
    regressed = matched = 0
    for p in new["points"]:
        o = olds.pop(key(p), None)
        if o is None:
            print(f"new point: {label(p)}")
            continue
        matched += 1
        text, bad = compare_point(o, p, a.threshold)
        regressed += bad
        print(f"{label(p)}: {text}")
    for p in olds.values():
        print(f"missing point: {label(p)}")
    print(f"{matched} points compared, {regressed} regressed")
    return 1 if regressed else 0


if __name__ == "__main__":
    sys.exit(main())
