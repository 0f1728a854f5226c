#!/usr/bin/env python3
"""docs/validation.md's count of the checks bench validate plans on a CPU platform is the count
`bench validate --list` prints there, so a check added or removed without the page fails.

usage: check_count.py BENCH PAGE PHRASE DEVICE
PHRASE is a regular expression of the page whose group 1 is the count (e.g. 'PoCL 3.1 plans
(\\d+)'). Exit 0 when they agree, 1 naming both figures, 77 where the device is not found.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH, PAGE, PHRASE, DEVICE = sys.argv[1:5]

text = " ".join(Path(PAGE).read_text().split())   # a figure may stand across a line break
m = re.search(PHRASE, text)
check(m is not None, f"{PAGE}: no '{PHRASE}' in the page")
r = bt.run([BENCH, "validate", "--device", DEVICE, "--list"])
if r.code == 77 or "no device" in r.err:
    bt.skip(f"no device {DEVICE}: {r.err.strip()}")
check(r.code == 0, f"bench validate --device {DEVICE} --list: exit {r.code}", r)
listed = len(r.out.split())
if m:
    check(int(m.group(1)) == listed,
          f"{PAGE} says {m.group(1)} checks ('{m.group(0)}'); bench validate --device {DEVICE} "
          f"--list plans {listed}: update the page")
sys.exit(bt.verdict(f"{PAGE}: {listed} checks on {DEVICE}, as the page says"))
