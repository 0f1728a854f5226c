#!/usr/bin/env python3
"""Runs `bench ... --csv TMP --json TMP2` and checks that the CSV holds one row per point
of the JSON document, with the expected columns.

usage: csv_check.py BENCH ARGS...
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

with tempfile.TemporaryDirectory() as d:
    c, j = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
    r = subprocess.run(sys.argv[1:] + ["--csv", c, "--json", j], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr)
        sys.exit(1)
    rows = list(csv.DictReader(open(c)))
    doc = json.load(open(j))
    errors = []
    if len(rows) != len(doc["points"]):
        errors.append(f"{len(rows)} CSV rows for {len(doc['points'])} points")
    for col in ("status", "validated", "params.groups", "params.wg_size", "time_ns.median",
                "time_ns.cv", "metrics.gbps", "metrics.fraction_of_copy"):
        if rows and col not in rows[0]:
            errors.append(f"no column {col}")
    for row, p in zip(rows, doc["points"]):
        if int(row["params.groups"]) != p["params"]["groups"]:
            errors.append(f"groups {row['params.groups']} != {p['params']['groups']}")
        if abs(float(row["time_ns.median"]) - p["time_ns"]["median"]) > 1e-6 * p["time_ns"]["median"]:
            errors.append("median differs between CSV and JSON")
    print("\n".join(errors) or f"{len(rows)} rows agree")
    sys.exit(1 if errors else 0)
