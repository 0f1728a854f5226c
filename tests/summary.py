#!/usr/bin/env python3
"""Prints 'PASSED FAILED SKIPPED' counts from a meson testlog.json."""
import sys

import benchtest as bt

counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for r in bt.json_lines(sys.argv[1]):
    key = {"OK": "OK", "EXPECTEDFAIL": "OK", "SKIP": "SKIP"}.get(r["result"], "FAIL")
    counts[key] += 1
print(counts["OK"], counts["FAIL"], counts["SKIP"])
