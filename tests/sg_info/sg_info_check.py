#!/usr/bin/env python3
"""Runs `bench sg-info ... --json TMP` and checks the captured mappings.

usage: sg_info_check.py [--expect SPEC]... [--backend B] [--points N] -- BENCH sg-info ARGS...
SPEC is GLOBAL,LOCAL,WIDTH=SIZES/MAX (WIDTH a number or 'driver', SIZES the
sub-group sizes of work-group 0 joined by '+'), e.g. 15,15,16=15/16,
GLOBAL,LOCAL,WIDTH=uniform (one width throughout, the maximum, filling the work-group: the
driver's own choice, which depends on the host), or GLOBAL,LOCAL,WIDTH=skipped. Every point that is not skipped must be ok and
validated, with one captured row per work-item that agrees with its summary.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def point_key(p):
    pa = p["params"]
    w = pa["sg_width"] if pa["sg_width"] is not None else "driver"
    return f"{pa['global']},{pa['local']},{w}"


def check_rows(i, p, errors):
    m = p["mapping"]
    items = m["items"]
    if len(items) != p["params"]["global"]:
        errors.append(f"point {i}: {len(items)} rows for {p['params']['global']} work-items")
    sizes = [r[5] for r in items if r[1] == 0 and r[4] == 0]
    if sizes != m["sizes"]:
        errors.append(f"point {i}: rows give sizes {sizes}, summary {m['sizes']}")
    if sum(m["sizes"]) != p["params"]["local"]:
        errors.append(f"point {i}: sizes {m['sizes']} do not add up to {p['params']['local']}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--backend")
    ap.add_argument("--points", type=int)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = bt.after_dashes(a.cmd)
    r, doc = bt.run_with_doc(cmd)
    errors = []
    if r.code != 0:
        errors.append(f"exit code {r.code}")
    pts = []
    if doc is not None:
        pts = doc["points"]
        if doc.get("benchmark") != "sg-info":
            errors.append(f"benchmark {doc.get('benchmark')!r}")
    else:
        errors.append("no results document written")
    if a.points is not None and len(pts) != a.points:
        errors.append(f"{len(pts)} points, expected {a.points}")
    by_key = check_points(a, pts, errors)
    check_expected(a.expect, by_key, errors)
    return bt.errors_verdict(cmd, r, errors)


def check_points(a, pts, errors):
    """Every point ok and validated with its rows, or skipped with a reason: the points by key."""
    by_key = {}
    for i, p in enumerate(pts):
        by_key.setdefault(point_key(p), p)
        if a.backend and p["params"]["sg_backend"] != a.backend:
            errors.append(f"point {i}: backend {p['params']['sg_backend']}")
        if p["status"] == "skipped":
            if not p["reason"]:
                errors.append(f"point {i}: skipped without a reason")
            continue
        if p["status"] != "ok" or not p["validated"]:
            errors.append(f"point {i}: status {p['status']}, reason {p['reason']!r}")
            continue
        check_rows(i, p, errors)
    return by_key


def check_expected(specs, by_key, errors):
    for spec in specs:
        key, _, want = spec.partition("=")
        p = by_key.get(key)
        if p is None:
            errors.append(f"no point {key}; points: {sorted(by_key)}")
        elif want == "skipped":
            if p["status"] != "skipped":
                errors.append(f"{key}: status {p['status']}, expected skipped")
        elif p["status"] == "ok" and want == "uniform":
            # the driver's own choice: its width depends on the host's vector units (Intel's CPU
            # runtime takes 16 with AVX-512, 8 without), so the same width throughout, filling
            # the work-group, and no wider than the maximum it reports
            sz, mx, local = p["mapping"]["sizes"], p["mapping"]["max_sg_size"], p["params"]["local"]
            if not sz or len(set(sz)) != 1 or sz[0] != mx or sum(sz) != local:
                errors.append(f"{key}: sizes {sz} max {mx}, expected one width, the maximum, "
                              f"filling the work-group of {local}")
        elif p["status"] == "ok":
            sizes, _, mx = want.partition("/")
            got = "+".join(str(s) for s in p["mapping"]["sizes"])
            if got != sizes or p["mapping"]["max_sg_size"] != int(mx):
                errors.append(f"{key}: sizes {got} max {p['mapping']['max_sg_size']}, "
                              f"expected {sizes} max {mx}")


if __name__ == "__main__":
    sys.exit(main())
