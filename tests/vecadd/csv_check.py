#!/usr/bin/env python3
"""Runs `bench ... --csv TMP --json TMP2` and checks that the CSV holds one row per point
of the JSON document, with the expected columns.

usage: csv_check.py BENCH ARGS...
"""
import csv
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

with bt.tmpdir() as d:
    c, j = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
    r = bt.run(sys.argv[1:] + ["--csv", c, "--json", j])
    if r.code != 0:
        bt.fail(f"exit {r.code}: {r.err}")
    with open(c) as f:
        rows = list(csv.DictReader(f))
    doc = bt.load_doc(j)
bt.check(len(rows) == len(doc["points"]), f"{len(rows)} CSV rows for {len(doc['points'])} points")
for col in ("status", "validated", "params.groups", "params.wg_size", "time_ns.median",
            "time_ns.cv", "metrics.gbps", "metrics.fraction_of_copy"):
    bt.check(not rows or col in rows[0], f"no column {col}")
for row, p in zip(rows, doc["points"]):
    bt.check(int(row["params.groups"]) == p["params"]["groups"],
             f"groups {row['params.groups']} != {p['params']['groups']}")
    bt.check(not abs(float(row["time_ns.median"]) - p["time_ns"]["median"]) >
             1e-6 * p["time_ns"]["median"], "median differs between CSV and JSON")
sys.exit(bt.verdict(f"{len(rows)} rows agree"))
