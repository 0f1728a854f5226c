#!/usr/bin/env python3
"""Prints 'PASSED FAILED SKIPPED' counts from a meson testlog.json."""
import json
import sys

counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
with open(sys.argv[1]) as f:
    for line in f:
        if line.strip():
            r = json.loads(line)["result"]
            key = {"OK": "OK", "EXPECTEDFAIL": "OK", "SKIP": "SKIP"}.get(r, "FAIL")
            counts[key] += 1
print(counts["OK"], counts["FAIL"], counts["SKIP"])
