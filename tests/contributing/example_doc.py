#!/usr/bin/env python3
"""Holds the code CONTRIBUTING.md shows in "A worked example" to the example's files.

usage: example_doc.py CONTRIBUTING.md FILE...

Every fenced block (```c, ```json, ```meson) of the section "## A worked example" must appear,
line for line, in one of FILEs (tests/contributing/: the example the test suite builds and
runs). Exit 0 when each does, 1 naming the first line of each that does not.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def section(text, title):
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return m.group(1) if m else None


def main(argv):
    doc, files = argv[1], argv[2:]
    body = section(open(doc).read(), "A worked example")
    bt.check(body is not None, f"{doc}: no section '## A worked example'")
    blocks = re.findall(r"^```\w+\n(.*?)^```", body or "", re.S | re.M)
    bt.check(len(blocks) >= 3, f"{doc}: the worked example shows {len(blocks)} blocks of code")
    texts = [open(f).read() for f in files]
    for b in blocks:
        bt.check(any(b in t for t in texts),
                 f"{doc}: a block of the worked example is in none of the example's files: "
                 f"{b.splitlines()[0] if b else ''!r}")
    return bt.verdict(f"{len(blocks)} blocks of the worked example, each in the example's files")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
