#!/usr/bin/env python3
"""Runs `bench ... --json TMP` and checks the results document.

usage: bench_json.py [checks] -- BENCH SUBCOMMAND ARGS...
checks:
  --points N            exactly N points
  --all-ok              every point has status ok and validated true, with timings
  --param KEY=VALUE     every point's params[KEY] equals VALUE (JSON literal, or a string)
  --metric-positive K   every point's metrics[K] is a number > 0
  --status S            every point has status S (e.g. skipped)
  --code N              expected exit code (default 0)
  --default-device      the document's device is the one `bench info --default` names
  --env NAME=VALUE      runs the command with NAME set to VALUE (may be empty)
Also checks the document's schema: version, tool, command, device, benchmark.
"""
import argparse
import json
import sys

import benchtest as bt


def literal(s):
    try:
        return json.loads(s)
    except ValueError:
        return s


def check_schema(doc, errors):
    for key in ("schema_version", "tool", "timestamp", "command", "host", "device",
                "benchmark", "points"):
        if key not in doc:
            errors.append(f"document lacks {key!r}")
    if doc.get("schema_version") != 1:
        errors.append(f"schema_version {doc.get('schema_version')!r}")
    for i, p in enumerate(doc.get("points", [])):
        for key in ("params", "status", "reason", "validated"):
            if key not in p:
                errors.append(f"point {i} lacks {key!r}")
        if p.get("status") == "ok" and not p.get("validated"):
            errors.append(f"point {i} is ok but not validated")
        if p.get("status") == "ok" and "time_ns" in p:
            t = p["time_ns"]
            if not (t["min"] <= t["p5"] <= t["median"] <= t["p95"] <= t["max"]):
                errors.append(f"point {i}: inconsistent statistics {t}")
            if len(t["samples"]) != t["n"]:
                errors.append(f"point {i}: {len(t['samples'])} samples, n = {t['n']}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", type=int)
    ap.add_argument("--all-ok", action="store_true")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--metric-positive", action="append", default=[])
    ap.add_argument("--status")
    ap.add_argument("--code", type=int, default=0)
    ap.add_argument("--default-device", action="store_true")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = bt.after_dashes(a.cmd)
    env = dict(kv.partition("=")[::2] for kv in a.env)
    r, doc = bt.run_with_doc(cmd, env=env)
    errors = []
    if r.code != a.code:
        errors.append(f"exit code {r.code}, expected {a.code}")
    if doc is None:
        errors.append("no results document written")
    else:
        check_schema(doc, errors)
        check_points(a, doc["points"], errors)
        if a.default_device:
            check_default_device(cmd[0], doc, errors)
    return bt.errors_verdict(cmd, r, errors)


def check_default_device(bench, doc, errors):
    """The document's device is the one chosen without --device (bench info reads no
    BENCH_DEVICE: its --default is that choice as bench makes it)."""
    r = bt.run([bench, "info", "--default", "--json"])
    if r.code != 0:
        errors.append(f"bench info --default: exit {r.code}: {r.err.strip()}")
        return
    want = json.loads(r.out)[0]
    got = doc.get("device") or {}
    keys = ("platform_index", "device_index", "platform", "name")
    if any(got.get(k) != want.get(k) for k in keys):
        errors.append("device %s, not the default device %s" % (
            {k: got.get(k) for k in keys}, {k: want.get(k) for k in keys}))


def check_points(a, pts, errors):
    if a.points is not None and len(pts) != a.points:
        errors.append(f"{len(pts)} points, expected {a.points}")
    if not pts:
        errors.append("no points")
    for i, p in enumerate(pts):
        if a.all_ok and (p["status"] != "ok" or not p["validated"] or "time_ns" not in p):
            errors.append(f"point {i}: status {p['status']}, reason {p['reason']!r}")
        if a.status and p["status"] != a.status:
            errors.append(f"point {i}: status {p['status']}, expected {a.status}")
        for kv in a.param:
            k, _, v = kv.partition("=")
            if p["params"].get(k) != literal(v):
                errors.append(f"point {i}: params.{k} = {p['params'].get(k)!r}, "
                              f"expected {literal(v)!r}")
        for k in a.metric_positive:
            v = p.get("metrics", {}).get(k)
            if not isinstance(v, (int, float)) or not v > 0:
                errors.append(f"point {i}: metrics.{k} = {v!r}")


if __name__ == "__main__":
    sys.exit(main())
